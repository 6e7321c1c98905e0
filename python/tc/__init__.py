"""tc from Python: plan, compile and run tensor-contraction programs.

    import numpy as np, tc
    prog = tc.Program.from_tce(open("ccd.tce").read())
    plan = prog.plan(procs=2, mem="1GB")      # the plan as objects, no compile
    print(plan.table())
    exe = prog.compile(procs=[1, 2], mem="1GB")
    out = exe.run(np=2, inputs={"T": t, "Voovv": "ints.h5"})
    out["R"], out.report.statements[0].measured.disk_bytes

docs/Python.md describes every call. The compiler runs in this process (the
extension tc._tc); programs run under mpirun.
"""
from .errors import CompileError, InputError, RunError
from .records import Record
from .program import Plan, Program, Tensor
from .executable import Executable, Result, local_rows
from .report import Report

__all__ = ["CompileError", "InputError", "RunError", "Record", "Plan", "Program", "Tensor",
           "Executable", "Result", "Report", "local_rows"]
