// The global and shared memory accesses of a function body, each with its
// address, size and records; and the locals each lane walks on its own.
#include "Analysis/AffineIndex.h"
#include "Analysis/AffineInternal.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>

using namespace clang;

namespace warplint {

static bool isAccessExpr(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  return isa<ArraySubscriptExpr, MemberExpr>(E);
}

std::vector<MemoryAccess> AffineAnalysis::accesses(const FunctionDecl *F) {
  return accessesIn(F, Env{F, nullptr, nullptr, 0});
}

std::vector<MemoryAccess> AffineAnalysis::everyAccess(const FunctionDecl *F) {
  return accessesIn(F, Env{F, nullptr, nullptr, 0}, false, true);
}

std::vector<MemoryAccess> AffineAnalysis::accessesIn(const FunctionDecl *F,
                                                     const Env &En, bool Walks,
                                                     bool Unknown) {
  std::vector<MemoryAccess> Out;
  llvm::DenseSet<const Expr *> Seen;
  // E is the expression shown to the user; Addr and T what it moves.
  auto Add = [&](const Expr *E, bool IsStore, Address Addr, QualType T) {
    auto Size = sizeOf(T, Ctx);
    // With Walks, only the per-lane walks; otherwise only known addresses.
    bool Walk = !Addr.Known && Addr.Offset.Walk && Addr.Root;
    if (!Size || *Size == 0 || (Walks ? !Walk : !Addr.Known && !Unknown) ||
        Addr.Space == MemorySpace::Other)
      return;
    MemoryAccess A;
    A.Walk = Addr.Offset.Walk;
    A.E = E;
    A.IsStore = IsStore;
    A.Addr = Addr;
    // The compiler moves a record in pieces of its alignment (a 12-byte
    // struct of floats is three 4-byte loads), vectors up to 16 bytes.
    int64_t Piece = *Size;
    if (T->isRecordType())
      Piece =
          std::min<int64_t>(Ctx.getTypeAlignInChars(T).getQuantity(), *Size);
    A.Size = unsigned(std::min<int64_t>(Piece, 16));
    // The structs this is a field of, innermost first (p[i].pos.x: the
    // position, then the particle).
    for (const Expr *Cur = E->IgnoreParens();
         const auto *ME = dyn_cast<MemberExpr>(Cur);
         Cur = ME->getBase()->IgnoreParenImpCasts()) {
      QualType BaseT = ME->isArrow()
                           ? ME->getBase()->getType()->getPointeeType()
                           : ME->getBase()->getType();
      const auto *RD = BaseT->getAsRecordDecl();
      auto BaseSize = sizeOf(BaseT, Ctx);
      if (!RD || !BaseSize)
        break;
      A.Records.push_back({RD, unsigned(*BaseSize)});
      if (ME->isArrow())
        break;
    }
    Out.push_back(A);
  };
  auto Record = [&](const Expr *E, bool IsStore, bool AlsoLoads = false) {
    E = E->IgnoreParens();
    if (!isAccessExpr(E) || !Seen.insert(E).second)
      return;
    Add(E, IsStore, lvalueIn(E, En), E->getType());
    if (!Out.empty() && Out.back().E == E)
      Out.back().AlsoLoads = AlsoLoads;
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *CE = dyn_cast<ImplicitCastExpr>(S)) {
      if (CE->getCastKind() == CK_LValueToRValue)
        Record(CE->getSubExpr(), false);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        Record(BO->getLHS(), true, BO->isCompoundAssignmentOp());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp())
        Record(UO->getSubExpr(), true, true);
    } else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S)) {
      if (Ctor->getConstructor()->isCopyOrMoveConstructor() &&
          Ctor->getNumArgs() >= 1)
        Record(Ctor->getArg(0)->IgnoreImplicit(), false);
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
        Record(Op->getArg(0), true);
        Record(Op->getArg(1)->IgnoreImplicit(), false);
      }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // __ldg(&a[i]) and the other cache-hinted loads read *arg.
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Callee->getDeclName().isIdentifier() &&
          Call->getNumArgs() == 1 &&
          llvm::is_contained(
              {"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"},
              Callee->getName()) &&
          Call->getArg(0)->getType()->isPointerType())
        Add(Call, false, pointerIn(Call->getArg(0), En),
            Call->getArg(0)->getType()->getPointeeType());
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(F->getBody());
  return Out;
}

std::vector<MemoryAccess> AffineAnalysis::laneWalks(const FunctionDecl *F,
                                                    MemorySpace Space) {
  std::vector<MemoryAccess> Out;
  for (MemoryAccess &A : accessesIn(F, Env{F, nullptr, nullptr, 0}, true))
    if (A.Addr.Space == Space)
      Out.push_back(std::move(A));
  return Out;
}

// A value each lane loads for itself: a load (a[i], *p, p->f, __ldg(p))
// through a thread-dependent address.
static bool isPerLaneLoad(const Expr *E, FunctionDependence &FD) {
  const Expr *Plain = E->IgnoreParenImpCasts();
  bool Load = isAccessExpr(Plain);
  if (const auto *Call = dyn_cast<CallExpr>(Plain))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      Load = Callee->getDeclName().isIdentifier() &&
             Callee->getName().starts_with("__ld");
  return Load && !isWarpUniform(FD.dependence(E));
}

AffineForm AffineAnalysis::laneWalk(const VarDecl *V, const Env &En) {
  if (En.Params || !V->getType()->isIntegralOrEnumerationType())
    return AffineForm::unknown();
  const auto &AllDefs = definitions(En.F);
  auto It = AllDefs.find(V);
  if (It == AllDefs.end() || It->second.Escaped || !InProgress.insert(V).second)
    return AffineForm::unknown();
  FunctionDependence &FD = dependenceOf(En);
  unsigned Starts = 0, Steps = 0;
  bool Ok = true;
  const Expr *WalkStart = nullptr;
  for (auto &[Value, Site] : It->second.List) {
    std::optional<bool> Step = isUniformStep(V, Value, En);
    if (Step) {
      Ok &= *Step && isWarpUniform(definitionDependence(
                         V, Site, /*UniformStep=*/true, FD));
      ++Steps;
      continue;
    }
    const auto *Assign = dyn_cast<BinaryOperator>(Value);
    const Expr *Start =
        Assign && Assign->isAssignmentOp() ? Assign->getRHS() : Value;
    Ok &= isPerLaneLoad(Start, FD) &&
          isWarpUniform(FD.definitionGuard(V, Site).D);
    ++Starts;
    WalkStart = Start;
  }
  InProgress.erase(V);
  if (!Ok || Starts != 1 || Steps == 0)
    return AffineForm::unknown();
  WalkStarts[V] = WalkStart;
  return AffineForm::walk(V);
}

} // namespace warplint
