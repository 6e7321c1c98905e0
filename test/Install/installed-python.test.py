import os
import warnings

import numpy as np

import tc
from tc.program import runtime_library

warnings.simplefilter("ignore")
print("tc from", os.path.dirname(tc.__file__))
print("runtime", runtime_library())
a, b = np.random.default_rng(1).standard_normal((2, 30, 30))
prog = tc.Program.einsum("ik,kj->ij", a, b)
out = prog.compile(procs=2, mem="1GB").run(np=2, inputs={"A": a, "B": b})
assert np.allclose(out["C"], a @ b, atol=1e-12)
assert out.report.bytes_as_predicted
print("OK")
