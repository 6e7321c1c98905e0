//===- TCEAntisymmetrizers.h - P(ij) expanded into plain terms --*- C++ -*-===//
//
// Private to lib/Frontend: the parser checks a term, then expands it here.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_FRONTEND_TCEANTISYMMETRIZERS_H
#define TC_LIB_FRONTEND_TCEANTISYMMETRIZERS_H

#include "TC/Frontend/TCEProgram.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::tc::tce {

/// Copy k of the term applies the exchanges whose bits are set in k (bit m:
/// the m-th P written), so the original comes first and P(ij) P(ab) gives
/// t, -t(i<->j), -t(a<->b), +t(both). The rightmost P acts first, as in
/// P(ij) (P(jk) t), which matters only when two P's share an index.
/// `exchanges` are the P's of `term` as written, (i, j) for P(ij); the copies
/// are appended to `terms`.
void expandAntisymmetrizers(const Term &term,
                            const std::vector<std::pair<std::string, std::string>> &exchanges,
                            std::vector<Term> &terms);

} // namespace mlir::tc::tce

#endif // TC_LIB_FRONTEND_TCEANTISYMMETRIZERS_H
