#include "checks/arith/ThreadWork.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/TripCounts.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warplint::arith {

// Callees are followed this deep; a deeper call counts as one operation.
constexpr unsigned MaxCallDepth = 3;

const ThreadWork &ThreadWorkModel::of(const FunctionDecl *F) {
  return of(F, 0);
}

const ThreadWork &ThreadWorkModel::of(const FunctionDecl *F, unsigned Depth) {
  if (auto It = Work.find(F); It != Work.end())
    return It->second;
  ThreadWork W;
  const ASTContext &AST = Ctx.astContext();
  AffineAnalysis &AA = Ctx.affine();
  auto ValueOf = [&](const Expr *E) { return AA.literalValueOf(E); };
  llvm::DenseMap<const Stmt *, double> Trips;
  auto TripsOf = [&](const Stmt *L) {
    auto [It, New] = Trips.try_emplace(L, 1.0);
    if (!New)
      return It->second;
    LoopTrips T = loopTrips(L, AST, ValueOf);
    W.UnknownLoops |= T.Assumed;
    It->second = T.Times;
    return It->second;
  };
  // A recursive call finds the entry made here, with what it has so far.
  Work.try_emplace(F);
  const Stmt *Body = F->getBody();
  if (Body)
    forEachStmt(
        Body, WalkOptions().skipSizeof().enterLambdas(),
        [&](const Stmt *S, llvm::ArrayRef<const Stmt *> Path) {
          if (const auto *E = dyn_cast<Expr>(S); E && E->isValueDependent())
            return WalkStep::SkipChildren;
          bool Op = isa<ArraySubscriptExpr, ConditionalOperator>(S);
          if (const auto *BO = dyn_cast<BinaryOperator>(S))
            Op = BO->getOpcode() != BO_Comma && BO->getOpcode() != BO_Assign;
          if (const auto *UO = dyn_cast<UnaryOperator>(S))
            Op = UO->getOpcode() != UO_AddrOf && UO->getOpcode() != UO_Plus &&
                 UO->getOpcode() != UO_Extension;
          const auto *Call = dyn_cast<CallExpr>(S);
          if (!Op && !Call)
            return WalkStep::Continue;
          double Times = 1;
          for (size_t I = 0; I < Path.size(); ++I) {
            if (!isLoop(Path[I]))
              continue;
            const auto *For = dyn_cast<ForStmt>(Path[I]);
            const Stmt *Next = I + 1 < Path.size() ? Path[I + 1] : S;
            if (!For || Next != For->getInit())
              Times *= TripsOf(Path[I]);
          }
          double Cost = 1, Accesses = 0;
          if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
            // Through a pointer, or a __shared__ array's element; a local
            // array's elements live in registers once unrolled.
            const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
            const auto *Arr = dyn_cast<DeclRefExpr>(Base);
            const auto *V = Arr ? dyn_cast<VarDecl>(Arr->getDecl()) : nullptr;
            Accesses = (Base->getType()->isPointerType() &&
                        !isa<ArraySubscriptExpr>(Base)) ||
                               (V && V->hasAttr<CUDASharedAttr>())
                           ? 1
                           : 0;
          } else if (const auto *UO = dyn_cast<UnaryOperator>(S);
                     UO && UO->getOpcode() == UO_Deref) {
            Accesses = 1;
          }
          if (Call)
            if (const FunctionDecl *Callee = Call->getDirectCallee())
              if (Depth < MaxCallDepth && Callee->hasBody() &&
                  !AST.getSourceManager().isInSystemHeader(
                      Callee->getLocation())) {
                const FunctionDecl *Def = nullptr;
                Callee->hasBody(Def);
                const ThreadWork &Inner = of(Def, Depth + 1);
                Cost = std::max(1.0, Inner.Total);
                Accesses = Inner.PointerAccesses;
              }
          W.Total += Times * Cost;
          W.PointerAccesses += Times * Accesses;
          if (isa<ArraySubscriptExpr>(S) ||
              (isa<BinaryOperator>(S) &&
               cast<BinaryOperator>(S)->getType()->isPointerType()))
            W.Runs[S] = Times;
          return WalkStep::Continue;
        });
  ThreadWork &Slot = Work[F];
  Slot = std::move(W);
  return Slot;
}

} // namespace warplint::arith
