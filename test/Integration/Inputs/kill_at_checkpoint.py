#!/usr/bin/python3
"""kill_at_checkpoint.py CHECKPOINT ITERATION EXE -- CMD...: runs CMD (mpirun
... EXE ... --checkpoint CHECKPOINT), waits until CHECKPOINT holds an
iteration of at least ITERATION, kills one rank of EXE with SIGKILL, and
prints how mpirun ended and the checkpoint's iteration."""
import os, subprocess, sys, time

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpi_ranks import MPIRUN_ENV, kill_one_rank  # noqa: E402

path, least, exe = sys.argv[1], int(sys.argv[2]), os.path.realpath(sys.argv[3])
cmd = sys.argv[sys.argv.index("--") + 1:]


def iteration():
    try:
        with h5py.File(path, "r") as f:
            return int(f.attrs["iteration"])
    except (OSError, KeyError):
        return -1


p = subprocess.Popen(cmd, env=MPIRUN_ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
deadline = time.time() + 120
while iteration() < least and time.time() < deadline and p.poll() is None:
    time.sleep(0.002)
if iteration() < least:
    sys.exit(f"FAIL: the program ended without a checkpoint of iteration {least}")
kill_one_rank(p, exe)
print(f"mpirun exit status {p.returncode}")
print(f"killed at a checkpoint of iteration >= {least}: it holds iteration {iteration()}")
