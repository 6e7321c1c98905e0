"""mpirun's command and environment for tc's programs."""
import os


def mpirun_env(base=None):
    """`base` (default: this process's environment) with what mpirun needs on
    these machines: running as root allowed, more ranks than cores allowed,
    and no single-copy mechanism (unavailable in containers). Values the
    caller set win."""
    env = dict(os.environ if base is None else base)
    extra = {"OMPI_MCA_rmaps_base_oversubscribe": "1",
             "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}
    if os.geteuid() == 0:
        extra.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for key, value in extra.items():
        env.setdefault(key, value)
    return env
