"""Inside an existing MPI job (mpi4py): each rank passes its local rows and
gets its rows of the outputs, no files (Inputs/in_job.py, run under mpirun)."""
import os
import subprocess
import sys

import pytest

from tc.launch import mpirun_env

SCRIPT = os.path.join(os.path.dirname(__file__), "Inputs", "in_job.py")


def job(source_dir, np_, program, mem, *extra):
    run = subprocess.run(["mpirun", "-np", str(np_), sys.executable, SCRIPT, source_dir,
                          os.path.join(source_dir, *program), mem, *extra],
                         env=mpirun_env(), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    return sorted(line for line in run.stdout.splitlines() if line.startswith("rank "))


@pytest.mark.parametrize("np_, program, mem", [
    (1, ("examples", "ccd.tce"), "1GB"),
    (3, ("examples", "ccd.tce"), "1GB"),
    (2, ("examples", "ccd.tce"), "16KB"),          # out of core
    (4, ("test", "Integration", "Inputs", "iterate.tce"), "1GB"),   # loops
])
def test_outputs_equal_numpys(source_dir, clean_tmp, np_, program, mem):
    lines = job(source_dir, np_, program, mem)
    assert [line.split(":")[0] for line in lines] == [f"rank {r}" for r in range(np_)]
    assert all(": OK" in line for line in lines)
    if mem == "16KB":
        assert all(not line.endswith("disk 0") for line in lines)
    assert list(clean_tmp.iterdir()) == []  # nothing written for the tensors


def test_bad_input_on_one_rank_raises_on_every_rank(source_dir):
    lines = job(source_dir, 2, ("examples", "ccd.tce"), "1GB", "bad")
    assert len(lines) == 2
    for line in lines:
        assert "InputError: rank 1: input 'T' has local shape [1, 4, 8, 4, 4]" in line
