// Every tc verifier rule and parse error, each with its message.
// RUN: tc-opt %s -split-input-file -verify-diagnostics

func.func @contract_one_input(%a: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.contract' op takes 2 inputs, got 1}}
  %r = "tc.contract"(%a) <{input_labels = [["i"]], operandSegmentSizes = array<i32: 1, 0>, result_labels = ["i"]}> : (tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @sum_two_inputs(%a: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.sum' op takes 1 input, got 2}}
  %r = tc.sum [i] = %a[i] * %a[i] : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @multi_one_input(%a: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.multi_contract' op takes at least 2 inputs, got 1}}
  %r = tc.multi_contract [i] = %a[i] : tensor<4xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @label_lists_count(%a: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.contract' op has 2 inputs but 1 label lists}}
  %r = "tc.contract"(%a, %a) <{input_labels = [["i"]], operandSegmentSizes = array<i32: 2, 0>, result_labels = ["i"]}> : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @label_lists_not_strings(%a: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.contract' op attribute 'input_labels' failed to satisfy constraint: one label list per input}}
  %r = "tc.contract"(%a, %a) <{input_labels = [["i"], [3]], operandSegmentSizes = array<i32: 2, 0>, result_labels = ["i"]}> : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @integer_elements(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tc.contract' op result has element type 'i32'; tc supports f32 and f64}}
  %r = tc.contract [i] = %a[i] * %a[i] : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @mixed_elements(%a: tensor<4xf64>, %b: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.contract' op input #1 has element type 'f32' but the result has 'f64'}}
  %r = tc.contract [i] = %a[i] * %b[i] : tensor<4xf64>, tensor<4xf32> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @accumulator_type(%a: tensor<4xf64>, %c: tensor<5xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.contract' op accumulator type 'tensor<5xf64>' differs from result type 'tensor<4xf64>'}}
  %r = "tc.contract"(%a, %a, %c) <{input_labels = [["i"], ["i"]], operandSegmentSizes = array<i32: 2, 1>, result_labels = ["i"]}> : (tensor<4xf64>, tensor<4xf64>, tensor<5xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @label_count_rank(%A: tensor<8x8x4x4xf64>, %B: tensor<8x8x4x4xf64>) -> tensor<8x8x8x8xf64> {
  // expected-error @+1 {{'tc.contract' op input #0 has 3 labels for a rank-4 tensor}}
  %r = tc.contract [a, b, c, d] = %A[a, b, m] * %B[c, d, m, n] : tensor<8x8x4x4xf64>, tensor<8x8x4x4xf64> -> tensor<8x8x8x8xf64>
  return %r : tensor<8x8x8x8xf64>
}

// -----

func.func @result_label_count(%A: tensor<4x5xf64>) -> tensor<4x5xf64> {
  // expected-error @+1 {{'tc.sum' op the result has 1 label for a rank-2 tensor}}
  %r = tc.sum [i] = %A[i, j] : tensor<4x5xf64> -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}

// -----

func.func @two_extents(%A: tensor<4x6xf64>, %B: tensor<5x3xf64>) -> tensor<4x3xf64> {
  // expected-error @+1 {{'tc.contract' op label 'k' has extent 6 in input #0 but 5 in input #1}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x6xf64>, tensor<5x3xf64> -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}

// -----

func.func @result_extent(%A: tensor<4x6xf64>, %B: tensor<6x3xf64>) -> tensor<4x7xf64> {
  // expected-error @+1 {{'tc.contract' op label 'j' has extent 7 in the result but 3 in input #1}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<4x6xf64>, tensor<6x3xf64> -> tensor<4x7xf64>
  return %r : tensor<4x7xf64>
}

// -----

func.func @repeated_label(%A: tensor<4x4xf64>, %B: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.contract' op label 'i' appears twice in input #0}}
  %r = tc.contract [i] = %A[i, i] * %B[i] : tensor<4x4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @repeated_result_label(%A: tensor<4x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{'tc.sum' op label 'i' appears twice in the result}}
  %r = tc.sum [i, i] = %A[i, j] : tensor<4x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @result_label_missing(%A: tensor<4x6xf64>, %B: tensor<6x3xf64>) -> tensor<4x3xf64> {
  // expected-error @+1 {{'tc.contract' op result label 'z' appears in no input}}
  %r = tc.contract [i, z] = %A[i, k] * %B[k, j] : tensor<4x6xf64>, tensor<6x3xf64> -> tensor<4x3xf64>
  return %r : tensor<4x3xf64>
}

// -----

func.func @dynamic_extent(%A: tensor<4x?xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.sum' op input #0 dimension 1 (label 'j') is dynamic; tc needs static extents}}
  %r = tc.sum [i] = %A[i, j] : tensor<4x?xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @label_not_identifier(%A: tensor<4x5xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.sum' op input #0 dimension 1 has label '1x', which is not an identifier}}
  %r = "tc.sum"(%A) <{input_labels = [["i", "1x"]], operandSegmentSizes = array<i32: 1, 0>, result_labels = ["i"]}> : (tensor<4x5xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @memref_operand(%A: memref<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.sum' op operand #0 must be variadic of ranked tensor of any type values, but got 'memref<4xf64>'}}
  %r = "tc.sum"(%A) <{input_labels = [["i"]], operandSegmentSizes = array<i32: 1, 0>, result_labels = ["i"]}> : (memref<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @plus_without_accumulator(%A: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'+=' needs an accumulator: write %C[...] += ...}}
  %r = tc.sum [i] += %A[i] : tensor<4xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @accumulator_without_plus(%A: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{an accumulator %C[...] must be followed by '+='}}
  %r = tc.sum %A[i] = %A[i] : tensor<4xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @type_count(%A: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{2 inputs but 1 input type}}
  %r = tc.contract [i] = %A[i] * %A[i] : tensor<4xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @redistribute_labels(%x: tensor<8x8xf64>) -> tensor<8x8xf64> {
  // expected-error @+1 {{'tc.redistribute' op source has 3 labels for a rank-2 tensor}}
  %y = tc.redistribute %x [a, b, c] on <[2, 2]> from <[a, *]> to <[*, b]> : tensor<8x8xf64>
  return %y : tensor<8x8xf64>
}

// -----

func.func @redistribute_repeated_label(%x: tensor<8x8xf64>) -> tensor<8x8xf64> {
  // expected-error @+1 {{'tc.redistribute' op label 'a' appears twice in source}}
  %y = tc.redistribute %x [a, a] on <[2, 2]> from <[a, *]> to <[*, a]> : tensor<8x8xf64>
  return %y : tensor<8x8xf64>
}

// -----

func.func @dist_rank(%x: tensor<8x8xf64>) -> tensor<8x8xf64> {
  // expected-error @+1 {{'tc.redistribute' op 'to' distribution #tc.dist<[b]> has 1 entries but the grid #tc.grid<[2, 2]> has rank 2}}
  %y = tc.redistribute %x [a, b] on <[2, 2]> from <[a, *]> to <[b]> : tensor<8x8xf64>
  return %y : tensor<8x8xf64>
}

// -----

func.func @dist_missing_index(%x: tensor<8x8xf64>) -> tensor<8x8xf64> {
  // expected-error @+1 {{'tc.redistribute' op 'from' distribution #tc.dist<[z, *]> distributes index 'z', which the array [a, b] does not have}}
  %y = tc.redistribute %x [a, b] on <[2, 2]> from <[z, *]> to <[*, b]> : tensor<8x8xf64>
  return %y : tensor<8x8xf64>
}

// -----

func.func @redistribute_integer(%x: tensor<8x8xi64>) -> tensor<8x8xi64> {
  // expected-error @+1 {{'tc.redistribute' op source has element type 'i64'; tc supports f32 and f64}}
  %y = tc.redistribute %x [a, b] on <[2, 2]> from <[a, *]> to <[*, b]> : tensor<8x8xi64>
  return %y : tensor<8x8xi64>
}

// -----

func.func @redistribute_type(%x: tensor<8x8xf64>) -> tensor<8x4xf64> {
  // expected-error @+1 {{'tc.redistribute' op failed to verify that all of {source, result} have same type}}
  %y = "tc.redistribute"(%x) <{from = #tc.dist<[a, *]>, grid = #tc.grid<[2, 2]>, labels = ["a", "b"], to = #tc.dist<[*, b]>}> : (tensor<8x8xf64>) -> tensor<8x4xf64>
  return %y : tensor<8x4xf64>
}

// -----

// expected-error @+1 {{#tc.grid dimension 1 has extent 0; extents must be >= 1}}
func.func @grid_zero() attributes {g = #tc.grid<[4, 0]>}

// -----

// expected-error @+2 {{expected integer value}}
// expected-error @+1 {{failed to parse TC_GridAttr parameter 'shape'}}
func.func @grid_empty() attributes {g = #tc.grid<[]>}

// -----

// expected-error @+1 {{#tc.dist distributes index 'a' over two grid dimensions}}
func.func @dist_twice() attributes {d = #tc.dist<[a, a]>}

// -----

// expected-error @+1 {{#tc.dist entry 2 is not valid; expected an index label, '*' or '1'}}
func.func @dist_two() attributes {d = #tc.dist<[a, 2]>}

// -----

// expected-error @+1 {{#tc.dist entry 1 is 'b.c'; expected an index label, '*' or '1'}}
func.func @dist_bad_label() attributes {d = #tc.dist<[a, b.c]>}

// -----

// expected-error @+1 {{#tc.dist has 2 entries but 1 virtual-partitioning factors}}
func.func @dist_factor_count() attributes {d = #tc.dist<[a, b] virtual [2]>}

// -----

// expected-error @+1 {{#tc.dist virtual-partitioning factor 0 of grid dimension 0 must be >= 1}}
func.func @dist_factor_zero() attributes {d = #tc.dist<[a, b] virtual [0, 1]>}

// -----

// expected-error @+1 {{#tc.dist grid dimension 1 is '*' but has virtual-partitioning factor 2; only distributed indices can be partitioned}}
func.func @dist_factor_replicated() attributes {d = #tc.dist<[a, *] virtual [1, 2]>}

// -----

// expected-error @+1 {{unknown #tc.machine parameter 'cores'; expected one of procs, mem, net_bw, disk_bw, elem_bytes, bcast_factor, reduce_factor, flop_rate, latency, volumes}}
func.func @machine_key() attributes {m = #tc.machine<cores = 4>}

// -----

// expected-error @+1 {{#tc.machine latency = -1e-06; need a finite number of seconds >= 0}}
func.func @machine_latency() attributes {m = #tc.machine<procs = 4, mem = 1024, net_bw = 1.0e8, disk_bw = 1.0e8, latency = -1.0e-6>}

// -----

// expected-error @+1 {{#tc.machine is missing 'disk_bw'}}
func.func @machine_missing() attributes {m = #tc.machine<procs = 4, mem = 1024, net_bw = 1.0e8>}

// -----

// expected-error @+1 {{#tc.machine parameter 'procs' given twice}}
func.func @machine_twice() attributes {m = #tc.machine<procs = 4, procs = 8>}

// -----

// expected-error @+1 {{#tc.machine mem = "64 parsecs" is not a size such as "64MiB"}}
func.func @machine_unit() attributes {m = #tc.machine<procs = 4, mem = "64 parsecs", net_bw = 1.0e8, disk_bw = 1.0e7>}

// -----

// expected-error @+1 {{#tc.machine net_bw = "fast" is not a rate such as "200MB/s"}}
func.func @machine_rate() attributes {m = #tc.machine<procs = 4, mem = 1024, net_bw = "fast", disk_bw = 1.0e7>}

// -----

// expected-error @+1 {{#tc.machine procs = "4" is not a number}}
func.func @machine_string_count() attributes {m = #tc.machine<procs = "4", mem = 1024, net_bw = 1.0e8, disk_bw = 1.0e7>}

// -----

// expected-error @+1 {{#tc.machine procs = 2.5 is not a whole number}}
func.func @machine_fraction() attributes {m = #tc.machine<procs = 2.5, mem = 1024, net_bw = 1.0e8, disk_bw = 1.0e7>}

// -----

// expected-error @+1 {{#tc.machine procs = 0; need >= 1}}
func.func @machine_procs() attributes {m = #tc.machine<procs = 0, mem = 1024, net_bw = 1.0e8, disk_bw = 1.0e7>}

// -----

// expected-error @+1 {{#tc.machine mem = 0; need >= 1 byte}}
func.func @machine_mem() attributes {m = #tc.machine<procs = 4, mem = 0, net_bw = 1.0e8, disk_bw = 1.0e7>}

// -----

// expected-error @+1 {{#tc.machine elem_bytes = 2; tc supports 4 (f32) and 8 (f64)}}
func.func @machine_elem() attributes {m = #tc.machine<procs = 4, mem = 1024, net_bw = 1.0e8, disk_bw = 1.0e7, elem_bytes = 2>}

// -----

// expected-error @+1 {{#tc.machine disk_bw = -1; need a positive finite number}}
func.func @machine_bw() attributes {m = #tc.machine<procs = 4, mem = 1024, net_bw = 1.0e8, disk_bw = -1.0>}

// -----

func.func @machine_on_op() {
  // expected-error @+1 {{'arith.constant' op 'tc.machine' belongs on a builtin.module or a func.func, not on 'arith.constant'}}
  %c = arith.constant {tc.machine = #tc.machine<procs = 4, mem = 1024, net_bw = 1.0e8, disk_bw = 1.0e7>} 0 : index
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'tc.machine' must be a #tc.machine attribute, got 4 : i64}}
module attributes {tc.machine = 4} {
}

// -----

// expected-error @+1 {{'builtin.module' op unknown tc attribute 'tc.grid'; tc defines only 'tc.machine', 'tc.plan', 'tc.fusion', 'tc.fusion_plan', 'tc.block_plan', 'tc.flops', 'tc.name', 'tc.statement', 'tc.intermediate', 'tc.loop', 'tc.part_of', 'tc.reciprocal', 'tc.in_memory' and 'tc.keep_inputs' as discardable attributes}}
module attributes {tc.grid = #tc.grid<[2, 2]>} {
}

// -----

func.func @name_not_string(%A: tensor<4x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{'tc.contract' op 'tc.name' is a non-empty string on a tc.contract, tc.sum or tc.multi_contract (on arguments and results it names datasets)}}
  %r = tc.contract [i, j] = %A[i, k] * %A[k, j] {tc.name = 3 : i64} : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

// expected-error @+1 {{'func.func' op 'tc.intermediate' is a unit attribute on a func.func}}
func.func @intermediate_not_unit() attributes {tc.intermediate = "yes"} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tc.in_memory' is a unit attribute on a func.func with 'tc.intermediate'}}
func.func @in_memory_output() attributes {tc.in_memory} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tc.keep_inputs' is a unit attribute on a func.func with 'tc.statement'}}
func.func @keep_inputs_not_a_statement() attributes {tc.keep_inputs} {
  return
}

// -----

func.func @in_memory_op() {
  // expected-error @+1 {{'tc.begin_statement' op keeps in memory only an intermediate: 'in_memory' needs 'intermediate'}}
  tc.begin_statement "s" {in_memory}
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'tc.statement' is a string on a func.func}}
module attributes {tc.statement = "s"} {
}

// -----

func.func @scale_without_star(%A: tensor<4x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{expected '*'}}
  %r = tc.contract [i, j] = 0.5 %A[i, k] * %A[k, j] : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_bad_method(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+2 {{expected one of [inside, outside] for communication method, got: sideways}}
  // expected-error @+1 {{failed to parse TC_PlanAttr parameter 'method'}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<method = sideways>} : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_bad_order(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+2 {{expected one of [ABC, ACB, BAC, BCA, CAB, CBA] for disk read order, got: AAB}}
  // expected-error @+1 {{failed to parse TC_PlanAttr parameter 'order'}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<order = AAB>} : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_loops_groups(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{#tc.plan loops must list 4 groups (D1..D4), got 2}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<order = CAB, loops = [{}, {}]>} : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_loop_count(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{#tc.plan loop over 'i' in group 0 must have an integer tile count >= 2}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<order = CAB, loops = [{i = 1}, {}, {}, {}]>} : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_loops_need_order(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{#tc.plan loops need the read order that places them}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<loops = [{}, {}, {}, {}]>} : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_in_core_loops(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{#tc.plan of an in-core contraction has no tiling loops}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<in_core = true, order = CAB, loops = [{i = 2}, {}, {}, {}]>} : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_dist_rank(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{#tc.plan dist_a has 1 entries but the grid has 2 dimensions}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<grid = <[2, 2]>, dist_a = <[i]>>} : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_unknown_loop_label(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{plan tiles label 'z', which the contraction does not have}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<order = CAB, loops = [{z = 2}, {}, {}, {}]>} : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_dist_label(%A: tensor<4x8xf64>, %B: tensor<8x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{plan dist_b}}
  %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<grid = <[4]>, dist_b = <[i]>>} : tensor<4x8xf64>, tensor<8x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

func.func @plan_on_sum(%A: tensor<4x8xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.plan' belongs on a tc.contract, not on 'tc.sum'}}
  %r = tc.sum [i] = %A[i, k] {tc.plan = #tc.plan<in_core = true>} : tensor<4x8xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @fusion_on_func(%A: tensor<4x8xf64>) -> tensor<4x8xf64> {
  // expected-error @+1 {{'tc.fusion' belongs on a tc.contract or tc.sum, not on 'arith.constant'}}
  %c = arith.constant {tc.fusion = #tc.fusion<grid = <[2]>, initial = <[i]>, final = <[*]>, memory = 1.0 : f64, comm = 0.0 : f64>} 0.0 : f64
  return %A : tensor<4x8xf64>
}

// -----

func.func @fusion_not_fusion(%A: tensor<4x8xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'tc.fusion' must be a #tc.fusion attribute, got #tc.grid<[2]>}}
  %r = tc.sum [i] = %A[i, k] {tc.fusion = #tc.grid<[2]>} : tensor<4x8xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

// expected-error @+1 {{'tc.fusion_plan' must be a #tc.fusion_plan attribute, got 3 : i64}}
func.func @fusion_plan_not_plan() attributes {tc.fusion_plan = 3} {
  return
}

// -----

// expected-error @+1 {{#tc.plan dist_c needs a grid}}
func.func @plan_dist_without_grid() attributes {p = #tc.plan<dist_c = <[i]>>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan of an in-core contraction has no communication method, got method = inside}}
func.func @plan_in_core_method() attributes {p = #tc.plan<in_core = true, method = inside>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan of an in-core contraction has no read order, got order = CAB}}
func.func @plan_in_core_order() attributes {p = #tc.plan<in_core = true, order = CAB>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan of an in-core contraction has no tiles to share memory, got memory = shared}}
func.func @plan_in_core_memory() attributes {p = #tc.plan<in_core = true, memory = shared>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = rotation (Cannon) needs a square 2-d grid, got #tc.grid<[4]>}}
func.func @plan_rotation_1d() attributes {p = #tc.plan<algorithm = rotation, grid = <[4]>>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = rotation (Cannon) needs a square 2-d grid, got #tc.grid<[2, 4]>}}
func.func @plan_rotation_not_square() attributes {p = #tc.plan<algorithm = rotation, grid = <[2, 4]>>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = replication_a holds A whole on every process, so dist_a must be '*' in every grid dimension, got #tc.dist<[i]>}}
func.func @plan_replication_a_dist() attributes {p = #tc.plan<algorithm = replication_a, grid = <[4]>, dist_a = <[i]>>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = replication_b holds B whole on every process, so dist_b must be '*' in every grid dimension, got #tc.dist<[*, j]>}}
func.func @plan_replication_b_dist() attributes {p = #tc.plan<algorithm = replication_b, grid = <[2, 2]>, dist_b = <[*, j]>>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = accumulation holds C whole on every process, so dist_c must be '*' in every grid dimension, got #tc.dist<[1]>}}
func.func @plan_accumulation_dist() attributes {p = #tc.plan<algorithm = accumulation, grid = <[4]>, dist_c = <[1]>>} {
  return
}

// -----

// The reports' spelling is not the IR's.
// expected-error @+2 {{expected one of [rotation, replication_a, replication_b, accumulation, cosma, pumma, batch] for parallel algorithm, got: replication-a}}
// expected-error @+1 {{failed to parse TC_PlanAttr parameter 'algorithm'}}
func.func @plan_algorithm_spelling() attributes {p = #tc.plan<algorithm = "replication-a">} {
  return
}

// -----

// expected-error @+1 {{#tc.plan disk_bytes = -1; need a finite number >= 0}}
func.func @plan_negative_bytes() attributes {p = #tc.plan<disk_bytes = -1.0>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan seconds = nan; need a finite number >= 0}}
func.func @plan_nan_seconds() attributes {p = #tc.plan<seconds = 0x7FF8000000000000 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.fusion initial has 1 entries but the grid has 2 dimensions}}
func.func @fusion_initial_rank() attributes {f = #tc.fusion<grid = <[4, 8]>, initial = <[c]>, final = <[*, *]>, memory = 1.0 : f64, comm = 0.0 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.fusion compute has 3 entries but the grid has 2 dimensions}}
func.func @fusion_compute_rank() attributes {f = #tc.fusion<grid = <[4, 8]>, compute = <[c, e, *]>, initial = <[c, *]>, final = <[c, *]>, memory = 1.0 : f64, comm = 0.0 : f64, calc = 1.0 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.fusion fuses loop 'd' twice}}
func.func @fusion_fused_twice() attributes {f = #tc.fusion<grid = <[4]>, initial = <[c]>, final = <[c]>, fused = ["d", "d"], memory = 1.0 : f64, comm = 0.0 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.fusion fused entry 1 must be an index label, got 3 : i64}}
func.func @fusion_fused_not_label() attributes {f = #tc.fusion<grid = <[4]>, initial = <[c]>, final = <[c]>, fused = ["d", 3], memory = 1.0 : f64, comm = 0.0 : f64>} {
  return
}

// -----

// The misspelling that used to be read as to_all.
// expected-error @+2 {{expected one of [none, to_one, to_all] for partial-sum combination, got: to-one}}
// expected-error @+1 {{failed to parse TC_FusionAttr parameter 'partial_sums'}}
func.func @fusion_partial_sums_spelling() attributes {f = #tc.fusion<grid = <[4]>, compute = <[e]>, initial = <[1]>, final = <[1]>, partial_sums = "to-one", memory = 1.0 : f64, comm = 0.0 : f64, calc = 1.0 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.fusion partial_sums = to_all needs the compute distribution that splits the sum}}
func.func @fusion_partial_sums_input() attributes {f = #tc.fusion<grid = <[4]>, initial = <[c]>, final = <[c]>, partial_sums = to_all, memory = 1.0 : f64, comm = 0.0 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.fusion calc (computation seconds) needs a compute distribution; an input is not computed}}
func.func @fusion_calc_input() attributes {f = #tc.fusion<grid = <[4]>, initial = <[c]>, final = <[c]>, memory = 1.0 : f64, comm = 0.0 : f64, calc = 2.0 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.fusion comm = -0.5; need a finite number >= 0}}
func.func @fusion_negative_comm() attributes {f = #tc.fusion<grid = <[4]>, initial = <[c]>, final = <[c]>, memory = 1.0 : f64, comm = -0.5 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.fusion_plan limit = -1; need a finite number >= 0}}
func.func @fusion_plan_negative() attributes {f = #tc.fusion_plan<grid = <[4]>, memory = 1.0 : f64, limit = -1.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.fusion_plan memory = 2e+06 exceeds limit = 1e+06}}
func.func @fusion_plan_over_limit() attributes {f = #tc.fusion_plan<grid = <[4]>, memory = 2.0e6 : f64, limit = 1.0e6 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
  return
}

// -----

// expected-error @+1 {{#tc.dist needs one entry per grid dimension; got none}}
func.func @dist_empty() attributes {d = #tc.dist<[]>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan loop group 1 must be a dictionary from label to tile count}}
func.func @plan_loop_group_not_dict() attributes {p = #tc.plan<in_core = false, method = outside, algorithm = rotation, grid = <[2, 2]>, order = CAB, loops = [{i = 2}, [2], {}, {}]>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = cosma needs a 3-d grid [pm, pn, pk], got #tc.grid<[2, 2]>}}
func.func @plan_cosma_2d() attributes {p = #tc.plan<algorithm = cosma, grid = <[2, 2]>>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = cosma out of core runs rounds, not tiling loops: it takes no method, order, loops or memory}}
func.func @plan_cosma_out_of_core_method() attributes {p = #tc.plan<in_core = false, method = inside, algorithm = cosma>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = cosma out of core runs rounds, not tiling loops: it takes no method, order, loops or memory}}
func.func @plan_cosma_out_of_core_loops() attributes {p = #tc.plan<in_core = false, algorithm = cosma, order = CAB, loops = [{}, {}, {}, {k = 2}]>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = cosma gathers or reduces dist_b along grid dimension 0, so its entry there must be '*', got #tc.dist<[k, j, *]>}}
func.func @plan_cosma_dist() attributes {p = #tc.plan<algorithm = cosma, grid = <[2, 2, 1]>, dist_a = <[i, *, k]>, dist_b = <[k, j, *]>>} {
  return
}

// -----

// Rounds are COSMA's own parameter, not a field of every plan.
// expected-error @+1 {{duplicate or unknown struct parameter name: rounds}}
func.func @plan_rounds_not_cosma() attributes {p = #tc.plan<algorithm = rotation, rounds = {k = 2}>} {
  return
}

// -----

// expected-error @+2 {{#tc.gao takes one of Gao et al.'s Table 1 algorithms (rotation, replication_a, replication_b, accumulation), got cosma}}
// expected-error @+1 {{failed to parse TC_PlanAttr parameter 'algorithm'}}
func.func @gao_not_table_1() attributes {p = #tc.plan<algorithm = #tc.gao<cosma>>} {
  return
}

// -----

// expected-error @+2 {{expected one of [rotation, replication_a, replication_b, accumulation, cosma, pumma, batch] for parallel algorithm, got: cannon}}
// expected-error @+1 {{failed to parse TC_PlanAttr parameter 'algorithm'}}
func.func @plan_unknown_algorithm() attributes {p = #tc.plan<algorithm = cannon>} {
  return
}

// -----

// expected-error @+2 {{expected a parallel algorithm (a keyword such as 'rotation' or an attribute such as #tc.cosma<...>), got #tc.grid<[2]>}}
// expected-error @+1 {{failed to parse TC_PlanAttr parameter 'algorithm'}}
func.func @plan_algorithm_not_algorithm() attributes {p = #tc.plan<algorithm = #tc.grid<[2]>>} {
  return
}

// -----

// expected-error @+2 {{#tc.cosma rounds over 'k' must be an integer count >= 2}}
// expected-error @+1 {{failed to parse TC_PlanAttr parameter 'algorithm'}}
func.func @plan_rounds_one() attributes {p = #tc.plan<algorithm = #tc.cosma<rounds = {k = 1}>>} {
  return
}

// -----

// expected-error @+1 {{#tc.dist grid dimension 1 is '*' but has block-cyclic block size 4; only distributed indices are dealt in blocks}}
func.func @cyclic_replicated() attributes {d = #tc.dist<[i, *] cyclic [2, 4]>} {
  return
}

// -----

// PUMMA's roll is PUMMA's own parameter.
// expected-error @+1 {{duplicate or unknown struct parameter name: roll}}
func.func @roll_without_pumma() attributes {p = #tc.cosma<roll = a>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan dist_a is block-cyclic, which only algorithm = pumma computes in}}
func.func @cyclic_not_pumma() attributes {p = #tc.plan<algorithm = rotation, grid = <[2, 2]>, dist_a = <[i, k] cyclic [2, 2]>>} {
  return
}

// -----

// expected-error @+1 {{#tc.plan algorithm = batch splits A, B and C along the same batch label (or none), so dist_a, dist_b and dist_c must be equal, got #tc.dist<[b]>, #tc.dist<[*]>, #tc.dist<[b]>}}
func.func @plan_batch_dists() attributes {p = #tc.plan<algorithm = batch, grid = <[2]>, dist_a = <[b]>, dist_b = <[*]>, dist_c = <[b]>>} {
  return
}

// -----

// expected-error @+1 {{#tc.pumma rolls an input, a or b; got roll = c}}
func.func @pumma_rolls_result() attributes {p = #tc.pumma<roll = c>} {
  return
}
