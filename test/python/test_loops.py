"""Iterative programs from Python: per-iteration callbacks and records,
checkpoints and a restart on another process count, a real molecule."""
import os

import h5py
import numpy as np
import pytest

import tc
import tce_numpy
from conftest import read


@pytest.fixture(scope="module")
def iterate(source_dir):
    text = read(source_dir, "test", "Integration", "Inputs", "iterate.tce")
    prog = tc.Program.from_tce(text, "iterate.tce")
    rng = np.random.default_rng(2)
    inputs = {t.name: rng.uniform(-1, 1, t.shape) for t in prog.inputs}
    return prog, inputs, tce_numpy.Program(text)


def test_callbacks_and_records(iterate):
    prog, inputs, reference = iterate
    expected = reference.evaluate(dict(inputs))
    seen = []
    out = prog.compile(procs=[1, 2], mem="1GB").run(np=2, inputs=inputs, on_iteration=seen.append)
    for name, value in expected.items():
        np.testing.assert_allclose(out[name], value, atol=1e-11 * max(1, np.abs(value).max()))
    converging = [r for r in seen if r.loop == seen[0].loop]
    assert [r.iteration for r in converging] == list(range(1, reference.iterations[0] + 1))
    assert converging[-1].name == "E" and converging[-1].value == pytest.approx(float(out["E"]))
    assert abs(converging[-1].change) < 1e-9
    records = out.iterations
    assert len(records) == len(seen) == reference.iterations[0] + 3
    assert all(r.seconds > 0 for r in records)
    assert out.converged


def test_stopped_run_restarts_on_another_process_count(iterate, tmp_path, clean_tmp):
    """A callback's exception stops the run (its files removed); the last
    checkpoint continues on another process count to the uninterrupted run's
    values and iteration count. 400 fixed iterations take long enough for
    the stop to come in the first loop."""
    prog, inputs, _ = iterate
    long = tc.Program.from_tce(prog.source.replace(
        "iterate max 60 until E converges to 1e-9", "iterate 400"), "long.tce")
    exe = long.compile(procs=[1, 2, 3], mem="1GB")
    whole = exe.run(np=2, inputs=inputs)
    checkpoint = str(tmp_path / "state.h5")

    class Stop(Exception):
        pass

    def stop_at_five(record):
        if record.iteration == 5:
            raise Stop()

    with pytest.raises(Stop):
        exe.run(np=3, inputs=inputs, checkpoint=checkpoint, on_iteration=stop_at_five)
    assert [p.name for p in clean_tmp.iterdir()] == []
    # mpirun forwards rank 0's lines with some delay: the run may be past
    # iteration 5, or in the second loop, when it stops.
    with h5py.File(checkpoint, "r") as f:
        loop, done = int(f.attrs["loop_index"]), int(f.attrs["iteration"])
    assert done >= 5 or loop == 1
    out = exe.run(np=1, inputs=inputs, restart=checkpoint)
    # Reported from the checkpoint's iteration on; loops before it run whole
    # again (docs/Derivations.md D42).
    assert len(out.iterations) + done == len(whole.iterations) == 403
    for name in whole:
        np.testing.assert_allclose(out[name], whole[name], rtol=0,
                                   atol=1e-12 * max(1, np.abs(whole[name]).max()))


def test_water_ccsd_energy(source_dir):
    """examples/ccsd.tce on the stored STO-3G integrals: psi4's energy."""
    ints = os.path.join(source_dir, "test", "Integration", "Inputs", "water-sto3g.h5")
    prog = tc.Program.from_file(os.path.join(source_dir, "examples", "ccsd.tce"))
    out = prog.compile(procs=2, mem="1GB").run(np=2, inputs={t.name: ints for t in prog.inputs})
    with h5py.File(ints, "r") as f:
        psi4 = float(f.attrs["ccsd_correlation_energy"])
    assert abs(float(out["E"]) - psi4) < 1e-8
    assert 10 <= len(out.iterations) <= 20  # DIIS: about 14
    assert out.report.bytes_as_predicted


def test_a_loop_that_does_not_converge(source_dir):
    """Exit status 3: outputs and report complete, `converged` False."""
    prog = tc.Program.from_file(os.path.join(source_dir, "test", "Integration", "Inputs",
                                             "iterate-unconverged.tce"))
    out = prog.compile(procs=1, mem="1GB").run(random_inputs=3)
    assert not out.converged
    assert len(out.iterations) == out.report.loops[0].max_iterations
    assert all(t.name in out for t in prog.outputs)
