// How the affine analysis follows a local variable: every definition of it
// in its function, which of them are uniform steps, and their join.
#include "Analysis/AffineIndex.h"
#include "Analysis/AffineInternal.h"
#include "Analysis/LocalWrites.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include <functional>

using namespace clang;

namespace warplint {

const llvm::DenseMap<const VarDecl *, AffineAnalysis::Defs> &
AffineAnalysis::definitions(const FunctionDecl *F) {
  auto It = DefCache.find(F);
  if (It != DefCache.end())
    return *It->second;
  auto Owned = std::make_unique<llvm::DenseMap<const VarDecl *, Defs>>();
  auto &Map = *Owned;
  DefCache[F] = std::move(Owned);
  // Nested: inside a lambda's body, where a write to one of F's locals (a
  // [&] capture) is not a definition this analysis follows.
  bool Nested = false;
  auto Define = [&](const VarDecl *V, const Expr *Value, const Stmt *S) {
    if (!Nested)
      Map[V].List.push_back({Value, S});
    else if (V->getDeclContext() == F)
      Map[V].Escaped = true;
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      bool Was = Nested;
      Nested = true;
      Walk(Lambda->getBody());
      Nested = Was;
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getInit() && !Nested)
            Map[V].List.push_back({V->getInit(), S});
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp()) {
        if (const VarDecl *V = asLocalVar(BO->getLHS()))
          Define(V, BO, S);
        // A member of a local written: the local is no longer its init.
        else if (const auto *ME =
                     dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (const VarDecl *V = asLocalVar(ME->getBase()))
            Map[V].Escaped = true;
      }
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() >= 1)
        if (const VarDecl *V = asLocalVar(Op->getArg(0)))
          Map[V].Escaped = true;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp()) {
        if (const VarDecl *V = asLocalVar(UO->getSubExpr()))
          Define(V, UO, S);
      } else if (UO->getOpcode() == UO_AddrOf) {
        if (const VarDecl *V = asLocalVar(UO->getSubExpr()))
          Map[V].Escaped = true;
      }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        for (unsigned I = 0;
             I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
          QualType PT = Callee->getParamDecl(I)->getType();
          if (PT->isReferenceType() && !PT->getPointeeType().isConstQualified())
            if (const VarDecl *V = asLocalVar(Call->getArg(I)))
              Map[V].Escaped = true;
        }
    } else if (const auto *Asm = dyn_cast<AsmStmt>(S)) {
      for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
        if (const VarDecl *V = asLocalVar(Asm->getOutputExpr(I)))
          Map[V].Escaped = true;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  if (F->getBody())
    Walk(F->getBody());
  return Map;
}

// What followVariable needs of integer forms and of addresses.
static bool samePart(const AffineForm &A, const AffineForm &B) {
  return A.sameThreadPart(B);
}
static bool samePart(const Address &A, const Address &B) {
  return A.Root == B.Root && A.Space == B.Space &&
         A.Offset.sameThreadPart(B.Offset);
}
static AffineForm &offsetOf(AffineForm &F) { return F; }
static AffineForm &offsetOf(Address &A) { return A.Offset; }

std::optional<bool> AffineAnalysis::isUniformStep(const VarDecl *V,
                                                  const Expr *Value,
                                                  const Env &En) {
  if (const auto *UO = dyn_cast<UnaryOperator>(Value))
    return UO->isIncrementDecrementOp() ? std::optional<bool>(true)
                                        : std::nullopt;
  const auto *BO = dyn_cast<BinaryOperator>(Value);
  if (!BO || !BO->isAssignmentOp())
    return std::nullopt;
  const Expr *Other = nullptr;
  if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) {
    Other = BO->getRHS();
  } else if (BO->getOpcode() == BO_Assign) {
    const auto *Sum =
        dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
    if (Sum && (Sum->getOpcode() == BO_Add || Sum->getOpcode() == BO_Sub)) {
      if (asLocalVar(Sum->getLHS()) == V)
        Other = Sum->getRHS();
      else if (Sum->getOpcode() == BO_Add && asLocalVar(Sum->getRHS()) == V)
        Other = Sum->getLHS();
    }
    if (!Other)
      return std::nullopt;
  } else {
    return false; // *=, <<=, ...
  }
  AffineForm O = formIn(Other, En);
  return O.Known && O.isLaneUniform();
}

Dependence AffineAnalysis::definitionDependence(const VarDecl *V,
                                                const Stmt *Site,
                                                bool UniformStep,
                                                FunctionDependence &FD) {
  Dependence Guard = FD.definitionGuard(V, Site).D;
  // A uniform step of a loop's induction variable (its increment, or a
  // statement at the top of its body) is taken the same number of times by
  // every lane still in the loop: only the branches around the loop count.
  if (isWarpUniform(Guard) || !UniformStep)
    return Guard;
  const Stmt *P = FD.parent(Site);
  const Stmt *Loop = nullptr;
  if (const auto *For = dyn_cast_or_null<ForStmt>(P);
      For && For->getInc() == Site)
    Loop = For;
  else if (isa_and_nonnull<CompoundStmt>(P) && FD.parent(P) &&
           isa<ForStmt, WhileStmt, DoStmt>(FD.parent(P)))
    Loop = FD.parent(P);
  return Loop ? FD.definitionGuard(V, Loop).D : Guard;
}

// Joins a local's definitions (integer or pointer): they must agree on the
// thread part. A uniform step (v += u, v -= u, v = v + u, ++v) keeps it and
// makes the rest a uniform unknown. A definition made under a branch that
// splits a warp, inside the variable's scope, makes it Unknown: lanes may
// hold different versions.
template <typename T>
T AffineAnalysis::followVariable(const VarDecl *V, const Env &En,
                                 T (AffineAnalysis::*Eval)(const Expr *,
                                                           const Env &)) {
  const auto &AllDefs = definitions(En.F);
  auto It = AllDefs.find(V);
  if (It == AllDefs.end() || It->second.Escaped)
    return T();
  if (!InProgress.insert(V).second)
    return T(); // defined in terms of itself other than by a step
  FunctionDependence &FD = dependenceOf(En);

  std::optional<T> First;
  bool Varies = It->second.List.size() > 1;
  bool Failed = false;
  for (auto &[Value, Site] : It->second.List) {
    std::optional<bool> Step = isUniformStep(V, Value, En);
    Dependence Guard = definitionDependence(V, Site, Step && *Step, FD);
    if (!isWarpUniform(Guard) || (Step && !*Step)) {
      Failed = true;
      break;
    }
    if (Step) {
      Varies = true;
      continue;
    }
    const auto *Assign = dyn_cast<BinaryOperator>(Value);
    T F = (this->*Eval)(
        Assign && Assign->isAssignmentOp() ? Assign->getRHS() : Value, En);
    if (!F.Known || (First && !samePart(*First, F))) {
      Failed = true;
      break;
    }
    if (!First)
      First = F;
  }
  InProgress.erase(V);
  if (Failed || !First)
    return T();
  T Result = *First;
  if (Varies) {
    offsetOf(Result).Const = 0;
    offsetOf(Result).HasUniform = true;
  }
  return Result;
}

// Integer locals and pointer locals (IntegerForms.cpp, Addresses.cpp).
template AffineForm AffineAnalysis::followVariable<AffineForm>(
    const VarDecl *, const Env &,
    AffineForm (AffineAnalysis::*)(const Expr *, const Env &));
template Address AffineAnalysis::followVariable<Address>(
    const VarDecl *, const Env &,
    Address (AffineAnalysis::*)(const Expr *, const Env &));

bool AffineAnalysis::keepsInitialValue(const VarDecl *V) {
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
  if (!Owner || !Owner->getBody())
    return false;
  std::unique_ptr<LocalWrites> &W = Writes[Owner];
  if (!W)
    W = std::make_unique<LocalWrites>(Owner->getBody());
  return W->keepsInitialValue(V);
}

} // namespace warplint
