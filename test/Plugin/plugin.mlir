// Debian's own mlir-opt-22 loads tc as a dialect plugin and as a pass plugin.
// RUN: %mlir_opt %s --load-dialect-plugin=%tc_plugin | %mlir_opt --load-dialect-plugin=%tc_plugin | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %mlir_opt %s --load-dialect-plugin=%tc_plugin --load-pass-plugin=%tc_plugin --pass-pipeline="builtin.module(tc-convert-to-linalg)" | FileCheck %s --check-prefix=PASS
// RUN: %mlir_opt --load-pass-plugin=%tc_plugin --help | FileCheck %s --check-prefix=HELP
// RUN: not %mlir_opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// ROUNDTRIP-LABEL: func @matmul
// ROUNDTRIP: tc.contract %{{.*}}[i, j] += %{{.*}}[i, k] * %{{.*}}[k, j] : tensor<4x6xf64>, tensor<6x5xf64> -> tensor<4x5xf64>
// PASS-LABEL: func @matmul
// PASS: linalg.generic
// PASS-NOT: tc.contract
// HELP: --tc-convert-to-linalg
// NOPLUGIN: error: Dialect `tc' not found for custom op 'tc.contract'
func.func @matmul(%A: tensor<4x6xf64>, %B: tensor<6x5xf64>, %C: tensor<4x5xf64>) -> tensor<4x5xf64> {
  %r = tc.contract %C[i, j] += %A[i, k] * %B[k, j] : tensor<4x6xf64>, tensor<6x5xf64> -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}
