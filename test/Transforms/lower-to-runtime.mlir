// tc-lower-to-runtime: one runtime call per tile-level op, static descriptions
// as constant globals, buffers and offsets by pointer.
// RUN: tc-opt %s --tc-lower-to-runtime | FileCheck %s

// CHECK-DAG: memref.global "private" constant @[[ADESC:__tc_desc_[0-9]+]] : memref<15xi64> = dense<[2, 0, 0, 1, 2, 2, 2, 64, 0, -1, 0, 64, -1, -1, 1]>
// CHECK-DAG: memref.global "private" constant @[[NAME:__tc_name_[0-9]+]] : memref<2xi8> = dense<[65, 0]>
// Every kind and initial value reaches the runtime as its tc_rt_kind / tc_rt_init
// (desc[1], desc[2]).
// CHECK-DAG: memref.global "private" constant @{{.*}} : memref<10xi64> = dense<[1, 1, 2, 0, 1, 4, 8, -1, -1, 0]>
// CHECK-DAG: memref.global "private" constant @{{.*}} : memref<10xi64> = dense<[1, 2, 1, 1, 1, 4, 8, -1, -1, 0]>
// CHECK-DAG: memref.global "private" constant @{{.*}} : memref<10xi64> = dense<[1, 3, 0, 1, 1, 4, 8, -1, -1, 0]>
// CHECK-LABEL: func.func @prog()
// CHECK: memref.alloca() : memref<2xi64>
// CHECK: call @tc_rt_plan(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (f64, f64, f64, i64) -> ()
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: memref.get_global @[[ADESC]]
// CHECK-DAG: memref.get_global @[[NAME]]
// CHECK: %[[A:.*]] = call @tc_rt_array(%{{.*}}, %{{.*}}, %[[NULL]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.ptr
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<2xi64>
// CHECK: call @tc_rt_read_tile(%[[A]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: call @tc_rt_tile_contract(
// CHECK: call @tc_rt_allreduce_tile(
// CHECK: call @tc_rt_write_tile(%[[A]],
// CHECK: call @tc_rt_shift_array(%[[A]], %{{.*}}) : (!llvm.ptr, i64) -> ()
// CHECK: call @tc_rt_store(%[[A]])
// CHECK-NOT: tc.
// CHECK: func.func private @tc_rt_plan(f64, f64, f64, i64)
module attributes {tc.machine = #tc.machine<procs = 4, mem = "12KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @prog() {
    tc.predicted_volumes {chunk_bytes = 4096 : i64, comm_bytes = 1.0 : f64, disk_bytes = 2.0 : f64, flops = 3.0 : f64}
    %A = tc.array distributed "A" [64, 64] on [2, 2] dims [0, -1] skew [-1, -1] init input {on_disk} : !tc.array<2 x f64 on 2>
    %b = memref.alloc() : memref<16x16xf64>
    %z = arith.constant 0 : index
    tc.read_tile %A[%z, %z] into %b : !tc.array<2 x f64 on 2>, memref<16x16xf64>
    tc.tile_contract %b[%z, %z] ["i", "j"] += %b[%z, %z] ["i", "k"] * %b[%z, %z] ["k", "j"]
        extents {i = 16 : i64, j = 16 : i64, k = 16 : i64}
        : memref<16x16xf64>, memref<16x16xf64> -> memref<16x16xf64>
    tc.allreduce_tile %b : memref<16x16xf64>
    tc.write_tile %b into %A[%z, %z] : memref<16x16xf64>, !tc.array<2 x f64 on 2>
    tc.shift_array %A along 0 : !tc.array<2 x f64 on 2>
    tc.store %A : !tc.array<2 x f64 on 2>
    return
  }
  func.func @kinds() {
    %R = tc.array replicated "R" [8] on [4] dims [-1] skew [-1] init root_input : !tc.array<1 x f64 on 1>
    %S = tc.array slab "S" [8] on [4] dims [-1] skew [-1] init zero {on_disk} : !tc.array<1 x f64 on 1>
    %G = tc.array gathered "G" [8] on [4] dims [-1] skew [-1] init input {on_disk} : !tc.array<1 x f64 on 1>
    return
  }
}
