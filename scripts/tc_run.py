"""What the run-*.py scripts share: a working directory removed however the
run ends, and mpirun's environment on these machines (root, oversubscribed
cores, no single-copy mechanism in containers)."""
import os
import shutil
import tempfile


def in_work_dir(prefix, fn, *args):
    """Calls fn(*args, work) in a fresh temporary directory, then removes it."""
    work = tempfile.mkdtemp(prefix=prefix)
    try:
        return fn(*args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def mpirun_env():
    return dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                OMPI_MCA_rmaps_base_oversubscribe="1",
                OMPI_MCA_btl_vader_single_copy_mechanism="none")
