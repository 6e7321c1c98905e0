// The serial meaning of tc ops, executed: tc -> linalg -> loops -> LLVM, run by
// mlir-runner, numbers checked against hand-computed results; once as linalg.generic,
// once with binary contractions as linalg.contract (use-contract).
// DEFINE: %{run} = --one-shot-bufferize="bufferize-function-boundaries" \
// DEFINE:   --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata \
// DEFINE:   --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts \
// DEFINE: | mlir-runner -e main -entry-point-result=void \
// DEFINE:   -shared-libs=%mlir_lib_dir/libmlir_runner_utils%shlibext,%mlir_lib_dir/libmlir_c_runner_utils%shlibext \
// DEFINE: | FileCheck %s
// RUN: tc-opt %s --tc-convert-to-linalg %{run}
// RUN: tc-opt %s --tc-convert-to-linalg=use-contract=true %{run}

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<?xf64>) {
  %m = bufferization.to_buffer %t : tensor<?xf64> to memref<?xf64>
  %u = memref.cast %m : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  return
}

func.func @main() {
  %A = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf64>
  %B = arith.constant dense<[[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<2x3xf64>
  %C = arith.constant dense<1.0> : tensor<2x2xf64>
  // C[i,j] += A[i,k] * B[j,k] = 1 + A B^T = [[51, 69], [123, 168]]
  %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k] : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x2xf64>
  %rf = tensor.collapse_shape %r [[0, 1]] : tensor<2x2xf64> into tensor<4xf64>
  %rd = tensor.cast %rf : tensor<4xf64> to tensor<?xf64>
  // CHECK: [51,  69,  123,  168]
  call @print(%rd) : (tensor<?xf64>) -> ()

  // Permuted result labels: T[j,i] = sum_k A[i,k] * B[j,k] = [[50, 122], [68, 167]]
  %t = tc.contract [j, i] = %A[i, k] * %B[j, k] : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x2xf64>
  %tf = tensor.collapse_shape %t [[0, 1]] : tensor<2x2xf64> into tensor<4xf64>
  %td = tensor.cast %tf : tensor<4xf64> to tensor<?xf64>
  // CHECK: [50,  122,  68,  167]
  call @print(%td) : (tensor<?xf64>) -> ()

  // S[j] = sum_i C'[i,j] over the accumulated result: [51 + 123, 69 + 168]
  %s = tc.sum [j] = %r[i, j] : tensor<2x2xf64> -> tensor<2xf64>
  %sd = tensor.cast %s : tensor<2xf64> to tensor<?xf64>
  // CHECK: [174,  237]
  call @print(%sd) : (tensor<?xf64>) -> ()

  // Three-operand product, summed to a vector: M[i] = sum_{k,j} A[i,k] * B[j,k] * v[j]
  // with v = [1, 2]: [50 + 2*68, 122 + 2*167] = [186, 456]
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %m = tc.multi_contract [i] = %A[i, k] * %B[j, k] * %v[j] : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2xf64> -> tensor<2xf64>
  %md = tensor.cast %m : tensor<2xf64> to tensor<?xf64>
  // CHECK: [186,  456]
  call @print(%md) : (tensor<?xf64>) -> ()
  return
}
