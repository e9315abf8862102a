// What keeps the threads of a block from reaching a statement together: the
// branches and loops around it, the early exits before it (ThreadDependence.h).
#include "Analysis/Budget.h"
#include "Analysis/DeclRefs.h"
#include "Analysis/ThreadDependence.h"
#include "Analysis/ThreadDependenceImpl.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace warplint::detail;

namespace warplint {

Dependence FunctionDependence::loopDependence(const Stmt *Loop) {
  if (LoopsInProgress.count(Loop)) {
    // While this loop is being judged, a query that comes back to it sees
    // Unknown rather than recursing.
    ++CutOffs;
    return Dependence::Unknown;
  }
  auto Cached = LoopCache.find(Loop);
  if (Cached != LoopCache.end())
    return Cached->second;
  unsigned Before = CutOffs;
  LoopsInProgress.insert(Loop);
  Dependence D = Dependence::Uniform;
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    D = For->getCond() ? dependence(For->getCond()) : Dependence::Uniform;
  else if (const auto *While = dyn_cast<WhileStmt>(Loop))
    D = dependence(While->getCond());
  else if (const auto *Do = dyn_cast<DoStmt>(Loop))
    D = dependence(Do->getCond());
  else
    D = Dependence::Unknown;
  // A break, continue or return under a thread-dependent condition inside
  // the loop lets threads leave or skip iterations at different times.
  for (const Stmt *Exit : loopExits(Loop))
    D = join(D, enclosingGuard(Exit, Loop).D);
  LoopsInProgress.erase(Loop);
  if (CutOffs == Before)
    LoopCache[Loop] = D;
  return D;
}

llvm::SmallVector<const Stmt *, 4>
FunctionDependence::enclosingBranches(const Stmt *S, const Stmt *Stop) const {
  llvm::SmallVector<const Stmt *, 4> Out;
  const Stmt *Child = S;
  for (const Stmt *P = parent(S); P && P != Stop; Child = P, P = parent(P)) {
    bool InBody = false;
    if (const auto *If = dyn_cast<IfStmt>(P))
      InBody = Child == If->getThen() || Child == If->getElse();
    else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P))
      InBody = Child != CO->getCond();
    else if (const auto *BO = dyn_cast<BinaryOperator>(P))
      InBody = BO->isLogicalOp() && Child == BO->getRHS();
    else if (const auto *Sw = dyn_cast<SwitchStmt>(P))
      InBody = Child != Sw->getCond() && Child != Sw->getInit();
    else if (const auto *For = dyn_cast<ForStmt>(P))
      InBody = Child != For->getInit();
    else
      InBody = isLoop(P);
    if (InBody)
      Out.push_back(P);
  }
  return Out;
}

FunctionDependence::Guard FunctionDependence::enclosingGuard(const Stmt *S,
                                                             const Stmt *Stop) {
  Guard G;
  for (const Stmt *P : enclosingBranches(S, Stop)) {
    Dependence D = isLoop(P) ? loopDependence(P) : dependence(conditionOf(P));
    if (D > G.D) {
      G.D = D;
      G.Where = P;
    }
  }
  return G;
}

FunctionDependence::Guard
FunctionDependence::definitionGuard(const VarDecl *V, const Stmt *Site) {
  auto It = DeclaredIn.find(V);
  // Parameters and variables declared outside the walked body: the whole
  // function is their scope.
  const Stmt *Scope = It == DeclaredIn.end() ? nullptr : parent(It->second);
  return enclosingGuard(Site, Scope);
}

FunctionDependence::Guard FunctionDependence::guardOf(const Stmt *S) {
  auto Cached = GuardCache.find(S);
  if (Cached != GuardCache.end())
    return Cached->second;
  unsigned Before = CutOffs;
  Guard G = enclosingGuard(S, nullptr);
  auto Consider = [&](Dependence D, const Stmt *Where) {
    if (D > G.D) {
      G.D = D;
      G.Where = Where;
    }
  };
  // Early exits before S: threads that left a device function, or skipped
  // ahead with goto, do not arrive at S with the others.
  for (const Stmt *Exit : exitsBefore(S))
    Consider(earlyExitDependence(Exit), Exit);
  // Variables are solved by iterating to a fixed point: a guard computed in
  // the middle of that may still rise, so only final answers are kept.
  if (!Solving && CutOffs == Before)
    GuardCache[S] = G;
  return G;
}

const Expr *FunctionDependence::conditionOf(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getCond();
  if (const auto *For = dyn_cast<ForStmt>(S))
    return For->getCond();
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return While->getCond();
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return Do->getCond();
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return Sw->getCond();
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    return CO->getCond();
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isLogicalOp() ? BO->getLHS() : nullptr;
  return nullptr;
}

llvm::SmallVector<FunctionDependence::GuardSite, 4>
FunctionDependence::guardSites(const Stmt *S) {
  llvm::SmallVector<GuardSite, 4> Out;
  auto Add = [&](GuardKind K, Dependence D, const Stmt *Where,
                 const Stmt *Exit = nullptr) {
    if (D != Dependence::Uniform)
      Out.push_back({K, D, Where, Exit});
  };
  for (const Stmt *P : enclosingBranches(S, nullptr)) {
    if (!isLoop(P)) {
      Add(GuardKind::Branch, dependence(conditionOf(P)), P);
      continue;
    }
    const Expr *Cond = conditionOf(P);
    Add(GuardKind::Loop,
        isa<CXXForRangeStmt>(P) ? Dependence::Unknown
        : Cond                  ? dependence(Cond)
                                : Dependence::Uniform,
        P);
    // An exit inside the loop under a divergent branch: some threads
    // leave or skip an iteration that others run.
    for (const Stmt *Exit : loopExits(P))
      Add(GuardKind::Loop, enclosingGuard(Exit, P).D, P, Exit);
  }
  // Early exits before S that leave the threads alive: a return from a
  // __device__ function goes back to its caller, which runs on.
  for (const Stmt *Exit : exitsBefore(S))
    Add(GuardKind::EarlyExit, earlyExitDependence(Exit), Exit, Exit);
  return Out;
}

llvm::SmallVector<const Stmt *, 4>
FunctionDependence::loopExits(const Stmt *Loop) const {
  llvm::SmallVector<const Stmt *, 4> Out;
  for (const Stmt *Exit : Exits)
    if (!(isa<ReturnStmt>(Exit) && isKernel()) && // exited threads wait
        exitsLoop(Exit, Loop, [&](const Stmt *S) { return parent(S); }))
      Out.push_back(Exit);
  return Out;
}

llvm::SmallVector<const Stmt *, 4>
FunctionDependence::exitsBefore(const Stmt *S) const {
  llvm::SmallVector<const Stmt *, 4> Out;
  SourceLocation Here = S->getBeginLoc();
  const auto &SM = F->getASTContext().getSourceManager();
  for (const Stmt *Exit : Exits) {
    if (isa<BreakStmt, ContinueStmt>(Exit))
      continue; // judged with the loop around S
    if (isa<ReturnStmt>(Exit) && isKernel())
      continue;
    if (Exit->getBeginLoc().isValid() && Here.isValid() &&
        SM.isBeforeInTranslationUnit(Exit->getBeginLoc(), Here))
      Out.push_back(Exit);
  }
  return Out;
}

Dependence FunctionDependence::earlyExitDependence(const Stmt *Exit) {
  if (isa<GotoStmt, IndirectGotoStmt>(Exit))
    return Dependence::Unknown; // where it lands is not followed
  return enclosingGuard(Exit, nullptr).D;
}

} // namespace warplint
