// RUN: tc-opt %s --tc-lower-fused --verify-diagnostics --split-input-file
// Hand-written #tc.fusion attributes the lowering cannot follow are refused with
// the array and the field, never silently replaced.

// A plan the lowering cannot run is refused with the reason, naming the array.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "256KB", net_bw = "1GB/s", disk_bw = "200MB/s">} {
  // expected-error @+1 {{array B of @missing has no #tc.fusion; run tc-fuse-distribute first}}
  func.func @missing(%A: tensor<8x8xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[i, j]>, final = <[i, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                     %B: tensor<8x8xf64>, %C: tensor<8x8xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, k]>, final = <[j, k]>, memory = 0.0 : f64, comm = 0.0 : f64>})
      -> tensor<8x8xf64>
      attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 2.56e5 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    %T = tc.contract [i, k] = %A[i, j] * %B[j, k] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[i, k]>, initial = <[i, k]>, final = <[i, k]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    %R = tc.contract [i, l] = %T[i, k] * %C[k, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[i, l]>, initial = <[i, l]>, final = <[i, l]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %R : tensor<8x8xf64>
  }
}

// -----

// A recorded initial distribution that the decisions do not produce.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "256KB", net_bw = "1GB/s", disk_bw = "200MB/s", volumes = runtime>} {
  // expected-error @+1 {{the #tc.fusion of array T2 records initial = #tc.dist<[*, l]>, but its decisions (compute, fused, partial_sums) give #tc.dist<[t, *]>}}
  func.func @tree(%A: tensor<16x8x12xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[t, j]>, final = <[t, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %B: tensor<8x10xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, l]>, final = <[*, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %C: tensor<10x6xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[l, m]>, final = <[*, m]>, memory = 0.0 : f64, comm = 0.0 : f64>})
      -> (tensor<12x6xf64> {tc.name = "S"})
      attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 2.56e5 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    %T1 = tc.sum [j, t] = %A[i, j, t] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[t, j]>, final = <[t, j]>, fused = ["t"], memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<16x8x12xf64> -> tensor<8x12xf64>
    %T2 = tc.contract [t, l] = %T1[j, t] * %B[j, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[*, l]>, final = <[t, *]>, partial_sums = to_all, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x12xf64>, tensor<8x10xf64> -> tensor<12x10xf64>
    %S = tc.contract [t, m] = %T2[t, l] * %C[l, m] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, m]>, initial = <[t, m]>, final = <[t, m]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<12x10xf64>, tensor<10x6xf64> -> tensor<12x6xf64>
    return %S : tensor<12x6xf64>
  }
}

// -----

// A fused loop over an index the tree does not have.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "256KB", net_bw = "1GB/s", disk_bw = "200MB/s", volumes = runtime>} {
  // expected-error @+1 {{the #tc.fusion of array T1 fuses 'zz', which is no index of the tree}}
  func.func @tree(%A: tensor<16x8x12xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[t, j]>, final = <[t, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %B: tensor<8x10xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, l]>, final = <[*, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %C: tensor<10x6xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[l, m]>, final = <[*, m]>, memory = 0.0 : f64, comm = 0.0 : f64>})
      -> (tensor<12x6xf64> {tc.name = "S"})
      attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 2.56e5 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    %T1 = tc.sum [j, t] = %A[i, j, t] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[t, j]>, final = <[t, j]>, fused = ["zz"], memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<16x8x12xf64> -> tensor<8x12xf64>
    %T2 = tc.contract [t, l] = %T1[j, t] * %B[j, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[t, *]>, final = <[t, *]>, partial_sums = to_all, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x12xf64>, tensor<8x10xf64> -> tensor<12x10xf64>
    %S = tc.contract [t, m] = %T2[t, l] * %C[l, m] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, m]>, initial = <[t, m]>, final = <[t, m]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<12x10xf64>, tensor<10x6xf64> -> tensor<12x6xf64>
    return %S : tensor<12x6xf64>
  }
}

// -----

// tc_main is the program's entry, which tc generates: another symbol of that name
// is an error, not a second definition or a crash.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "256KB", net_bw = "1GB/s", disk_bw = "200MB/s", volumes = runtime>} {
  // expected-error @+1 {{'tc_main' is the program's entry, which tc generates: a function with a body, no arguments and no results; rename this symbol}}
  func.func private @tc_main()
  func.func @tree(%A: tensor<16x8x12xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[t, j]>, final = <[t, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %B: tensor<8x10xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, l]>, final = <[*, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                  %C: tensor<10x6xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[l, m]>, final = <[*, m]>, memory = 0.0 : f64, comm = 0.0 : f64>})
      -> (tensor<12x6xf64> {tc.name = "S"})
      attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 2.56e5 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    %T1 = tc.sum [j, t] = %A[i, j, t] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[t, j]>, final = <[t, j]>, fused = ["t"], memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<16x8x12xf64> -> tensor<8x12xf64>
    %T2 = tc.contract [t, l] = %T1[j, t] * %B[j, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, j]>, initial = <[t, *]>, final = <[t, *]>, partial_sums = to_all, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x12xf64>, tensor<8x10xf64> -> tensor<12x10xf64>
    %S = tc.contract [t, m] = %T2[t, l] * %C[l, m] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[t, m]>, initial = <[t, m]>, final = <[t, m]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<12x10xf64>, tensor<10x6xf64> -> tensor<12x6xf64>
    return %S : tensor<12x6xf64>
  }
}

// -----

// A hand-written plan whose tree reads an intermediate under other labels than
// its formula writes: the lowering would join two loops, so it refuses.
module attributes {tc.machine = #tc.machine<procs = 4, mem = "256KB", net_bw = "1GB/s", disk_bw = "200MB/s">} {
  func.func @relabelled(%A: tensor<8x8xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[i, j]>, final = <[i, j]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                        %B: tensor<8x8xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, k]>, final = <[j, k]>, memory = 0.0 : f64, comm = 0.0 : f64>},
                        %C: tensor<8x8xf64> {tc.fusion = #tc.fusion<grid = <[2, 2]>, initial = <[j, k]>, final = <[j, k]>, memory = 0.0 : f64, comm = 0.0 : f64>})
      -> tensor<8x8xf64>
      attributes {tc.fusion_plan = #tc.fusion_plan<grid = <[2, 2]>, memory = 0.0 : f64, limit = 2.56e5 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} {
    // expected-error @+1 {{names two loops of its operator tree 'j'}}
    %T = tc.contract [i, k] = %A[i, j] * %B[j, k] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[i, k]>, initial = <[i, k]>, final = <[i, k]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    %R = tc.contract [i, l] = %T[i, j] * %C[j, l] {tc.fusion = #tc.fusion<grid = <[2, 2]>, compute = <[i, l]>, initial = <[i, l]>, final = <[i, l]>, memory = 0.0 : f64, comm = 0.0 : f64, calc = 0.0 : f64>} : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
    return %R : tensor<8x8xf64>
  }
}
