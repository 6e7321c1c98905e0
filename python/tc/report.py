"""A run's report (the program's --report JSON, docs/RuntimeABI.md) as objects."""
from .records import Record


class Phase(Record):
    """One phase's counters (load, compute, store): bytes_sent,
    bytes_received, bytes_read, bytes_written, bytes_mapped (of bytes_read,
    inputs used where their file holds them), flops, seconds, and in the
    compute phase the plan's predictions (predicted_disk_bytes,
    predicted_comm_bytes, predicted_received_bytes)."""

    @property
    def disk_bytes(self):
        return self.raw["bytes_read"] + self.raw["bytes_written"]

    @property
    def as_predicted(self):
        """Measured bytes equal to the plan's predictions (disk, sent, and
        received where the plan predicts it per rank)."""
        r = self.raw
        if "predicted_disk_bytes" not in r:
            return True
        received = r.get("predicted_received_bytes")
        return (self.disk_bytes == r["predicted_disk_bytes"] and
                r["bytes_sent"] == r["predicted_comm_bytes"] and
                (received is None or received == r["bytes_received"]))


class Statement(Record):
    """One statement of the program (in a loop, summed over its iterations,
    whose count is `executions`): name ("R (prog.tce:12)"), result, seconds,
    its phases and, per rank, its compute phase. `measured` is its compute phase (summed over ranks),
    `predicted` the plan's bytes for it."""

    load = property(lambda self: Phase(self.raw["load"]))
    compute = property(lambda self: Phase(self.raw["compute"]))
    store = property(lambda self: Phase(self.raw["store"]))
    measured = compute

    @property
    def predicted(self):
        c = self.raw["compute"]
        return Record({"disk_bytes": c.get("predicted_disk_bytes", 0),
                       "comm_bytes": c.get("predicted_comm_bytes", 0),
                       "received_bytes": c.get("predicted_received_bytes")})

    @property
    def ranks(self):
        return [Rank(r) for r in self.raw.get("ranks", [])]


class Rank(Record):
    """One rank's counters: rank, its phases (load, compute, store), its
    hand-overs of intermediates (hand_over, with predictions) and peak RSS."""

    load = property(lambda self: Phase(self.raw["load"]) if "load" in self.raw else None)
    compute = property(lambda self: Phase(self.raw["compute"]))
    store = property(lambda self: Phase(self.raw["store"]) if "store" in self.raw else None)

    @property
    def hand_over_as_predicted(self):
        h = self.raw.get("hand_over")
        return h is None or (h["bytes_sent"] == h["predicted_sent_bytes"] and
                             h["bytes_received"] == h["predicted_received_bytes"])


class Report(Record):
    """The whole run: program, procs, blas_kernel, total, ranks, statements,
    loops (each with per_iteration records)."""

    @property
    def statements(self):
        """Per statement (a loop's summed over its iterations) its counters; a
        program of one contraction is one statement, the run's totals."""
        if "statements" in self.raw:
            return [Statement(s) for s in self.raw["statements"]]
        whole = dict(self.raw["total"], name=self.raw.get("program", ""), result="output",
                     ranks=[{"rank": r["rank"], "compute": r["compute"]}
                            for r in self.raw.get("ranks", [])])
        return [Statement(whole)]
    ranks = property(lambda self: [Rank(r) for r in self.raw.get("ranks", [])])

    @property
    def iterations(self):
        """Every loop's iterations, in order: iteration, value, change,
        seconds, diis, and the phases' counters."""
        return [Record(i) for loop in self.raw.get("loops", []) for i in loop["per_iteration"]]

    @property
    def bytes_as_predicted(self):
        """Every rank's measured bytes (compute phase and hand-overs) equal to
        the plan's predictions."""
        return all(r.compute.as_predicted and r.hand_over_as_predicted for r in self.ranks)
