#include "SourceText.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace warplint::lsp {

namespace {

// CUDA C++ as the raw lexer needs it to measure tokens and find comments.
clang::LangOptions cudaLangOptions() {
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.CUDA = true;
  LO.LineComment = true;
  return LO;
}

// A raw lexer over Text from Offset (Text must be a std::string's: the
// lexer reads its terminating null).
clang::Lexer rawLexer(const std::string &Text, size_t Offset) {
  static const clang::LangOptions LO = cudaLangOptions();
  return clang::Lexer(clang::SourceLocation(), LO, Text.data(),
                      Text.data() + Offset, Text.data() + Text.size());
}

} // namespace

unsigned tokenLength(const std::string &Text, size_t Offset) {
  if (Offset >= Text.size() || isSpace(Text[Offset]))
    return 0;
  clang::Lexer L = rawLexer(Text, Offset);
  clang::Token Tok;
  L.LexFromRawLexer(Tok);
  return Tok.is(clang::tok::eof) ? 0 : Tok.getLength();
}

bool lineEndsInComment(const std::string &Text, size_t Start, size_t End) {
  clang::Lexer L = rawLexer(Text, Start);
  L.SetCommentRetentionState(true);
  bool Comment = false;
  for (clang::Token Tok;;) {
    L.LexFromRawLexer(Tok);
    size_t At = L.getBufferLocation() - Text.data() - Tok.getLength();
    if (Tok.is(clang::tok::eof) || At >= End)
      return Comment;
    Comment = Tok.is(clang::tok::comment);
  }
}

std::string shorten(StringRef S) {
  S = S.trim();
  if (S.size() <= 40 && !S.contains('\n'))
    return S.str();
  return S.take_front(std::min<size_t>(S.find('\n'), 37)).str() + "...";
}

std::optional<std::string> uriOf(const json &Params) {
  const json *Doc = objectMember(Params, "textDocument");
  if (!Doc)
    return std::nullopt;
  return stringMember(*Doc, "uri");
}

} // namespace warplint::lsp
