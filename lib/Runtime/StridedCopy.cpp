//===- StridedCopy.cpp - copies between strided layouts --------------------===//
#include "StridedCopy.h"

namespace tc_rt {

using Shape = std::vector<int64_t>;

Shape rowMajorStrides(const Shape &shape) {
  Shape s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

} // namespace tc_rt
