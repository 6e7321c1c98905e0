/*===- DescriptorsC.h - the descriptor checks written in C ------*- C -*-===*
 *
 * DescriptorsC.c answers these through the C API of Descriptors.h alone;
 * DescriptorsTest.cpp compares them with the C++ views.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TC_UNITTESTS_RUNTIME_DESCRIPTORSC_H
#define TC_UNITTESTS_RUNTIME_DESCRIPTORSC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int64_t tc_test_c_api_version(void);
int64_t tc_test_c_array_field(const int64_t *desc, int64_t dim, int64_t field);
int64_t tc_test_c_array_size(const int64_t *desc);
int64_t tc_test_c_tile_size(const int64_t *desc);
int64_t tc_test_c_shift_sub(const int64_t *desc, int64_t dim);
int64_t tc_test_c_shift_size(const int64_t *desc);
int64_t tc_test_c_allreduce_size(const int64_t *desc);
int64_t tc_test_c_contract_shape(const int64_t *desc, int64_t x, int64_t dim);
int64_t tc_test_c_contract_label(const int64_t *desc, int64_t x, int64_t dim);
int64_t tc_test_c_contract_step(const int64_t *desc, int64_t x, int64_t dim);
int64_t tc_test_c_contract_extent(const int64_t *desc, int64_t label);
int64_t tc_test_c_contract_size(const int64_t *desc);
int64_t tc_test_c_slice_size(const int64_t *desc);
int64_t tc_test_c_panel_field(const int64_t *desc, int64_t field);
int64_t tc_test_c_panel_size(const int64_t *desc);
int64_t tc_test_c_array_summed(const int64_t *desc, int64_t j, int64_t field);
int64_t tc_test_c_block_segment(const int64_t *desc, int64_t dim, int64_t i);
int64_t tc_test_c_block_home(const int64_t *desc, int64_t block);
int64_t tc_test_c_block_array_size(const int64_t *desc);
int64_t tc_test_c_block_task(const int64_t *desc, int64_t task, int64_t field);
int64_t tc_test_c_block_cached(const int64_t *desc, int64_t read, int64_t field);
int64_t tc_test_c_block_plan_size(const int64_t *desc);

#ifdef __cplusplus
}
#endif

#endif /* TC_UNITTESTS_RUNTIME_DESCRIPTORSC_H */
