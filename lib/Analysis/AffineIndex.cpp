#include "Analysis/AffineIndex.h"
#include "Analysis/Budget.h"
#include "Analysis/Launches.h"
#include "Analysis/LocalWrites.h"
#include "Support/SourceText.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>
#include <numeric>

using namespace clang;

namespace warplint {

// ------------------------------------------------------------ coefficients

static int64_t knownFactor(const Coef &C) {
  return C.Symbolic ? C.Factor : C.Value;
}

static Coef symbolic(std::string Name, int64_t Factor) {
  Coef C;
  C.Symbolic = true;
  C.Name = std::move(Name);
  C.Factor = Factor == 0 ? 1 : std::llabs(Factor);
  return C;
}

static Coef coefAdd(const Coef &A, const Coef &B) {
  if (A.isZero())
    return B;
  if (B.isZero())
    return A;
  if (!A.Symbolic && !B.Symbolic) {
    Coef C;
    C.Value = A.Value + B.Value;
    return C;
  }
  return symbolic((A.Symbolic ? A.Name : std::to_string(A.Value)) + " + " +
                      (B.Symbolic ? B.Name : std::to_string(B.Value)),
                  std::gcd(knownFactor(A), knownFactor(B)));
}

static Coef coefScale(const Coef &A, int64_t K) {
  if (K == 0 || A.isZero())
    return {};
  if (!A.Symbolic) {
    Coef C;
    C.Value = A.Value * K;
    return C;
  }
  if (K == 1)
    return A;
  return symbolic(A.Name + " * " + std::to_string(K), A.Factor * K);
}

static Coef coefTimesSymbol(const Coef &A, const std::string &Name) {
  if (A.isZero())
    return {};
  if (!A.Symbolic && A.Value == 1)
    return symbolic(Name, 1);
  return symbolic((A.Symbolic ? A.Name : std::to_string(A.Value)) + " * " +
                      Name,
                  knownFactor(A));
}

AffineForm AffineForm::constant(int64_t V) {
  AffineForm F;
  F.Known = true;
  F.Const = V;
  return F;
}
AffineForm AffineForm::walk(const VarDecl *V) {
  AffineForm F;
  F.Walk = V;
  return F;
}
AffineForm AffineForm::uniform() {
  AffineForm F;
  F.Known = true;
  F.HasUniform = true;
  return F;
}
AffineForm AffineForm::term(ThreadTerm T) {
  AffineForm F;
  F.Known = true;
  F.C[T].Value = 1;
  return F;
}

bool AffineForm::isLaneUniform() const {
  for (const Coef &Co : C)
    if (!Co.isZero())
      return false;
  return true;
}

bool AffineForm::sameThreadPart(const AffineForm &O) const {
  return Known && O.Known && C == O.C;
}

std::string AffineForm::str() const {
  if (!Known)
    return "unknown";
  static const char *Names[] = {"tid.x", "tid.y", "tid.z", "lane"};
  std::string Out;
  for (int T = 0; T < NumThreadTerms; ++T) {
    if (C[T].isZero())
      continue;
    if (!Out.empty())
      Out += " + ";
    Out +=
        (C[T].Symbolic ? "(" + C[T].Name + ")" : std::to_string(C[T].Value)) +
        "*" + Names[T];
  }
  if (Const || Out.empty()) {
    if (!Out.empty())
      Out += " + ";
    Out += std::to_string(Const);
  }
  if (HasUniform)
    Out += " + uniform";
  return Out;
}

static AffineForm add(const AffineForm &A, const AffineForm &B) {
  // A per-lane walk plus anything known is still that walk.
  if (A.Walk && B.Known)
    return A;
  if (B.Walk && A.Known)
    return B;
  if (!A.Known || !B.Known)
    return AffineForm::unknown();
  AffineForm R;
  R.Known = true;
  for (int T = 0; T < NumThreadTerms; ++T)
    R.C[T] = coefAdd(A.C[T], B.C[T]);
  R.Const = A.Const + B.Const;
  R.HasUniform = A.HasUniform || B.HasUniform;
  return R;
}

static AffineForm scale(const AffineForm &A, int64_t K) {
  if (!A.Known)
    return A;
  AffineForm R = A;
  for (Coef &Co : R.C)
    Co = coefScale(Co, K);
  R.Const = A.Const * K;
  R.HasUniform = K != 0 && A.HasUniform;
  return R;
}

// A thread-dependent form times a uniform value known only at run time.
static AffineForm scaleBySymbol(const AffineForm &A, const std::string &Name) {
  AffineForm R = A;
  for (Coef &Co : R.C)
    Co = coefTimesSymbol(Co, Name);
  R.Const = 0;
  R.HasUniform = true;
  return R;
}

static bool isExactly(const AffineForm &F, ThreadTerm T) {
  if (!F.Known || F.Const != 0 || F.HasUniform)
    return false;
  for (int I = 0; I < NumThreadTerms; ++I)
    if (F.C[I].Symbolic || F.C[I].Value != (I == T ? 1 : 0))
      return false;
  return true;
}

// ------------------------------------------------------------ helpers

std::optional<int64_t> AffineAnalysis::constant(const Expr *E) const {
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (!E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

static bool isKernel(const FunctionDecl *F) {
  return F->hasAttr<CUDAGlobalAttr>();
}

static const VarDecl *asLocalVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V || !V->isLocalVarDeclOrParm() || V->isStaticLocal() ||
      V->hasAttr<CUDASharedAttr>())
    return nullptr;
  return V;
}

const llvm::DenseMap<const VarDecl *, AffineAnalysis::Defs> &
AffineAnalysis::definitions(const FunctionDecl *F) {
  auto It = DefCache.find(F);
  if (It != DefCache.end())
    return *It->second;
  auto Owned = std::make_unique<llvm::DenseMap<const VarDecl *, Defs>>();
  auto &Map = *Owned;
  DefCache[F] = std::move(Owned);
  // Nested: inside a lambda's body, where a write to one of F's locals (a
  // [&] capture) is not a definition this analysis follows.
  bool Nested = false;
  auto Define = [&](const VarDecl *V, const Expr *Value, const Stmt *S) {
    if (!Nested)
      Map[V].List.push_back({Value, S});
    else if (V->getDeclContext() == F)
      Map[V].Escaped = true;
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S)) {
      bool Was = Nested;
      Nested = true;
      Walk(Lambda->getBody());
      Nested = Was;
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getInit() && !Nested)
            Map[V].List.push_back({V->getInit(), S});
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp()) {
        if (const VarDecl *V = asLocalVar(BO->getLHS()))
          Define(V, BO, S);
        // A member of a local written: the local is no longer its init.
        else if (const auto *ME =
                     dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (const VarDecl *V = asLocalVar(ME->getBase()))
            Map[V].Escaped = true;
      }
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() >= 1)
        if (const VarDecl *V = asLocalVar(Op->getArg(0)))
          Map[V].Escaped = true;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp()) {
        if (const VarDecl *V = asLocalVar(UO->getSubExpr()))
          Define(V, UO, S);
      } else if (UO->getOpcode() == UO_AddrOf) {
        if (const VarDecl *V = asLocalVar(UO->getSubExpr()))
          Map[V].Escaped = true;
      }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        for (unsigned I = 0;
             I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
          QualType PT = Callee->getParamDecl(I)->getType();
          if (PT->isReferenceType() && !PT->getPointeeType().isConstQualified())
            if (const VarDecl *V = asLocalVar(Call->getArg(I)))
              Map[V].Escaped = true;
        }
    } else if (const auto *Asm = dyn_cast<AsmStmt>(S)) {
      for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
        if (const VarDecl *V = asLocalVar(Asm->getOutputExpr(I)))
          Map[V].Escaped = true;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  if (F->getBody())
    Walk(F->getBody());
  return Map;
}

// ------------------------------------------------------------ integer forms

AffineForm AffineAnalysis::form(const Expr *E, const FunctionDecl *F) {
  Env En{F, nullptr, nullptr, 0};
  return formIn(E, En);
}

AffineForm AffineAnalysis::formIn(const Expr *E, const Env &En) {
  NestingScope Scope(Nesting);
  if (!E || Scope.exhausted())
    return AffineForm::unknown();
  E = E->IgnoreParens();
  if (E->isTypeDependent() || E->isValueDependent())
    return AffineForm::unknown();
  if (auto V = constant(E))
    return AffineForm::constant(*V);
  if (!E->getType()->isIntegralOrEnumerationType())
    return AffineForm::unknown();

  if (auto B = cudaBuiltinComponent(E)) {
    auto [Type, Field] = *B;
    int Index = Field == "x" ? 0 : Field == "y" ? 1 : Field == "z" ? 2 : -1;
    if (Index < 0)
      return AffineForm::unknown();
    if (Type == "__cuda_builtin_threadIdx_t")
      return AffineForm::term(ThreadTerm(TermTx + Index));
    if (Type == "__cuda_builtin_blockDim_t") {
      BlockShape S = shapeOf(En);
      if (S.pinned())
        return AffineForm::constant(Index == 0 ? S.X : Index == 1 ? S.Y : S.Z);
    }
    return AffineForm::uniform(); // blockIdx, blockDim, gridDim
  }

  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_IntegralToBoolean:
      return formIn(CE->getSubExpr(), En);
    default:
      break;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return variable(V, En);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return binary(BO, En);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus)
      return scale(formIn(UO->getSubExpr(), En), -1);
    if (UO->getOpcode() == UO_Plus)
      return formIn(UO->getSubExpr(), En);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (!isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call))
      return inlineCall(Call, En);

  // Anything the same in every thread is a uniform value, whatever it is.
  if (knowsDependence(En) && isWarpUniform(dependenceOf(En).dependence(E)))
    return AffineForm::uniform();
  return AffineForm::unknown();
}

// A known integer that divides the value of a uniform expression: the
// constant factors of a product or shift (2 * s, s << 2), else 1.
static int64_t uniformFactor(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->getType()->isIntegralOrEnumerationType() &&
      E->EvaluateAsInt(R, Ctx))
    return std::max<int64_t>(1, std::llabs(R.Val.getInt().getExtValue()));
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Mul)
      return uniformFactor(BO->getLHS(), Ctx) *
             uniformFactor(BO->getRHS(), Ctx);
    if (BO->getOpcode() == BO_Shl && BO->getRHS()->EvaluateAsInt(R, Ctx) &&
        R.Val.getInt().getExtValue() >= 0 && R.Val.getInt().getExtValue() < 31)
      return uniformFactor(BO->getLHS(), Ctx) << R.Val.getInt().getExtValue();
  }
  return 1;
}

int64_t AffineAnalysis::uniformFactor(const Expr *E) const {
  return warplint::uniformFactor(E, Ctx);
}

AffineForm AffineAnalysis::binary(const BinaryOperator *BO, const Env &En) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Assign)
    return formIn(BO->getRHS(), En);
  if (Op == BO_Comma)
    return formIn(BO->getRHS(), En);
  AffineForm L = formIn(BO->getLHS(), En);
  AffineForm R = formIn(BO->getRHS(), En);
  // A per-lane walk moved by a known value or scaled by a uniform one is
  // still a walk (val + j, 2 * j, j << 1); anything else is not followed.
  if (L.Walk || R.Walk) {
    const AffineForm &W = L.Walk ? L : R, &O = L.Walk ? R : L;
    bool Linear = Op == BO_Add || Op == BO_Sub ||
                  (Op == BO_Mul && O.Known && O.isLaneUniform()) ||
                  (Op == BO_Shl && L.Walk && O.Known && O.isLaneUniform());
    return O.Known && Linear ? W : AffineForm::unknown();
  }
  if (!L.Known || !R.Known)
    return AffineForm::unknown();
  // The right operand when it is a compile-time constant.
  bool HasRC = R.isLaneUniform() && !R.HasUniform;
  int64_t RC = HasRC ? R.Const : 0;
  bool BothUniform = L.isLaneUniform() && R.isLaneUniform();
  BlockShape Shape = shapeOf(En);
  // Within a warp threadIdx.x runs over 32 consecutive values when blockDim.x
  // is a multiple of 32 (or the block has at most 32 threads in x).
  bool WarpsAlongX = !Shape.pinned() || Shape.X % WarpSize == 0;
  bool SmallX = Shape.pinned() && Shape.X <= WarpSize;

  switch (Op) {
  case BO_Add:
    return add(L, R);
  case BO_Sub:
    return add(L, scale(R, -1));
  case BO_Mul: {
    if (!L.isLaneUniform() && !R.isLaneUniform())
      return AffineForm::unknown();
    const AffineForm &T = L.isLaneUniform() ? R : L;
    const AffineForm &U = L.isLaneUniform() ? L : R;
    const Expr *UE = L.isLaneUniform() ? BO->getLHS() : BO->getRHS();
    if (!U.HasUniform)
      return scale(T, U.Const);
    if (T.isLaneUniform())
      return AffineForm::uniform();
    std::string Name = sourceText(UE->IgnoreParenImpCasts(), Ctx);
    AffineForm R =
        scaleBySymbol(T, Name.empty() ? std::string("a run-time value") : Name);
    // Keep what is known of the run-time factor: 2 * s is even.
    int64_t Factor = uniformFactor(UE);
    if (Factor > 1)
      for (Coef &C : R.C)
        if (C.Symbolic)
          C.Factor *= Factor;
    return R;
  }
  case BO_Shl:
    if (HasRC && RC >= 0 && RC < 62)
      return scale(L, int64_t(1) << RC);
    return BothUniform ? AffineForm::uniform() : AffineForm::unknown();
  case BO_Div:
  case BO_Shr:
    if (HasRC &&
        ((Op == BO_Div && RC == WarpSize) ||
         (Op == BO_Shr && RC >= 0 && RC < 62 &&
          (int64_t(1) << RC) == WarpSize)) &&
        isExactly(L, TermTx)) {
      if (SmallX)
        return AffineForm::constant(0);
      if (WarpsAlongX)
        return AffineForm::uniform(); // the warp id
    }
    if (HasRC && RC == 1 && Op == BO_Div)
      return L;
    return BothUniform ? AffineForm::uniform() : AffineForm::unknown();
  case BO_Rem:
  case BO_And:
    if (HasRC && ((Op == BO_Rem && RC == WarpSize) ||
                  (Op == BO_And && RC == WarpSize - 1))) {
      if (isExactly(L, TermLane))
        return L;
      if (isExactly(L, TermTx)) {
        if (SmallX)
          return L;
        if (WarpsAlongX)
          return AffineForm::term(TermLane);
      }
    }
    return BothUniform ? AffineForm::uniform() : AffineForm::unknown();
  default:
    return BothUniform ? AffineForm::uniform() : AffineForm::unknown();
  }
}

const AffineAnalysis::Env *AffineAnalysis::ownerEnv(const VarDecl *V,
                                                   const Env &En) {
  for (const Env *E = &En; E; E = E->Outer)
    if (V->getDeclContext() == E->F)
      return E;
  return nullptr;
}

// A local or parameter of another function than F: a lambda's capture.
static bool isCapture(const VarDecl *V, const FunctionDecl *F) {
  return V->isLocalVarDeclOrParm() && !V->isStaticLocal() &&
         V->getDeclContext() != F;
}

AffineForm AffineAnalysis::variable(const VarDecl *V, const Env &En) {
  // A lambda's capture ([=] or [&]) is the enclosing function's local; in
  // the lambda's body seen on its own, its value is not known.
  if (isCapture(V, En.F)) {
    const Env *Owner = ownerEnv(V, En);
    return Owner ? variable(V, *Owner) : AffineForm::unknown();
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    if (En.Params) {
      auto It = En.Params->find(P);
      return It != En.Params->end() ? It->second : AffineForm::unknown();
    }
    const auto &D = definitions(En.F);
    if (!D.count(V))
      return isKernel(En.F) ? AffineForm::uniform() : AffineForm::unknown();
  }
  // Globals, statics and __shared__ scalars: one location, so every thread
  // reads the same value.
  if (!V->isLocalVarDeclOrParm() || V->isStaticLocal() ||
      V->hasAttr<CUDASharedAttr>())
    return AffineForm::uniform();
  if (auto B = Bound.find(V); B != Bound.end())
    return AffineForm::constant(B->second);
  AffineForm F = followVariable(V, En, &AffineAnalysis::formIn);
  if (!F.Known && !En.Params && !V->getType()->isReferenceType()) {
    // A per-lane walk, directly or through a local that keeps its value.
    if (AffineForm W = laneWalk(V, En); W.Walk)
      return W;
    if (keepsInitialValue(V) && !InProgress.count(V)) {
      InProgress.insert(V);
      AffineForm I = formIn(V->getInit(), En);
      InProgress.erase(V);
      if (I.Walk)
        return I;
    }
  }
  // A local the analysis cannot follow (s *= 2) may still be the same in
  // every lane of a warp: then it is an opaque uniform value.
  if (!F.Known && knowsDependence(En) && !V->getType()->isReferenceType()) {
    const auto &AllDefs = definitions(En.F);
    auto It = AllDefs.find(V);
    bool Escaped = It != AllDefs.end() && It->second.Escaped;
    if (!Escaped && !InProgress.count(V)) {
      InProgress.insert(V);
      bool Uniform = true;
      FunctionDependence &FD = dependenceOf(En);
      for (auto &[Value, Site] : AllDefs.lookup(V).List) {
        const auto *BO = dyn_cast<BinaryOperator>(Value);
        const Expr *RHS = BO && BO->isAssignmentOp() ? BO->getRHS() : Value;
        if (!isWarpUniform(FD.dependence(RHS)) ||
            !isWarpUniform(FD.definitionGuard(V, Site).D))
          Uniform = false;
      }
      InProgress.erase(V);
      if (Uniform)
        return AffineForm::uniform();
    }
  }
  return F;
}

void AffineAnalysis::bindArguments(
    const CallExpr *Call, const FunctionDecl *Def, const Env &En,
    llvm::DenseMap<const ParmVarDecl *, AffineForm> &Params,
    llvm::DenseMap<const ParmVarDecl *, Address> &PtrParams) {
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const Expr *Arg = argumentFor(Call, I);
    if (!Arg)
      break;
    const ParmVarDecl *P = Def->getParamDecl(I);
    if (P->getType()->isPointerType())
      PtrParams[P] = pointerIn(Arg, En);
    else
      Params[P] = formIn(Arg, En);
  }
}

AffineForm AffineAnalysis::inlineCall(const CallExpr *Call, const Env &En) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  auto Fallback = [&] {
    if (knowsDependence(En) &&
        isWarpUniform(dependenceOf(En).dependence(Call)))
      return AffineForm::uniform();
    return AffineForm::unknown();
  };
  if (!Def || !Def->getBody() || En.Depth >= 4)
    return Fallback();
  // A helper whose body ends in its only return.
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body || Body->body_empty())
    return Fallback();
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  if (!Ret || !Ret->getRetValue())
    return Fallback();
  for (const Stmt *S : Body->body())
    if (S != Ret && !isa<DeclStmt>(S))
      return Fallback();
  llvm::DenseMap<const ParmVarDecl *, AffineForm> Params;
  llvm::DenseMap<const ParmVarDecl *, Address> PtrParams;
  bindArguments(Call, Def, En, Params, PtrParams);
  Env Inner{Def, &Params, &PtrParams, En.Depth + 1, &En, nullptr, En.Kernel};
  AffineForm R = formIn(Ret->getRetValue(), Inner);
  return R.Known ? R : Fallback();
}

// ------------------------------------------------------------ addresses

Address AffineAnalysis::pointer(const Expr *E, const FunctionDecl *F) {
  return pointerIn(E, Env{F, nullptr, nullptr, 0});
}
Address AffineAnalysis::lvalue(const Expr *E, const FunctionDecl *F) {
  return lvalueIn(E, Env{F, nullptr, nullptr, 0});
}

static Address offsetBy(Address A, const AffineForm &Bytes) {
  if (!A.Known)
    return A;
  A.Offset = add(A.Offset, Bytes);
  A.Known = A.Offset.Known;
  return A;
}

static Address rootAt(const ValueDecl *Root, MemorySpace Space) {
  Address A;
  A.Root = Root;
  A.Space = Space;
  A.Offset = AffineForm::constant(0);
  A.Known = true;
  return A;
}

static std::optional<int64_t> sizeOf(QualType T, const ASTContext &Ctx) {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

Address AffineAnalysis::pointerIn(const Expr *E, const Env &En) {
  NestingScope Scope(Nesting);
  if (Scope.exhausted())
    return {};
  E = E->IgnoreParens();
  if (E->isTypeDependent() || E->isValueDependent())
    return {};
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    switch (CE->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return lvalueIn(CE->getSubExpr(), En);
    case CK_BitCast:
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_AddressSpaceConversion:
      return pointerIn(CE->getSubExpr(), En);
    default:
      return {};
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->getType()->isPointerType())
      return {};
    if (isCapture(V, En.F)) {
      const Env *Owner = ownerEnv(V, En);
      return Owner ? pointerIn(E, *Owner) : Address();
    }
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      if (En.PtrParams) {
        auto It = En.PtrParams->find(P);
        return It != En.PtrParams->end() ? It->second : Address();
      }
      if (!definitions(En.F).count(V))
        return isKernel(En.F) ? rootAt(V, MemorySpace::Global) : Address();
    }
    if (V->isLocalVarDeclOrParm() && !V->isStaticLocal())
      return pointerVariable(V, En);
    if (V->hasGlobalStorage() && V->hasAttr<CUDADeviceAttr>() &&
        !V->hasAttr<CUDAConstantAttr>())
      return rootAt(V, MemorySpace::Global);
    return {};
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return {};
    const Expr *Ptr = BO->getLHS(), *Int = BO->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Int);
    if (!Ptr->getType()->isPointerType() || Int->getType()->isPointerType())
      return {};
    auto Size = sizeOf(Ptr->getType()->getPointeeType(), Ctx);
    if (!Size)
      return {};
    AffineForm I = formIn(Int, En);
    if (BO->getOpcode() == BO_Sub)
      I = scale(I, -1);
    return offsetBy(pointerIn(Ptr, En), scale(I, *Size));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      return lvalueIn(UO->getSubExpr(), En);
  // A pointer member of a struct the kernel takes by value (the usual
  // "struct of device arrays" parameter): global memory, one root per field.
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (!ME->isArrow())
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
            P && !En.Params && isKernel(En.F) && !definitions(En.F).count(P))
          if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
            return rootAt(FD, MemorySpace::Global);
  return {};
}

Address AffineAnalysis::pointerVariable(const VarDecl *V, const Env &En) {
  return followVariable(V, En, &AffineAnalysis::pointerIn);
}

// What followVariable needs of integer forms and of addresses.
static bool samePart(const AffineForm &A, const AffineForm &B) {
  return A.sameThreadPart(B);
}
static bool samePart(const Address &A, const Address &B) {
  return A.Root == B.Root && A.Space == B.Space &&
         A.Offset.sameThreadPart(B.Offset);
}
static AffineForm &offsetOf(AffineForm &F) { return F; }
static AffineForm &offsetOf(Address &A) { return A.Offset; }

std::optional<bool> AffineAnalysis::isUniformStep(const VarDecl *V,
                                                 const Expr *Value,
                                                 const Env &En) {
  if (const auto *UO = dyn_cast<UnaryOperator>(Value))
    return UO->isIncrementDecrementOp() ? std::optional<bool>(true)
                                        : std::nullopt;
  const auto *BO = dyn_cast<BinaryOperator>(Value);
  if (!BO || !BO->isAssignmentOp())
    return std::nullopt;
  const Expr *Other = nullptr;
  if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) {
    Other = BO->getRHS();
  } else if (BO->getOpcode() == BO_Assign) {
    const auto *Sum =
        dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
    if (Sum && (Sum->getOpcode() == BO_Add || Sum->getOpcode() == BO_Sub)) {
      if (asLocalVar(Sum->getLHS()) == V)
        Other = Sum->getRHS();
      else if (Sum->getOpcode() == BO_Add && asLocalVar(Sum->getRHS()) == V)
        Other = Sum->getLHS();
    }
    if (!Other)
      return std::nullopt;
  } else {
    return false; // *=, <<=, ...
  }
  AffineForm O = formIn(Other, En);
  return O.Known && O.isLaneUniform();
}

Dependence AffineAnalysis::definitionDependence(const VarDecl *V,
                                                const Stmt *Site,
                                                bool UniformStep,
                                                FunctionDependence &FD) {
  Dependence Guard = FD.definitionGuard(V, Site).D;
  // A uniform step of a loop's induction variable (its increment, or a
  // statement at the top of its body) is taken the same number of times by
  // every lane still in the loop: only the branches around the loop count.
  if (isWarpUniform(Guard) || !UniformStep)
    return Guard;
  const Stmt *P = FD.parent(Site);
  const Stmt *Loop = nullptr;
  if (const auto *For = dyn_cast_or_null<ForStmt>(P);
      For && For->getInc() == Site)
    Loop = For;
  else if (isa_and_nonnull<CompoundStmt>(P) && FD.parent(P) &&
           isa<ForStmt, WhileStmt, DoStmt>(FD.parent(P)))
    Loop = FD.parent(P);
  return Loop ? FD.definitionGuard(V, Loop).D : Guard;
}

// Joins a local's definitions (integer or pointer): they must agree on the
// thread part. A uniform step (v += u, v -= u, v = v + u, ++v) keeps it and
// makes the rest a uniform unknown. A definition made under a branch that
// splits a warp, inside the variable's scope, makes it Unknown: lanes may
// hold different versions.
template <typename T>
T AffineAnalysis::followVariable(const VarDecl *V, const Env &En,
                                 T (AffineAnalysis::*Eval)(const Expr *,
                                                           const Env &)) {
  const auto &AllDefs = definitions(En.F);
  auto It = AllDefs.find(V);
  if (It == AllDefs.end() || It->second.Escaped)
    return T();
  if (!InProgress.insert(V).second)
    return T(); // defined in terms of itself other than by a step
  FunctionDependence &FD = dependenceOf(En);

  std::optional<T> First;
  bool Varies = It->second.List.size() > 1;
  bool Failed = false;
  for (auto &[Value, Site] : It->second.List) {
    std::optional<bool> Step = isUniformStep(V, Value, En);
    Dependence Guard =
        definitionDependence(V, Site, Step && *Step, FD);
    if (!isWarpUniform(Guard) || (Step && !*Step)) {
      Failed = true;
      break;
    }
    if (Step) {
      Varies = true;
      continue;
    }
    const auto *Assign = dyn_cast<BinaryOperator>(Value);
    T F = (this->*Eval)(
        Assign && Assign->isAssignmentOp() ? Assign->getRHS() : Value, En);
    if (!F.Known || (First && !samePart(*First, F))) {
      Failed = true;
      break;
    }
    if (!First)
      First = F;
  }
  InProgress.erase(V);
  if (Failed || !First)
    return T();
  T Result = *First;
  if (Varies) {
    offsetOf(Result).Const = 0;
    offsetOf(Result).HasUniform = true;
  }
  return Result;
}

Address AffineAnalysis::lvalueIn(const Expr *E, const Env &En) {
  NestingScope Scope(Nesting);
  if (Scope.exhausted())
    return {};
  E = E->IgnoreParens();
  if (E->isTypeDependent() || E->isValueDependent())
    return {};
  if (const auto *CE = dyn_cast<ImplicitCastExpr>(E))
    if (CE->getCastKind() == CK_NoOp)
      return lvalueIn(CE->getSubExpr(), En);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    auto Size = sizeOf(AS->getType(), Ctx);
    if (!Size)
      return {};
    AffineForm I = formIn(AS->getIdx(), En);
    return offsetBy(pointerIn(AS->getBase(), En), scale(I, *Size));
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->isBitField() || FD->getParent()->isInvalidDecl())
      return {};
    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(FD->getParent());
    int64_t Offset =
        Ctx.toCharUnitsFromBits(Layout.getFieldOffset(FD->getFieldIndex()))
            .getQuantity();
    Address Base = ME->isArrow() ? pointerIn(ME->getBase(), En)
                                 : lvalueIn(ME->getBase(), En);
    return offsetBy(Base, AffineForm::constant(Offset));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return pointerIn(UO->getSubExpr(), En);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return {};
    if (V->hasAttr<CUDASharedAttr>())
      return rootAt(V, MemorySpace::Shared);
    if (V->hasGlobalStorage() && V->hasAttr<CUDADeviceAttr>() &&
        !V->hasAttr<CUDAConstantAttr>() && !V->isLocalVarDeclOrParm())
      return rootAt(V, MemorySpace::Global);
    if (V->getType()->isReferenceType())
      if (const Expr *Init = V->getInit())
        if (definitions(En.F).lookup(V).List.size() == 1)
          return lvalueIn(Init, En);
  }
  return {};
}

// ------------------------------------------------------------ accesses

static bool isAccessExpr(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  return isa<ArraySubscriptExpr, MemberExpr>(E);
}

std::vector<MemoryAccess> AffineAnalysis::accesses(const FunctionDecl *F) {
  return accessesIn(F, Env{F, nullptr, nullptr, 0});
}

std::vector<MemoryAccess>
AffineAnalysis::accessesInCall(const CallExpr *Call, const FunctionDecl *Caller) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->getBody())
    return {};
  llvm::DenseMap<const ParmVarDecl *, AffineForm> Params;
  llvm::DenseMap<const ParmVarDecl *, Address> PtrParams;
  bindArguments(Call, Def, Env{Caller, nullptr, nullptr, 0}, Params,
                PtrParams);
  return accessesIn(Def, Env{Def, &Params, &PtrParams, 1});
}

const Expr *argumentFor(const CallExpr *Call, unsigned I) {
  unsigned Shift = 0;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        M && M->isInstance())
      Shift = 1;
  return I + Shift < Call->getNumArgs() ? Call->getArg(I + Shift) : nullptr;
}

const FunctionDecl *calledDefinition(const CallExpr *Call) {
  // A launch from device code (dynamic parallelism) starts a grid of its
  // own: its arguments are the child's uniform parameters, not a call's.
  if (isa<CUDAKernelCallExpr>(Call))
    return nullptr;
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->getBody() || Def->isDependentContext())
    return nullptr;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return nullptr; // the toolkit's own headers: not the user's accesses
  return Def;
}

WarpPattern restrictLanes(const WarpPattern &P, uint64_t Mask) {
  WarpPattern R = P;
  R.Offsets.clear();
  R.Group.clear();
  for (size_t L = 0; L < P.Offsets.size() && L < 64; ++L)
    if (Mask >> L & 1) {
      R.Offsets.push_back(P.Offsets[L]);
      R.Group.push_back(P.Group[L]);
    }
  R.Regular = R.Offsets.size() > 1;
  for (size_t I = 1; I < R.Offsets.size(); ++I)
    if (R.Offsets[I] - R.Offsets[I - 1] != R.Offsets[1] - R.Offsets[0])
      R.Regular = false;
  R.LaneStride = R.Regular ? R.Offsets[1] - R.Offsets[0] : 0;
  return R;
}

static bool threadDependent(const AffineForm &F) {
  return F.Known && !F.isLaneUniform();
}

std::string AffineAnalysis::contextKey(
    const FunctionDecl *Def, const FunctionDecl *Kernel,
    const llvm::DenseMap<const ParmVarDecl *, AffineForm> &Params,
    const llvm::DenseMap<const ParmVarDecl *, Address> &PtrParams) const {
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  BlockShape S = blockShape(Kernel);
  OS << S.X << "x" << S.Y << "x" << S.Z;
  for (const ParmVarDecl *P : Def->parameters()) {
    OS << "|";
    if (auto It = Params.find(P); It != Params.end())
      OS << It->second.str();
    else if (auto It = PtrParams.find(P); It != PtrParams.end() &&
                                          It->second.Known)
      OS << It->second.Root << "/" << int(It->second.Space) << "/"
         << It->second.Offset.str();
    else
      OS << "?";
  }
  return Key;
}

const std::vector<ReachedAccess> &
AffineAnalysis::reachedAccesses(const FunctionDecl *Kernel) {
  auto It = Reached.find(Kernel);
  if (It != Reached.end())
    return It->second;
  std::vector<ReachedAccess> Out;
  if (Kernel->getBody()) {
    Env Top{Kernel, nullptr, nullptr, 0, nullptr, nullptr, Kernel};
    llvm::SmallVector<const FunctionDecl *, 8> Stack{Kernel};
    reachThroughCalls(Top, Out, Stack);
  }
  return Reached[Kernel] = std::move(Out);
}

const std::vector<ReachedAccess> &
AffineAnalysis::reachedIn(const FunctionDecl *F) {
  if (!ReachedByOwner) {
    using namespace clang::ast_matchers;
    ReachedByOwner.emplace();
    for (const auto &M :
         match(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal))
                   .bind("k"),
               Ctx)) {
      const auto *K = M.getNodeAs<FunctionDecl>("k");
      if (K->isDependentContext() || !K->getBody())
        continue;
      for (const ReachedAccess &R : reachedAccesses(K))
        (*ReachedByOwner)[R.Chain.back().Callee].push_back(R);
    }
  }
  static const std::vector<ReachedAccess> None;
  auto It = ReachedByOwner->find(F);
  return It != ReachedByOwner->end() ? It->second : None;
}

void AffineAnalysis::reachThroughCalls(
    const Env &En, std::vector<ReachedAccess> &Out,
    llvm::SmallVectorImpl<const FunctionDecl *> &Stack) {
  std::vector<const CallExpr *> Calls;
  std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S)) // a lambda runs where it is called
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Calls.push_back(Call);
    for (const Stmt *C : S->children())
      Find(C);
  };
  Find(En.F->getBody());
  for (const CallExpr *Call : Calls) {
    const FunctionDecl *Def = calledDefinition(Call);
    if (!Def || Stack.size() > MaxCallDepth || llvm::is_contained(Stack, Def))
      continue; // recursion: the first repeat ends the chain
    llvm::DenseMap<const ParmVarDecl *, AffineForm> Params;
    llvm::DenseMap<const ParmVarDecl *, Address> PtrParams;
    bindArguments(Call, Def, En, Params, PtrParams);
    CallLink Link{Call, En.F, Def, {}};
    std::vector<Dependence> ArgDeps;
    for (unsigned I = 0; I < Def->getNumParams(); ++I) {
      const ParmVarDecl *P = Def->getParamDecl(I);
      Dependence D = Dependence::Unknown;
      bool Shown = false;
      if (auto F = Params.find(P); F != Params.end() && F->second.Known) {
        D = F->second.isLaneUniform() ? Dependence::WarpUniform
                                      : Dependence::ThreadDependent;
        Shown = threadDependent(F->second);
      } else if (auto A = PtrParams.find(P);
                 A != PtrParams.end() && A->second.Known) {
        D = A->second.Offset.isLaneUniform() ? Dependence::WarpUniform
                                             : Dependence::ThreadDependent;
        Shown = A->second.Space != MemorySpace::Other; // which array
      }
      ArgDeps.push_back(D);
      if (Shown)
        Link.Shown.push_back({P, argumentFor(Call, I)});
    }
    // A lambda's captures, or a lambda passed in, tie the summary to this
    // caller's environment: not shared between calls.
    const auto *Method = dyn_cast<CXXMethodDecl>(Def);
    bool Shareable =
        !(Method && Method->getParent()->isLambda()) &&
        llvm::none_of(Def->parameters(), [](const ParmVarDecl *P) {
          const auto *RD = P->getType()->getAsCXXRecordDecl();
          return RD && RD->isLambda();
        });
    std::vector<ReachedAccess> Fresh;
    std::vector<ReachedAccess> *Summary = &Fresh;
    std::pair<const FunctionDecl *, std::string> Key;
    bool Compute = true;
    if (Shareable) {
      Key = {Def, contextKey(Def, En.Kernel, Params, PtrParams)};
      if (auto S = Summaries.find(Key); S != Summaries.end()) {
        Summary = &S->second;
        Compute = false;
      } else if (SummaryCount[Def] >= MaxContextsPerFunction) {
        continue; // the budget of distinct patterns is spent: unknown
      }
    }
    if (Compute) {
      FunctionDependence &CFD = TDA.forContext(Def, ArgDeps);
      Env Inner{Def, &Params, &PtrParams, 0, &En, &CFD, En.Kernel};
      for (MemoryAccess &A : accessesIn(Def, Inner))
        Fresh.push_back({std::move(A), {}});
      Stack.push_back(Def);
      reachThroughCalls(Inner, Fresh, Stack);
      Stack.pop_back();
      if (Shareable) {
        ++SummaryCount[Def];
        Summary = &(Summaries[Key] = std::move(Fresh));
      }
    }
    for (const ReachedAccess &R : *Summary) {
      ReachedAccess Copy = R;
      Copy.Chain.insert(Copy.Chain.begin(), Link);
      Out.push_back(std::move(Copy));
    }
  }
}

std::vector<MemoryAccess> AffineAnalysis::accessesIn(const FunctionDecl *F,
                                                     const Env &En,
                                                     bool Walks) {
  std::vector<MemoryAccess> Out;
  llvm::DenseSet<const Expr *> Seen;
  // E is the expression shown to the user; Addr and T what it moves.
  auto Add = [&](const Expr *E, bool IsStore, Address Addr, QualType T) {
    auto Size = sizeOf(T, Ctx);
    // With Walks, only the per-lane walks; otherwise only known addresses.
    bool Walk = !Addr.Known && Addr.Offset.Walk && Addr.Root;
    if (!Size || *Size == 0 || (Walks ? !Walk : !Addr.Known) ||
        Addr.Space == MemorySpace::Other)
      return;
    MemoryAccess A;
    A.Walk = Addr.Offset.Walk;
    A.E = E;
    A.IsStore = IsStore;
    A.Addr = Addr;
    // The compiler moves a record in pieces of its alignment (a 12-byte
    // struct of floats is three 4-byte loads), vectors up to 16 bytes.
    int64_t Piece = *Size;
    if (T->isRecordType())
      Piece =
          std::min<int64_t>(Ctx.getTypeAlignInChars(T).getQuantity(), *Size);
    A.Size = unsigned(std::min<int64_t>(Piece, 16));
    // The structs this is a field of, innermost first (p[i].pos.x: the
    // position, then the particle).
    for (const Expr *Cur = E->IgnoreParens();
         const auto *ME = dyn_cast<MemberExpr>(Cur);
         Cur = ME->getBase()->IgnoreParenImpCasts()) {
      QualType BaseT = ME->isArrow()
                           ? ME->getBase()->getType()->getPointeeType()
                           : ME->getBase()->getType();
      const auto *RD = BaseT->getAsRecordDecl();
      auto BaseSize = sizeOf(BaseT, Ctx);
      if (!RD || !BaseSize)
        break;
      A.Records.push_back({RD, unsigned(*BaseSize)});
      if (ME->isArrow())
        break;
    }
    Out.push_back(A);
  };
  auto Record = [&](const Expr *E, bool IsStore, bool AlsoLoads = false) {
    E = E->IgnoreParens();
    if (!isAccessExpr(E) || !Seen.insert(E).second)
      return;
    Add(E, IsStore, lvalueIn(E, En), E->getType());
    if (!Out.empty() && Out.back().E == E)
      Out.back().AlsoLoads = AlsoLoads;
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *CE = dyn_cast<ImplicitCastExpr>(S)) {
      if (CE->getCastKind() == CK_LValueToRValue)
        Record(CE->getSubExpr(), false);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        Record(BO->getLHS(), true, BO->isCompoundAssignmentOp());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp())
        Record(UO->getSubExpr(), true, true);
    } else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S)) {
      if (Ctor->getConstructor()->isCopyOrMoveConstructor() &&
          Ctor->getNumArgs() >= 1)
        Record(Ctor->getArg(0)->IgnoreImplicit(), false);
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
        Record(Op->getArg(0), true);
        Record(Op->getArg(1)->IgnoreImplicit(), false);
      }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // __ldg(&a[i]) and the other cache-hinted loads read *arg.
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Callee->getDeclName().isIdentifier() &&
          Call->getNumArgs() == 1 &&
          llvm::is_contained(
              {"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"},
              Callee->getName()) &&
          Call->getArg(0)->getType()->isPointerType())
        Add(Call, false, pointerIn(Call->getArg(0), En),
            Call->getArg(0)->getType()->getPointeeType());
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(F->getBody());
  return Out;
}

std::vector<MemoryAccess> AffineAnalysis::laneWalks(const FunctionDecl *F,
                                                    MemorySpace Space) {
  std::vector<MemoryAccess> Out;
  for (MemoryAccess &A : accessesIn(F, Env{F, nullptr, nullptr, 0}, true))
    if (A.Addr.Space == Space)
      Out.push_back(std::move(A));
  return Out;
}

// A value each lane loads for itself: a load (a[i], *p, p->f, __ldg(p))
// through a thread-dependent address.
static bool isPerLaneLoad(const Expr *E, FunctionDependence &FD) {
  const Expr *Plain = E->IgnoreParenImpCasts();
  bool Load = isAccessExpr(Plain);
  if (const auto *Call = dyn_cast<CallExpr>(Plain))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      Load = Callee->getDeclName().isIdentifier() &&
             Callee->getName().starts_with("__ld");
  return Load && !isWarpUniform(FD.dependence(E));
}

AffineForm AffineAnalysis::laneWalk(const VarDecl *V, const Env &En) {
  if (En.Params || !V->getType()->isIntegralOrEnumerationType())
    return AffineForm::unknown();
  const auto &AllDefs = definitions(En.F);
  auto It = AllDefs.find(V);
  if (It == AllDefs.end() || It->second.Escaped ||
      !InProgress.insert(V).second)
    return AffineForm::unknown();
  FunctionDependence &FD = dependenceOf(En);
  unsigned Starts = 0, Steps = 0;
  bool Ok = true;
  const Expr *WalkStart = nullptr;
  for (auto &[Value, Site] : It->second.List) {
    std::optional<bool> Step = isUniformStep(V, Value, En);
    if (Step) {
      Ok &= *Step &&
            isWarpUniform(definitionDependence(V, Site, /*UniformStep=*/true, FD));
      ++Steps;
      continue;
    }
    const auto *Assign = dyn_cast<BinaryOperator>(Value);
    const Expr *Start =
        Assign && Assign->isAssignmentOp() ? Assign->getRHS() : Value;
    Ok &= isPerLaneLoad(Start, FD) &&
          isWarpUniform(FD.definitionGuard(V, Site).D);
    ++Starts;
    WalkStart = Start;
  }
  InProgress.erase(V);
  if (!Ok || Starts != 1 || Steps == 0)
    return AffineForm::unknown();
  WalkStarts[V] = WalkStart;
  return AffineForm::walk(V);
}

// ------------------------------------------------------------ loop values

// The constant factor of a step that multiplies V: v *= k, v <<= s,
// v = v * k, v = k * v, v = v << s.
static std::optional<int64_t> geometricFactor(const VarDecl *V,
                                              const Expr *Value,
                                              const ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(Value);
  if (!BO || !BO->isAssignmentOp())
    return std::nullopt;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *K = BO->getRHS();
  if (Op == BO_Assign) {
    const auto *R = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
    if (!R)
      return std::nullopt;
    Op = R->getOpcode() == BO_Mul ? BO_MulAssign
         : R->getOpcode() == BO_Shl ? BO_ShlAssign
                                    : BO_Assign;
    if (asLocalVar(R->getLHS()) == V)
      K = R->getRHS();
    else if (Op == BO_MulAssign && asLocalVar(R->getRHS()) == V)
      K = R->getLHS();
    else
      return std::nullopt;
  }
  Expr::EvalResult Res;
  if (K->isValueDependent() || !K->getType()->isIntegralOrEnumerationType() ||
      !K->EvaluateAsInt(Res, Ctx))
    return std::nullopt;
  int64_t N = Res.Val.getInt().getExtValue();
  if (Op == BO_MulAssign && N >= 2 && N <= 1024)
    return N;
  if (Op == BO_ShlAssign && N >= 1 && N <= 10)
    return int64_t(1) << N;
  return std::nullopt;
}

static bool within(const Stmt *S, const Stmt *Ancestor, FunctionDependence &FD) {
  for (; S; S = FD.parent(S))
    if (S == Ancestor)
      return true;
  return false;
}

std::vector<LoopValues> AffineAnalysis::loopValues(const Stmt *At,
                                                   const FunctionDecl *F) {
  std::vector<LoopValues> Out;
  FunctionDependence &FD = TDA.forFunction(F);
  const SourceManager &SM = Ctx.getSourceManager();
  const auto &AllDefs = definitions(F);
  // The loops around At, innermost first: the body's part of each.
  for (const Stmt *Child = At, *L = FD.parent(At); L;
       Child = L, L = FD.parent(L)) {
    const Stmt *Body = nullptr;
    const Expr *Cond = nullptr;
    const Stmt *Inc = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(L)) {
      Body = For->getBody(), Cond = For->getCond(), Inc = For->getInc();
    } else if (const auto *While = dyn_cast<WhileStmt>(L)) {
      Body = While->getBody(), Cond = While->getCond();
    } else if (const auto *Do = dyn_cast<DoStmt>(L)) {
      Body = Do->getBody(), Cond = Do->getCond();
    }
    if (!Body || Child != Body)
      continue;
    std::vector<LoopValues> Here;
    for (const auto &[V, D] : AllDefs) {
      if (D.Escaped || isa<ParmVarDecl>(V) ||
          !V->getType()->isIntegralOrEnumerationType())
        continue;
      std::optional<int64_t> Start, Factor;
      bool Ok = true, StepBeforeAt = false;
      for (auto &[Value, Site] : D.List) {
        bool InLoop = within(Site, Body, FD) || (Inc && within(Site, Inc, FD));
        if (std::optional<int64_t> K = geometricFactor(V, Value, Ctx);
            K && InLoop && (!Factor || *Factor == *K) &&
            isWarpUniform(definitionDependence(V, Site, true, FD))) {
          Factor = K;
          StepBeforeAt |= within(Site, Body, FD) &&
                          SM.isBeforeInTranslationUnit(Site->getEndLoc(),
                                                       At->getBeginLoc());
          continue;
        }
        // The start: an initialiser or plain assignment before the loop.
        const auto *Assign = dyn_cast<BinaryOperator>(Value);
        const Expr *StartE = isa<DeclStmt>(Site) ? Value
                             : Assign && Assign->getOpcode() == BO_Assign
                                 ? Assign->getRHS()
                                 : nullptr;
        std::optional<int64_t> C =
            StartE ? constant(StartE) : std::optional<int64_t>();
        if (!Start && !InLoop && C && *C > 0 &&
            isWarpUniform(FD.definitionGuard(V, Site).D))
          Start = C;
        else
          Ok = false;
      }
      if (!Ok || !Start || !Factor)
        continue;
      LoopValues LV;
      LV.Var = V;
      // The loop's test of V against a bound: v < b, v <= b, b > v, b >= v.
      std::optional<int64_t> Limit;
      bool Inclusive = false;
      if (const auto *C = dyn_cast_or_null<BinaryOperator>(
              Cond ? Cond->IgnoreParenImpCasts() : nullptr)) {
        const Expr *Other = nullptr;
        if (asLocalVar(C->getLHS()) == V &&
            (C->getOpcode() == BO_LT || C->getOpcode() == BO_LE))
          Other = C->getRHS(), Inclusive = C->getOpcode() == BO_LE;
        else if (asLocalVar(C->getRHS()) == V &&
                 (C->getOpcode() == BO_GT || C->getOpcode() == BO_GE))
          Other = C->getLHS(), Inclusive = C->getOpcode() == BO_GE;
        if (Other) {
          LV.Cond = C;
          AffineForm B = form(Other, F);
          if (B.Known && B.isLaneUniform() && !B.HasUniform) {
            Limit = B.Const;
            LV.Bounded = true;
          }
        }
      }
      // Without a bound: as far as 2^16, past the strides a warp of 32
      // lanes can tell apart.
      const int64_t Cap = int64_t(1) << (Limit ? 30 : 16);
      for (int64_t Cur = *Start; Cur <= Cap; Cur *= *Factor) {
        if (Limit && (Inclusive ? Cur > *Limit : Cur >= *Limit))
          break;
        LV.Values.push_back(StepBeforeAt ? Cur * *Factor : Cur);
      }
      if (!LV.Values.empty())
        Here.push_back(std::move(LV));
    }
    llvm::sort(Here, [&](const LoopValues &A, const LoopValues &B) {
      return SM.isBeforeInTranslationUnit(A.Var->getLocation(),
                                          B.Var->getLocation());
    });
    for (LoopValues &LV : Here)
      Out.push_back(std::move(LV));
  }
  return Out;
}

std::optional<std::pair<LoopValues, std::vector<WarpPattern>>>
AffineAnalysis::loopPatterns(const MemoryAccess &A, const FunctionDecl *F) {
  BlockShape Shape = blockShape(F);
  for (LoopValues &LV : loopValues(A.E, F)) {
    std::vector<WarpPattern> Patterns;
    for (int64_t Value : LV.Values) {
      Bound[LV.Var] = Value;
      const auto *Call = dyn_cast<CallExpr>(A.E);
      Address Addr = Call ? pointer(Call->getArg(0), F) : lvalue(A.E, F);
      Bound.erase(LV.Var);
      WarpPattern P = pattern(Addr.Offset, Shape);
      if (!Addr.Known || !P.Known || P.Offsets.empty() || P.SymbolicStride)
        break;
      Patterns.push_back(std::move(P));
    }
    if (Patterns.size() != LV.Values.size())
      continue;
    // Only when the lanes' spacing changes with V.
    auto Spacing = [](const WarpPattern &P) {
      std::vector<int64_t> D;
      for (int64_t O : P.Offsets)
        D.push_back(O - P.Offsets[0]);
      return D;
    };
    if (llvm::any_of(Patterns, [&](const WarpPattern &P) {
          return Spacing(P) != Spacing(Patterns[0]);
        }))
      return std::make_pair(std::move(LV), std::move(Patterns));
  }
  return std::nullopt;
}

// A positive integer written with constants: a literal, a constexpr or
// const variable, a macro, an enumerator (what the constant evaluator
// folds), or a local initialised so and never written again.
static std::optional<unsigned>
literalCount(const Expr *E, const ASTContext &Ctx,
             llvm::function_ref<bool(const VarDecl *)> KeepsInit,
             unsigned Depth) {
  if (!E || Depth > 4 || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx)) {
    const llvm::APSInt &V = R.Val.getInt();
    if (V.isStrictlyPositive() && V.getActiveBits() <= 32)
      return unsigned(V.getZExtValue());
    return std::nullopt;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (V && V->isLocalVarDecl() && V->getType()->isIntegralOrEnumerationType() &&
      KeepsInit(V))
    return literalCount(V->getInit(), Ctx, KeepsInit, Depth + 1);
  return std::nullopt;
}

// The value of a dim3 argument when it is written with constants: 256,
// dim3(16, 16), dim3(TILE, TILE), a local `dim3 block(16, 16)` (or
// `= dim3(..)`, `{..}`) or `int threads = 256` that is never written after
// its initialisation, or a const global dim3.
// With RuntimeZ, a z that is not written with constants is taken as 1 and
// *RuntimeZ set: the warps are the same whatever z is when x * y is a
// multiple of the warp size (the caller's to check).
static std::optional<BlockShape>
literalShape(const Expr *E, const ASTContext &Ctx,
             llvm::function_ref<bool(const VarDecl *)> KeepsInit,
             unsigned Depth = 0, bool *RuntimeZ = nullptr) {
  if (!E || Depth > 4 || E->isValueDependent())
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return literalShape(MT->getSubExpr(), Ctx, KeepsInit, Depth + 1,
                        RuntimeZ);
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    return literalShape(FC->getSubExpr(), Ctx, KeepsInit, Depth + 1,
                        RuntimeZ);
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
    if (Ctor->getConstructor()->isCopyOrMoveConstructor() &&
        Ctor->getNumArgs() == 1)
      return literalShape(Ctor->getArg(0), Ctx, KeepsInit, Depth + 1,
                          RuntimeZ);
    BlockShape S;
    unsigned *Dims[] = {&S.X, &S.Y, &S.Z};
    for (unsigned I = 0; I < Ctor->getNumArgs() && I < 3; ++I) {
      const Expr *Arg = Ctor->getArg(I);
      if (isa<CXXDefaultArgExpr>(Arg))
        break;
      std::optional<unsigned> V = literalCount(Arg, Ctx, KeepsInit, Depth + 1);
      if (!V && I == 2 && RuntimeZ) {
        *RuntimeZ = true;
        break;
      }
      if (!V)
        return std::nullopt;
      *Dims[I] = *V;
    }
    return S.X ? std::optional<BlockShape>(S) : std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (V && V->isLocalVarDecl() && V->getInit() && KeepsInit(V))
      return literalShape(V->getInit(), Ctx, KeepsInit, Depth + 1, RuntimeZ);
    // A const global dim3: its initialiser (an integer one is folded below).
    if (V && !V->isLocalVarDecl() && !isa<ParmVarDecl>(V) &&
        V->getType().isConstQualified() && V->getType()->isRecordType() &&
        V->getInit())
      return literalShape(V->getInit(), Ctx, KeepsInit, Depth + 1);
    if (!V || V->isLocalVarDecl() || !V->getType().isConstQualified())
      return std::nullopt;
  }
  if (std::optional<unsigned> N = literalCount(E, Ctx, KeepsInit, Depth + 1))
    return BlockShape{*N, 1, 1};
  return std::nullopt;
}

bool AffineAnalysis::keepsInitialValue(const VarDecl *V) {
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(V->getDeclContext());
  if (!Owner || !Owner->getBody())
    return false;
  std::unique_ptr<LocalWrites> &W = Writes[Owner];
  if (!W)
    W = std::make_unique<LocalWrites>(Owner->getBody());
  return W->keepsInitialValue(V);
}

std::optional<BlockShape> AffineAnalysis::literalShapeOf(const Expr *E,
                                                         bool *RuntimeZ) {
  return literalShape(
      E, Ctx, [&](const VarDecl *V) { return keepsInitialValue(V); }, 0,
      RuntimeZ);
}

std::optional<uint64_t> AffineAnalysis::literalValueOf(const Expr *E) {
  if (!E)
    return std::nullopt;
  Expr::EvalResult R;
  const Expr *Plain = E->IgnoreImplicit();
  if (!Plain->isValueDependent() &&
      Plain->getType()->isIntegralOrEnumerationType() &&
      Plain->EvaluateAsInt(R, Ctx) && !R.Val.getInt().isNegative())
    return R.Val.getInt().getZExtValue(); // literals, constexpr, macros
  if (auto S = literalShapeOf(E); S && S->Y == 1 && S->Z == 1)
    return S->X;
  return std::nullopt;
}

void AffineAnalysis::recordLaunch(const CallExpr *Launch) {
  // A launch in a template's pattern is seen again, with its arguments'
  // values, in each instantiation; one never instantiated never runs.
  if (!Launch || Launch->isInstantiationDependent() ||
      !SeenLaunches.insert(Launch).second)
    return;
  LaunchSite Site = launchSite(Launch);
  const FunctionDecl *Kernel = Site.Kernel;
  if (!Kernel || Unpinned.count(Kernel))
    return;
  // dim3(4, 8, n): a warp is 4 x 8 lanes of one z-slice, whatever n is.
  bool RuntimeZ = false;
  std::optional<BlockShape> S = literalShapeOf(Site.Block, &RuntimeZ);
  if (S && RuntimeZ && (S->X * S->Y) % WarpSize != 0)
    S = std::nullopt;
  auto It = Shapes.find(Kernel);
  if (!S ||
      (It != Shapes.end() && (It->second.X != S->X || It->second.Y != S->Y ||
                              It->second.Z != S->Z))) {
    Shapes.erase(Kernel);
    Unpinned.insert(Kernel);
    return;
  }
  Shapes[Kernel] = *S;
}

WarpPattern AffineAnalysis::pattern(const AffineForm &Off,
                                    const BlockShape &Shape) {
  WarpPattern P;
  if (!Off.Known)
    return P;
  if (Shape.pinned() && Shape.X > WarpSize && Shape.X % WarpSize != 0)
    return P; // warps straddle rows of the block: not modelled
  bool AlongX = !Shape.pinned() || Shape.X % WarpSize == 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    int64_t V[NumThreadTerms];
    if (AlongX) {
      V[TermTx] = L;
      V[TermTy] = 0;
      V[TermTz] = 0;
    } else {
      V[TermTx] = L % Shape.X;
      V[TermTy] = (L / Shape.X) % Shape.Y;
      V[TermTz] = L / (Shape.X * Shape.Y);
      if (V[TermTz] >= int64_t(Shape.Z))
        break; // a block smaller than a warp: the rest of the lanes are absent
    }
    V[TermLane] = L;
    int64_t Sum = 0, Key = 0;
    for (int T = 0; T < NumThreadTerms; ++T) {
      const Coef &C = Off.C[T];
      if (C.isZero())
        continue;
      bool Varies = AlongX ? (T == TermTx || T == TermLane) : true;
      if (C.Symbolic) {
        if (Varies && V[T] != 0) {
          P.SymbolicStride = true;
          P.SymbolName = C.Name;
          P.SymbolFactor = std::gcd(P.SymbolFactor, C.Factor);
        }
        Key = Key * int64_t(WarpSize + 1) + V[T];
        continue;
      }
      Sum += C.Value * V[T];
    }
    P.Offsets.push_back(Sum);
    P.Group.push_back(Key);
  }
  if (!Shape.pinned() && (!Off.C[TermTy].isZero() || !Off.C[TermTz].isZero()))
    P.DependsOnBlockShape = true;
  P.Known = true;
  P.Regular = P.Offsets.size() > 1;
  for (size_t I = 1; I < P.Offsets.size(); ++I)
    if (P.Offsets[I] - P.Offsets[I - 1] != P.Offsets[1] - P.Offsets[0])
      P.Regular = false;
  if (P.Regular)
    P.LaneStride = P.Offsets[1] - P.Offsets[0];
  return P;
}

// ------------------------------------------------------------ dump

void dumpAnalysis(ASTContext &AST, AffineAnalysis &AA,
                  ThreadDependenceAnalysis &TDA, llvm::raw_ostream &OS) {
  using namespace clang::ast_matchers;
  const SourceManager &SM = AST.getSourceManager();
  // match() on the ASTContext visits every node of the TU once.
  for (const auto &M : match(launchMatcher(), AST))
    AA.recordLaunch(M.getNodeAs<CallExpr>("launch"));
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
    if (Shape.pinned())
      OS << " block " << Shape.X << "x" << Shape.Y << "x" << Shape.Z;
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
