"""What the kill tests share: mpirun's environment as root, the pids of the
running ranks of an executable, and killing one."""
import os
import signal
import subprocess
import sys

MPIRUN_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                  OMPI_MCA_rmaps_base_oversubscribe="1",
                  OMPI_MCA_btl_vader_single_copy_mechanism="none")


def ranks(exe):
    """The pids of the processes running `exe` (a real path)."""
    out = []
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and os.path.realpath(f"/proc/{pid}/exe") == exe:
                out.append(int(pid))
        except OSError:
            pass
    return out


def kill_one_rank(p, exe):
    """SIGKILLs one running rank of `exe` under mpirun `p` and waits for
    mpirun to end (exits with FAIL if nothing runs, or the job hangs)."""
    victims = ranks(exe)
    if not victims or p.poll() is not None:
        sys.exit("FAIL: the program was not running to be killed")
    os.kill(victims[-1], signal.SIGKILL)
    try:
        p.wait(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        sys.exit("FAIL: the job hung after a rank was killed")
