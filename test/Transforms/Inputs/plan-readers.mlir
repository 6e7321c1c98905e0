// The program of plan-readers.mlir (docs/Derivations.md D59): P = A B and two
// statements reading P, S under other labels (renamed position by position);
// also plan_options.py's input for plan-sweeps.
module attributes {tc.machine = #tc.machine<procs = 2, mem = "1GB", net_bw = "200MB/s", disk_bw = "200MB/s">} {
  func.func @p_s1(%a: tensor<64x64xf64> {tc.name = "A"}, %b: tensor<64x64xf64> {tc.name = "B"}) -> (tensor<64x64xf64> {tc.name = "P"}) attributes {tc.intermediate, tc.in_memory, tc.statement = "P (1)"} {
    %0 = tc.contract [i, j] = %a[i, k] * %b[k, j] {tc.name = "P"} : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %0 : tensor<64x64xf64>
  }
  func.func @p_s2(%p: tensor<64x64xf64> {tc.name = "P"}, %q: tensor<64x64xf64> {tc.name = "Q"}) -> (tensor<64x64xf64> {tc.name = "R"}) attributes {tc.statement = "R (2)"} {
    %0 = tc.contract [j, x] = %p[i, j] * %q[i, x] {tc.name = "R"} : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %0 : tensor<64x64xf64>
  }
  func.func @p_s3(%p: tensor<64x64xf64> {tc.name = "P"}, %q: tensor<64x64xf64> {tc.name = "Q2"}) -> (tensor<64x64xf64> {tc.name = "S"}) attributes {tc.statement = "S (3)"} {
    %0 = tc.contract [n, y] = %p[m, n] * %q[m, y] {tc.name = "S"} : tensor<64x64xf64>, tensor<64x64xf64> -> tensor<64x64xf64>
    return %0 : tensor<64x64xf64>
  }
}
