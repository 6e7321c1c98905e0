//===- TCELexer.cpp - tokens of the tensor-expression language ------------===//
#include "TCELexer.h"

#include <charconv>
#include <cmath>
#include <utility>

namespace mlir::tc::tce {
namespace {

bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isWordChar(char c) { return isLetter(c) || isDigit(c); }

class Lexer {
public:
  explicit Lexer(std::string_view source) : text(source) {}

  std::vector<Token> lexAll() {
    std::vector<Token> tokens;
    while (true) {
      tokens.push_back(lexToken());
      TokenKind kind = tokens.back().kind;
      if (kind == TokenKind::End || kind == TokenKind::Error)
        return tokens;
    }
  }

private:
  std::string_view text;
  size_t position = 0;
  SourceLoc loc{1, 1};

  char peekChar(size_t ahead = 0) const {
    return position + ahead < text.size() ? text[position + ahead] : '\0';
  }

  void advance() {
    if (text[position] == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column; // a tab is one column too
    }
    ++position;
  }

  void skipSpaceAndComments() {
    while (position < text.size()) {
      char c = peekChar();
      if (c == '#' || (c == '/' && peekChar(1) == '/')) {
        while (position < text.size() && peekChar() != '\n')
          advance();
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
        advance();
      } else {
        return;
      }
    }
  }

  Token makeToken(TokenKind kind, size_t begin, SourceLoc start) const {
    Token token;
    token.kind = kind;
    token.text = text.substr(begin, position - begin);
    token.loc = start;
    return token;
  }

  Token makeError(SourceLoc start, std::string message) const {
    Token token;
    token.kind = TokenKind::Error;
    token.loc = start;
    token.message = std::move(message);
    return token;
  }

  Token lexToken() {
    skipSpaceAndComments();
    size_t begin = position;
    SourceLoc start = loc;
    if (position == text.size())
      return makeToken(TokenKind::End, begin, start);
    char c = peekChar();
    if (isLetter(c)) {
      while (isWordChar(peekChar()))
        advance();
      return makeToken(TokenKind::Identifier, begin, start);
    }
    if (isDigit(c) || (c == '.' && isDigit(peekChar(1))))
      return lexNumber();
    auto punctuation = [&](TokenKind kind, size_t length) {
      for (size_t i = 0; i < length; ++i)
        advance();
      return makeToken(kind, begin, start);
    };
    switch (c) {
    case ';':
      return punctuation(TokenKind::Semicolon, 1);
    case ',':
      return punctuation(TokenKind::Comma, 1);
    case ':':
      return punctuation(TokenKind::Colon, 1);
    case '[':
      return punctuation(TokenKind::LBracket, 1);
    case ']':
      return punctuation(TokenKind::RBracket, 1);
    case '(':
      return punctuation(TokenKind::LParen, 1);
    case ')':
      return punctuation(TokenKind::RParen, 1);
    case '{':
      return punctuation(TokenKind::LBrace, 1);
    case '}':
      return punctuation(TokenKind::RBrace, 1);
    case '=':
      return punctuation(TokenKind::Equal, 1);
    case '+':
      return peekChar(1) == '=' ? punctuation(TokenKind::PlusEqual, 2)
                                : punctuation(TokenKind::Plus, 1);
    case '-':
      return punctuation(TokenKind::Minus, 1);
    case '*':
      return punctuation(TokenKind::Star, 1);
    case '/': // (a comment's // is skipped before)
      return punctuation(TokenKind::Slash, 1);
    default:
      break;
    }
    // Bytes outside printable ASCII (UTF-8, control characters) are shown by value.
    unsigned char byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f)
      return makeError(start, std::string("unexpected character '") + c + "'");
    static const char hex[] = "0123456789abcdef";
    return makeError(start, std::string("unexpected byte 0x") + hex[byte >> 4] + hex[byte & 15]);
  }

  /// Integers, decimals (0.5, .5, 2.) and exponents (1e-3, 2.5E+2).
  Token lexNumber() {
    size_t begin = position;
    SourceLoc start = loc;
    while (isDigit(peekChar()))
      advance();
    if (peekChar() == '.') {
      advance();
      while (isDigit(peekChar()))
        advance();
    }
    char e = peekChar();
    if ((e == 'e' || e == 'E') &&
        (isDigit(peekChar(1)) ||
         ((peekChar(1) == '+' || peekChar(1) == '-') && isDigit(peekChar(2))))) {
      advance();
      if (!isDigit(peekChar()))
        advance();
      while (isDigit(peekChar()))
        advance();
    }
    // `2x`, `1.5.3` or `1e` would otherwise lex as two tokens and read as a product.
    if (isWordChar(peekChar()) || peekChar() == '.') {
      while (isWordChar(peekChar()) || peekChar() == '.')
        advance();
      return makeError(start, "malformed number '" +
                                  std::string(text.substr(begin, position - begin)) + "'");
    }
    Token token = makeToken(TokenKind::Number, begin, start);
    const char *first = text.data() + begin;
    const char *last = text.data() + position;
    auto [end, status] = std::from_chars(first, last, token.number);
    if (status != std::errc() || end != last || !std::isfinite(token.number))
      return makeError(start, "the number '" + std::string(token.text) + "' is out of range");
    return token;
  }
};

} // namespace

std::vector<Token> lexTCE(std::string_view text) { return Lexer(text).lexAll(); }

} // namespace mlir::tc::tce
