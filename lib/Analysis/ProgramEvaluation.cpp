//===- ProgramEvaluation.cpp - programs evaluated on small arrays ---------===//
#include "TC/Analysis/ProgramEvaluation.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mlir::tc {

static int64_t elements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t e : shape)
    n *= e;
  return n;
}

DenseArray contract(const std::vector<const DenseArray *> &inputs,
                    const std::vector<std::vector<std::string>> &labels,
                    const std::vector<std::string> &result, const std::vector<int64_t> &shape,
                    double scale, const DenseArray *init) {
  // Every label once, the result's first; its extent from where it appears.
  std::vector<std::string> loops = result;
  std::vector<int64_t> extent = shape;
  for (size_t k = 0; k < inputs.size(); ++k)
    for (size_t d = 0; d < labels[k].size(); ++d)
      if (std::find(loops.begin(), loops.end(), labels[k][d]) == loops.end()) {
        loops.push_back(labels[k][d]);
        extent.push_back(inputs[k]->shape[d]);
      }
  // Per input, the stride of each loop in its storage.
  std::vector<std::vector<int64_t>> stride(inputs.size(), std::vector<int64_t>(loops.size(), 0));
  for (size_t k = 0; k < inputs.size(); ++k) {
    int64_t s = 1;
    for (size_t d = labels[k].size(); d-- > 0;) {
      size_t l = std::find(loops.begin(), loops.end(), labels[k][d]) - loops.begin();
      stride[k][l] += s;
      s *= inputs[k]->shape[d];
    }
  }
  DenseArray out{shape, init ? init->data : std::vector<double>(elements(shape), 0.0)};
  const int64_t outer = elements(shape), inner = elements(
      std::vector<int64_t>(extent.begin() + result.size(), extent.end()));
  std::vector<int64_t> at(loops.size(), 0);
  for (int64_t o = 0; o < outer; ++o) {
    int64_t rest = o;
    for (size_t d = result.size(); d-- > 0;) {
      at[d] = rest % extent[d];
      rest /= extent[d];
    }
    double sum = 0;
    for (int64_t i = 0; i < inner; ++i) {
      int64_t r = i;
      for (size_t d = loops.size(); d-- > result.size();) {
        at[d] = r % extent[d];
        r /= extent[d];
      }
      double product = 1;
      for (size_t k = 0; k < inputs.size(); ++k) {
        int64_t offset = 0;
        for (size_t l = 0; l < loops.size(); ++l)
          offset += stride[k][l] * at[l];
        product *= inputs[k]->data[offset];
      }
      sum += product;
    }
    out.data[o] += scale * sum;
  }
  return out;
}

std::vector<DenseArray> evaluate(const EvalFunction &f, const std::vector<DenseArray> &args) {
  std::vector<DenseArray> values(args);
  for (const EvalFormula &x : f.formulas) {
    std::vector<const DenseArray *> inputs;
    for (int v : x.inputs)
      inputs.push_back(&values[v]);
    const DenseArray *init = x.init >= 0 ? &values[x.init] : nullptr;
    DenseArray r = contract(inputs, x.labels, x.result, x.shape, x.scale, init);
    if (x.reciprocal)
      for (double &e : r.data)
        e = e != 0 ? 1 / e : 0;
    values.push_back(std::move(r));
  }
  std::vector<DenseArray> out;
  for (int v : f.returned)
    out.push_back(values[v]);
  return out;
}

DenseArray DenseArray::filled(std::vector<int64_t> shape, double value) {
  int64_t n = 1;
  for (int64_t e : shape)
    n *= e;
  return DenseArray{std::move(shape), std::vector<double>(n, value)};
}

std::string runStatements(const std::vector<EvalStatement> &statements,
                          std::map<std::string, DenseArray> &store) {
  for (const EvalStatement &s : statements) {
    std::vector<DenseArray> args;
    for (const std::string &name : s.args) {
      if (name.empty()) {
        const size_t k = args.size();
        args.push_back(DenseArray::filled(
            k < s.onesShapes.size() ? s.onesShapes[k] : std::vector<int64_t>{}, 1.0));
        continue;
      }
      auto it = store.find(name);
      if (it == store.end())
        return s.what + " loads '" + name + "', which no statement stored";
      args.push_back(it->second);
    }
    // The lowering reads an accumulation's C from its result's tensor.
    if (s.body.returned.size() == 1) {
      int f = s.body.returned[0] - s.body.numArgs;
      int init = f >= 0 ? s.body.formulas[f].init : -1;
      if (init >= 0 && init < s.body.numArgs) {
        auto it = store.find(s.result);
        if (it == store.end())
          return s.what + " accumulates into '" + s.result + "', which no statement stored";
        args[init] = it->second;
      }
    }
    std::vector<DenseArray> out = evaluate(s.body, args);
    if (out.size() == 1)
      store[s.result] = std::move(out[0]);
  }
  return "";
}

double maxDifference(const DenseArray &a, const DenseArray &b) {
  if (a.shape != b.shape || a.data.size() != b.data.size())
    return std::numeric_limits<double>::infinity();
  double m = 0;
  for (size_t i = 0; i < a.data.size(); ++i)
    m = std::max(m, std::fabs(a.data[i] - b.data[i]));
  return m;
}

DenseArray randomArray(const std::vector<int64_t> &shape, uint64_t seed) {
  DenseArray a{shape, std::vector<double>(elements(shape))};
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (double &v : a.data) {
    x ^= x << 13; // xorshift64
    x ^= x >> 7;
    x ^= x << 17;
    v = static_cast<double>(x >> 11) / 9007199254740992.0 * 2.0 - 1.0;
  }
  return a;
}

} // namespace mlir::tc
