#include "Analysis/ThreadDependence.h"
#include "Analysis/Budget.h"
#include "Analysis/DeclRefs.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace warplint {

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

// An assignment, `x = v` or `x += v`: built in, or, in a template as
// written, an operator call left unresolved (a definition all the same).
static std::optional<BinaryForm> assignmentForm(const Stmt *S) {
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
static const Expr *incDecOperand(const Stmt *S) {
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->isIncrementDecrementOp() ? UO->getSubExpr() : nullptr;
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
  if (!Op || Op->getNumArgs() < 1 || !Op->isTypeDependent() ||
      !isa<UnresolvedLookupExpr>(Op->getCallee()->IgnoreImplicit()) ||
      (Op->getOperator() != OO_PlusPlus && Op->getOperator() != OO_MinusMinus))
    return nullptr;
  return Op->getArg(0);
}

namespace {

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

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

// Whether Exit can leave, or skip the rest of an iteration of, Loop: a
// break or continue only acts on its innermost loop (a break in a switch on
// the switch); a return or goto on every loop around it.
template <typename ParentFn>
bool exitsLoop(const Stmt *Exit, const Stmt *Loop, ParentFn Parent) {
  bool IsBreak = isa<BreakStmt>(Exit), IsContinue = isa<ContinueStmt>(Exit);
  for (const Stmt *P = Parent(Exit); P; P = Parent(P)) {
    if (P == Loop)
      return true;
    if ((IsBreak || IsContinue) && isLoop(P))
      return false;
    if (IsBreak && isa<SwitchStmt>(P))
      return false;
  }
  return false;
}

} // namespace

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
        QualType PT = Callee->getParamDecl(I)->getType();
        if (PT->isReferenceType() && !PT->getPointeeType().isConstQualified())
          if (const VarDecl *V = localVar(Call->getArg(I), F))
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
    if (D == Dependence::ThreadDependent &&
        BinaryOperator::isAdditiveOp(BO->Op))
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

Dependence FunctionDependence::loopDependence(const Stmt *Loop) {
  if (LoopsInProgress.count(Loop)) {
    // While this loop is being judged, a query that comes back to it sees
    // Unknown rather than recursing.
    ++CutOffs;
    return Dependence::Unknown;
  }
  auto Cached = LoopCache.find(Loop);
  if (Cached != LoopCache.end())
    return Cached->second;
  unsigned Before = CutOffs;
  LoopsInProgress.insert(Loop);
  Dependence D = Dependence::Uniform;
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    D = For->getCond() ? dependence(For->getCond()) : Dependence::Uniform;
  else if (const auto *While = dyn_cast<WhileStmt>(Loop))
    D = dependence(While->getCond());
  else if (const auto *Do = dyn_cast<DoStmt>(Loop))
    D = dependence(Do->getCond());
  else
    D = Dependence::Unknown;
  // A break, continue or return under a thread-dependent condition inside
  // the loop lets threads leave or skip iterations at different times.
  for (const Stmt *Exit : loopExits(Loop))
    D = join(D, enclosingGuard(Exit, Loop).D);
  LoopsInProgress.erase(Loop);
  if (CutOffs == Before)
    LoopCache[Loop] = D;
  return D;
}

llvm::SmallVector<const Stmt *, 4>
FunctionDependence::enclosingBranches(const Stmt *S, const Stmt *Stop) const {
  llvm::SmallVector<const Stmt *, 4> Out;
  const Stmt *Child = S;
  for (const Stmt *P = parent(S); P && P != Stop; Child = P, P = parent(P)) {
    bool InBody = false;
    if (const auto *If = dyn_cast<IfStmt>(P))
      InBody = Child == If->getThen() || Child == If->getElse();
    else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P))
      InBody = Child != CO->getCond();
    else if (const auto *BO = dyn_cast<BinaryOperator>(P))
      InBody = BO->isLogicalOp() && Child == BO->getRHS();
    else if (const auto *Sw = dyn_cast<SwitchStmt>(P))
      InBody = Child != Sw->getCond() && Child != Sw->getInit();
    else if (const auto *For = dyn_cast<ForStmt>(P))
      InBody = Child != For->getInit();
    else
      InBody = isLoop(P);
    if (InBody)
      Out.push_back(P);
  }
  return Out;
}

FunctionDependence::Guard FunctionDependence::enclosingGuard(const Stmt *S,
                                                             const Stmt *Stop) {
  Guard G;
  for (const Stmt *P : enclosingBranches(S, Stop)) {
    Dependence D = isLoop(P) ? loopDependence(P) : dependence(conditionOf(P));
    if (D > G.D) {
      G.D = D;
      G.Where = P;
    }
  }
  return G;
}

FunctionDependence::Guard
FunctionDependence::definitionGuard(const VarDecl *V, const Stmt *Site) {
  auto It = DeclaredIn.find(V);
  // Parameters and variables declared outside the walked body: the whole
  // function is their scope.
  const Stmt *Scope = It == DeclaredIn.end() ? nullptr : parent(It->second);
  return enclosingGuard(Site, Scope);
}

FunctionDependence::Guard FunctionDependence::guardOf(const Stmt *S) {
  auto Cached = GuardCache.find(S);
  if (Cached != GuardCache.end())
    return Cached->second;
  unsigned Before = CutOffs;
  Guard G = enclosingGuard(S, nullptr);
  auto Consider = [&](Dependence D, const Stmt *Where) {
    if (D > G.D) {
      G.D = D;
      G.Where = Where;
    }
  };
  // Early exits before S: threads that left a device function, or skipped
  // ahead with goto, do not arrive at S with the others.
  for (const Stmt *Exit : exitsBefore(S))
    Consider(earlyExitDependence(Exit), Exit);
  // Variables are solved by iterating to a fixed point: a guard computed in
  // the middle of that may still rise, so only final answers are kept.
  if (!Solving && CutOffs == Before)
    GuardCache[S] = G;
  return G;
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

const Expr *FunctionDependence::conditionOf(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getCond();
  if (const auto *For = dyn_cast<ForStmt>(S))
    return For->getCond();
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return While->getCond();
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return Do->getCond();
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return Sw->getCond();
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    return CO->getCond();
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isLogicalOp() ? BO->getLHS() : nullptr;
  return nullptr;
}

llvm::SmallVector<FunctionDependence::GuardSite, 4>
FunctionDependence::guardSites(const Stmt *S) {
  llvm::SmallVector<GuardSite, 4> Out;
  auto Add = [&](GuardKind K, Dependence D, const Stmt *Where,
                 const Stmt *Exit = nullptr) {
    if (D != Dependence::Uniform)
      Out.push_back({K, D, Where, Exit});
  };
  for (const Stmt *P : enclosingBranches(S, nullptr)) {
    if (!isLoop(P)) {
      Add(GuardKind::Branch, dependence(conditionOf(P)), P);
      continue;
    }
    const Expr *Cond = conditionOf(P);
    Add(GuardKind::Loop,
        isa<CXXForRangeStmt>(P) ? Dependence::Unknown
        : Cond                  ? dependence(Cond)
                                : Dependence::Uniform,
        P);
    // An exit inside the loop under a divergent branch: some threads
    // leave or skip an iteration that others run.
    for (const Stmt *Exit : loopExits(P))
      Add(GuardKind::Loop, enclosingGuard(Exit, P).D, P, Exit);
  }
  // Early exits before S that leave the threads alive: a return from a
  // __device__ function goes back to its caller, which runs on.
  for (const Stmt *Exit : exitsBefore(S))
    Add(GuardKind::EarlyExit, earlyExitDependence(Exit), Exit, Exit);
  return Out;
}

llvm::SmallVector<const Stmt *, 4>
FunctionDependence::loopExits(const Stmt *Loop) const {
  llvm::SmallVector<const Stmt *, 4> Out;
  for (const Stmt *Exit : Exits)
    if (!(isa<ReturnStmt>(Exit) && isKernel()) && // exited threads wait
        exitsLoop(Exit, Loop, [&](const Stmt *S) { return parent(S); }))
      Out.push_back(Exit);
  return Out;
}

llvm::SmallVector<const Stmt *, 4>
FunctionDependence::exitsBefore(const Stmt *S) const {
  llvm::SmallVector<const Stmt *, 4> Out;
  SourceLocation Here = S->getBeginLoc();
  const auto &SM = F->getASTContext().getSourceManager();
  for (const Stmt *Exit : Exits) {
    if (isa<BreakStmt, ContinueStmt>(Exit))
      continue; // judged with the loop around S
    if (isa<ReturnStmt>(Exit) && isKernel())
      continue;
    if (Exit->getBeginLoc().isValid() && Here.isValid() &&
        SM.isBeforeInTranslationUnit(Exit->getBeginLoc(), Here))
      Out.push_back(Exit);
  }
  return Out;
}

Dependence FunctionDependence::earlyExitDependence(const Stmt *Exit) {
  if (isa<GotoStmt, IndirectGotoStmt>(Exit))
    return Dependence::Unknown; // where it lands is not followed
  return enclosingGuard(Exit, nullptr).D;
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
  Into.Exact &= P.Exact;
}

bool isBlockDim(const Expr *E) {
  auto B = cudaBuiltinComponent(E);
  return B && B->first == "__cuda_builtin_blockDim_t";
}

} // namespace

bool FunctionDependence::runsTogether(const Stmt *Site, const Stmt *Scope,
                                      const Stmt *Judged) {
  for (const Stmt *P : enclosingBranches(Site, Scope)) {
    if (isLoop(P)) {
      if (P == Judged)
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
  // The loop whose condition holds Use: its own steps are taken together
  // while its condition is, which is what is being judged (induction).
  const Stmt *Judged = nullptr;
  for (const Stmt *C = Use, *P = parent(Use); P && !Judged;
       C = P, P = parent(P))
    if (isLoop(P) && C == conditionOf(P))
      Judged = P;
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
  return Base;
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
      if (!Var.Atoms.empty()) { // an atom times a constant
        Expr::EvalResult C;
        if (Other->isValueDependent() ||
            !Other->EvaluateAsInt(C, F->getASTContext()))
          return std::nullopt;
        for (auto &[K, N] : Var.Atoms)
          Out.Atoms[K] = N * C.Val.getInt().getExtValue();
        Out.RestBlockMultiple = Var.RestBlockMultiple;
        Out.Exact = Var.Exact;
      }
      return Out;
    }
    if (Op == BO_Div || Op == BO_Shr) {
      auto L = threadPart(BO->LHS, Depth + 1);
      if (!L)
        return std::nullopt;
      Dependence DR = dependence(BO->RHS);
      if (DR != Dependence::Uniform)
        return std::nullopt;
      if (L->Atoms.empty()) {
        L->RestBlockMultiple = false;
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
      Out.RestBlockMultiple = false;
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
  P.RestBlockMultiple = (Lit && Lit->getValue() == 0) || isBlockDim(E);
  return P;
}

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

} // namespace warplint
