// Where a pointer or an lvalue points: its root (a kernel parameter, a
// __shared__ or __device__ array) and its byte offset as an affine form.
#include "Analysis/AffineIndex.h"
#include "Analysis/AffineInternal.h"
#include "Analysis/Budget.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecordLayout.h"

using namespace clang;

namespace warplint {

Address AffineAnalysis::pointer(const Expr *E, const FunctionDecl *F) {
  return pointerIn(E, Env{F, nullptr, nullptr, 0});
}
Address AffineAnalysis::lvalue(const Expr *E, const FunctionDecl *F) {
  return lvalueIn(E, Env{F, nullptr, nullptr, 0});
}

static Address offsetBy(Address A, const AffineForm &Bytes) {
  if (!A.Known)
    return A;
  A.Offset = add(A.Offset, Bytes);
  A.Known = A.Offset.Known;
  return A;
}

static Address rootAt(const ValueDecl *Root, MemorySpace Space) {
  Address A;
  A.Root = Root;
  A.Space = Space;
  A.Offset = AffineForm::constant(0);
  A.Known = true;
  return A;
}

Address AffineAnalysis::pointerIn(const Expr *E, const Env &En) {
  NestingScope Scope(Nesting);
  if (Scope.exhausted())
    return {};
  E = E->IgnoreParens();
  if (E->isTypeDependent() || E->isValueDependent())
    return {};
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return lvalueIn(CE->getSubExpr(), En);
    case CK_BitCast:
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_AddressSpaceConversion:
      return pointerIn(CE->getSubExpr(), En);
    default:
      return {};
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->getType()->isPointerType())
      return {};
    if (isCapture(V, En.F)) {
      const Env *Owner = ownerEnv(V, En);
      return Owner ? pointerIn(E, *Owner) : Address();
    }
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      if (En.PtrParams) {
        auto It = En.PtrParams->find(P);
        return It != En.PtrParams->end() ? It->second : Address();
      }
      if (!definitions(En.F).count(V))
        return isKernel(En.F) ? rootAt(V, MemorySpace::Global) : Address();
    }
    if (V->isLocalVarDeclOrParm() && !V->isStaticLocal())
      return pointerVariable(V, En);
    if (V->hasGlobalStorage() && V->hasAttr<CUDADeviceAttr>() &&
        !V->hasAttr<CUDAConstantAttr>())
      return rootAt(V, MemorySpace::Global);
    return {};
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return {};
    const Expr *Ptr = BO->getLHS(), *Int = BO->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Int);
    if (!Ptr->getType()->isPointerType() || Int->getType()->isPointerType())
      return {};
    auto Size = sizeOf(Ptr->getType()->getPointeeType(), Ctx);
    if (!Size)
      return {};
    AffineForm I = formIn(Int, En);
    if (BO->getOpcode() == BO_Sub)
      I = scale(I, -1);
    return offsetBy(pointerIn(Ptr, En), scale(I, *Size));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      return lvalueIn(UO->getSubExpr(), En);
  // A pointer member of a struct the kernel takes by value (the usual
  // "struct of device arrays" parameter): global memory, one root per field.
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (!ME->isArrow())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
            P && !En.Params && isKernel(En.F) && !definitions(En.F).count(P))
          if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
            return rootAt(FD, MemorySpace::Global);
  return {};
}

Address AffineAnalysis::pointerVariable(const VarDecl *V, const Env &En) {
  return followVariable(V, En, &AffineAnalysis::pointerIn);
}

Address AffineAnalysis::lvalueIn(const Expr *E, const Env &En) {
  NestingScope Scope(Nesting);
  if (Scope.exhausted())
    return {};
  E = E->IgnoreParens();
  if (E->isTypeDependent() || E->isValueDependent())
    return {};
  if (const auto *CE = dyn_cast<ImplicitCastExpr>(E))
    if (CE->getCastKind() == CK_NoOp)
      return lvalueIn(CE->getSubExpr(), En);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    auto Size = sizeOf(AS->getType(), Ctx);
    if (!Size)
      return {};
    AffineForm I = formIn(AS->getIdx(), En);
    return offsetBy(pointerIn(AS->getBase(), En), scale(I, *Size));
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->isBitField() || FD->getParent()->isInvalidDecl())
      return {};
    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(FD->getParent());
    int64_t Offset =
        Ctx.toCharUnitsFromBits(Layout.getFieldOffset(FD->getFieldIndex()))
            .getQuantity();
    Address Base = ME->isArrow() ? pointerIn(ME->getBase(), En)
                                 : lvalueIn(ME->getBase(), En);
    return offsetBy(Base, AffineForm::constant(Offset));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return pointerIn(UO->getSubExpr(), En);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return {};
    if (V->hasAttr<CUDASharedAttr>())
      return rootAt(V, MemorySpace::Shared);
    if (V->hasGlobalStorage() && V->hasAttr<CUDADeviceAttr>() &&
        !V->hasAttr<CUDAConstantAttr>() && !V->isLocalVarDeclOrParm())
      return rootAt(V, MemorySpace::Global);
    if (V->getType()->isReferenceType())
      if (const Expr *Init = V->getInit())
        if (definitions(En.F).lookup(V).List.size() == 1)
          return lvalueIn(Init, En);
  }
  return {};
}

} // namespace warplint
