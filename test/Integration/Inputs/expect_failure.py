#!/usr/bin/python3
"""expect_failure.py CMD...: runs CMD (under mpirun, as root) with a 120 s limit.
Succeeds, printing CMD's output, only if CMD exits non-zero without hanging."""
import os, subprocess, sys

env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")
try:
    r = subprocess.run(sys.argv[1:], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120)
except subprocess.TimeoutExpired:
    sys.exit("FAIL: the command hung (killed after 120 s)")
sys.stdout.write(r.stdout.decode(errors="replace"))
if r.returncode == 0:
    sys.exit("FAIL: the command succeeded")
print(f"exit status {r.returncode}")
