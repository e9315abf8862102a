#include "checks/divergence/SubwarpBranchCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/bit.h"

using namespace clang;

namespace warplint::divergence {

namespace {

// Statements a side runs, for the cost note.
unsigned sizeOf(const Stmt *S) {
  if (!S || isa<NullStmt>(S))
    return 0;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    unsigned N = 0;
    for (const Stmt *C : CS->body())
      N += sizeOf(C);
    return N;
  }
  unsigned N = 1;
  if (!isa<Expr>(S))
    for (const Stmt *C : S->children())
      if (C && !isa<Expr>(C))
        N += sizeOf(C);
  return N;
}

// Whether evaluating E may have an effect worth a branch: a call or an
// assignment (otherwise ?: and && are selects and predicated instructions).
bool hasEffects(const Stmt *S) {
  bool Found = false;
  forEachStmt(S, WalkOptions().enterLambdas(), [&](const Stmt *N) {
    // threadIdx.x and friends are property reads, calls only underneath.
    if (isa<PseudoObjectExpr>(N))
      return WalkStep::SkipChildren;
    const auto *BO = dyn_cast<BinaryOperator>(N);
    const auto *UO = dyn_cast<UnaryOperator>(N);
    Found = (isa<CallExpr>(N) && !isa<CXXOperatorCallExpr>(N)) ||
            (BO && BO->isAssignmentOp()) ||
            (UO && UO->isIncrementDecrementOp());
    return Found ? WalkStep::Stop : WalkStep::Continue;
  });
  return Found;
}

// One lane out of each equal group of lanes, the first or the last of each
// (lane 0 of every tile of 16, the last lane of a warp after a scan): a
// group publishing its result, the rest of the warp the other way.
bool oneLanePerGroup(uint64_t Mask, uint64_t Lanes) {
  unsigned N = llvm::popcount(Mask);
  unsigned Total = llvm::popcount(Lanes);
  if (N == 0 || N > 4 || Total % N != 0)
    return false;
  unsigned Group = Total / N;
  unsigned Offset = llvm::countr_zero(Mask) % Group;
  if (Offset != 0 && Offset != Group - 1)
    return false;
  for (unsigned L = 0; L < 64; ++L)
    if (Lanes >> L & 1)
      if (bool(Mask >> L & 1) != (L % Group == Offset))
        return false;
  return true;
}

// A step of a tree reduction's tail: if (tid < C) s[tid] += s[tid + C];
// (written out, or in a loop that halves C). The narrowing is what the
// algorithm asks for, not a branch to restructure.
bool isReductionStep(const IfStmt *If) {
  if (If->getElse())
    return false;
  const auto *Cmp =
      dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
  if (!Cmp || (Cmp->getOpcode() != BO_LT && Cmp->getOpcode() != BO_GT))
    return false;
  const Expr *Bound = Cmp->getOpcode() == BO_LT ? Cmp->getRHS() : Cmp->getLHS();
  auto Same = [&](const Expr *A, const Expr *B) {
    A = A->IgnoreParenImpCasts();
    B = B->IgnoreParenImpCasts();
    if (const auto *DA = dyn_cast<DeclRefExpr>(A))
      if (const auto *DB = dyn_cast<DeclRefExpr>(B))
        return DA->getDecl() == DB->getDecl();
    const auto *LA = dyn_cast<IntegerLiteral>(A);
    const auto *LB = dyn_cast<IntegerLiteral>(B);
    return LA && LB && LA->getValue() == LB->getValue();
  };
  return findStmt(
      If->getThen(), WalkOptions().enterLambdas(), [&](const Stmt *S) {
        const auto *Add = dyn_cast<BinaryOperator>(S);
        return Add && Add->getOpcode() == BO_Add &&
               (Same(Add->getRHS(), Bound) || Same(Add->getLHS(), Bound));
      });
}

const VarDecl *asVar(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

} // namespace

SubwarpBranchCheck::SubwarpBranchCheck(llvm::StringRef Name, CheckContext &Ctx)
    : FunctionCheck(Name, Ctx),
      ReportSingleLane(Options.get("ReportSingleLane", false)) {}

void SubwarpBranchCheck::storeOptions(CheckOptionMap &Opts) const {
  Opts[Name + ".ReportSingleLane"] = ReportSingleLane ? "true" : "false";
}

void SubwarpBranchCheck::checkFunction(const FunctionDecl *Fn) {
  FunctionDependence &FD = context().threadDependence().forFunction(Fn);
  BlockShape Shape;
  if (Fn->hasAttr<CUDAGlobalAttr>())
    Shape = context().affine().blockShape(Fn);
  LaneEvaluator LE(Fn, Shape, arch().warp_size);
  // Whether S lies in the condition of a statement or expression above it,
  // through expressions only (a && inside an if's condition is part of the
  // condition, not a branch of its own).
  auto InCondition = [](const Stmt *S, llvm::ArrayRef<const Stmt *> Up) {
    for (const Stmt *P : llvm::reverse(Up)) {
      if (S == FunctionDependence::conditionOf(P))
        return true;
      if (!isa<Expr>(P))
        return false;
      S = P;
    }
    return false;
  };
  forEachStmt(Fn->getBody(), [&](const Stmt *S,
                                 llvm::ArrayRef<const Stmt *> Up) {
    const Expr *Cond = FunctionDependence::conditionOf(S);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (!If->isConsteval())
        judge(S, Cond, FD, LE);
    } else if (isa<SwitchStmt>(S)) {
      judge(S, Cond, FD, LE);
    } else if (isa<ForStmt, WhileStmt, DoStmt>(S)) {
      if (Cond)
        judgeLoop(S, Cond, FD, LE);
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
      if (hasEffects(CO->getTrueExpr()) || hasEffects(CO->getFalseExpr()))
        judge(S, Cond, FD, LE);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isLogicalOp() && !InCondition(S, Up) && hasEffects(BO->getRHS()))
        judge(S, Cond, FD, LE);
    }
  });
}

void SubwarpBranchCheck::judge(const Stmt *Branch, const Expr *Cond,
                               FunctionDependence &FD, LaneEvaluator &LE) {
  if (!Cond || FD.dependence(Cond) != Dependence::ThreadDependent)
    return;
  LaneSplit S = LE.split(Cond);
  std::string When;
  if (!S.Known) {
    // Inside loops whose counters start at a constant, judge the first
    // iteration: for (s = 1; s < blockDim.x; s *= 2) if (tid % (2 * s) == 0)
    // splits every warp then.
    for (const Stmt *P = FD.parent(Branch); P; P = FD.parent(P)) {
      const auto *For = dyn_cast<ForStmt>(P);
      const auto *Init =
          For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
      if (!Init || !Init->isSingleDecl() || !For->getCond() ||
          !isWarpUniform(FD.dependence(For->getCond())))
        continue;
      const auto *V = dyn_cast<VarDecl>(Init->getSingleDecl());
      Expr::EvalResult R;
      if (!V || !V->getInit() || V->getInit()->isValueDependent() ||
          !V->getInit()->EvaluateAsInt(R, V->getASTContext()))
        continue;
      int64_t First = R.Val.getInt().getExtValue();
      LE.fix(V, First);
      When += (When.empty() ? " when " : ", ") + V->getNameAsString() + " = " +
              std::to_string(First);
    }
    if (!When.empty()) {
      S = LE.split(Cond);
      When += " (the first iteration of the loop)";
    }
    LE.clearFixed();
  }
  if (!S.Known || S.WarpsSplit == 0)
    return;
  unsigned W = LE.warpSize();
  uint64_t True = S.TrueLanes, False = S.Lanes & ~S.TrueLanes;
  unsigned NTrue = llvm::popcount(True), NFalse = llvm::popcount(False);
  bool Switch = isa<SwitchStmt>(Branch);
  if (!Switch && !ReportSingleLane &&
      (oneLanePerGroup(True, S.Lanes) || oneLanePerGroup(False, S.Lanes)))
    return;
  if (const auto *If = dyn_cast<IfStmt>(Branch); If && isReductionStep(If))
    return;
  std::string Split =
      Switch ? "takes " + std::to_string(S.Paths) + " different values"
             : "sends " + describeLanes(True, W) + " one way and " +
                   describeLanes(False, W) + " the other";
  std::string Warps;
  if (S.WarpsSplit == S.WarpsChecked && S.WarpsSplit > 1)
    Warps = LE.shapeKnown()
                ? "all " + std::to_string(S.WarpsSplit) + " warps of the block"
                : "every warp";
  else if (S.WarpsSplit == 1 || !LE.shapeKnown())
    Warps = "warp " + std::to_string(S.FirstWarp);
  else
    Warps = std::to_string(S.WarpsSplit) + " of the " +
            std::to_string(S.WarpsChecked) + " warps of the block";
  FindingBuilder B = diag(
      Cond->getBeginLoc(),
      "branch splits the lanes of a warp: '{0}' {1} in {2}{3}; the warp runs "
      "the paths one after the other (branch granularity below warpSize {4}; "
      "Pascal deep dive, Control Flow)",
      Severity::Warning);
  (B << context().sourceText(Cond) << Split << Warps << When << int64_t(W))
      .metric("lanes_taken", NTrue)
      .metric("lanes_not_taken", NFalse)
      .metric("warps_split", S.WarpsSplit);
  // The cost, where the two sides are plain to see.
  if (const auto *If = dyn_cast<IfStmt>(Branch)) {
    unsigned Then = sizeOf(If->getThen()), Else = sizeOf(If->getElse());
    std::string Cost =
        If->getElse()
            ? "cost: the warp executes both sides, " + std::to_string(Then) +
                  " statement(s) then " + std::to_string(Else) +
                  ", with part of its lanes idle in each"
            : "cost: " + std::to_string(NFalse) + " of " +
                  std::to_string(NTrue + NFalse) +
                  " lanes idle while the others run the " +
                  std::to_string(Then) + " statement(s) of the branch";
    B.note(If->getThen()->getBeginLoc(), "{0}") << Cost;
  }
}

// A loop splits a warp when lanes run it a different number of times: the
// condition compares a counter that starts and steps the same in every lane
// with a bound that differs between lanes (for (k = 0; k < tid % 4; ++k)).
void SubwarpBranchCheck::judgeLoop(const Stmt *Loop, const Expr *Cond,
                                   FunctionDependence &FD, LaneEvaluator &LE) {
  if (FD.dependence(Cond) != Dependence::ThreadDependent)
    return;
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO || !BO->isComparisonOp())
    return;
  const VarDecl *Counter = asVar(BO->getLHS());
  const Expr *Bound = BO->getRHS();
  if (!Counter || LE.split(BO->getLHS()).Known) {
    Counter = asVar(BO->getRHS());
    Bound = BO->getLHS();
  }
  if (!Counter || !Counter->getInit())
    return;
  LaneSplit Start = LE.split(Counter->getInit());
  if (!Start.Known || Start.WarpsSplit)
    return; // the counter itself differs between lanes: not followed
  // The counter's steps must not depend on the thread either.
  if (!isWarpUniform(FD.dependence(Counter->getInit())))
    return;
  LaneSplit S = LE.split(Bound);
  if (!S.Known || S.WarpsSplit == 0)
    return;
  int64_t Lo = INT64_MAX, Hi = INT64_MIN;
  for (unsigned L = 0; L < LE.warpSize(); ++L)
    if (auto T = LE.thread(S.FirstWarp, L))
      if (auto V = LE.eval(Bound, *T)) {
        Lo = std::min(Lo, *V);
        Hi = std::max(Hi, *V);
      }
  (diag(
       Cond->getBeginLoc(),
       "loop trip count differs between the lanes of a warp: its bound '{0}' "
       "ranges from {1} to {2} in warp {3}; the warp keeps iterating until its "
       "last lane is done, with the others idle (branch granularity below "
       "warpSize {4}; Pascal deep dive, Control Flow)",
       Severity::Warning)
   << context().sourceText(Bound) << Lo << Hi << int64_t(S.FirstWarp)
   << int64_t(LE.warpSize()))
      .metric("bound_min", double(Lo))
      .metric("bound_max", double(Hi))
      .metric("warps_split", S.WarpsSplit);
}

WARPLINT_CHECK_FACTORY(SubwarpBranchCheck)

} // namespace warplint::divergence
