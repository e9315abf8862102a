#include "Analysis/AccessSites.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include <memory>

using namespace clang;

namespace warplint {

std::vector<std::vector<AccessRun>>
accessRuns(AffineAnalysis &AA, ThreadDependenceAnalysis &TDA,
           const FunctionDecl *F, MemorySpace Space, unsigned WarpSize) {
  // The contexts of each access: the chains that reach it, else none.
  std::vector<const Expr *> Order;
  llvm::DenseMap<const Expr *, std::vector<ReachedAccess>> Contexts;
  for (const ReachedAccess &R : AA.reachedIn(F)) {
    if (R.Access.Addr.Space != Space)
      continue;
    auto &List = Contexts[R.Access.E];
    if (List.empty())
      Order.push_back(R.Access.E);
    List.push_back(R);
  }
  std::vector<std::vector<AccessRun>> Out;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<LaneEvaluator>> Evals;
  auto Runs = [&](const MemoryAccess &A, const std::vector<CallLink> &Chain,
                  std::vector<AccessRun> &Into) {
    const FunctionDecl *Kernel = Chain.empty() ? F : Chain.front().Caller;
    BlockShape Shape = AA.blockShape(Kernel);
    WarpPattern All = AA.pattern(A.Addr.Offset, Shape);
    if (!All.Known || All.Offsets.empty())
      return;
    std::unique_ptr<LaneEvaluator> &LE = Evals[Kernel];
    if (!LE)
      LE = std::make_unique<LaneEvaluator>(Kernel, Shape, WarpSize);
    uint64_t Model = All.Offsets.size() >= 64
                         ? ~uint64_t(0)
                         : (uint64_t(1) << All.Offsets.size()) - 1;
    std::vector<uint64_t> Masks;
    for (unsigned W = 0; W < LE->warpCount(); ++W) {
      if (!LE->thread(W, 0))
        break;
      uint64_t Mask = LE->mayReach(A.E, Chain, TDA, W) & Model;
      if (Mask && !llvm::is_contained(Masks, Mask))
        Masks.push_back(Mask);
    }
    for (uint64_t Mask : Masks) {
      AccessRun R;
      R.Access = A;
      R.Chain = Chain;
      R.Mask = Mask;
      R.Lanes = unsigned(llvm::popcount(Mask));
      R.AllLanes = Mask == Model;
      R.Pattern = R.AllLanes ? All : restrictLanes(All, Mask);
      Into.push_back(std::move(R));
    }
  };
  // F's own accesses, in its body's order: in their contexts when some
  // chain reaches them.
  for (const MemoryAccess &A : AA.accesses(F)) {
    if (A.Addr.Space != Space)
      continue;
    std::vector<AccessRun> Group;
    if (auto It = Contexts.find(A.E); It != Contexts.end()) {
      for (const ReachedAccess &R : It->second)
        Runs(R.Access, R.Chain, Group);
      Contexts.erase(It);
    } else {
      Runs(A, {}, Group);
    }
    if (!Group.empty())
      Out.push_back(std::move(Group));
  }
  // Then those known only in a caller's context.
  for (const Expr *E : Order) {
    auto It = Contexts.find(E);
    if (It == Contexts.end())
      continue;
    std::vector<AccessRun> Group;
    for (const ReachedAccess &R : It->second)
      Runs(R.Access, R.Chain, Group);
    if (!Group.empty())
      Out.push_back(std::move(Group));
  }
  return Out;
}

std::string activeLanesText(const AccessRun &R, unsigned WarpSize) {
  if (R.AllLanes)
    return "";
  std::string Out = "over the " + std::to_string(R.Lanes) + " active lane" +
                    (R.Lanes == 1 ? "" : "s");
  // "lanes 0-7, 16-23" or "lane 3" name them; "the 16 odd lanes" and "12
  // lanes" say no more than the count.
  std::string Text = describeLanes(R.Mask, WarpSize);
  llvm::StringRef Which = Text;
  if (Which.consume_front("lanes ") || Which.consume_front("lane "))
    Out += " " + Which.str();
  return Out;
}

SourceLocation callLocation(const CallLink &Link) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Link.Call);
      Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
    return Op->getArg(0)->getBeginLoc();
  return Link.Call->getBeginLoc();
}

std::string functionName(const FunctionDecl *F) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(F);
      M && M->getParent()->isLambda())
    return "lambda";
  return F->getQualifiedNameAsString();
}

std::string
describeCall(const CallLink &Link,
             llvm::function_ref<std::string(const Stmt *)> SourceText) {
  std::string Out = "'" + functionName(Link.Callee) + "' called from '" +
                    functionName(Link.Caller) + "'";
  bool First = true;
  for (const auto &[Param, Arg] : Link.Shown) {
    std::string Text = SourceText(Arg);
    if (Text == Param->getName())
      continue; // 'lane' passed as lane says nothing
    Out += (First ? " with " : ", ") + Param->getName().str() + " = " + Text;
    First = false;
  }
  return Out;
}

} // namespace warplint
