// Round trip of the tc attributes, including units in #tc.machine.
// RUN: tc-opt %s | FileCheck %s
// RUN: tc-opt %s | tc-opt | FileCheck %s

// CHECK: module attributes {tc.machine = #tc.machine<procs = 4, mem = 67108864, net_bw = 2.000000e+08, disk_bw = 8.000000e+06, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00>}
module attributes {tc.machine = #tc.machine<procs = 4, mem = "64MiB", net_bw = "200MB/s", disk_bw = "8MB/s">} {
  // CHECK-LABEL: func @attrs
  // CHECK-SAME: dist = #tc.dist<[a, *]>
  // CHECK-SAME: grid = #tc.grid<[4, 8]>
  // CHECK-SAME: machine = #tc.machine<procs = 16, mem = 2147483648, net_bw = 1.000000e+07, disk_bw = 1.000000e+07, elem_bytes = 4, bcast_factor = 1.414000e+00, reduce_factor = 1.400000e+00>
  // CHECK-SAME: vdist = #tc.dist<[a, 1] virtual [3, 1]>
  func.func @attrs() attributes {
    grid = #tc.grid<[4, 8]>,
    dist = #tc.dist<[a, *]>,
    vdist = #tc.dist<[a, 1] virtual [3, 1]>,
    machine = #tc.machine<procs = 16, mem = "2GiB", net_bw = 1.0e7, disk_bw = 10000000,
                          elem_bytes = 4, bcast_factor = 1.414, reduce_factor = 1.4>
  } {
    return
  }
}
