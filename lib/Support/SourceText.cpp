#include "Support/SourceText.h"
#include "clang/Lex/Lexer.h"
#include <cctype>

using namespace clang;

namespace warplint {

// The range of the file that S is written in: S itself when its tokens are
// all in the file or in one macro argument, else nothing.
static CharSourceRange fileRange(const Stmt *S, const ASTContext &Ctx) {
  return Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
}

static std::string oneLine(CharSourceRange R, const ASTContext &Ctx,
                           size_t MaxLen) {
  StringRef Text =
      Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts());
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

std::string sourceText(const Stmt *S, const ASTContext &Ctx, size_t MaxLen) {
  return oneLine(fileRange(S, Ctx), Ctx, MaxLen);
}

// The text messageText shows: S itself, or the macro invocations S comes
// from.
static CharSourceRange shownRange(const Stmt *S, const ASTContext &Ctx) {
  CharSourceRange R = fileRange(S, Ctx);
  if (R.isValid())
    return R;
  const SourceManager &SM = Ctx.getSourceManager();
  return Lexer::getAsCharRange(SM.getExpansionRange(S->getSourceRange()), SM,
                               Ctx.getLangOpts());
}

std::string messageText(const Stmt *S, const ASTContext &Ctx, size_t MaxLen) {
  return oneLine(shownRange(S, Ctx), Ctx, MaxLen);
}

std::optional<MacroOrigin> macroOrigin(const Stmt *S, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = S->getBeginLoc(), End = S->getEndLoc();
  if (!Begin.isMacroID() && !End.isMacroID())
    return std::nullopt;
  // Nothing to add when every token of S is spelled in the text shown (S is
  // written whole in one macro argument: FOO(a[i])).
  CharSourceRange Shown = shownRange(S, Ctx);
  auto IsShown = [&](SourceLocation L) {
    L = SM.getSpellingLoc(L);
    return Shown.isValid() &&
           SM.getFileID(L) == SM.getFileID(Shown.getBegin()) &&
           !SM.isBeforeInTranslationUnit(L, Shown.getBegin()) &&
           SM.isBeforeInTranslationUnit(L, Shown.getEnd());
  };
  if (IsShown(Begin) && IsShown(End))
    return std::nullopt;
  // The first token of S that a macro's body spells: a macro argument's
  // token stands where its parameter is in the body.
  for (SourceLocation InBody : {Begin, End}) {
    while (SM.isMacroArgExpansion(InBody))
      InBody = SM.getImmediateExpansionRange(InBody).getBegin();
    if (!InBody.isMacroID())
      continue;
    StringRef Name =
        Lexer::getImmediateMacroName(InBody, SM, Ctx.getLangOpts());
    if (!Name.empty())
      return MacroOrigin{Name.str(), SM.getSpellingLoc(InBody)};
  }
  return std::nullopt;
}

} // namespace warplint
