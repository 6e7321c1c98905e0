"""pytest suite of tc's Python package (docs/Python.md): run by ctest (the
`python` test, PYTHONPATH=build/python) and so by scripts/test.sh."""
import os
import sys

import pytest

SOURCE = os.environ.get("TC_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "scripts"))  # tce_numpy, the numpy reference


def pytest_configure(config):
    # The machine's bandwidths default as in the lit suites (no calibration
    # file); test_program checks that the warning reaches Python.
    config.addinivalue_line("filterwarnings", "ignore:.*no measured bandwidths")
    # An exception in run()'s output reader is a failure, not a warning.
    config.addinivalue_line("filterwarnings",
                            "error::pytest.PytestUnhandledThreadExceptionWarning")


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE


@pytest.fixture(scope="session", autouse=True)
def cache(tmp_path_factory):
    """Executables cached once per session, outside the user's cache."""
    path = tmp_path_factory.mktemp("cache")
    os.environ["TC_CACHE_DIR"] = str(path)
    return path


@pytest.fixture
def clean_tmp(tmp_path, monkeypatch):
    """TMPDIR of its own: a test checks that nothing is left there."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp


def read(source_dir, *path):
    with open(os.path.join(source_dir, *path)) as f:
        return f.read()
