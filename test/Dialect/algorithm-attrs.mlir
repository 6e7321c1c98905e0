// Each parallel algorithm's own attribute round-trips, standing alone and as
// #tc.plan's algorithm: without parameters it is the bare keyword there.
// RUN: tc-opt %s | tc-opt | FileCheck %s

// CHECK-LABEL: func.func @standalone
// CHECK-SAME: a = #tc.gao<rotation>
// CHECK-SAME: b = #tc.cosma<rounds = {k = 3 : i64}>
// CHECK-SAME: c = #tc.cosma,
// CHECK-SAME: d = #tc.pumma<roll = b>
// CHECK-SAME: e = #tc.batch
func.func @standalone() attributes {a = #tc.gao<rotation>, b = #tc.cosma<rounds = {k = 3}>,
                                    c = #tc.cosma, d = #tc.pumma<roll = b>, e = #tc.batch} {
  return
}

// CHECK-LABEL: func.func @in_plans
// CHECK-SAME: a = #tc.plan<algorithm = replication_b>
// CHECK-SAME: b = #tc.plan<algorithm = #tc.cosma<rounds = {k = 3 : i64}>, grid = <[2, 2, 1]>>
// CHECK-SAME: c = #tc.plan<algorithm = cosma>
// CHECK-SAME: d = #tc.plan<algorithm = #tc.pumma<roll = b>>
// CHECK-SAME: e = #tc.plan<algorithm = pumma>
// CHECK-SAME: f = #tc.plan<algorithm = batch>
func.func @in_plans() attributes {a = #tc.plan<algorithm = #tc.gao<replication_b>>,
    b = #tc.plan<algorithm = #tc.cosma<rounds = {k = 3}>, grid = <[2, 2, 1]>>,
    c = #tc.plan<algorithm = #tc.cosma>, d = #tc.plan<algorithm = #tc.pumma<roll = b>>,
    e = #tc.plan<algorithm = pumma>, f = #tc.plan<algorithm = #tc.batch>} {
  return
}
