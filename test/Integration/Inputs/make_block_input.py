#!/usr/bin/python3
"""make_block_input.py FILE NAME SEGMENTS [--drop K] [--extra] [--f32]: writes a
random block-sparse tensor NAME (blocks whose segment ids XOR to 0) to FILE in
tc's layout (scripts/tc_blocks.py). SEGMENTS: per dimension, lengths joined by
':', dimensions by ',' (e.g. 8:4:2:2,16:8:4:4). --drop K leaves block K out;
--extra stores one block more than the symmetry admits; --f32 stores f32."""
import os, sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts"))
import tc_blocks  # noqa: E402

path, name, spec = sys.argv[1:4]
flags = sys.argv[4:]
segments = [[int(x) for x in d.split(":")] for d in spec.split(",")]
blocks = tc_blocks.symmetric(segments, 0)
if "--drop" in flags:
    del blocks[int(flags[flags.index("--drop") + 1])]
if "--extra" in flags:
    blocks.append(next(b for b in tc_blocks.all_blocks(segments) if b not in blocks))
dense = np.random.default_rng(3).standard_normal([sum(s) for s in segments])
if "--f32" in flags:
    dense = dense.astype(np.float32)
tc_blocks.write(path, name, dense, segments, blocks, mode="w")
