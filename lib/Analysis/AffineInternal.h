// What the files of the affine analysis share and nothing else uses: the
// operations of the form algebra (AffineForm.cpp) and small AST predicates.
#pragma once
#include "Analysis/AffineForm.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <optional>
#include <string>

namespace warplint {

AffineForm add(const AffineForm &A, const AffineForm &B);
AffineForm scale(const AffineForm &A, int64_t K);
// A thread-dependent form times a uniform value known only at run time.
AffineForm scaleBySymbol(const AffineForm &A, const std::string &Name);
// Whether F is exactly the thread term T.
bool isExactly(const AffineForm &F, ThreadTerm T);

// A __global__ function.
inline bool isKernel(const clang::FunctionDecl *F) {
  return F->hasAttr<clang::CUDAGlobalAttr>();
}

// The local variable or parameter E names (not a static or __shared__ one).
inline const clang::VarDecl *asLocalVar(const clang::Expr *E) {
  const auto *DRE =
      llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  const auto *V = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl());
  if (!V || !V->isLocalVarDeclOrParm() || V->isStaticLocal() ||
      V->hasAttr<clang::CUDASharedAttr>())
    return nullptr;
  return V;
}

// A local or parameter of another function than F: a lambda's capture.
inline bool isCapture(const clang::VarDecl *V, const clang::FunctionDecl *F) {
  return V->isLocalVarDeclOrParm() && !V->isStaticLocal() &&
         V->getDeclContext() != F;
}

// The size of T in bytes, where it has one.
inline std::optional<int64_t> sizeOf(clang::QualType T,
                                     const clang::ASTContext &Ctx) {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

} // namespace warplint
