//===- TCAttrs.td - tc attributes -------------------------*- tablegen -*-===//
#ifndef TC_ATTRS_TD
#define TC_ATTRS_TD

include "TC/Dialect/TCDialect.td"
include "TC/Dialect/TCEnums.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"

class TC_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TC_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

include "TC/Dialect/TCAlgorithms.td"

// #tc.plan's algorithm: a bare keyword for an algorithm without parameters,
// else the algorithm's own attribute (TCAlgorithmInterface.td).
def TC_AlgorithmParameter
    : AttrOrTypeParameter<"::mlir::tc::AlgorithmAttrInterface", "parallel algorithm"> {
  let parser = "::mlir::tc::parseAlgorithm($_parser)";
  let printer = "::mlir::tc::printAlgorithm($_printer, $_self)";
  let defaultValue = "::mlir::tc::AlgorithmAttrInterface()";
}

def TC_GridAttr : TC_Attr<"Grid", "grid"> {
  let summary = "Logical processor grid";
  let description = [{
    A logical grid of processes, one extent per grid dimension, e.g. `#tc.grid<[4, 8]>`
    for 32 processes viewed as 4 x 8 (Cociorva et al. 2002, section 3.1). Every extent
    is at least 1.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "extent per grid dimension">:$shape);
  let assemblyFormat = "`<` `[` $shape `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of grid dimensions.
    unsigned getRank() const { return getShape().size(); }
    /// Total number of processes in the grid (product of the extents).
    int64_t getNumProcs() const;
  }];
}

def TC_DistAttr : TC_Attr<"Dist", "dist"> {
  let summary = "Distribution of an array over a processor grid";
  let description = [{
    One entry per grid dimension (Cociorva et al. 2002, section 3.1): an index label
    (the array is block-distributed along that index over the grid dimension), `*`
    (replicated along the grid dimension) or `1` (only the processes with coordinate 0
    along the grid dimension hold data). An index label may appear at most once.

    ```mlir
    #tc.dist<[a, *]>
    #tc.dist<[a, b] virtual [2, 1]>
    ```

    The optional `virtual` list gives a virtual-partitioning factor per grid dimension
    (section 3.3): the index is split into `grid extent * factor` blocks, as the lcm
    construction needs when a fused loop is distributed differently by producer and
    consumer. Factors are >= 1 and may exceed 1 only on dimensions that distribute an
    index.

    The optional `cyclic` list gives a block-cyclic block size per grid dimension,
    as ScaLAPACK describes matrices (MB, NB; Choi, Dongarra, Walker section 2): the
    index is cut into blocks of that many elements, dealt round-robin over the grid
    dimension's coordinates. 0 keeps one contiguous block per coordinate; sizes > 0
    are allowed only on dimensions that distribute an index, and not together with
    virtual partitioning.

    ```mlir
    #tc.dist<[i, k] cyclic [5, 5]>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "label, `*` or `1` per grid dimension">:$dims,
    ArrayRefParameter<"int64_t", "virtual-partitioning factor per grid dimension (empty: all 1)">:$virtualFactors,
    ArrayRefParameter<"int64_t", "block-cyclic block size per grid dimension (empty: all 0, contiguous)">:$cyclicBlocks);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<::mlir::StringAttr>":$dims), [{
      return $_get($_ctxt, dims, ::llvm::ArrayRef<int64_t>{}, ::llvm::ArrayRef<int64_t>{});
    }]>,
    AttrBuilder<(ins "::llvm::ArrayRef<::mlir::StringAttr>":$dims,
                     "::llvm::ArrayRef<int64_t>":$virtualFactors), [{
      return $_get($_ctxt, dims, virtualFactors, ::llvm::ArrayRef<int64_t>{});
    }]>
  ];
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kReplicated = "*";
    static constexpr ::llvm::StringLiteral kFirstSlice = "1";
    unsigned getRank() const { return getDims().size(); }
    /// The index label distributed along grid dimension `dim`, or empty when that
    /// dimension is replicated (`*`) or holds only the first slice (`1`).
    ::llvm::StringRef getDistributedLabel(unsigned dim) const;
    /// Virtual-partitioning factor of grid dimension `dim` (1 when none was given).
    int64_t getVirtualFactor(unsigned dim) const;
    /// Block-cyclic block size of grid dimension `dim` (0: contiguous blocks).
    int64_t getCyclicBlock(unsigned dim) const;
  }];
}

// A bracketed list of integers, empty allowed (a scalar's extents): `[]`, `[4, 2]`.
class TC_IntList<string desc> : ArrayRefParameter<"int64_t", desc> {
  let parser = "::mlir::tc::parseIntList($_parser)";
  let printer = "::mlir::tc::printIntList($_printer, $_self)";
}

class TC_OptionalIntList<string desc> : TC_IntList<desc> {
  let defaultValue = "::llvm::SmallVector<int64_t>()";
  let comparator = "::llvm::ArrayRef<int64_t>($_lhs) == ::llvm::ArrayRef<int64_t>($_rhs)";
}

def TC_ArrayLayoutAttr : TC_Attr<"ArrayLayout", "layout"> {
  let summary = "How a distributed array is held: the type of every tc.array";
  let description = [{
    The layout of a distributed array (include/TC/Layout/ArrayLayout.h, the one
    description the analyses, the lowering and the runtime share), carried by
    `!tc.array` and encoded into the runtime's descriptor of `tc_rt_array`.

    The kind comes first: `distributed` (a block per process), `replicated`
    (whole on every process), `slab` (inside replication: P slabs of dimension
    0, tiles completed by `tc.broadcast_tile`) or `gathered` (outside
    replication: whole on every process after `tc.allgather_array`). Then the
    global extents (in stored order) on a processor grid (Gao et al. Table 1):
    dimension `d` is split into blocks along grid dimension `dims[d]` (-1: not
    split). `skew[d]` (-1: none) adds the coordinate along another grid
    dimension to the block index, the initial alignment of Cannon's algorithm
    ([G] 2.2), so rotation needs no separate skewing step.

    Optional, in this order:
    - `split` (COSMA's inputs and result, Kwasniewski et al. section 7.6): entry
      `d` (-1: none) names a second grid dimension along which the block of
      dimension `d` is split again into balanced sub-blocks, one per process;
      `tc.gather_tile` assembles a tile of the whole block and
      `tc.reduce_scatter_tile` sums one back. At most one dimension, a
      distributed one, along a grid dimension no dimension is distributed or
      skewed along.
    - `cyclic` (PUMMA, Choi, Dongarra, Walker section 2): entry `d` > 0 makes
      the distributed dimension `d` block-cyclic with blocks of that many
      elements dealt round-robin over its grid dimension; 0 keeps one
      contiguous block. No skew and no split with it.
    - `file_dims`: entry `d` names the dimension of the user's tensor (HDF5
      dataset) that dimension `d` holds (the array may be stored in another
      order, so that the local dgemm runs on its fastest shape).
    - `summed_file_dims` and `summed_extents` (labels of one input only,
      docs/Derivations.md D30): the input's dataset has these dimensions too, at
      these positions and of these extents, and the array holds its sum over
      them; with `file_dims` they give every dimension of the dataset once.
    - `first_slice` (Cociorva et al.'s `1` entry, section 3.1): grid dimensions
      along which only the processes at coordinate 0 hold the array; no
      dimension is split along them.

    ```mlir
    #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>
    #tc.layout<replicated [64, 64] on [4] dims [-1, -1] skew [-1, -1]>
    #tc.layout<distributed [64, 64] on [2, 2, 1] dims [2, 1] skew [-1, -1] split [-1, 0]>
    ```
  }];
  let parameters = (ins
    EnumParameter<TC_ArrayKind>:$kind,
    TC_IntList<"global extent per dimension, in stored order">:$extents,
    TC_IntList<"extent per grid dimension">:$grid,
    TC_IntList<"grid dimension splitting each dimension (-1: none)">:$dims,
    TC_IntList<"grid dimension skewing each dimension (-1: none)">:$skew,
    TC_OptionalIntList<"grid dimension splitting each block again (-1: none)">:$split,
    TC_OptionalIntList<"block-cyclic block size per dimension (0: contiguous)">:$cyclic,
    TC_OptionalIntList<"dataset dimension each dimension holds">:$fileDims,
    TC_OptionalIntList<"dataset dimensions summed as it loads">:$summedFileDims,
    TC_OptionalIntList<"their extents">:$summedExtents,
    TC_OptionalIntList<"grid dimensions held on their first slice only">:$firstSlice);
  let assemblyFormat = [{
    `<` $kind $extents `on` $grid `dims` $dims `skew` $skew
    (`split` $split^)? (`cyclic` $cyclic^)? (`file_dims` $fileDims^)?
    (`summed_file_dims` $summedFileDims^)? (`summed_extents` $summedExtents^)?
    (`first_slice` $firstSlice^)? `>`
  }];
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::tc_layout::ArrayLayout &":$layout)>
  ];
  let extraClassDeclaration = [{
    /// The layout as the analyses and the runtime hold it (every entry given).
    ::tc_layout::ArrayLayout getLayout() const;
    int64_t getRank() const { return getExtents().size(); }
    int64_t getGridRank() const { return getGrid().size(); }
  }];
}

def TC_MachineAttr : TC_Attr<"Machine", "machine"> {
  let summary = "Machine model used by the planners";
  let description = [{
    The parallel machine the planners target (Gao et al. section 2; Cociorva et al.
    section 3.2): number of processes, memory per process in bytes, network and disk
    bandwidths in bytes per second, element size in bytes, and multipliers on the cost
    of broadcast and reduction collectives (1 reproduces the papers' formulas).

    ```mlir
    #tc.machine<procs = 4, mem = 67108864, net_bw = 2.0e+08, disk_bw = 8.0e+06>
    #tc.machine<procs = 4, mem = "64MiB", net_bw = "200MB/s", disk_bw = "8MB/s",
                elem_bytes = 8, bcast_factor = 1.4, reduce_factor = 1.0, flop_rate = 2.0e+10>
    ```

    Sizes and rates are plain numbers or strings with units (KB, MB, GB = powers of
    1000; KiB, MiB, GiB = powers of 1024; rates end in `/s`). `procs`, `mem`, `net_bw`
    and `disk_bw` are required; `elem_bytes` defaults to 8 and both factors to 1. The
    printed form always uses plain numbers.

    `flop_rate` (flop/s per process, default 1e9; printed when it differs) prices
    the computation a plan adds to an even share over all processes: a COSMA grid
    that leaves processes idle (Kwasniewski et al. section 7.1, Fig. 5) gives each
    used process P/P' times that share. Gao et al.'s costs leave out the
    computation every plan shares.

    `latency` (seconds per message, default 0; printed when given) prices
    what a message costs beyond its bytes: each communication step of a
    plan's stage 2 and of a hand-over into its layouts. With it, a statement
    whose work takes microseconds runs whole on every process (`batch` over
    no label) rather than spread over processes that then exchange messages
    (docs/Derivations.md D58). 0 is the papers' model, which counts bytes only.

    `volumes = runtime` (default `paper`) predicts the bytes tc's runtime moves
    instead of the paper's formulas where the two differ: an all-gather of A sends
    and writes A (P-1)/P per process, not A (ring; replication), an out-of-core
    all-reduce reads and writes C (2C, not C), and on P not a power of two an
    all-reduce sends 2C (P-1)/P (ring) instead of C log2 P. `tcc` plans with it,
    so a run's report compares like with like.
  }];
  let parameters = (ins
    "int64_t":$procs,
    "int64_t":$memBytes,
    APFloatParameter<"network bandwidth, bytes/s">:$netBandwidth,
    APFloatParameter<"disk bandwidth, bytes/s">:$diskBandwidth,
    "int64_t":$elemBytes,
    APFloatParameter<"broadcast cost multiplier">:$bcastFactor,
    APFloatParameter<"reduction cost multiplier">:$reduceFactor,
    APFloatParameter<"flop/s per process">:$flopRate,
    APFloatParameter<"seconds per message">:$latency,
    EnumParameter<TC_VolumesKind>:$volumes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// flop_rate when not given: 1e9 flop/s per process (tc-fuse-distribute's
    /// CalcCost default too).
    static double getDefaultFlopRate();
  }];
}

def TC_BlocksAttr : TC_Attr<"Blocks", "blocks",
                            [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Block-sparse tensor: segments per dimension and the blocks present";
  let description = [{
    A tensor encoding (Krishnamoorthy et al. section 2): each dimension's extent
    is cut into segments (irreps in coupled-cluster codes), a block is a tuple
    of segment ids, and only the blocks present are stored.

    ```mlir
    tensor<160x160xf64, #tc.blocks<[[80, 40, 20, 20], [80, 40, 20, 20]], symmetry = 0>>
    tensor<4x3xf64, #tc.blocks<[[2, 2], [3]], present = [[0, 0], [1, 0]]>>
    tensor<8x8xf64, #tc.blocks<[[4, 4], [4, 4]]>>
    ```

    - The list gives each dimension's segment lengths, which sum to its
      extent (every length at least 1).
    - `symmetry = s`: the blocks whose segment ids XOR to `s` (0: totally
      symmetric), as TCE's spatial-symmetry test; `present = [...]`: exactly
      the listed blocks (each once, in range); neither: every block.
    - A scalar, `tensor<f64, #tc.blocks<[]>>`, has one block (no segment ids):
      a block-sparse product summed over every label, or the ones of a
      one-tensor term; `symmetry = 1` leaves it out (no ids XOR to 1).
    - `flip = [[...], ...]`: spin restriction (a closed-shell reference).
      Per dimension, the segment each segment becomes when every spin flips
      (its partner: the same orbitals with the other spin, of equal length;
      flipping twice gives it back). The tensor's block equals its flipped
      block, the present blocks are closed under the flip, and of each pair
      only the block whose segment ids come first is stored:
      `tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], flip = [[1, 0], [1, 0]]>>`
      stores blocks [0, 0], [0, 1] ([1, 1] equals [0, 0], [1, 0] equals [0, 1]).
    - `antisymmetric = [[d1, d2], ...]`, `symmetric = [[d1, d2], ...]`:
      permutational symmetry (NWChem TCE's, [K] 2). Exchanging the indices of
      dimensions d1 and d2 changes the tensor's sign (antisymmetric,
      <pq||rs> in p, q; t_ij^ab in a, b) or leaves it (symmetric). The two
      dimensions have the same segments (and spin flip), no dimension is in
      two pairs, and the present blocks are closed under the exchange. Of
      the blocks the exchanges (and the spin flip) relate, only the one whose
      segment ids come first is stored; the others are read from it,
      permuted and signed. A block on the diagonal (equal segments) is
      stored whole:
      `tensor<4x4xf64, #tc.blocks<[[2, 2], [2, 2]], antisymmetric = [[0, 1]]>>`
      stores blocks [0, 0], [0, 1], [1, 1] ([1, 0] is [0, 1] transposed,
      negated).
    - In a `tc.contract`, a label has the same segments (and spin flip) in
      every operand, and either every operand is block-sparse or none is; a
      restricted result needs restricted (or scalar) operands.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "segments per dimension">:$counts,
    ArrayRefParameter<"int64_t", "segment lengths, dimension after dimension">:$lengths,
    OptionalParameter<"std::optional<int64_t>">:$symmetry,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$present,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$flip,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$antisymmetric,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$symmetric);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The analyses' view of the encoding (lib/Analysis/BlockSparse.h).
    ::mlir::tc::BlockSparseShape toShape() const;
    /// The encoding of an analyses' shape (a scalar's: no dimensions).
    static BlocksAttr fromShape(::mlir::MLIRContext *context,
                                const ::mlir::tc::BlockSparseShape &shape);
    /// Segment lengths of dimension `dim`.
    ::llvm::SmallVector<int64_t> getSegments(unsigned dim) const;
    unsigned getRank() const { return getCounts().size(); }
  }];
}

def TC_BlockPlanAttr : TC_Attr<"BlockPlan", "block_plan"> {
  let summary = "How a block-sparse contraction runs: its task pool's schedule";
  let description = [{
    The plan of a `tc.contract` over block-sparse operands (`#tc.blocks`),
    attached as its `tc.block_plan` attribute by `tc-plan-block-sparse`. Tasks
    and bricks are numbered as the task pool enumerates them from the operand
    types (present C blocks in row-major order, then the segments of the
    labels outside C; bricks in order of first use), so the plan is arrays
    over those numbers:

    ```mlir
    tc.block_plan = #tc.block_plan<schedule = two_level,
        task_rank = [0, 1, 1, 0], brick_owner = [0, 1, 0, 1, 1, 0],
        task_stage = [0, 0, 1, 1], task_step = [0, 1, 0, 0],
        io_bytes = 4.1e+05, comm_bytes = 2.0e+04, io_per_rank = [2.0e+05, 2.1e+05],
        received_per_rank = [2.0e+04, 1.6e+04], sent_per_rank = [1.6e+04, 2.0e+04]>
    ```

    - `schedule`: `in_memory`, `one_level` or `two_level`.
    - `task_rank`: the process running each task; `brick_owner`: the process
      holding each brick (in memory) or whose disk holds it (out of core).
    - `task_stage`, `task_step`: each task's stage and its read-once step
      within the stage (out of core only; stages and steps run in order).
    - `io_bytes`: disk bytes of the whole schedule (each brick once per stage
      touching it, Krishnamoorthy et al. section 6); `io_per_rank`: the bytes
      each process's disk reads and writes as the runtime runs the stages
      (a brick's home moves it; a C brick is written per stage and read back
      when an earlier stage wrote it or the contraction accumulates, so the sum
      may exceed `io_bytes`, docs/BlockSparse.md); `comm_bytes`: bytes
      the busiest process receives; `received_per_rank`, `sent_per_rank`:
      each process's (remote bricks its tasks read, partial sums of C blocks
      it owns computed elsewhere; and the converse), summed over stages,
      net of the reads a cache serves.
    - `cache_per_rank` (out of core): each process's LRU cache of remote
      bricks, the memory its busiest stage leaves ([K] 6): a stage reading a
      brick the cache still holds from an earlier stage receives nothing.
  }];
  let parameters = (ins
    AttrParameter<"::mlir::tc::BlockSchedule", "how the task pool runs">:$schedule,
    "::mlir::DenseI64ArrayAttr":$task_rank,
    "::mlir::DenseI64ArrayAttr":$brick_owner,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$task_stage,
    OptionalParameter<"::mlir::DenseI64ArrayAttr">:$task_step,
    "::mlir::FloatAttr":$io_bytes,
    "::mlir::FloatAttr":$comm_bytes,
    "::mlir::DenseF64ArrayAttr":$io_per_rank,
    "::mlir::DenseF64ArrayAttr":$received_per_rank,
    "::mlir::DenseF64ArrayAttr":$sent_per_rank,
    OptionalParameter<"::mlir::DenseF64ArrayAttr">:$cache_per_rank);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TC_PlanAttr : TC_Attr<"Plan", "plan"> {
  let summary = "How one contraction runs: Gao et al.'s plan";
  let description = [{
    The decisions of the planning passes for one `tc.contract` (Gao et al. section
    2.3), attached as its `tc.plan` attribute. Every field is optional: a pass fills
    only the fields it decides and keeps any already present, so a plan can be
    written, whole or in part, by hand.

    ```mlir
    tc.plan = #tc.plan<in_core = false, method = outside, algorithm = rotation,
        grid = <[2, 2]>, dist_a = <[i, k]>, dist_b = <[k, j]>, dist_c = <[i, j]>,
        order = CAB, loops = [{i = 4, j = 4}, {k = 8}, {}, {} ],
        disk_bytes = 5.12e+08, comm_bytes = 3.2e+07, seconds = 64.16>
    ```

    - `in_core`: all local data fits in memory; no disk I/O, hence no
      communication method, read order or tiling loops.
    - `method`: `inside` or `outside` communication ([G] 2.1).
    - `algorithm`: the parallel algorithm, as its own attribute holding its
      own parameters and checking the other fields against itself:
      `#tc.gao<...>` (`rotation`, `replication_a`, `replication_b`,
      `accumulation`; [G] 2.2, Table 1), `#tc.cosma<rounds = ...>`,
      `#tc.pumma<roll = ...>` or `#tc.batch`. Without parameters it is written
      as the bare keyword: `algorithm = rotation`, `algorithm = cosma`.
    - `grid`, `dist_a`, `dist_b`, `dist_c`: the processor grid and the
      distributions of the two inputs and the result during the computation,
      one entry per grid dimension. The grid has the machine's `procs`
      processes, except COSMA's, which may have fewer: the rest stay idle
      (Kwasniewski et al. section 7.1; the planner leaves up to 3% idle when
      that is faster, docs/Derivations.md D27). A grid written by hand restricts
      the planner to plans on it.
    - `order`: the order of the three disk reads, e.g. `CAB` ([G] section 3).
    - `loops`: the tiling loops in four groups D1..D4 (docs/Derivations.md D4), each a dictionary
      from label to tile count; loops within a group are interchangeable. The
      array named by the n-th letter of `order` is read at the top of the body of
      group n (after the loops of groups 1..n), and C is written at the end of the
      body it was read in. Group D4 holds loops over in-memory sub-tiles only.
      Every tile count is at least 2 (a loop of one trip is no loop).
    - `memory`: how the tiles share memory, out of core only: `per_array`
      (each tile within a third of it, Gao et al.; what an absent field means
      once loops are given) or `shared` (the three together, COSMA's sequential
      schedule: C's tile resident, A and B streamed; docs/Derivations.md D29).
    - `disk_bytes`, `comm_bytes`: predicted disk and network volume per process,
      including the redistribution of inputs and result (COSMA, PUMMA: the
      busiest process's received bytes); `seconds`: predicted overhead,
      disk_bytes / disk_bw + comm_bytes / net_bw, plus, for a COSMA grid
      leaving processes idle, the flops they leave to the others at the
      machine's `flop_rate`. All three are finite and non-negative.
    - `i_contiguous`: `true` stores A and C with the labels of I (those of A and
      C) last, contiguous, so the local dgemm runs with a long M; `false` keeps
      the given dimension order. tc-solve-tiles sets `true` when I is at least 64
      times J and K (lib/Analysis/StorageOrder.h); absent, that rule applies.
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::BoolAttr">:$in_core,
    OptionalParameter<"std::optional<::mlir::tc::CommMethod>">:$method,
    TC_AlgorithmParameter:$algorithm,
    OptionalParameter<"::mlir::tc::GridAttr">:$grid,
    OptionalParameter<"::mlir::tc::DistAttr">:$dist_a,
    OptionalParameter<"::mlir::tc::DistAttr">:$dist_b,
    OptionalParameter<"::mlir::tc::DistAttr">:$dist_c,
    OptionalParameter<"std::optional<::mlir::tc::ReadOrder>">:$order,
    OptionalParameter<"::mlir::ArrayAttr">:$loops,
    OptionalParameter<"std::optional<::mlir::tc::TileMemory>">:$memory,
    OptionalParameter<"::mlir::FloatAttr">:$disk_bytes,
    OptionalParameter<"::mlir::FloatAttr">:$comm_bytes,
    OptionalParameter<"::mlir::FloatAttr">:$seconds,
    OptionalParameter<"::mlir::BoolAttr">:$i_contiguous);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The algorithm's kind, when the plan names one.
    std::optional<::mlir::tc::ParallelAlgorithm> getAlgorithmKind() const {
      if (auto a = getAlgorithm())
        return a.getKind();
      return std::nullopt;
    }
  }];
}

def TC_FusionAttr : TC_Attr<"Fusion", "fusion"> {
  let summary = "One array of a fused operator tree: Cociorva et al.'s decisions";
  let description = [{
    What `tc-fuse-distribute` decided for one array of an operator tree (Cociorva et
    al. section 3.3), attached as `tc.fusion` to the `tc.contract`/`tc.sum` producing
    it, or as an argument attribute to an input.

    ```mlir
    tc.fusion = #tc.fusion<grid = <[4, 8]>, compute = <[b, f]>, initial = <[b, f]>,
        final = <[b, c]>, fused = ["d"], partial_sums = to_all,
        memory = 1.75e+07 : f64, comm = 7.918e+02 : f64, calc = 3.2e+01 : f64>
    ```

    - `compute`: the distribution of the node's loops while it computes ([C]'s
      gamma; absent on inputs).
    - `initial`: the input's distribution, or the distribution the node produces
      its array in (after combining partial sums, `partial_sums`).
    - `final`: the distribution the consuming node reads it in (on the result, the
      initial one).
    - `fused`: loops fused with the consumer (on the result: the loops the result
      is written along slice by slice); the array keeps only the other dimensions.
    - `partial_sums`: `to_one` or `to_all` when `compute` distributes a summed
      index ([C]'s variants 1 and 2); `none` (absent) otherwise.
    - `memory`: bytes per process, the larger of the initial and final sizes;
      `comm`: seconds of redistribution (MoveCost), `calc`: seconds of
      computation (CalcCost).

    The distributions have one entry per dimension of `grid`, the fused labels
    are distinct, `partial_sums` and `calc` belong to computed arrays (those
    with a `compute` distribution), and the costs are finite and non-negative.
  }];
  let parameters = (ins
    "::mlir::tc::GridAttr":$grid,
    OptionalParameter<"::mlir::tc::DistAttr">:$compute,
    "::mlir::tc::DistAttr":$initial,
    "::mlir::tc::DistAttr":$final,
    OptionalParameter<"::mlir::ArrayAttr">:$fused,
    DefaultValuedParameter<"::mlir::tc::SumVariant", "::mlir::tc::SumVariant::None">:$partial_sums,
    "::mlir::FloatAttr":$memory,
    "::mlir::FloatAttr":$comm,
    OptionalParameter<"::mlir::FloatAttr">:$calc);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TC_FusionPlanAttr : TC_Attr<"FusionPlan", "fusion_plan"> {
  let summary = "A function's fused and distributed operator tree: totals";
  let description = [{
    Attached by `tc-fuse-distribute` to a function whose contractions form an
    operator tree: the logical grid chosen among all factorizations of P, the
    memory per process of the plan and the limit it met, and the predicted
    communication and computation seconds ([C] 3.3).

    ```mlir
    tc.fusion_plan = #tc.fusion_plan<grid = <[4, 8]>, memory = 5.03e+08 : f64,
        limit = 5.12e+08 : f64, comm = 2.188e+03 : f64, calc = 1.2e+04 : f64>
    ```

    The memory, limit and costs are finite and non-negative, and the memory
    is within the limit.
  }];
  let parameters = (ins
    "::mlir::tc::GridAttr":$grid,
    "::mlir::FloatAttr":$memory,
    "::mlir::FloatAttr":$limit,
    "::mlir::FloatAttr":$comm,
    "::mlir::FloatAttr":$calc);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TC_LoopAttr : TC_Attr<"Loop", "loop"> {
  let summary = "A loop of a program's statements, run until a scalar converges";
  let description = [{
    On a function tc-outline-loops made of a `tc.iterate` body, on the
    statements tc-split-program cuts it into, and on the `tc.end_iteration`
    that closes each iteration in the program's entry: the loop they repeat.
    `label` names it in the run's report (its source location); the loop runs
    at most `max` iterations, and stops earlier when the scalar intermediate
    `converge` changes by less than `tolerance` from one iteration to the next.
    Without `converge` it runs exactly `max` iterations. `carried` names the
    tensors one iteration leaves for the next in the intermediates store (what
    a checkpoint holds); with `diis = N` the runtime extrapolates them from the
    last N iterations' values (Pulay's DIIS, docs/Derivations.md D41).

    ```mlir
    #tc.loop<label = "ccd.tce:20", max = 50, converge = "E", tolerance = 1.000000e-10 : f64,
             carried = ["T1", "T2"], diis = 6>
    #tc.loop<label = "sweep.mlir:3", max = 10>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the loop in reports and diagnostics">:$label,
    "int64_t":$max,
    StringRefParameter<"the scalar tested for convergence (none: a fixed count)", "\"\"">:$converge,
    OptionalParameter<"::mlir::FloatAttr", "the largest change that counts as converged">:$tolerance,
    OptionalParameter<"::mlir::ArrayAttr", "the stored names of the carried tensors">:$carried,
    DefaultValuedParameter<"int64_t", "0", "iterations DIIS extrapolates from (0: none)">:$diis);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // TC_ATTRS_TD
