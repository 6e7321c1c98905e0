#!/usr/bin/python3
"""kill_rank.py SCRATCH EXE -- CMD...: runs CMD (mpirun ... EXE ...) as root, waits
until every rank of EXE runs and has been computing for a moment, kills one
rank with SIGKILL, and prints how mpirun ended and what SCRATCH holds: the
names found there during the run and after it."""
import os, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpi_ranks import MPIRUN_ENV, kill_one_rank, ranks  # noqa: E402

scratch, exe = sys.argv[1], os.path.realpath(sys.argv[2])
cmd = sys.argv[sys.argv.index("--") + 1:]
p = subprocess.Popen(cmd, env=MPIRUN_ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
deadline = time.time() + 60
while len(ranks(exe)) < 2 and time.time() < deadline and p.poll() is None:
    time.sleep(0.05)
time.sleep(1.5)  # into the compute phase, scratch files open
during = sorted(os.listdir(scratch))
kill_one_rank(p, exe)
time.sleep(0.5)
print(f"mpirun exit status {p.returncode}")
print(f"scratch during the run: {during}")
print(f"scratch after: {sorted(os.listdir(scratch))}")
