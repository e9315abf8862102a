#include "Analysis/CallGraph.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warplint {

namespace {

// Every call in the user's declarations, with the function it is in. A
// matcher with forFunction() would build the whole TU's parent map (every
// CUDA header's), which costs more than the graph.
class Builder : public RecursiveASTVisitor<Builder> {
public:
  Builder(const SourceManager &SM,
          llvm::function_ref<void(const CallSite &)> Add)
      : SM(SM), Add(Add) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(SM.getFileLoc(D->getLocation())))
      return true;
    const FunctionDecl *Outer = Current;
    if (const auto *F = dyn_cast_or_null<FunctionDecl>(D))
      Current = F;
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    Current = Outer;
    return Result;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (Current)
      Add({Call, Current, Call->getDirectCallee()});
    return true;
  }

private:
  const SourceManager &SM;
  llvm::function_ref<void(const CallSite &)> Add;
  const FunctionDecl *Current = nullptr;
};

} // namespace

CallGraphView::CallGraphView(ASTContext &Ctx) {
  Builder(Ctx.getSourceManager(), [&](const CallSite &Site) {
    ByCaller[Site.Caller->getCanonicalDecl()].push_back(Site);
    ByCall.try_emplace(Site.Call, Site.Caller);
    if (Site.Callee)
      ByCallee[Site.Callee->getCanonicalDecl()].push_back(Site);
  }).TraverseAST(Ctx);
}

llvm::ArrayRef<CallSite> CallGraphView::callers(const FunctionDecl *F) const {
  auto It = ByCallee.find(F->getCanonicalDecl());
  return It == ByCallee.end() ? llvm::ArrayRef<CallSite>() : It->second;
}

llvm::ArrayRef<CallSite> CallGraphView::callees(const FunctionDecl *F) const {
  auto It = ByCaller.find(F->getCanonicalDecl());
  return It == ByCaller.end() ? llvm::ArrayRef<CallSite>() : It->second;
}

const FunctionDecl *CallGraphView::callerOf(const CallExpr *Call) const {
  return ByCall.lookup(Call);
}

} // namespace warplint
