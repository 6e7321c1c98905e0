"""Bad input raises a clear exception before anything runs, a failed run
raises RunError, and neither leaves a file behind."""
import os

import h5py
import numpy as np
import pytest

import tc


@pytest.fixture(scope="module")
def matmul():
    prog = tc.Program.einsum("ik,kj->ij", (6, 5), (5, 4))
    return prog, prog.compile(procs=[1, 2], mem="1GB")


GOOD = {"A": np.ones((6, 5)), "B": np.ones((5, 4))}


@pytest.mark.parametrize("inputs, kwargs, message", [
    ({"A": np.ones((5, 6)), "B": GOOD["B"]}, {}, r"input 'A' has shape \[5, 6\]; the program "
                                                 r"declares \[6, 5\]"),
    ({"A": np.ones((6, 5), np.float32), "B": GOOD["B"]}, {}, "input 'A' has dtype float32"),
    ({"A": GOOD["A"]}, {}, "no value for input 'B'"),
    (dict(GOOD, X=np.ones(3)), {}, "the program has no input 'X' \\(its inputs: A, B\\)"),
    (GOOD, {"np": 3}, r"compiled for \[1, 2\] processes, not 3"),
    (dict(GOOD, A="/no/such/file.h5"), {}, "input 'A': no file /no/such/file.h5"),
    (GOOD, {"restart": "/no/such/checkpoint.h5"}, "cannot read the restart file"),
    (GOOD, {"blocks": "list"}, "blocks='list': 'dense' or 'dict'"),
])
def test_bad_inputs(matmul, clean_tmp, inputs, kwargs, message):
    exe = matmul[1]
    with pytest.raises(tc.InputError, match=message):
        exe.run(inputs=inputs, **kwargs)
    assert list(clean_tmp.iterdir()) == []


def test_bad_files(matmul, clean_tmp, tmp_path):
    exe = matmul[1]
    path = tmp_path / "in.h5"
    with h5py.File(path, "w") as f:
        f["A"] = np.ones((6, 6))
        f["Z"] = np.ones((6, 5))
    with pytest.raises(tc.InputError, match=r"'A' in .*in.h5 has shape \[6, 6\]"):
        exe.run(inputs=dict(GOOD, A=str(path)))
    with pytest.raises(tc.InputError, match="has no dataset 'Q'"):
        exe.run(inputs=dict(GOOD, A=(str(path), "Q")))
    text = tmp_path / "not.h5"
    text.write_text("not HDF5")
    with pytest.raises(tc.InputError, match="cannot read .*not.h5 as HDF5"):
        exe.run(inputs=dict(GOOD, A=str(text)))
    assert list(clean_tmp.iterdir()) == []


def test_a_failed_run_leaves_nothing(clean_tmp, tmp_path):
    prog = tc.Program.einsum("ik,kj->ij", (60, 50), (50, 40))
    exe = prog.compile(procs=2, mem="8KB")  # out of core: scratch files
    blocked = tmp_path / "file"
    blocked.write_text("")  # a file where the scratch directory should be
    before = set(os.listdir("."))
    with pytest.raises(tc.RunError) as e:
        exe.run(np=2, random_inputs=1, scratch=str(blocked / "scratch"))
    assert e.value.returncode not in (0, None)
    assert "scratch" in str(e.value)
    assert list(clean_tmp.iterdir()) == []
    assert set(os.listdir(".")) == before


def test_no_mpirun(matmul, clean_tmp):
    with pytest.raises(tc.RunError, match="cannot start no-such-mpirun"):
        matmul[1].run(inputs=GOOD, mpirun="no-such-mpirun")
    assert list(clean_tmp.iterdir()) == []
