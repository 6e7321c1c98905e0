// COSMA's grid may leave up to 3% of the processes idle (Kwasniewski et al.
// section 7.1, Fig. 5). 16384^3 on 65 processes: every grid of 65 is an order
// of 13 x 5 x 1, and [4, 4, 4] on 64 cuts the busiest rank's bytes by 42.9%
// (528,714,200 -> 301,989,888) for 65/64 of the flops on each used process.
// The machine's flop rate prices that: at 10 GFlop/s per process the idle
// rank's share costs 0.21 s of the 1.13 s saved (seconds = 301989888 / 2e8 +
// 2 16384^3 (1/64 - 1/65) / 1e10 = 1.7214), so the plan leaves it idle; at the
// default 1 GFlop/s it would cost 2.1 s and every process is used. (MLIR
// prints the two exact byte counts in hexadecimal: 0x41B2000000000000 is
// 301,989,888, 0x41BF8389D8000000 is 528,714,200.)
// A hand-written grid of fewer processes than the machine's is COSMA's to keep
// (the others stay idle), planned on that grid.
// latency=0: the papers' model, which these plans reproduce; tc's default
// latency would run contractions this small whole on every process (D58).
// RUN: tc-opt %s --tc-plan="procs=65 mem=1GB net-bw=200MB/s disk-bw=8MB/s flop-rate=1e10 latency=0" 2>/dev/null | FileCheck %s --check-prefixes=CHECK,FAST
// RUN: tc-opt %s --tc-plan="procs=65 mem=1GB net-bw=200MB/s disk-bw=8MB/s latency=0" 2>/dev/null | FileCheck %s --check-prefixes=CHECK,SLOW

module {
  // CHECK-LABEL: func.func @figure5
  // FAST: tc.plan = #tc.plan<in_core = true, algorithm = #tc.cosma<rounds = {k = 8 : i64}>, grid = <[4, 4, 4]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>, disk_bytes = 0.000000e+00 : f64, comm_bytes = 0x41B2000000000000 : f64, seconds = 1.72139{{[0-9]*}} : f64>
  // SLOW: tc.plan = #tc.plan<in_core = true, algorithm = #tc.cosma<rounds = {k = {{[0-9]+}} : i64}>, grid = <[5, 1, 13]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>, disk_bytes = 0.000000e+00 : f64, comm_bytes = 0x41BF8389D8000000 : f64, seconds = 2.643571{{[0-9]*}} : f64>
  func.func @figure5(%A: tensor<16384x16384xf64>, %B: tensor<16384x16384xf64>) -> tensor<16384x16384xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] : tensor<16384x16384xf64>, tensor<16384x16384xf64> -> tensor<16384x16384xf64>
    return %r : tensor<16384x16384xf64>
  }
  // [2, 3, 1] on 65: 59 processes idle. Its busiest rank receives 11,448
  // bytes; the flops the idle processes leave to the 6 others are charged too.
  // CHECK-LABEL: func.func @given
  // CHECK: tc.plan = #tc.plan<in_core = true, algorithm = cosma, grid = <[2, 3, 1]>, dist_a = <[i, *, k]>, dist_b = <[*, j, k]>, dist_c = <[i, j, *]>, disk_bytes = 0.000000e+00 : f64, comm_bytes = 1.144800e+04 : f64, seconds =
  func.func @given(%A: tensor<61x53xf64>, %B: tensor<53x37xf64>) -> tensor<61x37xf64> {
    %r = tc.contract [i, j] = %A[i, k] * %B[k, j] {tc.plan = #tc.plan<algorithm = cosma, grid = <[2, 3, 1]>>} : tensor<61x53xf64>, tensor<53x37xf64> -> tensor<61x37xf64>
    return %r : tensor<61x37xf64>
  }
}
