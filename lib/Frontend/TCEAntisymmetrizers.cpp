//===- TCEAntisymmetrizers.cpp - P(ij) expanded into plain terms ----------===//
#include "TCEAntisymmetrizers.h"

#include <utility>

namespace mlir::tc::tce {

void expandAntisymmetrizers(const Term &original,
                            const std::vector<std::pair<std::string, std::string>> &exchanges,
                            std::vector<Term> &terms) {
  size_t count = exchanges.size();
  for (size_t copy = 0; copy < (size_t(1) << count); ++copy) {
    Term term = original;
    bool negate = false;
    for (size_t m = count; m-- > 0;) {
      if (!((copy >> m) & 1))
        continue;
      negate = !negate;
      const auto &[first, second] = exchanges[m];
      for (Factor &factor : term.factors)
        for (std::string &index : factor.indices) {
          if (index == first)
            index = second;
          else if (index == second)
            index = first;
        }
    }
    if (negate)
      term.coefficient = -term.coefficient;
    terms.push_back(std::move(term));
  }
}

} // namespace mlir::tc::tce
