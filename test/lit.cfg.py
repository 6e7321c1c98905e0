# lit configuration for tc's FileCheck suites.
import os
import lit.formats

config.name = "tc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test", ".tce"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tc_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs", "consumer"]

# "mpirun" in a test is scripts/mpirun-isolated: each launch gets an OpenMPI
# session directory of its own, since lit runs tests in parallel and two
# mpiruns sharing one can fail to start ("session_dir.c ... File exists").
import shutil
_mpirun_dir = os.path.join(config.tc_obj_root, "test", "mpirun-isolated")
os.makedirs(_mpirun_dir, exist_ok=True)
_mpirun_link = os.path.join(_mpirun_dir, "mpirun")
_mpirun_script = os.path.join(config.tc_src_root, "scripts", "mpirun-isolated")
if os.path.islink(_mpirun_link) and os.readlink(_mpirun_link) != _mpirun_script:
    os.remove(_mpirun_link)  # a build tree configured for another source tree
if not os.path.islink(_mpirun_link):
    os.symlink(_mpirun_script, _mpirun_link)
_real_mpirun = shutil.which("mpirun", path=config.environment.get("PATH", os.environ.get("PATH")))
if _real_mpirun:
    config.environment["TC_REAL_MPIRUN"] = _real_mpirun

# tc's tools first, then LLVM 22's (FileCheck, not, count, mlir-opt).
config.environment["PATH"] = os.pathsep.join(
    [_mpirun_dir, config.tc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])

# Plans must not depend on a machine file tc-calibrate wrote for this user:
# tcc reads $TC_MACHINE_FILE, else $XDG_CONFIG_HOME/tc/machine.json.
config.environment.pop("TC_MACHINE_FILE", None)
config.environment["XDG_CONFIG_HOME"] = os.path.join(config.tc_obj_root, "test", "no-config")

config.substitutions.append(("%tc_src", config.tc_src_root))
config.substitutions.append(("%tc_obj", config.tc_obj_root))
config.substitutions.append(("%tc_plugin", os.path.join(config.tc_lib_dir, "libTCPlugin" + config.shlibext)))
config.substitutions.append(("%mlir_opt", config.mlir_opt))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%mlir_lib_dir", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))
config.substitutions.append(("%shlibext", config.shlibext))
config.substitutions.append(("%python", "/usr/bin/python3"))

# The runtime ABI version, read from its one definition, for programs that call
# tc_rt_check_abi by hand (test/Integration/abi-check.mlir).
import re
with open(os.path.join(config.tc_src_root, "include", "TC", "Runtime", "Descriptors.h")) as f:
    config.substitutions.append(
        ("%tc_rt_api_version",
         re.search(r"#define TC_RT_API_VERSION (\d+)", f.read()).group(1)))

# Feature "netns": this machine can create network namespaces (root with
# CAP_SYS_ADMIN and CAP_NET_ADMIN), which test/Integration/multi-host.test turns
# into hosts; elsewhere lit reports that test UNSUPPORTED, naming the feature.
import subprocess
def _can_create_netns():
    probe = "tc-lit-probe-%d" % os.getpid()
    try:
        if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode:
            return False
        subprocess.run(["ip", "netns", "del", probe], capture_output=True)
        return True
    except OSError:
        return False
if _can_create_netns():
    config.available_features.add("netns")

# Feature "mountns": this machine can make a mount namespace and mount a tmpfs
# in it (root), which test/Integration/scratch-full-disk.mlir uses as a small
# disk to fill.
def _can_mount_tmpfs():
    try:
        return subprocess.run(["unshare", "--mount", "sh", "-c",
                               "mount -t tmpfs -o size=64k tmpfs /mnt"],
                              capture_output=True).returncode == 0
    except OSError:
        return False
if _can_mount_tmpfs():
    config.available_features.add("mountns")
