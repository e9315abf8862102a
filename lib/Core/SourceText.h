// The source text of a statement as the user wrote it, for messages.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <string>

namespace warplint {

// S as written (macros unexpanded) on one line with single spaces, cut to
// MaxLen characters with "..."; empty when it has no file text.
std::string sourceText(const clang::Stmt *S, const clang::ASTContext &Ctx,
                       size_t MaxLen = std::string::npos);

} // namespace warplint
