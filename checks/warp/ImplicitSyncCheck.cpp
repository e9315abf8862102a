#include "checks/warp/ImplicitSyncCheck.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/SyncPrimitives.h"
#include "clang/AST/ExprCXX.h"
#include <functional>

using namespace clang;

namespace warplint::warp {

namespace {

// The variable an lvalue's base names: `s[i]`, `p[i]` (its root decl).
const ValueDecl *baseOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    E = AS->getBase()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? DRE->getDecl() : nullptr;
}

// A base in shared memory for the tagged update: a __shared__ array, or a
// pointer parameter to volatile data (the idiom's helpers take one).
bool sharedBase(const ValueDecl *D) {
  if (!D)
    return false;
  if (D->hasAttr<CUDASharedAttr>())
    return true;
  const auto *P = dyn_cast<ParmVarDecl>(D);
  return P && P->getType()->isPointerType() &&
         P->getType()->getPointeeType().isVolatileQualified();
}

// Whether every path through S ends in a return or a break.
bool leaves(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && leaves(CS->body_back());
  if (const auto *If = dyn_cast<IfStmt>(S))
    return leaves(If->getThen()) && leaves(If->getElse());
  return false;
}

// A sticky flag: a scalar __shared__ variable that is only ever set to
// constants and only read by tests that leave (`if (flag) { ...; return;
// }`, reads inside such a branch included). Whichever order a warp's lanes
// run in, a reader sees the flag set now or one barrier later, with the
// same outcome: the pair is not an exchange of data.
bool stickyFlag(const ValueDecl *Root) {
  const auto *V = dyn_cast_or_null<VarDecl>(Root);
  const auto *Fn =
      V ? dyn_cast_or_null<FunctionDecl>(V->getDeclContext()) : nullptr;
  if (!V || !Fn || !Fn->getBody() || !V->getType()->isScalarType())
    return false;
  bool Sticky = true;
  // Reads under a leaving test of the flag are fine; others are not.
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S,
                                                     bool InTest) {
    if (!S || !Sticky)
      return;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      const Expr *C = If->getCond()->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(C);
          U && U->getOpcode() == UO_LNot)
        C = U->getSubExpr()->IgnoreParenImpCasts();
      const auto *DRE = dyn_cast<DeclRefExpr>(C);
      bool Tests = DRE && DRE->getDecl() == V && !If->getElse() &&
                   C == If->getCond()->IgnoreParenImpCasts() &&
                   leaves(If->getThen());
      if (Tests) {
        Walk(If->getThen(), true);
        return;
      }
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp()) {
      const auto *L =
          dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
      if (L && L->getDecl() == V) {
        Expr::EvalResult R;
        if (BO->getOpcode() != BO_Assign || BO->getRHS()->isValueDependent() ||
            !BO->getRHS()->EvaluateAsInt(R, V->getASTContext()))
          Sticky = false;
        Walk(BO->getRHS(), InTest);
        return;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
        DRE && DRE->getDecl() == V && !InTest)
      Sticky = false; // a read outside a leaving test, or an escape
    for (const Stmt *C : S->children())
      Walk(C, InTest);
  };
  Walk(Fn->getBody(), false);
  return Sticky;
}

} // namespace

void ImplicitSyncCheck::checkTaggedUpdates(const FunctionDecl *Fn) {
  // do { c = s[d] ...; s[d] = c; } while (s[d] != c): each lane writes its
  // tagged value and reads back whether its own write survived, which
  // counts on the colliding lanes writing together.
  forEachStmt(Fn->getBody(), [&](const Stmt *S) {
    const Expr *Cond = nullptr;
    const Stmt *Body = nullptr;
    if (const auto *Do = dyn_cast<DoStmt>(S)) {
      Cond = Do->getCond();
      Body = Do->getBody();
    } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
      Cond = While->getCond();
      Body = While->getBody();
    }
    const auto *Cmp =
        Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
    if (!Cmp || Cmp->getOpcode() != BO_NE)
      return;
    const Expr *Read = nullptr;
    for (const Expr *Side : {Cmp->getLHS(), Cmp->getRHS()}) {
      const Expr *X = Side->IgnoreParenImpCasts();
      if (isa<ArraySubscriptExpr>(X) && sharedBase(baseOf(X)))
        Read = X;
    }
    if (!Read)
      return;
    std::string Text = context().sourceText(Read);
    const Expr *Write = nullptr;
    bool Barrier = false;
    forEachStmt(Body, [&](const Stmt *X) {
      if (classifySync(X).Kind != SyncKind::None)
        Barrier = true;
      const auto *BO = dyn_cast<BinaryOperator>(X);
      if (BO && BO->getOpcode() == BO_Assign &&
          isa<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens()) &&
          baseOf(BO->getLHS()) == baseOf(Read) &&
          context().sourceText(BO->getLHS()) == Text)
        Write = BO->getLHS();
    });
    if (!Write || Barrier || !Seen.insert({Read, Write}).second)
      return;
    bool Its = arch().independent_thread_scheduling;
    FindingBuilder B = diag(
        Read->getBeginLoc(),
        "each lane writes '{0}' and reads it back to see whether its own "
        "write survived (a tagged update): this counts on the lanes that "
        "collide on one address writing together, in lockstep (warp-"
        "synchronous code), which {1}; a lane that reads back before another "
        "overwrites keeps its count and the other's is lost (Volta tuning "
        "guide 1.4.1.2)",
        Its ? Severity::Error : Severity::Warning);
    B << Text
      << (Its ? "independent thread scheduling on " + arch().Name +
                    " does not guarantee"
              : arch().Name +
                    " happens to do, but sm_70 and later do not guarantee");
    B.note(Write->getBeginLoc(), "written here");
    B.note(Read->getBeginLoc(),
           "update the counter with atomicAdd on shared memory (one "
           "instruction since Maxwell) instead of the tag loop");
  });
}

void ImplicitSyncCheck::checkFunction(const FunctionDecl *Fn) {
  if (Fn->isDependentContext())
    return;
  checkTaggedUpdates(Fn);
  // Judged from the kernels, where the lanes are known; helpers run inside
  // them with their arguments bound.
  if (!Fn->hasAttr<CUDAGlobalAttr>())
    return;
  unsigned WS = arch().warp_size;
  const SourceManager &SM = context().sourceManager();
  auto LineOf = [&](const Expr *E) {
    return SM.getPresumedLoc(SM.getFileLoc(E->getBeginLoc())).getLine();
  };
  for (const WarpExchange &X : context().engine().exchanges(Fn)) {
    if (!Seen.insert({X.Later, X.Earlier}).second || stickyFlag(X.Root) ||
        !SeenSites
             .insert({SM.getFileLoc(X.Later->getBeginLoc()),
                      SM.getFileLoc(X.Earlier->getBeginLoc())})
             .second)
      continue;
    bool Its = arch().independent_thread_scheduling;
    bool Raw = X.ReadAfterWrite;
    std::string Where = X.SameStatement ? "in this same statement"
                        : X.EarlierIteration
                            ? "in an earlier iteration of the loop"
                            : "at line " + std::to_string(LineOf(X.Earlier));
    std::string Consequence =
        Its ? "independent thread scheduling on " + arch().Name +
                  " does not guarantee"
            : arch().Name +
                  " happens to do, but sm_70 and later do not guarantee";
    FindingBuilder B =
        Raw ? diag(X.Later->getBeginLoc(),
                   "{0} of warp {1} read '{2}', which {3} of the same warp "
                   "write {4}, with no __syncwarp() between: this assumes "
                   "the warp runs in lockstep (warp-synchronous code), which "
                   "{5} (Volta tuning guide 1.4.1.2)",
                   Its ? Severity::Error : Severity::Warning)
            : diag(X.Later->getBeginLoc(),
                   "{0} of warp {1} write '{2}', which {3} of the same warp "
                   "read {4}, with no __syncwarp() between the read and the "
                   "write: a lane can overwrite the value before the other "
                   "has read it unless the warp runs in lockstep "
                   "(warp-synchronous code), which {5} (Volta tuning guide "
                   "1.4.1.2)",
                   Its ? Severity::Error : Severity::Warning);
    B << describeLanes(X.LaterLanes, WS) << int64_t(X.Warp)
      << context().sourceText(X.Later) << describeLanes(X.EarlierLanes, WS)
      << Where << Consequence;
    // The witness: two lanes of one warp, one reading what the other wrote
    // (or writing what it read), with nothing ordering them.
    B.metric("witness_warp", X.Warp);
    B.metric("witness_lane_later", X.WitnessLater);
    B.metric("witness_lane_earlier", X.WitnessEarlier);
    if (!X.SameStatement && X.Earlier != X.Later)
      B.note(X.Earlier->getBeginLoc(), Raw ? "written here" : "read here");
    for (const CallExpr *Call : X.LaterChain)
      B.note(Call->getBeginLoc(), "through this call");
    B.note(X.Later->getBeginLoc(),
           Raw ? "synchronise the lanes between the write and the read with "
                 "__syncwarp(), or exchange the values with __shfl_down_sync "
                 "/ cooperative_groups::reduce; 'volatile' does not order "
                 "lanes"
               : "synchronise the lanes between the read and the write with "
                 "__syncwarp(), or exchange the values with __shfl_sync; "
                 "'volatile' does not order lanes");
  }
}

WARPLINT_CHECK_FACTORY(ImplicitSyncCheck)

} // namespace warplint::warp
