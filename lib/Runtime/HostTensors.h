//===- HostTensors.h - a host's tensors in place of files -------*- C++ -*-===//
#ifndef TC_LIB_RUNTIME_HOSTTENSORS_H
#define TC_LIB_RUNTIME_HOSTTENSORS_H

#include "DistArray.h"

#include <string>
#include <vector>

namespace tc_rt {

/// A tensor of a host's run (include/TC/Runtime/Embedding.h).
struct HostTensor {
  std::string name;
  bool output = false;
  Shape extents;
  void *local = nullptr; ///< this rank's rows
};

/// The tensors of the host's current run (empty outside one).
std::vector<HostTensor> &hostTensors();

/// Before each run: the host's inputs placed where the program finds them.
void placeHostInputs();

} // namespace tc_rt

#endif // TC_LIB_RUNTIME_HOSTTENSORS_H
