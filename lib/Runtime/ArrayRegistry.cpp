//===- ArrayRegistry.cpp - the arrays a program has created ---------------===//
//
// Every array tc_rt_array creates lives until the program ends (or its
// statement's arrays are freed): the registry owns them and closes their
// scratch files.
//
//===----------------------------------------------------------------------===//
#include "DistArray.h"

#include <unistd.h>

namespace tc_rt {

namespace {

std::vector<DistArray *> &allArrays() {
  static std::vector<DistArray *> arrays;
  return arrays;
}

} // namespace

void registerArray(DistArray *array) { allArrays().push_back(array); }

void releaseArrays() {
  for (DistArray *a : allArrays()) {
    if (a->fd >= 0)
      ::close(a->fd); // unnamed since it was opened: closing frees it
    delete a;
  }
  allArrays().clear();
}

} // namespace tc_rt
