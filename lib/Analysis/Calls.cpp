#include "Analysis/Calls.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warplint {

llvm::StringRef globalCalleeName(const CallExpr *Call) {
  if (const FunctionDecl *F = Call->getDirectCallee())
    return F->getDeclName().isIdentifier() &&
                   F->getDeclContext()->getRedeclContext()->isTranslationUnit()
               ? F->getName()
               : llvm::StringRef();
  if (const auto *U = dyn_cast<UnresolvedLookupExpr>(
          Call->getCallee()->IgnoreParenImpCasts()))
    if (!U->getQualifierLoc() && U->getName().isIdentifier())
      return U->getName().getAsIdentifierInfo()->getName();
  return {};
}

const Expr *callArgument(const CallExpr *Call, int Index) {
  if (Index < 0 || unsigned(Index) >= Call->getNumArgs())
    return nullptr;
  const Expr *E = Call->getArg(Index);
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    return D->getExpr();
  return E;
}

} // namespace warplint
