#!/usr/bin/python3
"""kill_rank.py SCRATCH EXE -- CMD...: runs CMD (mpirun ... EXE ...) as root, waits
until every rank of EXE runs and has been computing for a moment, kills one
rank with SIGKILL, and prints how mpirun ended and what SCRATCH holds: the
names found there during the run and after it."""
import os, signal, subprocess, sys, time

scratch, exe = sys.argv[1], os.path.realpath(sys.argv[2])
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


p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
deadline = time.time() + 60
while len(ranks()) < 2 and time.time() < deadline and p.poll() is None:
    time.sleep(0.05)
time.sleep(1.5)  # into the compute phase, scratch files open
during = sorted(os.listdir(scratch))
victims = ranks()
if not victims or p.poll() is not None:
    sys.exit("FAIL: the program was not running to be killed")
os.kill(victims[-1], signal.SIGKILL)
try:
    p.wait(timeout=120)
except subprocess.TimeoutExpired:
    p.kill()
    sys.exit("FAIL: the job hung after a rank was killed")
time.sleep(0.5)
print(f"mpirun exit status {p.returncode}")
print(f"scratch during the run: {during}")
print(f"scratch after: {sorted(os.listdir(scratch))}")
