// #tc.machine's volume accounting: printed only when not the default "paper";
// anything but paper/runtime is rejected. Its flop rate likewise.
// RUN: tc-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK: module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1.000000e+00, disk_bw = 1.000000e+00, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00, volumes = runtime>}
module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, volumes = runtime>} {}

// -----

// CHECK: module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1.000000e+00, disk_bw = 1.000000e+00, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00>}
module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, volumes = paper>} {}

// -----

// expected-error @+1 {{expected one of [paper, runtime] for volume accounting, got: exact}}
module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, volumes = exact>} {}

// -----

// Enum values also parse as quoted strings, as earlier versions wrote them (values
// renamed with `_`, such as replication_a, take the new spelling only).
// CHECK: module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1.000000e+00, disk_bw = 1.000000e+00, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00, volumes = runtime>}
module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, volumes = "runtime">} {}

// -----

// flop_rate (flop/s per process): printed when it is not the default 1e9; a
// positive number.
// CHECK: module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1.000000e+00, disk_bw = 1.000000e+00, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00, flop_rate = 2.000000e+10, volumes = runtime>}
module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, volumes = runtime, flop_rate = 2.0e10>} {}

// -----

// CHECK: module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1.000000e+00, disk_bw = 1.000000e+00, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00>}
module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, flop_rate = 1000000000>} {}

// -----

// expected-error @+1 {{#tc.machine flop_rate = 0; need a positive finite number}}
module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, flop_rate = 0>} {}

// -----

// expected-error @+1 {{#tc.machine flop_rate = "fast" is not a number}}
module attributes {tc.machine = #tc.machine<procs = 4, mem = 1000, net_bw = 1, disk_bw = 1, flop_rate = "fast">} {}
