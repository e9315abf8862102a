#include "checks/divergence/SubwarpBranchCheck.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/Loops.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
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
  // One lane of the warp, whichever (the corner thread of a 2-D tile, lane
  // 15 of a 16x16 block's first warp): a special case one thread handles.
  if (N == 1)
    return true;
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
// algorithm asks for, not a branch to restructure. The body writes an array
// and reads the same array C further on; a halo load (`if (tx < R)
// tile[ty][tx + B + R] = in[...]`) writes one array from another and is no
// such step.
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
  // The array an access indexes (s of s[i] or of s[j][i]).
  auto ArrayOf = [](const Expr *E) -> const ValueDecl * {
    while (const auto *AS =
               dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()))
      E = AS->getBase();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return DRE->getDecl();
    return nullptr;
  };
  // The arrays the body writes, and those it reads at `... + C`.
  llvm::SmallPtrSet<const ValueDecl *, 4> Written, ReadFurther;
  llvm::SmallPtrSet<const Expr *, 4> Targets;
  forEachStmt(If->getThen(), WalkOptions().enterLambdas(), [&](const Stmt *S) {
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp()) {
      Targets.insert(BO->getLHS()->IgnoreParenImpCasts());
      if (const ValueDecl *A = ArrayOf(BO->getLHS()))
        Written.insert(A);
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S);
        AS && !Targets.count(AS)) {
      bool Further = findStmt(AS->getIdx(), WalkOptions(), [&](const Stmt *N) {
        const auto *Add = dyn_cast<BinaryOperator>(N);
        return Add && Add->getOpcode() == BO_Add &&
               (Same(Add->getRHS(), Bound) || Same(Add->getLHS(), Bound));
      });
      if (Further)
        if (const ValueDecl *A = ArrayOf(AS))
          ReadFurther.insert(A);
    }
    return WalkStep::Continue;
  });
  for (const ValueDecl *A : ReadFurther)
    if (Written.count(A))
      return true;
  return false;
}

// Whether a side of an `if` is register work that the optimiser turns into
// selects: at most two assignments to local scalars or vectors, with no
// memory access, call (but make_uint4 and friends) or division on the right
// (`if (lane & 1) v = v * 2.0f + 1.0f;`, `o = make_uint4(r0, r1, r2, r3);`).
// The AST layer's reading where the IR layer does not answer.
bool isRegisterSelect(const Stmt *Side, unsigned &Statements) {
  if (!Side)
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(Side)) {
    for (const Stmt *C : CS->body())
      if (!isRegisterSelect(C, Statements))
        return false;
    return true;
  }
  const auto *E = dyn_cast<Expr>(Side);
  if (!E || ++Statements > 2)
    return false;
  E = E->IgnoreParenImpCasts();
  const Expr *Target = nullptr, *Value = E;
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(E);
           UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
           Op && Op->isAssignmentOp() && Op->getNumArgs() == 2) {
    Target = Op->getArg(0); // a struct assigned whole: o = make_uint4(...)
    Value = Op->getArg(1);
  }
  const auto *DRE =
      Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V)
    return false;
  // A scalar, or a CUDA vector type (uint4, float2: registers too).
  ASTContext &AC = V->getASTContext();
  QualType T = V->getType();
  bool Vector = T->isRecordType() && !T->isIncompleteType() &&
                AC.getTypeSize(T) <= 128 && T.isTriviallyCopyableType(AC);
  if (!V->isLocalVarDecl() || V->isStaticLocal() || T.isVolatileQualified() ||
      !(T->isScalarType() || Vector) || T->isPointerType())
    return false;
  unsigned Operators = 0;
  bool Plain = forEachStmt(Value, [&](const Stmt *N) {
    // threadIdx.x and friends are property reads, calls only underneath.
    if (isa<PseudoObjectExpr>(N))
      return WalkStep::SkipChildren;
    // make_uint4(r0, r1, r2, r3) and friends build a vector from registers.
    const auto *Call = dyn_cast<CallExpr>(N);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (Callee && Callee->getDeclName().isIdentifier() &&
        Callee->getName().starts_with("make_") &&
        AC.getSourceManager().isInSystemHeader(Callee->getLocation()))
      return WalkStep::Continue;
    // An element of a local array at a constant index: a register.
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(N)) {
      const auto *Base =
          dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
      const auto *Arr = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
      if (Arr && Arr->isLocalVarDecl() && !Arr->isStaticLocal() &&
          Arr->getType()->isConstantArrayType() &&
          AS->getIdx()->isIntegerConstantExpr(AC))
        return WalkStep::SkipChildren;
    }
    if (isa<BinaryOperator>(N) || isa<ConditionalOperator>(N))
      ++Operators;
    const auto *BO = dyn_cast<BinaryOperator>(N);
    const auto *UO = dyn_cast<UnaryOperator>(N);
    bool Stop =
        isa<CallExpr>(N) || isa<ArraySubscriptExpr>(N) ||
        (isa<MemberExpr>(N) && cast<MemberExpr>(N)->isArrow()) ||
        (UO && UO->getOpcode() == UO_Deref) ||
        (BO &&
         (BO->getOpcode() == BO_Div || BO->getOpcode() == BO_Rem ||
          BO->getOpcode() == BO_DivAssign || BO->getOpcode() == BO_RemAssign));
    return Stop ? WalkStep::Stop : WalkStep::Continue;
  });
  return Plain && Operators <= 4;
}

// Whether E reads memory (a load the lanes may see differently).
bool readsMemory(const Expr *E) {
  return !forEachStmt(E, [](const Stmt *N) {
    if (isa<PseudoObjectExpr>(N))
      return WalkStep::SkipChildren;
    const auto *UO = dyn_cast<UnaryOperator>(N);
    bool Reads = isa<ArraySubscriptExpr>(N) || isa<CallExpr>(N) ||
                 (isa<MemberExpr>(N) && cast<MemberExpr>(N)->isArrow()) ||
                 (UO && UO->getOpcode() == UO_Deref);
    return Reads ? WalkStep::Stop : WalkStep::Continue;
  });
}

// Debug info's name for Loc: the presumed file made absolute, line, column
// (of the macro's expansion for a token of a macro, as clang's debug info
// places it).
std::optional<ir::SourcePos> irPosition(CheckContext &Ctx, SourceLocation Loc) {
  SourceManager &SM = Ctx.sourceManager();
  if (Loc.isInvalid())
    return std::nullopt;
  Loc = SM.getExpansionLoc(Loc);
  PresumedLoc P = SM.getPresumedLoc(Loc);
  if (P.isInvalid())
    return std::nullopt;
  llvm::SmallString<256> Path(P.getFilename());
  SM.getFileManager().makeAbsolutePath(Path);
  return ir::SourcePos{std::string(Path), P.getLine(), P.getColumn()};
}

// A divergent branch whose two sides hold this many instructions or fewer
// (at -O3, in the IR: one load or store and its address, `if (tid < 8)
// a[ty * 16 + tx] = 0.0f;` is 6) costs what predicating them costs: ptxas
// predicates such sides or branches over them (bench/gpu/subwarp_branch.cu
// on the H100: one store under a lane condition and k_arith<1> predicated,
// no branch in the SASS; one load, k_pred_load, a branch costing two warp
// instructions more than the select of k_select). Not reported.
constexpr unsigned MaxPredicated = 6;

// A one-sided branch outside a loop that changes its lanes is reported
// when the issue slots that packing its lanes would save come to this share
// of the kernel's instructions: Body * (Warps - Needed) / (Total * Warps).
constexpr double MinOneSidedShare = 0.1;
// ... and when the branch is at least this long: packing lanes costs an
// index computation, and shuffles where the inputs sit in other lanes, a
// few to a dozen instructions; a body of a store or two (a warp's result,
// a halo cell) does not pay for it. Instructions at -O3.
constexpr unsigned MinOneSidedBody = 32;

struct OneSidedCost {
  unsigned Lanes = 0, Warps = 0, Needed = 0; // over the block
  unsigned Body = 0, Total = 0; // instructions (-O3) or statements (AST)
};

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
  // With the IR layer on, a branch is judged where the optimiser leaves it:
  // a helper no kernel of this file reaches has no code here (a header's
  // helper is judged in the file whose kernels call it).
  llvm::SmallVector<const FunctionDecl *, 4> Kernels;
  if (context().optimisedAccesses() && !Fn->hasAttr<CUDAGlobalAttr>() &&
      !context().engine().kernelsReaching(Fn, Kernels))
    return;
  // A helper: its parameters as its calls pass them, thread by thread.
  FunctionDependence &FD = context().engine().callerUniformity(Fn);
  LaneEvaluator LE = context().engine().lanes(Fn);
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

ir::BranchFate SubwarpBranchCheck::optimised(const Stmt *Branch,
                                             const Expr *Cond) {
  const ir::OptimisedAccesses *O = context().optimisedAccesses();
  if (!O)
    return {};
  // Where clang's code generator puts the branch: an `if`'s or a `switch`'s
  // between the keyword and the end of the condition (at an operator of
  // it), a `?:`'s at its condition, an `&&`'s or `||`'s at the operator.
  SourceLocation Begin, End;
  if (isa<IfStmt, SwitchStmt>(Branch)) {
    Begin = Branch->getBeginLoc();
    End = Cond->getEndLoc();
  } else if (const auto *CO = dyn_cast<ConditionalOperator>(Branch)) {
    Begin = Cond->getBeginLoc();
    End = CO->getQuestionLoc();
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Branch)) {
    Begin = BO->getBeginLoc();
    End = BO->getOperatorLoc();
  } else {
    return {};
  }
  auto B = irPosition(context(), Begin), E = irPosition(context(), End);
  if (!B || !E || B->File != E->File)
    return {};
  return O->branchesIn(*B, *E);
}

bool SubwarpBranchCheck::activeSetChanges(const Stmt *Branch, const Expr *Cond,
                                          FunctionDependence &FD) {
  for (const Stmt *P = FD.parent(Branch); P; P = FD.parent(P))
    if (isLoop(P) && variesWithLoop(Cond, P))
      return true;
  return false;
}

void SubwarpBranchCheck::judge(const Stmt *Branch, const Expr *Cond,
                               FunctionDependence &FD, LaneEvaluator &LE) {
  if (!Cond || FD.dependence(Cond) != Dependence::ThreadDependent)
    return;
  // Inside loops whose counters start at a value known before the loop
  // (a constant, or an outer counter's first value: for (k = 2; ...) for
  // (j = k >> 1; ...)), judge the first iteration: for (s = 1; s <
  // blockDim.x; s *= 2) if (tid % (2 * s) == 0) splits every warp then.
  auto FirstIteration = [&](std::string &When) {
    llvm::SmallVector<const ForStmt *, 4> Loops;
    for (const Stmt *P = FD.parent(Branch); P; P = FD.parent(P))
      if (const auto *For = dyn_cast<ForStmt>(P))
        Loops.push_back(For);
    for (const ForStmt *For : llvm::reverse(Loops)) {
      const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
      if (!Init || !Init->isSingleDecl() || !For->getCond() ||
          !isWarpUniform(FD.dependence(For->getCond())))
        continue;
      const auto *V = dyn_cast<VarDecl>(Init->getSingleDecl());
      if (!V || !V->getInit() || V->getInit()->isValueDependent() ||
          FD.dependence(V->getInit()) == Dependence::ThreadDependent)
        continue;
      std::optional<int64_t> First = LE.eval(V->getInit(), ThreadId{});
      if (!First)
        continue;
      LE.fix(V, *First);
      // The loop must run at all in its first iteration.
      if (auto Runs = LE.eval(For->getCond(), ThreadId{}); Runs && !*Runs)
        return false;
      When += (When.empty() ? " when " : ", ") + V->getNameAsString() + " = " +
              std::to_string(*First);
    }
    return !When.empty();
  };
  LaneSplit S = LE.split(Cond);
  std::string When;
  if (!S.Known) {
    if (FirstIteration(When)) {
      S = LE.split(Cond);
      When += " (the first iteration of the loop)";
    } else {
      When.clear();
    }
  }
  // `i < n && (tid & 1)`: a conjunct the evaluator cannot compute that
  // reads no memory (a tail guard) holds for whole warps but the last; the
  // others split every warp where it holds.
  std::string Where;
  if (!S.Known && When.empty()) {
    llvm::SmallVector<const Expr *, 4> Parts, Known, Guards;
    conjuncts(Cond, Parts);
    bool Loads = false;
    for (const Expr *P : Parts) {
      if (LE.split(P).Known)
        Known.push_back(P);
      else if (readsMemory(P))
        Loads = true;
      else
        Guards.push_back(P);
    }
    if (Known.size() == 1 && !Guards.empty() && !Loads) {
      S = LE.split(Known.front());
      for (const Expr *G : Guards)
        Where +=
            (Where.empty() ? " where '" : "' and '") + context().sourceText(G);
      Where += "' holds";
    }
  }
  LE.clearFixed();
  if (!S.Known || S.WarpsSplit == 0)
    return;
  unsigned W = LE.warpSize();
  uint64_t True = S.TrueLanes, False = S.Lanes & ~S.TrueLanes;
  unsigned NTrue = llvm::popcount(True), NFalse = llvm::popcount(False);
  bool Switch = isa<SwitchStmt>(Branch);
  if (!Switch && !ReportSingleLane &&
      (oneLanePerGroup(True, S.Lanes) || oneLanePerGroup(False, S.Lanes)))
    return;
  const auto *If = dyn_cast<IfStmt>(Branch);
  if (If && isReductionStep(If))
    return;
  // What the optimiser left: no branch (selects, predicated code), or one
  // so small that it costs what predication would.
  ir::BranchFate Fate = optimised(Branch, Cond);
  if (Fate.K == ir::BranchFate::Flattened)
    return;
  bool AtO3 = Fate.K == ir::BranchFate::Divergent;
  if (AtO3 && Fate.Sides[0] + Fate.Sides[1] <= MaxPredicated)
    return;
  // A one-sided branch (no else, or an else the optimiser emptied) costs
  // the warp nothing over running it with every lane: the skipping lanes
  // have nothing to run until the join and the warp issues the body once.
  // Its cost is a split only where a loop changes the active lanes from one
  // iteration to the next (`tid % (2 * s) == 0`, `(tid ^ j) > tid`), the
  // warps of the block staying busy on ever fewer lanes; a fixed set (`tid
  // < 3` loading boundary columns each step) is work no lane assignment
  // reduces.
  bool OneSided = !Switch && (!If || !If->getElse() ||
                              (AtO3 && (!Fate.Sides[0] || !Fate.Sides[1])));
  if (isa<ConditionalOperator>(Branch))
    OneSided = AtO3 && (!Fate.Sides[0] || !Fate.Sides[1]);
  // Outside such a loop, a one-sided branch is worth restructuring only
  // where packing its lanes into fewer warps saves a real share of the
  // kernel: the halo of a 16x16 tile (4 lanes in each of 8 warps, where one
  // warp would do) is; `if (tid < 3)` in one warp, or half of each warp
  // storing a result once in a kernel ten times its size, is not.
  OneSidedCost Spread;
  if (OneSided && !activeSetChanges(Branch, Cond, FD)) {
    bool Negated = isa<BinaryOperator>(Branch) &&
                   cast<BinaryOperator>(Branch)->getOpcode() == BO_LOr;
    Spread.Lanes = Negated ? S.FalseTotal : S.TrueTotal;
    Spread.Warps = Negated ? S.WarpsFalse : S.WarpsTrue;
    Spread.Needed = (Spread.Lanes + W - 1) / W;
    // Without the optimiser's answer the cost cannot be weighed (a copy
    // loop's address arithmetic folds away at -O3): silent, as a
    // performance check is where it cannot tell.
    if (!AtO3)
      return;
    Spread.Body = Fate.Sides[0] + Fate.Sides[1];
    Spread.Total = Fate.FunctionSize;
    if (Spread.Warps <= Spread.Needed || !Spread.Total ||
        Spread.Body < MinOneSidedBody ||
        double(Spread.Body) * (Spread.Warps - Spread.Needed) <
            MinOneSidedShare * Spread.Total * Spread.Warps)
      return;
  }
  // Both sides run: the warp pays the smaller one on top of its lanes' own
  // path; a side of a few instructions costs what predication would.
  if (!OneSided && AtO3 &&
      std::min(Fate.Sides[0], Fate.Sides[1]) <= MaxPredicated)
    return;
  if (!AtO3 && If) { // the AST layer's reading: register work is a select
    unsigned Statements = 0;
    if (isRegisterSelect(If->getThen(), Statements) &&
        isRegisterSelect(If->getElse(), Statements))
      return;
  }
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
  // Without a launch of literal shape, the lanes are those of a 1-D block.
  if (!LE.shapeKnown())
    Warps += " (of a 1-D block: no launch of this kernel with a literal "
             "block shape was found)";
  FindingBuilder B = diag(
      Cond->getBeginLoc(),
      "branch splits the lanes of a warp: '{0}' {1} in {2}{3}{4}; the warp "
      "runs the paths one after the other (branch granularity below warpSize "
      "{5}; Pascal deep dive, Control Flow)",
      Severity::Warning);
  (B << context().sourceText(Cond) << Split << Warps << When << Where
     << int64_t(W))
      .metric("lanes_taken", NTrue)
      .metric("lanes_not_taken", NFalse)
      .metric("warps_split", S.WarpsSplit);
  if (AtO3)
    B.metric("instructions_side_1", Fate.Sides[0])
        .metric("instructions_side_2", Fate.Sides[1]);
  // The cost, where the two sides are plain to see.
  if (!If)
    return;
  std::string Cost;
  if (AtO3) {
    unsigned A = Fate.Sides[0], C = Fate.Sides[1];
    Cost = A && C ? "cost at -O3: the warp runs both sides, " +
                        std::to_string(A) + " and " + std::to_string(C) +
                        " instructions, with part of its lanes idle in each"
                  : "cost at -O3: " + std::to_string(NFalse) + " of " +
                        std::to_string(NTrue + NFalse) +
                        " lanes idle while the others run the " +
                        std::to_string(A + C) + " instructions of the branch";
  } else {
    unsigned Then = sizeOf(If->getThen()), Else = sizeOf(If->getElse());
    Cost = If->getElse()
               ? "cost: the warp executes both sides, " + std::to_string(Then) +
                     " statement(s) then " + std::to_string(Else) +
                     ", with part of its lanes idle in each"
               : "cost: " + std::to_string(NFalse) + " of " +
                     std::to_string(NTrue + NFalse) +
                     " lanes idle while the others run the " +
                     std::to_string(Then) + " statement(s) of the branch";
  }
  if (Spread.Warps)
    Cost += "; its " + std::to_string(Spread.Lanes) + " lanes sit in " +
            std::to_string(Spread.Warps) + " warps where " +
            std::to_string(Spread.Needed) +
            " would hold them, and the branch is " +
            std::to_string(Spread.Body) + " of the kernel's " +
            std::to_string(Spread.Total) + " instructions";
  B.note(If->getThen()->getBeginLoc(), "{0}") << Cost;
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
