#!/usr/bin/python3
"""make_h5.py FILE NAME=D0xD1x... [NAME=...]: random f64 datasets for tests."""
import sys

import h5py
import numpy as np

rng = np.random.default_rng(7)
with h5py.File(sys.argv[1], "w") as f:
    for spec in sys.argv[2:]:
        name, shape = spec.split("=")
        f[name] = rng.standard_normal([int(d) for d in shape.split("x")])
