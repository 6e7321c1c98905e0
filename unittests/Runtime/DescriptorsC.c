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
  return desc[tc_rt_array_dim(desc, dim) + field];
}
int64_t tc_test_c_array_size(const int64_t *desc) {
  return tc_rt_array_size(desc);
}

int64_t tc_test_c_tile_size(const int64_t *desc) { return tc_rt_tile_size(desc[TC_RT_TILE_RANK]); }

int64_t tc_test_c_shift_sub(const int64_t *desc, int64_t dim) {
  return desc[tc_rt_shift_subshape(desc) + dim];
}
int64_t tc_test_c_shift_size(const int64_t *desc) {
  return tc_rt_shift_size(desc[TC_RT_SHIFT_RANK]);
}

int64_t tc_test_c_allreduce_size(const int64_t *desc) {
  return tc_rt_allreduce_size(desc[TC_RT_ALLREDUCE_RANK]);
}

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
  return desc[tc_rt_contract_num_labels(desc) + 1 + label];
}
int64_t tc_test_c_contract_size(const int64_t *desc) {
  return tc_rt_contract_size(
      desc[TC_RT_CONTRACT_RANK + TC_RT_OPERAND_A], desc[TC_RT_CONTRACT_RANK + TC_RT_OPERAND_B],
      desc[TC_RT_CONTRACT_RANK + TC_RT_OPERAND_C], desc[tc_rt_contract_num_labels(desc)]);
}

int64_t tc_test_c_slice_size(const int64_t *desc) {
  return tc_rt_slice_size(desc[TC_RT_SLICE_RANK]);
}

int64_t tc_test_c_panel_field(const int64_t *desc, int64_t field) { return desc[field]; }
int64_t tc_test_c_panel_size(const int64_t *desc) {
  return tc_rt_panel_size(desc[TC_RT_PANEL_RANK]);
}
