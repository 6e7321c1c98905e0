// A product of four tensors compiled by tcc: tc-plan minimizes it into three
// binary contractions (tc-minimize-operations; B*D, then *C, then *A) which the
// fusion planner plans as one operator tree. Cociorva et al.'s running example
// at small extents, on 1, 2 and 4 processes, in memory and with 40 KB per
// process: results equal numpy's einsum and every rank's bytes the prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: tc-opt %s --tc-plan="procs=2 mem=1MB net-bw=1GB/s disk-bw=200MB/s" | FileCheck %s --check-prefix=PLAN
// PLAN-COUNT-3: tc.contract
// PLAN: tc.flops = {after = 5.852160e+05 : f64, before = {{.*}} : f64}
// PLAN-NOT: tc.multi_contract
// The report gives the flops before and after.
// RUN: tc-opt %s --tc-plan="procs=2 mem=1MB net-bw=1GB/s disk-bw=200MB/s report=%t.json table=-" -o /dev/null | FileCheck %s --check-prefix=TABLE
// TABLE: product {{.*}}multi-contract.mlir:{{[0-9]+}}:{{[0-9]+}}  (tc-minimize-operations: 7.644e+08 flops as one loop nest, 5.852e+05 as a tree of binary contractions)
// RUN: %python -c "import json,sys; p = json.load(open(sys.argv[1]))['products'][0]; print(int(p['flops_before']), int(p['flops_after']))" %t.json | FileCheck %s --check-prefix=JSON
// JSON: 764411904 585216
// RUN: for mem in 1MB 40KB; do for np in 1 2 4; do \
// RUN:   tcc %s -o %t.d/prog --procs $np --mem $mem --net-bw 1GB/s --disk-bw 200MB/s || exit 1; \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/prog --np $np --spec "S[a,b,i,j] = A[a,c,i,k] * B[b,e,f,l] * C[d,f,j,k] * D[c,d,e,l]" --extents a=8,b=8,i=8,j=8,c=6,k=6,e=6,f=6,l=6,d=6 --check-bytes || exit 1; \
// RUN: done; done | FileCheck %s
// CHECK-COUNT-6: OK
module {
  func.func @cociorva(%A: tensor<8x6x8x6xf64> {tc.name = "A"}, %B: tensor<8x6x6x6xf64> {tc.name = "B"},
                      %C: tensor<6x6x8x6xf64> {tc.name = "C"}, %D: tensor<6x6x6x6xf64> {tc.name = "D"})
      -> (tensor<8x8x8x8xf64> {tc.name = "S"}) {
    %S = tc.multi_contract [a, b, i, j] = %A[a, c, i, k] * %B[b, e, f, l] * %C[d, f, j, k] * %D[c, d, e, l]
           : tensor<8x6x8x6xf64>, tensor<8x6x6x6xf64>, tensor<6x6x8x6xf64>, tensor<6x6x6x6xf64> -> tensor<8x8x8x8xf64>
    return %S : tensor<8x8x8x8xf64>
  }
}
