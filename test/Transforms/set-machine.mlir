// tc-set-machine: options with units, a JSON machine file, options over the file
// over the module attribute, and clear errors.
// RUN: tc-opt %s --tc-set-machine="procs=4 mem=64MiB net-bw=200MB/s disk-bw=8MB/s" | FileCheck %s --check-prefix=OPTS
// RUN: echo '{"procs": 16, "mem": "1GB", "net_bw": "1.6GB/s", "disk_bw": 1e7, "elem_bytes": 4, "bcast_factor": 2, "reduce_factor": 1.4}' > %t.json
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.json" | FileCheck %s --check-prefix=FILE
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.json procs=9" | FileCheck %s --check-prefix=OVERRIDE
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.json" --tc-set-machine="mem=2GiB" | FileCheck %s --check-prefix=KEEP
// RUN: not tc-opt %s --tc-set-machine="procs=4 net-bw=1GB/s disk-bw=1GB/s" 2>&1 | FileCheck %s --check-prefix=MISSING
// Measured quantities nothing else gives come from the calibrated default file
// (its procs and mem describe the calibration run and are not taken), what it
// lacks too from the documented defaults with one warning.
// RUN: echo '{"procs": 2, "mem": 5e9, "net_bw": "3GB/s", "disk_bw": "500MB/s", "flop_rate": 4e10, "mcost": {}}' > %t.default.json
// RUN: tc-opt %s --tc-set-machine="procs=4 mem=64MB default-machine-file=%t.default.json" 2>&1 | FileCheck %s --check-prefix=DEFAULTFILE --implicit-check-not=warning
// RUN: tc-opt %s --tc-set-machine="procs=4 mem=64MB net-bw=2GB/s default-machine-file=%t.default.json" 2>&1 | FileCheck %s --check-prefix=DEFAULTUNDER
// RUN: echo '{"disk_bw": "500MB/s"}' > %t.disk.json
// RUN: tc-opt %s --tc-set-machine="procs=4 mem=64MB default-machine-file=%t.disk.json" 2>&1 | FileCheck %s --check-prefix=DEFAULTNET
// RUN: tc-opt %s --tc-set-machine="procs=4 mem=64MB" 2>&1 | FileCheck %s --check-prefix=DEFAULTBOTH
// RUN: not tc-opt %s --tc-set-machine="procs=4 mem=64MB default-machine-file=%t.none.json" 2>&1 | FileCheck %s --check-prefix=NODEFAULT
// DEFAULTFILE: #tc.machine<procs = 4, mem = 64000000, net_bw = 3.000000e+09, disk_bw = 5.000000e+08, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00, flop_rate = 4.000000e+10, latency = 1.000000e-05>
// DEFAULTUNDER: #tc.machine<procs = 4, mem = 64000000, net_bw = 2.000000e+09, disk_bw = 5.000000e+08,
// DEFAULTNET: warning: no measured bandwidths; planning with net_bw = 1GB/s (run tc-calibrate to measure this machine)
// DEFAULTNET: #tc.machine<procs = 4, mem = 64000000, net_bw = 1.000000e+09, disk_bw = 5.000000e+08,
// DEFAULTBOTH: warning: no measured bandwidths; planning with net_bw = 1GB/s, disk_bw = 200MB/s (run tc-calibrate to measure this machine)
// DEFAULTBOTH: #tc.machine<procs = 4, mem = 64000000, net_bw = 1.000000e+09, disk_bw = 2.000000e+08, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00, latency = 1.000000e-05>
// NODEFAULT: error: machine file '{{.*}}.none.json': No such file or directory
// RUN: not tc-opt %s --tc-set-machine="procs=4 mem=64mb net-bw=1 disk-bw=1" 2>&1 | FileCheck %s --check-prefix=UNIT
// RUN: echo '{"procs": 4, "mem": "1GB", "net_bw": 1, "disk_bw": 1, "volumes": "runtime"}' > %t.vol.json
// A file tc-calibrate wrote also holds the fusion planner's measured costs: tc-plan
// reads it whole (tc-set-machine leaves those keys to tc-fuse-distribute, and
// takes flop_rate, the default 1e9 here, which is not printed).
// RUN: echo '{"procs": 4, "mem": "1GB", "net_bw": 1, "disk_bw": 1, "latency": 1e-5, "flop_rate": 1e9, "io_latency": 1e-4, "call_overhead": 1e-6, "mcost": {}}' > %t.cal.json
// RUN: tc-opt %s --tc-plan="machine-file=%t.cal.json" | FileCheck %s --check-prefix=CALIBRATED
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.vol.json" | FileCheck %s --check-prefix=VOLFILE
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.vol.json volumes=paper" | FileCheck %s --check-prefix=VOLOPT
// VOLFILE: reduce_factor = 1.000000e+00, latency = 1.000000e-05, volumes = runtime>
// VOLOPT: reduce_factor = 1.000000e+00, latency = 1.000000e-05>
// RUN: not tc-opt %s --tc-set-machine="machine-file=%t.vol.json volumes=exact" 2>&1 | FileCheck %s --check-prefix=VOLBAD
// RUN: echo '{"procs": 4, "mem": "1GB", "net_bw": 1, "disk_bw": 1, "volumes": "runtme"}' > %t.volbad.json
// RUN: not tc-opt %s --tc-set-machine="machine-file=%t.volbad.json" 2>&1 | FileCheck %s --check-prefix=VOLBADFILE
// VOLBAD: error: option volumes=exact is not paper or runtime
// VOLBADFILE: error: machine file '{{.*}}.volbad.json': 'volumes' must be paper or runtime
// flop_rate: from the file, the option over it (printed when not 1e9).
// RUN: echo '{"procs": 4, "mem": "1GB", "net_bw": 1, "disk_bw": 1, "flop_rate": 2e10}' > %t.flops.json
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.flops.json" | FileCheck %s --check-prefix=FLOPFILE
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.flops.json flop-rate=5e9" | FileCheck %s --check-prefix=FLOPOPT
// RUN: tc-opt %s --tc-plan="machine-file=%t.flops.json" | FileCheck %s --check-prefix=FLOPFILE
// The calibrated default file does not override a flop rate the machine file gives.
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.flops.json default-machine-file=%t.default.json" 2>&1 | FileCheck %s --check-prefix=FLOPFILE
// FLOPFILE: reduce_factor = 1.000000e+00, flop_rate = 2.000000e+10, latency = 1.000000e-05>
// FLOPOPT: reduce_factor = 1.000000e+00, flop_rate = 5.000000e+09, latency = 1.000000e-05>
// RUN: echo '{"procs": 4, "memory": "1GB"}' > %t.bad.json
// RUN: not tc-opt %s --tc-set-machine="machine-file=%t.bad.json" 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not tc-opt %s --tc-set-machine="machine-file=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=NOFILE
// Latency: the option's (0 too: the papers' model), else the file's, else the
// module's, else 1e-5 s (docs/Derivations.md D58).
// RUN: echo '{"procs": 4, "mem": "1GB", "net_bw": 1, "disk_bw": 1, "latency": 3e-6}' > %t.lat.json
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.lat.json" | FileCheck %s --check-prefix=LATFILE
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.lat.json latency=2e-5" | FileCheck %s --check-prefix=LATOPT
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.lat.json latency=0" | FileCheck %s --check-prefix=LATZERO
// RUN: tc-opt %s --tc-set-machine="machine-file=%t.lat.json" --tc-set-machine="mem=2GiB" | FileCheck %s --check-prefix=LATFILE
// RUN: not tc-opt %s --tc-set-machine="procs=4 mem=64MB latency=-5" 2>&1 | FileCheck %s --check-prefix=LATBAD
// LATBAD: error: option latency=-5.000000e+00 is negative; give seconds >= 0 (0: the papers' model, bytes only)
// LATFILE: reduce_factor = 1.000000e+00, latency = 3.000000e-06>
// LATOPT: reduce_factor = 1.000000e+00, latency = 2.000000e-05>
// LATZERO: reduce_factor = 1.000000e+00>
// RUN: echo '{"procs": 4,' > %t.broken.json
// RUN: not tc-opt %s --tc-set-machine="machine-file=%t.broken.json" 2>&1 | FileCheck %s --check-prefix=JSON

// OPTS: module attributes {tc.machine = #tc.machine<procs = 4, mem = 67108864, net_bw = 2.000000e+08, disk_bw = 8.000000e+06, elem_bytes = 8, bcast_factor = 1.000000e+00, reduce_factor = 1.000000e+00, latency = 1.000000e-05>}
// FILE: module attributes {tc.machine = #tc.machine<procs = 16, mem = 1000000000, net_bw = 1.600000e+09, disk_bw = 1.000000e+07, elem_bytes = 4, bcast_factor = 2.000000e+00, reduce_factor = 1.400000e+00, latency = 1.000000e-05>}
// OVERRIDE: #tc.machine<procs = 9, mem = 1000000000,
// KEEP: #tc.machine<procs = 16, mem = 2147483648, net_bw = 1.600000e+09,
// MISSING: error: the machine model lacks 'mem': give it as an option, in a machine file or in the module's tc.machine attribute
// UNIT: error: option mem=64mb is not a size or rate
// KEY: error: machine file '{{.*}}.bad.json': unknown key 'memory'; expected one of procs, mem, net_bw, disk_bw, elem_bytes, bcast_factor, reduce_factor, flop_rate, latency, volumes
// NOFILE: error: machine file '{{.*}}.missing.json': No such file or directory
// JSON: error: machine file '{{.*}}.broken.json': {{.*}}
module {
}

// CALIBRATED: tc.machine = #tc.machine<procs = 4, mem = 1000000000
