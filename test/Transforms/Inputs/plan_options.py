"""Every option of tc-set-machine, tc-specialize-procs, tc-minimize-operations,
tc-share-permuted-products, tc-plan-block-sparse, tc-fuse-distribute,
tc-select-algorithm and tc-plan-report reaches
its pass through tc-plan, the tc-compile pipeline and tcc.

Option lists come from `tc-opt --help`, so an option added to a pass is checked
without editing this file, except for its test value below (the check fails
until it has one):

  passes: each of those options is a tc-plan option and nothing else is; for each,
          tc-plan with it set gives the output (IR, report files) of the passes run
          one by one with it set, and that output differs from the default one (so
          the option has an effect the comparison sees). tc-compile's options
          are tc-plan's and those of its lowering (COMPILE_ONLY).
  tcc:    each tc-plan option given to tcc reaches tc-compile (tcc --dry-run),
          and tcc --help names it.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

SUBPASSES = ["tc-set-machine", "tc-specialize-procs", "tc-minimize-operations",
             "tc-share-permuted-products", "tc-plan-block-sparse", "tc-fuse-distribute",
             "tc-select-algorithm", "tc-plan-report"]
CHAIN = ["tc-set-machine", "tc-specialize-procs", "tc-minimize-operations", "tc-share-products",
         "tc-share-permuted-products", "tc-split-program",
         "tc-plan-block-sparse",
         "tc-fuse-distribute", "tc-select-algorithm", "tc-place-io", "tc-solve-tiles",
         "tc-plan-report"]

# tc-plan options that add a pass rather than set one (a debug mode): their
# effect is that the pass runs (--mlir-timing names it by its class), before
# the pass of CHAIN given.
SWITCHES = {"check-rewrites": ("tc-check-rewrites", "tc-minimize-operations", "CheckRewrites")}

# tc-compile's options that are not tc-plan's: those of the lowering.
COMPILE_ONLY = {"tile-contraction", "lower-to-llvm"}

# A value differing from the default, with an effect on plan-options.mlir. "{out}"
# is a file the run writes, compared too.
VALUES = {
    "machine-file": "{inputs}/plan-options-machine.json",
    "procs": "16",
    "specialize-procs": "1,2",
    "default-machine-file": "{inputs}/plan-options-default-machine.json",
    "mem": "40MB",
    "net-bw": "100MB/s",
    "disk-bw": "20MB/s",
    "elem-bytes": "4",
    "bcast-factor": "2",
    "reduce-factor": "2",
    "volumes": "runtime",
    "max-grid-dims": "1",
    "latency": "0.001",
    "flop-rate": "1e8",
    "virtual-partitioning": "false",
    "io-latency": "0.01",
    "call-overhead": "0.001",
    "fusion": "false",
    "first-slice": "false",
    "report": "{out}",
    "table": "{out}",
    "imbalance": "0.6",
    "assignment": "next-task",
    "cache-bytes": "1000000",
    "partitioner": "builtin",
    "tolerance": "0.05",
    "min-summed-volume": "2",
    "check-rewrites": "true",
    "plan-sweeps": "1",
}
# Options of block-sparse contractions are tried on one (plan-options.mlir has
# none).
INPUTS = {o: "plan-options-blocks.mlir" for o in ["imbalance", "assignment", "cache-bytes",
                                                      "partitioner"]}
INPUTS["tolerance"] = "plan-options-product.mlir"
INPUTS["min-summed-volume"] = "plan-options-permuted.mlir"
INPUTS["plan-sweeps"] = "plan-readers.mlir"
# tcc's spelling of tc-plan's report files.
TCC_NAMES = {"report": "plan-report", "table": "plan-table"}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def pass_options(tc_opt):
    """{pass: [option, ...]} of `tc-opt --help`."""
    help_text = subprocess.run([tc_opt, "--help"], check=True, capture_output=True,
                               text=True).stdout
    options, current = {}, None
    for line in help_text.splitlines():
        m = re.match(r"^      --([\w-]+)\s", line)
        if m:
            current = m.group(1)
            options[current] = []
            continue
        m = re.match(r"^        --([\w-]+)", line)
        if m and current:
            options[current].append(m.group(1))
        elif not line.startswith("        "):
            current = None
    return options


def run_tc_opt(tc_opt, input_file, passes, out, extra=()):
    """What tc-opt with `passes` [(pass, {option: value})] prints and writes (an
    error is an output too: fusion=false does not fit)."""
    args = [tc_opt, input_file, *extra]
    for name, opts in passes:
        text = " ".join(f"{k}={v.format(out=out)}" for k, v in opts.items())
        args.append(f"--{name}" + (f"={text}" if text else ""))
    if os.path.exists(out):
        os.remove(out)
    result = subprocess.run(args, capture_output=True, text=True)
    written = open(out).read() if os.path.exists(out) else None
    return result.returncode, result.stdout, result.stderr, written


def check_passes(args):
    options = pass_options(args.tc_opt)
    sub = {p: options[p] for p in SUBPASSES}
    for p in SUBPASSES + ["tc-plan"]:
        if not options.get(p):
            fail(f"tc-opt --help lists no options of {p}")
    union = sorted({o for p in SUBPASSES for o in sub[p]})
    plan = sorted(options["tc-plan"])
    for p in SUBPASSES:
        for o in sub[p]:
            if o not in plan:
                fail(f"option {o} of {p} is not an option of tc-plan")
    for o in plan:
        if o not in union and o not in SWITCHES:
            fail(f"tc-plan option {o} belongs to none of {', '.join(SUBPASSES)}")
    compile_options = set(options.get("tc-compile", []))
    if compile_options != set(plan) | COMPILE_ONLY:
        fail(f"tc-compile's options {sorted(compile_options)} are not tc-plan's and "
             f"{sorted(COMPILE_ONLY)}")
    os.makedirs(args.tmp, exist_ok=True)
    for o in plan:
        if o not in VALUES:
            fail(f"option {o} has no test value in {__file__}")
        value = VALUES[o].replace("{inputs}", args.inputs)
        input_file = os.path.join(args.inputs, INPUTS.get(o, "plan-options.mlir"))
        out = os.path.join(args.tmp, o)
        if o in SWITCHES:
            check_switch(args, o, value, input_file, out)
            continue
        whole = run_tc_opt(args.tc_opt, input_file, [("tc-plan", {o: value})], out + ".plan")
        chain = [(p, {o: value} if p in sub and o in sub[p] else {}) for p in CHAIN]
        one_by_one = run_tc_opt(args.tc_opt, input_file, chain, out + ".passes")
        default = run_tc_opt(args.tc_opt, input_file, [(p, {}) for p in CHAIN],
                             out + ".default")
        if whole != one_by_one:
            fail(f"tc-plan {o}={value} differs from the passes run with it")
        if one_by_one == default:
            fail(f"{o}={value} changes nothing on {input_file}: pick a value or input "
                 "where it has an effect")
        print(f"ok: {o}={value}")


def check_switch(args, o, value, input_file, out):
    """tc-plan with switch `o` runs its pass where the chain has it, and gives
    what the chain with that pass gives."""
    added, before, timing = SWITCHES[o]
    at = CHAIN.index(before)
    chain = [(p, {}) for p in CHAIN[:at] + [added] + CHAIN[at:]]
    whole = run_tc_opt(args.tc_opt, input_file, [("tc-plan", {o: value})], out + ".plan",
                       ["--mlir-timing"])
    if timing not in whole[2]:
        fail(f"tc-plan {o}={value} does not run {added}: {whole[2][-400:]}")
    plain = run_tc_opt(args.tc_opt, input_file, [("tc-plan", {o: value})], out + ".plan")
    one_by_one = run_tc_opt(args.tc_opt, input_file, chain, out + ".passes")
    if plain != one_by_one:
        fail(f"tc-plan {o}={value} differs from the passes run with {added}")
    print(f"ok: {o}={value}")


def check_tcc(args):
    options = pass_options(args.tc_opt)["tc-plan"]
    usage = subprocess.run([args.tcc, "--help"], check=True, capture_output=True,
                           text=True).stdout
    for o in sorted(options):
        flag = "--" + TCC_NAMES.get(o, o)
        if not re.search(re.escape(flag) + r"\b", usage):
            fail(f"tcc --help does not name {flag} (tc-plan option {o})")
        value = "v-" + o
        printed = subprocess.run([args.tcc, "prog.mlir", "--dry-run", flag, value],
                                 capture_output=True, text=True)
        if printed.returncode != 0:
            fail(f"tcc {flag} {value}: {printed.stderr}")
        words = shlex.split(printed.stdout.splitlines()[0])
        plan = [w for w in words if w.startswith("--tc-compile=")]
        if len(plan) != 1 or f"{o}={value}" not in plan[0][len("--tc-compile="):].split(" "):
            fail(f"tcc {flag} {value} does not give tc-compile {o}={value}: {printed.stdout}")
        print(f"ok: tcc {flag}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["passes", "tcc"])
    parser.add_argument("--tc-opt", default="tc-opt")
    parser.add_argument("--tcc", default="tcc")
    parser.add_argument("--inputs", default=os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--tmp", default=".")
    args = parser.parse_args()
    check_passes(args) if args.mode == "passes" else check_tcc(args)


if __name__ == "__main__":
    main()
