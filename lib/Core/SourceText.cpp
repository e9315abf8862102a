#include "Core/SourceText.h"
#include "clang/Lex/Lexer.h"
#include <cctype>

namespace warplint {

std::string sourceText(const clang::Stmt *S, const clang::ASTContext &Ctx,
                       size_t MaxLen) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::CharSourceRange R = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(S->getSourceRange()), SM,
      Ctx.getLangOpts());
  llvm::StringRef Text = clang::Lexer::getSourceText(R, SM, Ctx.getLangOpts());
  std::string Out;
  for (char C : Text) {
    if (isspace((unsigned char)C)) {
      if (!Out.empty() && Out.back() != ' ')
        Out += ' ';
    } else {
      Out += C;
    }
  }
  if (Out.size() > MaxLen && MaxLen > 3)
    Out = Out.substr(0, MaxLen - 3) + "...";
  return Out;
}

} // namespace warplint
