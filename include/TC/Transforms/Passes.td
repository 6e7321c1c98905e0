//===- Passes.td - tc passes ------------------------------*- tablegen -*-===//
#ifndef TC_TRANSFORMS_PASSES_TD
#define TC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Planning: Gao et al.'s out-of-core cost model, one decision per pass.
//===----------------------------------------------------------------------===//

// The planning options, each declared once: a pass takes its lists, and tc-plan,
// which runs the planning passes, takes them all and forwards each to its pass.
defvar MachineFileOption = [
  Option<"machineFile", "machine-file", "std::string", /*default=*/"\"\"",
         "JSON machine file: the keys of #tc.machine (flop_rate included) for "
         "tc-set-machine, measured costs (mcost, latency, io_latency, "
         "call_overhead) for tc-fuse-distribute",
         "llvm::cl::value_desc(\"FILE\")">,
  Option<"defaultMachineFile", "default-machine-file", "std::string", /*default=*/"\"\"",
         "Machine file (tc-calibrate's) for the measured quantities nothing else "
         "gives: net_bw, disk_bw and flop_rate for tc-set-machine, the measured "
         "costs for tc-fuse-distribute when machine-file is not given; tcc passes "
         "the calibrated file's default location when it exists",
         "llvm::cl::value_desc(\"FILE\")">,
];

defvar MachineOptions = [
  Option<"procs", "procs", "int64_t", /*default=*/"0", "Number of processes",
         "llvm::cl::value_desc(\"P\")">,
  Option<"mem", "mem", "std::string", /*default=*/"\"\"",
         "Memory per process, e.g. 64MB or 1GiB",
         "llvm::cl::value_desc(\"SIZE\")">,
  Option<"netBw", "net-bw", "std::string", /*default=*/"\"\"",
         "Network bandwidth per process, e.g. 200MB/s",
         "llvm::cl::value_desc(\"RATE\")">,
  Option<"diskBw", "disk-bw", "std::string", /*default=*/"\"\"",
         "Disk bandwidth per process, e.g. 8MB/s",
         "llvm::cl::value_desc(\"RATE\")">,
  Option<"elemBytes", "elem-bytes", "int64_t", /*default=*/"0",
         "Bytes per tensor element (default 8)",
         "llvm::cl::value_desc(\"N\")">,
  Option<"bcastFactor", "bcast-factor", "double", /*default=*/"0",
         "Multiplier on broadcast volumes (default 1)",
         "llvm::cl::value_desc(\"X\")">,
  Option<"reduceFactor", "reduce-factor", "double", /*default=*/"0",
         "Multiplier on reduction volumes (default 1)",
         "llvm::cl::value_desc(\"X\")">,
  Option<"volumes", "volumes", "std::string", /*default=*/"\"\"",
         "Volume accounting: paper (the papers' formulas, default) or runtime "
         "(the bytes tc's runtime moves; see #tc.machine)",
         "llvm::cl::value_desc(\"V\")">,
  Option<"flopRate", "flop-rate", "double", /*default=*/"0",
         "Flop/s per process, for CalcCost and the computation idle processes "
         "add (default: the machine file's flop_rate, else 1e9)",
         "llvm::cl::value_desc(\"F\")">,
];

// Read by tc-set-machine into #tc.machine (the contraction planner's) and by
// tc-fuse-distribute (its analytic Mcost).
defvar LatencyOption = [
  Option<"latency", "latency", "double", /*default=*/"-1",
         "Seconds per message beyond its bytes, for the planners' costs "
         "(default: the machine file's, else the module's when not 0, else "
         "1e-5; 0: bytes only, the papers' model)",
         "llvm::cl::value_desc(\"S\")">,
];

defvar FusionOptions = [
  Option<"maxGridDims", "max-grid-dims", "int", /*default=*/"2",
         "Largest number of logical grid dimensions searched",
         "llvm::cl::value_desc(\"N\")">,
  Option<"virtualPartitioning", "virtual-partitioning", "bool", /*default=*/"true",
         "Allow fused loops split differently at their two ends (lcm virtual partitioning)",
         "llvm::cl::value_desc(\"B\")">,
  Option<"ioLatency", "io-latency", "double", /*default=*/"-1",
         "Seconds per input or result slice read or written (default: the machine file's, else 1e-4; 0: free, as in [C])",
         "llvm::cl::value_desc(\"S\")">,
  Option<"callOverhead", "call-overhead", "double", /*default=*/"-1",
         "Seconds per local contraction call in a fused loop (default: the machine file's, else 1e-6; 0: free)",
         "llvm::cl::value_desc(\"S\")">,
  Option<"fusion", "fusion", "bool", /*default=*/"true",
         "Search loop fusions (false: distributions only, every array whole)",
         "llvm::cl::value_desc(\"B\")">,
  Option<"firstSlice", "first-slice", "bool", /*default=*/"true",
         "Allow `1` in distributions (inputs on one grid slice, partial sums consolidated on one)",
         "llvm::cl::value_desc(\"B\")">,
];

defvar ReportOptions = [
  Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
         "Write the JSON report to this file ('-' for stdout)",
         "llvm::cl::value_desc(\"FILE\")">,
  Option<"tablePath", "table", "std::string", /*default=*/"\"\"",
         "Write the human-readable table to this file ('-' for stdout)",
         "llvm::cl::value_desc(\"FILE\")">,
];

def SetMachine : Pass<"tc-set-machine", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect"];
  let summary = "Attach the machine model (tc.machine) the planners read";
  let description = [{
    Sets the module's `tc.machine` attribute from a JSON machine file and/or the
    options; options override the file, which overrides an attribute already on the
    module. Sizes and rates take plain numbers (bytes, bytes/s) or units: KB, MB, GB
    (powers of 1000), KiB, MiB, GiB (powers of 1024), rates ending in `/s`, e.g.
    `--tc-set-machine="procs=4 mem=64MB net-bw=200MB/s disk-bw=8MB/s"`.

    The machine file is a JSON object with the keys of `#tc.machine`:
    `{"procs": 4, "mem": "64MB", "net_bw": "200MB/s", "disk_bw": "8MB/s",
    "elem_bytes": 8, "bcast_factor": 1, "reduce_factor": 1, "flop_rate": 2e10}`;
    numbers or strings with units, and optionally `"volumes": "runtime"` (see
    `#tc.machine`), and `latency` (seconds a message costs beyond its bytes;
    0 is the papers' model). The keys `io_latency`,
    `call_overhead` and `mcost` (measured costs written by `tc-calibrate`) are
    left to `tc-fuse-distribute`.

    The result must name procs and mem. The measured quantities (net_bw,
    disk_bw, flop_rate, latency) that neither the options, the machine file
    nor the module give come from `default-machine-file` (a file
    `tc-calibrate` wrote; its procs and mem, which describe the calibration
    run, are not used). A bandwidth still missing gets a default, said in one
    warning: 1 GB/s for the network and 200 MB/s for the disk (a commodity
    cluster node: 10 Gb Ethernet, one SATA SSD); run `tc-calibrate` to
    measure the machine instead. A latency still missing is 1e-5 s, what a
    hand-over of a few hundred bytes cost a CCSD iteration on two processes,
    waits included (docs/Derivations.md D58).
  }];
  let options = !listconcat(MachineFileOption, MachineOptions, LatencyOption);
}

defvar SpecializeProcsOptions = [
  ListOption<"specializeProcs", "specialize-procs", "int64_t",
             "Process counts to plan every function for (e.g. 1,2,4); the program "
             "runs the plan for its MPI_Comm_size",
         "llvm::cl::value_desc(\"P,...\")">,
];

def SpecializeProcs : Pass<"tc-specialize-procs", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect"];
  let summary = "Plan each function for several process counts; the program picks one at start-up";
  let description = [{
    Replaces every function that holds contractions (`tc.contract`, `tc.sum`,
    `tc.multi_contract`, `tc.redistribute`) by one copy per process count P of
    `specialize-procs`, named `@NAME.pP`, each carrying its own `tc.machine`:
    the module's (or the function's) with `procs = P`. The planning and
    lowering passes read the machine of the function they work on, so each copy
    gets the plan for its P. `tc-lower-to-runtime` makes the program's entry
    run, of each function, the copy whose P is the run's process count, and
    refuses any other count with the list of those planned for; one executable
    then serves a batch job whatever P it is given.

    Runs after `tc-set-machine` (it needs the module's machine). Process counts
    must be positive and distinct; with none the pass changes nothing.
  }];
  let options = SpecializeProcsOptions;
}

defvar BlockSparseOptions = [
  Option<"imbalance", "imbalance", "double", /*default=*/"0.05",
         "Largest allowed excess of a process's flops over the average in a "
         "block-sparse task assignment (eps)",
         "llvm::cl::value_desc(\"X\")">,
  Option<"assignment", "assignment", "std::string", /*default=*/"\"hypergraph\"",
         "Block-sparse task assignment: 'hypergraph' (Krishnamoorthy et al.) or "
         "'next-task' (the locality-oblivious baseline, for comparison)",
         "llvm::cl::value_desc(\"A\")">,
  Option<"cacheBytes", "cache-bytes", "double", /*default=*/"-1",
         "Bytes per process for the out-of-core cache of remote bricks (default "
         "-1: the memory each process's busiest stage leaves)",
         "llvm::cl::value_desc(\"N\")">,
  Option<"partitioner", "partitioner", "std::string", /*default=*/"\"default\"",
         "Hypergraph partitioner: 'builtin' (no MPI), one a tool registered "
         "('zoltan' in tc-opt and tcc), or 'default' (the last registered)",
         "llvm::cl::value_desc(\"P\")">,
];

def PlanBlockSparse : Pass<"tc-plan-block-sparse", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect"];
  let summary = "Schedule block-sparse contractions as task pools (Krishnamoorthy et al.)";
  let description = [{
    For every `tc.contract` over block-sparse operands (`#tc.blocks`), builds
    its task pool (a task per present C block and contributing pair of A and B
    blocks, weighted by its flops; blocks are the bricks of I/O and
    communication) and records its `tc.block_plan`:

    - In memory (Krishnamoorthy et al. section 5), when every process's bricks
      (those it owns and the remote ones its tasks touch) fit in `mem`: tasks
      and bricks co-assigned by a hypergraph partitioner (`partitioner`:
      Zoltan's PHG where the tool registered it, else the builtin one) under
      the connectivity-1 metric with a flop balance (`imbalance`).
    - Out of core (section 6) otherwise: bricks get their disk homes from that
      assignment; stages whose bricks fit in the aggregate memory (procs x mem)
      come from the one-level and the two-level (read-once) partitionings,
      the one with less I/O kept; within each stage the tasks are assigned to
      processes with the bricks' homes fixed. Where a process's share of a
      stage (its homes' bricks and the remote ones its tasks read) exceeds
      `mem`, the stages are formed again within a smaller aggregate
      (docs/Derivations.md D33).

    `io_bytes` is the schedule's disk volume and `comm_bytes` the bytes the
    busiest process receives (each remote brick once per stage, each partial
    sum of a remote C block once). A task whose own bricks exceed a
    process's memory is an error naming it.

    Out of core, each process keeps the remote bricks it received in an LRU
    cache of `cache-bytes` (by default the memory its busiest stage leaves,
    [K] 6); a later stage reading a brick still cached receives nothing, and
    the plan records the cache (`cache_per_rank`) and the traffic net of it.
    A contraction that already has a `tc.block_plan` keeps it (a schedule
    computed once is reused).

    `assignment=next-task` plans the locality-oblivious baseline instead
    ([K] 5.2's NextTask, 6.4's GetNext): tasks in pool order to the process
    with the fewest flops so far, bricks' homes round-robin, and out of core
    stages of consecutive tasks filled up to the aggregate memory
    (`schedule = in_order`). Benchmarks compare the two (bench/). The machine is the function's or
    the module's `tc.machine`; plans are deterministic (fixed seed).
  }];
  let options = BlockSparseOptions;
}

defvar MinimizeOperationsOptions = [
  Option<"tolerance", "tolerance", "double", /*default=*/"0.02",
         "Operation minimization: relative flop difference within which the tree "
         "with the smaller largest intermediate is preferred",
         "llvm::cl::value_desc(\"X\")">,
];

def MinimizeOperations : Pass<"tc-minimize-operations", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect"];
  let summary = "Factor every tc.multi_contract into its cheapest tree of binary contractions";
  let description = [{
    Operation minimization, the Tensor Contraction Engine's first stage
    (docs/Derivations.md D34): each `tc.multi_contract` (a product of n
    tensors summed over the labels absent from its result) becomes the tree of
    `tc.contract`s with the fewest flops, found by an exact search over the
    subsets of its operands; among trees within `tolerance` (relative) of the
    fewest flops, the one whose largest intermediate is smallest. The last
    contraction produces the result (accumulating into the op's `+=` value);
    the others produce intermediates whose labels are in order of first
    appearance. The last carries `tc.flops = {before = F, after = F}`: the
    product's flops as one loop nest and as the tree. Block-sparse operands
    are refused by name.
  }];
  let options = MinimizeOperationsOptions;
}

def ShareProducts : Pass<"tc-share-products", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect"];
  let summary = "Compute the same product of the same tensors once";
  let description = [{
    Common sub-expressions across a program's statements
    (docs/Derivations.md D35). Two `tc.contract`s are the same product when
    they read the same values with the same labels up to renaming (result
    labels by position, summed labels by first appearance) into the same
    type. Without an accumulator, the later is replaced by the earlier (the
    value, now read twice, becomes an intermediate of tc-split-program;
    outputs are left alone); accumulated twice into one tensor, with nothing
    reading the tensor in between, the two terms become one whose coefficient
    is their sum. Runs after `tc-minimize-operations`, whose binary trees
    expose the products that statements share.
  }];
}

defvar SharePermutedProductsOptions = [
  Option<"minSummedVolume", "min-summed-volume", "int64_t", /*default=*/"32",
         "Shared permuted products: the fewest terms summed per element of a "
         "product that antisymmetrizer copies share (tc-share-permuted-products)",
         "llvm::cl::value_desc(\"N\")">,
];

def SharePermutedProducts : Pass<"tc-share-permuted-products", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect", "::mlir::arith::ArithDialect"];
  let summary = "Compute once a product that several terms read in different orders";
  let description = [{
    An antisymmetrizer's copies of a term (`P(ij) t = t - t'`) read the same
    tensors with result labels exchanged: one product in two orders of its
    dimensions (docs/Derivations.md D48). Two `tc.contract`s of two dense,
    non-scalar inputs are such a pair when they read the same values, a
    renaming of labels turns one's input labels into the other's position by
    position and maps result labels onto result labels, and they give the
    same element type. For each group of two or more whose inputs the
    program names (inputs and statements' results: the inner products of
    `tc-minimize-operations`' trees are left in their trees) and whose
    product sums at least `min-summed-volume` terms per element (32: fewer
    cost about what adding the result in another order does), the first's
    product is computed once,
    unscaled and without
    accumulator, before it; each member becomes the addition of that value,
    in its own order and with its own coefficient and accumulator (a product
    with the scalar 1). Runs after `tc-share-products`; block-sparse operands
    are left alone.
  }];
  let options = SharePermutedProductsOptions;
}

defvar CheckRewritesOption = [
  Option<"checkRewrites", "check-rewrites", "bool", /*default=*/"false",
         "Debug mode: check that operation minimization, shared products and "
         "the split into statements keep every value (tc-check-rewrites)",
         "llvm::cl::value_desc(\"B\")">,
];

def CheckRewrites : Pass<"tc-check-rewrites", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect", "::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect"];
  let summary = "Check on small random arrays that the program rewrites keep every value";
  let description = [{
    A debug mode for the rewrites that could change a program's values
    (docs/Derivations.md D36). For every function of tc ops (and constants)
    not yet planned or split, a
    copy is evaluated element by element on random arrays whose extents are
    the function's capped at 3 (the rewrites are the same at any extent);
    then `tc-minimize-operations`, `tc-share-products`,
    `tc-share-permuted-products` and `tc-split-program` run on the copy one
    after the other, and after each the copy is evaluated
    again: as a function of values after the first two, and after the split
    as the runtime runs its statements (every tensor under its name, an
    accumulation updating the tensor named as its result in place). A result
    that differs by more than 1e-9 of its largest magnitude is an error naming
    the result, the pass that changed it and the difference. The module itself
    is left as it is. `tc-plan` runs it first with `check-rewrites=true`
    (`tcc --check-rewrites true`); the random program tests do.
  }];
  let options = !listconcat(MinimizeOperationsOptions, SharePermutedProductsOptions);
}

def OutlineLoops : Pass<"tc-outline-loops", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect", "::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect"];
  let summary = "Turn a program's loops (tc.iterate) into parts the program's entry repeats";
  let description = [{
    A function with `tc.iterate` ops becomes its parts, in order: the
    statements before the first loop, each loop's body, the statements
    between loops and after the last, each a function of its own marked
    `tc.part_of` (the program) and a loop's body `tc.loop` (#tc.loop: its
    label, largest iteration count, and the scalar and tolerance it converges
    on). tc-split-program cuts each part into statements; the program's entry
    runs them in order and repeats a loop's until `tc.end_iteration` says stop.

    Values cross from one part to another by name (the runtime's
    intermediates store), as between statements: a part returns what later
    parts read as results marked `tc.keep` (stored, not written to the output
    file), and reads what earlier parts left as arguments of that name. A
    loop carries a tensor under one name (its body's `tc.name`): the body
    loads it and stores its next value under it; before the loop the part
    that precedes it stores the starting value under that name (a copy when
    it has another), unless it is an input of that name, which the first
    iteration reads. The program's outputs are written by its last part
    (copies of what loops and earlier parts left). A name stored over before
    a part reads the value it held is an error, as are nested loops.
  }];
}

def SplitProgram : Pass<"tc-split-program", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect", "::mlir::func::FuncDialect"];
  let summary = "Split a program of many contractions into one function per statement";
  let description = [{
    A function whose `tc.contract` and `tc.sum` ops form a DAG (intermediates
    used more than once, several results, terms accumulated into one result,
    constant factors of ones) becomes one function per statement, each a
    single contraction or an operator tree (docs/Derivations.md D35): the
    DAG is cut at every value used other than once by another formula, at
    every accumulation (`+=`, which runs as one contraction) and at every
    product with a constant of ones (a one-tensor term `R += c * X[...]`,
    whose ones become an argument marked `tc.ones`). A tree that would read
    one value twice is cut into single contractions.

    The statement functions (`@f_s1`, `@f_s2`, ... in program order) name
    every tensor crossing a cut (`tc.name`: the function's argument and
    result names, a formula's `tc.name` for intermediates, an accumulation
    keeps the name of the tensor it updates) and carry `tc.statement` (their
    name in the run's report) and, when their result is read by later
    statements rather than returned, `tc.intermediate`; with `tc.in_memory`
    too when it stays in memory: intermediates are so kept, counted whole,
    first come first, while they take at most a quarter of each process's
    memory; with what is left of that quarter, `tc.keep_inputs` marks the
    statements that first load an input a later statement (or a loop's next
    iteration) loads again, so that the run reads it once. Every statement's
    `tc.machine` then has that much less memory. A function that is
    already one contraction or operator tree, has redistributions or
    block-sparse operands, or is planned already, is left as it is.
    Requires `tc-minimize-operations` first.
  }];
}

defvar PlanSweepsOption = [
  Option<"planSweeps", "plan-sweeps", "int", /*default=*/"4",
         "Sweeps over a program's contractions: the first plans each with the "
         "plans of the statements before it in view, each later one plans each "
         "again with its readers' plans too, until none changes "
         "(docs/Derivations.md D59; 1: the first sweep only)",
         "llvm::cl::value_desc(\"N\")">,
];

def SelectAlgorithm : Pass<"tc-select-algorithm", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect"];
  let summary = "Choose in-core or out-of-core, the communication method, the parallel algorithm and the distributions";
  let description = [{
    For every `tc.contract`, runs the planner of Gao et al. (section 2.3,
    docs/Derivations.md D9) on the module's `tc.machine` and records the cheapest plan's `in_core`,
    `method` (Gao et al.'s out-of-core tilings only: none in core or for
    COSMA out of core, docs/Derivations.md D56), `algorithm`, `grid` and
    `dist_a/b/c` in its `tc.plan` attribute.
    Fields already present are kept and restrict the search. Inputs produced by a
    `tc.redistribute` and a result consumed by one give the constrained layouts
    whose redistribution the plan pays for (stage 1 and 3 of Overhead(PA)).
    In a statement function (`tc.statement`), an operand an earlier statement
    kept in memory (`tc.in_memory`) is held in that statement's in-core
    layout of its result: the cheapest plan counts what the runtime's
    hand-over into its layouts moves, without planning a stage-1 move
    (docs/Derivations.md D45; `hand_over_bytes` in the plan report).
    Later sweeps plan each such statement again with the layouts its readers'
    plans load its result in, priced as their hand-overs
    (`hand_off_bytes`), until no plan changes (D59).

    Rotation needs a square process count; on any other P it is skipped with a
    remark. A contraction no plan fits gets an error giving the memory it needs.
  }];
  let options = PlanSweepsOption;
}

def PlaceIO : Pass<"tc-place-io", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect"];
  let summary = "Choose the order of the disk reads (where each read and write sits)";
  let description = [{
    For every planned `tc.contract` without an `order`, chooses the read order of
    the cheapest plan that keeps the decisions already in its `tc.plan` ([G]
    section 3). The order fixes the loop groups D1..D4 and where A, B and C are read
    and C is written (see `#tc.plan`). In-core plans read once, outside all loops.
  }];
}

def SolveTiles : Pass<"tc-solve-tiles", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect"];
  let summary = "Choose the tile count of every index and predict the volumes";
  let description = [{
    For every planned `tc.contract` without `loops`, sets the optimal tile counts
    of the method, algorithm and order in its `tc.plan` (Gao et al. sections 4-5,
    closed forms of docs/Derivations.md D6-D8), split across the labels of each macro-index,
    preferring divisors of the extents, with every tile re-checked against the
    budget (1/3 of memory). Hand-written `loops` are kept and only evaluated.
    Records `disk_bytes`, `comm_bytes` and `seconds`, per process, and
    `i_contiguous = true` when I is at least 64 times J and K, so that A and C
    are stored with I contiguous for the local dgemm (a hand-written
    `i_contiguous` is kept).
  }];
}

def FuseDistribute : Pass<"tc-fuse-distribute", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::tc::TCDialect"];
  let summary = "Choose grid, distributions and loop fusions of operator trees under a memory limit";
  let description = [{
    For every function whose `tc.contract`/`tc.sum` ops form an operator tree of
    two or more formulas (Cociorva et al. section 2), runs the memory-constrained
    communication minimization of Cociorva et al. section 3.3: for every logical
    grid (each factorization of P into 1..`max-grid-dims` factors), a bottom-up
    dynamic program over the tree chooses each input's initial distribution, each
    formula's distribution, the loops fused between each array and its consumer
    (with virtual partitioning by lcm(p_u, p_v) when the two distribute a fused
    loop differently) and, for a summation over a distributed index, whether the
    partial sums go to one process or to all; solutions inferior in cost and
    memory, or over the machine's `mem`, are pruned. The cheapest plan that fits
    is recorded as `tc.fusion` on every formula and input and `tc.fusion_plan` on
    the function; `tc-plan-report` prints it like the paper's Tables 1-2. A
    function that already has a `tc.fusion_plan` (written by hand, or by an
    earlier run) keeps it: `tc-lower-fused` checks it and lowers it as it is.

    Costs: DistSize, MsgFactor, MoveCost and CalcCost as the paper defines them
    (docs/Derivations.md D13-D16); Mcost is the measured table of `machine-file` (written by
    `tc-calibrate`, key `mcost`) where it has the pair, else messages x latency +
    bytes / net_bw. Beyond the paper, which keeps inputs in memory at no cost,
    reading an input slice or writing a result slice costs `io-latency` plus its
    bytes at the machine's disk_bw, and every local contraction call in a fused
    loop `call-overhead` (set both to 0 to plan exactly as the paper). Memory
    counts the larger block of a redistributed array, or both with
    `#tc.machine<..., volumes = runtime>` (what tc's runtime holds). When no
    plan fits, the error gives the smallest memory per process any plan needs.
  }];
  let options = !listconcat(MachineFileOption, LatencyOption, FusionOptions);
}

def PlanReport : Pass<"tc-plan-report", "::mlir::ModuleOp"> {
  let summary = "Write every contraction's candidate plans as JSON and/or a table";
  let description = [{
    For every planned `tc.contract`, lists all candidates the planner considered
    (method x algorithm x order, each at its best tiles) and which one the plan
    chose. The JSON file (`report`) has the form

    ```
    {"machine": {"procs": 4, "mem": 67108864, "net_bw": 2e8, "disk_bw": 8e6,
                 "elem_bytes": 8, "bcast_factor": 1, "reduce_factor": 1},
     "contractions": [{"op": "file.mlir:12:8", "procs": 4, "candidates": [
        {"method": "outside", "algorithm": "rotation", "in_core": false,
         "order": "CAB", "tiles": {"i": 4, "j": 4, "k": 8},
         "disk_bytes": 5.1e8, "comm_bytes": 3.2e7, "seconds": 64.2}, ...],
       "chosen": 3, "i_contiguous": false} ]}
    ```

    `procs` is the process count of the contraction's machine (its
    function's, after `tc-specialize-procs`, else the module's); `tiles` gives
    each label's total tile count; `i_contiguous` the plan's
    storage order (see `#tc.plan`). `method`, `order` and `memory` appear for
    Gao et al.'s out-of-core tilings only; COSMA's rounds count in its
    `tiles` (out of core, D56, the table's method column says `on-disk`).
    The table lists the same candidates like Gao et al.'s Table 9, the
    chosen one marked `*`.

    Functions planned by `tc-fuse-distribute` appear under `"operator_trees"`
    (function, grid, memory, limit, comm and calc seconds, and per array: full
    and reduced array, initial and final distribution, fused loops, memory and
    communication seconds) and in the table like Cociorva et al.'s Tables 1-2.
    Block-sparse contractions planned by `tc-plan-block-sparse` appear under
    `"block_sparse"` (schedule, tasks, bricks, stages, each task's process,
    stage and step, disk and received bytes, and per process the disk,
    received and sent bytes) and in the table with a line per process.
    Every block-sparse tensor of the program (inputs, outputs,
    intermediates, by name) appears under `"tensors"` (its stored blocks and
    bytes, against every block and the dense bytes of the same tensor
    without its symmetries) and in the table with a line each.
  }];
  let options = ReportOptions;
}

def PlanPipeline : Pass<"tc-plan", "::mlir::ModuleOp"> {
  let summary = "Plan every contraction and operator tree: machine, fusion, algorithm, read order, tiles, report";
  let description = [{
    Runs the planning passes in the order their decisions depend on each other:
    `tc-set-machine`, `tc-outline-loops` (a program's loops into parts the
    entry repeats), `tc-specialize-procs` (when `specialize-procs` lists
    process counts), `tc-check-rewrites` (when asked), `tc-minimize-operations`
    (products of several tensors into trees of binary contractions),
    `tc-share-products`, `tc-share-permuted-products` (an antisymmetrizer's
    copies of a product computed once), `tc-split-program` (a program into
    statements), `tc-plan-block-sparse` (contractions
    over block-sparse tensors), `tc-fuse-distribute`
    (Cociorva et al.'s fusion and
    distribution of operator trees), `tc-select-algorithm`, `tc-place-io` and
    `tc-solve-tiles` (Gao et al.'s plan of every other contraction), then
    `tc-plan-report`. Its options are the options of `tc-set-machine`,
    `tc-specialize-procs`, `tc-minimize-operations`, `tc-plan-block-sparse`,
    `tc-fuse-distribute` and `tc-plan-report` (the same declarations), each
    forwarded to its pass, e.g.
    `--tc-plan="procs=4 mem=64MB net-bw=200MB/s disk-bw=8MB/s report=plan.json"`.

    Gao et al.'s search runs once per contraction: the later passes and the
    report take the plan it chose (`--mlir-debug-counter=tc-planner-search-skip=0
    --mlir-print-debug-counter` counts the searches).
  }];
  let options = !listconcat(MachineFileOption, MachineOptions, LatencyOption,
                            SpecializeProcsOptions, PlanSweepsOption,
                            MinimizeOperationsOptions, SharePermutedProductsOptions,
                            CheckRewritesOption, BlockSparseOptions,
                            FusionOptions, ReportOptions);
  let dependentDialects = ["::mlir::tc::TCDialect"];
}

//===----------------------------------------------------------------------===//
// Lowering a planned program to a native MPI program.
//===----------------------------------------------------------------------===//

def LowerPlan : Pass<"tc-lower-plan", "::mlir::ModuleOp"> {
  let summary = "Lower planned contractions to tiling loops over tile-level tc ops";
  let description = [{
    Rewrites every function holding one planned `tc.contract` (of its arguments,
    returning its result) into the plan's program, Gao et al. Figures 1 and 2
    (docs/Derivations.md D3): `tc.array`s for A, B and C in the algorithm's distributions
    (Table 1; in scratch files when the plan is out of core), the tiling loops of
    groups D1..D4 as `scf.for`, a `tc.read_tile` of each array at the top of its
    group's body and a `tc.write_tile` of C at the end of the body it was read in,
    and the communication of the method:

    - rotation: outside, sqrt(P) passes of the nest, each followed by an
      out-of-core `tc.shift_array` of A and B; inside, sqrt(P) steps of
      contraction and `tc.shift_tile` of the in-memory A and B tiles;
    - replication: outside, one `tc.allgather_array` before the nest; inside, a
      `tc.broadcast_tile` after each read of the replicated operand;
    - accumulation: outside, one `tc.allreduce_array` of C after the nest; inside,
      a `tc.allreduce_tile` before each write of C (C's old value kept on rank 0).

    In-core plans run the same program with no tiling loops and arrays in memory.
    Tiles are `memref.alloc`ed at the largest tile size (edge tiles are
    zero-padded by the runtime). Array names (HDF5 datasets, `--input` keys) come
    from a `tc.name` argument attribute, else "A", "B", "C". A function
    `tc_main` calls the lowered functions in order.

    A contraction over block-sparse tensors with a `tc.block_plan` becomes its
    schedule's program instead (Krishnamoorthy et al. sections 5-6,
    docs/BlockSparse.md): a `tc.block_array` per operand with each present
    block's home process (on disk when the schedule is out of core), an
    `scf.for` over the stages running `tc.block_stage`, and `tc.block_store`
    of the result.
  }];
  let dependentDialects = [
    "::mlir::tc::TCDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def LowerFused : Pass<"tc-lower-fused", "::mlir::ModuleOp"> {
  let summary = "Lower fused operator trees to loop nests over tile-level tc ops";
  let description = [{
    Rewrites every function `tc-fuse-distribute` planned (`tc.fusion_plan`) into
    its fused loop nest, Cociorva et al. Fig. 2(c): `scf.for` loops over the
    block-local values of the fused indices; each array a `tc.array` holding its
    slice (a fused dimension keeps one index per block) in the distribution it is
    produced in and, when its consumer needs another, a second one it is
    `tc.redistribute_array`ed into inside the loops it is fused on; inputs read by
    `tc.load_slice`, accumulators cleared by `tc.zero_array`, each formula a
    `tc.tile_contract` on the current slices, partial sums of distributed summed
    indices added by `tc.combine_partial`, and the result written by
    `tc.store_slice` and completed by `tc.finish_store`. An array fused on fewer
    loops than its consumer is produced before the extra loops (hoisted).

    The predicted bytes each rank sends and receives go into
    `tc.predicted_volumes` for the run's report. Inputs are named by a `tc.name`
    argument attribute, else A, B, C, ... in argument order; the result by a
    `tc.name` result attribute, else R. A `tc.sum` formula is the contraction
    of its operand with a constant buffer of ones over the summed indices. A
    fused loop split into p_v and p_u blocks at its two ends runs over
    lcm(p_v, p_u) virtual blocks (Cociorva et al. 3.2(iii)): slices hold one
    element per virtual block, and an array the loop does not slice is read or
    written through a stepped sub-tile (every extent / lcm-th element). Arrays
    with `1` entries are held by the first slice of those grid dimensions only
    (`first_slice` of `tc.array`); a formula computed there runs there only,
    and partial sums consolidated on one slice are added up by every process
    and kept by that slice. A function
    `tc_main` (made here or by `tc-lower-plan`) calls the lowered functions.
  }];
  let dependentDialects = [
    "::mlir::tc::TCDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def ReuseKeptStorage : Pass<"tc-reuse-kept-storage", "::mlir::ModuleOp"> {
  let summary = "Let a statement's result take over the buffer of the value it adds to";
  let description = [{
    A statement that adds a term to a tensor (`W += ...`, and every term of a
    sum after the first) loads the tensor's current value into its result
    array and stores the array when done. When that value is an intermediate
    kept in memory in the same layout, copying it into a fresh buffer and
    keeping a copy of the result afterwards moves the whole tensor twice per
    term (a CCSD iteration's `Wabef`: four terms of 8 MB per rank). This pass
    allocates the storage of such a result with `tc.alloc_storage` instead of
    `memref.alloc`, so that the runtime can hand the kept value's own buffer
    over (docs/Derivations.md D47).

    A result array qualifies when it is loaded from its value (`init input`),
    lives in a buffer `memref.alloc` made in the same block, is stored
    (`tc.store`), and no other array of its function has its name: nothing
    else of the statement reads the value the result overwrites.
  }];
  let dependentDialects = ["::mlir::tc::TCDialect", "::mlir::memref::MemRefDialect"];
}

#endif // TC_TRANSFORMS_PASSES_TD
