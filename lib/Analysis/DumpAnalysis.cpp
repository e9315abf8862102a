// --dump-analysis: the thread dependence of each branch and the address and
// warp pattern of each access, one line each, for lit to read.
#include "Analysis/AffineIndex.h"
#include "Analysis/Launches.h"
#include "Analysis/ThreadDependence.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <functional>

using namespace clang;

namespace warplint {

void dumpAnalysis(ASTContext &AST, AffineAnalysis &AA,
                  ThreadDependenceAnalysis &TDA, llvm::raw_ostream &OS) {
  using namespace clang::ast_matchers;
  const SourceManager &SM = AST.getSourceManager();
  for (const CallExpr *L : userLaunches(AST))
    AA.recordLaunch(L);
  auto Fns = match(
      functionDecl(isDefinition(), hasBody(stmt()),
                   unless(isExpansionInSystemHeader()),
                   anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)))
          .bind("f"),
      AST);
  auto Where = [&](SourceLocation L) {
    PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(L));
    return std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn());
  };
  for (const auto &M : Fns) {
    const auto *F = M.getNodeAs<FunctionDecl>("f");
    if (F->isDependentContext())
      continue;
    BlockShape Shape = AA.blockShape(F);
    OS << "function '" << F->getQualifiedNameAsString() << "'";
    if (Shape.pinned()) {
      OS << " block " << Shape.X << "x" << Shape.Y << "x";
      if (!Shape.RuntimeZ)
        OS << Shape.Z;
      else if (Shape.ZChoices.empty())
        OS << "?";
      else
        for (unsigned I = 0; I < Shape.ZChoices.size(); ++I)
          OS << (I ? "|" : "{") << Shape.ZChoices[I]
             << (I + 1 == Shape.ZChoices.size() ? "}" : "");
    }
    OS << "\n";
    FunctionDependence &FD = TDA.forFunction(F);
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || isa<LambdaExpr>(S))
        return;
      const Expr *Cond = nullptr;
      if (const auto *If = dyn_cast<IfStmt>(S))
        Cond = If->getCond();
      else if (const auto *For = dyn_cast<ForStmt>(S))
        Cond = For->getCond();
      else if (const auto *While = dyn_cast<WhileStmt>(S))
        Cond = While->getCond();
      else if (const auto *Do = dyn_cast<DoStmt>(S))
        Cond = Do->getCond();
      if (Cond)
        OS << "  " << Where(Cond->getBeginLoc()) << " branch "
           << dependenceName(FD.dependence(Cond)) << "\n";
      for (const Stmt *C : S->children())
        Walk(C);
    };
    Walk(F->getBody());
    for (const MemoryAccess &A : AA.accesses(F)) {
      OS << "  " << Where(A.E->getBeginLoc()) << " "
         << (A.IsStore ? "store" : "load") << " "
         << (A.Addr.Space == MemorySpace::Global ? "global" : "shared")
         << " size " << A.Size << " offset " << A.Addr.Offset.str();
      WarpPattern P = AA.pattern(A.Addr.Offset, Shape);
      if (!P.Known)
        OS << " lanes unknown";
      else if (P.SymbolicStride)
        OS << " lanes spread by (" << P.SymbolName << ")";
      else if (P.Regular)
        OS << " lane stride " << P.LaneStride;
      else
        OS << " lanes irregular";
      OS << "\n";
    }
  }
}

} // namespace warplint
