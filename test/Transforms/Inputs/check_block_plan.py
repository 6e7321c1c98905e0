#!/usr/bin/python3
"""check_block_plan.py PROCS < tc-opt output: the #tc.block_plan's figures
agree with each other: the per-rank disk bytes sum to at least io_bytes (C
bricks of several stages are read back), what all
processes receive equals what they send, comm_bytes is the largest received,
and every task and brick is on a process in [0, PROCS). Prints "consistent"."""
import re, sys

procs = int(sys.argv[1])
text = sys.stdin.read()
plan = re.search(r"#tc\.block_plan<(.*?)>\}", text, re.S).group(1)


def numbers(key):
    m = re.search(key + r" = \[([^\]]*)\]", plan)
    return [float(x) for x in m.group(1).split(",")] if m and m.group(1).strip() else []


def scalar(key):
    return float(re.search(key + r" = ([0-9.e+-]+)", plan).group(1))


io, received, sent = numbers("io_per_rank"), numbers("received_per_rank"), numbers("sent_per_rank")
checks = [
    (len(io) == len(received) == len(sent) == procs, "one entry per process"),
    (sum(io) >= scalar("io_bytes") * (1 - 1e-9), "io_per_rank sums to at least io_bytes"),
    (abs(sum(received) - sum(sent)) < 1e-6 * max(1, sum(sent)), "received equals sent"),
    (max(received) == scalar("comm_bytes"), "comm_bytes is the busiest received"),
    (all(0 <= r < procs for r in numbers("task_rank") + numbers("brick_owner")),
     "processes in range"),
]
for ok, what in checks:
    if not ok:
        sys.exit("FAIL: " + what)
print("consistent")
