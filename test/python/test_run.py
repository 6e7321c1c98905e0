"""Compiling and running programs from numpy: values against numpy's
evaluation of the same program (scripts/tce_numpy.py), bytes against the
plan, in memory and out of core, on 1-4 processes."""
import os

import h5py
import numpy as np
import pytest

import tc
import tce_numpy
from conftest import read


def random_inputs(prog, seed):
    rng = np.random.default_rng(seed)
    return {t.name: rng.uniform(-1, 1, t.shape) for t in prog.inputs}


@pytest.fixture(scope="module")
def ccd(source_dir):
    text = read(source_dir, "examples", "ccd.tce")
    prog = tc.Program.from_tce(text, "ccd.tce")
    inputs = random_inputs(prog, 7)
    return prog, inputs, tce_numpy.Program(text).evaluate(dict(inputs))


@pytest.mark.parametrize("mem", ["1GB", "16KB"])
def test_ccd_against_numpy_on_1_to_4_processes(ccd, mem):
    prog, inputs, expected = ccd
    exe = prog.compile(procs=[1, 2, 3, 4], mem=mem)
    for np_ in (1, 2, 3, 4):
        out = exe.run(np=np_, inputs=inputs)
        assert set(out) == {"R", "E"}
        for name, value in expected.items():
            np.testing.assert_allclose(out[name], value, rtol=0, atol=1e-11 * np.abs(value).max())
        assert out.report.procs == np_
        assert out.report.bytes_as_predicted
        # Out of core, scratch traffic in the compute phases (at 4 x 16 KB
        # every statement fits).
        disk = sum(s.measured.disk_bytes for s in out.report.statements)
        assert (disk > 0) == (mem == "16KB" and np_ < 4)
        for s in out.report.statements:
            assert s.measured.as_predicted


def test_the_issue_example(ccd, tmp_path):
    """A file input, a numpy input, statements' measured and predicted bytes."""
    prog, inputs, expected = ccd
    path = tmp_path / "ints.h5"
    with h5py.File(path, "w") as f:
        for name, value in inputs.items():
            if name != "T":
                f[name] = value
    others = {n: str(path) for n in inputs if n != "T"}
    out = prog.compile(procs=2, mem="16KB").run(np=2, inputs={"T": inputs["T"], **others},
                                                scratch=str(tmp_path / "scratch"))
    np.testing.assert_allclose(out["E"], expected["E"], rtol=1e-12)
    s = out.report.statements[0]
    assert s.measured.disk_bytes == s.predicted.disk_bytes
    assert s.measured.bytes_sent == s.predicted.comm_bytes
    assert os.listdir(tmp_path / "scratch") == []  # scratch files have no name


def test_dataset_of_another_name(ccd, tmp_path):
    prog, inputs, expected = ccd
    path = tmp_path / "other.h5"
    with h5py.File(path, "w") as f:
        f["amplitudes"] = inputs["T"]
    given = dict(inputs, T=(str(path), "amplitudes"))
    out = prog.compile(procs=1, mem="1GB").run(inputs=given)
    np.testing.assert_allclose(out["R"], expected["R"], atol=1e-11 * np.abs(expected["R"]).max())


def test_einsum_matches_numpy():
    rng = np.random.default_rng(3)
    t, v = rng.standard_normal((6, 5, 3, 4)), rng.standard_normal((7, 2, 6, 5))
    prog = tc.Program.einsum("abij,cdab->cdij", t, v, names=["T", "V"], output="R")
    out = prog.compile(procs=[1, 2], mem="1GB").run(np=2, inputs={"T": t, "V": v})
    np.testing.assert_allclose(out["R"], np.einsum("abij,cdab->cdij", t, v), atol=1e-12)


def test_mlir_program_with_accumulation(source_dir):
    text = read(source_dir, "examples", "matmul.mlir").replace("4000", "48")
    prog = tc.Program.from_mlir(text, "matmul.mlir")
    rng = np.random.default_rng(5)
    a, b, c = (rng.standard_normal((48, 48)) for _ in range(3))
    out = prog.compile(procs=[2, 4], mem="1GB").run(np=4, inputs={"A": a, "B": b, "C": c})
    np.testing.assert_allclose(out["C"], c + a @ b.T, atol=1e-12)


def test_compiles_are_cached(ccd, cache):
    prog = ccd[0]
    first = prog.compile(procs=3, mem="1GB")
    stamp = os.stat(first.path).st_mtime_ns
    again = tc.Program.from_tce(prog.source, prog.name).compile(procs=3, mem="1GB")
    assert again.path == first.path and os.stat(again.path).st_mtime_ns == stamp
    assert os.path.dirname(first.path) == str(cache)
    other = prog.compile(procs=3, mem="2GB")
    assert other.path != first.path


def test_uncached_compile_is_removed_with_the_executable():
    exe = tc.Program.einsum("ik,kj->ij", (4, 3), (3, 2)).compile(procs=1, mem="1GB", cache=False)
    directory = os.path.dirname(exe.path)
    assert os.path.exists(exe.path)
    out = exe.run(random_inputs=1)
    assert out["C"].shape == (4, 2)
    del exe, out
    assert not os.path.exists(directory)
