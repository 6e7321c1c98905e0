//===- TCELexer.h - tokens of the tensor-expression language ---*- C++ -*-===//
//
// The lexer of parseTCE (docs/TCELanguage.md), private to lib/Frontend.
//
//===----------------------------------------------------------------------===//
#ifndef TC_LIB_FRONTEND_TCELEXER_H
#define TC_LIB_FRONTEND_TCELEXER_H

#include "TC/Frontend/TCEProgram.h"

#include <string>
#include <string_view>
#include <vector>

namespace mlir::tc::tce {

enum class TokenKind {
  Identifier,
  Number,
  Semicolon,
  Comma,
  Colon,
  LBracket,
  RBracket,
  LParen,
  RParen,
  LBrace,
  RBrace,
  Equal,
  PlusEqual,
  Plus,
  Minus,
  Star,
  Slash,
  End,
  Error, ///< a bad character or malformed number; `message` says which
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  SourceLoc loc;
  double number = 0;   ///< Number only
  std::string message; ///< Error only
};

/// The whole text as tokens, ending with End or, at the first bad character or
/// number, with Error: the parser reports that error only when it gets there,
/// so errors still come in text order.
std::vector<Token> lexTCE(std::string_view text);

} // namespace mlir::tc::tce

#endif // TC_LIB_FRONTEND_TCELEXER_H
