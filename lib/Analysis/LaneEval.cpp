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

} // namespace

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

} // namespace warplint
