#include "checks/divergence/BarrierSites.h"
#include "Analysis/Loops.h"
#include "Analysis/SyncPrimitives.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warplint::divergence {

namespace {

void collect(const Stmt *S, const Expr *Split, FunctionDependence &FD,
             std::vector<NestedExit> &Out) {
  if (!S || isa<LambdaExpr>(S) || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
      isa<DoStmt>(S) || isa<CXXForRangeStmt>(S) || isa<SwitchStmt>(S))
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    if (Split)
      Out.push_back({R, Split});
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    const Expr *Inner = Split;
    if (!If->isConstexpr() && splitsBlock(FD.dependence(If->getCond())))
      Inner = If->getCond();
    collect(If->getThen(), Inner, FD, Out);
    collect(If->getElse(), Inner, FD, Out);
    return;
  }
  if (isa<Expr>(S))
    return; // no return in an expression (but a lambda's, skipped above)
  for (const Stmt *C : S->children())
    collect(C, Split, FD, Out);
}

const Stmt *firstBarrierIn(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (classifySync(S).Kind == SyncKind::BlockBarrier)
    return S;
  for (const Stmt *C : S->children())
    if (const Stmt *B = firstBarrierIn(C))
      return B;
  return nullptr;
}

// Whether S holds a block barrier that begins after Loc in the source.
bool barrierAfter(const Stmt *S, SourceLocation Loc, const SourceManager &SM) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (classifySync(S).Kind == SyncKind::BlockBarrier &&
      SM.isBeforeInTranslationUnit(Loc, S->getBeginLoc()))
    return true;
  for (const Stmt *C : S->children())
    if (barrierAfter(C, Loc, SM))
      return true;
  return false;
}

} // namespace

bool echoOfLoopExit(const Stmt *Site, const Stmt *Loop, const Stmt *Exit,
                    const SourceManager &SM) {
  const Stmt *Body = loopBody(Loop);
  if (!Body || !Exit ||
      !SM.isBeforeInTranslationUnit(Site->getBeginLoc(), Exit->getBeginLoc()))
    return false;
  return barrierAfter(Body, Exit->getEndLoc(), SM);
}

bool deadBySourceConstants(const Stmt *Site, FunctionDependence &FD) {
  const ASTContext &Ctx = FD.function()->getASTContext();
  for (const Stmt *S = Site, *P = FD.parent(S); P; S = P, P = FD.parent(P))
    if (ruledOutArm(P, Ctx) == S)
      return true;
  return false;
}

std::string barrierName(const Stmt *Site) {
  SyncSite S = classifySync(Site);
  if (S.Kind != SyncKind::None)
    return isa<AsmStmt>(Site) ? "asm " + S.Name : S.Name + "()";
  if (const auto *Call = dyn_cast<CallExpr>(Site))
    if (const FunctionDecl *F = Call->getDirectCallee())
      return F->getQualifiedNameAsString() + "()";
  return "barrier";
}

std::vector<NestedExit> nestedExits(const Stmt *Top, FunctionDependence &FD) {
  std::vector<NestedExit> Out;
  collect(Top, nullptr, FD, Out);
  return Out;
}

const Stmt *firstBlockBarrier(llvm::ArrayRef<const Stmt *> Stmts) {
  for (const Stmt *S : Stmts)
    if (const Stmt *B = firstBarrierIn(S))
      return B;
  return nullptr;
}

} // namespace warplint::divergence
