// RUN: tc-opt %s --tc-plan="procs=4 mem=16MB disk-bw=8MB/s net-bw=200MB/s report=%t.json table=%t.txt" -o /dev/null
// RUN: FileCheck %s < %t.txt
// RUN: %python -c "import json,sys; r = json.load(open(sys.argv[1]))['contractions'][0]; t = r['lower_bounds']['traffic_bytes']; print('traffic', t > 0, all(c['disk_bytes'] + c['comm_bytes'] >= t and c['disk_bytes'] >= c['lower_bounds']['disk_bytes'] and c['comm_bytes'] >= c['lower_bounds']['comm_bytes'] for c in r['candidates']), len(r['candidates']))" %t.json | FileCheck %s --check-prefix=JSON
// The report's bounds are figures no plan of their kind beats (D37): for every
// plan the data a process brings into memory by disk and network together,
// and per candidate a disk bound less what it receives and a network bound
// less what it reads. 3000^3 on 4 processes of 16 MB: the chosen plan receives
// A and reads 9.0e7 disk bytes, below the disk-only figure reported before.
// CHECK: bound    (any plan)     -      -         disk + network (D37) {{ *}}5.415e+07
// JSON: traffic True True {{[1-9][0-9]*}}
func.func @f(%A: tensor<3000x3000xf64>, %B: tensor<3000x3000xf64>, %C: tensor<3000x3000xf64>) -> tensor<3000x3000xf64> {
  %r = tc.contract %C[i, j] += %A[i, k] * %B[j, k] : tensor<3000x3000xf64>, tensor<3000x3000xf64> -> tensor<3000x3000xf64>
  return %r : tensor<3000x3000xf64>
}
