#include "Analysis/SharedMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>

using namespace clang;

namespace warplint {

StaticSharedMemory::Size StaticSharedMemory::measure(const FunctionDecl *F) {
  const FunctionDecl *Root = F->getDefinition();
  if (!Root || !Root->getBody())
    return {};
  auto It = Memo.find(Root);
  if (It != Memo.end())
    return It->second;
  // Every __shared__ variable of the functions the kernel can reach, each
  // once: a helper's variable is one allocation per block however often it
  // is called.
  const ASTContext &Ctx = Root->getASTContext();
  llvm::DenseSet<const FunctionDecl *> Seen;
  llvm::DenseSet<const VarDecl *> Vars;
  Size S;
  std::function<void(const FunctionDecl *, unsigned)> Visit =
      [&](const FunctionDecl *Fn, unsigned Depth) {
        const FunctionDecl *Def = Fn->getDefinition();
        if (!Def || !Def->getBody() || Depth > 8 || !Seen.insert(Def).second)
          return;
        std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
          if (!St)
            return;
          if (const auto *DS = dyn_cast<DeclStmt>(St))
            for (const Decl *D : DS->decls())
              if (const auto *V = dyn_cast<VarDecl>(D))
                if (V->hasAttr<CUDASharedAttr>() && !V->hasExternalStorage() &&
                    !V->getType()->isDependentType() &&
                    V->getType()->isConstantSizeType() &&
                    Vars.insert(V).second) {
                  uint64_t B =
                      Ctx.getTypeSizeInChars(V->getType()).getQuantity();
                  S.Bytes += B;
                  if (B > S.LargestBytes) {
                    S.Largest = V;
                    S.LargestBytes = B;
                  }
                }
          if (const auto *Call = dyn_cast<CallExpr>(St))
            if (const FunctionDecl *Callee = Call->getDirectCallee())
              if (!Ctx.getSourceManager().isInSystemHeader(
                      Callee->getLocation()))
                Visit(Callee, Depth + 1);
          for (const Stmt *C : St->children())
            Walk(C);
        };
        Walk(Def->getBody());
      };
  Visit(Root, 0);
  Memo[Root] = S;
  return S;
}

} // namespace warplint
