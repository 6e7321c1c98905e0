//===- Element.h - the element types of arrays and buffers ------*- C++ -*-===//
//
// An array holds f64 or f32 elements (TC_RT_F64, TC_RT_F32 in its description);
// its tile buffers, scratch file, messages and HDF5 dataset hold the same type,
// so every byte count is in that type's size. The runtime's data paths are
// templates over the element type; the C entry points take untyped buffers and
// pick the instance from the array's (or the description's) element type.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_RUNTIME_ELEMENT_H
#define TC_LIB_RUNTIME_ELEMENT_H

#include "TC/Runtime/Descriptors.h"

#include <mpi.h>

#include <string>
#include <utility>

namespace tc_rt {

template <typename T> struct Element;
template <> struct Element<double> {
  static constexpr tc_rt_elem kind = TC_RT_F64;
  static MPI_Datatype mpi() { return MPI_DOUBLE; }
};
template <> struct Element<float> {
  static constexpr tc_rt_elem kind = TC_RT_F32;
  static MPI_Datatype mpi() { return MPI_FLOAT; }
};

/// Bytes of one element of `e`.
inline int64_t elementBytes(tc_rt_elem e) { return e == TC_RT_F32 ? 4 : 8; }
/// "f32" or "f64", for messages.
inline const char *elementName(tc_rt_elem e) { return e == TC_RT_F32 ? "f32" : "f64"; }

/// Each of the n values replaced by its reciprocal (1 / 0 is infinite: IEEE).
template <typename T> void invertEach(T *values, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    values[i] = T(1) / values[i];
}

/// Calls fn(T{}) with T the C++ type of `e`.
template <typename Fn> decltype(auto) withElement(tc_rt_elem e, Fn &&fn) {
  if (e == TC_RT_F32)
    return std::forward<Fn>(fn)(float{});
  return std::forward<Fn>(fn)(double{});
}

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_ELEMENT_H
