"""examples/python/ccsd.py, as docs/Python.md has users run it (the stored
STO-3G integrals: no psi4), dense and block-sparse."""
import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("extra", [[], ["--blocks", "--spin", "--np", "3"]])
def test_ccsd_example(source_dir, extra):
    run = subprocess.run([sys.executable, os.path.join(source_dir, "examples", "python",
                                                       "ccsd.py"), *extra],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("CCSD correlation energy -0.0706801021 Eh, psi4 -0.0706801021")
    assert "14 iterations" in last and last.endswith("bytes as planned: True")
