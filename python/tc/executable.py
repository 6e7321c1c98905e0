"""Running a compiled program under mpirun (docs/Python.md)."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Mapping

import h5py
import numpy as np

from . import blocks as tc_blocks
from .errors import InputError, RunError
from .launch import mpirun_env
from .records import Record
from .report import Report

# Rank 0's line per iteration of a loop (lib/Runtime/Iterations.cpp).
_ITERATION = re.compile(r": loop (?P<loop>\S+): iteration (?P<iteration>\d+) of at most "
                        r"(?P<max>\d+)(?:: (?P<name>\S+) = (?P<value>\S+?)"
                        r"(?:, change (?P<change>\S+?))?)?(?:, DIIS of (?P<diis>\d+))?"
                        r", (?P<seconds>\S+) s$")


class Result(Mapping):
    """A run's outputs {name: numpy array} (block-sparse: dense with absent
    blocks zero, or {segment ids: block} with blocks="dict"), its `report`
    (Report) and `iterations` (every loop's, as Records)."""

    def __init__(self, outputs, report, stderr, converged=True):
        self._outputs, self.report, self.stderr = outputs, report, stderr
        self.converged = converged  #: False: a loop reached its count unconverged

    def __getitem__(self, name):
        return self._outputs[name]

    def __iter__(self):
        return iter(self._outputs)

    def __len__(self):
        return len(self._outputs)

    @property
    def iterations(self):
        return self.report.iterations

    def __repr__(self):
        return f"Result({', '.join(f'{k}{list(np.shape(v))}' for k, v in self._outputs.items())})"


class Executable:
    """A compiled program: `path`, the `procs` it was planned for, run()
    under mpirun and run_in_job() inside a running MPI job."""

    def __init__(self, path, program, procs, options="", owned_dir=None, cache=True):
        self.path, self.program, self.procs = path, program, list(procs)
        self._options, self._cache = options, owned_dir or cache
        self._owned = owned_dir

    def __del__(self):
        if getattr(self, "_owned", None):
            shutil.rmtree(self._owned, ignore_errors=True)

    def run(self, np=None, inputs=None, *, random_inputs=None, scratch=None, blocks="dense",
            checkpoint=None, checkpoint_every=None, restart=None, on_iteration=None,
            blas_kernel=None, timeout=None, mpirun="mpirun", mpirun_args=(), env=None):
        """Runs on `np` processes (default: the first count compiled for).

        inputs: {name: numpy array, or an HDF5 file holding dataset (or
        block-sparse group) `name`, or (file, dataset)}; a block-sparse input
        may also be {segment ids: block}. Every input needs one unless
        `random_inputs` (a seed) fills the others (dense ones by the runtime,
        the same for any process count; block-sparse ones by numpy here).
        scratch: the directory of out-of-core arrays (default: a temporary
        one). checkpoint / restart
        (HDF5 files) and checkpoint_every: a loop's checkpoints. on_iteration:
        called with each loop iteration's Record (loop, iteration, value,
        change, diis, seconds) as rank 0 reports it. Raises InputError before
        running anything when the inputs do not fit the program, RunError when
        the program fails; neither leaves a file behind."""
        np_ = self.procs[0] if np is None else int(np)
        self._check_procs(np_)
        inputs = dict(inputs or {})
        declared, missing = self._check_names(inputs, random_inputs)
        if blocks not in ("dense", "dict"):
            raise InputError(f"blocks={blocks!r}: 'dense' or 'dict'")
        if restart is not None and not os.path.exists(restart):
            raise InputError(f"cannot read the restart file {restart}")
        prepared = {name: _prepare(declared[name], value) for name, value in inputs.items()}
        # The runtime fills dense inputs from the seed; block-sparse ones come
        # from files, so they are drawn here (numpy's generator, absent blocks
        # zero).
        for name in missing:
            t = declared[name]
            if random_inputs is not None and t.block_sparse:
                prepared[name] = ("array", _random_blocks(t, int(random_inputs)))

        work = tempfile.mkdtemp(prefix="tc-run-")
        try:
            args = []
            staged = os.path.join(work, "inputs.h5")
            for name, (kind, value) in prepared.items():
                if kind == "file":
                    args += ["--input", f"{name}={value}"]
                    continue
                _write_input(staged, declared[name], value)
                args += ["--input", f"{name}={staged}"]
            if random_inputs is not None:
                args += ["--random-inputs", str(int(random_inputs))]
            output, report = os.path.join(work, "outputs.h5"), os.path.join(work, "report.json")
            args += ["--output", output, "--report", report, "--scratch", scratch or work]
            if checkpoint:
                args += ["--checkpoint", checkpoint]
            if checkpoint_every:
                args += ["--checkpoint-every", str(int(checkpoint_every))]
            if restart:
                args += ["--restart", restart]
            if blas_kernel:
                args += ["--blas-kernel", blas_kernel]
            command = [mpirun, "-np", str(np_), *mpirun_args, self.path, *args]
            returncode, stderr = _launch(command, mpirun_env(env), on_iteration, timeout)
            # 3: every output and the report are complete, a loop did not converge.
            if returncode not in (0, 3):
                tail = "\n".join(stderr.splitlines()[-20:])
                raise RunError(f"{os.path.basename(self.path)} failed on {np_} processes "
                               f"(exit status {returncode}):\n{tail}", returncode, stderr)
            with open(report) as f:
                rep = Report(json.load(f))
            outputs = {t.name: _read_output(output, t, blocks) for t in self.program.outputs}
            return Result(outputs, rep, stderr, converged=returncode == 0)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def _check_procs(self, count):
        if count not in self.procs:
            raise InputError(f"the program was compiled for {self.procs} processes, not {count} "
                             "(compile with procs=[...] to run on several counts)")

    def _check_names(self, inputs, random_inputs):
        """({name: Tensor} of the program's inputs, the names not given);
        InputError for a name the program lacks or one missing without
        random_inputs."""
        declared = {t.name: t for t in self.program.inputs}
        unknown = sorted(set(inputs) - set(declared))
        if unknown:
            raise InputError(f"the program has no input '{unknown[0]}' (its inputs: "
                             f"{', '.join(declared) or 'none'})")
        missing = [n for n in declared if n not in inputs]
        if missing and random_inputs is None:
            raise InputError(f"no value for input '{missing[0]}' (give every input, or "
                             "random_inputs=SEED for the rest)")
        return declared, missing

    def run_in_job(self, inputs=None, *, comm=None, random_inputs=None, scratch=None,
                   checkpoint=None, checkpoint_every=None, restart=None, quiet=True):
        """Runs inside this MPI job (mpi4py), every rank of MPI_COMM_WORLD
        calling it with its local part of each input: the rows
        local_rows(n0) of the first dimension (all of a scalar). Returns its
        local part of each output, and the report on every rank; nothing is
        read or written in files for them (scratch holds out-of-core arrays,
        unnamed). Dense f64 tensors only. Bad input on any rank raises
        InputError on every rank before anything runs; an error in the run
        aborts the job, as it would end the program."""
        from mpi4py import MPI
        world = MPI.COMM_WORLD
        comm = world if comm is None else comm
        size, rank = world.Get_size(), world.Get_rank()
        inputs = dict(inputs or {})
        problem = None
        try:
            if comm.Get_size() != size:
                raise InputError("the program runs on MPI_COMM_WORLD: call run_in_job on "
                                 "every rank of it")
            self._check_procs(size)
            declared, _ = self._check_names(inputs, random_inputs)
            for t in list(self.program.inputs) + list(self.program.outputs):
                if t.block_sparse:
                    raise InputError(f"tensor '{t.name}' is block-sparse: run_in_job takes "
                                     "dense tensors (use run())")
                if t.dtype != np.float64:
                    raise InputError(f"tensor '{t.name}' is {t.dtype}: run_in_job takes f64")
            local = {}
            for name, value in inputs.items():
                shape = local_shape(declared[name].shape, size, rank)
                a = np.asarray(value)
                if a.shape != shape:
                    raise InputError(f"rank {rank}: input '{name}' has local shape "
                                     f"{list(a.shape)}; its rows here are {list(shape)}")
                if a.dtype != np.float64:
                    raise InputError(f"rank {rank}: input '{name}' has dtype {a.dtype}, "
                                     "not float64")
                local[name] = np.ascontiguousarray(a)
        except InputError as e:
            problem = str(e)
        problems = [p for p in world.allgather(problem) if p]
        if problems:
            raise InputError(problems[0])
        library = _shared_library(self, world)
        outputs = {t.name: np.zeros(local_shape(t.shape, size, rank))
                   for t in self.program.outputs}
        work = tempfile.mkdtemp(prefix="tc-job-")
        try:
            args = [os.path.basename(self.path), "--scratch", scratch or work]
            if quiet:
                args.append("--quiet")
            if random_inputs is not None:
                args += ["--random-inputs", str(int(random_inputs))]
            for flag, value in (("--checkpoint", checkpoint), ("--restart", restart),
                                ("--checkpoint-every", checkpoint_every)):
                if value is not None:
                    args += [flag, str(value)]
            status, report = _call_library(library, args, self.program, local, outputs)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        report = Report(json.loads(world.bcast(report if rank == 0 else None, root=0)))
        return Result(outputs, report, "", converged=status == 0)


def local_rows(n0, size=None, rank=None):
    """The rows [first, last) of a first dimension of extent n0 that `rank`
    of `size` holds in run_in_job (default: this process in MPI_COMM_WORLD):
    blocks of ceil(n0 / size) rows."""
    if size is None or rank is None:
        from mpi4py import MPI
        size, rank = MPI.COMM_WORLD.Get_size(), MPI.COMM_WORLD.Get_rank()
    block = -(-n0 // size)
    return min(n0, rank * block), min(n0, (rank + 1) * block)


def local_shape(shape, size, rank):
    if not shape:
        return ()
    first, last = local_rows(shape[0], size, rank)
    return (last - first,) + tuple(shape[1:])


_libraries = {}


def _shared_library(exe, world):
    """The program as a library (built by rank 0 into the cache, loaded by
    every rank once)."""
    import ctypes
    path, problem = None, None
    if world.Get_rank() == 0:
        try:
            path = exe.program._build(exe._options, True, exe._cache)
        except Exception as e:  # every rank raises it
            problem = e
    path, problem = world.bcast((path, problem), root=0)
    if problem is not None:
        raise problem
    if path not in _libraries:
        lib = ctypes.CDLL(path)
        lib.tc_rt_embedded_run.restype = ctypes.c_int
        lib.tc_rt_embedded_report.restype = ctypes.c_char_p
        _libraries[path] = lib
    return _libraries[path]


def _call_library(lib, args, program, local, outputs):
    import ctypes

    class HostTensor(ctypes.Structure):  # include/TC/Runtime/Embedding.h
        _fields_ = [("name", ctypes.c_char_p), ("output", ctypes.c_int32),
                    ("f32", ctypes.c_int32), ("rank", ctypes.c_int32),
                    ("extents", ctypes.POINTER(ctypes.c_int64)), ("local", ctypes.c_void_p)]

    keep, tensors = [], []
    for role, given in ((0, local), (1, outputs)):
        for t in (program.inputs if role == 0 else program.outputs):
            if t.name not in given:
                continue
            extents = (ctypes.c_int64 * max(1, len(t.shape)))(*t.shape)
            name = t.name.encode()
            keep += [extents, name, given[t.name]]
            tensors.append(HostTensor(name, role, 0, len(t.shape), extents,
                                      given[t.name].ctypes.data))
    argv = (ctypes.c_char_p * (len(args) + 1))(*[a.encode() for a in args], None)
    array = (HostTensor * max(1, len(tensors)))(*tensors)
    status = lib.tc_rt_embedded_run(len(args), argv, len(tensors), array)
    return status, lib.tc_rt_embedded_report().decode()


def _random_blocks(tensor, seed):
    """Values in [-1, 1) for the present blocks of `tensor`, from `seed` and
    its name (zero elsewhere)."""
    rng = np.random.default_rng([seed, *tensor.name.encode()])
    dense = rng.uniform(-1, 1, tensor.shape).astype(tensor.dtype)
    dense = tc_blocks.mask(dense, tensor.segments, [list(b) for b in tensor.blocks])
    return tc_blocks.fill(dense, tensor.segments, tensor.blocks, tensor.flip, tensor.pairs)


def _prepare(tensor, value):
    """("file", path) for a file the program reads as it is; ("array", dense
    numpy array) for anything else, checked against the tensor."""
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        _check_file(tensor, path, tensor.name)
        return "file", os.path.abspath(path)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], (str, os.PathLike)):
        path, dataset = os.fspath(value[0]), value[1]
        _check_file(tensor, path, dataset)
        with h5py.File(path, "r") as f:
            if isinstance(f[dataset], h5py.Group):
                dense, _, _ = tc_blocks.read(path, dataset)
                return "array", _checked_array(tensor, dense)
            return "array", _checked_array(tensor, f[dataset][()])
    if isinstance(value, dict):
        if not tensor.block_sparse:
            raise InputError(f"input '{tensor.name}' is dense: give an array, not blocks")
        try:
            dense = tc_blocks.from_dict(value, tensor.segments, tensor.blocks, tensor.dtype)
            dense = tc_blocks.fill(dense, tensor.segments, tensor.blocks, tensor.flip,
                                   tensor.pairs)
        except ValueError as e:
            raise InputError(f"input '{tensor.name}': {e}") from None
        return "array", dense
    return "array", _checked_array(tensor, value)


def _checked_array(tensor, value):
    a = np.asarray(value)
    if a.shape != tensor.shape:
        raise InputError(f"input '{tensor.name}' has shape {list(a.shape)}; the program "
                         f"declares {list(tensor.shape)}")
    if a.dtype != tensor.dtype:
        raise InputError(f"input '{tensor.name}' has dtype {a.dtype}; the program declares "
                         f"{tensor.dtype} (convert it with .astype)")
    if tensor.block_sparse:
        off = tc_blocks.outside(a, tensor.segments, tensor.present_blocks)
        if off != 0:
            raise InputError(f"input '{tensor.name}' is non-zero (up to {off:.3g}) outside "
                             "the program's blocks")
        # Equal to its average over the symmetries: blocks on a pair's
        # diagonal (stored whole) included.
        unequal = np.abs(a - tc_blocks.symmetrize(a, tensor.segments, tensor.flip,
                                                  tensor.pairs)).max(initial=0)
        if unequal != 0:
            what = " and ".join(w for w, on in (("spin-restricted", tensor.flip is not None),
                                                ("pair-symmetric", bool(tensor.pairs))) if on)
            raise InputError(f"input '{tensor.name}' is {what} but differs from the average of "
                             f"its flips and exchanges (by up to {unequal:.3g})")
    return a


def _check_file(tensor, path, dataset):
    if not os.path.exists(path):
        raise InputError(f"input '{tensor.name}': no file {path}")
    try:
        with h5py.File(path, "r") as f:
            if dataset not in f:
                raise InputError(f"input '{tensor.name}': {path} has no dataset '{dataset}'")
            node = f[dataset]
            if isinstance(node, h5py.Group):
                if not tensor.block_sparse:
                    raise InputError(f"input '{tensor.name}': '{dataset}' in {path} is "
                                     "block-sparse; the program declares it dense")
                return
            if tensor.block_sparse:
                raise InputError(f"input '{tensor.name}': '{dataset}' in {path} is dense; "
                                 "the program declares it block-sparse")
            if tuple(node.shape) != tensor.shape:
                raise InputError(f"input '{tensor.name}': '{dataset}' in {path} has shape "
                                 f"{list(node.shape)}; the program declares "
                                 f"{list(tensor.shape)}")
    except OSError as e:
        raise InputError(f"input '{tensor.name}': cannot read {path} as HDF5 ({e})") from None


def _write_input(path, tensor, dense):
    if tensor.block_sparse:
        tc_blocks.write(path, tensor.name, dense, tensor.segments,
                        [list(b) for b in tensor.blocks], flip=tensor.flip, pairs=tensor.pairs)
    else:
        with h5py.File(path, "a") as f:
            f[tensor.name] = dense


def _read_output(path, tensor, blocks):
    with h5py.File(path, "r") as f:
        node = f[tensor.name]
        if not isinstance(node, h5py.Group):
            return node[()]
    dense, segments, present = tc_blocks.read(path, tensor.name)
    return tc_blocks.to_dict(dense, segments, present) if blocks == "dict" else dense


def _launch(command, env, on_iteration, timeout):
    """Runs `command`; (exit status, its output), each iteration line passed
    to `on_iteration` as it comes."""
    try:
        # One stream: mpirun says some of its errors on stdout.
        process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except FileNotFoundError:
        raise RunError(f"cannot start {command[0]} (is OpenMPI installed?)") from None
    lines = []

    def read():
        for line in process.stdout:
            lines.append(line)
            match = _ITERATION.search(line.rstrip("\n"))
            if match and on_iteration is not None:
                fields = {k: v for k, v in match.groupdict().items() if v is not None}
                for key in ("iteration", "max", "diis"):
                    if key in fields:
                        fields[key] = int(fields[key])
                for key in ("value", "change", "seconds"):
                    if key in fields:
                        fields[key] = float(fields[key])
                try:
                    on_iteration(Record(fields))
                except Exception as e:  # the callback's error ends the run
                    callback_error.append(e)
                    _stop(process)

    callback_error = []
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(process)
        reader.join()
        raise RunError(f"{command[0]}: no result after {timeout} s "
                       "(killed)", None, "".join(lines)) from None
    reader.join()
    if callback_error:
        raise callback_error[0]
    return process.returncode, "".join(lines)


def _stop(process):
    """Ends a run: SIGTERM first, which mpirun passes to the ranks before it
    removes its session directory; SIGKILL if that takes more than 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
