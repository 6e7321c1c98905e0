/*===- DescriptorsC.c - the ABI headers from C -----------------------------===//
 *
 * Compiled as strict C11: Runtime.h and Descriptors.h must stay C headers.
 * These functions read descriptions through the C API only, for
 * DescriptorsTest.cpp to compare with the C++ views.
 *
 *===----------------------------------------------------------------------===*/
#include "DescriptorsC.h"
#include "TC/Runtime/Runtime.h"

int64_t tc_test_c_api_version(void) { return TC_RT_API_VERSION; }

int64_t tc_test_c_array_field(const int64_t *desc, int64_t dim, int64_t field) {
  return desc[tc_rt_array_dims(desc, dim) + field];
}
int64_t tc_test_c_array_size(const int64_t *desc) {
  return tc_rt_array_size(desc);
}

int64_t tc_test_c_tile_size(const int64_t *desc) { return tc_rt_tile_size(desc); }

int64_t tc_test_c_shift_sub(const int64_t *desc, int64_t dim) {
  return desc[tc_rt_shift_subshape(desc, dim)];
}
int64_t tc_test_c_shift_size(const int64_t *desc) { return tc_rt_shift_size(desc); }

int64_t tc_test_c_allreduce_size(const int64_t *desc) { return tc_rt_allreduce_size(desc); }

int64_t tc_test_c_contract_shape(const int64_t *desc, int64_t x, int64_t dim) {
  return desc[tc_rt_contract_shape(desc, x) + dim];
}
int64_t tc_test_c_contract_label(const int64_t *desc, int64_t x, int64_t dim) {
  return desc[tc_rt_contract_labels(desc, x) + dim];
}
int64_t tc_test_c_contract_step(const int64_t *desc, int64_t x, int64_t dim) {
  return desc[tc_rt_contract_steps(desc, x) + dim];
}
int64_t tc_test_c_contract_extent(const int64_t *desc, int64_t label) {
  return desc[tc_rt_contract_extents(desc, label)];
}
int64_t tc_test_c_contract_size(const int64_t *desc) { return tc_rt_contract_size(desc); }

int64_t tc_test_c_slice_size(const int64_t *desc) { return tc_rt_slice_size(desc); }

int64_t tc_test_c_panel_field(const int64_t *desc, int64_t field) { return desc[field]; }
int64_t tc_test_c_panel_size(const int64_t *desc) { return tc_rt_panel_size(desc); }

int64_t tc_test_c_array_summed(const int64_t *desc, int64_t j, int64_t field) {
  return desc[tc_rt_array_summed(desc, j) + field];
}

int64_t tc_test_c_block_segment(const int64_t *desc, int64_t dim, int64_t i) {
  return desc[tc_rt_block_array_segments(desc, dim) + i];
}
int64_t tc_test_c_block_home(const int64_t *desc, int64_t block) {
  /* A block's entry: its segment ids, then its home. */
  return desc[tc_rt_block_array_blocks(desc, block) + desc[TC_RT_BLOCKS_RANK]];
}
int64_t tc_test_c_block_array_size(const int64_t *desc) { return tc_rt_block_array_size(desc); }

int64_t tc_test_c_block_task(const int64_t *desc, int64_t task, int64_t field) {
  return desc[tc_rt_block_plan_tasks(desc, task) + field];
}
int64_t tc_test_c_block_cached(const int64_t *desc, int64_t read, int64_t field) {
  return desc[tc_rt_block_plan_cached(desc, read) + field];
}
int64_t tc_test_c_block_plan_size(const int64_t *desc) { return tc_rt_block_plan_size(desc); }
