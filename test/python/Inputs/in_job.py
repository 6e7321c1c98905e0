"""Run under mpirun by test_in_job.py: each rank passes its local rows of
every input to Executable.run_in_job and checks its rows of every output
against numpy's evaluation of the same program (scripts/tce_numpy.py).

    mpirun -np P python3 in_job.py SOURCE_DIR PROGRAM.tce MEM [bad]
"""
import os
import sys
import warnings

import numpy as np
from mpi4py import MPI

import tc

source_dir, path, mem = sys.argv[1:4]
sys.path.insert(0, os.path.join(source_dir, "scripts"))
import tce_numpy  # noqa: E402

warnings.simplefilter("ignore")
world = MPI.COMM_WORLD
rank, size = world.Get_rank(), world.Get_size()
text = open(path).read()
prog = tc.Program.from_tce(text, os.path.basename(path))
rng = np.random.default_rng(5)
whole = {t.name: rng.uniform(-1, 1, t.shape) for t in prog.inputs}
expected = tce_numpy.Program(text).evaluate(dict(whole))
exe = prog.compile(procs=[1, 2, 3, 4], mem=mem)


def local(value):
    if value.ndim == 0:
        return value
    first, last = tc.local_rows(value.shape[0])
    return value[first:last]


if len(sys.argv) > 4:  # one rank's input of the wrong shape: every rank raises
    given = {n: local(v) for n, v in whole.items()}
    if rank == size - 1:
        name = prog.inputs[0].name
        given[name] = np.zeros((1,) + given[name].shape)
    try:
        exe.run_in_job(given)
        line = f"rank {rank}: no error"
    except tc.InputError as e:
        line = f"rank {rank}: InputError: {e}"
    lines = world.gather(line)  # printed by rank 0: ranks' lines are not interleaved
    if rank == 0:
        print("\n".join(lines), flush=True)
    sys.exit(0)

for run in range(2):  # twice in one process: nothing of the first run stays
    out = exe.run_in_job({n: local(v) for n, v in whole.items()})
    for name, value in expected.items():
        np.testing.assert_allclose(out[name], local(np.asarray(value)), rtol=0,
                                   atol=1e-11 * max(1.0, np.abs(value).max()))
    assert out.report.procs == size
    assert out.report.bytes_as_predicted
disk = sum(s.measured.disk_bytes for s in out.report.statements)
lines = world.gather(f"rank {rank}: OK, disk {disk}")
if rank == 0:
    print("\n".join(lines), flush=True)
