// Values kept in locals, followed flow-sensitively where the code is
// straight (ThreadDependence.h, reachingDefinition).
#include "Analysis/Budget.h"
#include "Analysis/DeclRefs.h"
#include "Analysis/ThreadDependence.h"
#include "Analysis/ThreadDependenceImpl.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace warplint::detail;

namespace warplint {

// ---- Values kept in locals ------------------------------------------------

FunctionDependence::Reaching
FunctionDependence::reachingDefinition(const Stmt *Use, const VarDecl *V) {
  if (MayJumpIntoLoops || Escaped.count(V) || !V->isLocalVarDeclOrParm() ||
      V->hasAttr<CUDASharedAttr>() || V->isStaticLocal())
    return {};
  const Stmt *Child = Use;
  for (const Stmt *P = parent(Use); P; Child = P, P = parent(P)) {
    // A do-while's condition runs right after its body: a definition on
    // the body's straight path reaches it (`do { ...; m = s_max; } while
    // (m > x);`); none there, and the value may be a previous iteration's.
    if (const auto *Do = dyn_cast<DoStmt>(P); Do && Child == Do->getCond()) {
      const auto *Body = dyn_cast<CompoundStmt>(Do->getBody());
      if (!Body || Body->body_empty())
        return {};
      Reaching R = reachingDefinition(Body->body_back(), V);
      const Stmt *Last = Body->body_back();
      // The body's last statement itself may define V.
      if (const auto *BO = dyn_cast<BinaryOperator>(Last);
          BO && BO->getOpcode() == BO_Assign)
        if (const auto *L =
                dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
            L && L->getDecl() == V)
          return {Last, BO->getRHS(), false};
      if (writtenIn(Last).contains(V))
        return {Last, nullptr, false};
      // (The walk back stops at the loop: a writer found is in the body.)
      return R.Writer ? R : Reaching();
    }
    if (isLoop(P) || isa<SwitchStmt, LambdaExpr>(P))
      return {};
    if (const auto *DS = dyn_cast<DeclStmt>(P))
      if (llvm::is_contained(DS->decls(), V))
        return {}; // a use inside V's own initialiser
    const auto *CS = dyn_cast<CompoundStmt>(P);
    if (!CS)
      continue;
    auto Body = CS->body();
    auto At = llvm::find(Body, Child);
    while (At != Body.begin()) {
      const Stmt *S = *--At;
      if (isa<SwitchCase, LabelStmt>(S))
        return {};
      if (const auto *DS = dyn_cast<DeclStmt>(S);
          DS && llvm::is_contained(DS->decls(), V))
        return {S, V->getInit(), false};
      if (!writtenIn(S).contains(V))
        continue;
      const auto *BO = dyn_cast<BinaryOperator>(S);
      if (BO && BO->getOpcode() == BO_Assign)
        if (const auto *L =
                dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
            L && L->getDecl() == V)
          return {S, BO->getRHS(), false};
      return {S, nullptr, false}; // written otherwise (a loop, a branch)
    }
  }
  return {nullptr, nullptr, true};
}

const Expr *FunctionDependence::reachingValue(const Stmt *Use,
                                              const VarDecl *V) {
  if (Escaped.count(V) || !V->isLocalVarDecl())
    return nullptr;
  // One definition, its declaration: it reaches every use.
  if (auto It = Defs.find(V); It != Defs.end() && It->second.size() == 1 &&
                              isa<DeclStmt>(It->second.front().second))
    return V->getInit();
  return reachingDefinition(Use, V).Value;
}

std::optional<Dependence>
FunctionDependence::reachingDependence(const Stmt *Use, const VarDecl *V) {
  Reaching R = reachingDefinition(Use, V);
  if (R.Value)
    return dependence(R.Value);
  // Back at the function's entry with no definition on the way: a
  // parameter's incoming value.
  if (R.Entry)
    if (const auto *P = dyn_cast<ParmVarDecl>(V))
      return incoming(P);
  if (!R.Writer || !warpButterfly(R.Writer, V))
    return std::nullopt;
  // What the lanes reduce: V before the loop, as every warp holds it.
  Reaching Before = reachingDefinition(R.Writer, V);
  if (Before.Value && sameInEveryWarp(Before.Value))
    return Dependence::Uniform;
  if (const auto *P = dyn_cast<ParmVarDecl>(V);
      P && Before.Entry && incoming(P) == Dependence::Uniform)
    return Dependence::Uniform;
  return Dependence::WarpUniform;
}

std::optional<int64_t> FunctionDependence::constantValue(const Expr *E) {
  if (!E)
    return std::nullopt;
  if (!E->isValueDependent()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, F->getASTContext()))
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  }
  if (!Specialization)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *P = dyn_cast<NonTypeTemplateParmDecl>(DRE->getDecl());
    const TemplateArgumentList *Args =
        Specialization->getTemplateSpecializationArgs();
    if (!P || !Args || P->getIndex() >= Args->size() ||
        Args->get(P->getIndex()).getKind() != TemplateArgument::Integral)
      return std::nullopt;
    return Args->get(P->getIndex()).getAsIntegral().getExtValue();
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  std::optional<int64_t> L = constantValue(BO->getLHS()),
                         R = constantValue(BO->getRHS());
  if (!L || !R)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_Add:
    return *L + *R;
  case BO_Sub:
    return *L - *R;
  case BO_Mul:
    return *L * *R;
  case BO_Div:
    return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
  case BO_Shr:
    return *R >= 0 && *R < 63 ? std::optional<int64_t>(*L >> *R) : std::nullopt;
  default:
    return std::nullopt;
  }
}

bool FunctionDependence::warpButterfly(const Stmt *Loop, const VarDecl *V) {
  while (const auto *A = dyn_cast<AttributedStmt>(Loop)) // #pragma unroll
    Loop = A->getSubStmt();
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For || !For->getCond() || !For->getInc())
    return false;
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *O = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  auto IsVar = [](const Expr *E, const VarDecl *X) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == X;
  };
  // o = 16; o > 0 (or >= 1); o >>= 1 (or /= 2): 16, 8, 4, 2, 1.
  if (!O || constantValue(O->getInit()) != 16)
    return false;
  const auto *Cond = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParens());
  if (!Cond || !IsVar(Cond->getLHS(), O) ||
      !((Cond->getOpcode() == BO_GT && constantValue(Cond->getRHS()) == 0) ||
        (Cond->getOpcode() == BO_GE && constantValue(Cond->getRHS()) == 1)))
    return false;
  const auto *Inc = dyn_cast<CompoundAssignOperator>(For->getInc());
  if (!Inc || !IsVar(Inc->getLHS(), O) ||
      !((Inc->getOpcode() == BO_ShrAssign &&
         constantValue(Inc->getRHS()) == 1) ||
        (Inc->getOpcode() == BO_DivAssign &&
         constantValue(Inc->getRHS()) == 2)))
    return false;
  // Every write of V in the body: V = f(shfl, V) or V op= shfl, where shfl
  // is __shfl_xor_sync(full, V, o[, 32]); nothing else writes V or o.
  auto IsShuffle = [&](const Expr *E) {
    const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !Callee->getDeclName().isIdentifier() ||
        Callee->getName() != "__shfl_xor_sync" || Call->getNumArgs() < 3)
      return false;
    std::optional<int64_t> Mask = constantValue(Call->getArg(0));
    if (!Mask || uint32_t(*Mask) != 0xffffffffu || !IsVar(Call->getArg(1), V) ||
        !IsVar(Call->getArg(2), O))
      return false;
    if (Call->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(Call->getArg(3))) {
      std::optional<int64_t> Width = constantValue(Call->getArg(3));
      if (!Width || *Width < 32)
        return false;
    }
    return true;
  };
  if (writesTo(For->getBody(), O))
    return false;
  bool Writes = false, Other = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Other)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp() && IsVar(BO->getLHS(), V)) {
      Writes = true;
      if (BO->getOpcode() == BO_Assign) {
        // One shuffle of V, and otherwise V and constants.
        unsigned Shuffles = 0;
        std::function<void(const Expr *)> Check = [&](const Expr *E) {
          E = E->IgnoreParenImpCasts();
          if (IsShuffle(E)) {
            ++Shuffles;
            return;
          }
          if (IsVar(E, V) || isa<IntegerLiteral, FloatingLiteral>(E))
            return;
          if (const auto *B = dyn_cast<BinaryOperator>(E)) {
            Check(B->getLHS());
            Check(B->getRHS());
            return;
          }
          if (const auto *C = dyn_cast<CallExpr>(E);
              C && C->getDirectCallee() && C->getNumArgs() == 2) {
            Check(C->getArg(0)); // fmaxf(a, b) and the like
            Check(C->getArg(1));
            return;
          }
          Other = true;
        };
        Check(BO->getRHS());
        Other |= Shuffles != 1;
      } else {
        Other |= !IsShuffle(BO->getRHS());
      }
      return;
    }
    if (isa<CallExpr>(S) && writesTo(S, V))
      Other = true;
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        IsVar(UO->getSubExpr(), V))
      Other = true;
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(For->getBody());
  return Writes && !Other;
}

const DeclSet &FunctionDependence::writtenIn(const Stmt *S) {
  auto &Slot = WrittenIn[S];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<DeclSet>();
  collectWrites(S, *Slot, {/*EnterLambdas=*/true, /*BoundReferences=*/true});
  return *Slot;
}

const Expr *FunctionDependence::throughLocals(const Expr *E, unsigned &Hops) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V)
      return E;
    if (Hops == 0)
      return nullptr;
    --Hops;
    E = reachingValue(DRE, V);
  }
  return nullptr;
}

bool FunctionDependence::laneOnly(const Expr *E) {
  unsigned Hops = 4;
  const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(throughLocals(E, Hops));
  if (!AS)
    return false;
  const auto *Base =
      dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
  const auto *Array = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
  if (!Array || !Array->hasAttr<CUDASharedAttr>())
    return false;
  // The index: t % 32 or t & 31, t threadIdx.x (through locals).
  Hops = 4;
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(throughLocals(AS->getIdx(), Hops));
  if (!BO)
    return false;
  std::optional<int64_t> K = constantValue(BO->getRHS());
  if (!K || !((BO->getOpcode() == BO_Rem && *K == 32) ||
              (BO->getOpcode() == BO_And && *K == 31)))
    return false;
  const Expr *T = throughLocals(BO->getLHS(), Hops);
  auto B = T ? cudaBuiltinComponent(T) : std::nullopt;
  return B && B->first == "__cuda_builtin_threadIdx_t" && B->second == "x";
}

bool FunctionDependence::sameInEveryWarp(llvm::ArrayRef<const Expr *> Args) {
  if (Args.empty())
    return false;
  return llvm::all_of(Args, [&](const Expr *A) {
    return laneOnly(A) || dependence(A) == Dependence::Uniform;
  });
}

std::optional<FunctionDependence::TailCut>
FunctionDependence::tailGuard(const Expr *Cond, bool SurviveIfTrue) {
  TailCut Cut;
  return cutsTail(Cond, SurviveIfTrue, Cut) ? std::optional<TailCut>(Cut)
                                            : std::nullopt;
}

bool FunctionDependence::cutsTail(const Expr *Cond, bool SurviveIfTrue,
                                  TailCut &Cut) {
  auto BO = binaryForm(Cond->IgnoreParenImpCasts());
  if (!BO)
    return false;
  if (BO->Op == (SurviveIfTrue ? BO_LAnd : BO_LOr))
    return cutsTail(BO->LHS, SurviveIfTrue, Cut) &&
           cutsTail(BO->RHS, SurviveIfTrue, Cut);
  const Expr *Big = nullptr, *Bound = nullptr;
  BinaryOperatorKind Op = BO->Op;
  if (SurviveIfTrue)
    Op = Op == BO_LT   ? BO_GE
         : Op == BO_LE ? BO_GT
         : Op == BO_GT ? BO_LE
         : Op == BO_GE ? BO_LT
                       : BO_Comma;
  if (Op == BO_GE || Op == BO_GT)
    Big = BO->LHS, Bound = BO->RHS;
  else if (Op == BO_LE || Op == BO_LT)
    Big = BO->RHS, Bound = BO->LHS;
  else
    return false;
  if (dependence(Bound) != Dependence::Uniform)
    return false;
  auto P = threadPart(Big, 0);
  if (!P || P->Atoms.size() != 1 || P->Atoms.begin()->second <= 0)
    return false;
  // An index divided by a group size, `(bs * blockIdx.x + threadIdx.x) /
  // tile`, grows with the thread index too: whole groups leave together,
  // and the survivors are still a prefix.
  llvm::StringRef Atom = P->Atoms.begin()->first;
  while (Atom.starts_with("(") && Atom.contains(")/"))
    Atom = Atom.substr(1, Atom.rfind(")/") - 1);
  if (Atom == "tid.x" || Atom == "rank.block")
    Cut.X = true;
  else if (Atom == "tid.y")
    Cut.Y = true;
  else if (Atom == "tid.z")
    Cut.Z = true;
  else
    return false;
  return true;
}

llvm::SmallVector<const Expr *, 2>
FunctionDependence::definitionValues(const VarDecl *V) const {
  llvm::SmallVector<const Expr *, 2> Out;
  auto It = Defs.find(V);
  if (It != Defs.end())
    for (const auto &[Value, Site] : It->second)
      if (Value)
        Out.push_back(Value);
  return Out;
}

} // namespace warplint
