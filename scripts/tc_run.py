"""What the run-*.py scripts share: a working directory removed however the
run ends, and mpirun's environment on these machines (root, oversubscribed
cores, no single-copy mechanism in containers)."""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from tc.launch import mpirun_env  # noqa: E402,F401


def in_work_dir(prefix, fn, *args):
    """Calls fn(*args, work) in a fresh temporary directory, then removes it."""
    work = tempfile.mkdtemp(prefix=prefix)
    try:
        return fn(*args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def bytes_as_predicted(c):
    """True if one rank's compute-phase counters `c` (a report's "compute")
    equal the plan's predictions: disk (read + written), sent, and received
    where the plan predicts it per rank."""
    received = c.get("predicted_received_bytes")
    return (c["bytes_read"] + c["bytes_written"] == c["predicted_disk_bytes"] and
            c["bytes_sent"] == c["predicted_comm_bytes"] and
            (received is None or received == c["bytes_received"]))


def hand_over_as_predicted(h):
    """True if one rank's hand-overs `h` (a report's "hand_over": the bytes
    moving intermediates from the statements that computed them to the ones
    that read them; none: nothing to check) equal their prediction."""
    return h is None or (h["bytes_sent"] == h["predicted_sent_bytes"] and
                         h["bytes_received"] == h["predicted_received_bytes"])


def report_bytes(rep, check, require_received=False):
    """Prints every rank's measured compute-phase bytes beside the plan's
    prediction (disk = read + written; received where the plan predicts it per
    rank); with `check`, False when any differs (or, with `require_received`,
    when the received bytes are not predicted)."""
    ok = True
    for rank in rep["ranks"]:
        c = rank["compute"]
        disk = c["bytes_read"] + c["bytes_written"]
        line = (f"rank {rank['rank']}: disk {disk:.0f} (predicted {c['predicted_disk_bytes']:.0f}), "
                f"sent {c['bytes_sent']:.0f} (predicted {c['predicted_comm_bytes']:.0f})")
        received = c.get("predicted_received_bytes")
        if received is not None:
            line += f", received {c['bytes_received']:.0f} (predicted {received:.0f})"
        h = rank.get("hand_over")
        if h and (h["bytes_sent"] or h["bytes_received"] or h["predicted_sent_bytes"] or
                  h["predicted_received_bytes"]):
            line += (f"; hand-over sent {h['bytes_sent']:.0f} (predicted "
                     f"{h['predicted_sent_bytes']:.0f}), received {h['bytes_received']:.0f} "
                     f"(predicted {h['predicted_received_bytes']:.0f})")
        print(line)
        if check and (not bytes_as_predicted(c) or (received is None and require_received)):
            print("FAIL: measured bytes differ from the plan's prediction")
            ok = False
        if check and not hand_over_as_predicted(h):
            print("FAIL: bytes handing intermediates on differ from their prediction")
            ok = False
    return ok


def peak_rss_within(rep, spec):
    """`spec` is BASELINE_REPORT:BYTES: prints every rank's peak RSS above the
    fixed overhead (the largest peak RSS in BASELINE_REPORT, a tiny run on as
    many processes) and returns False when one exceeds BYTES (README,
    "Memory")."""
    import json
    base_path, allowed = spec.rsplit(":", 1)
    base = max(r["peak_rss_bytes"] for r in json.load(open(base_path))["ranks"])
    ok = True
    for rank in rep["ranks"]:
        over = rank["peak_rss_bytes"] - base
        print(f"rank {rank['rank']}: peak RSS {rank['peak_rss_bytes'] / 1e6:.1f} MB, "
              f"{over / 1e6:.2f} MB over the fixed overhead (allowed {float(allowed) / 1e6:.2f} MB)")
        if over > float(allowed):
            print("FAIL: peak RSS above the memory cap")
            ok = False
    return ok
