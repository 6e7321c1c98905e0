// #tc.blocks is verified on its own (segments, symmetry, listed blocks), against
// its tensor (rank, static extents summing the segments), and in a contraction
// (every operand block-sparse or none, a label's segments the same everywhere).
// RUN: tc-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{#tc.blocks: the segments of dimension 0 sum to 6, not its extent 8}}
func.func @extent(%a: tensor<8xf64, #tc.blocks<[[2, 4]]>>)

// -----

// expected-error @+1 {{#tc.blocks of rank 1 on a tensor of rank 2}}
func.func @rank(%a: tensor<2x2xf64, #tc.blocks<[[2]]>>)

// -----

// expected-error @+1 {{#tc.blocks needs static extents (dimension 0 is dynamic)}}
func.func @dynamic(%a: tensor<?xf64, #tc.blocks<[[2]]>>)

// -----

// expected-error @+1 {{#tc.blocks: dimension 0 has a segment of length 0}}
func.func @empty_segment(%a: tensor<2xf64, #tc.blocks<[[2, 0]]>>)

// -----

// expected-error @+1 {{#tc.blocks: a dimension has no segments}}
func.func @no_segments(%a: tensor<2x2xf64, #tc.blocks<[[2], []]>>)

// -----

// expected-error @+1 {{#tc.blocks takes symmetry or present, not both}}
func.func @both(%a: tensor<2xf64, #tc.blocks<[[1, 1]], symmetry = 0, present = [[0]]>>)

// -----

// expected-error @+1 {{#tc.blocks: symmetry -1 is negative}}
func.func @negative(%a: tensor<2xf64, #tc.blocks<[[1, 1]], symmetry = -1>>)

// -----

// expected-error @+1 {{#tc.blocks: a listed block names segment 2 of dimension 0, which has 2}}
func.func @out_of_range(%a: tensor<2xf64, #tc.blocks<[[1, 1]], present = [[2]]>>)

// -----

// expected-error @+1 {{#tc.blocks: a block is listed twice}}
func.func @twice(%a: tensor<2xf64, #tc.blocks<[[1, 1]], present = [[1], [1]]>>)

// -----

// expected-error @+1 {{#tc.blocks: present lists 3 segment ids, not a multiple of the rank 2}}
func.func @ragged(%a: tensor<2x2xf64, #tc.blocks<[[1, 1], [2]], present = [[0, 0], [1]]>>)

// -----

// expected-error @+1 {{#tc.blocks: unexpected 'irreps' (expected symmetry = N, present = [[ids], ...], flip = [[partners], ...], antisymmetric = [[d1, d2], ...] or symmetric = [[d1, d2], ...], each at most once)}}
func.func @key(%a: tensor<2xf64, #tc.blocks<[[1, 1]], irreps = 4>>)

// -----

func.func @mixed(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>, %b: tensor<4x4xf64>) -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>> {
  // expected-error @+1 {{'tc.contract' op either every operand is block-sparse (#tc.blocks) or none is: input #1 is not}}
  %c = tc.contract [i, j] = %a[i, k] * %b[k, j] : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>, tensor<4x4xf64> -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
  return %c : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
}

// -----

func.func @disagree(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>, %b: tensor<4x4xf64, #tc.blocks<[[1, 3], [2, 2]]>>) -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>> {
  // expected-error @+1 {{'tc.contract' op label 'k' has segments [2, 2] in input #0 but [1, 3] in input #1}}
  %c = tc.contract [i, j] = %a[i, k] * %b[k, j] : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>, tensor<4x4xf64, #tc.blocks<[[1, 3], [2, 2]]>> -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
  return %c : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
}

// -----

// #tc.block_plan: stages and steps only out of core, and then both.
// expected-error @+1 {{#tc.block_plan: task_stage and task_step belong to out-of-core schedules (one_level, two_level, in_order) and they need both}}
func.func @plan_stages() attributes {p = #tc.block_plan<schedule = in_memory, task_rank = [0], brick_owner = [0], task_stage = [0], io_bytes = 0.0, comm_bytes = 0.0, io_per_rank = [0.0], received_per_rank = [0.0], sent_per_rank = [0.0]>}

// -----

// expected-error @+1 {{#tc.block_plan: 1 stages or steps for 2 tasks}}
func.func @plan_lengths() attributes {p = #tc.block_plan<schedule = one_level, task_rank = [0, 1], brick_owner = [0], task_stage = [0], task_step = [0, 0], io_bytes = 0.0, comm_bytes = 0.0, io_per_rank = [0.0], received_per_rank = [0.0], sent_per_rank = [0.0]>}

// -----

// expected-error @+1 {{#tc.block_plan: a negative process, stage or step}}
func.func @plan_negative() attributes {p = #tc.block_plan<schedule = in_memory, task_rank = [-1], brick_owner = [0], io_bytes = 0.0, comm_bytes = 0.0, io_per_rank = [0.0], received_per_rank = [0.0], sent_per_rank = [0.0]>}

// -----

// expected-error @+1 {{#tc.block_plan: io_per_rank, received_per_rank and sent_per_rank have one entry per process each}}
func.func @plan_ranks() attributes {p = #tc.block_plan<schedule = in_memory, task_rank = [0], brick_owner = [0], io_bytes = 0.0, comm_bytes = 0.0, io_per_rank = [0.0, 0.0], received_per_rank = [0.0], sent_per_rank = [0.0]>}

// -----

// expected-error @+1 {{#tc.block_plan: cache_per_rank belongs to out-of-core schedules, one entry per process}}
func.func @plan_cache() attributes {p = #tc.block_plan<schedule = in_memory, task_rank = [0], brick_owner = [0], io_bytes = 0.0, comm_bytes = 0.0, io_per_rank = [0.0], received_per_rank = [0.0], sent_per_rank = [0.0], cache_per_rank = [8.0]>}

// -----

// expected-error @+1 {{#tc.block_plan: byte counts are finite and non-negative}}
func.func @plan_cache_negative() attributes {p = #tc.block_plan<schedule = one_level, task_rank = [0], brick_owner = [0], task_stage = [0], task_step = [0], io_bytes = 0.0, comm_bytes = 0.0, io_per_rank = [0.0], received_per_rank = [0.0], sent_per_rank = [0.0], cache_per_rank = [-8.0]>}

// -----

// expected-error @+1 {{#tc.blocks: a scalar lists no segment ids (omit present; symmetry = 1 leaves its one block out)}}
func.func @scalar_present(%a: tensor<f64, #tc.blocks<[], present = []>>)

// -----

// expected-error @+1 {{#tc.blocks: the spin flip of dimension 0 maps segment 0 to 1 but 1 to 1 (flipping twice must give it back)}}
func.func @flip_not_involution(%a: tensor<4xf64, #tc.blocks<[[2, 2]], flip = [[1, 1]]>>)

// -----

// expected-error @+1 {{#tc.blocks: the spin flip maps segment 0 of dimension 0 (length 3) to one of length 1}}
func.func @flip_lengths(%a: tensor<4xf64, #tc.blocks<[[3, 1]], flip = [[1, 0]]>>)

// -----

// expected-error @+1 {{#tc.blocks: block [0, 1] is present but its spin flip [1, 0] is not}}
func.func @flip_not_closed(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], present = [[0, 1]], flip = [[1, 0], [1, 0]]>>)

// -----

// expected-error @+1 {{#tc.blocks: flip of dimension 1 lists 1 partners for its 2 segments}}
func.func @flip_count(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[1, 0], [0]]>>)

// -----

// expected-error @+1 {{#tc.blocks: flip lists 1 dimensions for a tensor of rank 2}}
func.func @flip_rank(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[1, 0]]>>)

// -----

// expected-error @+1 {{#tc.blocks: a scalar has no segments to flip (omit flip)}}
func.func @flip_scalar(%a: tensor<f64, #tc.blocks<[], flip = []>>)

// -----

func.func @restricted_of_unrestricted(
    %x: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[1, 0], [1, 0]]>>,
    %y: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>) {
  // expected-error @+1 {{'tc.contract' op the result is spin-restricted (#tc.blocks flip) but input #1 is not: its flipped blocks need not equal it}}
  %z = tc.contract [a, c] = %x[a, b] * %y[b, c]
         : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[1, 0], [1, 0]]>>,
           tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
        -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[1, 0], [1, 0]]>>
  return
}

// -----

func.func @flips_disagree(
    %x: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[1, 0], [1, 0]]>>,
    %y: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[0, 1], [1, 0]]>>) {
  // expected-error @+1 {{'tc.contract' op label 'b' flips its segments one way in input #0 and another in input #1}}
  %z = tc.contract [a, c] = %x[a, b] * %y[b, c]
         : tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[1, 0], [1, 0]]>>,
           tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[0, 1], [1, 0]]>>
        -> tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]]>>
  return
}

// -----

// expected-error @+1 {{#tc.blocks: antisymmetric lists pairs of dimensions, got 3}}
func.func @pair_of_three(%a: tensor<4x4x4xf64, #tc.blocks<[[2, 2], [2, 2], [2, 2]], antisymmetric = [[0, 1, 2]]>>)

// -----

// expected-error @+1 {{#tc.blocks: the pair symmetry of dimensions 0, 1: they have other segments}}
func.func @pair_segments(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [3, 1]], antisymmetric = [[0, 1]]>>)

// -----

// expected-error @+1 {{#tc.blocks: the pair symmetry of dimensions 1, 2 shares a dimension with another pair}}
func.func @pair_shared(%a: tensor<4x4x4xf64, #tc.blocks<[[2, 2], [2, 2], [2, 2]], antisymmetric = [[0, 1]], symmetric = [[1, 2]]>>)

// -----

// expected-error @+1 {{#tc.blocks: the pair symmetry of dimensions 0, 2 names two distinct dimensions of a tensor of rank 2 it does not}}
func.func @pair_range(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], symmetric = [[0, 2]]>>)

// -----

// expected-error @+1 {{#tc.blocks: block [0, 1] is present but its exchange [1, 0] (dimensions 0, 1) is not}}
func.func @pair_not_closed(%a: tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], present = [[0, 1]], antisymmetric = [[0, 1]]>>)

// -----

// expected-error @+1 {{#tc.blocks: the pair symmetry of dimensions 0, 1: they flip their segments differently}}
func.func @pair_flip(%a: tensor<4x4xf64, #tc.blocks<[[1, 1, 1, 1], [1, 1, 1, 1]], flip = [[1, 0, 3, 2], [2, 3, 0, 1]], symmetric = [[0, 1]]>>)
