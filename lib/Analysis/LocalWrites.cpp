#include "Analysis/LocalWrites.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warplint {

LocalWrites::LocalWrites(const Stmt *Body) { walk(Body); }

// Whether the lvalue at the top of Path (a reference to a local, innermost
// last) is only read where it is used: converted to an rvalue, directly or
// through `.field` and parentheses, made const (bound to a const reference,
// as `k<<<g, block>>>` copies a dim3), or copied by a copy constructor.
static bool isRead(llvm::ArrayRef<const Stmt *> Path) {
  for (size_t I = Path.size() - 1; I-- > 0;) {
    const Stmt *Use = Path[I];
    if (isa<ParenExpr>(Use))
      continue;
    if (const auto *M = dyn_cast<MemberExpr>(Use);
        M && !M->isArrow() && M->getBase()->IgnoreParens() == Path[I + 1] &&
        isa<FieldDecl>(M->getMemberDecl()))
      continue;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Use)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        return true;
      // Made const (to bind a const reference): nothing can write it.
      return Cast->getCastKind() == CK_NoOp && Cast->isGLValue() &&
             Cast->getType().isConstQualified();
    }
    if (const auto *Ctor = dyn_cast<CXXConstructExpr>(Use))
      return Ctor->getConstructor()->isCopyConstructor() &&
             Ctor->getNumArgs() >= 1 &&
             Ctor->getArg(0)->IgnoreParens() == Path[I + 1];
    return false;
  }
  return false;
}

void LocalWrites::walk(const Stmt *S) {
  if (!S)
    return;
  Path.push_back(S);
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        Locals.push_back(V);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && V->hasLocalStorage() && !isRead(Path))
      Writes[V].push_back(DRE);
  }
  // A lambda's body is walked too: a capture by reference may write.
  for (const Stmt *Child : S->children())
    walk(Child);
  Path.pop_back();
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
