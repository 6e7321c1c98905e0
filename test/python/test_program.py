"""Programs, tensors, plans and IR, in process (no run)."""
import os
import subprocess

import pytest

import tc
from conftest import read


def tcc_path():
    from tc import _tc
    return os.path.join(os.path.dirname(_tc.__file__), "..", "..", "bin", "tcc")


def test_tensors_of_a_tce_program(source_dir):
    prog = tc.Program.from_tce(read(source_dir, "examples", "ccd.tce"), "ccd.tce")
    assert [t.name for t in prog.inputs] == ["T", "fvv", "foo", "Voovv", "Voooo", "Vvvvv",
                                            "Vovvo"]
    assert [t.name for t in prog.outputs] == ["R", "E"]
    assert prog.tensors["T"].shape == (8, 8, 4, 4)
    assert prog.tensors["E"].shape == ()
    assert str(prog.tensors["R"].dtype) == "float64"
    assert not prog.tensors["T"].block_sparse


def test_block_sparse_tensors(source_dir):
    prog = tc.Program.from_tce(read(source_dir, "examples", "ccd-blocks.tce"), "ccd-blocks.tce")
    t = prog.tensors["T"]
    assert t.block_sparse
    assert t.segments == [[4, 4, 2, 2], [4, 4, 2, 2], [2, 2, 1, 1], [2, 2, 1, 1]]
    assert len(t.blocks) == 64 and (0, 1, 1, 0) in t.blocks
    assert all(a ^ b ^ i ^ j == 0 for a, b, i, j in t.blocks)


def test_plan_table_is_tccs(source_dir, tmp_path):
    """plan().table() is what tcc --plan-table prints for the same options."""
    path = os.path.join(source_dir, "examples", "ccd.tce")
    plan = tc.Program.from_file(path).plan(procs=2, mem="64KB", net_bw="1GB/s",
                                           disk_bw="200MB/s")
    table = tmp_path / "table.txt"
    subprocess.run([tcc_path(), path, "--procs", "2", "--mem", "64KB", "--net-bw", "1GB/s",
                    "--disk-bw", "200MB/s", "--plan-table", str(table), "--emit", "mlir",
                    "-o", str(tmp_path / "out.mlir")], check=True, capture_output=True)
    assert plan.table() == table.read_text()
    assert plan.machine.procs == 2 and plan.machine.mem == 64000


def test_plan_objects(source_dir):
    plan = tc.Program.from_tce(read(source_dir, "examples", "ccd.tce"), "ccd.tce").plan(
        procs=2, mem="16KB")
    assert len(plan.contractions) > 10
    for c in plan.contractions:
        chosen = plan.chosen(c)
        assert chosen.algorithm in ("replication-a", "replication-b", "accumulation", "rotation",
                                    "cosma", "pumma", "batch")
        assert chosen.disk_bytes >= 0 and chosen.comm_bytes >= 0
        assert c.op.startswith("ccd.tce:")
    # At 16 KB per process the largest tensors go out of core.
    assert plan.predicted_disk_bytes > 0
    with pytest.raises(AttributeError, match="no field 'nonsense'"):
        plan.contractions[0].nonsense


def test_ir_after_each_stage():
    prog = tc.Program.einsum("ik,kj->ij", (40, 30), (30, 20))
    assert "tc.contract" in prog.ir("imported")
    assert "tc.plan = #tc.plan<" in prog.ir("planned", procs=2, mem="1GB")
    assert "tc.tile_contract" in prog.ir("lowered", procs=2, mem="1GB")
    assert "llvm.call @tc_rt_" in prog.ir("llvm", procs=2, mem="1GB")
    assert "define void @einsum()" in prog.ir("llvm-ir", procs=2, mem="1GB")
    with pytest.raises(ValueError, match="unknown stage 'parsed'"):
        prog.ir("parsed")


def test_from_mlir(source_dir):
    text = read(source_dir, "examples", "matmul.mlir").replace("4000", "40")
    prog = tc.Program.from_mlir(text, "matmul.mlir")
    # Unnamed arguments are named by their place in the contraction, as the
    # runtime names their datasets.
    assert [t.name for t in prog.inputs] == ["A", "B", "C"]
    assert [t.name for t in prog.outputs] == ["C"]
    plan = prog.plan(procs=2, mem="1GB")
    assert len(plan.contractions) == 1


def test_einsum_program():
    prog = tc.Program.einsum("abij,cdab->cdij", (4, 5, 2, 3), (6, 7, 4, 5), names=["T", "V"],
                             output="R")
    assert prog.tensors["R"].shape == (6, 7, 2, 3)
    assert [t.name for t in prog.inputs] == ["T", "V"]


@pytest.mark.parametrize("spec, shapes, message", [
    ("ij,jk", [(2, 3), (3, 4)], "after '->'"),
    ("ij,jk->ik", [(2, 3), (4, 4)], "index 'j' has extents 3 and 4"),
    ("ij,jk->il", [(2, 3), (3, 4)], "result index 'l' is in no operand"),
    ("ii->i", [(3, 3)], "an index repeats"),
    ("ij,jk->ik", [(2, 3)], "names 2 operands, 1 given"),
    ("ijk,jk->ik", [(2, 3), (3, 4)], "'ijk' has 3 indices"),
])
def test_einsum_errors(spec, shapes, message):
    with pytest.raises(tc.InputError, match=message):
        tc.Program.einsum(spec, *shapes)


def test_compile_errors_carry_line_and_column():
    bad = "program x;\nrange O = 4;\nindex i : O;\ninput A[i];\noutput B[i];\nB[i] = A[j];\n"
    with pytest.raises(tc.CompileError) as e:
        tc.Program.from_tce(bad, "bad.tce").plan(procs=1, mem="1GB")
    assert e.value.diagnostics[0].startswith("bad.tce:6:10: error: index 'j' is not declared")
    with pytest.raises(tc.CompileError, match=r"bad.mlir:1:\d+: error"):
        tc.Program.from_mlir("func.func @f( {", "bad.mlir").tensors


def test_plan_errors():
    prog = tc.Program.einsum("ik,kj->ij", (40, 30), (30, 20))
    with pytest.raises(tc.CompileError, match="lacks 'mem'"):
        prog.plan(procs=2)
    with pytest.raises(tc.CompileError, match="no plan fits in memory"):
        prog.plan(procs=2, mem="16B")
    with pytest.raises(tc.InputError, match="procs 0"):
        prog.plan(procs=0, mem="1GB")
    with pytest.raises(tc.CompileError, match="invalid tc-compile options"):
        prog.plan(procs=2, mem="1GB", no_such_option=3)


def test_compiler_warnings_are_python_warnings(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # no calibrated machine file
    monkeypatch.delenv("TC_MACHINE_FILE", raising=False)
    with pytest.warns(UserWarning, match=r"einsum.tce:1:1: warning: no measured bandwidths"):
        tc.Program.einsum("ik,kj->ij", (4, 3), (3, 2)).plan(procs=1, mem="1GB")


def test_planning_leaves_the_environment_to_mpirun(source_dir, monkeypatch):
    """Block-sparse planning starts MPI in this process (Zoltan); an mpirun
    started later with the process's environment still runs."""
    tc.Program.from_tce(read(source_dir, "examples", "ccd-blocks.tce"), "b.tce").plan(
        procs=3, mem="1GB")
    monkeypatch.setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
    monkeypatch.setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    run = subprocess.run(["mpirun", "-np", "1", "true"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
