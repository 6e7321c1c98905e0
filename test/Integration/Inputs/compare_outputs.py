#!/usr/bin/python3
"""compare_outputs.py A.h5 B.h5 ...: every dataset of A within 1e-10 of the
largest magnitude in the same dataset of each other file. Prints OK."""
import sys

import h5py
import numpy as np

ok = True
with h5py.File(sys.argv[1]) as a:
    for path in sys.argv[2:]:
        with h5py.File(path) as b:
            for name in a:
                x, y = a[name][...], b[name][...]
                scale = max(1.0, float(np.max(np.abs(x))) if x.size else 1.0)
                err = float(np.max(np.abs(x - y))) if x.size else 0.0
                if not err <= 1e-10 * scale:
                    print(f"FAIL: {name} of {path} differs by {err:.2e}")
                    ok = False
print("OK" if ok else "FAIL")
sys.exit(0 if ok else 1)
