//===- TCEParser.cpp - the tensor-expression language, parsed -------------===//
//
// parseTCE (docs/TCELanguage.md): a recursive-descent parser over the lexer's
// tokens (TCELexer.cpp) that checks every name as it reads it and expands
// each term's antisymmetrizers (TCEAntisymmetrizers.cpp). The first error
// stops the parse.
//
//===----------------------------------------------------------------------===//
#include "TCEAntisymmetrizers.h"
#include "TCELexer.h"
#include "TC/Frontend/TCEProgram.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <set>
#include <utility>

namespace mlir::tc::tce {

namespace {

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

/// An index name where it is written, for errors that point at it.
struct IndexUse {
  std::string name;
  SourceLoc loc;
};

/// `NAME[i,j,...]` as written: in a declaration, a target or a factor.
struct Reference {
  std::string name;
  SourceLoc loc;
  std::vector<IndexUse> indices;

  Factor toFactor() const {
    Factor factor{name, {}, loc};
    for (const IndexUse &use : indices)
      factor.indices.push_back(use.name);
    return factor;
  }
};

/// 2^10 copies of a term is far beyond any real equation; the cap keeps a
/// hostile input from exhausting memory.
constexpr size_t kMaxAntisymmetrizersPerTerm = 10;

const char *elementName(ElementType element) { return element == ElementType::F32 ? "f32" : "f64"; }

std::string quoted(std::string_view name) { return "'" + std::string(name) + "'"; }

bool contains(const std::vector<IndexUse> &uses, std::string_view name) {
  return std::any_of(uses.begin(), uses.end(),
                     [&](const IndexUse &use) { return use.name == name; });
}

class Parser {
public:
  explicit Parser(std::string_view text) : tokens(lexTCE(text)) { collectAssignedNames(); }

  bool parse(Program &result, Diagnostic &error) {
    if (!parseItems()) {
      error = diagnostic;
      return false;
    }
    // The header promises inputs, outputs, then intermediates; declarations
    // may come in any order, so sort (stably: each group keeps text order).
    std::stable_sort(program.tensors.begin(), program.tensors.end(),
                     [](const Tensor &a, const Tensor &b) { return a.role < b.role; });
    if (!inferIntermediateBlocks(program, error) || !inferPairs(program, error))
      return false;
    result = std::move(program);
    return true;
  }

private:
  std::vector<Token> tokens; ///< ends with End or Error
  size_t position = 0;
  Program program;
  Diagnostic diagnostic;
  SourceLoc programNameLoc;            ///< line 0: no `program NAME;` yet
  std::set<std::string> assigned;      ///< outputs and intermediates assigned so far
  std::set<std::string> assignedLater; ///< every statement target in the text

  //--- Tokens ---------------------------------------------------------------

  const Token &peek(size_t ahead = 0) const {
    return tokens[std::min(position + ahead, tokens.size() - 1)];
  }
  bool at(TokenKind kind, size_t ahead = 0) const { return peek(ahead).kind == kind; }
  bool atIdentifier(std::string_view text, size_t ahead = 0) const {
    return at(TokenKind::Identifier, ahead) && peek(ahead).text == text;
  }
  const Token &consume() {
    const Token &token = tokens[position];
    if (position + 1 < tokens.size())
      ++position;
    return token;
  }

  bool fail(SourceLoc loc, std::string message) {
    diagnostic = {loc, std::move(message)};
    return false;
  }

  /// "expected WHAT, found X" at the next token, or the lexer's error if the
  /// next token is a bad character.
  bool failExpected(std::string_view what) {
    const Token &token = peek();
    if (token.kind == TokenKind::Error)
      return fail(token.loc, token.message);
    std::string found = token.kind == TokenKind::End ? "the end of the text" : quoted(token.text);
    return fail(token.loc, "expected " + std::string(what) + ", found " + found);
  }

  bool expect(TokenKind kind, std::string_view what) {
    if (!at(kind))
      return failExpected(what);
    consume();
    return true;
  }

  bool expectIdentifier(std::string_view what, const Token *&token) {
    if (!at(TokenKind::Identifier))
      return failExpected(what);
    token = &consume();
    return true;
  }

  /// Only for choosing between "used before it is assigned" and "not declared":
  /// the targets are the identifiers followed by '[' at the start of an item.
  void collectAssignedNames() {
    bool itemStart = true;
    for (size_t i = 0; i + 1 < tokens.size(); ++i) {
      if (itemStart && tokens[i].kind == TokenKind::Identifier &&
          tokens[i + 1].kind == TokenKind::LBracket)
        assignedLater.insert(std::string(tokens[i].text));
      itemStart = tokens[i].kind == TokenKind::Semicolon || tokens[i].kind == TokenKind::LBrace ||
                  tokens[i].kind == TokenKind::RBrace;
    }
  }

  //--- Names ----------------------------------------------------------------

  const IndexRange *findRange(std::string_view name) const { return program.findRange(name); }

  bool requireIndex(const IndexUse &use, const Index *&index) {
    index = program.findIndex(use.name);
    if (!index)
      return fail(use.loc, "index " + quoted(use.name) +
                               " is not declared (declare it with 'index " + use.name +
                               " : RANGE;')");
    return true;
  }

  bool checkNotReserved(const Token &name) {
    if (name.text == "P")
      return fail(name.loc, "'P' is reserved for antisymmetrizers P(ij) and cannot name a tensor");
    if (name.text == "sum")
      return fail(name.loc, "'sum' is reserved for sum[...] and cannot name a tensor");
    return true;
  }

  /// Index k of the reference is declared and not a repeat of an earlier one.
  bool checkIndexUse(const Reference &reference, size_t k, const Index *&index) {
    const IndexUse &use = reference.indices[k];
    if (!requireIndex(use, index))
      return false;
    for (size_t earlier = 0; earlier < k; ++earlier)
      if (reference.indices[earlier].name == use.name)
        return fail(use.loc,
                    "index " + quoted(use.name) + " appears twice in " + quoted(reference.name));
    return true;
  }

  /// A declaration, or the target of a new intermediate.
  bool checkIndicesDeclaredAndDistinct(const Reference &reference) {
    const Index *index = nullptr;
    for (size_t k = 0; k < reference.indices.size(); ++k)
      if (!checkIndexUse(reference, k, index))
        return false;
    return true;
  }

  /// A use of a known tensor: its rank, and each index's range where it stands.
  bool checkAgainstDeclaration(const Reference &reference, const Tensor &tensor) {
    size_t rank = tensor.indices.size();
    if (reference.indices.size() != rank)
      return fail(reference.loc, quoted(tensor.name) + " has " + std::to_string(rank) +
                                     (rank == 1 ? " index" : " indices") + ", not " +
                                     std::to_string(reference.indices.size()));
    for (size_t k = 0; k < rank; ++k) {
      const Index *index = nullptr;
      if (!checkIndexUse(reference, k, index))
        return false;
      const Index *declared = program.findIndex(tensor.indices[k]);
      if (declared && index->range != declared->range)
        return fail(reference.indices[k].loc,
                    "index " + quoted(index->name) + " ranges over " + index->range +
                        " but dimension " + std::to_string(k + 1) + " of " + quoted(tensor.name) +
                        " ranges over " + declared->range);
    }
    return true;
  }

  //--- Items ----------------------------------------------------------------

  bool parseItems() {
    while (!at(TokenKind::End))
      if (!parseItem())
        return false;
    if (program.statements.empty())
      return fail({1, 1}, "the program has no statements");
    for (const Tensor &tensor : program.tensors)
      if (tensor.role == TensorRole::Output && !assigned.count(tensor.name))
        return fail(tensor.loc, "output " + quoted(tensor.name) + " is never assigned");
    return true;
  }

  /// A keyword starts a declaration unless '[' follows: `input[i] = ...` assigns
  /// a tensor named `input`.
  bool parseItem() {
    if (!at(TokenKind::Identifier))
      return failExpected("a declaration or a statement");
    if (!at(TokenKind::LBracket, 1)) {
      std::string_view word = peek().text;
      if (word == "program")
        return parseProgramName();
      if (word == "range")
        return parseRange();
      if (word == "index")
        return parseIndexDeclaration();
      if (word == "input")
        return parseTensorDeclaration(TensorRole::Input);
      if (word == "output")
        return parseTensorDeclaration(TensorRole::Output);
      if (word == "iterate")
        return parseLoop();
    }
    return parseStatement();
  }

  /// `iterate (max N until NAME converges to TOLERANCE | N) [diis N] { statements }`.
  bool parseLoop() {
    const Token &keyword = consume();
    if (inLoop())
      return fail(keyword.loc, "loops do not nest: this 'iterate' is inside the loop of line " +
                                   std::to_string(program.loops.back().loc.line));
    Loop loop;
    loop.loc = keyword.loc;
    const bool bounded = atIdentifier("max");
    if (bounded)
      consume();
    if (!parseInteger(loop.maxIterations,
                      bounded ? "the largest number of iterations" : "the number of iterations", 1))
      return false;
    const Token *converge = nullptr;
    if (bounded) {
      if (!atIdentifier("until"))
        return failExpected("'until NAME converges to TOLERANCE' after the iteration count");
      consume();
      if (!expectIdentifier("the scalar the loop converges on, after 'until'", converge))
        return false;
      loop.converge = std::string(converge->text);
      if (!atIdentifier("converges"))
        return failExpected("'converges to TOLERANCE' after " + quoted(converge->text));
      consume();
      if (!atIdentifier("to"))
        return failExpected("'to TOLERANCE' after 'converges'");
      consume();
      if (!at(TokenKind::Number))
        return failExpected("a tolerance (a positive number such as 1e-10)");
      const Token &tolerance = consume();
      if (!(tolerance.number > 0))
        return fail(tolerance.loc, "the tolerance must be positive, not " + quoted(tolerance.text));
      loop.tolerance = tolerance.number;
    } else if (atIdentifier("until")) {
      return fail(peek().loc, "a loop that converges says its largest number of iterations: "
                              "'iterate max N until NAME converges to TOLERANCE'");
    }
    const Token *diis = nullptr;
    if (atIdentifier("diis")) {
      diis = &consume();
      if (!parseInteger(loop.diis, "the number of iterations DIIS extrapolates from", 2))
        return false;
    }
    if (!expect(TokenKind::LBrace, bounded ? "'{' or 'diis' after the tolerance"
                                           : "'{', 'until' or 'diis' after the iteration count"))
      return false;
    loop.first = program.statements.size();
    program.loops.push_back(loop);
    while (!at(TokenKind::RBrace)) {
      if (at(TokenKind::End))
        return fail(peek().loc,
                    "the loop of line " + std::to_string(keyword.loc.line) + " has no closing '}'");
      if (at(TokenKind::Identifier) && !at(TokenKind::LBracket, 1)) {
        std::string_view word = peek().text;
        if (word == "iterate")
          return fail(peek().loc, "loops do not nest: this 'iterate' is inside the loop of line " +
                                      std::to_string(keyword.loc.line));
        if (word == "program" || word == "range" || word == "index" || word == "input" ||
            word == "output")
          return fail(peek().loc, "declarations go outside loops ('" + std::string(word) +
                                      "' inside the loop of line " +
                                      std::to_string(keyword.loc.line) + ")");
      }
      if (!parseStatement())
        return false;
    }
    const Token &close = consume();
    Loop &parsed = program.loops.back();
    parsed.count = program.statements.size() - parsed.first;
    if (parsed.count == 0)
      return fail(close.loc,
                  "the loop of line " + std::to_string(keyword.loc.line) + " has no statements");
    if (diis && program.carried(parsed).empty())
      return fail(diis->loc, "diis extrapolates the tensors a loop carries (assigns, and reads "
                             "before assigning them in an iteration); this loop carries none");
    if (converge) {
      bool assignedHere = false;
      for (size_t s = parsed.first; s < program.statements.size(); ++s)
        assignedHere |= program.statements[s].target.tensor == parsed.converge;
      if (!assignedHere)
        return fail(converge->loc, quoted(parsed.converge) +
                                       " is not assigned in the loop: a loop converges on a "
                                       "scalar it computes");
      const Tensor *tensor = program.findTensor(parsed.converge);
      if (!tensor->indices.empty())
        return fail(converge->loc,
                    quoted(parsed.converge) + " has " + std::to_string(tensor->indices.size()) +
                        " indices: a loop converges on a scalar (" + parsed.converge + "[])");
    }
    return true;
  }

  bool inLoop() const { return !program.loops.empty() && program.loops.back().count == 0; }

  bool parseProgramName() {
    const Token &keyword = consume();
    if (programNameLoc.line != 0)
      return fail(keyword.loc, "the program is already named " + quoted(program.name) +
                                   " at line " + std::to_string(programNameLoc.line));
    const Token *name = nullptr;
    if (!expectIdentifier("a program name", name))
      return false;
    program.name = std::string(name->text);
    programNameLoc = keyword.loc;
    return expect(TokenKind::Semicolon, "';' after the program name");
  }

  bool parseRange() {
    consume(); // range
    const Token *name = nullptr;
    if (!expectIdentifier("a range name", name))
      return false;
    if (const IndexRange *earlier = findRange(name->text))
      return fail(name->loc, "range " + quoted(name->text) + " is already declared at line " +
                                 std::to_string(earlier->loc.line));
    if (!expect(TokenKind::Equal, "'=' after the range name"))
      return false;
    std::string extentWhat = "the extent of range " + quoted(name->text);
    if (!at(TokenKind::Number))
      return failExpected(extentWhat);
    const Token &extent = consume();
    int64_t value = 0;
    const char *last = extent.text.data() + extent.text.size();
    auto [end, status] = std::from_chars(extent.text.data(), last, value);
    if (status != std::errc() || end != last || value <= 0)
      return fail(extent.loc,
                  extentWhat + " must be a positive integer, not " + quoted(extent.text));
    IndexRange range{std::string(name->text), value, {}, {}, {}, {}, name->loc};
    if (at(TokenKind::Colon)) {
      // `: segments [n, ...]`: the range cut into segments ([K] 2), in order.
      consume();
      if (!atIdentifier("segments"))
        return failExpected("'segments' after ':'");
      const Token &keyword = consume();
      if (!parseIntegerList(range.segments, "a segment length", 1))
        return false;
      int64_t sum = 0;
      for (int64_t length : range.segments)
        sum += length;
      if (sum != value)
        return fail(keyword.loc, "the segments of range " + quoted(name->text) + " sum to " +
                                     std::to_string(sum) + ", not its extent " +
                                     std::to_string(value));
      // `labels [l, ...]`: each segment's symmetry label (an irrep), which
      // `symmetry S` reads instead of its position.
      if (atIdentifier("labels")) {
        const Token &labels = consume();
        if (!parseIntegerList(range.labels, "a segment label", 0))
          return false;
        if (range.labels.size() != range.segments.size())
          return fail(labels.loc, "range " + quoted(name->text) + " has " +
                                      std::to_string(range.segments.size()) + " segments but " +
                                      std::to_string(range.labels.size()) + " labels");
      }
      // `charges [c, ...]`: each segment's additive charge, which `charge Q
      // signs [...]` sums.
      if (atIdentifier("charges")) {
        const Token &charges = consume();
        if (!parseSignedIntegerList(range.charges, "a segment charge"))
          return false;
        if (range.charges.size() != range.segments.size())
          return fail(charges.loc, "range " + quoted(name->text) + " has " +
                                       std::to_string(range.segments.size()) + " segments but " +
                                       std::to_string(range.charges.size()) + " charges");
      }
      // `flip [p, ...]`: each segment's partner when every spin flips, which
      // `restricted` tensors use (else found from lengths, labels, charges).
      if (atIdentifier("flip")) {
        const Token &flip = consume();
        if (!parseIntegerList(range.flip, "a segment's partner", 0))
          return false;
        std::vector<int64_t> partners;
        if (std::string why = range.partners(partners); !why.empty())
          return fail(flip.loc, why);
      }
    }
    const bool segmented = !range.segments.empty();
    const bool labelled = !range.labels.empty(), charged = !range.charges.empty();
    const bool flipped = !range.flip.empty();
    program.ranges.push_back(std::move(range));
    return expect(TokenKind::Semicolon,
                  flipped     ? "';' after the flip"
                  : charged   ? "';' or 'flip [...]' after the charges"
                  : labelled  ? "';', 'charges [...]' or 'flip [...]' after the labels"
                  : segmented ? "';', 'labels [...]', 'charges [...]' or 'flip [...]' after the "
                                "segments"
                              : "';' or ': segments [...]' after the range extent");
  }

  /// One integer at least `minimum`.
  bool parseInteger(int64_t &value, std::string_view what, int64_t minimum) {
    if (!at(TokenKind::Number))
      return failExpected(what);
    const Token &token = consume();
    const char *last = token.text.data() + token.text.size();
    auto [end, status] = std::from_chars(token.text.data(), last, value);
    if (status != std::errc() || end != last || value < minimum)
      return fail(token.loc, std::string(what) + " must be an integer of at least " +
                                 std::to_string(minimum) + ", not " + quoted(token.text));
    return true;
  }

  /// An integer with an optional '-' (a charge).
  bool parseSignedInteger(int64_t &value, std::string_view what) {
    const bool negative = at(TokenKind::Minus);
    if (negative)
      consume();
    if (!parseInteger(value, what, 0))
      return false;
    value = negative ? -value : value;
    return true;
  }

  /// '[' element (',' element)* ']', each element parsed by `element`
  /// (which appends it); '[' ']' too when `emptyAllowed`.
  bool parseList(const std::function<bool()> &element, bool emptyAllowed = false) {
    if (!expect(TokenKind::LBracket, "'['"))
      return false;
    if (emptyAllowed && at(TokenKind::RBracket)) {
      consume();
      return true;
    }
    while (true) {
      if (!element())
        return false;
      if (at(TokenKind::RBracket)) {
        consume();
        return true;
      }
      if (!expect(TokenKind::Comma, "',' or ']'"))
        return false;
    }
  }

  /// '[' signed integer (',' signed integer)* ']'.
  bool parseSignedIntegerList(std::vector<int64_t> &values, std::string_view what) {
    return parseList([&] {
      int64_t value = 0;
      if (!parseSignedInteger(value, what))
        return false;
      values.push_back(value);
      return true;
    });
  }

  /// 'charge' Q 'signs' '[' ('+' | '-') (',' ('+' | '-'))* ']' (the
  /// keyword consumed by the caller).
  bool parseChargeRule(ChargeRule &rule) {
    if (!parseSignedInteger(rule.total, "the charge"))
      return false;
    if (!atIdentifier("signs"))
      return failExpected("'signs [...]' after the charge");
    consume();
    return parseList([&] {
      if (!at(TokenKind::Plus) && !at(TokenKind::Minus))
        return failExpected("'+' or '-' (the sign of a dimension's charge)");
      rule.signs.push_back(consume().kind == TokenKind::Plus ? 1 : -1);
      return true;
    });
  }

  /// '[' integer (',' integer)* ']', or '[' ']' when `minimum` is 0 (the
  /// segment ids of a scalar's one block).
  bool parseIntegerList(std::vector<int64_t> &values, std::string_view what, int64_t minimum) {
    return parseList(
        [&] {
          int64_t value = 0;
          if (!parseInteger(value, what, minimum))
            return false;
          values.push_back(value);
          return true;
        },
        /*emptyAllowed=*/minimum == 0);
  }

  bool parseIndexDeclaration() {
    consume(); // index
    std::vector<IndexUse> names;
    while (true) {
      const Token *name = nullptr;
      if (!expectIdentifier("an index name", name))
        return false;
      std::string text(name->text);
      if (const Index *earlier = program.findIndex(text))
        return fail(name->loc, "index " + quoted(text) + " is already declared at line " +
                                   std::to_string(earlier->loc.line));
      auto earlierHere = std::find_if(names.begin(), names.end(),
                                      [&](const IndexUse &use) { return use.name == text; });
      if (earlierHere != names.end())
        return fail(name->loc, "index " + quoted(text) + " is already declared at line " +
                                   std::to_string(earlierHere->loc.line));
      names.push_back({text, name->loc});
      if (!at(TokenKind::Comma))
        break;
      consume();
    }
    if (!expect(TokenKind::Colon, "',' or ':' after the index name"))
      return false;
    const Token *rangeName = nullptr;
    if (!expectIdentifier("a range name after ':'", rangeName))
      return false;
    const IndexRange *range = findRange(rangeName->text);
    if (!range)
      return fail(rangeName->loc, "range " + quoted(rangeName->text) +
                                      " is not declared (declare it with 'range " +
                                      std::string(rangeName->text) + " = N;')");
    for (IndexUse &name : names)
      program.indices.push_back({std::move(name.name), range->name, range->extent, name.loc});
    return expect(TokenKind::Semicolon, "';' after the index declaration");
  }

  bool parseTensorDeclaration(TensorRole role) {
    consume(); // input or output
    size_t first = program.tensors.size();
    while (true) {
      Reference reference;
      if (!parseReference(reference))
        return false;
      if (const Tensor *earlier = program.findTensor(reference.name))
        return fail(reference.loc, "tensor " + quoted(reference.name) +
                                       " is already declared at line " +
                                       std::to_string(earlier->loc.line));
      if (!checkIndicesDeclaredAndDistinct(reference))
        return false;
      Factor declared = reference.toFactor();
      program.tensors.push_back(
          {declared.tensor, declared.indices, role, ElementType::F64, reference.loc});
      if (!at(TokenKind::Comma))
        break;
      consume();
    }
    if (!at(TokenKind::Colon))
      return expect(TokenKind::Semicolon, "',', ':' or ';' after the tensor");
    // What follows ':' applies to every tensor of the declaration, so it ends it.
    consume();
    bool typed = false, sparse = false;
    const Token *restricted = nullptr;
    bool paired[2] = {false, false}; // antisymmetric, symmetric
    while (!at(TokenKind::Semicolon)) {
      if (sparse && !restricted && atIdentifier("restricted")) {
        restricted = &consume();
        if (!restrict(first, *restricted))
          return false;
      } else if (sparse && ((atIdentifier("antisymmetric") && !paired[0]) ||
                            (atIdentifier("symmetric") && !paired[1]))) {
        const bool anti = peek().text == "antisymmetric";
        paired[anti ? 0 : 1] = true;
        if (!parsePairs(first, anti))
          return false;
      } else if (!sparse && (atIdentifier("antisymmetric") || atIdentifier("symmetric"))) {
        return fail(peek().loc, quoted(peek().text) +
                                    " follows the blocks of a block-sparse tensor ('symmetry', "
                                    "'charge' or 'blocks')");
      } else if (!typed && (atIdentifier("f32") || atIdentifier("f64"))) {
        typed = true;
        const ElementType element = consume().text == "f32" ? ElementType::F32 : ElementType::F64;
        for (size_t i = first; i < program.tensors.size(); ++i)
          program.tensors[i].element = element;
      } else if (!sparse &&
                 (atIdentifier("symmetry") || atIdentifier("charge") || atIdentifier("blocks"))) {
        sparse = true;
        if (!parseBlockPresence(first))
          return false;
      } else if (!sparse && atIdentifier("restricted")) {
        return fail(peek().loc, "'restricted' follows the blocks of a block-sparse tensor "
                                "('symmetry', 'charge' or 'blocks')");
      } else {
        std::vector<std::string> expected;
        if (!typed)
          expected = {"'f64'", "'f32'"};
        if (!sparse)
          expected.insert(expected.end(), {"'symmetry'", "'charge'", "'blocks'"});
        else {
          if (!restricted)
            expected.push_back("'restricted'");
          if (!paired[0])
            expected.push_back("'antisymmetric'");
          if (!paired[1])
            expected.push_back("'symmetric'");
        }
        if (typed || sparse)
          expected.push_back("';'");
        std::string list;
        for (size_t i = 0; i < expected.size(); ++i)
          list += (i == 0 ? "" : i + 1 == expected.size() ? " or " : ", ") + expected[i];
        return failExpected(list);
      }
    }
    consume();
    return true;
  }

  /// `restricted` (spin restriction, a closed-shell reference): the tensors
  /// of a declaration from `first` on equal their blocks with every spin
  /// flipped (IndexRange::partners), so each stores one of each pair.
  bool restrict(size_t first, const Token &keyword) {
    for (size_t i = first; i < program.tensors.size(); ++i) {
      Tensor &tensor = program.tensors[i];
      std::vector<std::vector<int64_t>> flip;
      if (std::string why = program.flip(tensor, flip); !why.empty())
        return fail(keyword.loc, quoted(tensor.name) + " cannot be restricted: " + why);
      BlockSparseShape shape{program.segments(tensor), tensor.presence};
      shape.presence.flip = std::move(flip);
      if (std::string wrong = shape.verify(program.extents(tensor)); !wrong.empty())
        return fail(keyword.loc, "the blocks of restricted " + quoted(tensor.name) + ": " + wrong);
      tensor.presence = shape.presence;
    }
    return true;
  }

  /// `antisymmetric [a, b] [i, j]` or `symmetric [a, b]` (permutational
  /// symmetry, NWChem TCE's): the tensors of a declaration from `first` on
  /// change sign (or not) when the indices of each pair are exchanged, so
  /// each stores one block of each set the exchanges relate. Each name is one
  /// of every such tensor's indices, and the pair's two dimensions have the
  /// same segments.
  bool parsePairs(size_t first, bool antisymmetric) {
    const Token &keyword = consume();
    std::vector<std::pair<const Token *, const Token *>> named;
    do {
      const Token *one = nullptr, *two = nullptr;
      if (!expect(TokenKind::LBracket, "'[' and two indices after " + quoted(keyword.text)) ||
          !expectIdentifier("an index", one) || !expect(TokenKind::Comma, "',' between the pair") ||
          !expectIdentifier("an index", two) ||
          !expect(TokenKind::RBracket, "']' after the pair's two indices"))
        return false;
      named.push_back({one, two});
    } while (at(TokenKind::LBracket));
    for (size_t i = first; i < program.tensors.size(); ++i) {
      Tensor &tensor = program.tensors[i];
      BlockSparseShape shape{program.segments(tensor), tensor.presence};
      for (auto [one, two] : named) {
        int64_t dims[2];
        for (int k = 0; k < 2; ++k) {
          const Token *name = k ? two : one;
          auto at = std::find(tensor.indices.begin(), tensor.indices.end(), name->text);
          if (at == tensor.indices.end())
            return fail(name->loc, quoted(tensor.name) + " has no index " + quoted(name->text) +
                                       " to exchange (" + std::string(keyword.text) + ")");
          dims[k] = at - tensor.indices.begin();
        }
        shape.presence.pairs.push_back(
            {std::min(dims[0], dims[1]), std::max(dims[0], dims[1]), antisymmetric});
      }
      std::stable_sort(
          shape.presence.pairs.begin(), shape.presence.pairs.end(),
          [](const PairSymmetry &x, const PairSymmetry &y) { return x.first < y.first; });
      if (std::string wrong = shape.verify(program.extents(tensor)); !wrong.empty())
        return fail(keyword.loc, "the blocks of " + quoted(tensor.name) + " with " +
                                     std::string(keyword.text) + " pairs: " + wrong);
      tensor.presence = shape.presence;
    }
    return true;
  }

  /// `symmetry S` (the blocks whose segment ids XOR to S, TCE's spatial
  /// symmetry), optionally followed by `charge Q signs [...]` (a conserved
  /// charge, ChargeRule), or the charge rule alone, `blocks all`, or `blocks
  /// [[ids], ...]`, for the tensors of a declaration from `first` on; each
  /// must range over segmented indices.
  bool parseBlockPresence(size_t first) {
    const Token &keyword = consume();
    BlockPresence presence;
    std::optional<int64_t> symmetry;
    std::optional<ChargeRule> charge;
    if (keyword.text == "symmetry") {
      presence.kind = BlockPresence::Kind::Symmetry;
      if (!parseInteger(presence.symmetry, "the symmetry", 0))
        return false;
      symmetry = presence.symmetry;
    }
    if (keyword.text == "charge" || atIdentifier("charge")) {
      if (keyword.text != "charge")
        consume();
      presence.kind = BlockPresence::Kind::Symmetry;
      charge.emplace();
      if (!parseChargeRule(*charge))
        return false;
    }
    if (presence.kind == BlockPresence::Kind::Symmetry) {
      // resolved per tensor below
    } else if (atIdentifier("all")) {
      consume();
    } else {
      presence.kind = BlockPresence::Kind::List;
      if (!expect(TokenKind::LBracket, "'all' or '[' after 'blocks'"))
        return false;
      while (true) {
        std::vector<int64_t> ids;
        if (!parseIntegerList(ids, "a segment id", 0))
          return false;
        presence.blocks.push_back(std::move(ids));
        if (at(TokenKind::RBracket)) {
          consume();
          break;
        }
        if (!expect(TokenKind::Comma, "',' or ']' after a block"))
          return false;
      }
    }
    for (size_t i = first; i < program.tensors.size(); ++i) {
      Tensor &tensor = program.tensors[i];
      for (const std::string &indexName : tensor.indices) {
        const Index *index = program.findIndex(indexName);
        if (findRange(index->range)->segments.empty())
          return fail(keyword.loc, quoted(tensor.name) + " is block-sparse but its index " +
                                       quoted(indexName) + " ranges over " + index->range +
                                       ", which has no segments (declare 'range " +
                                       index->range + " = N : segments [...];')");
      }
      BlockSparseShape shape{program.segments(tensor), presence};
      if (charge && charge->signs.size() != tensor.indices.size())
        return fail(keyword.loc, quoted(tensor.name) + " has " +
                                     std::to_string(tensor.indices.size()) +
                                     " indices but its charge has " +
                                     std::to_string(charge->signs.size()) + " signs");
      // With labelled segments a symmetry names the blocks whose labels XOR to
      // it (and whose charges sum to the rule's total): kept as that list (or
      // as a symmetry when that names it), the form the dialect and the
      // planner read.
      if (presence.kind == BlockPresence::Kind::Symmetry) {
        std::vector<std::vector<int64_t>> blocks =
            program.symmetricBlocks(tensor, symmetry, charge ? &*charge : nullptr);
        if (blocks.empty())
          return fail(
              keyword.loc,
              quoted(tensor.name) + " has no present block (no block's " +
                  (symmetry ? "segment labels XOR to " + std::to_string(*symmetry) : "") +
                  (symmetry && charge ? " with " : "") +
                  (charge ? "signed charges summing to " + std::to_string(charge->total) : "") +
                  ")");
        shape.presence = simplestPresence(shape.segments, std::move(blocks));
      }
      std::string wrong = shape.verify(program.extents(tensor));
      if (!wrong.empty())
        return fail(keyword.loc, "the blocks of " + quoted(tensor.name) + ": " + wrong);
      tensor.blockSparse = true;
      tensor.presence = shape.presence;
    }
    return true;
  }

  /// NAME '[' (index (',' index)*)? ']'
  bool parseReference(Reference &reference) {
    const Token *name = nullptr;
    if (!expectIdentifier("a tensor name", name) || !checkNotReserved(*name))
      return false;
    reference.name = std::string(name->text);
    reference.loc = name->loc;
    return parseIndexList(reference.indices, "'[' after " + quoted(name->text));
  }

  bool parseIndexList(std::vector<IndexUse> &indices, std::string_view openingWhat) {
    if (!expect(TokenKind::LBracket, openingWhat))
      return false;
    if (at(TokenKind::RBracket)) {
      consume();
      return true;
    }
    while (true) {
      const Token *name = nullptr;
      if (!expectIdentifier("an index name", name))
        return false;
      indices.push_back({std::string(name->text), name->loc});
      if (at(TokenKind::RBracket)) {
        consume();
        return true;
      }
      if (!expect(TokenKind::Comma, "',' or ']' after index " + quoted(name->text)))
        return false;
    }
  }

  //--- Statements -----------------------------------------------------------

  /// What the terms of one statement share.
  struct StatementContext {
    const Reference &target;
    bool hasElement = false; ///< a new intermediate takes its first factor's type
    ElementType element = ElementType::F64;
    bool blockSparse = false; ///< with hasElement: every tensor of it is, or none
  };

  bool parseStatement() {
    Reference target;
    if (!parseReference(target))
      return false;
    bool accumulate = at(TokenKind::PlusEqual);
    if (!at(TokenKind::Equal) && !accumulate)
      return failExpected("'=' or '+=' after the target");
    consume();

    StatementContext context{target};
    const Tensor *declared = program.findTensor(target.name);
    if (declared) {
      // In a loop an input is the first value of a tensor the loop carries.
      if (declared->role == TensorRole::Input && !inLoop())
        return fail(target.loc, "input " + quoted(target.name) +
                                    " cannot be assigned (except in a loop, which it starts)");
      if (!checkAgainstDeclaration(target, *declared))
        return false;
      // An output starts at zero, but a loop's first iteration would add to
      // a value the loop carries: it must have one before the loop.
      if (accumulate && inLoop() && declared->role == TensorRole::Output &&
          !assigned.count(declared->name))
        return fail(target.loc, "output " + quoted(target.name) +
                                    " is accumulated (+=) in a loop before it has a value: "
                                    "assign it before the loop");
      context.hasElement = true;
      context.element = declared->element;
      context.blockSparse = declared->blockSparse;
    } else {
      if (accumulate)
        return fail(target.loc, quoted(target.name) + " is accumulated (+=) before it is assigned");
      if (!checkIndicesDeclaredAndDistinct(target))
        return false;
    }

    Statement statement;
    statement.target = target.toFactor();
    statement.accumulate = accumulate;
    statement.loc = target.loc;
    if (inLoop())
      statement.loop = static_cast<int>(program.loops.size()) - 1;
    // `1 / (terms)` or `1 / Y[...]`: the reciprocal of the value.
    bool parenthesized = false;
    if (at(TokenKind::Number) && peek().number == 1 && at(TokenKind::Slash, 1)) {
      const Token &one = consume();
      consume(); // '/'
      if (accumulate)
        return fail(one.loc, "'1 / ...' assigns a reciprocal; it takes '=', not '+='");
      statement.reciprocal = true;
      parenthesized = at(TokenKind::LParen);
      if (parenthesized)
        consume();
    }
    double sign = 1;
    bool first = true;
    while (true) {
      const SourceLoc termLoc = peek().loc;
      if (!parseTerm(context, first, sign, statement.terms))
        return false;
      first = false;
      if (statement.reciprocal && !parenthesized) {
        const Term &only = statement.terms.back();
        if (statement.terms.size() != 1 || only.factors.size() != 1 || only.coefficient != 1)
          return fail(termLoc, "'1 /' without parentheses takes one tensor: write '1 / (...)' "
                               "for the reciprocal of a product or a sum");
      }
      if (at(TokenKind::Plus) || at(TokenKind::Minus)) {
        if (statement.reciprocal && !parenthesized)
          return fail(peek().loc, "'1 /' takes one tensor: write '1 / (...)' for the "
                                  "reciprocal of a sum");
        sign = consume().kind == TokenKind::Minus ? -1 : 1;
        continue;
      }
      if (parenthesized && !expect(TokenKind::RParen, "'*', '+', '-' or ')'"))
        return false;
      if (!expect(TokenKind::Semicolon, parenthesized ? "';' after ')'" : "'*', '+', '-' or ';'"))
        return false;
      break;
    }

    if (!declared) {
      Factor &t = statement.target;
      program.tensors.push_back({t.tensor, t.indices, TensorRole::Intermediate, context.element,
                                 t.loc, context.blockSparse, BlockPresence{}});
    }
    assigned.insert(target.name);
    program.statements.push_back(std::move(statement));
    return true;
  }

  /// A term as written, before its antisymmetrizers are expanded.
  struct TermState {
    Term term;
    std::vector<Reference> factors; ///< with the index locations, for errors
    std::vector<std::pair<std::string, std::string>> exchanges; ///< P(ij) as (i, j)
    bool hasSum = false;
    std::vector<IndexUse> summed;
  };

  /// [sign] item (['*'] item)*, then the checks that need the whole term, then
  /// the expansion into `terms`. `sign` comes from the separator before the
  /// term; only the first term may carry its own.
  bool parseTerm(StatementContext &context, bool first, double sign, std::vector<Term> &terms) {
    TermState state;
    state.term.loc = peek().loc;
    state.term.coefficient = sign;
    if (first && (at(TokenKind::Plus) || at(TokenKind::Minus)))
      if (consume().kind == TokenKind::Minus)
        state.term.coefficient = -1;
    while (true) {
      if (!parseTermItem(context, state))
        return false;
      if (at(TokenKind::Star)) {
        consume(); // an item must follow
        continue;
      }
      if (at(TokenKind::Number) || at(TokenKind::Identifier))
        continue; // juxtaposed
      break;
    }
    if (!checkTerm(context, state))
      return false;
    expandAntisymmetrizers(state.term, state.exchanges, terms);
    return true;
  }

  bool parseTermItem(StatementContext &context, TermState &state) {
    if (at(TokenKind::Number)) {
      state.term.coefficient *= consume().number;
      return true;
    }
    if (atIdentifier("P") && at(TokenKind::LParen, 1))
      return parseAntisymmetrizer(context, state);
    if (atIdentifier("sum") && at(TokenKind::LBracket, 1))
      return parseSum(state);
    if (!at(TokenKind::Identifier))
      return failExpected("a number, P(...), sum[...] or a tensor reference");
    Reference reference;
    if (!parseReference(reference) || !checkFactor(context, reference))
      return false;
    state.term.factors.push_back(reference.toFactor());
    state.factors.push_back(std::move(reference));
    return true;
  }

  bool checkFactor(StatementContext &context, const Reference &reference) {
    const Tensor *tensor = program.findTensor(reference.name);
    if (!tensor && !assignedLater.count(reference.name))
      return fail(reference.loc, quoted(reference.name) +
                                     " is not declared (declare it as an input or assign it "
                                     "with '=' first)");
    if (!tensor || (tensor->role == TensorRole::Output && !assigned.count(tensor->name)))
      return fail(reference.loc,
                  quoted(reference.name) + " is used before it is assigned" +
                      (inLoop() ? std::string(" (a tensor a loop reads before assigning it "
                                              "needs a value before the loop)")
                                : std::string()));
    if (!checkAgainstDeclaration(reference, *tensor))
      return false;
    if (!context.hasElement) {
      context.hasElement = true;
      context.element = tensor->element;
      context.blockSparse = tensor->blockSparse;
    } else if (tensor->element != context.element) {
      return fail(reference.loc, quoted(tensor->name) + " is " + elementName(tensor->element) +
                                     " but this statement computes " +
                                     elementName(context.element));
    } else if (tensor->blockSparse != context.blockSparse) {
      // [K] 2: a block-sparse contraction's operands are all block-sparse.
      auto kind = [](bool sparse) { return sparse ? "block-sparse" : "dense"; };
      return fail(reference.loc, quoted(tensor->name) + " is " + kind(tensor->blockSparse) +
                                     " but this statement computes with " +
                                     kind(context.blockSparse) +
                                     " tensors (one statement is all block-sparse or all dense)");
    }
    return true;
  }

  /// `sum[c,d]`: the indices are checked against the factors once the term ends.
  bool parseSum(TermState &state) {
    const Token &keyword = consume();
    if (state.hasSum)
      return fail(keyword.loc, "a term takes at most one sum[...]");
    state.hasSum = true;
    if (!parseIndexList(state.summed, "'[' after 'sum'"))
      return false;
    for (size_t k = 0; k < state.summed.size(); ++k) {
      const IndexUse &use = state.summed[k];
      const Index *index = nullptr;
      if (!requireIndex(use, index))
        return false;
      for (size_t earlier = 0; earlier < k; ++earlier)
        if (state.summed[earlier].name == use.name)
          return fail(use.loc, "index " + quoted(use.name) + " appears twice in sum[...]");
    }
    return true;
  }

  /// `P(ij)`, `P(i,j)` or `P(i j)`. A name that is not a declared index, such as
  /// `ij`, stands for its letters.
  bool parseAntisymmetrizer(const StatementContext &context, TermState &state) {
    const Token &keyword = consume();
    consume(); // '('
    if (state.exchanges.size() == kMaxAntisymmetrizersPerTerm)
      return fail(keyword.loc, "a term takes at most " +
                                   std::to_string(kMaxAntisymmetrizersPerTerm) +
                                   " antisymmetrizers");
    std::vector<IndexUse> uses;
    while (true) {
      const Token *name = nullptr;
      if (!expectIdentifier("an index name in P(...)", name))
        return false;
      if (program.findIndex(name->text) || name->text.size() == 1) {
        uses.push_back({std::string(name->text), name->loc});
      } else {
        for (size_t k = 0; k < name->text.size(); ++k)
          uses.push_back({std::string(1, name->text[k]),
                          {name->loc.line, name->loc.column + static_cast<int>(k)}});
      }
      if (at(TokenKind::RParen)) {
        consume();
        break;
      }
      if (at(TokenKind::Comma))
        consume();
      else if (!at(TokenKind::Identifier))
        return failExpected("',', an index name or ')' in P(...)");
    }
    for (const IndexUse &use : uses) {
      const Index *index = nullptr;
      if (!requireIndex(use, index))
        return false;
    }
    if (uses.size() != 2)
      return fail(keyword.loc,
                  "P(...) exchanges exactly two indices, not " + std::to_string(uses.size()));
    if (uses[0].name == uses[1].name)
      return fail(uses[1].loc, "P(...) exchanges two distinct indices, not " +
                                   quoted(uses[0].name) + " with itself");
    for (const IndexUse &use : uses)
      if (!contains(context.target.indices, use.name))
        return fail(use.loc,
                    "index " + quoted(use.name) + " of P(...) is not an index of the target");
    const Index *left = program.findIndex(uses[0].name);
    const Index *right = program.findIndex(uses[1].name);
    if (left->range != right->range)
      return fail(keyword.loc, "P(...) exchanges " + quoted(left->name) + " and " +
                                   quoted(right->name) + ", which range over " + left->range +
                                   " and " + right->range);
    state.exchanges.emplace_back(uses[0].name, uses[1].name);
    return true;
  }

  /// A tensor, and sum[...] naming exactly the indices that are summed. A
  /// target index no factor has broadcasts the term along it
  /// (D[a,i] = e[i] - f[a]).
  bool checkTerm(const StatementContext &context, const TermState &state) {
    const Term &term = state.term;
    if (state.factors.empty())
      return fail(term.loc, "a term needs at least one tensor reference");
    // Each index at its first appearance in a factor, in text order.
    std::vector<IndexUse> factorIndices;
    for (const Reference &factor : state.factors)
      for (const IndexUse &use : factor.indices)
        if (!contains(factorIndices, use.name))
          factorIndices.push_back(use);
    const std::vector<IndexUse> &target = context.target.indices;
    if (!state.hasSum)
      return true;
    for (const IndexUse &use : state.summed) {
      if (contains(target, use.name))
        return fail(use.loc,
                    "index " + quoted(use.name) + " is summed but is an index of the target");
      if (!contains(factorIndices, use.name))
        return fail(use.loc, "index " + quoted(use.name) +
                                 " is summed but appears in no factor of this term");
    }
    for (const IndexUse &use : factorIndices)
      if (!contains(target, use.name) && !contains(state.summed, use.name))
        return fail(use.loc, "index " + quoted(use.name) +
                                 " is not in the target and must be listed in sum[...]");
    return true;
  }
};

} // namespace

bool parseTCE(std::string_view text, Program &program, Diagnostic &error) {
  return Parser(text).parse(program, error);
}

} // namespace mlir::tc::tce
