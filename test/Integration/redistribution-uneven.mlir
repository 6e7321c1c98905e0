// Given and required layouts with extents no block divides ([G] 2.3 stages 1
// and 3; docs/Derivations.md D31): A arrives split along i and the result is
// required split along i while the plans need other layouts (A split along k or
// whole or in slabs, C split along j or whole, Cannon's pre-skewed blocks). On
// 3 and 4 processes, in core and out of core, f64 and f32: results against
// numpy, and every rank's disk, sent and received bytes, redistributions
// included, equal the prediction.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: for cfg in "3 outside replication_b f64" "3 inside replication_a f32" "3 outside accumulation f64" \
// RUN:            "4 inside accumulation f32" "4 outside replication_a f64"; do \
// RUN:   set -- $cfg; \
// RUN:   sed -e "s/NP/$1/g" -e "s/PLAN/in_core = false, method = $2, algorithm = $3/" -e "s/ELEM/$4/g" %s > %t.d/g.mlir && \
// RUN:   tcc %t.d/g.mlir -o %t.d/g --procs $1 --mem 24KB && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/g --np $1 --dtype $4 --spec "C[i,j] += A[i,k] * B[k,j]" --extents i=61,j=29,k=37 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-5: OK
// RUN: for plan in "in_core = true, algorithm = rotation" "in_core = false, method = inside, algorithm = rotation"; do \
// RUN:   sed -e "s/<\[NP\]> from <\[i\]> to <\[k\]>/<[2, 2]> from <[i, k]> to <[k, i]>/" -e "s/<\[NP\]> from <\[j\]> to <\[i\]>/<[2, 2]> from <[j, i]> to <[i, j]>/" \
// RUN:       -e "s/NP/4/g" -e "s/PLAN/$plan/" -e "s/ELEM/f64/g" %s > %t.d/r.mlir && \
// RUN:   tcc %t.d/r.mlir -o %t.d/r --procs 4 --mem 24KB && \
// RUN:   %python %tc_src/scripts/run-contraction.py %t.d/r --np 4 --spec "C[i,j] += A[i,k] * B[k,j]" --extents i=61,j=29,k=37 --scratch %t.d --check-bytes || exit 1; \
// RUN: done | FileCheck %s --check-prefix=ROTATION
// ROTATION-COUNT-2: OK
module attributes {tc.machine = #tc.machine<procs = NP, mem = "24KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @given(%A: tensor<61x37xELEM>, %B: tensor<37x29xELEM>, %C: tensor<61x29xELEM>) -> tensor<61x29xELEM> {
    %a = tc.redistribute %A [i, k] on <[NP]> from <[i]> to <[k]> : tensor<61x37xELEM>
    %r = tc.contract %C[i, j] += %a[i, k] * %B[k, j]
           {tc.plan = #tc.plan<PLAN>}
           : tensor<61x37xELEM>, tensor<37x29xELEM> -> tensor<61x29xELEM>
    %out = tc.redistribute %r [i, j] on <[NP]> from <[j]> to <[i]> : tensor<61x29xELEM>
    return %out : tensor<61x29xELEM>
  }
}
