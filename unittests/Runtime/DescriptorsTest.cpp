//===- DescriptorsTest.cpp - the compiler/runtime ABI ---------------------===//
//
// The encoders of include/TC/Runtime/Descriptors.h give exactly the int64
// sequences tc-lower-to-runtime emits (the expected arrays are its output for
// the ops named next to them), the views read every field back, the C helpers
// agree with the C++ views, and tc_rt_check_abi accepts only this version.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "DescriptorsC.h"
#include "TC/Runtime/Runtime.h"
#include "TestArrays.h"

#include <gtest/gtest.h>

using namespace tc_rt;
using tc_rt::abiMismatch;
using tc_rt::test::layoutOf;

namespace {

TEST(Descriptors, ArrayMatchesTheCompiler) {
  // tc.array "A" init input {on_disk}
  //   : !tc.array<f64, #tc.layout<distributed [64, 64] on [2, 2] dims [0, 1] skew [-1, 0]>>
  ArrayDesc a{layoutOf(TC_RT_DISTRIBUTED, {2, 2}, {{64, 0, -1, 0}, {64, 1, 0, 1}}),
              TC_RT_INIT_INPUT, true};
  Desc expect = {2, 0, 0, 1, 0, 0, 2, 2, 2, 64, 0, -1, 0, -1, 0, 64, 1, 0, 1, -1, 0, 0};
  EXPECT_EQ(a.encode(), expect);
  ArrayDescView av(expect.data());
  EXPECT_TRUE(av.onDisk());
  EXPECT_EQ(av.elem(), TC_RT_F64);
  EXPECT_EQ(av.kind(), TC_RT_DISTRIBUTED);
  EXPECT_EQ(av.gridDim(1), 1);
  EXPECT_EQ(av.skew(0), -1);
  EXPECT_EQ(av.skew(1), 0);
  EXPECT_EQ(av.splitDim(0), -1);
  EXPECT_EQ(av.cyclic(1), 0);
  EXPECT_EQ(av.decode().encode(), expect);
  EXPECT_EQ(av.firstSlice(), 0);

  // tc.array "F" init zero : !tc.array<f64, #tc.layout<distributed [8] on [2, 2] dims [0]
  //   skew [-1] first_slice [1]>>: held by coordinate 0 of grid dimension 1
  ArrayDesc f{layoutOf(TC_RT_DISTRIBUTED, {2, 2}, {{8, 0, -1, 0}}, {}, /*firstSlice=*/2),
              TC_RT_INIT_ZERO, false};
  Desc first = {1, 0, 1, 0, 0, 2, 2, 2, 2, 8, 0, -1, 0, -1, 0, 0};
  EXPECT_EQ(f.encode(), first);
  EXPECT_EQ(ArrayDescView(first.data()).firstSlice(), 2);
  EXPECT_EQ(ArrayDescView(first.data()).decode().encode(), first);

  // tc.array "C" init root_input : !tc.array<f32, #tc.layout<replicated [8, 6, 4] on [4]
  //   dims [-1, -1, -1] skew [-1, -1, -1] file_dims [2, 0, 1]>>
  ArrayDesc c{layoutOf(TC_RT_REPLICATED, {4}, {{8, -1, -1, 2}, {6, -1, -1, 0}, {4, -1, -1, 1}}),
              TC_RT_INIT_ROOT_INPUT, false};
  c.elem = TC_RT_F32;
  expect = {3, 1, 2, 0, 1, 0, 1, 4, 8, -1, -1, 2, -1, 0, 6, -1, -1, 0, -1, 0, 4, -1, -1, 1, -1, 0, 0};
  EXPECT_EQ(c.encode(), expect);
  ArrayDescView v(expect.data());
  EXPECT_EQ(v.rank(), 3);
  EXPECT_EQ(v.kind(), TC_RT_REPLICATED);
  EXPECT_EQ(v.init(), TC_RT_INIT_ROOT_INPUT);
  EXPECT_FALSE(v.onDisk());
  EXPECT_EQ(v.elem(), TC_RT_F32);
  EXPECT_EQ(v.gridRank(), 1);
  EXPECT_EQ(v.grid(), Desc({4}));
  EXPECT_EQ(v.shape(), Desc({8, 6, 4}));
  EXPECT_EQ(v.gridDim(1), -1);
  EXPECT_EQ(v.skew(2), -1);
  EXPECT_EQ(v.fileDim(0), 2);
  EXPECT_EQ(v.fileDim(2), 1);
  EXPECT_EQ(v.size(), static_cast<int64_t>(expect.size()));
  EXPECT_EQ(v.decode().encode(), expect);

  // tc.array "A" init input : !tc.array<f64, #tc.layout<distributed [6] on [2] dims [0]
  //   skew [-1] file_dims [1] summed_file_dims [0, 2] summed_extents [3, 5]>>:
  //   A[s, i, t] loaded summed over s, t.
  ArrayDesc s{layoutOf(TC_RT_DISTRIBUTED, {2}, {{6, 0, -1, 1}}, {{0, 3}, {2, 5}}), TC_RT_INIT_INPUT,
              false};
  expect = {1, 0, 0, 0, 0, 0, 1, 2, 6, 0, -1, 1, -1, 0, 2, 0, 3, 2, 5};
  EXPECT_EQ(s.encode(), expect);
  ArrayDescView sv(expect.data());
  EXPECT_EQ(sv.layout().summedFileDim, (Desc{0, 2}));
  EXPECT_EQ(sv.layout().summedExtent, (Desc{3, 5}));
  EXPECT_EQ(sv.size(), static_cast<int64_t>(expect.size()));
  EXPECT_EQ(tc_test_c_array_size(expect.data()), sv.size());
  EXPECT_EQ(sv.decode().encode(), expect);
}

TEST(Descriptors, SplitDimension) {
  // A COSMA-style A[m, k] on [2, 3, 2]: m split along grid dimension 0, its
  // blocks split again along 2; k whole (its record's split_dim at -1).
  ArrayDesc a{layoutOf(TC_RT_DISTRIBUTED, {2, 3, 2}, {{13, 0, -1, 0, 2}, {7, -1, -1, 1}}),
              TC_RT_INIT_INPUT, false};
  Desc expect = {2, 0, 0, 0, 0, 0, 3, 2, 3, 2, 13, 0, -1, 0, 2, 0, 7, -1, -1, 1, -1, 0, 0};
  EXPECT_EQ(a.encode(), expect);
  ArrayDescView v(expect.data());
  EXPECT_EQ(v.splitDim(0), 2);
  EXPECT_EQ(v.splitDim(1), -1);
  EXPECT_EQ(v.layout().splitDim, (Desc{2, -1}));
  EXPECT_EQ(v.layout().verify(), "");
  EXPECT_EQ(v.size(), static_cast<int64_t>(expect.size()));
  EXPECT_EQ(v.decode().encode(), expect);
}

TEST(Descriptors, CyclicDimension) {
  // ScaLAPACK's B[k, n] on a [2, 3] template: blocks of 4 rows dealt along grid
  // dimension 0, of 2 columns along 1.
  ArrayDesc b{layoutOf(TC_RT_DISTRIBUTED, {2, 3}, {{13, 0, -1, 0, -1, 4}, {7, 1, -1, 1, -1, 2}}),
              TC_RT_INIT_INPUT, false};
  Desc expect = {2, 0, 0, 0, 0, 0, 2, 2, 3, 13, 0, -1, 0, -1, 4, 7, 1, -1, 1, -1, 2, 0};
  EXPECT_EQ(b.encode(), expect);
  ArrayDescView v(expect.data());
  EXPECT_EQ(v.cyclic(0), 4);
  EXPECT_EQ(v.cyclic(1), 2);
  EXPECT_EQ(v.layout().cyclic, (Desc{4, 2}));
  EXPECT_EQ(v.layout().splitDim, (Desc{-1, -1}));
  EXPECT_EQ(v.size(), static_cast<int64_t>(expect.size()));
  EXPECT_EQ(v.decode().encode(), expect);
  EXPECT_EQ(TC_RT_ARRAY_DIM_FIELDS, 6);
  EXPECT_EQ(TC_RT_API_VERSION, 17);
}

TEST(Descriptors, CyclicPanel) {
  // The panel of B's row blocks for MDB2 on a [2, 3] template: modulus 3,
  // buffer ceil(ceil(13 / 4) / 3) * 4 = 8 rows by B's 4 stored columns.
  Desc expect = {2, 0, 3, 8, 4};
  EXPECT_EQ((CyclicPanelDesc{0, 3, {8, 4}}.encode()), expect);
  CyclicPanelDescView v(expect.data());
  EXPECT_EQ(v.rank(), 2);
  EXPECT_EQ(v.dim(), 0);
  EXPECT_EQ(v.modulus(), 3);
  EXPECT_EQ(v.extent(1), 4);
  EXPECT_EQ(v.shape(), Desc({8, 4}));
  EXPECT_EQ(v.size(), 5);
  EXPECT_EQ(v.decode().encode(), expect);
}

TEST(Descriptors, TilesMatchTheCompiler) {
  // tc.read_tile ... {root_only} : memref<16x32xf64>
  Desc read = {2, 1, 16, 32};
  EXPECT_EQ((TileDesc{{16, 32}, true}.encode()), read);
  TileDescView r(read.data());
  EXPECT_EQ(r.rank(), 2);
  EXPECT_TRUE(r.rootOnly());
  EXPECT_EQ(r.extent(1), 32);
  EXPECT_EQ(r.shape(), Desc({16, 32}));
  EXPECT_EQ(r.size(), 4);
  EXPECT_EQ(r.decode().encode(), read);
  // tc.write_tile and tc.broadcast_tile of a memref<16x16xf64>
  EXPECT_EQ((TileDesc{{16, 16}}.encode()), Desc({2, 0, 16, 16}));
  EXPECT_FALSE(TileDescView(TileDesc{{16, 16}}.encode().data()).rootOnly());

  // tc.shift_tile %a[%i, %k] sizes [16, 16] along 1 of %A : memref<16x32xf64>
  Desc shift = {2, 1, 16, 32, 16, 16};
  EXPECT_EQ((ShiftTileDesc{1, {16, 32}, {16, 16}}.encode()), shift);
  ShiftTileDescView s(shift.data());
  EXPECT_EQ(s.rank(), 2);
  EXPECT_EQ(s.gridDim(), 1);
  EXPECT_EQ(s.shape(), Desc({16, 32}));
  EXPECT_EQ(s.subshape(), Desc({16, 16}));
  EXPECT_EQ(s.size(), 6);
  EXPECT_EQ(s.decode().encode(), shift);

  // tc.allreduce_tile %c : memref<16x8xf32>
  Desc sum = {2, 1, 16, 8};
  EXPECT_EQ((AllReduceTileDesc{{16, 8}, TC_RT_F32}.encode()), sum);
  AllReduceTileDescView ar(sum.data());
  EXPECT_EQ(ar.rank(), 2);
  EXPECT_EQ(ar.elem(), TC_RT_F32);
  EXPECT_EQ(ar.shape(), Desc({16, 8}));
  EXPECT_EQ(ar.elements(), 128);
  EXPECT_EQ(ar.size(), 4);
  EXPECT_EQ(ar.decode().encode(), sum);
}

TEST(Descriptors, TileContractMatchesTheCompiler) {
  // tc.tile_contract %c[..] ["i", "j"] += %a[..] ["i", "k", "l"] * %b[..] ["j", "k", "l"]
  //   extents {i = 16, j = 8, k = 4, l = 2} {a_steps = array<i64: 1, 2, 1>, alpha = 0.5}
  //   : memref<16x32x2xf64>, memref<8x32x2xf64> -> memref<16x8xf64>
  TileContractDesc d{{{16, 32, 2}, {0, 2, 3}, {1, 2, 1}},
                     {{8, 32, 2}, {1, 2, 3}},
                     {{16, 8}, {0, 1}},
                     {16, 8, 4, 2},
                     TC_RT_F64,
                     0.5};
  // alpha travels as the bits of its IEEE double.
  Desc expect = {3, 3, 2, 0, 4602678819172646912, 16, 32, 2, 8, 32, 2, 16, 8, 0, 2, 3, 1, 2, 3,
                 0, 1, 1, 2, 1, 1, 1, 1, 1, 1, 4, 16, 8, 4, 2};
  EXPECT_EQ(d.encode(), expect);

  TileContractDescView v(expect.data());
  EXPECT_EQ(v.elem(), TC_RT_F64);
  EXPECT_EQ(v.alpha(), 0.5);
  EXPECT_EQ(tc_rt_contract_alpha(expect.data()), 0.5);
  EXPECT_EQ(v.rank(TC_RT_OPERAND_A), 3);
  EXPECT_EQ(v.rank(TC_RT_OPERAND_C), 2);
  EXPECT_EQ(v.shape(TC_RT_OPERAND_A), Desc({16, 32, 2}));
  EXPECT_EQ(v.shape(TC_RT_OPERAND_B), Desc({8, 32, 2}));
  EXPECT_EQ(v.shape(TC_RT_OPERAND_C), Desc({16, 8}));
  EXPECT_EQ(v.labels(TC_RT_OPERAND_A), Desc({0, 2, 3}));
  EXPECT_EQ(v.labels(TC_RT_OPERAND_B), Desc({1, 2, 3}));
  EXPECT_EQ(v.labels(TC_RT_OPERAND_C), Desc({0, 1}));
  EXPECT_EQ(v.steps(TC_RT_OPERAND_A), Desc({1, 2, 1}));
  EXPECT_EQ(v.steps(TC_RT_OPERAND_B), Desc({1, 1, 1}));
  EXPECT_EQ(v.offsetIndex(TC_RT_OPERAND_A), 0);
  EXPECT_EQ(v.offsetIndex(TC_RT_OPERAND_B), 3);
  EXPECT_EQ(v.offsetIndex(TC_RT_OPERAND_C), 6);
  EXPECT_EQ(v.numLabels(), 4);
  EXPECT_EQ(v.labelExtent(2), 4);
  EXPECT_EQ(v.labelExtents(), Desc({16, 8, 4, 2}));
  EXPECT_EQ(v.size(), static_cast<int64_t>(expect.size()));
  EXPECT_EQ(v.decode().encode(), expect);
  EXPECT_EQ(&d.operand(TC_RT_OPERAND_B), &d.b);
}

TEST(Descriptors, SliceMatchesTheCompiler) {
  // tc.load_slice %C [1000, 70, 40] at [...]
  Desc expect = {3, 1000, 70, 40};
  EXPECT_EQ((SliceDesc{{1000, 70, 40}}.encode()), expect);
  SliceDescView v(expect.data());
  EXPECT_EQ(v.rank(), 3);
  EXPECT_EQ(v.extent(1), 70);
  EXPECT_EQ(v.shape(), Desc({1000, 70, 40}));
  EXPECT_EQ(v.size(), 4);
  EXPECT_EQ(v.decode().encode(), expect);
}

TEST(Descriptors, BlockArrayMatchesTheCompiler) {
  // tc.block_array "A" homes [0, 1] init input {on_disk}
  //   : !tc.block_array<tensor<3x4xf64, #tc.blocks<[[2, 1], [2, 2]], symmetry = 0>>>
  BlockArrayDesc a{TC_RT_INIT_INPUT, 1, TC_RT_F64, {{2, 1}, {2, 2}}, {{0, 0}, {1, 1}}, {0, 1}};
  Desc expect = {2, 0, 1, 0, 2, 0, 0, 2, 2, 2, 1, 2, 2, 0, 0, 0, 1, 1, 1};
  EXPECT_EQ(a.encode(), expect);
  BlockArrayDescView v(expect.data());
  EXPECT_EQ(v.rank(), 2);
  EXPECT_TRUE(v.onDisk());
  EXPECT_FALSE(v.restricted());
  EXPECT_EQ(v.init(), TC_RT_INIT_INPUT);
  EXPECT_EQ(v.numBlocks(), 2);
  EXPECT_EQ(v.segments(0), (Desc{2, 1}));
  EXPECT_EQ(v.segments(1), (Desc{2, 2}));
  EXPECT_EQ(v.block(1), (Desc{1, 1}));
  EXPECT_EQ(v.home(1), 1);
  EXPECT_EQ(v.size(), static_cast<int64_t>(expect.size()));
  EXPECT_EQ(v.decode().encode(), expect);
}

TEST(Descriptors, RestrictedBlockArrayCarriesItsFlip) {
  // tc.block_array "R" homes [0, 1] init zero
  //   : !tc.block_array<tensor<2x2xf64, #tc.blocks<[[1, 1], [1, 1]], flip = [[1, 0], [1, 0]]>>>
  BlockArrayDesc r{TC_RT_INIT_ZERO,  0,      TC_RT_F64,       {{1, 1}, {1, 1}},
                   {{0, 0}, {0, 1}}, {0, 1}, {{1, 0}, {1, 0}}};
  Desc expect = {2, 1, 0, 0, 2, 1, 0, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 0};
  EXPECT_EQ(r.encode(), expect);
  BlockArrayDescView v(expect.data());
  EXPECT_TRUE(v.restricted());
  EXPECT_EQ(v.flip(0), (Desc{1, 0}));
  EXPECT_EQ(v.flip(1), (Desc{1, 0}));
  EXPECT_EQ(v.size(), static_cast<int64_t>(expect.size()));
  EXPECT_EQ(v.decode().encode(), expect);
}

TEST(Descriptors, PairSymmetricBlockArrayCarriesItsPairs) {
  // tc.block_array "T" homes [0, 0, 1] init zero : !tc.block_array<tensor<2x2xf64,
  //   #tc.blocks<[[1, 1], [1, 1]], antisymmetric = [[0, 1]]>>>
  BlockArrayDesc t{TC_RT_INIT_ZERO,          0,         TC_RT_F64, {{1, 1}, {1, 1}},
                   {{0, 0}, {0, 1}, {1, 1}}, {0, 0, 1}, {},        {{0, 1, 1}}};
  Desc expect = {2, 1, 0, 0, 3, 0, 1, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1};
  EXPECT_EQ(t.encode(), expect);
  BlockArrayDescView v(expect.data());
  EXPECT_FALSE(v.restricted());
  EXPECT_EQ(v.numPairs(), 1);
  EXPECT_EQ(v.pairs(0), (Desc{0, 1, 1}));
  EXPECT_EQ(v.home(2), 1);
  EXPECT_EQ(v.size(), static_cast<int64_t>(expect.size()));
  EXPECT_EQ(v.decode().encode(), expect);
}

TEST(Descriptors, BlockPlanMatchesTheCompiler) {
  // tc.block_stage %s, %C[0, 1] += %A[0, 2] * %B[2, 1]
  //   tasks [0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1] reads [1, 1, 0, 0, 1, -1]
  //   cached [1, 1, 0, 1] alpha 0.5 stages 2
  BlockPlanDesc p{
      {{0, 2}, {2, 1}, {0, 1}}, {{0, 0, 0, 1, 0, 0}, {1, 1, 1, 1, 1, 1}}, 2, {{1, 1, 0, 1}}, 0.5,
      {{1, {1, 0}, {0, 1}, -1}}};
  Desc expect = {2, 2, 2, 2, 2, 1, 4602678819172646912,
                 1, 0, 2, 2, 1, 0, 1,
                 0, 0, 0, 1, 0, 0, 1,
                 1, 1, 1, 1, 1, 1, 1,
                 0, 1, 1, 1, 0, 0, 1,
                 -1};
  EXPECT_EQ(p.encode(), expect);
  BlockPlanDescView v(expect.data());
  EXPECT_EQ(v.numTasks(), 2);
  EXPECT_EQ(v.numStages(), 2);
  EXPECT_EQ(v.numCached(), 1);
  EXPECT_EQ(v.alpha(), 0.5);
  EXPECT_EQ(v.labels(1), (Desc{2, 1}));
  EXPECT_EQ(v.task(1).rank, 1);
  EXPECT_EQ(v.task(1).stage, 1);
  EXPECT_EQ(v.task(0).c, 0);
  EXPECT_EQ(v.task(1).step, 1);
  EXPECT_EQ(v.cachedRead(0).tensor, 1);
  EXPECT_EQ(v.cachedRead(0).rank, 1);
  EXPECT_EQ(v.numReads(), 1);
  EXPECT_EQ(v.read(0).task, 1);
  EXPECT_EQ(v.read(0).aDims, (Desc{1, 0}));
  EXPECT_EQ(v.read(0).bDims, (Desc{0, 1}));
  EXPECT_EQ(v.read(0).factor, -1);
  EXPECT_EQ(v.size(), static_cast<int64_t>(expect.size()));
  EXPECT_EQ(v.decode().encode(), expect);
}

TEST(Descriptors, CAgreesWithCxx) {
  EXPECT_EQ(tc_test_c_api_version(), TC_RT_API_VERSION);
  // Every field off its default (not a layout tc holds: the C view reads any).
  Desc a = ArrayDesc{layoutOf(TC_RT_SLAB, {2, 3}, {{5, 0, 1, 1, 1, 3}, {7, -1, -1, 0}}),
                     TC_RT_INIT_ZERO, false}
               .encode();
  ArrayDescView av(a.data());
  for (int64_t d = 0; d < 2; ++d) {
    EXPECT_EQ(tc_test_c_array_field(a.data(), d, TC_RT_ARRAY_DIM_EXTENT), av.extent(d));
    EXPECT_EQ(tc_test_c_array_field(a.data(), d, TC_RT_ARRAY_DIM_GRID_DIM), av.gridDim(d));
    EXPECT_EQ(tc_test_c_array_field(a.data(), d, TC_RT_ARRAY_DIM_SKEW_DIM), av.skew(d));
    EXPECT_EQ(tc_test_c_array_field(a.data(), d, TC_RT_ARRAY_DIM_FILE_DIM), av.fileDim(d));
    EXPECT_EQ(tc_test_c_array_field(a.data(), d, TC_RT_ARRAY_DIM_SPLIT_DIM), av.splitDim(d));
    EXPECT_EQ(tc_test_c_array_field(a.data(), d, TC_RT_ARRAY_DIM_CYCLIC), av.cyclic(d));
  }
  EXPECT_EQ(tc_test_c_array_size(a.data()), static_cast<int64_t>(a.size()));

  Desc t = TileDesc{{3, 4, 5}}.encode();
  EXPECT_EQ(tc_test_c_tile_size(t.data()), static_cast<int64_t>(t.size()));
  Desc s = ShiftTileDesc{0, {6, 4}, {3, 2}}.encode();
  EXPECT_EQ(tc_test_c_shift_sub(s.data(), 0), 3);
  EXPECT_EQ(tc_test_c_shift_sub(s.data(), 1), 2);
  EXPECT_EQ(tc_test_c_shift_size(s.data()), static_cast<int64_t>(s.size()));
  Desc r = AllReduceTileDesc{{9}}.encode();
  EXPECT_EQ(tc_test_c_allreduce_size(r.data()), static_cast<int64_t>(r.size()));
  Desc sl = SliceDesc{{9, 8}}.encode();
  EXPECT_EQ(tc_test_c_slice_size(sl.data()), static_cast<int64_t>(sl.size()));
  Desc pa = CyclicPanelDesc{1, 2, {6, 9, 4}}.encode();
  CyclicPanelDescView pv(pa.data());
  EXPECT_EQ(tc_test_c_panel_field(pa.data(), TC_RT_PANEL_DIM), pv.dim());
  EXPECT_EQ(tc_test_c_panel_field(pa.data(), TC_RT_PANEL_MODULUS), pv.modulus());
  EXPECT_EQ(tc_test_c_panel_field(pa.data(), TC_RT_PANEL_SHAPE + 2), pv.extent(2));
  EXPECT_EQ(tc_test_c_panel_size(pa.data()), static_cast<int64_t>(pa.size()));

  Desc c =
      TileContractDesc{{{4, 5}, {0, 2}}, {{5, 6}, {2, 1}, {3, 1}}, {{4, 6}, {0, 1}}, {4, 6, 5}}
          .encode();
  TileContractDescView cv(c.data());
  for (int x : {TC_RT_OPERAND_A, TC_RT_OPERAND_B, TC_RT_OPERAND_C})
    for (int64_t d = 0; d < cv.rank(x); ++d) {
      EXPECT_EQ(tc_test_c_contract_shape(c.data(), x, d), cv.shape(x)[d]);
      EXPECT_EQ(tc_test_c_contract_label(c.data(), x, d), cv.labels(x)[d]);
      EXPECT_EQ(tc_test_c_contract_step(c.data(), x, d), cv.steps(x)[d]);
    }
  for (int64_t l = 0; l < cv.numLabels(); ++l)
    EXPECT_EQ(tc_test_c_contract_extent(c.data(), l), cv.labelExtent(l));
  EXPECT_EQ(tc_test_c_contract_size(c.data()), static_cast<int64_t>(c.size()));

  Desc su = ArrayDesc{layoutOf(TC_RT_DISTRIBUTED, {2}, {{6, 0, -1, 1}}, {{0, 3}, {2, 5}}),
                      TC_RT_INIT_INPUT, false}
                .encode();
  EXPECT_EQ(tc_test_c_array_summed(su.data(), 1, TC_RT_SUMMED_DIM_FILE_DIM), 2);
  EXPECT_EQ(tc_test_c_array_summed(su.data(), 1, TC_RT_SUMMED_DIM_EXTENT), 5);
  EXPECT_EQ(tc_test_c_array_size(su.data()), static_cast<int64_t>(su.size()));

  Desc ba = BlockArrayDesc{TC_RT_INIT_ZERO,          0,        TC_RT_F64, {{2, 1, 4}, {3, 3}},
                           {{0, 0}, {2, 1}, {1, 0}}, {1, 0, 1}}
                .encode();
  BlockArrayDescView bv(ba.data());
  for (int64_t d = 0; d < 2; ++d)
    for (int64_t i = 0; i < bv.numSegments(d); ++i)
      EXPECT_EQ(tc_test_c_block_segment(ba.data(), d, i), bv.segments(d)[i]);
  for (int64_t b = 0; b < bv.numBlocks(); ++b)
    EXPECT_EQ(tc_test_c_block_home(ba.data(), b), bv.home(b));
  EXPECT_EQ(tc_test_c_block_array_size(ba.data()), static_cast<int64_t>(ba.size()));

  Desc bp = BlockPlanDesc{{{0, 2}, {2, 1, 3}, {0, 1, 3}},
                          {{0, 1, 2, 3, 0, 4}, {5, 6, 7, 8, 1, 9}},
                          2,
                          {{1, 0, 7, 1}, {1, 1, 2, 0}}}
                .encode();
  BlockPlanDescView pl(bp.data());
  EXPECT_EQ(tc_test_c_block_task(bp.data(), 1, TC_RT_BLOCK_TASK_C), pl.task(1).c);
  EXPECT_EQ(tc_test_c_block_task(bp.data(), 1, TC_RT_BLOCK_TASK_STEP), pl.task(1).step);
  EXPECT_EQ(tc_test_c_block_cached(bp.data(), 0, TC_RT_BLOCK_CACHED_BLOCK), 7);
  EXPECT_EQ(tc_test_c_block_cached(bp.data(), 1, TC_RT_BLOCK_CACHED_RANK), 0);
  EXPECT_EQ(tc_test_c_block_plan_size(bp.data()), static_cast<int64_t>(bp.size()));
}

TEST(Abi, MatchingVersionRuns) {
  EXPECT_EQ(abiMismatch(TC_RT_API_VERSION), "");
  tc_rt_check_abi(TC_RT_API_VERSION); // returns: a mismatch would end the run
}

TEST(Abi, MismatchNamesBothVersions) {
  // The abort itself: test/Integration/abi-mismatch.mlir.
  EXPECT_EQ(abiMismatch(TC_RT_API_VERSION + 1),
            "this program was compiled for tc runtime ABI " +
                std::to_string(TC_RT_API_VERSION + 1) + ", the runtime is " +
                std::to_string(TC_RT_API_VERSION) + ": recompile with this tc");
  EXPECT_NE(abiMismatch(0), "");
}

// tc_rt_array decodes a descriptor once per address and compares the words
// again only where they may change: a caller's descriptor on the heap that
// takes other words at the same address is decoded again, its arrays made in
// the new layout.
TEST(Descriptors, OtherWordsAtOneAddressDecodeAgain) {
  ctx().options.scratch = "/tmp";
  const Desc wide = arrayDescription({4, 6}, {ctx().size}, {-1, -1}, TC_RT_DISTRIBUTED,
                                     TC_RT_INIT_ZERO, false);
  const Desc tall = arrayDescription({6, 4}, {ctx().size}, {-1, -1}, TC_RT_DISTRIBUTED,
                                     TC_RT_INIT_ZERO, false);
  ASSERT_EQ(wide.size(), tall.size());
  Desc words = wide;
  auto *first = static_cast<DistArray *>(tc_rt_array(words.data(), "x", nullptr));
  EXPECT_EQ(first->extents, Shape({4, 6}));
  releaseArrays();
  std::copy(tall.begin(), tall.end(), words.begin());
  auto *second = static_cast<DistArray *>(tc_rt_array(words.data(), "x", nullptr));
  EXPECT_EQ(second->extents, Shape({6, 4}));
  EXPECT_EQ(second->storeShape, Shape({6, 4}));
  releaseArrays();
}

} // namespace
