#include "Analysis/WarpExchange.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/SyncPrimitives.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>

using namespace clang;

namespace warplint {

namespace {

// Budgets: statements run per warp and per kernel, iterations of one loop,
// helpers deep, expression depth (a kernel is traced until a warp runs out).
constexpr unsigned MaxStepsPerWarp = 20000;
constexpr unsigned MaxStepsPerKernel = 40000;
constexpr unsigned MaxIterations = 64;
constexpr unsigned UnknownIterations = 2;
constexpr unsigned MaxCalls = 8;
constexpr unsigned MaxExprDepth = 256;

struct Ptr {
  const ValueDecl *Root = nullptr;
  int64_t Off = 0;
};

struct LaneState {
  llvm::DenseMap<const VarDecl *, int64_t> Ints;
  llvm::DenseMap<const VarDecl *, Ptr> Ptrs;
};

bool isShared(const ValueDecl *D) { return D && D->hasAttr<CUDASharedAttr>(); }

const VarDecl *localOf(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || isShared(V) || V->hasGlobalStorage() ||
      V->getType()->isReferenceType())
    return nullptr;
  return V;
}

class Tracer {
public:
  explicit Tracer(LaneEvaluator Lanes)
      : Kernel(Lanes.function()), Ctx(Kernel->getASTContext()),
        LE(std::move(Lanes)), WS(LE.warpSize()) {}

  std::vector<WarpExchange> run() {
    // Without a launch shape, only warp 0 has the right thread indices for
    // every block whose x extent is a multiple of 32 (a 2-D block of 32 x 8
    // puts y = 1 in warp 1, the 1-D model x = 32..63).
    unsigned Warps = LE.shapeKnown() ? LE.warpCount() : 1;
    for (unsigned W = 0; W < Warps && !KernelStop; ++W) {
      Warp = W;
      Lanes.assign(WS, LaneState());
      Tid.assign(WS, ThreadId());
      uint64_t Exists = 0;
      for (unsigned L = 0; L < WS; ++L)
        if (auto T = LE.thread(W, L)) {
          Tid[L] = *T;
          Exists |= uint64_t(1) << L;
        }
      if (!Exists)
        break;
      Log.clear();
      Events.clear();
      Excluded.clear();
      Chain.clear();
      Stack.assign(1, Kernel);
      Steps = 0;
      Stop = false;
      Ret = Brk = Cnt = 0;
      exec(Kernel->getBody(), Exists);
      // A warp that ran out of its budget: the others run the same
      // statements (a tensor-core GEMM's unrolled tiles), and would spend
      // theirs the same way. What it found stands; they are not traced.
      if (OutOfSteps)
        break;
    }
    std::vector<WarpExchange> Result;
    for (WarpExchange &X : Out)
      if (X.Root)
        Result.push_back(std::move(X));
    return Result;
  }

private:
  // One run of an access (all its lanes), or a statement run.
  struct Event {
    const Expr *E;
    std::vector<const CallExpr *> Chain;
    unsigned Instance;     // the statement run it belongs to
    const Stmt *Statement; // that statement
  };
  struct Touch {
    unsigned Lane;
    bool Store;
    unsigned Ev;
    int64_t Off;
    unsigned Size;
  };

  bool step() {
    if (++Steps > MaxStepsPerWarp || ++KernelSteps > MaxStepsPerKernel) {
      Stop = OutOfSteps = true;
      KernelStop = KernelSteps > MaxStepsPerKernel;
    }
    return !Stop;
  }

  std::optional<int64_t> evalInt(const Expr *E, unsigned L) {
    if (!E->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    std::swap(LE.fixedValues(), Lanes[L].Ints);
    std::optional<int64_t> V = LE.eval(E, Tid[L]);
    std::swap(LE.fixedValues(), Lanes[L].Ints);
    return V;
  }

  std::optional<int64_t> sizeOf(QualType T) {
    if (T.isNull() || T->isIncompleteType() || T->isDependentType() ||
        !T->isConstantSizeType())
      return std::nullopt;
    return Ctx.getTypeSizeInChars(T).getQuantity();
  }

  // The pointer value of E in lane L.
  std::optional<Ptr> evalPtr(const Expr *E, unsigned L, unsigned Depth = 0) {
    if (!E || Depth > 24)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return evalPtr(EWC->getSubExpr(), L, Depth + 1);
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      const Expr *Sub = CE->getSubExpr();
      switch (CE->getCastKind()) {
      case CK_ArrayToPointerDecay:
        return evalLValue(Sub, L, Depth + 1);
      case CK_LValueToRValue:
        if (const VarDecl *V = localOf(Sub)) {
          auto It = Lanes[L].Ptrs.find(V);
          if (It != Lanes[L].Ptrs.end())
            return It->second;
          return std::nullopt;
        }
        return std::nullopt;
      case CK_UserDefinedConversion:
      case CK_NoOp:
      case CK_BitCast:
        return evalPtr(Sub, L, Depth + 1);
      default:
        return std::nullopt;
      }
    }
    if (isa<DeclRefExpr>(E)) {
      if (const VarDecl *V = localOf(E)) {
        auto It = Lanes[L].Ptrs.find(V);
        if (It != Lanes[L].Ptrs.end())
          return It->second;
      }
      return std::nullopt;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
        return std::nullopt;
      const Expr *P = BO->getLHS(), *I = BO->getRHS();
      if (!P->getType()->isPointerType())
        std::swap(P, I);
      if (!P->getType()->isPointerType() ||
          !I->getType()->isIntegralOrEnumerationType())
        return std::nullopt;
      auto Base = evalPtr(P, L, Depth + 1);
      auto Idx = evalInt(I, L);
      auto Size = sizeOf(P->getType()->getPointeeType());
      if (!Base || !Idx || !Size)
        return std::nullopt;
      Base->Off += (BO->getOpcode() == BO_Add ? 1 : -1) * *Idx * *Size;
      return Base;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        return evalLValue(UO->getSubExpr(), L, Depth + 1);
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return returnedPtr(Call, L, Depth + 1);
    return std::nullopt;
  }

  // A helper whose body is declarations and one `return p;` with p not
  // depending on the call's arguments: SharedMemory<T>'s operator T*().
  std::optional<Ptr> returnedPtr(const CallExpr *Call, unsigned L,
                                 unsigned Depth) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    const auto *Body =
        Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
    if (!Body || Body->size() == 0 || Call->getNumArgs() != 0)
      return std::nullopt;
    for (const Stmt *S : Body->body())
      if (S != Body->body_back() && !isa<DeclStmt>(S))
        return std::nullopt;
    const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
    if (!Ret || !Ret->getRetValue())
      return std::nullopt;
    return evalPtr(Ret->getRetValue(), L, Depth);
  }

  // The address of lvalue E in lane L.
  std::optional<Ptr> evalLValue(const Expr *E, unsigned L, unsigned Depth = 0) {
    if (!E || Depth > 24)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<ImplicitCastExpr>(E))
      if (CE->getCastKind() == CK_NoOp)
        return evalLValue(CE->getSubExpr(), L, Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (isShared(DRE->getDecl()))
        return Ptr{DRE->getDecl(), 0};
      return std::nullopt;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      auto Base = evalPtr(AS->getBase(), L, Depth + 1);
      if (!Base)
        return std::nullopt;
      auto Idx = evalInt(AS->getIdx(), L);
      auto Size = sizeOf(AS->getType());
      if (!Idx || !Size)
        return std::nullopt;
      // An index past a dimension of a declared array: not modelled.
      const Expr *B = AS->getBase()->IgnoreParenImpCasts();
      if (const auto *AT = Ctx.getAsConstantArrayType(B->getType()))
        if (*Idx < 0 || uint64_t(*Idx) >= AT->getZExtSize())
          return std::nullopt;
      Base->Off += *Idx * *Size;
      return Base;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_Deref)
        return evalPtr(UO->getSubExpr(), L, Depth + 1);
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD || FD->isBitField() || FD->getParent()->isInvalidDecl() ||
          FD->getParent()->isDependentType())
        return std::nullopt;
      auto Base = ME->isArrow() ? evalPtr(ME->getBase(), L, Depth + 1)
                                : evalLValue(ME->getBase(), L, Depth + 1);
      if (!Base)
        return std::nullopt;
      const ASTRecordLayout &RL = Ctx.getASTRecordLayout(FD->getParent());
      Base->Off += int64_t(RL.getFieldOffset(FD->getFieldIndex()) / 8);
      return Base;
    }
    return std::nullopt;
  }

  static bool accessLike(const Expr *E) {
    E = E->IgnoreParens();
    return isa<ArraySubscriptExpr, MemberExpr, DeclRefExpr>(E) ||
           (isa<UnaryOperator>(E) &&
            cast<UnaryOperator>(E)->getOpcode() == UO_Deref);
  }

  // Lanes of Active access lvalue E (a load or a store).
  void access(const Expr *E, bool Store, uint64_t Active) {
    E = E->IgnoreParens();
    if (!accessLike(E))
      return;
    auto Size = sizeOf(E->getType());
    if (!Size || *Size <= 0)
      return;
    unsigned Sz = unsigned(std::min<int64_t>(*Size, 16));
    unsigned Ev = Events.size();
    bool Any = false;
    // Pairs with earlier touches: the latest earlier event that pairs.
    std::optional<unsigned> Pair;
    uint64_t LaterLanes = 0;
    llvm::SmallVector<std::pair<unsigned, Ptr>, 32> Hits;
    for (unsigned L = 0; L < WS; ++L) {
      if (!(Active >> L & 1))
        continue;
      auto P = evalLValue(E, L);
      if (!P || !isShared(P->Root))
        continue;
      Any = true;
      Hits.push_back({L, *P});
    }
    if (!Any)
      return;
    Events.push_back({E, Chain, Instance, CurStmt});
    const ValueDecl *Root = Hits.front().second.Root;
    // Every read after a write, once per read in the source; a write after
    // a read only where the variable has no read after a write.
    bool Wanted =
        Store ? !Reported.count(Root) && !War.count(Root) : !ReadSites.count(E);
    if (Wanted)
      for (auto &[L, P] : Hits)
        for (const Touch &T : touches(P.Root, P.Off, Sz)) {
          if (T.Lane == L || T.Store == Store || excluded(T.Ev) ||
              !(T.Off < P.Off + Sz && P.Off < T.Off + T.Size))
            continue;
          if (!Pair || T.Ev > *Pair)
            Pair = T.Ev;
        }
    if (Pair) {
      WarpExchange X;
      uint64_t EarlierLanes = 0;
      for (auto &[L, P] : Hits)
        for (const Touch &T : touches(P.Root, P.Off, Sz))
          if (T.Ev == *Pair && T.Lane != L && T.Off < P.Off + Sz &&
              P.Off < T.Off + T.Size) {
            if (!LaterLanes) // the first pair: the witness
              X.WitnessLater = L, X.WitnessEarlier = T.Lane;
            LaterLanes |= uint64_t(1) << L;
            EarlierLanes |= uint64_t(1) << T.Lane;
          }
      const Event &Early = Events[*Pair];
      X.Later = E;
      X.Earlier = Early.E;
      X.ReadAfterWrite = !Store;
      X.LaterChain = Chain;
      X.EarlierChain = Early.Chain;
      X.SameStatement = Early.Instance == Instance;
      const SourceManager &SM = Ctx.getSourceManager();
      X.EarlierIteration =
          !X.SameStatement && (Early.Statement == CurStmt ||
                               (Early.Chain == Chain &&
                                SM.isBeforeInTranslationUnit(
                                    E->getBeginLoc(), Early.E->getBeginLoc())));
      X.Root = Root;
      X.Warp = Warp;
      X.LaterLanes = LaterLanes;
      X.EarlierLanes = EarlierLanes;
      if (Store) {
        War[Root] = Out.size();
      } else {
        Reported.insert(Root);
        ReadSites.insert(E);
        if (auto It = War.find(Root); It != War.end())
          Out[It->second].Root = nullptr; // superseded
      }
      Out.push_back(std::move(X));
    }
    for (auto &[L, P] : Hits)
      Log[{P.Root, P.Off / 16}].push_back({L, Store, Ev, P.Off, Sz});
  }

  llvm::SmallVector<Touch, 8> touches(const ValueDecl *Root, int64_t Off,
                                      unsigned Size) {
    llvm::SmallVector<Touch, 8> R;
    for (int64_t K = Off / 16 - 1; K <= (Off + Size - 1) / 16; ++K) {
      auto It = Log.find({Root, K});
      if (It != Log.end())
        R.append(It->second.begin(), It->second.end());
    }
    return R;
  }

  bool excluded(unsigned Ev) const {
    for (auto [Lo, Hi] : Excluded)
      if (Ev >= Lo && Ev < Hi)
        return true;
    return false;
  }

  void barrier() { Log.clear(); }

  // The locals written under S (assigned, incremented, address taken,
  // passed to a reference), to forget where S's run is not known.
  const llvm::SmallVector<const VarDecl *, 4> &writtenIn(const Stmt *S) {
    auto It = WrittenMemo.find(S);
    if (It != WrittenMemo.end())
      return It->second;
    llvm::SmallVector<const VarDecl *, 4> Vars;
    unsigned Depth = 0;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *X) {
      if (!X || Depth > MaxExprDepth)
        return;
      if (const auto *BO = dyn_cast<BinaryOperator>(X)) {
        if (BO->isAssignmentOp())
          if (const VarDecl *V = localOf(BO->getLHS()))
            Vars.push_back(V);
      } else if (const auto *UO = dyn_cast<UnaryOperator>(X)) {
        if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
          if (const VarDecl *V = localOf(UO->getSubExpr()))
            Vars.push_back(V);
      } else if (const auto *Call = dyn_cast<CallExpr>(X)) {
        for (const Expr *A : Call->arguments())
          if (A->isLValue())
            if (const VarDecl *V = localOf(A))
              Vars.push_back(V);
        // A lambda's body writes the captured locals.
        const auto *M = dyn_cast_or_null<CXXMethodDecl>(calledDefinition(Call));
        if (M && M->getParent()->isLambda())
          Walk(M->getBody());
      } else if (const auto *DS = dyn_cast<DeclStmt>(X)) {
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D))
            Vars.push_back(V);
      }
      ++Depth;
      for (const Stmt *C : X->children())
        Walk(C);
      --Depth;
    };
    Walk(S);
    return WrittenMemo[S] = std::move(Vars);
  }

  void forget(const Stmt *S, uint64_t Lanes_) {
    for (const VarDecl *V : writtenIn(S))
      for (unsigned L = 0; L < WS; ++L)
        if (Lanes_ >> L & 1) {
          Lanes[L].Ints.erase(V);
          Lanes[L].Ptrs.erase(V);
        }
  }

  // Gives local V its new value in the lanes of Active.
  void assign(const VarDecl *V, uint64_t Active,
              llvm::function_ref<std::optional<int64_t>(unsigned)> IntVal,
              llvm::function_ref<std::optional<Ptr>(unsigned)> PtrVal) {
    bool IsPtr = V->getType()->isPointerType();
    bool IsInt = V->getType()->isIntegralOrEnumerationType();
    // The new values from the old ones, then stored.
    llvm::SmallVector<std::optional<int64_t>, 32> NewInt(WS);
    llvm::SmallVector<std::optional<Ptr>, 32> NewPtr(WS);
    for (unsigned L = 0; L < WS; ++L) {
      if (!(Active >> L & 1))
        continue;
      if (IsInt)
        NewInt[L] = IntVal(L);
      else if (IsPtr)
        NewPtr[L] = PtrVal(L);
    }
    for (unsigned L = 0; L < WS; ++L) {
      if (!(Active >> L & 1))
        continue;
      Lanes[L].Ints.erase(V);
      Lanes[L].Ptrs.erase(V);
      if (NewInt[L])
        Lanes[L].Ints[V] = wrap(*NewInt[L], V->getType());
      if (NewPtr[L])
        Lanes[L].Ptrs[V] = *NewPtr[L];
    }
  }

  int64_t wrap(int64_t X, QualType T) {
    if (T->isBooleanType())
      return X != 0;
    unsigned Bits = Ctx.getIntWidth(T);
    if (Bits >= 64)
      return X;
    uint64_t Mask = (uint64_t(1) << Bits) - 1;
    uint64_t U = uint64_t(X) & Mask;
    if (T->isSignedIntegerOrEnumerationType() && (U >> (Bits - 1)))
      return int64_t(U | ~Mask);
    return int64_t(U);
  }

  static std::optional<int64_t> apply(BinaryOperatorKind Op, int64_t A,
                                      int64_t B) {
    switch (Op) {
    case BO_AddAssign:
      return A + B;
    case BO_SubAssign:
      return A - B;
    case BO_MulAssign:
      return A * B;
    case BO_DivAssign:
      return B ? std::optional<int64_t>(A / B) : std::nullopt;
    case BO_RemAssign:
      return B ? std::optional<int64_t>(A % B) : std::nullopt;
    case BO_ShlAssign:
      return B >= 0 && B < 63 ? std::optional<int64_t>(A << B) : std::nullopt;
    case BO_ShrAssign:
      return B >= 0 && B < 64 ? std::optional<int64_t>(A >> B) : std::nullopt;
    case BO_AndAssign:
      return A & B;
    case BO_OrAssign:
      return A | B;
    case BO_XorAssign:
      return A ^ B;
    default:
      return std::nullopt;
    }
  }

  // The effects of expression E in the lanes of Active, in the order they
  // happen: operands before the operation, loads before the store.
  void expr(const Stmt *S, uint64_t Active, unsigned Depth = 0) {
    if (!S || Stop || !Active)
      return;
    if (Depth > MaxExprDepth) {
      Stop = true;
      return;
    }
    if (isa<LambdaExpr>(S))
      return;
    const auto *E = dyn_cast<Expr>(S);
    if (E && (isa<UnaryExprOrTypeTraitExpr>(E)))
      return;
    for (const Stmt *C : S->children())
      expr(C, Active, Depth + 1);
    if (Stop || !E)
      return;
    if (const auto *CE = dyn_cast<ImplicitCastExpr>(E)) {
      if (CE->getCastKind() == CK_LValueToRValue)
        access(CE->getSubExpr(), false, Active);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (!BO->isAssignmentOp())
        return;
      const Expr *LHS = BO->getLHS();
      if (const VarDecl *V = localOf(LHS)) {
        const Expr *RHS = BO->getRHS();
        if (BO->isCompoundAssignmentOp())
          assign(
              V, Active,
              [&](unsigned L) -> std::optional<int64_t> {
                auto A = evalInt(LHS, L), B = evalInt(RHS, L);
                if (!A || !B)
                  return std::nullopt;
                return apply(BO->getOpcode(), *A, *B);
              },
              [&](unsigned L) -> std::optional<Ptr> {
                auto A = evalPtr(LHS, L);
                auto B = evalInt(RHS, L);
                auto Sz = sizeOf(V->getType()->getPointeeType());
                if (!A || !B || !Sz ||
                    (BO->getOpcode() != BO_AddAssign &&
                     BO->getOpcode() != BO_SubAssign))
                  return std::nullopt;
                A->Off += (BO->getOpcode() == BO_AddAssign ? 1 : -1) * *B * *Sz;
                return A;
              });
        else
          assign(
              V, Active, [&](unsigned L) { return evalInt(RHS, L); },
              [&](unsigned L) { return evalPtr(RHS, L); });
        return;
      }
      if (BO->isCompoundAssignmentOp())
        access(LHS, false, Active);
      access(LHS, true, Active);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (!UO->isIncrementDecrementOp())
        return;
      const Expr *Sub = UO->getSubExpr();
      if (const VarDecl *V = localOf(Sub)) {
        int64_t D = UO->isIncrementOp() ? 1 : -1;
        assign(
            V, Active,
            [&](unsigned L) -> std::optional<int64_t> {
              auto A = evalInt(Sub, L);
              return A ? std::optional<int64_t>(*A + D) : std::nullopt;
            },
            [&](unsigned L) -> std::optional<Ptr> {
              auto A = evalPtr(Sub, L);
              auto Sz = sizeOf(V->getType()->getPointeeType());
              if (!A || !Sz)
                return std::nullopt;
              A->Off += D * *Sz;
              return A;
            });
        return;
      }
      access(Sub, false, Active);
      access(Sub, true, Active);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      call(Call, Active);
  }

  // A call that is not followed may write the locals passed to it by
  // reference: their values are forgotten in every lane.
  void forgetReferenceArguments(const CallExpr *Call) {
    for (const Expr *A : Call->arguments())
      if (A->isLValue())
        if (const VarDecl *V = localOf(A))
          for (unsigned L = 0; L < WS; ++L) {
            Lanes[L].Ints.erase(V);
            Lanes[L].Ptrs.erase(V);
          }
  }

  void call(const CallExpr *Call, uint64_t Active) {
    SyncSite Sync = classifySync(Call);
    if (Sync.Kind != SyncKind::None) {
      barrier(); // a collective also converges the lanes it names
      return;
    }
    const FunctionDecl *Def = calledDefinition(Call);
    if (!Def) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Barriers.barrierIn(Callee))
        barrier();
      // Locals passed by reference may have changed.
      forgetReferenceArguments(Call);
      return;
    }
    if (Chain.size() >= MaxCalls || llvm::is_contained(Stack, Def)) {
      // Not followed: what it may write through references is forgotten.
      forgetReferenceArguments(Call);
      return;
    }
    // Bind the parameters lane by lane.
    for (unsigned I = 0; I < Def->getNumParams(); ++I) {
      const Expr *Arg = argumentFor(Call, I);
      if (!Arg)
        break;
      const ParmVarDecl *P = Def->getParamDecl(I);
      assign(
          P, Active, [&](unsigned L) { return evalInt(Arg, L); },
          [&](unsigned L) { return evalPtr(Arg, L); });
      if (P->getType()->isReferenceType() && Arg->isLValue())
        if (const VarDecl *V = localOf(Arg))
          for (unsigned L = 0; L < WS; ++L) {
            Lanes[L].Ints.erase(V);
            Lanes[L].Ptrs.erase(V);
          }
    }
    Chain.push_back(Call);
    Stack.push_back(Def);
    uint64_t SavedRet = Ret, SavedBrk = Brk, SavedCnt = Cnt;
    Ret = Brk = Cnt = 0;
    exec(Def->getBody(), Active);
    Ret = SavedRet;
    Brk = SavedBrk;
    Cnt = SavedCnt;
    Stack.pop_back();
    Chain.pop_back();
  }

  // Runs S in the lanes of Active; returns the lanes that go on after it.
  uint64_t exec(const Stmt *S, uint64_t Active) {
    if (!S || !Active || Stop)
      return Active;
    if (!step())
      return Active;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body()) {
        Active = exec(C, Active);
        if (!Active || Stop)
          break;
      }
      return Active;
    }
    // A run of its own until S is done (its sub-statements and the
    // helpers it calls take theirs).
    struct Scope {
      Tracer &T;
      unsigned I;
      const Stmt *S;
      ~Scope() {
        T.Instance = I;
        T.CurStmt = S;
      }
    } Restore{*this, Instance, CurStmt};
    Instance = ++NextInstance;
    CurStmt = S;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || isShared(V) || V->isStaticLocal())
          continue;
        const Expr *Init = V->getInit();
        if (Init)
          expr(Init, Active);
        assign(
            V, Active,
            [&](unsigned L) { return Init ? evalInt(Init, L) : std::nullopt; },
            [&](unsigned L) { return Init ? evalPtr(Init, L) : std::nullopt; });
      }
      return Active;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit())
        exec(If->getInit(), Active);
      if (If->getConditionVariableDeclStmt())
        exec(If->getConditionVariableDeclStmt(), Active);
      expr(If->getCond(), Active);
      uint64_t T = 0, F = 0, U = 0;
      for (unsigned L = 0; L < WS; ++L) {
        if (!(Active >> L & 1))
          continue;
        auto V = evalInt(If->getCond(), L);
        if (!V)
          U |= uint64_t(1) << L;
        else if (*V)
          T |= uint64_t(1) << L;
        else
          F |= uint64_t(1) << L;
      }
      if (If->isConsteval()) {
        T = 0;
        F = Active;
        U = 0;
      }
      unsigned Start = Events.size();
      uint64_t R1 = exec(If->getThen(), T | U);
      if (!U)
        return R1 | exec(If->getElse(), F);
      // Unknown somewhere: the two sides are never paired.
      Excluded.push_back({Start, unsigned(Events.size())});
      uint64_t R2 = exec(If->getElse(), F | U);
      Excluded.pop_back();
      forget(If, U);
      return R1 | R2;
    }
    if (isa<ForStmt, WhileStmt, DoStmt>(S))
      return loop(S, Active);
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      expr(R->getRetValue(), Active);
      Ret |= Active;
      return 0;
    }
    if (isa<BreakStmt>(S)) {
      Brk |= Active;
      return 0;
    }
    if (isa<ContinueStmt>(S)) {
      Cnt |= Active;
      return 0;
    }
    if (const auto *LS = dyn_cast<LabelStmt>(S))
      return exec(LS->getSubStmt(), Active);
    if (const auto *AS = dyn_cast<AttributedStmt>(S))
      return exec(AS->getSubStmt(), Active);
    if (isa<NullStmt>(S))
      return Active;
    if (isa<Expr>(S)) {
      expr(S, Active);
      return Active;
    }
    SyncSite Sync = classifySync(S);
    if (Sync.Kind != SyncKind::None) {
      barrier();
      return Active;
    }
    if (isa<AsmStmt>(S))
      return Active;
    // A switch, a range-for, a goto, a try: not followed.
    Stop = true;
    return Active;
  }

  uint64_t loop(const Stmt *S, uint64_t Active) {
    const Stmt *Init = nullptr, *Body = nullptr;
    const Expr *Cond = nullptr, *Inc = nullptr;
    bool TestFirst = true;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      Init = For->getInit();
      Cond = For->getCond();
      Inc = For->getInc();
      Body = For->getBody();
      if (For->getConditionVariableDeclStmt())
        return Stop = true, Active;
    } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
      Cond = While->getCond();
      Body = While->getBody();
      if (While->getConditionVariableDeclStmt())
        return Stop = true, Active;
    } else {
      const auto *Do = cast<DoStmt>(S);
      Cond = Do->getCond();
      Body = Do->getBody();
      TestFirst = false;
    }
    if (Init)
      exec(Init, Active);
    uint64_t SavedBrk = Brk, SavedCnt = Cnt;
    uint64_t Cur = Active, Done = 0, Unknown = 0;
    unsigned UnknownRuns = 0;
    for (unsigned It = 0; Cur && !Stop; ++It) {
      if (It > 0 || TestFirst) {
        if (Cond) {
          Instance = ++NextInstance;
          expr(Cond, Cur);
          uint64_t T = 0;
          for (unsigned L = 0; L < WS; ++L) {
            if (!(Cur >> L & 1))
              continue;
            auto V = evalInt(Cond, L);
            if (!V || Unknown >> L & 1) {
              Unknown |= uint64_t(1) << L;
              T |= uint64_t(1) << L;
            } else if (*V) {
              T |= uint64_t(1) << L;
            }
          }
          Done |= Cur & ~T;
          Cur = T;
        }
      }
      if (!Cur)
        break;
      if (Unknown && ++UnknownRuns > UnknownIterations) {
        Done |= Cur;
        break;
      }
      if (It >= MaxIterations) {
        Stop = true;
        break;
      }
      Brk = Cnt = 0;
      uint64_t After = exec(Body, Cur);
      After |= Cnt;
      Done |= Brk;
      Cur = After;
      if (Inc && Cur) {
        Instance = ++NextInstance;
        expr(Inc, Cur);
      }
    }
    Brk = SavedBrk;
    Cnt = SavedCnt;
    if (Unknown)
      forget(S, Active);
    return Done | (Stop ? Cur : 0);
  }

  const FunctionDecl *Kernel;
  ASTContext &Ctx;
  LaneEvaluator LE;
  unsigned WS;
  unsigned Warp = 0;
  std::vector<LaneState> Lanes;
  std::vector<ThreadId> Tid;
  std::map<std::pair<const ValueDecl *, int64_t>, llvm::SmallVector<Touch, 4>>
      Log;
  std::vector<Event> Events;
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4> Excluded;
  std::vector<const CallExpr *> Chain;
  llvm::SmallVector<const FunctionDecl *, 8> Stack;
  uint64_t Ret = 0, Brk = 0, Cnt = 0;
  unsigned Instance = 0, NextInstance = 0;
  unsigned Steps = 0, KernelSteps = 0;
  bool Stop = false, KernelStop = false;
  bool OutOfSteps = false; // a warp ran out of its budget
  BarrierSummary Barriers;
  llvm::DenseMap<const Stmt *, llvm::SmallVector<const VarDecl *, 4>>
      WrittenMemo;
  llvm::DenseSet<const ValueDecl *> Reported;
  llvm::DenseSet<const Expr *> ReadSites;        // the reads reported
  llvm::DenseMap<const ValueDecl *, size_t> War; // the first write-after-read
  const Stmt *CurStmt = nullptr;
  std::vector<WarpExchange> Out;
};

} // namespace

// Whether the code Kernel may run names a __shared__ variable: its body,
// the bodies of the functions it calls directly (at any depth, the
// toolkit's included) and the default arguments it passes. Every shared
// address the tracer follows starts at such a name, so a kernel that names
// none (Mandelbrot's per-pixel loops) has no exchange to find, and its
// warps are not run.
static bool namesSharedVariable(const FunctionDecl *Kernel) {
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen{Kernel};
  llvm::SmallVector<const Stmt *, 16> Work{Kernel->getBody()};
  bool Found = false;
  while (!Work.empty() && !Found)
    forEachStmt(
        Work.pop_back_val(), WalkOptions().enterLambdas(), [&](const Stmt *S) {
          if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
            Found = isShared(DRE->getDecl());
          } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
            const FunctionDecl *Callee = Call->getDirectCallee();
            const FunctionDecl *Def =
                Callee ? Callee->getDefinition() : nullptr;
            if (Def && Def->getBody() && Seen.insert(Def).second)
              Work.push_back(Def->getBody());
          } else if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(S)) {
            Work.push_back(Default->getExpr());
          } else if (const auto *Init = dyn_cast<CXXDefaultInitExpr>(S)) {
            Work.push_back(Init->getExpr());
          }
          return Found ? WalkStep::Stop : WalkStep::Continue;
        });
  return Found;
}

std::vector<WarpExchange> findWarpExchanges(LaneEvaluator Lanes) {
  const FunctionDecl *Kernel = Lanes.function();
  if (!Kernel || !Kernel->getBody() || Kernel->isDependentContext() ||
      !namesSharedVariable(Kernel))
    return {};
  return Tracer(std::move(Lanes)).run();
}

} // namespace warplint
