// Uniformity by value: the thread-dependent part of an integer expression
// as a sum of thread-index atoms (ThreadDependence.h, ThreadPart).
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

// --- Uniformity by value ---------------------------------------------------

namespace {

using ThreadPart = FunctionDependence::ThreadPart;

// How deep threadPart follows operators, locals and helpers.
constexpr unsigned MaxThreadPartDepth = 24;

// The divisor of an atom, as a key that is equal only for equal values: a
// constant, a template parameter, a const local or an unassigned parameter.
std::optional<std::string> divisorKey(const Expr *D, const ASTContext &Ctx) {
  D = D->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!D->isValueDependent() && D->EvaluateAsInt(R, Ctx))
    return "c" + std::to_string(R.Val.getInt().getExtValue());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(D)) {
    const ValueDecl *V = DRE->getDecl();
    if (isa<NonTypeTemplateParmDecl>(V))
      return "p" + V->getNameAsString();
    if (const auto *Var = dyn_cast<VarDecl>(V);
        Var && (Var->getType().isConstQualified() || Var->isConstexpr()))
      return "v" + std::to_string(reinterpret_cast<uintptr_t>(Var));
  }
  return std::nullopt;
}

// The atom a thread index reads: threadIdx.x/y/z, or the rank of the thread
// in its block (a thread_block's or the grid's thread_rank(); the grid's is
// the block's plus a uniform multiple of blockDim).
std::optional<std::string> threadAtom(const Expr *E) {
  if (auto B = cudaBuiltinComponent(E)) {
    if (B->first == "__cuda_builtin_threadIdx_t")
      return "tid." + B->second.str();
    return std::nullopt;
  }
  // block.thread_rank(): a member call, or a static member called through
  // the object (cooperative groups declares thread_block's so).
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const auto *M =
      Call ? dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()) : nullptr;
  if (!M || !M->getDeclName().isIdentifier() || M->getName() != "thread_rank")
    return std::nullopt;
  const CXXRecordDecl *RD = M->getParent();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    if (const CXXRecordDecl *Object = MC->getRecordDecl())
      RD = Object;
  if (!RD)
    return std::nullopt;
  llvm::StringRef Name = RD->getName();
  // A block's rank is threadIdx.x in a 1-D block, the shape the lane model
  // assumes when the launch is not known (the grid's adds a uniform
  // multiple of blockDim).
  if (Name == "thread_block" || Name == "grid_group")
    return std::string("tid.x");
  return std::nullopt;
}

void addParts(ThreadPart &Into, const ThreadPart &P, int64_t Sign) {
  for (auto &[K, C] : P.Atoms)
    if ((Into.Atoms[K] += Sign * C) == 0)
      Into.Atoms.erase(K);
  Into.Rest = join(Into.Rest, P.Rest);
  Into.RestBlockMultiple &= P.RestBlockMultiple;
  Into.RestXMultiple &= P.RestXMultiple;
  Into.Exact &= P.Exact;
}

bool isBlockDim(const Expr *E) {
  auto B = cudaBuiltinComponent(E);
  return B && B->first == "__cuda_builtin_blockDim_t";
}

} // namespace

bool FunctionDependence::runsTogether(const Stmt *Site, const Stmt *Scope,
                                      const JudgedLoops &Judged) {
  for (const Stmt *P : enclosingBranches(Site, Scope)) {
    if (isLoop(P)) {
      if (Judged.contains(P))
        continue;
      if (LoopsInProgress.count(P)) {
        ++CutOffs; // taken as run together for now
        continue;
      }
      if (loopDependence(P) != Dependence::Uniform)
        return false;
    } else if (dependence(conditionOf(P)) != Dependence::Uniform) {
      return false;
    }
  }
  return true;
}

std::optional<ThreadPart> FunctionDependence::varThreadPart(const VarDecl *V,
                                                            const Expr *Use,
                                                            unsigned Depth) {
  if (Escaped.count(V) || !Defs.count(V))
    return std::nullopt;
  if (!PartsInProgress.insert(V).second) {
    ++CutOffs;
    return std::nullopt;
  }
  struct Release {
    llvm::DenseSet<const VarDecl *> &S;
    const VarDecl *V;
    ~Release() { S.erase(V); }
  } R{PartsInProgress, V};
  const ForStmt *Loop = resettingLoop(V, Use);
  // The loops around Use (its condition, its body): among the threads that
  // are in one of their iterations together, their own steps were taken
  // together (induction); a loop that lets threads leave is a guard of its
  // own, judged apart.
  llvm::SmallPtrSet<const Stmt *, 4> Judged;
  for (const Stmt *P = parent(Use); P; P = parent(P))
    if (isLoop(P))
      Judged.insert(P);
  auto DeclIt = DeclaredIn.find(V);
  const Stmt *Scope =
      DeclIt == DeclaredIn.end() ? nullptr : parent(DeclIt->second);
  std::optional<ThreadPart> Base;
  ThreadPart Steps;
  for (auto &[Value, Site] : Defs.lookup(V)) {
    if (Loop) { // only the loop's init and its own definitions reach Use
      bool In = false;
      for (const Stmt *P = Site; P && !In; P = parent(P))
        In = P == Loop;
      if (!In)
        continue;
    }
    if (!Value || !mayReach(Site, Use))
      continue; // a declaration without an initialiser, or one after Use
    if (!runsTogether(Site, Scope, Judged))
      return std::nullopt;
    std::optional<BinaryForm> BO = binaryForm(Value);
    if (BO && BinaryOperator::isCompoundAssignmentOp(BO->Op)) {
      if (BO->Op != BO_AddAssign && BO->Op != BO_SubAssign)
        return std::nullopt;
      auto P = threadPart(BO->RHS, Depth + 1);
      if (!P || !P->Atoms.empty())
        return std::nullopt;
      addParts(Steps, *P, 1);
    } else if (incDecOperand(Site)) {
      continue; // a step of one
    } else {
      if (Base)
        return std::nullopt; // two starting values
      Base = threadPart(Value, Depth + 1);
      if (!Base)
        return std::nullopt;
    }
  }
  if (!Base)
    return std::nullopt;
  Base->Rest = join(Base->Rest, Steps.Rest);
  Base->RestBlockMultiple &= Steps.Atoms.empty() && Steps.RestBlockMultiple;
  Base->RestXMultiple &= Steps.Atoms.empty() && Steps.RestXMultiple;
  return Base;
}

bool FunctionDependence::isBlockDimX(const Expr *E, unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  if (auto B = cudaBuiltinComponent(E))
    return B->first == "__cuda_builtin_blockDim_t" && B->second == "x";
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || Depth > 4 || Escaped.count(V))
    return false;
  auto It = Defs.find(V);
  if (It == Defs.end() || It->second.size() != 1 || !It->second[0].first ||
      It->second[0].first != V->getInit())
    return false;
  return isBlockDimX(V->getInit(), Depth + 1);
}

std::optional<Dependence>
FunctionDependence::blockPaddedCompare(const BinaryForm &BO) {
  const Expr *Idx = nullptr, *Bound = nullptr;
  if (BO.Op == BO_LT || BO.Op == BO_GE)
    Idx = BO.LHS, Bound = BO.RHS;
  else if (BO.Op == BO_GT || BO.Op == BO_LE)
    Idx = BO.RHS, Bound = BO.LHS;
  else
    return std::nullopt;
  auto I = threadPart(Idx, 0);
  if (!I || !I->Exact || !I->RestXMultiple || I->Atoms.size() != 1 ||
      I->Atoms.begin()->first != "tid.x" || I->Atoms.begin()->second != 1)
    return std::nullopt;
  auto B = threadPart(Bound, 0);
  if (!B || !B->Exact || !B->Atoms.empty() || !B->RestXMultiple)
    return std::nullopt;
  return join(I->Rest, B->Rest);
}

std::optional<ThreadPart> FunctionDependence::threadPart(const Expr *E,
                                                         unsigned Depth) {
  if (!E || Depth > MaxThreadPartDepth)
    return std::nullopt;
  E = E->IgnoreParens();
  if (auto Atom = threadAtom(E)) {
    ThreadPart P;
    P.Atoms[*Atom] = 1;
    return P;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    if (Cast->getType()->isIntegralOrEnumerationType() &&
        Cast->getSubExpr()->getType()->isIntegralOrEnumerationType())
      return threadPart(Cast->getSubExpr(), Depth + 1);
  // index_type{threadIdx.x}: a functional cast of a one-element list.
  if (const auto *List = dyn_cast<InitListExpr>(E))
    if (List->getNumInits() == 1 && E->getType()->isIntegralOrEnumerationType())
      return threadPart(List->getInit(0), Depth + 1);
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    if (Cast->getType()->isIntegralOrEnumerationType())
      return threadPart(Cast->getSubExpr(), Depth + 1);
  if (auto BO = binaryForm(E)) {
    BinaryOperatorKind Op = BO->Op;
    if (BinaryOperator::isAdditiveOp(Op)) {
      auto L = threadPart(BO->LHS, Depth + 1);
      auto R = threadPart(BO->RHS, Depth + 1);
      if (!L || !R)
        return std::nullopt;
      addParts(*L, *R, Op == BO_Sub ? -1 : 1);
      return L;
    }
    if (Op == BO_Mul) {
      auto L = threadPart(BO->LHS, Depth + 1);
      auto R = threadPart(BO->RHS, Depth + 1);
      if (!L || !R)
        return std::nullopt;
      bool Dim = isBlockDim(BO->LHS) || isBlockDim(BO->RHS);
      const Expr *Other = L->Atoms.empty() ? BO->RHS : BO->LHS;
      const ThreadPart &Var = L->Atoms.empty() ? *R : *L;
      if (!L->Atoms.empty() && !R->Atoms.empty())
        return std::nullopt;
      ThreadPart Out;
      Out.Rest = join(L->Rest, R->Rest);
      Out.RestBlockMultiple =
          Dim || L->RestBlockMultiple || R->RestBlockMultiple;
      Out.RestXMultiple = L->RestXMultiple || R->RestXMultiple;
      if (!Var.Atoms.empty()) { // an atom times a constant
        Expr::EvalResult C;
        if (Other->isValueDependent() ||
            !Other->EvaluateAsInt(C, F->getASTContext()))
          return std::nullopt;
        for (auto &[K, N] : Var.Atoms)
          Out.Atoms[K] = N * C.Val.getInt().getExtValue();
        Out.RestBlockMultiple = Var.RestBlockMultiple;
        Out.RestXMultiple = Var.RestXMultiple;
        Out.Exact = Var.Exact;
      }
      return Out;
    }
    // The block's own size cancels the thread index: with i = tid.x + k *
    // blockDim.x (k >= 0, a block-stride loop's counter), i / blockDim.x is
    // k and i % blockDim.x is tid.x, since 0 <= tid.x < blockDim.x.
    if ((Op == BO_Div || Op == BO_Rem) && isBlockDimX(BO->RHS, 0)) {
      auto L = threadPart(BO->LHS, Depth + 1);
      if (L && L->Exact && L->RestXMultiple && L->Atoms.size() == 1 &&
          L->Atoms.begin()->first == "tid.x" && L->Atoms.begin()->second == 1) {
        ThreadPart Out;
        if (Op == BO_Div) {
          Out.Rest = join(L->Rest, dependence(BO->RHS));
          Out.RestBlockMultiple = Out.RestXMultiple = false;
        } else {
          Out.Atoms["tid.x"] = 1;
        }
        return Out;
      }
    }
    if (Op == BO_Div || Op == BO_Shr) {
      auto L = threadPart(BO->LHS, Depth + 1);
      if (!L)
        return std::nullopt;
      Dependence DR = dependence(BO->RHS);
      if (DR != Dependence::Uniform)
        return std::nullopt;
      if (L->Atoms.empty()) {
        L->RestBlockMultiple = L->RestXMultiple = false;
        return L;
      }
      // (U + t) / d == U / d + t / d when U is a multiple of d: U a multiple
      // of blockDim, d a group size that divides the block (the assumption
      // the warp id makes too). Otherwise (`(BS * blockIdx.x + tid) / TS`
      // with BS and TS template parameters) the value still grows with t,
      // but is not that sum: not Exact.
      if (L->Atoms.size() != 1 || L->Atoms.begin()->second != 1)
        return std::nullopt;
      auto Key = divisorKey(BO->RHS, F->getASTContext());
      if (!Key)
        return std::nullopt;
      if (Op == BO_Shr)
        Key = "s" + *Key;
      ThreadPart Out;
      Out.Atoms["(" + L->Atoms.begin()->first + ")/" + *Key] = 1;
      Out.Rest = L->Rest;
      Out.RestBlockMultiple = Out.RestXMultiple = false;
      Out.Exact = L->Exact && L->RestBlockMultiple;
      return Out;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && localVar(DRE, F) && V->getType()->isIntegralOrEnumerationType())
      if (auto P = varThreadPart(V, DRE, Depth + 1))
        return P;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // A helper that returns one expression and takes no arguments (a
    // global-thread-id helper): its value, in its own function.
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    const auto *Body =
        Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
    if (Body && Call->getNumArgs() == 0 && Body->size() == 1 &&
        !isa<CXXMemberCallExpr>(Call))
      if (const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front()))
        if (Ret->getRetValue())
          return Parent.forFunction(Def).threadPart(Ret->getRetValue(),
                                                    Depth + 1);
  }
  // Anything else: a value with no thread atom, if it is warp-uniform.
  Dependence D = dependence(E);
  if (!isWarpUniform(D))
    return std::nullopt;
  ThreadPart P;
  P.Rest = D;
  const auto *Lit = dyn_cast<IntegerLiteral>(E);
  P.RestXMultiple = (Lit && Lit->getValue() == 0) || isBlockDimX(E, 0);
  P.RestBlockMultiple = P.RestXMultiple || isBlockDim(E);
  return P;
}

} // namespace warplint
