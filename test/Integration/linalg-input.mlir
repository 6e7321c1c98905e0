// A program written in linalg (as another compiler would hand it over) compiled
// by tcc: raised to tc.contract (tc-raise-linalg), planned and run on 1, 2 and
// 4 processes, in memory and out of core: results equal numpy's and every
// rank's bytes the prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for mem in 1MB 24KB; do for np in 1 2 4; do \
// RUN:   tcc %s -o %t.d/prog --procs $np --mem $mem --net-bw 1GB/s --disk-bw 200MB/s || exit 1; \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/prog --np $np --spec "C[i,j] = A[k,i] * B[j,k]" --extents i=64,j=40,k=48 --scratch %t.d --check-bytes || exit 1; \
// RUN: done; done | FileCheck %s
// CHECK-COUNT-6: OK
#mA = affine_map<(i, j, k) -> (k, i)>
#mB = affine_map<(i, j, k) -> (j, k)>
#mC = affine_map<(i, j, k) -> (i, j)>
module {
  func.func @mm(%a: tensor<48x64xf64> {tc.name = "A"}, %b: tensor<40x48xf64> {tc.name = "B"})
      -> (tensor<64x40xf64> {tc.name = "C"}) {
    %zero = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<64x40xf64>
    %c = linalg.fill ins(%zero : f64) outs(%e : tensor<64x40xf64>) -> tensor<64x40xf64>
    %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
           ins(%a, %b : tensor<48x64xf64>, tensor<40x48xf64>) outs(%c : tensor<64x40xf64>) {
    ^bb0(%x: f64, %y: f64, %acc: f64):
      %m = arith.mulf %x, %y : f64
      %s = arith.addf %acc, %m : f64
      linalg.yield %s : f64
    } -> tensor<64x40xf64>
    return %r : tensor<64x40xf64>
  }
}
