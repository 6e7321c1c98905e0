"""Prints a run report's loops: per loop its count and outcome, per iteration
its change, whether every rank's compute-phase bytes equal the plan's
prediction and its hand-overs theirs, and the bytes the iteration's loads read
from files; with --statements also each statement's executions (one record
per statement of the program, a loop's summing its iterations); exits 1 when a
field is missing or a value is out of place."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "scripts"))
import tc_run  # noqa: E402

rep = json.load(open(sys.argv[1]))
ok = True
for loop in rep["loops"]:
    print(f"loop {loop['loop']} on {loop['converge']}: {loop['iterations']} of at most "
          f"{loop['max_iterations']} iterations, converged {str(loop['converged']).lower()}")
    ok &= len(loop["per_iteration"]) == loop["iterations"]
    for it in loop["per_iteration"]:
        same = all(tc_run.bytes_as_predicted(r["compute"]) and
                   tc_run.hand_over_as_predicted(r.get("hand_over")) for r in it["ranks"])
        ok &= it["seconds"] >= 0 and all(p in it for p in ("load", "compute", "store"))
        ok &= it["value"] is not None and (it["change"] is None) == (it["iteration"] == 1)
        print(f"iteration {it['iteration']}: change {it['change']}, bytes "
              f"{'as predicted' if same else 'NOT as predicted'} on {len(it['ranks'])} ranks, "
              f"{it['load']['bytes_read']:.0f} bytes read loading")
if "--statements" in sys.argv[2:]:
    for s in rep["statements"]:
        ranks = sum(r["compute"]["flops"] for r in s["ranks"])
        ok &= ranks == s["compute"]["flops"] and s["seconds"] >= 0
        print(f"statement {s['name']}: {s['executions']} executions, {s['compute']['flops']:.0f} flops")
    ok &= sum(s["compute"]["flops"] for s in rep["statements"]) == rep["total"]["compute"]["flops"]
sys.exit(0 if ok else 1)
