"""locked_semaphore.py CHECKPOINT -- COMMAND...: runs COMMAND while OpenMPI's
shared-file-pointer semaphore for CHECKPOINT's temporary file (what a rank
killed inside MPI_File_open leaves in /dev/shm) exists and is locked; prints
COMMAND's exit status, or that it hung (killed after 120 s). Removes the
semaphore afterwards."""
import ctypes, os, subprocess, sys

sep = sys.argv.index("--")
checkpoint, command = sys.argv[1], sys.argv[sep + 1:]
# OMPIO's sharedfp/sm names it after the file's base name; tc writes
# checkpoints to NAME.tmp and renames (docs/Derivations.md D42).
name = ("/OMPIO_" + os.path.basename(checkpoint) + ".tmp").encode()
libc = ctypes.CDLL("libc.so.6", use_errno=True)
libc.sem_open.restype = ctypes.c_void_p
libc.sem_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint]
O_CREAT, O_EXCL = os.O_CREAT, os.O_EXCL
libc.sem_unlink(name)  # one an interrupted run of this test left
sem = libc.sem_open(name, O_CREAT | O_EXCL, 0o644, 0)  # value 0: locked
if sem is None or sem == ctypes.c_void_p(-1).value:
    sys.exit(f"cannot create semaphore {name.decode()}: {os.strerror(ctypes.get_errno())}")
try:
    try:
        status = subprocess.run(command, timeout=120).returncode
        print(f"exit status {status}")
    except subprocess.TimeoutExpired:
        print("hung: killed after 120 s")
finally:
    libc.sem_unlink(name)
