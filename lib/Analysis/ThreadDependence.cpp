#include "Analysis/ThreadDependence.h"
#include "Analysis/Budget.h"
#include "Analysis/DeclRefs.h"
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
namespace detail {

// An assignment, `x = v` or `x += v`: built in, or, in a template as
// written, an operator call left unresolved (a definition all the same).
std::optional<BinaryForm> assignmentForm(const Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return std::nullopt;
  std::optional<BinaryForm> B = binaryForm(E);
  if (!B || !BinaryOperator::isAssignmentOp(B->Op))
    return std::nullopt;
  return B;
}

// The operand of `++x`, `x--` (or, in a template as written, of the
// operator call left unresolved), or null.
const Expr *incDecOperand(const Stmt *S) {
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->isIncrementDecrementOp() ? UO->getSubExpr() : nullptr;
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
  if (!Op || Op->getNumArgs() < 1 || !Op->isTypeDependent() ||
      !isa<UnresolvedLookupExpr>(Op->getCallee()->IgnoreImplicit()) ||
      (Op->getOperator() != OO_PlusPlus && Op->getOperator() != OO_MinusMinus))
    return nullptr;
  return Op->getArg(0);
}

// The CUDA built-in variables, recognised by their declared types (clang's
// __clang_cuda_builtin_vars.h; warplint's fallback header uses the same).
std::optional<Dependence> builtinVar(const VarDecl *V) {
  const auto *RD = V->getType()->getAsCXXRecordDecl();
  if (RD) {
    llvm::StringRef T = RD->getName();
    if (T == "__cuda_builtin_threadIdx_t")
      return Dependence::ThreadDependent;
    if (T == "__cuda_builtin_blockIdx_t" || T == "__cuda_builtin_blockDim_t" ||
        T == "__cuda_builtin_gridDim_t")
      return Dependence::Uniform;
  }
  if (V->getName() == "warpSize" && V->hasGlobalStorage())
    return Dependence::Uniform;
  return std::nullopt;
}

// Functions without a visible body whose result differs per thread, or that
// are warp-uniform by definition (votes). Anything else without a body that
// lives in a system header is treated as a pure function of its arguments
// (libdevice math, conversions).
std::optional<Dependence> knownCallee(llvm::StringRef Name) {
  if (Name.starts_with("atomic") || Name.starts_with("__shfl") ||
      Name.starts_with("__match") || Name.starts_with("__lanemask") ||
      Name == "__activemask" || Name == "clock" || Name == "clock64" ||
      Name.starts_with("__nvvm_read_ptx_sreg_tid") ||
      Name.starts_with("__nvvm_read_ptx_sreg_laneid") ||
      Name == "thread_rank" || Name == "thread_index")
    return Dependence::ThreadDependent;
  if (Name.starts_with("__nvvm_read_ptx_sreg_ctaid") ||
      Name.starts_with("__nvvm_read_ptx_sreg_ntid") ||
      Name.starts_with("__nvvm_read_ptx_sreg_nctaid") ||
      Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
      Name == "__syncthreads_or")
    return Dependence::Uniform;
  // Votes and warp reductions: one answer per warp.
  if (Name == "__any_sync" || Name == "__all_sync" || Name == "__ballot_sync" ||
      Name == "__any" || Name == "__all" || Name == "__ballot" ||
      Name.starts_with("__reduce_") || Name == "__uni_sync")
    return Dependence::WarpUniform;
  return std::nullopt;
}

const VarDecl *localVar(const Expr *E, const FunctionDecl *F) {
  E = E->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
  if (!V || !V->isLocalVarDeclOrParm() || V->isStaticLocal())
    return nullptr;
  // __shared__ locals are one location for the whole block: uniform address.
  if (V->hasAttr<CUDASharedAttr>())
    return nullptr;
  return V;
}

// The local array or struct that an element or field lvalue lies in
// (idx[k], s.f, a[i][j].x), with the subscripts on the way: writing there
// makes the local as thread-dependent as the value and the subscripts. A
// local pointer's elements are memory, not the local: nullptr.
const VarDecl *localAggregate(const Expr *E, const FunctionDecl *F,
                              llvm::SmallVectorImpl<const Expr *> &Indices) {
  E = E->IgnoreParenImpCasts();
  bool Part = false;
  while (true) {
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return nullptr;
      Indices.push_back(AS->getIdx());
      E = Base;
    } else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
      E = ME->getBase()->IgnoreParenImpCasts();
    } else {
      break;
    }
    Part = true;
  }
  if (!Part)
    return nullptr;
  const VarDecl *V = localVar(E, F);
  return V && !V->getType()->isReferenceType() ? V : nullptr;
}

} // namespace detail

const char *dependenceName(Dependence D) {
  switch (D) {
  case Dependence::Uniform:
    return "uniform";
  case Dependence::WarpUniform:
    return "warp-uniform";
  case Dependence::Unknown:
    return "unknown";
  case Dependence::ThreadDependent:
    return "thread-dependent";
  }
  return "unknown";
}

std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
cudaBuiltinComponent(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    E = POE->getSyntacticForm()->IgnoreParenImpCasts();
  const auto *Prop = dyn_cast<MSPropertyRefExpr>(E);
  if (!Prop)
    return std::nullopt;
  const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  if (!DRE)
    return std::nullopt;
  const auto *RD = DRE->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->getName().starts_with("__cuda_builtin_"))
    return std::nullopt;
  return std::make_pair(RD->getName(), Prop->getPropertyDecl()->getName());
}

std::optional<BinaryForm> binaryForm(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BinaryForm{BO->getOpcode(), BO->getLHS(), BO->getRHS()};
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Op || Op->getNumArgs() != 2 || !Op->isTypeDependent() ||
      !isa<UnresolvedLookupExpr>(Op->getCallee()->IgnoreImplicit()))
    return std::nullopt;
  OverloadedOperatorKind K = Op->getOperator();
  // (Only the operators with a binary built-in form: not ->*, [], (), and
  // not a postfix ++ or --, whose second argument is a placeholder.)
  if (K == OO_ArrowStar || K == OO_Subscript || K == OO_Call ||
      K == OO_PlusPlus || K == OO_MinusMinus)
    return std::nullopt;
  return BinaryForm{BinaryOperator::getOverloadedOpcode(K), Op->getArg(0),
                    Op->getArg(1)};
}

FunctionDependence::FunctionDependence(const FunctionDecl *F,
                                       ThreadDependenceAnalysis &Parent,
                                       bool ParamsUniform)
    : F(F), Parent(Parent),
      Incoming(ParamsUniform ? Dependence::Uniform : Dependence::Unknown) {
  if (const Stmt *Body = F->getBody())
    collect(Body, nullptr);
}

FunctionDependence::FunctionDependence(const FunctionDecl *F,
                                       ThreadDependenceAnalysis &Parent,
                                       llvm::ArrayRef<Dependence> ParamDeps)
    : F(F), Parent(Parent), ParamDeps(ParamDeps.begin(), ParamDeps.end()),
      Incoming(Dependence::Unknown) {
  if (const Stmt *Body = F->getBody())
    collect(Body, nullptr);
}

Dependence FunctionDependence::incoming(const ParmVarDecl *P) const {
  unsigned I = P->getFunctionScopeIndex();
  return I < ParamDeps.size() ? ParamDeps[I] : Incoming;
}

bool FunctionDependence::isKernel() const {
  return F->hasAttr<CUDAGlobalAttr>();
}

const Stmt *FunctionDependence::parent(const Stmt *S) const {
  return Parents.lookup(S);
}

void FunctionDependence::collect(const Stmt *S, const Stmt *P) {
  if (!S)
    return;
  Parents[S] = P;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        if (V->hasAttr<CUDASharedAttr>())
          continue;
        DeclaredIn[V] = S;
        Defs[V].push_back({V->getInit(), S}); // null init: uninitialised
      }
  } else if (auto A = assignmentForm(S)) {
    llvm::SmallVector<const Expr *, 2> Indices;
    if (const VarDecl *V = localVar(A->LHS, F))
      Defs[V].push_back({A->Op == BO_Assign ? A->RHS : cast<Expr>(S), S});
    else if (const VarDecl *V = localAggregate(A->LHS, F, Indices)) {
      Defs[V].push_back({A->RHS, S});
      for (const Expr *I : Indices)
        Defs[V].push_back({I, S});
    }
  } else if (const Expr *Stepped = incDecOperand(S)) {
    llvm::SmallVector<const Expr *, 2> Indices;
    if (const VarDecl *V = localVar(Stepped, F))
      Defs[V].push_back({Stepped, S});
    else if (const VarDecl *V = localAggregate(Stepped, F, Indices))
      for (const Expr *I : Indices)
        Defs[V].push_back({I, S});
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() == UO_AddrOf) {
      if (const VarDecl *V = localVar(UO->getSubExpr(), F))
        Escaped.insert(V);
    }
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    // A local bound to a non-const reference parameter may be written there.
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams();
           ++I) {
        const ParmVarDecl *Param = Callee->getParamDecl(I);
        QualType PT = Param->getType();
        if (!PT->isReferenceType() || PT->getPointeeType().isConstQualified())
          continue;
        const VarDecl *V = localVar(Call->getArg(I), F);
        if (!V)
          continue;
        // CUB's block-wide scans give every thread the block's aggregate
        // (`BlockScan(tmp).ExclusiveSum(x, y, block_aggregate)`): a write
        // that is the same in every thread, so no definition that varies.
        if (Param->getName() == "block_aggregate" && isa<CXXMethodDecl>(Callee))
          Defs[V].push_back({nullptr, S});
        else
          Escaped.insert(V);
      }
    }
  } else if (const auto *Asm = dyn_cast<AsmStmt>(S)) {
    for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
      if (const VarDecl *V = localVar(Asm->getOutputExpr(I), F))
        Escaped.insert(V);
  } else if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt,
                 IndirectGotoStmt>(S)) {
    Exits.push_back(S);
  } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
    if (const VarDecl *V = Range->getLoopVariable())
      Escaped.insert(V);
  } else if (isa<SwitchCase>(S)) {
    // A case label inside a loop that lies inside its switch (Duff's
    // device) enters the loop past its init.
    for (const Stmt *Up = P; Up && !isa<SwitchStmt>(Up); Up = parent(Up))
      if (isLoop(Up))
        MayJumpIntoLoops = true;
  }
  if (isa<GotoStmt, IndirectGotoStmt>(S))
    MayJumpIntoLoops = true;
  if (const auto *For = dyn_cast<ForStmt>(S))
    registerLoopVars(For, For->getInit());
  for (const Stmt *Child : S->children())
    collect(Child, S);
}

// The locals a `for`'s init assigns, each judged on its own inside the loop.
void FunctionDependence::registerLoopVars(const ForStmt *Loop,
                                          const Stmt *Init) {
  const auto *BO =
      dyn_cast_or_null<BinaryOperator>(dyn_cast_or_null<Expr>(Init));
  if (BO && BO->getOpcode() == BO_Comma) {
    registerLoopVars(Loop, BO->getLHS()->IgnoreParens());
    registerLoopVars(Loop, BO->getRHS()->IgnoreParens());
  } else if (BO && BO->getOpcode() == BO_Assign) {
    if (const VarDecl *V = localVar(BO->getLHS(), F))
      LoopVarDeps[{V, Loop}] = Dependence::Uniform;
  }
}

void FunctionDependence::solveVariables() {
  if (Solved || Solving)
    return;
  Solving = true;
  for (auto &Entry : Defs)
    VarDeps[Entry.first] = Dependence::Uniform;
  // Monotone iteration: each variable only moves up a three-level lattice.
  // Past the work budget (a chain of thousands of locals visited in the
  // wrong order takes as many rounds), what has not reached Unknown yet is
  // Unknown: a value found thread-dependent already is, the others may not
  // be uniform.
  unsigned Work = 0;
  for (bool Changed = true; Changed;) {
    if (Work > MaxFixedPointWork) {
      for (auto &Entry : VarDeps)
        Entry.second = join(Entry.second, Dependence::Unknown);
      break;
    }
    Changed = false;
    Cache.clear();
    LoopCache.clear();
    for (auto &[V, List] : Defs) {
      Dependence D =
          Escaped.count(V) ? Dependence::Unknown : Dependence::Uniform;
      Work += List.size();
      for (auto &[Value, Site] : List) {
        if (Value)
          D = join(D, dependence(Value));
        D = join(D, definitionGuard(V, Site).D);
      }
      if (D > VarDeps[V]) {
        VarDeps[V] = D;
        Changed = true;
      }
    }
    for (auto &[Key, Old] : LoopVarDeps) {
      Dependence D = solveLoopVar(Key.first, Key.second);
      if (D > Old) {
        Old = D;
        Changed = true;
      }
    }
  }
  Cache.clear();
  LoopCache.clear();
  GuardCache.clear();
  Solving = false;
  Solved = true;
}

Dependence FunctionDependence::varDependence(const VarDecl *V) {
  if (auto B = builtinVar(V))
    return *B;
  if (isa<ParmVarDecl>(V)) {
    // Kernel arguments are the same for every thread; a device function's
    // arguments are whatever its callers pass.
    Dependence Start = incoming(cast<ParmVarDecl>(V));
    if (Defs.count(V) == 0)
      return Start;
    solveVariables();
    return join(VarDeps.lookup(V), Start);
  }
  if (!V->isLocalVarDecl() || V->isStaticLocal() ||
      V->hasAttr<CUDASharedAttr>())
    return Dependence::Uniform; // globals, __constant__, __shared__: one
                                // address
  if (Escaped.count(V) && !Defs.count(V))
    return Dependence::Unknown;
  if (!Defs.count(V))
    return Dependence::Unknown; // declared outside what we walked (lambda
                                // capture)
  solveVariables();
  return VarDeps.lookup(V);
}

bool FunctionDependence::mayReach(const Stmt *Site, const Stmt *Use) const {
  if (MayJumpIntoLoops)
    return true;
  const SourceManager &SM = F->getASTContext().getSourceManager();
  if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Use->getEndLoc()),
                                    SM.getExpansionLoc(Site->getBeginLoc())))
    return true;
  llvm::SmallPtrSet<const Stmt *, 8> Loops;
  for (const Stmt *P = parent(Use); P; P = parent(P))
    if (isLoop(P))
      Loops.insert(P);
  for (const Stmt *P = parent(Site); P; P = parent(P))
    if (Loops.count(P))
      return true;
  return false;
}

const ForStmt *FunctionDependence::resettingLoop(const VarDecl *V,
                                                 const Stmt *Use) const {
  if (MayJumpIntoLoops || Escaped.count(V))
    return nullptr;
  const Stmt *Child = Use;
  for (const Stmt *P = parent(Use); P; Child = P, P = parent(P))
    if (const auto *For = dyn_cast<ForStmt>(P))
      if (Child != For->getInit() && LoopVarDeps.count({V, For}))
        return For;
  return nullptr;
}

Dependence FunctionDependence::solveLoopVar(const VarDecl *V,
                                            const ForStmt *Loop) {
  Dependence D = Dependence::Uniform;
  for (auto &[Value, Site] : Defs.lookup(V)) {
    bool InLoop = false, InInit = false;
    const Stmt *Child = Site;
    for (const Stmt *P = Site; P; Child = P, P = parent(P))
      if (P == Loop) {
        InLoop = true;
        InInit = Child == Loop->getInit();
        break;
      }
    if (!InLoop)
      continue; // killed by the init
    if (Value)
      D = join(D, dependence(Value));
    // The init runs in every thread that reaches the loop; a definition in
    // the loop counts the branches inside it (whether the threads run the
    // loop together is the loop's own condition, judged with this value).
    if (!InInit)
      D = join(D, enclosingGuard(Site, Loop).D);
  }
  return D;
}

Dependence FunctionDependence::loopVarDependence(const VarDecl *V,
                                                 const ForStmt *Loop) {
  auto Key = std::make_pair(V, Loop);
  if (!LoopVarDeps.count(Key)) // registered by collect(); never expected
    return varDependence(V);
  solveVariables();
  return LoopVarDeps.lookup(Key);
}

Dependence FunctionDependence::dependence(const Expr *E) {
  if (!E)
    return Dependence::Unknown;
  auto It = Cache.find(E);
  if (It != Cache.end())
    return It->second;
  // Past the nesting budget (an expression thousands of operators deep, a
  // call chain thousands of helpers long): Unknown, not a stack overflow.
  Dependence D;
  unsigned Before = CutOffs;
  {
    NestingScope Scope(Parent.nesting());
    if (Scope.exhausted())
      return Dependence::Unknown;
    D = compute(E);
  }
  if (CutOffs == Before)
    Cache[E] = D;
  return D;
}

// threadIdx.x / (a multiple of 32), threadIdx.x >> (5 or more) and
// threadIdx.x & ~31: the warp id, the same in all lanes of a warp when
// blockDim.x is a multiple of 32 (the usual shape; the checks' docs say so).
bool FunctionDependence::isWarpIndex(const BinaryOperator *BO) {
  auto B = cudaBuiltinComponent(BO->getLHS());
  if (!B || B->first != "__cuda_builtin_threadIdx_t" || B->second != "x")
    return false;
  Expr::EvalResult R;
  const Expr *RHS = BO->getRHS();
  if (RHS->isValueDependent() || !RHS->EvaluateAsInt(R, F->getASTContext()))
    return false;
  int64_t C = R.Val.getInt().getExtValue();
  switch (BO->getOpcode()) {
  case BO_Div:
    return C > 0 && C % 32 == 0;
  case BO_Shr:
    return C >= 5 && C < 32;
  case BO_And:
    return (C & 31) == 0;
  default:
    return false;
  }
}

Dependence FunctionDependence::compute(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          StringLiteral, CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr,
          GNUNullExpr, SizeOfPackExpr>(E))
    return Dependence::Uniform;
  if (E->isValueDependent() || E->isTypeDependent())
    if (isa<UnresolvedLookupExpr, CXXDependentScopeMemberExpr,
            DependentScopeDeclRefExpr>(E))
      return Dependence::Unknown;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (auto R = reachingDependence(DRE, V))
        return *R;
      if (const ForStmt *Loop = resettingLoop(V, DRE))
        return loopVarDependence(V, Loop);
      return varDependence(V);
    }
    return Dependence::Uniform; // functions, enumerators
  }
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E)) {
    // threadIdx.x is an MS property access on the built-in variable.
    return dependence(POE->getSyntacticForm());
  }
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
    return OVE->getSourceExpr() ? dependence(OVE->getSourceExpr())
                                : Dependence::Unknown;
  if (const auto *Prop = dyn_cast<MSPropertyRefExpr>(E))
    return dependence(Prop->getBaseExpr());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dependence(ME->getBase());
  if (isa<CXXThisExpr>(E))
    return Incoming;
  // (Before calls: an operator a template leaves unresolved is judged as the
  // built-in one it stands for.)
  if (auto BO = binaryForm(E)) {
    if (BO->Op == BO_Assign)
      return dependence(BO->RHS);
    Dependence D = join(dependence(BO->LHS), dependence(BO->RHS));
    if (const auto *Builtin = dyn_cast<BinaryOperator>(E);
        Builtin && D == Dependence::ThreadDependent && isWarpIndex(Builtin))
      return Dependence::WarpUniform;
    // Uniformity by value: the thread index cancels (`idx - threadIdx.x`).
    // (Or the block's size does: `(i / blockDim.x) * blockDim.x`.)
    if (D == Dependence::ThreadDependent &&
        (BinaryOperator::isAdditiveOp(BO->Op) ||
         BinaryOperator::isMultiplicativeOp(BO->Op)))
      if (auto P = threadPart(E, 0); P && P->Exact && P->Atoms.empty())
        return P->Rest;
    // The same on both sides of a comparison (`t < end + tid` with `t` from
    // `start + tid` stepping by a uniform amount): it compares the rests.
    if (D == Dependence::ThreadDependent &&
        BinaryOperator::isComparisonOp(BO->Op)) {
      auto L = threadPart(BO->LHS, 0), R = threadPart(BO->RHS, 0);
      if (L && R && L->Exact && R->Exact && !L->Atoms.empty() &&
          L->Atoms == R->Atoms)
        return join(L->Rest, R->Rest);
      // A block-stride counter against a bound padded to the block:
      // `for (i = tid; i < blockDim.x * ((n + blockDim.x - 1) /
      // blockDim.x); i += blockDim.x)` runs the same rounds in every thread.
      if (auto Padded = blockPaddedCompare(*BO))
        return *Padded;
    }
    return D;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    Dependence D = Dependence::Uniform;
    for (const Expr *Arg : Call->arguments())
      D = join(D, dependence(Arg));
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      D = join(D, dependence(MC->getImplicitObjectArgument()));
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return join(D, Dependence::Unknown);
    llvm::SmallVector<const Expr *, 4> Args(Call->arguments());
    if (Callee->getDeclName().isIdentifier())
      if (auto K = knownCallee(Callee->getName())) {
        // A vote or warp reduction over the full warp of values that are
        // the same in lane l of every warp: the same in every warp.
        if (*K == Dependence::WarpUniform && Args.size() == 2) {
          Expr::EvalResult Mask;
          if (!Args[0]->isValueDependent() &&
              Args[0]->EvaluateAsInt(Mask, F->getASTContext()) &&
              Mask.Val.getInt().getZExtValue() == 0xffffffffu &&
              sameInEveryWarp(Args[1]))
            return Dependence::Uniform;
        }
        return *K;
      }
    // A helper that reduces its arguments over the warp
    // (warp_reduce_all(x), warpReduceSum(v)).
    // (Whatever the arguments' dependence, so that the fixed-point
    // iteration stays monotone: uniform arguments give a uniform result.)
    // Block-uniform when every warp reduces the same values and the helper
    // has no source of its own that differs between warps (it is uniform
    // for uniform arguments: no warp id).
    if (Dependence C = Parent.collectiveSummary(Callee); isWarpUniform(C))
      return Parent.calleeSummary(Callee) == Dependence::Uniform &&
                     sameInEveryWarp(Args)
                 ? Dependence::Uniform
                 : C;
    return join(D, Parent.calleeSummary(Callee));
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return join(
        dependence(CO->getCond()),
        join(dependence(CO->getTrueExpr()), dependence(CO->getFalseExpr())));
  if (isa<CXXDefaultArgExpr>(E))
    return dependence(cast<CXXDefaultArgExpr>(E)->getExpr());
  if (isa<StmtExpr, LambdaExpr, BlockExpr>(E))
    return Dependence::Unknown;
  // Casts, subscripts, unary operators, constructors, initialiser lists: the
  // join of what they are made of.
  Dependence D = Dependence::Uniform;
  bool Any = false;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child)) {
      D = join(D, dependence(CE));
      Any = true;
    }
  if (!Any && !isa<CXXConstructExpr, InitListExpr, ImplicitValueInitExpr,
                   CXXScalarValueInitExpr, CastExpr, ArraySubscriptExpr>(E))
    return Dependence::Unknown;
  return D;
}

FunctionDependence &
ThreadDependenceAnalysis::forFunction(const FunctionDecl *F) {
  F = F->getDefinition() ? F->getDefinition() : F;
  auto &Slot = Functions[F];
  if (!Slot)
    Slot = std::make_unique<FunctionDependence>(
        F, *this, /*ParamsUniform=*/F->hasAttr<CUDAGlobalAttr>());
  return *Slot;
}

// The body to read for F: its definition, or, for a specialization of a
// function template that this TU never instantiated, the template's pattern
// (Spec set to F).
static const FunctionDecl *bodyOf(const FunctionDecl *F,
                                  const FunctionDecl *&Spec) {
  Spec = nullptr;
  if (const FunctionDecl *Def = F->getDefinition(); Def && Def->getBody())
    return Def;
  if (F->getTemplateSpecializationArgs())
    if (const FunctionDecl *P = F->getTemplateInstantiationPattern();
        P && P->getBody()) {
      Spec = F;
      return P;
    }
  return nullptr;
}

Dependence ThreadDependenceAnalysis::collectiveSummary(const FunctionDecl *F) {
  const FunctionDecl *Spec;
  const FunctionDecl *Body = bodyOf(F, Spec);
  if (!Body || Body->param_empty() || isa<CXXMethodDecl>(Body))
    return Dependence::Unknown;
  // The cache's key: the specialization when the pattern is read for it.
  const FunctionDecl *Def = Spec ? Spec : Body;
  auto It = Collectives.find(Def);
  if (It != Collectives.end())
    return It->second;
  if (!InProgress.insert(Def).second)
    return Dependence::Unknown; // recursion
  std::unique_ptr<FunctionDependence> &Slot = CollectiveViews[Def];
  if (!Slot) {
    Slot = std::make_unique<FunctionDependence>(
        Body, *this,
        llvm::SmallVector<Dependence, 4>(Body->getNumParams(),
                                         Dependence::ThreadDependent));
    Slot->Specialization = Spec;
  }
  FunctionDependence *FD = Slot.get();
  Dependence D = Dependence::Uniform;
  bool Any = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      Any = true;
      D = join(D, R->getRetValue() ? FD->dependence(R->getRetValue())
                                   : Dependence::Unknown);
      D = join(D, FD->guardOf(R).D);
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body->getBody());
  InProgress.erase(Def);
  if (!Any)
    D = Dependence::Unknown;
  Collectives[Def] = D;
  return D;
}

Dependence ThreadDependenceAnalysis::calleeSummary(const FunctionDecl *F) {
  const FunctionDecl *Spec;
  const FunctionDecl *Body = bodyOf(F, Spec);
  if (!Body) {
    // No body: a pure function of its arguments when it comes with the
    // toolkit or the compiler, otherwise we cannot tell.
    const auto &SM = F->getASTContext().getSourceManager();
    return SM.isInSystemHeader(F->getLocation()) || F->getBuiltinID()
               ? Dependence::Uniform
               : Dependence::Unknown;
  }
  const FunctionDecl *Def = Spec ? Spec : Body;
  auto It = Summaries.find(Def);
  if (It != Summaries.end())
    return It->second;
  if (!InProgress.insert(Def).second)
    return Dependence::Unknown; // recursion
  // What the callee's returns depend on with its parameters uniform; the
  // caller joins in its arguments.
  // A pointer, not a reference into SummaryViews: the walk below recurses
  // into other callees' summaries, whose insertions may grow the map.
  std::unique_ptr<FunctionDependence> &Slot = SummaryViews[Def];
  if (!Slot) {
    Slot = std::make_unique<FunctionDependence>(Body, *this,
                                                /*ParamsUniform=*/true);
    Slot->Specialization = Spec;
  }
  FunctionDependence *FD = Slot.get();
  Dependence D = Dependence::Uniform;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      if (const Expr *V = R->getRetValue())
        D = join(D, FD->dependence(V));
      D = join(D, FD->guardOf(R).D);
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body->getBody());
  InProgress.erase(Def);
  Summaries[Def] = D;
  return D;
}

FunctionDependence &
ThreadDependenceAnalysis::forContext(const FunctionDecl *F,
                                     llvm::ArrayRef<Dependence> Args) {
  F = F->getDefinition() ? F->getDefinition() : F;
  std::vector<int> Key;
  for (Dependence D : Args)
    Key.push_back(int(D));
  auto &Slot = Contexts[{F, Key}];
  if (!Slot)
    Slot = std::make_unique<FunctionDependence>(F, *this, Args);
  return *Slot;
}

} // namespace warplint
