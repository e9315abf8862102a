// The source text of a statement as the user wrote it, for messages.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <string>

namespace warplint {

// S as written (macros unexpanded) on one line with single spaces, cut to
// MaxLen characters with "..."; empty when it has no file text (it is, in
// part, the body of a macro).
std::string sourceText(const clang::Stmt *S, const clang::ASTContext &Ctx,
                       size_t MaxLen = std::string::npos);

// The same for messages: where S is not one stretch of the file (`a[i]` in
// `#define DOT(a, b) (a[i] * b[i])`), the text of the macro invocations it
// comes from, as clang-tidy shows it: 'DOT(x, y)'.
std::string messageText(const clang::Stmt *S, const clang::ASTContext &Ctx,
                        size_t MaxLen = std::string::npos);

// Where S is spelled, in part, in a macro's body (so that messageText shows
// the macro's invocation: 'DOT(x, y)', 'AT(p)'): the macro, and where in
// its definition S begins.
struct MacroOrigin {
  std::string Name;
  clang::SourceLocation Spelling;
};
std::optional<MacroOrigin> macroOrigin(const clang::Stmt *S,
                                       const clang::ASTContext &Ctx);

} // namespace warplint
