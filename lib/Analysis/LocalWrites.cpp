#include "Analysis/LocalWrites.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warplint {

LocalWrites::LocalWrites(const Stmt *Body) { walk(Body, nullptr); }

void LocalWrites::walk(const Stmt *S, const Stmt *Parent) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        Locals.push_back(V);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
    if (V && V->hasLocalStorage() &&
        !(Cast && Cast->getCastKind() == CK_LValueToRValue))
      Writes[V].push_back(DRE);
  }
  // A lambda's body is walked too: a capture by reference may write.
  for (const Stmt *Child : S->children())
    walk(Child, S);
}

bool LocalWrites::keepsInitialValue(const VarDecl *V) const {
  return V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getInit() &&
         !V->getType()->isReferenceType() && !Writes.count(V);
}

llvm::ArrayRef<const DeclRefExpr *>
LocalWrites::writes(const VarDecl *V) const {
  auto It = Writes.find(V);
  if (It == Writes.end())
    return {};
  return It->second;
}

} // namespace warplint
