#include "Analysis/BodyWalk.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>

using namespace clang;

namespace warplint {

bool isSkipped(const Stmt *S, const WalkOptions &Options) {
  if (!S)
    return true;
  if (isa<LambdaExpr>(S))
    return !Options.EnterLambdas;
  if (isa<UnaryExprOrTypeTraitExpr>(S))
    return Options.SkipSizeof;
  if (isa<CXXTypeidExpr>(S))
    return Options.SkipTypeid;
  return false;
}

bool detail::walkStmts(
    const Stmt *Root, const WalkOptions &Options,
    llvm::function_ref<WalkStep(const Stmt *, llvm::ArrayRef<const Stmt *>)>
        Visit) {
  // A statement to visit, or (Leave) the end of one whose children were.
  struct Item {
    const Stmt *S;
    bool Leave;
  };
  llvm::SmallVector<Item, 32> Work;
  llvm::SmallVector<const Stmt *, 16> Parents;
  Work.push_back({Root, false});
  while (!Work.empty()) {
    Item I = Work.pop_back_val();
    if (I.Leave) {
      Parents.pop_back();
      continue;
    }
    if (isSkipped(I.S, Options))
      continue;
    WalkStep Step = Visit(I.S, Parents);
    if (Step == WalkStep::Stop)
      return false;
    if (Step == WalkStep::SkipChildren)
      continue;
    Work.push_back({I.S, true});
    Parents.push_back(I.S);
    size_t First = Work.size();
    for (const Stmt *C : I.S->children())
      if (C)
        Work.push_back({C, false});
    std::reverse(Work.begin() + First, Work.end());
  }
  return true;
}

const Stmt *findStmt(const Stmt *Root, const WalkOptions &Options,
                     llvm::function_ref<bool(const Stmt *)> Pred) {
  const Stmt *Found = nullptr;
  forEachStmt(Root, Options, [&](const Stmt *S) {
    if (!Pred(S))
      return WalkStep::Continue;
    Found = S;
    return WalkStep::Stop;
  });
  return Found;
}

bool containsStmt(const Stmt *Root, const Stmt *Target,
                  const WalkOptions &Options) {
  return findStmt(Root, Options, [&](const Stmt *S) { return S == Target; });
}

} // namespace warplint
