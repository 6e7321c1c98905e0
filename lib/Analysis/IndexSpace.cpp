//===- IndexSpace.cpp - labels, extents and index roles -------------------===//
#include "TC/Analysis/IndexSpace.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace mlir::tc {

int64_t IndexSpace::volume(const std::vector<std::string> &ls) const {
  int64_t v = 1;
  for (const std::string &l : ls)
    v *= extent(l);
  return v;
}

bool isValidLabel(const std::string &label) {
  if (label.empty())
    return false;
  unsigned char first = label.front();
  if (!std::isalpha(first) && first != '_')
    return false;
  return std::all_of(label.begin(), label.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_';
  });
}

namespace {
std::string operandName(int index) {
  return index < 0 ? std::string("the result")
                   : "input #" + std::to_string(index);
}

IndexSpaceOrError failure(const std::string &message) {
  IndexSpaceOrError r;
  r.error = message;
  return r;
}

/// Where a label's extent was first seen.
struct ExtentSource {
  int64_t extent;
  int operand; // -1: the result
};
} // namespace

std::string checkLabeledShape(const LabeledShape &shape, const std::string &name) {
  if (shape.labels.size() != shape.extents.size()) {
    std::ostringstream os;
    os << name << " has " << shape.labels.size() << " label"
       << (shape.labels.size() == 1 ? "" : "s") << " for a rank-"
       << shape.extents.size() << " tensor";
    return os.str();
  }
  std::set<std::string> labels;
  for (size_t d = 0; d < shape.labels.size(); ++d) {
    const std::string &label = shape.labels[d];
    if (!isValidLabel(label))
      return name + " dimension " + std::to_string(d) + " has label '" + label +
             "', which is not an identifier";
    if (!labels.insert(label).second)
      return "label '" + label + "' appears twice in " + name;
    if (shape.extents[d] < 0)
      return name + " dimension " + std::to_string(d) + " (label '" + label +
             "') is dynamic; tc needs static extents";
  }
  return "";
}

IndexSpaceOrError buildIndexSpace(const std::vector<LabeledShape> &inputs,
                                  const LabeledShape &result) {
  // Operands in checking order: the result first (so its labels lead the index
  // order), then the inputs.
  std::vector<std::pair<int, const LabeledShape *>> operands;
  operands.push_back({-1, &result});
  for (size_t i = 0; i < inputs.size(); ++i)
    operands.push_back({static_cast<int>(i), &inputs[i]});

  IndexSpace space;
  std::map<std::string, ExtentSource> seen;
  for (auto [index, shape] : operands) {
    std::string name = operandName(index);
    std::string error = checkLabeledShape(*shape, name);
    if (!error.empty())
      return failure(error);
    for (size_t d = 0; d < shape->labels.size(); ++d) {
      const std::string &label = shape->labels[d];
      int64_t extent = shape->extents[d];
      auto it = seen.find(label);
      if (it == seen.end()) {
        // Result labels were all seen first, so a new label in an input is summed.
        if (index >= 0)
          space.summed.push_back(label);
        seen.emplace(label, ExtentSource{extent, index});
        space.labels.push_back(label);
        space.extents[label] = extent;
        continue;
      }
      if (it->second.extent != extent) {
        std::ostringstream os;
        os << "label '" << label << "' has extent " << it->second.extent << " in "
           << operandName(it->second.operand) << " but " << extent << " in "
           << name;
        return failure(os.str());
      }
    }
  }
  // Result labels must be produced by some input.
  for (const std::string &label : result.labels) {
    bool found = std::any_of(inputs.begin(), inputs.end(), [&](const LabeledShape &s) {
      return std::find(s.labels.begin(), s.labels.end(), label) != s.labels.end();
    });
    if (!found)
      return failure("result label '" + label + "' appears in no input");
  }
  IndexSpaceOrError r;
  r.space = std::move(space);
  return r;
}

const char *toString(IndexRole role) {
  switch (role) {
  case IndexRole::I:
    return "I";
  case IndexRole::J:
    return "J";
  case IndexRole::K:
    return "K";
  case IndexRole::Batch:
    return "batch";
  case IndexRole::SumA:
    return "sum-A";
  case IndexRole::SumB:
    return "sum-B";
  }
  return "?";
}

std::map<std::string, IndexRole>
classifyBinary(const std::vector<std::string> &lhs,
               const std::vector<std::string> &rhs,
               const std::vector<std::string> &result) {
  auto has = [](const std::vector<std::string> &v, const std::string &l) {
    return std::find(v.begin(), v.end(), l) != v.end();
  };
  std::map<std::string, IndexRole> roles;
  auto classify = [&](const std::string &l) {
    bool a = has(lhs, l), b = has(rhs, l), c = has(result, l);
    if (a && b)
      return c ? IndexRole::Batch : IndexRole::K;
    if (a)
      return c ? IndexRole::I : IndexRole::SumA;
    return c ? IndexRole::J : IndexRole::SumB;
  };
  for (const auto *labels : {&lhs, &rhs})
    for (const std::string &l : *labels)
      roles.emplace(l, classify(l));
  return roles;
}

} // namespace mlir::tc
