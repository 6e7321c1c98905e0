#!/usr/bin/python3
"""kill_at_checkpoint.py CHECKPOINT ITERATION EXE -- CMD...: runs CMD (mpirun
... EXE ... --checkpoint CHECKPOINT), waits until CHECKPOINT holds an
iteration of at least ITERATION, kills one rank of EXE with SIGKILL, and
prints how mpirun ended and the checkpoint's iteration."""
import os, signal, subprocess, sys, time

import h5py

path, least, exe = sys.argv[1], int(sys.argv[2]), os.path.realpath(sys.argv[3])
cmd = sys.argv[sys.argv.index("--") + 1:]
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")


def ranks():
    out = []
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and os.path.realpath(f"/proc/{pid}/exe") == exe:
                out.append(int(pid))
        except OSError:
            pass
    return out


def iteration():
    try:
        with h5py.File(path, "r") as f:
            return int(f.attrs["iteration"])
    except (OSError, KeyError):
        return -1


p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
deadline = time.time() + 120
while iteration() < least and time.time() < deadline and p.poll() is None:
    time.sleep(0.002)
victims = ranks()
if not victims or p.poll() is not None:
    sys.exit("FAIL: the program was not running to be killed (it ended, or wrote no "
             f"checkpoint of iteration {least})")
os.kill(victims[-1], signal.SIGKILL)
try:
    p.wait(timeout=120)
except subprocess.TimeoutExpired:
    p.kill()
    sys.exit("FAIL: the job hung after a rank was killed")
print(f"mpirun exit status {p.returncode}")
print(f"killed at a checkpoint of iteration >= {least}: it holds iteration {iteration()}")
