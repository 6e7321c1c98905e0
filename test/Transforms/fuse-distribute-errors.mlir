// tc-fuse-distribute diagnostics: no plan fits (with the smallest memory that
// would), formulas that do not form one tree, an accumulating formula.
// RUN: tc-opt %s -split-input-file --tc-fuse-distribute -verify-diagnostics
// RUN: not tc-opt %s -split-input-file --tc-fuse-distribute="max-grid-dims=5" 2>&1 | FileCheck %s --check-prefix=DIMS
// RUN: not tc-opt %s -split-input-file --tc-fuse-distribute="machine-file=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: echo '{"mcost": {"4:<x0>-><*>": [[1, "fast"]]}}' > %t.bad.json
// RUN: not tc-opt %s -split-input-file --tc-fuse-distribute="machine-file=%t.bad.json" 2>&1 | FileCheck %s --check-prefix=POINT

// DIMS: error: tc-fuse-distribute max-grid-dims=5 is out of range 1..4
// FILE: error: machine file '{{.*}}.missing.json': No such file or directory
// POINT: error: machine file '{{.*}}.bad.json': mcost '4:<x0>-><*>' has a point that is not [bytes, seconds]

module attributes {tc.machine = #tc.machine<procs = 4, mem = "1KB", net_bw = "1GB/s", disk_bw = "1GB/s">} {
  // expected-error @+1 {{no fusion and distribution of @too_big fits in 1.0 KB per process on 4 processes; the smallest plan needs 8.5 KB per process (about 8464 bytes: raise mem to at least that, or use more processes)}}
  func.func @too_big(%A: tensor<64x64xf64>, %B: tensor<64x64xf64>, %C: tensor<64x64xf64>) -> tensor<64x64xf64> {
    %T = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    %R = tc.contract [i, l] = %T[i, j] * %C[j, l] : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %R : tensor<64x64xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 4, mem = "1GB", net_bw = "1GB/s", disk_bw = "1GB/s">} {
  func.func @used_twice(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>) -> (tensor<8x8xf64>, tensor<8x8xf64>) {
    // expected-error @+1 {{the result of this formula is used 2 times; tc-fuse-distribute needs the function's tc ops to form one operator tree whose root is returned}}
    %T = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    %R = tc.contract [i, l] = %T[i, j] * %T[j, l] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %R, %R : tensor<8x8xf64>, tensor<8x8xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 4, mem = "1GB", net_bw = "1GB/s", disk_bw = "1GB/s">} {
  func.func @input_twice(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>) -> tensor<8x8xf64> {
    %T = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    // expected-error @+1 {{input A is used by two formulas; an operator tree uses each array once}}
    %R = tc.contract [i, l] = %T[i, j] * %A[j, l] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %R : tensor<8x8xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 4, mem = "1GB", net_bw = "1GB/s", disk_bw = "1GB/s">} {
  func.func @two_roots(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>, %C: tensor<8x8xf64>, %D: tensor<8x8xf64>) -> tensor<8x8xf64> {
    // expected-error @+1 {{the result of this formula is not returned (or used elsewhere); tc-fuse-distribute needs the function's tc ops to form one operator tree whose root is returned}}
    %T = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    %R = tc.contract [i, l] = %C[i, j] * %D[j, l] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %R : tensor<8x8xf64>
  }
}

// -----

module attributes {tc.machine = #tc.machine<procs = 4, mem = "1GB", net_bw = "1GB/s", disk_bw = "1GB/s">} {
  func.func @accumulates(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>, %C: tensor<8x8xf64>, %D: tensor<8x8xf64>) -> tensor<8x8xf64> {
    %T = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    // expected-error @+1 {{a contraction in an operator tree cannot accumulate into an existing tensor (+=); write T = ... and add separately}}
    %R = tc.contract %D[i, l] += %T[i, j] * %C[j, l] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %R : tensor<8x8xf64>
  }
}

// -----

module {
  // expected-error @+1 {{planning needs a machine model}}
  func.func @no_machine(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>, %C: tensor<8x8xf64>) -> tensor<8x8xf64> {
    %T = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    %R = tc.contract [i, l] = %T[i, j] * %C[j, l] : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %R : tensor<8x8xf64>
  }
}

// -----

// An operator tree of block-sparse formulas is refused likewise.
module attributes {tc.machine = #tc.machine<procs = 2, mem = "1MB", net_bw = "1GB/s", disk_bw = "100MB/s">} {
  func.func @blocks(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>, %b: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>, %d: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>) -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>> {
    // expected-error @+1 {{'tc.contract' op has block-sparse operands (#tc.blocks): tc-plan-block-sparse plans them}}
    %t = tc.contract [i, j] = %a[i, k] * %b[k, j] : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>, tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>> -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
    %r = tc.contract [i, l] = %t[i, j] * %d[j, l] : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>, tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>> -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
    return %r : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
  }
}
