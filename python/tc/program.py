"""Programs, their tensors and their plans (docs/Python.md)."""
import hashlib
import json
import numbers
import os
import string
import tempfile
import warnings

import numpy as np

from .errors import CompileError, InputError
from .records import Record


def _compiler():
    from . import _tc  # the extension, built with tc (build/python/tc)
    return _tc


class Tensor:
    """One input or output of a program: name, role ("input" or "output"),
    shape, dtype and, block-sparse, its segments (lengths per dimension),
    stored blocks (segment ids per dimension), spin-restricted its flip (per
    dimension, each segment's partner; a flipped block equals its stored one)
    and with pair symmetries its pairs ((dimension, dimension, antisymmetric)
    each; an exchanged block is its stored one transposed, negated per
    antisymmetric pair)."""

    def __init__(self, raw):
        self.name, self.role, self.function = raw["name"], raw["role"], raw["function"]
        self.shape = tuple(raw["shape"])
        self.dtype = np.dtype(raw["dtype"])
        self.segments = raw.get("segments")
        self.blocks = [tuple(b) for b in raw["blocks"]] if "blocks" in raw else None
        self.flip = raw.get("flip")
        self.pairs = [tuple(p) for p in raw["pairs"]] if "pairs" in raw else None

    @property
    def present_blocks(self):
        """The blocks that may be non-zero: the stored ones, their flips and
        exchanges."""
        if self.blocks is None or (self.flip is None and not self.pairs):
            return self.blocks
        from . import blocks as tc_blocks
        return sorted({tuple(ids) for b in self.blocks
                       for ids, _, _ in tc_blocks.relatives(b, self.flip, self.pairs)})

    @property
    def block_sparse(self):
        return self.segments is not None

    def __repr__(self):
        kind = f", {len(self.blocks)} blocks" if self.block_sparse else ""
        return f"Tensor({self.role} {self.name}{list(self.shape)}, {self.dtype}{kind})"


def compile_options(procs, mem, options):
    """tc-compile's option string: procs (a count or several: one plan each),
    mem, and every keyword as NAME=VALUE (underscores as dashes)."""
    counts = sorted(set([int(procs)] if isinstance(procs, numbers.Integral)
                        else [int(p) for p in procs]))
    if not counts or counts[0] < 1:
        raise InputError(f"procs {procs!r}: give a process count or a list of counts (>= 1)")
    parts = [f"procs={counts[0]}"]
    if len(counts) > 1:
        parts.append("specialize-procs=" + ",".join(map(str, counts)))
    if mem is not None:
        parts.append(f"mem={mem}")
    for key, value in options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            value = ",".join(map(str, value))
        value = str(value)
        if " " in value or not value:
            raise InputError(f"option {key}={value!r}: values cannot be empty or hold spaces")
        parts.append(f"{key.replace('_', '-')}={value}")
    return " ".join(parts), counts


def _call(fn, *args):
    """Calls the compiler; its diagnostics as CompileError."""
    try:
        return fn(*args)
    except _compiler().CompileError as e:
        raise CompileError(str(e)) from None


def _warn(found):
    """The compiler's warnings (a default bandwidth, ...) as Python warnings."""
    for w in found:
        warnings.warn(w, stacklevel=3)


class Plan:
    """What a program will do on a machine, before any compile: per
    contraction the candidates the planner weighed and the one chosen (its
    algorithm, grid, tiles and predicted disk and network bytes), the
    block-sparse schedules, operator trees and shared products (`report`,
    tc-plan's JSON report as objects), and `table()` (what tcc --plan-table
    prints)."""

    def __init__(self, report_json, table, options):
        self.raw = json.loads(report_json)
        self.report = Record(self.raw)
        self._table = table
        self.options = options

    def table(self):
        return self._table

    @property
    def machine(self):
        return self.report.machine

    @property
    def contractions(self):
        return self.report.contractions

    def chosen(self, contraction):
        """The chosen candidate of `contraction` (an entry of `contractions`)."""
        return contraction.candidates[contraction.chosen]

    @property
    def predicted_comm_bytes(self):
        """The chosen plans' network bytes, summed over contractions."""
        return sum(self.chosen(c).comm_bytes for c in self.contractions)

    @property
    def predicted_disk_bytes(self):
        return sum(self.chosen(c).disk_bytes for c in self.contractions)


class Program:
    """A tc program: tc's tensor-expression language (docs/TCELanguage.md) or
    MLIR (tc's dialect or contraction-shaped linalg)."""

    def __init__(self, source, name="program.tce", language=None):
        if language is None:
            language = "tce" if name.endswith(".tce") else "mlir"
        if language not in ("tce", "mlir"):
            raise InputError(f"language {language!r}: 'tce' or 'mlir'")
        self.source, self.name, self.language = source, name, language
        self._tensors = None

    @classmethod
    def from_tce(cls, text, name="program.tce"):
        return cls(text, name, "tce")

    @classmethod
    def from_mlir(cls, text, name="program.mlir"):
        return cls(text, name, "mlir")

    @classmethod
    def from_file(cls, path):
        with open(path) as f:
            return cls(f.read(), path)

    @classmethod
    def einsum(cls, spec, *operands, names=None, output=None):
        """One contraction in numpy's einsum notation ("abij,cdab->cdij"),
        each operand an array or a shape: inputs named A, B, ... (or `names`),
        the result C (or R when C is an input's name, or `output`)."""
        return cls.from_tce(einsum_program(spec, operands, names, output), "einsum.tce")

    @property
    def tce(self):
        return self.language == "tce"

    def _declared(self):
        if self._tensors is None:
            self._tensors = [Tensor(t) for t in
                             _call(_compiler().tensors, self.source, self.name, self.tce)]
        return self._tensors

    @property
    def tensors(self):
        """{name: Tensor} of the outputs and inputs (a tensor both, as C of
        `C += A * B`, as its input)."""
        return {t.name: t for t in sorted(self._declared(), key=lambda t: t.role == "input")}

    @property
    def inputs(self):
        return [t for t in self._declared() if t.role == "input"]

    @property
    def outputs(self):
        return [t for t in self._declared() if t.role == "output"]

    def plan(self, procs=1, mem=None, **options):
        """The plan on `procs` processes with `mem` bytes each ("2GB"): a Plan.
        Other keywords are tc-compile's options (tc-opt --help), e.g.
        net_bw="10GB/s", machine_file="machine.json"."""
        text, counts = compile_options(procs, mem, options)
        report, table, found = _call(_compiler().plan, self.source, self.name, self.tce, text)
        _warn(found)
        return Plan(report, table, text)

    def ir(self, stage="planned", procs=1, mem=None, **options):
        """The program's IR after `stage`: "imported", "planned", "lowered"
        (tile-level tc ops and runtime calls), "llvm" (the LLVM dialect) or
        "llvm-ir"."""
        text, _ = compile_options(procs, mem, options)
        ir, found = _call(_compiler().stage_ir, self.source, self.name, self.tce, text, stage)
        _warn(found)
        return ir

    def compile(self, procs=1, mem=None, cache=True, **options):
        """A native MPI executable planned for each count of `procs` with
        `mem` bytes per process: an Executable. Executables are cached by
        content (program, options, tc's build) in `cache` (a directory, or
        True: $TC_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/tc); False
        compiles into a temporary directory removed with the Executable."""
        from .executable import Executable
        text, counts = compile_options(procs, mem, options)
        if cache is False:
            work = tempfile.mkdtemp(prefix="tc-exe-")
            try:
                path = self._build(text, False, work)
            except BaseException:
                os.rmdir(work)
                raise
            return Executable(path, self, counts, text, owned_dir=work)
        return Executable(self._build(text, False, cache), self, counts, text, cache=cache)

    def _build(self, text, shared, cache):
        """The executable (or, `shared`, the library a host's MPI job loads)
        for tc-compile's options `text`, in the cache (True: the default
        directory) or the directory `cache`; built unless there."""
        _tc = _compiler()
        runtime = runtime_library()
        directory = cache_dir() if cache is True else str(cache)
        os.makedirs(directory, exist_ok=True)
        key = hashlib.sha256("\0".join(
            [self.source, self.name, self.language, text, _build_id(runtime),
             "shared" if shared else "program"]).encode()).hexdigest()
        stem = os.path.splitext(os.path.basename(self.name))[0] or "program"
        path = os.path.join(directory, f"{'lib' if shared else ''}{stem}-{key[:24]}"
                                       f"{'.so' if shared else ''}")
        if not os.path.exists(path):
            partial = path + f".{os.getpid()}.partial"
            try:
                _warn(_call(_tc.compile, self.source, self.name, self.tce, text, partial,
                            runtime, shared))
                os.replace(partial, path)
            finally:
                if os.path.exists(partial):
                    os.remove(partial)
        return path


def cache_dir():
    explicit = os.environ.get("TC_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tc")


def runtime_library():
    """tc's runtime library: beside the installed package, else the build's."""
    _tc = _compiler()
    here = os.path.dirname(os.path.abspath(_tc.__file__))
    places = [os.path.normpath(os.path.join(here, d, _tc.runtime_library_name))
              for d in (_tc.module_to_libdir, _tc.module_to_build_lib)]
    for path in places:
        if os.path.exists(path):
            return path
    raise CompileError(f"tc's runtime library is neither at {places[0]} nor at {places[1]}")


def _build_id(runtime):
    """What identifies tc's build: the compiler extension and the runtime."""
    stats = [os.stat(p) for p in (_compiler().__file__, runtime)]
    return ";".join(f"{s.st_size}:{s.st_mtime_ns}" for s in stats)


def einsum_program(spec, operands, names, output):
    """tc's language for one einsum contraction (see Program.einsum)."""
    spec = spec.replace(" ", "")
    if "->" not in spec:
        raise InputError(f"einsum {spec!r}: give the result's indices after '->'")
    lhs, result = spec.split("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise InputError(f"einsum {spec!r} names {len(terms)} operands, {len(operands)} given")
    letters = set(string.ascii_letters)
    shapes = [tuple(o.shape) if hasattr(o, "shape") else tuple(o) for o in operands]
    extents = {}
    for term, shape in zip(terms + [result], shapes + [None]):
        if not set(term) <= letters:
            raise InputError(f"einsum {spec!r}: indices are letters ('{term}')")
        if len(set(term)) != len(term):
            raise InputError(f"einsum {spec!r}: an index repeats within '{term}' "
                             "(diagonals are not contractions)")
        if shape is None:
            continue
        if len(shape) != len(term):
            raise InputError(f"einsum {spec!r}: '{term}' has {len(term)} indices but its "
                             f"operand has shape {shape}")
        for index, n in zip(term, shape):
            if extents.setdefault(index, int(n)) != int(n):
                raise InputError(f"einsum {spec!r}: index '{index}' has extents "
                                 f"{extents[index]} and {n}")
    missing = [i for i in result if i not in extents]
    if missing:
        raise InputError(f"einsum {spec!r}: result index '{missing[0]}' is in no operand")
    names = list(names) if names else [chr(ord("A") + k) for k in range(len(terms))]
    if len(names) != len(terms) or len(set(names)) != len(names):
        raise InputError(f"einsum: {len(terms)} distinct operand names needed, got {names}")
    output = output or ("C" if "C" not in names else "R")
    if output in names:
        raise InputError(f"einsum: the result's name {output!r} is an operand's")
    lines = ["program einsum;"]
    for index, n in extents.items():
        lines += [f"range N{index} = {n};", f"index {index} : N{index};"]
    for name, term in zip(names, terms):
        lines.append(f"input {name}[{','.join(term)}];")
    lines.append(f"output {output}[{','.join(result)}];")
    product = " * ".join(f"{n}[{','.join(t)}]" for n, t in zip(names, terms))
    lines.append(f"{output}[{','.join(result)}] = {product};")
    return "\n".join(lines) + "\n"
