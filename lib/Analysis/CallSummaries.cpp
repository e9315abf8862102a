// The interprocedural part of the affine analysis: a callee's parameters
// bound to its call's arguments, and its accesses summarised per context.
#include "Analysis/AffineIndex.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>

using namespace clang;

namespace warplint {

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

std::vector<MemoryAccess>
AffineAnalysis::accessesInCall(const CallExpr *Call,
                               const FunctionDecl *Caller) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->getBody())
    return {};
  llvm::DenseMap<const ParmVarDecl *, AffineForm> Params;
  llvm::DenseMap<const ParmVarDecl *, Address> PtrParams;
  bindArguments(Call, Def, Env{Caller, nullptr, nullptr, 0}, Params, PtrParams);
  return accessesIn(Def, Env{Def, &Params, &PtrParams, 1});
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
    else if (auto It = PtrParams.find(P);
             It != PtrParams.end() && It->second.Known)
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
    for (const auto &M : match(
             functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("k"),
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
    bool Shareable = !(Method && Method->getParent()->isLambda()) &&
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

} // namespace warplint
