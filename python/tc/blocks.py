"""Block-sparse tensors in tc's HDF5 layout (docs/BlockSparse.md), with h5py.

A tensor NAME is the group /NAME holding
  segment_counts  int64 [rank]           segments per dimension
  segments        int64 [sum of counts]  their lengths, dimension 0's first
  blocks          int64 [n, rank]        each stored block's segment ids
  offsets         int64 [n]              where its elements start in values
  values          f64 or f32 [total]     the blocks, each row-major
  flip            int64 [sum of counts]  spin-restricted only: each segment's
                                         partner when every spin flips; of
                                         each flipped pair of blocks (equal)
                                         only the one with lower ids is stored
  pairs           int64 [p, 3]           with pair symmetries only: per pair
                                         its two dimensions and 1 if
                                         antisymmetric (0: symmetric); of the
                                         blocks the exchanges (and the flip)
                                         relate, only the one with the lowest
                                         ids is stored, the others are it
                                         with those dimensions exchanged
                                         (times -1 per antisymmetric pair)

    from tc import blocks
    blocks.write("A.h5", "A", dense, [[8, 4, 2, 2], [16, 8, 4, 4]],
                 blocks.symmetric([[8, 4, 2, 2], [16, 8, 4, 4]], 0))
    dense, segments, present = blocks.read("out.h5", "C")
    as_dict = blocks.to_dict(dense, segments, present)   # {block ids: array}
"""
import itertools

import h5py
import numpy as np


def all_blocks(segments):
    """Every block's segment ids, row-major."""
    return [list(b) for b in itertools.product(*[range(len(s)) for s in segments])]


def symmetric(segments, symmetry=0, labels=None):
    """The blocks whose segment ids XOR to `symmetry` (tc's #tc.blocks symmetry),
    or, where `labels` gives a dimension its segments' symmetry labels (a
    labelled range of tc's language), whose labels do."""
    labels = labels or [None] * len(segments)
    out = []
    for b in all_blocks(segments):
        x = 0
        for d, i in enumerate(b):
            x ^= i if labels[d] is None else labels[d][i]
        if x == symmetry:
            out.append(b)
    return out


def charged(blocks, charges, signs, total=0):
    """Of `blocks`, those whose segments' charges (per dimension, its
    segments' charges), each times its dimension's sign (+1 or -1), sum to
    `total` (tc's `charge Q signs [...]`)."""
    return [b for b in blocks
            if sum(s * charges[d][i] for d, (i, s) in enumerate(zip(b, signs))) == total]


def flipped(block, flip):
    """The block with every spin flipped (`flip`: per dimension, each
    segment's partner)."""
    return [flip[d][i] for d, i in enumerate(block)]


def relatives(block, flip=None, pairs=None):
    """The blocks equal to `block` up to the spin flip and the pairs'
    exchanges (`pairs`: (dimension, dimension, antisymmetric) each), as
    (ids, exchanged pairs, sign), fewest exchanges first, the block itself
    first."""
    pairs = pairs or []
    out = []
    for flips in ([False, True] if flip is not None else [False]):
        for subset in range(1 << len(pairs)):
            ids, sign, used = list(block), 1, []
            if flips:
                ids = flipped(ids, flip)
            for k, (p, q, anti) in enumerate(pairs):
                if subset >> k & 1:
                    ids[p], ids[q] = ids[q], ids[p]
                    sign *= -1 if anti else 1
                    used.append((p, q))
            out.append((ids, used, sign))
    return out


def stored(blocks, flip=None, pairs=None):
    """Of the present `blocks`, those a tensor with symmetries stores: of
    the blocks the spin flip (`flip`) and the pairs' exchanges (`pairs`)
    relate, the one whose segment ids come first (all without either)."""
    return [list(b) for b in blocks
            if all(list(b) <= ids for ids, _, _ in relatives(b, flip, pairs))]


def symmetrize(dense, segments, flip=None, pairs=None):
    """`dense` made equal to its spin flip (per dimension, each segment's
    partner) and (anti)symmetric in each pair of dimensions: the average over
    the symmetries, so that a tensor with them is unchanged."""
    out = np.array(dense)
    for p, q, anti in pairs or []:
        out = 0.5 * (out + (-1 if anti else 1) * np.swapaxes(out, p, q))
    if flip is not None:
        starts = [np.concatenate([[0], np.cumsum(s)]) for s in segments]
        order = []
        for d, s in enumerate(segments):
            perm = np.empty(sum(s), dtype=np.int64)
            for i, j in enumerate(flip[d]):
                perm[starts[d][i]:starts[d][i + 1]] = np.arange(starts[d][j], starts[d][j + 1])
            order.append(perm)
        out = 0.5 * (out + out[np.ix_(*order)])
    return out.astype(dense.dtype)


def partners(segments, charges, labels=None):
    """The spin flip of a range's segments: each segment's partner is the one
    of equal length (and label, where `labels` are given) with the opposite
    charge, a charge-0 segment its own; ValueError if some segment has none
    or several."""
    out = []
    for i, (n, q) in enumerate(zip(segments, charges)):
        same = [j for j, (m, r) in enumerate(zip(segments, charges))
                if m == n and r == -q and (labels is None or labels[j] == labels[i])]
        if q == 0:
            same = [i]
        if len(same) != 1:
            raise ValueError(f"segment {i} (length {n}, charge {q}) has {len(same)} partners "
                             "of opposite charge")
        out.append(same[0])
    return out


def fill(dense, segments, blocks, flip=None, pairs=None):
    """`dense` with the blocks its stored `blocks` stand for set from them:
    flipped (`flip`) and exchanged (`pairs`, times -1 per antisymmetric pair
    exchanged); a tensor with the symmetries from its stored blocks."""
    if flip is None and not pairs:
        return dense
    out = np.array(dense)
    for b in blocks:
        value = np.array(dense[block_slices(segments, b)])
        for ids, used, sign in reversed(relatives(b, flip, pairs)):  # b itself last
            v = value
            for p, q in used:
                v = np.swapaxes(v, p, q)
            out[block_slices(segments, ids)] = sign * v
    return out


def block_slices(segments, block):
    starts = [np.concatenate([[0], np.cumsum(s)]) for s in segments]
    return tuple(slice(int(starts[d][i]), int(starts[d][i + 1])) for d, i in enumerate(block))


def mask(dense, segments, blocks):
    """`dense` with every element outside `blocks` set to zero."""
    out = np.zeros_like(dense)
    for b in blocks:
        sl = block_slices(segments, b)
        out[sl] = dense[sl]
    return out


def write(path, name, dense, segments, blocks, mode="a", order=None, flip=None, pairs=None):
    """Stores the `blocks` of `dense` as group `name` of `path`; `order`, a
    permutation of range(len(blocks)), lists them in another order. With
    `flip` (per dimension, each segment's partner), spin-restricted, and with
    `pairs` ((dimension, dimension, antisymmetric) each), pair-symmetric: of
    the present `blocks` only those `stored` keeps."""
    blocks = stored(blocks, flip, pairs)
    order = list(range(len(blocks))) if order is None else order
    values, offsets, at = [], [], 0
    for i in order:
        v = np.ascontiguousarray(dense[block_slices(segments, blocks[i])]).ravel()
        offsets.append(at)
        values.append(v)
        at += v.size
    with h5py.File(path, mode) as f:
        g = f.create_group(name)
        g["segment_counts"] = np.array([len(s) for s in segments], dtype=np.int64)
        g["segments"] = np.array([x for s in segments for x in s], dtype=np.int64)
        g["blocks"] = np.array([blocks[i] for i in order], dtype=np.int64).reshape(
            len(blocks), len(segments))
        g["offsets"] = np.array(offsets, dtype=np.int64)
        g["values"] = np.concatenate(values) if values else np.zeros(0, dense.dtype)
        if flip is not None:
            g["flip"] = np.array([x for f in flip for x in f], dtype=np.int64)
        if pairs:
            g["pairs"] = np.array([[p, q, int(bool(a))] for p, q, a in pairs], dtype=np.int64)


def read(path, name):
    """(dense tensor with absent blocks zero, segments, stored blocks); the
    blocks a spin-restricted or pair-symmetric tensor does not store are
    filled from the stored ones (flipped, exchanged and signed)."""
    with h5py.File(path, "r") as f:
        g = f[name]
        counts = list(g["segment_counts"][()])
        flat = list(g["segments"][()])
        segments, at = [], 0
        for c in counts:
            segments.append([int(x) for x in flat[at:at + c]])
            at += c
        offsets = g["offsets"][()]
        blocks = [list(map(int, b))
                  for b in g["blocks"][()].reshape(len(offsets), len(counts))]
        values = g["values"][()]
        flip, pairs = None, []
        if "flip" in g:
            flat_flip, flip, at = list(g["flip"][()]), [], 0
            for c in counts:
                flip.append([int(x) for x in flat_flip[at:at + c]])
                at += c
        pairs = [tuple(int(x) for x in p) for p in g["pairs"][()]] if "pairs" in g else []
    dense = np.zeros([sum(s) for s in segments], dtype=values.dtype)
    for b, o in zip(blocks, offsets):
        sl = block_slices(segments, b)
        shape = [s.stop - s.start for s in sl]
        dense[sl] = values[o:o + int(np.prod(shape))].reshape(shape)
    return fill(dense, segments, blocks, flip, pairs), segments, blocks


def to_dict(dense, segments, blocks):
    """{segment ids (a tuple): the block's elements} of `dense`."""
    return {tuple(b): np.array(dense[block_slices(segments, b)]) for b in blocks}


def from_dict(pieces, segments, blocks, dtype=np.float64):
    """The dense tensor (absent blocks zero) of {segment ids: elements};
    ValueError naming a block that is not one of `blocks` or has the wrong
    shape. Blocks of `blocks` missing from `pieces` are zero."""
    present = {tuple(b) for b in blocks}
    dense = np.zeros([sum(s) for s in segments], dtype=dtype)
    for key, value in pieces.items():
        key = tuple(int(k) for k in key)
        if key not in present:
            raise ValueError(f"block {list(key)} is not one of the tensor's blocks")
        sl = block_slices(segments, key)
        shape = tuple(s.stop - s.start for s in sl)
        value = np.asarray(value)
        if value.shape != shape:
            raise ValueError(f"block {list(key)} has shape {value.shape}, not {shape}")
        dense[sl] = value
    return dense


def outside(dense, segments, blocks):
    """The largest magnitude of `dense` outside `blocks` (0 when it is zero
    there)."""
    rest = np.abs(dense - mask(dense, segments, blocks))
    return float(rest.max()) if rest.size else 0.0
