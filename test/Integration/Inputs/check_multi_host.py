#!/usr/bin/python3
"""check_multi_host.py --hosts N --einsum SUBSCRIPTS -- scripts/multi-host.sh PROG ... -- PROGRAM_ARGS

Runs the multi-host.sh command given (which runs a program built by tcc across
N network-namespace hosts), prints its output, and checks the run:
  - the program's result (--output) equals numpy's einsum SUBSCRIPTS over its
    --input datasets, in the order given, within 1e-12 relative (max-norm);
  - every rank's measured compute-phase volumes equal the plan's predictions
    (the checks of run-contraction.py --check-bytes, on the --report);
  - the ranks ran in min(N, P) distinct network namespaces, none of them this
    process's, each host with a --scratch directory of its own that the
    program created;
  - mpirun allowed only the TCP BTL (and self) with the ob1 PML; OpenMPI's own
    verbose lines (OMPI_MCA_btl_base_verbose=30) show every pair of distinct
    ranks using the tcp BTL and TCP connections made to bridge addresses; and,
    when each host holds one rank, each host's eth0 sent at least the bytes its
    rank's MPI calls sent.
Prints OK when all hold. If multi-host.sh reports that namespaces cannot be
created here (exit status 77), prints "SKIPPED: <its message>" (on stdout and
stderr) and succeeds.
Needs Debian's numpy and h5py (/usr/bin/python3).
"""
import argparse, json, os, re, subprocess, sys

import h5py
import numpy as np


def program_args(cmd):
    """--input NAME=FILE pairs, --output and --report of the program's arguments."""
    rest = cmd[cmd.index("--") + 1:]
    inputs, out, report = [], None, None
    for opt, val in zip(rest, rest[1:]):
        if opt == "--input":
            inputs.append(val.split("=", 1))
        elif opt == "--output":
            out = val
        elif opt == "--report":
            report = val
    return inputs, out, report


def main():
    argv = sys.argv[1:]
    cut = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("--hosts", type=int, required=True)
    ap.add_argument("--einsum", required=True)
    a = ap.parse_args(argv[:cut])
    cmd = argv[cut + 1:]
    inputs, out, report = program_args(cmd)

    # The BTL framework's verbose lines say which transport carries each pair
    # of ranks (mpirun passes OMPI_MCA_* variables on to every host's daemon).
    env = dict(os.environ, OMPI_MCA_btl_base_verbose="30")
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    text = r.stdout.decode(errors="replace")
    sys.stdout.write(text)
    if r.returncode == 77:
        skip = re.search(r"^multi-host: skipped: .*$", text, re.M)
        if not skip:
            sys.exit("FAIL: exit status 77 without the skip message")
        print("SKIPPED: " + skip[0])
        print("SKIPPED: " + skip[0], file=sys.stderr)  # seen with lit -a, stdout goes to FileCheck
        return
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited with {r.returncode}")
    ok = True

    def fail(msg):
        nonlocal ok
        print("FAIL: " + msg)
        ok = False

    # Only TCP: mpirun was told so (and the run above worked with it).
    line = re.search(r"^multi-host: (mpirun .*)$", text, re.M)
    if not line or "--mca btl tcp,self " not in line[1] or "--mca pml ob1 " not in line[1]:
        fail("mpirun did not restrict MPI to the TCP BTL and the ob1 PML")

    # ... and each rank reached every other one through the TCP BTL, by
    # connecting to its address on the bridge.
    used = re.findall(r"mca: bml: Using (\w+) btl for send to \[\[\d+,\d+\],(\d+)\]", text)
    if {btl for btl, _ in used} - {"tcp", "self"}:
        fail(f"a BTL other than tcp and self carried messages: {sorted({b for b, _ in used})}")
    tcp = [int(dest) for btl, dest in used if btl == "tcp"]
    connected = re.findall(r"btl: ?tcp: connect\(\) to (10\.77\.0\.\d+):\d+ completed", text)

    # Where the ranks ran.
    ranks = {int(m[1]): m.groupdict() | {"host": int(m[2])} for m in re.finditer(
        r"^multi-host: rank (\d+) host (\d+) namespace (?P<ns>\S+) (?P<netns>net:\[\d+\]) "
        r"addr (?P<addr>\S+) scratch (?P<scratch>\S+) \((?P<state>\w+)\)$", text, re.M)}
    rep = json.load(open(report))
    nprocs = len(rep["ranks"])
    if sorted(ranks) != list(range(nprocs)):
        fail(f"evidence for ranks {sorted(ranks)}, expected 0..{nprocs - 1}")
    netns = {v["netns"] for v in ranks.values()}
    want = min(a.hosts, nprocs)
    print(f"ranks ran in {len(netns)} distinct network namespaces (expected {want}): "
          + ", ".join(sorted(netns)))
    if len(netns) != want:
        fail("ranks did not run on distinct hosts")
    if f"net:[{os.stat('/proc/self/ns/net').st_ino}]" in netns:
        fail("a rank ran in the root network namespace")
    for v in ranks.values():
        if v["state"] != "created":
            fail(f"scratch directory {v['scratch']} was not created")
    print(f"tcp BTL paths between ranks: {len(tcp)} (expected {nprocs * (nprocs - 1)}); "
          f"TCP connections made to {', '.join(sorted(set(connected)))}")
    if len(tcp) != nprocs * (nprocs - 1) or (nprocs > 1 and not connected):
        fail("ranks did not reach each other through the TCP BTL")
    scratch = {v["host"]: v["scratch"] for v in ranks.values()}
    if len(set(scratch.values())) != len(scratch):
        fail("hosts shared a scratch directory")

    # The result against numpy.
    arrays = []
    for name, path in inputs:
        with h5py.File(path) as f:
            arrays.append(f[name][()].astype(np.float64))
    expect = np.einsum(a.einsum, *arrays)
    with h5py.File(out) as f:
        (cname,) = list(f)
        got = f[cname][()]
    err = np.abs(got - expect).max() / max(np.abs(expect).max(), 1e-300)
    print(f"relative error {err:.3e} against numpy einsum")
    if not err <= 1e-12:
        fail(f"relative error {err:.3e} > 1e-12")

    # Bytes as planned, as run-contraction.py --check-bytes.
    sent_by_host = {}
    for rank in rep["ranks"]:
        c = rank["compute"]
        disk = c["bytes_read"] + c["bytes_written"]
        print(f"rank {rank['rank']}: disk {disk:.0f} (predicted {c['predicted_disk_bytes']:.0f}), "
              f"sent {c['bytes_sent']:.0f} (predicted {c['predicted_comm_bytes']:.0f}), "
              f"received {c['bytes_received']:.0f} "
              f"(predicted {c.get('predicted_received_bytes', c['bytes_received']):.0f})")
        if (disk != c["predicted_disk_bytes"] or c["bytes_sent"] != c["predicted_comm_bytes"] or
                c.get("predicted_received_bytes", c["bytes_received"]) != c["bytes_received"]):
            fail("measured bytes differ from the plan's prediction")
        host = ranks.get(rank["rank"], {}).get("host")
        sent = sum(rank[p]["bytes_sent"] for p in ("load", "compute", "store") if p in rank)
        sent_by_host[host] = sent_by_host.get(host, 0) + sent

    # The MPI bytes crossed the wire: with one rank per host, every byte a rank
    # sends goes to another host, through eth0 (the namespace has no other link).
    wire = {int(m[1]): int(m[2]) for m in re.finditer(
        r"^multi-host: host (\d+) namespace \S+ eth0 tx_bytes (\d+) rx_bytes \d+$", text, re.M)}
    for host, sent in sorted(sent_by_host.items(), key=lambda kv: str(kv[0])):
        print(f"host {host}: eth0 sent {wire.get(host, 0)} bytes, its ranks' MPI calls {sent:.0f}")
        if nprocs == a.hosts and wire.get(host, 0) < sent:
            fail(f"host {host} sent fewer bytes on eth0 than its rank through MPI")

    if not ok:
        sys.exit("FAIL")
    print("OK")


if __name__ == "__main__":
    main()
