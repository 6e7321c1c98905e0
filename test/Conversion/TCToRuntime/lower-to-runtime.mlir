// tc-lower-to-runtime: one runtime call per tile-level op, static descriptions
// as constant globals (include/TC/Runtime/Descriptors.h), buffers by aligned
// pointer, offsets in a stack buffer scoped to the call.
// RUN: tc-opt %s --tc-lower-to-runtime --split-input-file | FileCheck %s

// The array descriptor: rank 2, distributed (0), input (0), on disk, f64 (0), no
// first slice (0), grid [2, 2],
// then (extent, grid dim, skew dim, file dim, split dim, cyclic) per dimension.
// CHECK-DAG: memref.global "private" constant @[[ADESC:__tc_desc_[0-9]+]] : memref<22xi64> = dense<[2, 0, 0, 1, 0, 0, 2, 2, 2, 64, 0, -1, 0, -1, 0, 64, -1, -1, 1, -1, 0, 0]>
// CHECK-DAG: memref.global "private" constant @[[NAME:__tc_name_[0-9]+]] : memref<2xi8> = dense<[65, 0]>
// Tile shape [rank, flag, shape...]: read_tile's root_only flag is 1.
// CHECK-DAG: memref.global "private" constant @[[ROOT:__tc_desc_[0-9]+]] : memref<4xi64> = dense<[2, 1, 16, 16]>
// CHECK-DAG: memref.global "private" constant @[[TILE:__tc_desc_[0-9]+]] : memref<4xi64> = dense<[2, 0, 16, 16]>
// shift_tile: [rank, grid_dim, shape..., subshape...].
// CHECK-DAG: memref.global "private" constant @[[SHIFT:__tc_desc_[0-9]+]] : memref<6xi64> = dense<[2, 1, 16, 16, 8, 16]>
// allreduce_tile: [rank, elem, shape...]; f64 (0) of [16, 16] is the same
// sequence as the tile description above, so the two share one constant.
// tile_contract: ranks, element type, shapes, label ids (i = 0, j = 1, k = 2),
// steps (all 1), label count, extents.
// CHECK-DAG: memref.global "private" constant @[[CONTRACT:__tc_desc_[0-9]+]] : memref<27xi64> = dense<[2, 2, 2, 0, 4607182418800017408, 16, 16, 16, 16, 16, 16, 0, 2, 2, 1, 0, 1, 1, 1, 1, 1, 1, 1, 3, 16, 16, 8]>
// Per-rank predictions of a fused program.
// CHECK-DAG: memref.global "private" constant @{{__tc_pred_[0-9]+}} : memref<4xf64> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// Every kind and initial value reaches the runtime as its tc_rt_kind / tc_rt_init
// (entries 1 and 2).
// CHECK-DAG: memref.global "private" constant @{{.*}} : memref<15xi64> = dense<[1, 1, 2, 0, 0, 0, 1, 4, 8, -1, -1, 0, -1, 0, 0]>
// CHECK-DAG: memref.global "private" constant @{{.*}} : memref<15xi64> = dense<[1, 2, 1, 1, 0, 0, 1, 4, 8, -1, -1, 0, -1, 0, 0]>
// CHECK-DAG: memref.global "private" constant @{{.*}} : memref<15xi64> = dense<[1, 3, 0, 1, 0, 0, 1, 4, 8, -1, -1, 0, -1, 0, 0]>
// CHECK-LABEL: func.func @prog()
// CHECK: call @tc_rt_plan(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (f64, f64, f64, i64) -> ()
// CHECK: call @tc_rt_plan_per_rank(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: memref.get_global @[[ADESC]]
// CHECK-DAG: memref.get_global @[[NAME]]
// CHECK: %[[A:.*]] = call @tc_rt_array(%{{.*}}, %{{.*}}, %[[NULL]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.ptr
// CHECK: %[[STORAGE:.*]] = call @tc_rt_array({{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.ptr
// CHECK: memref.get_global @[[ROOT]]
// CHECK: memref.alloca_scope {
// CHECK:   memref.alloca() : memref<2xi64>
// CHECK:   memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<2xi64>
// CHECK:   call @tc_rt_read_tile(%[[A]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: }
// CHECK: memref.get_global @[[TILE]]
// CHECK: call @tc_rt_broadcast_tile(%[[A]],
// CHECK: memref.get_global @[[SHIFT]]
// CHECK: call @tc_rt_shift_tile(%[[A]],
// CHECK: memref.get_global @[[CONTRACT]]
// CHECK: memref.alloca() : memref<6xi64>
// CHECK: call @tc_rt_tile_contract(
// CHECK: memref.get_global @[[TILE]]
// CHECK: call @tc_rt_allreduce_tile(
// CHECK: call @tc_rt_write_tile(%[[A]],
// CHECK: call @tc_rt_shift_array(%[[A]], %{{.*}}) : (!llvm.ptr, i64) -> ()
// CHECK: call @tc_rt_allgather_array(%[[A]]) : (!llvm.ptr) -> ()
// CHECK: call @tc_rt_allreduce_array(%[[A]]) : (!llvm.ptr) -> ()
// CHECK: call @tc_rt_redistribute(%[[A]], %[[STORAGE]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK: call @tc_rt_zero_array(%[[A]]) : (!llvm.ptr) -> ()
// CHECK: call @tc_rt_load_slice(%[[A]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: call @tc_rt_combine_partial(%[[A]], %{{.*}}) : (!llvm.ptr, i64) -> ()
// CHECK: call @tc_rt_store_slice(%[[A]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: call @tc_rt_finish_store(%[[A]]) : (!llvm.ptr) -> ()
// CHECK: call @tc_rt_store(%[[A]])
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: call @tc_rt_begin_statement(%{{.*}}, %[[ONE]]) : (!llvm.ptr, i64) -> ()
// CHECK-NOT: tc.
// CHECK: func.func private @tc_rt_plan(f64, f64, f64, i64)
module attributes {tc.machine = #tc.machine<procs = 4, mem = "12KB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  func.func @prog() {
    tc.predicted_volumes {chunk_bytes = 4096 : i64, comm_bytes = 1.0 : f64, disk_bytes = 2.0 : f64, flops = 3.0 : f64,
                          sent_per_rank = array<f64: 1.0, 2.0, 3.0, 4.0>, received_per_rank = array<f64: 1.0, 2.0, 3.0, 4.0>}
    %A = tc.array "A" init input {on_disk} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    %s = memref.alloc() : memref<32x64xf64>
    %B = tc.array "B" init zero storage %s : memref<32x64xf64> : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    %b = memref.alloc() : memref<16x16xf64>
    %z = arith.constant 0 : index
    tc.read_tile %A[%z, %z] into %b {root_only} : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>, memref<16x16xf64>
    tc.broadcast_tile %b from %A[%z, %z] : memref<16x16xf64>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.shift_tile %b[%z, %z] sizes [8, 16] along 1 of %A : memref<16x16xf64>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.tile_contract %b[%z, %z] ["i", "j"] += %b[%z, %z] ["i", "k"] * %b[%z, %z] ["k", "j"]
        extents {i = 16 : i64, j = 16 : i64, k = 8 : i64}
        : memref<16x16xf64>, memref<16x16xf64> -> memref<16x16xf64>
    tc.allreduce_tile %b : memref<16x16xf64>
    tc.write_tile %b into %A[%z, %z] : memref<16x16xf64>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.shift_array %A along 0 : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.allgather_array %A : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.allreduce_array %A : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.redistribute_array %A into %B : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>, !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.zero_array %A : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.load_slice %A [64, 64] at [%z, %z] : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.combine_partial %A along [1] : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.store_slice %A [64, 64] at [%z, %z] : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.finish_store %A : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.store %A : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, -1] skew [-1, -1]>>
    tc.begin_statement "prog_s2" {intermediate}
    return
  }
  func.func @kinds() {
    %R = tc.array "R" init root_input : !tc.array<f64, #tc.layout<replicated [8] on [4] dims [-1] skew [-1]>>
    %S = tc.array "S" init zero {on_disk} : !tc.array<f64, #tc.layout<slab [8] on [4] dims [-1] skew [-1]>>
    %G = tc.array "G" init input {on_disk} : !tc.array<f64, #tc.layout<gathered [8] on [4] dims [-1] skew [-1]>>
    return
  }
}

// -----

// A !tc.array carried by an scf.for (a loop-carried block argument) and passed
// to a function (an entry block argument) becomes the runtime handle everywhere.
// CHECK-LABEL: func.func @carried()
// CHECK: %[[H:.*]] = call @tc_rt_array(
// CHECK: %[[L:.*]] = scf.for {{.*}} iter_args(%[[IT:.*]] = %[[H]]) -> (!llvm.ptr) {
// CHECK:   call @tc_rt_shift_array(%[[IT]], %{{.*}})
// CHECK:   scf.yield %[[IT]] : !llvm.ptr
// CHECK: %[[R:.*]] = call @consume(%[[L]]) : (!llvm.ptr) -> !llvm.ptr
// CHECK: call @tc_rt_store(%[[R]])
// CHECK-LABEL: func.func @consume(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr) -> !llvm.ptr
// CHECK: call @tc_rt_zero_array(%[[P]])
// CHECK: return %[[P]] : !llvm.ptr
// CHECK-NOT: !tc.array<
module {
  func.func @carried() {
    %A = tc.array "A" init zero : !tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %last = scf.for %i = %c0 to %c2 step %c1 iter_args(%it = %A) -> (!tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>) {
      tc.shift_array %it along 0 : !tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>
      scf.yield %it : !tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>
    }
    %r = func.call @consume(%last) : (!tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>) -> !tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>
    tc.store %r : !tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>
    return
  }
  func.func @consume(%a : !tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>) -> !tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>> {
    tc.zero_array %a : !tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>
    return %a : !tc.array<f64, #tc.layout<distributed [8] on [2] dims [0] skew [-1]>>
  }
}

// -----

// A !tc.array through the block arguments of an unstructured CFG: the block
// where two branches meet takes the handle from either.
// CHECK-LABEL: func.func @merge(
// CHECK-SAME: %[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr, %{{.*}}: i1)
// CHECK: cf.br ^[[JOIN:.*]](%[[A]] : !llvm.ptr)
// CHECK: cf.br ^[[JOIN]](%[[B]] : !llvm.ptr)
// CHECK: ^[[JOIN]](%[[X:.*]]: !llvm.ptr):
// CHECK: call @tc_rt_store(%[[X]])
// CHECK-NOT: !tc.array<
module {
  func.func @merge(%A : !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>, %B : !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>, %c : i1) {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    cf.br ^bb3(%A : !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>)
  ^bb2:
    cf.br ^bb3(%B : !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>)
  ^bb3(%x : !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>):
    tc.store %x : !tc.array<f64, #tc.layout<distributed [4] on [1] dims [-1] skew [-1]>>
    return
  }
}

// -----

// tc_main checks the runtime ABI before anything else.
// CHECK-LABEL: func.func @tc_main()
// CHECK-NEXT: %[[V:.*]] = arith.constant {{[0-9]+}} : i64
// CHECK-NEXT: call @tc_rt_check_abi(%[[V]]) : (i64) -> ()
// CHECK-NEXT: call @work()
// CHECK: func.func private @tc_rt_check_abi(i64)
module {
  func.func @work() {
    return
  }
  func.func @tc_main() {
    func.call @work() : () -> ()
    return
  }
}

// -----

// tc.alloc_storage: the runtime's buffer (the kept value's where it can be)
// as a memref: the identity-layout descriptor of its static shape.
// CHECK-LABEL: func.func @kept_storage()
// CHECK: %[[P:.*]] = call @tc_rt_alloc_storage(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr
// CHECK: llvm.insertvalue %[[P]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[P]], %{{.*}}[1]
// Offset 0, sizes [4, 8], strides [8, 1].
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(0 : index) : i64
// CHECK: llvm.insertvalue %[[OFF]], %{{.*}}[2]
// CHECK: %[[S0:.*]] = llvm.mlir.constant(4 : index) : i64
// CHECK: llvm.insertvalue %[[S0]], %{{.*}}[3, 0]
// CHECK: %[[T0:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK: llvm.insertvalue %[[T0]], %{{.*}}[4, 0]
// CHECK: %[[S1:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK: llvm.insertvalue %[[S1]], %{{.*}}[3, 1]
// CHECK: %[[T1:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK: %[[D:.*]] = llvm.insertvalue %[[T1]], %{{.*}}[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[M:.*]] = builtin.unrealized_conversion_cast %[[D]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<4x8xf64>
// CHECK: memref.extract_aligned_pointer_as_index %[[M]]
// CHECK: call @tc_rt_array(
// CHECK: memref.dealloc %[[M]]
module {
  func.func @kept_storage() {
    %w = tc.alloc_storage "W" : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>> -> memref<4x8xf64>
    %W = tc.array "W" init input storage %w : memref<4x8xf64> : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
    tc.store %W : !tc.array<f64, #tc.layout<distributed [8, 8] on [2] dims [0, -1] skew [-1, -1]>>
    memref.dealloc %w : memref<4x8xf64>
    return
  }
}
