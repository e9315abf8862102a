#include "Analysis/LaneEval.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/DeclRefs.h"
#include "Analysis/Loops.h"
#include "Analysis/SyncPrimitives.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include <functional>
#include <vector>

using namespace clang;

namespace warplint {

namespace {

constexpr unsigned MaxDepth = 12;
// Without a known shape: blockDim.x up to the largest block of any target.
constexpr unsigned UnpinnedThreads = 1024;

// Wraps V to the width and signedness of an integral type.
std::optional<int64_t> wrapTo(int64_t V, QualType T, const ASTContext &Ctx) {
  if (T->isBooleanType())
    return V != 0;
  if (!T->isIntegralOrEnumerationType())
    return std::nullopt;
  unsigned Bits = Ctx.getIntWidth(T);
  if (Bits >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Bits) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (T->isSignedIntegerOrEnumerationType() && (U >> (Bits - 1)))
    return int64_t(U | ~Mask);
  return int64_t(U);
}

} // namespace

std::string describeLanes(uint64_t Mask, unsigned WarpSize) {
  unsigned N = llvm::popcount(Mask);
  if (N == 0)
    return "no lane";
  uint64_t Even = 0;
  for (unsigned L = 0; L < WarpSize; L += 2)
    Even |= uint64_t(1) << L;
  if (N > 2 && Mask == Even)
    return "the " + std::to_string(N) + " even lanes";
  if (N > 2 && Mask == (Even << 1))
    return "the " + std::to_string(N) + " odd lanes";
  std::vector<std::string> Runs;
  for (unsigned L = 0; L < 64; ++L) {
    if (!(Mask >> L & 1))
      continue;
    unsigned End = L;
    while (End + 1 < 64 && (Mask >> (End + 1) & 1))
      ++End;
    Runs.push_back(End == L ? std::to_string(L)
                            : std::to_string(L) + "-" + std::to_string(End));
    L = End;
  }
  if (Runs.size() > 3)
    return std::to_string(N) + " lanes";
  std::string Out = N == 1 ? "lane " : "lanes ";
  for (size_t I = 0; I < Runs.size(); ++I)
    Out += (I ? ", " : "") + Runs[I];
  return Out;
}

LaneEvaluator::LaneEvaluator(const FunctionDecl *F, BlockShape Shape,
                             unsigned WarpSize)
    : F(F), Shape(Shape), WarpSize(WarpSize ? WarpSize : 32) {}

unsigned LaneEvaluator::warpCount() const {
  unsigned Threads =
      Shape.pinned() ? Shape.X * Shape.Y * Shape.Z : UnpinnedThreads;
  return (Threads + WarpSize - 1) / WarpSize;
}

std::optional<ThreadId> LaneEvaluator::thread(unsigned W, unsigned L) const {
  int64_t Linear = int64_t(W) * WarpSize + L;
  if (!Shape.pinned())
    return Linear < UnpinnedThreads ? std::optional<ThreadId>(ThreadId{Linear})
                                    : std::nullopt;
  if (Linear >= int64_t(Shape.X) * Shape.Y * Shape.Z)
    return std::nullopt;
  ThreadId T;
  T.X = Linear % Shape.X;
  T.Y = (Linear / Shape.X) % Shape.Y;
  T.Z = Linear / (int64_t(Shape.X) * Shape.Y);
  return T;
}

bool LaneEvaluator::isWritten(const VarDecl *V) {
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
  if (!Owner)
    return true;
  auto It = Written.find(Owner);
  if (It == Written.end()) {
    llvm::DenseSet<const VarDecl *> Set;
    auto Local = [](const Expr *E) -> const VarDecl * {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        return dyn_cast<VarDecl>(DRE->getDecl());
      return nullptr;
    };
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (BO->isAssignmentOp())
          if (const VarDecl *W = Local(BO->getLHS()))
            Set.insert(W);
      } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
        if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
          if (const VarDecl *W = Local(UO->getSubExpr()))
            Set.insert(W);
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        // Bound to a reference: may be written by the callee.
        for (const Expr *Arg : Call->arguments())
          if (Arg->isLValue())
            if (const VarDecl *W = Local(Arg))
              Set.insert(W);
      } else if (const auto *Asm = dyn_cast<AsmStmt>(S)) {
        for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
          if (const VarDecl *W = Local(Asm->getOutputExpr(I)))
            Set.insert(W);
      }
      for (const Stmt *C : S->children())
        Walk(C);
    };
    Walk(Owner->getBody());
    It = Written.insert({Owner, std::move(Set)}).first;
  }
  return It->second.count(V) != 0;
}

std::optional<int64_t> LaneEvaluator::eval(const Expr *E, const ThreadId &T) {
  return evalIn(E, T, nullptr, 0);
}

std::optional<int64_t> LaneEvaluator::builtin(const Expr *E,
                                              const ThreadId &T) {
  auto B = cudaBuiltinComponent(E);
  if (!B)
    return std::nullopt;
  auto [Type, Comp] = *B;
  if (Type == "__cuda_builtin_threadIdx_t")
    return Comp == "x" ? T.X : Comp == "y" ? T.Y : T.Z;
  if (Type == "__cuda_builtin_blockDim_t")
    if (std::optional<unsigned> D = Shape.dim(Comp == "x"   ? 0
                                              : Comp == "y" ? 1
                                                            : 2))
      return int64_t(*D);
  return std::nullopt;
}

std::optional<int64_t> LaneEvaluator::evalIn(const Expr *E, const ThreadId &T,
                                             const Bindings *B,
                                             unsigned Depth) {
  if (!E || Depth > MaxDepth || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  E = E->IgnoreParens();
  const ASTContext &Ctx = F->getASTContext();
  if (auto V = builtin(E, T))
    return V;
  // Anything that does not depend on the thread and folds is a constant
  // (folded once per expression: the tracer asks again in every lane and
  // every step).
  if (!isa<DeclRefExpr>(E) || !B) {
    auto [It, New] = Constants.try_emplace(E);
    if (New) {
      Expr::EvalResult R;
      if (E->getType()->isIntegralOrEnumerationType() &&
          E->EvaluateAsInt(R, Ctx) && R.Val.isInt())
        It->second = R.Val.getInt().getExtValue();
    }
    if (It->second)
      return It->second;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      if (B) {
        auto It = B->find(P);
        if (It != B->end())
          return It->second;
        return std::nullopt;
      }
      auto It = Fixed.find(P);
      if (It != Fixed.end())
        return It->second;
      auto Src = Sources.find(P);
      if (Src == Sources.end() || Src->second.empty())
        return std::nullopt;
      std::optional<int64_t> Same;
      for (const ArgSource &A : Src->second) {
        std::optional<int64_t> V = A.Caller->eval(A.Arg, T);
        if (!V || (Same && *Same != *V))
          return std::nullopt;
        Same = V;
      }
      return wrapTo(*Same, P->getType(), Ctx);
    }
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V) {
      auto It = Fixed.find(V);
      if (It != Fixed.end())
        return It->second;
    }
    if (!V || !V->isLocalVarDecl() || V->isStaticLocal())
      return std::nullopt;
    // A local of this function the evaluator cannot follow: its form.
    bool Own = !B && V->getDeclContext() == F;
    if (!V->getInit() || V->getType()->isReferenceType() || isWritten(V))
      return Own ? fromForm(DRE, T) : std::nullopt;
    if (auto R = evalIn(V->getInit(), T, B, Depth + 1))
      return wrapTo(*R, V->getType(), Ctx);
    return Own ? fromForm(DRE, T) : std::nullopt;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    auto R = evalIn(Cast->getSubExpr(), T, B, Depth + 1);
    if (!R)
      return std::nullopt;
    if (Cast->getCastKind() == CK_LValueToRValue || isa<ImplicitCastExpr>(E) ||
        Cast->getType()->isIntegralOrEnumerationType() ||
        Cast->getType()->isBooleanType())
      return wrapTo(*R, Cast->getType(), Ctx);
    return std::nullopt;
  }
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    return evalIn(POE->getResultExpr(), T, B, Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    auto R = evalIn(UO->getSubExpr(), T, B, Depth + 1);
    if (!R)
      return std::nullopt;
    switch (UO->getOpcode()) {
    case UO_LNot:
      return *R == 0;
    case UO_Not:
      return wrapTo(~*R, UO->getType(), Ctx);
    case UO_Minus:
      return wrapTo(-*R, UO->getType(), Ctx);
    case UO_Plus:
      return *R;
    default:
      return std::nullopt;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    auto C = evalIn(CO->getCond(), T, B, Depth + 1);
    if (!C)
      return std::nullopt;
    return evalIn(*C ? CO->getTrueExpr() : CO->getFalseExpr(), T, B, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    auto L = evalIn(BO->getLHS(), T, B, Depth + 1);
    if (!L)
      return std::nullopt;
    if (Op == BO_LAnd && !*L)
      return 0;
    if (Op == BO_LOr && *L)
      return 1;
    auto R = evalIn(BO->getRHS(), T, B, Depth + 1);
    if (!R)
      return std::nullopt;
    // Comparisons and arithmetic happen in the operands' common type.
    QualType OpT = BO->getLHS()->getType();
    bool Unsigned =
        OpT->isUnsignedIntegerOrEnumerationType() ||
        BO->getRHS()->getType()->isUnsignedIntegerOrEnumerationType();
    int64_t A = *L, C = *R;
    if (Unsigned && Ctx.getIntWidth(OpT) <= 32 && BO->isComparisonOp()) {
      A = int64_t(uint32_t(A));
      C = int64_t(uint32_t(C));
    }
    std::optional<int64_t> Out;
    switch (Op) {
    case BO_Add:
      Out = A + C;
      break;
    case BO_Sub:
      Out = A - C;
      break;
    case BO_Mul:
      Out = A * C;
      break;
    case BO_Div:
      if (C == 0)
        return std::nullopt;
      Out = A / C;
      break;
    case BO_Rem:
      if (C == 0)
        return std::nullopt;
      Out = A % C;
      break;
    case BO_And:
      Out = A & C;
      break;
    case BO_Or:
      Out = A | C;
      break;
    case BO_Xor:
      Out = A ^ C;
      break;
    case BO_Shl:
      if (C < 0 || C > 62)
        return std::nullopt;
      Out = A << C;
      break;
    case BO_Shr:
      if (C < 0 || C > 63)
        return std::nullopt;
      Out = A >> C;
      break;
    case BO_LT:
      return A < C;
    case BO_GT:
      return A > C;
    case BO_LE:
      return A <= C;
    case BO_GE:
      return A >= C;
    case BO_EQ:
      return A == C;
    case BO_NE:
      return A != C;
    case BO_LAnd:
      return C != 0;
    case BO_LOr:
      return C != 0;
    case BO_Comma:
      return C;
    default:
      return std::nullopt;
    }
    return wrapTo(*Out, BO->getType(), Ctx);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (auto R = evalCall(Call, T, B, Depth))
      return R;
    return !B && inBody(Call) ? fromForm(Call, T) : std::nullopt;
  }
  return std::nullopt;
}

std::optional<int64_t> LaneEvaluator::fromForm(const Expr *E,
                                               const ThreadId &T) {
  if (!Forms)
    return std::nullopt;
  auto It = FormOf.find(E);
  if (It == FormOf.end())
    It = FormOf.insert({E, Forms->form(E, F, FormModel)}).first;
  const AffineForm &A = It->second;
  if (!A.Known || A.HasUniform || A.Walk)
    return std::nullopt;
  for (const Coef &C : A.C)
    if (C.Symbolic)
      return std::nullopt;
  // The lane term is the thread's linear index modulo the warp size.
  int64_t Linear =
      Shape.pinned() ? T.X + int64_t(Shape.X) * (T.Y + Shape.Y * T.Z) : T.X;
  int64_t V = A.Const + A.C[TermTx].Value * T.X + A.C[TermTy].Value * T.Y +
              A.C[TermTz].Value * T.Z +
              A.C[TermLane].Value * (Linear % int64_t(WarpSize));
  return wrapTo(V, E->getType(), F->getASTContext());
}

bool LaneEvaluator::inBody(const CallExpr *Call) {
  if (!BodyCalls) {
    BodyCalls.emplace();
    if (const Stmt *Body = F->getBody())
      forEachStmt(Body, [&](const Stmt *S) {
        if (const auto *C = dyn_cast<CallExpr>(S))
          BodyCalls->insert(C);
      });
  }
  return BodyCalls->count(Call) != 0;
}

std::optional<int64_t> LaneEvaluator::evalCall(const CallExpr *Call,
                                               const ThreadId &T,
                                               const Bindings *B,
                                               unsigned Depth) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return std::nullopt;
  // Cooperative groups: a group's rank of the calling thread.
  // (thread_rank is a static member of some groups: a MemberExpr callee.)
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Object = MC->getImplicitObjectArgument();
  else if (const auto *ME =
               dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
    Object = ME->getBase();
  if (Object) {
    QualType OT = Object->getType();
    if (OT->isPointerType())
      OT = OT->getPointeeType();
    const CXXRecordDecl *RD = OT->getAsCXXRecordDecl();
    if (RD && Callee->getDeclName().isIdentifier() &&
        Callee->getName() == "thread_rank") {
      int64_t Linear =
          Shape.pinned() ? T.X + int64_t(Shape.X) * (T.Y + Shape.Y * T.Z) : T.X;
      if (RD->getName() == "thread_block")
        return Linear;
      if (unsigned N = tileSizeOf(OT))
        return Linear % N;
      return std::nullopt;
    }
  }
  // A helper that returns one expression: evaluate it with its arguments.
  // A lambda's call operator too (`auto odd = [](int t) { return t & 1; };
  // if (odd(tid))`), its object not an argument.
  const FunctionDecl *Def = Callee->getDefinition();
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Def);
  bool Lambda = Method && Method->getParent()->isLambda() &&
                isa<CXXOperatorCallExpr>(Call);
  if (!Def || !Def->getBody() || (Method && !Lambda))
    return std::nullopt;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return std::nullopt;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  if (!Ret || !Ret->getRetValue())
    return std::nullopt;
  Bindings Inner;
  unsigned First = Lambda ? 1 : 0;
  for (unsigned I = 0;
       I + First < Call->getNumArgs() && I < Def->getNumParams(); ++I)
    if (auto V = evalIn(Call->getArg(I + First), T, B, Depth + 1))
      Inner[Def->getParamDecl(I)] = *V;
  auto R = evalIn(Ret->getRetValue(), T, &Inner, Depth + 1);
  return R ? wrapTo(*R, Def->getReturnType(), F->getASTContext())
           : std::nullopt;
}

LaneSplit LaneEvaluator::split(const Expr *Cond) {
  LaneSplit S;
  unsigned Warps = warpCount();
  for (unsigned W = 0; W < Warps; ++W) {
    uint64_t True = 0, Lanes = 0;
    llvm::SmallDenseSet<int64_t, 8> Values;
    for (unsigned L = 0; L < WarpSize; ++L) {
      auto T = thread(W, L);
      if (!T)
        continue;
      auto V = eval(Cond, *T);
      if (!V)
        return LaneSplit();
      Lanes |= uint64_t(1) << L;
      if (*V)
        True |= uint64_t(1) << L;
      Values.insert(*V);
    }
    if (!Lanes)
      break;
    ++S.WarpsChecked;
    S.TrueTotal += llvm::popcount(True);
    S.FalseTotal += llvm::popcount(Lanes & ~True);
    S.WarpsTrue += True != 0;
    S.WarpsFalse += (Lanes & ~True) != 0;
    if (Values.size() > 1) {
      if (S.WarpsSplit++ == 0) {
        S.FirstWarp = W;
        S.TrueLanes = True;
        S.Lanes = Lanes;
        S.Paths = Values.size();
      }
    }
  }
  S.Known = S.WarpsChecked > 0;
  return S;
}

// A counter's next value after `X op= K` (+=, -=, *=, /=, <<=, >>=), or
// nothing for another operator or a K that step cannot take.
static std::optional<int64_t> stepCounter(BinaryOperatorKind Op, int64_t X,
                                          int64_t K) {
  switch (Op) {
  case BO_AddAssign:
    return X + K;
  case BO_SubAssign:
    return X - K;
  case BO_MulAssign:
    return X * K;
  case BO_DivAssign:
    return K ? std::optional<int64_t>(X / K) : std::nullopt;
  case BO_ShlAssign:
    return K >= 0 && K < 32 ? std::optional<int64_t>(X << K) : std::nullopt;
  case BO_ShrAssign:
    return K >= 0 && K < 63 ? std::optional<int64_t>(X >> K) : std::nullopt;
  default:
    return std::nullopt;
  }
}

LaneSplit LaneEvaluator::tripSplit(const ForStmt *For) {
  constexpr int64_t MaxTrips = 4096;
  std::optional<ForCounter> C = forCounter(For);
  const Expr *Cond = For->getCond(), *Inc = For->getInc();
  if (!C || !Cond || !Inc || Cond->isValueDependent() ||
      Inc->isValueDependent() || C->Start->isValueDependent() ||
      !C->Var->getType()->isIntegerType() || writesTo(For->getBody(), C->Var))
    return LaneSplit();
  const VarDecl *V = C->Var;
  auto IsV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  // The next value of the counter in thread T, with the counter fixed.
  auto Next = [&](int64_t X, const ThreadId &T) -> std::optional<int64_t> {
    const Expr *I = Inc->IgnoreParens();
    if (const auto *UO = dyn_cast<UnaryOperator>(I);
        UO && IsV(UO->getSubExpr()))
      return UO->isIncrementOp() ? X + 1 : X - 1;
    const auto *CA = dyn_cast<CompoundAssignOperator>(I);
    if (!CA || !IsV(CA->getLHS()))
      return std::nullopt;
    std::optional<int64_t> K = eval(CA->getRHS(), T);
    return K ? stepCounter(CA->getOpcode(), X, *K) : std::nullopt;
  };
  auto Trips = [&](const ThreadId &T) -> std::optional<int64_t> {
    std::optional<int64_t> X = eval(C->Start, T);
    int64_t N = 0;
    while (X && N <= MaxTrips) {
      fix(V, *X);
      std::optional<int64_t> Holds = eval(Cond, T);
      if (!Holds)
        X = std::nullopt;
      else if (!*Holds)
        break;
      else {
        ++N;
        X = Next(*X, T);
      }
    }
    Fixed.erase(V);
    if (!X || N > MaxTrips)
      return std::nullopt;
    return N;
  };
  LaneSplit S;
  for (unsigned W = 0, Warps = warpCount(); W < Warps; ++W) {
    uint64_t Lanes = 0;
    llvm::SmallVector<int64_t, 64> Count(WarpSize, -1);
    int64_t Max = -1;
    llvm::SmallDenseSet<int64_t, 4> Values;
    for (unsigned L = 0; L < WarpSize; ++L) {
      std::optional<ThreadId> T = thread(W, L);
      if (!T)
        continue;
      std::optional<int64_t> N = Trips(*T);
      if (!N)
        return LaneSplit();
      Lanes |= uint64_t(1) << L;
      Count[L] = *N;
      Max = std::max(Max, *N);
      Values.insert(*N);
    }
    if (!Lanes)
      break;
    ++S.WarpsChecked;
    if (Values.size() > 1 && S.WarpsSplit++ == 0) {
      S.FirstWarp = W;
      S.Lanes = Lanes;
      S.Paths = Values.size();
      for (unsigned L = 0; L < WarpSize; ++L)
        if (Count[L] == Max)
          S.TrueLanes |= uint64_t(1) << L;
    }
  }
  S.Known = S.WarpsChecked > 0;
  return S;
}

std::optional<uint64_t>
LaneEvaluator::activeLanes(const Stmt *S, FunctionDependence &FD, unsigned W) {
  uint64_t Active = 0;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (thread(W, L))
      Active |= uint64_t(1) << L;
  auto Filter = [&](const Expr *Cond, bool Want) -> bool {
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!(Active >> L & 1))
        continue;
      auto V = eval(Cond, *thread(W, L));
      if (!V)
        return false;
      if (bool(*V) != Want)
        Active &= ~(uint64_t(1) << L);
    }
    return true;
  };
  const Stmt *Child = S;
  for (const Stmt *P = FD.parent(S); P; Child = P, P = FD.parent(P)) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return std::nullopt;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen() && !Filter(If->getCond(), true))
        return std::nullopt;
      if (Child == If->getElse() && !Filter(If->getCond(), false))
        return std::nullopt;
    } else if (isa<SwitchStmt, AbstractConditionalOperator>(P)) {
      return std::nullopt;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS() &&
          !Filter(BO->getLHS(), BO->getOpcode() == BO_LAnd))
        return std::nullopt;
    }
  }
  // Returns before S: the lanes that took them are gone (a kernel's threads
  // have exited, a helper's are back in its caller).
  for (const auto &G : FD.guardSites(S))
    if (G.Kind == FunctionDependence::GuardKind::EarlyExit)
      return std::nullopt; // a helper's return, a goto: not followed
  const SourceManager &SM = F->getASTContext().getSourceManager();
  std::function<bool(const Stmt *)> Returns = [&](const Stmt *Cur) -> bool {
    if (!Cur || isa<LambdaExpr>(Cur))
      return true;
    if (const auto *R = dyn_cast<ReturnStmt>(Cur)) {
      if (!SM.isBeforeInTranslationUnit(R->getBeginLoc(), S->getBeginLoc()))
        return true;
      // The lanes that reach the return leave.
      auto Gone = activeLanes(R, FD, W);
      if (!Gone)
        return false;
      Active &= ~*Gone;
      return true;
    }
    for (const Stmt *C : Cur->children())
      if (!Returns(C))
        return false;
    return true;
  };
  if (FD.function()->hasAttr<CUDAGlobalAttr>() &&
      !Returns(FD.function()->getBody()))
    return std::nullopt;
  return Active;
}

llvm::ArrayRef<const ReturnStmt *>
LaneEvaluator::returnsOf(const FunctionDecl *Fn) {
  auto It = Returns.find(Fn);
  if (It != Returns.end())
    return It->second;
  std::vector<const ReturnStmt *> List;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      List.push_back(R);
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Fn->getBody());
  return Returns[Fn] = std::move(List);
}

std::optional<std::vector<int64_t>>
LaneEvaluator::countedValues(const ForStmt *For) {
  constexpr size_t MaxIterations = 1024;
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *V = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  const Expr *Inc = For->getInc();
  if (!V || !V->getInit() || !V->getType()->isIntegerType() || !Cond ||
      !Cond->isComparisonOp() || !Inc || V->getInit()->isValueDependent() ||
      Cond->isValueDependent() || Inc->isValueDependent())
    return std::nullopt;
  const ASTContext &Ctx = V->getASTContext();
  auto Constant = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx) && R.Val.isInt())
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  };
  auto IsV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  };
  std::optional<int64_t> Start = Constant(V->getInit());
  // The comparison as `V Op Bound`.
  BinaryOperatorKind Op = Cond->getOpcode();
  std::optional<int64_t> Bound;
  if (IsV(Cond->getLHS())) {
    Bound = Constant(Cond->getRHS());
  } else if (IsV(Cond->getRHS())) {
    Bound = Constant(Cond->getLHS());
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Start || !Bound)
    return std::nullopt;
  // The step: ++/-- or a compound assignment by a constant.
  std::function<int64_t(int64_t)> Step;
  const Expr *I = Inc->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(I);
      UO && IsV(UO->getSubExpr())) {
    if (UO->isIncrementOp())
      Step = [](int64_t X) { return X + 1; };
    else if (UO->isDecrementOp())
      Step = [](int64_t X) { return X - 1; };
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(I);
             CA && IsV(CA->getLHS())) {
    std::optional<int64_t> C = Constant(CA->getRHS());
    if (!C)
      return std::nullopt;
    BinaryOperatorKind Op = CA->getOpcode();
    int64_t K = *C;
    if (stepCounter(Op, 0, K)) // a step the counter can take
      Step = [Op, K](int64_t X) { return *stepCounter(Op, X, K); };
  }
  if (!Step)
    return std::nullopt;
  // Written nowhere but in the increment.
  const FunctionDecl *Owner = dyn_cast<FunctionDecl>(V->getDeclContext());
  if (!Owner || !Owner->getBody())
    return std::nullopt;
  std::unique_ptr<LocalWrites> &LW = Writes[Owner];
  if (!LW)
    LW = std::make_unique<LocalWrites>(Owner->getBody());
  const SourceManager &SM = Ctx.getSourceManager();
  for (const DeclRefExpr *W : LW->writes(V))
    if (SM.isBeforeInTranslationUnit(W->getBeginLoc(), Inc->getBeginLoc()) ||
        SM.isBeforeInTranslationUnit(Inc->getEndLoc(), W->getBeginLoc()))
      return std::nullopt;
  auto Holds = [&](int64_t X) {
    switch (Op) {
    case BO_LT:
      return X < *Bound;
    case BO_LE:
      return X <= *Bound;
    case BO_GT:
      return X > *Bound;
    case BO_GE:
      return X >= *Bound;
    case BO_NE:
      return X != *Bound;
    default:
      return false;
    }
  };
  std::vector<int64_t> Values;
  for (std::optional<int64_t> X = wrapTo(*Start, V->getType(), Ctx);
       X && Holds(*X); X = wrapTo(Step(*X), V->getType(), Ctx)) {
    if (Values.size() == MaxIterations ||
        (!Values.empty() && Values.back() == *X))
      return std::nullopt; // too long, or stuck
    Values.push_back(*X);
  }
  return Values;
}

std::optional<bool> LaneEvaluator::holdsInSomeIteration(
    const Expr *Cond, bool Want, const ThreadId &T, const Bindings *B,
    llvm::ArrayRef<std::pair<const VarDecl *, std::vector<int64_t>>> Loops) {
  constexpr size_t MaxCombinations = 4096;
  size_t Combinations = 1;
  for (const auto &[V, Values] : Loops) {
    if (Values.empty())
      return false; // the loop body never runs
    Combinations *= Values.size();
    if (Combinations > MaxCombinations)
      return std::nullopt;
  }
  llvm::DenseMap<const VarDecl *, int64_t> Saved = Fixed;
  std::optional<bool> Result = false;
  for (size_t N = 0; N < Combinations && Result == false; ++N) {
    for (size_t K = 0, Rest = N; K < Loops.size(); ++K) {
      size_t I = Loops.size() - 1 - K;
      Fixed[Loops[I].first] = Loops[I].second[Rest % Loops[I].second.size()];
      Rest /= Loops[I].second.size();
    }
    std::optional<int64_t> V = evalIn(Cond, T, B, 0);
    if (!V)
      Result = std::nullopt;
    else if (bool(*V) == Want)
      Result = true;
  }
  Fixed = std::move(Saved);
  return Result;
}

uint64_t LaneEvaluator::mayReachIn(const Stmt *S, FunctionDependence &FD,
                                   uint64_t Entry,
                                   llvm::ArrayRef<Bindings> Binds, unsigned W,
                                   bool &Exact, unsigned Context) {
  uint64_t Active = Entry;
  // The counted loops around S, from the outermost, for conditions on
  // their counters (`if (tx <= m)` in `for (m = 0; m < 16; m++)`): a lane
  // may reach S if the condition lets it through in some iteration.
  std::optional<std::vector<std::pair<const VarDecl *, std::vector<int64_t>>>>
      Loops; // found at the first condition that needs them
  auto CountedLoops = [&]() -> const auto & {
    if (!Loops) {
      Loops.emplace();
      for (const Stmt *P = FD.parent(S); P; P = FD.parent(P))
        if (const auto *For = dyn_cast<ForStmt>(P))
          if (auto Values = countedValues(For))
            Loops->insert(
                Loops->begin(),
                {cast<VarDecl>(cast<DeclStmt>(For->getInit())->getSingleDecl()),
                 std::move(*Values)});
    }
    return *Loops;
  };
  // Cond in every lane of warp W, where only the thread and the call chain
  // that bound Binds decide it.
  auto Guard =
      [&](const Expr *Cond) -> const std::vector<std::optional<int64_t>> * {
    if (Context == NoContext || !Fixed.empty())
      return nullptr;
    auto [It, New] = Guards.try_emplace({Cond, W, Context});
    if (New) {
      It->second.resize(WarpSize);
      for (unsigned L = 0; L < WarpSize; ++L)
        if (std::optional<ThreadId> T = thread(W, L))
          It->second[L] =
              evalIn(Cond, *T, Binds.empty() ? nullptr : &Binds[L], 0);
    }
    return &It->second;
  };
  // Keeps the lanes where Cond is Want in some iteration of the counted
  // loops around S; a lane where it cannot be evaluated stays.
  auto Filter = [&](const Expr *Cond, bool Want) {
    const std::vector<std::optional<int64_t>> *Known = Guard(Cond);
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!(Active >> L & 1))
        continue;
      std::optional<ThreadId> T = thread(W, L);
      const Bindings *B = Binds.empty() ? nullptr : &Binds[L];
      std::optional<int64_t> V = Known ? (*Known)[L]
                                 : T   ? evalIn(Cond, *T, B, 0)
                                       : std::nullopt;
      if (!V) {
        Exact = false;
        if (T && !CountedLoops().empty() &&
            holdsInSomeIteration(Cond, Want, *T, B, *Loops) == false)
          Active &= ~(uint64_t(1) << L);
      } else if (bool(*V) != Want)
        Active &= ~(uint64_t(1) << L);
    }
  };
  const Stmt *Child = S;
  for (const Stmt *P = FD.parent(S); P; Child = P, P = FD.parent(P)) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(P)) {
      Exact = false; // its lanes may leave or skip: a superset
    } else if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child == If->getThen())
        Filter(If->getCond(), true);
      else if (Child == If->getElse())
        Filter(If->getCond(), false);
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (Child == CO->getTrueExpr())
        Filter(CO->getCond(), true);
      else if (Child == CO->getFalseExpr())
        Filter(CO->getCond(), false);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS())
        Filter(BO->getLHS(), BO->getOpcode() == BO_LAnd);
    }
  }
  // The lanes that took a return before S have left (a kernel's threads
  // have exited, a helper's are back in its caller); only a return whose
  // lanes are known exactly is subtracted.
  const SourceManager &SM = F->getASTContext().getSourceManager();
  for (const ReturnStmt *R : returnsOf(FD.function())) {
    if (!SM.isBeforeInTranslationUnit(R->getBeginLoc(), S->getBeginLoc()))
      break;
    if (!SM.isBeforeInTranslationUnit(R->getEndLoc(), S->getBeginLoc()))
      continue; // S is in this return's value
    bool ExactR = true;
    uint64_t Gone = mayReachIn(R, FD, Entry, Binds, W, ExactR, Context);
    if (ExactR)
      Active &= ~Gone;
    else
      Exact = false;
  }
  return Active;
}

uint64_t LaneEvaluator::mayReach(const Stmt *S, llvm::ArrayRef<CallLink> Chain,
                                 ThreadDependenceAnalysis &TDA, unsigned W) {
  // What the chain leaves is the same for every statement of its last
  // callee: computed once per chain and warp (with no fixed values).
  std::vector<const CallExpr *> Calls;
  for (const CallLink &Link : Chain)
    Calls.push_back(Link.Call);
  unsigned Context =
      Contexts.try_emplace(std::move(Calls), unsigned(Contexts.size()))
          .first->second;
  bool Cache = Fixed.empty();
  ChainEntry Computed;
  ChainEntry *E = &Computed;
  bool Known = false;
  if (Cache) {
    auto [It, New] = Chains.try_emplace({Context, W});
    E = &It->second;
    Known = !New;
  }
  if (!Known) {
    for (unsigned L = 0; L < WarpSize; ++L)
      if (thread(W, L))
        E->Active |= uint64_t(1) << L;
    for (const CallLink &Link : Chain) {
      if (!E->Active)
        break;
      E->Active = mayReachIn(Link.Call, TDA.forFunction(Link.Caller), E->Active,
                             E->Binds, W, E->Exact, NoContext);
      std::vector<Bindings> Next(WarpSize);
      for (unsigned L = 0; L < WarpSize; ++L) {
        std::optional<ThreadId> T = thread(W, L);
        if (!T || !(E->Active >> L & 1))
          continue;
        for (unsigned I = 0; I < Link.Callee->getNumParams(); ++I) {
          const Expr *Arg = argumentFor(Link.Call, I);
          if (!Arg)
            break;
          if (std::optional<int64_t> V =
                  evalIn(Arg, *T, E->Binds.empty() ? nullptr : &E->Binds[L], 0))
            Next[L][Link.Callee->getParamDecl(I)] = *V;
        }
      }
      E->Binds = std::move(Next);
    }
  }
  if (!E->Active)
    return 0;
  const FunctionDecl *Fn = Chain.empty() ? F : Chain.back().Callee;
  bool Exact = E->Exact;
  return mayReachIn(S, TDA.forFunction(Fn), E->Active, E->Binds, W, Exact,
                    Cache ? Context : NoContext);
}

} // namespace warplint
