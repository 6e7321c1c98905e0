//===- Partitioners.cpp - hypergraph partitioners by name -----------------===//
#include "TC/Analysis/Partitioners.h"
#include "TC/Analysis/RefinementPartitioner.h"

#include <utility>

using namespace mlir::tc;

namespace {

struct Registry {
  std::vector<std::pair<std::string, PartitionerFactory>> entries{
      {"builtin", [] { return std::make_unique<RefinementPartitioner>(); }}};
  std::string preferred = "builtin";
};

Registry &registry() {
  static Registry r;
  return r;
}

} // namespace

void mlir::tc::registerHypergraphPartitioner(const std::string &name,
                                             PartitionerFactory factory) {
  Registry &r = registry();
  r.preferred = name;
  for (auto &[known, make] : r.entries)
    if (known == name) {
      make = std::move(factory);
      return;
    }
  r.entries.emplace_back(name, std::move(factory));
}

std::unique_ptr<HypergraphPartitioner>
mlir::tc::createHypergraphPartitioner(const std::string &name) {
  Registry &r = registry();
  const std::string &wanted = name == "default" ? r.preferred : name;
  for (auto &[known, make] : r.entries)
    if (known == wanted)
      return make();
  return nullptr;
}

std::vector<std::string> mlir::tc::hypergraphPartitionerNames() {
  std::vector<std::string> names;
  for (auto &[known, make] : registry().entries)
    names.push_back(known);
  return names;
}
