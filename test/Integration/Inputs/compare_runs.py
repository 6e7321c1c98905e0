#!/usr/bin/python3
"""compare_runs.py REF.h5 REF.json OUT.h5 OUT.json CHECKPOINT: a restarted
run against an uninterrupted one. Every output must equal the reference
within 1e-12 (dense datasets, or block-sparse groups' values), each loop
must have run as many iterations in all, and the restarted run's first
reported iteration must follow the checkpoint's. Prints OK."""
import json, sys

import h5py
import numpy as np

ref_h5, ref_json, out_h5, out_json, checkpoint = sys.argv[1:6]
ok = True


def values(f, name):
    node = f[name]
    return node["values"][...] if isinstance(node, h5py.Group) else node[...]


with h5py.File(ref_h5) as a, h5py.File(out_h5) as b:
    for name in a:
        err = float(np.max(np.abs(values(a, name) - values(b, name)), initial=0.0))
        print(f"{name}: max difference {err:.2e}")
        ok &= err <= 1e-12
ref, out = json.load(open(ref_json)), json.load(open(out_json))
with h5py.File(checkpoint) as f:
    resumed = int(f.attrs["iteration"])
for r, o in zip(ref["loops"], out["loops"]):
    first = o["per_iteration"][0]["iteration"]
    print(f"loop {o['loop']}: {o['iterations']} iterations (uninterrupted {r['iterations']}), "
          f"reported from iteration {first}, checkpoint of iteration {resumed}")
    ok &= o["iterations"] == r["iterations"] and first == resumed + 1
print("OK" if ok else "FAIL")
sys.exit(0 if ok else 1)
