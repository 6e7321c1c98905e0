"""Block-sparse tensors from and to numpy: dense arrays with absent blocks
zero, or {segment ids: block}, with the program's segments and symmetry."""
import re

import numpy as np
import pytest

import tc
import tce_numpy
from conftest import SOURCE, read
from tc import blocks


@pytest.fixture(scope="module")
def ccd_blocks(source_dir):
    text = read(source_dir, "examples", "ccd-blocks.tce")
    prog = tc.Program.from_tce(text, "ccd-blocks.tce")
    rng = np.random.default_rng(11)
    inputs = {t.name: blocks.mask(rng.uniform(-1, 1, t.shape), t.segments,
                                  [list(b) for b in t.blocks]) for t in prog.inputs}
    return prog, inputs, tce_numpy.Program(text).evaluate(dict(inputs))


def test_dense_arrays_in_and_out(ccd_blocks):
    prog, inputs, expected = ccd_blocks
    out = prog.compile(procs=[1, 3], mem="1GB").run(np=3, inputs=inputs)
    for name, value in expected.items():
        np.testing.assert_allclose(out[name], value, atol=1e-11 * np.abs(value).max())
    assert out.report.bytes_as_predicted


def test_blocks_as_dicts_in_and_out(ccd_blocks):
    prog, inputs, expected = ccd_blocks
    given = {}
    for t in prog.inputs:
        pieces = blocks.to_dict(inputs[t.name], t.segments, t.blocks)
        # A block left out is zero.
        dropped = t.blocks[0]
        if t.name == "T":
            pieces.pop(dropped)
            inputs = dict(inputs, T=blocks.from_dict(pieces, t.segments, t.blocks))
        given[t.name] = pieces
    expected = tce_numpy.Program(prog.source).evaluate(dict(inputs))
    out = prog.compile(procs=1, mem="1GB").run(inputs=given, blocks="dict")
    r = prog.tensors["R"]
    assert set(out["R"]) == set(r.blocks)
    dense = blocks.from_dict(out["R"], r.segments, r.blocks)
    np.testing.assert_allclose(dense, expected["R"], atol=1e-11 * np.abs(expected["R"]).max())


def test_values_outside_the_blocks_are_refused(ccd_blocks, clean_tmp):
    prog, inputs, _ = ccd_blocks
    t = prog.tensors["T"]
    bad = inputs["T"].copy()
    absent = next(b for b in blocks.all_blocks(t.segments) if tuple(b) not in t.blocks)
    bad[blocks.block_slices(t.segments, absent)] = 0.5
    exe = prog.compile(procs=1, mem="1GB")
    with pytest.raises(tc.InputError, match=r"input 'T' is non-zero \(up to 0.5\) outside"):
        exe.run(inputs=dict(inputs, T=bad))
    with pytest.raises(tc.InputError, match=re.escape(f"input 'T': block {absent} is not one of")):
        exe.run(inputs=dict(inputs, T={tuple(absent): np.zeros((4, 4, 2, 2))}))
    good = t.blocks[0]
    with pytest.raises(tc.InputError, match="has shape \\(1, 1\\)"):
        exe.run(inputs=dict(inputs, T={good: np.zeros((1, 1))}))
    with pytest.raises(tc.InputError, match="input 'fvv' is dense: give an array"):
        tc.Program.from_tce(read(SOURCE, "examples", "ccd.tce"), "ccd.tce").compile(procs=1, mem="1GB").run(
            inputs={"fvv": {(0, 0): np.zeros((2, 2))}}, random_inputs=1)
    assert list(clean_tmp.iterdir()) == []


def test_random_block_sparse_inputs(ccd_blocks):
    """random_inputs fills block-sparse inputs too: the same values on any
    process count, zero outside the blocks."""
    prog = ccd_blocks[0]
    exe = prog.compile(procs=[1, 3], mem="1GB")
    one, three = exe.run(np=1, random_inputs=4), exe.run(np=3, random_inputs=4)
    np.testing.assert_allclose(one["R"], three["R"], atol=1e-11 * np.abs(one["R"]).max())
    r = prog.tensors["R"]
    assert blocks.outside(one["R"], r.segments, r.blocks) == 0
    assert np.abs(one["R"]).max() > 0


def check_symmetric_program(source_dir, tce, seed, damage, refusal):
    """The program of Integration/Inputs/`tce` with its symmetries, on 2
    processes: dense inputs that have them, then {stored block: array}
    inputs, outputs with the blocks they stand for filled, each as numpy
    computes it; the input T damaged by `damage(T, tensor)` is refused with a
    message matching `refusal`. Returns the program."""
    text = read(source_dir, "test", "Integration", "Inputs", tce)
    prog = tc.Program.from_tce(text, tce)
    reference = tce_numpy.Program(text)
    rng = np.random.default_rng(seed)
    inputs = {x.name: reference.mask(x.name, rng.uniform(-1, 1, x.shape)) for x in prog.inputs}
    expected = reference.evaluate(dict(inputs))
    exe = prog.compile(procs=2, mem="1GB")
    out = exe.run(np=2, inputs=inputs)
    for name, value in expected.items():
        np.testing.assert_allclose(out[name], value, atol=1e-11 * np.abs(value).max())
    assert out.report.bytes_as_predicted
    given = {x.name: blocks.to_dict(inputs[x.name], x.segments, x.blocks) for x in prog.inputs}
    out = exe.run(np=2, inputs=given, blocks="dict")
    r = prog.tensors["R"]
    assert set(out["R"]) == set(r.blocks)
    dense = blocks.fill(blocks.from_dict(out["R"], r.segments, r.blocks), r.segments,
                        r.blocks, r.flip, r.pairs)
    np.testing.assert_allclose(dense, expected["R"], atol=1e-11 * np.abs(expected["R"]).max())
    bad = inputs["T"].copy()
    damage(bad, prog.tensors["T"])
    with pytest.raises(tc.InputError, match=refusal):
        exe.run(np=2, inputs=dict(inputs, T=bad))
    return prog


def test_restricted_tensors(source_dir):
    """A spin-restricted program (integration test restricted-blocks.tce):
    dense inputs equal to their flips, {stored block: array} inputs, outputs
    with their flipped blocks filled; a dense input whose flipped block
    differs is refused."""
    def damage(bad, t):
        flipped = blocks.flipped(list(t.blocks[0]), t.flip)
        bad[blocks.block_slices(t.segments, flipped)] += 0.25

    prog = check_symmetric_program(
        source_dir, "restricted-blocks.tce", 5, damage,
        r"input 'T' is spin-restricted but differs from the average of its flips and "
        r"exchanges \(by up to 0.125\)")
    t = prog.tensors["T"]
    assert t.flip == [[2, 3, 0, 1], [2, 3, 0, 1], [2, 3, 0, 1], [2, 3, 0, 1]]
    assert len(t.present_blocks) == 2 * len(t.blocks)


def test_pair_symmetric_tensors(source_dir):
    """A program with pair symmetries (integration test pair-blocks.tce):
    dense inputs (anti)symmetric in their pairs, {stored block: array} inputs,
    outputs with their exchanged blocks filled; a dense input whose exchanged
    block differs from its stored one, negated, is refused."""
    def damage(bad, t):
        stored = next(list(b) for b in t.blocks if b[0] != b[1])
        exchanged = [stored[1], stored[0]] + stored[2:]
        bad[blocks.block_slices(t.segments, exchanged)] += 0.25

    prog = check_symmetric_program(
        source_dir, "pair-blocks.tce", 7, damage,
        r"input 'T' is pair-symmetric but differs from the average of its flips and "
        r"exchanges \(by up to 0.188\)")
    t = prog.tensors["T"]
    assert t.pairs == [(0, 1, True), (2, 3, True)]
    assert prog.tensors["F"].pairs == [(0, 1, False)]
    assert len(t.present_blocks) == 48 and len(t.blocks) == 18
