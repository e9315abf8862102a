#include "checks/host/TransferInLoopCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/Calls.h"
#include "Analysis/DeclRefs.h"
#include "Analysis/Launches.h"
#include "Analysis/Loops.h"
#include "Analysis/ThreadDependence.h"
#include "Analysis/TripCounts.h"
#include "Support/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <optional>

using namespace clang;

namespace warplint::host {

namespace {

enum class OpKind { Copy, Sync, Alloc, Free, SetDevice };

// A kernel whose threads each run this many rounds of a loop (ethash's 256
// parents a DAG item) likely runs far longer than the host round trip a
// synchronization adds to an iteration (bench/gpu/run_sync_in_loop.sh
// measures both; not yet run on a device).
constexpr uint64_t LongThreadRounds = 256;

// A runtime call the check knows: which arguments hold a copy's source
// (the destination is the first), its size (Size x Size2 for the 2D copy)
// and its cudaMemcpyKind, and an allocation's size.
struct RuntimeCall {
  llvm::StringLiteral Name;
  OpKind Kind;
  int Src = -1, Size = -1, Size2 = -1, Direction = -1;
  bool Pinned = false; // page-locked host memory
};

const RuntimeCall RuntimeCalls[] = {
    {"cudaMemcpy", OpKind::Copy, 1, 2, -1, 3},
    {"cudaMemcpy2D", OpKind::Copy, 2, 4, 5, 6},
    {"cudaMemcpyToSymbol", OpKind::Copy, 1, 2, -1, 4},
    {"cudaMemcpyFromSymbol", OpKind::Copy, 1, 2, -1, 4},
    {"cudaDeviceSynchronize", OpKind::Sync},
    {"cudaThreadSynchronize", OpKind::Sync},
    {"cudaMalloc", OpKind::Alloc, -1, 1},
    {"cudaMallocPitch", OpKind::Alloc, -1, 2, 3},
    {"cudaMallocManaged", OpKind::Alloc, -1, 1},
    {"cudaMallocHost", OpKind::Alloc, -1, 1, -1, -1, true},
    {"cudaHostAlloc", OpKind::Alloc, -1, 1, -1, -1, true},
    {"cudaFree", OpKind::Free},
    {"cudaFreeHost", OpKind::Free, -1, -1, -1, -1, true},
    {"cudaSetDevice", OpKind::SetDevice},
};

const RuntimeCall *runtimeCall(const CallExpr *Call) {
  llvm::StringRef Name = globalCalleeName(Call);
  if (Name.empty())
    return nullptr;
  for (const RuntimeCall &R : RuntimeCalls)
    if (R.Name == Name)
      return &R;
  return nullptr;
}

// The cudaMemcpyKind enumerator a copy names, or "" when it is computed.
llvm::StringRef direction(const CallExpr *Call, const RuntimeCall &R) {
  const Expr *E = callArgument(Call, R.Direction);
  if (!E)
    return {};
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
    if (const auto *C = dyn_cast<EnumConstantDecl>(Ref->getDecl()))
      return C->getName();
  return {};
}

bool isDeviceSide(const FunctionDecl *F) {
  return F->hasAttr<CUDAGlobalAttr>() ||
         (F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAHostAttr>());
}

std::string quotedName(const CallExpr *Call) {
  return "'" + Call->getDirectCallee()->getQualifiedNameAsString() + "'";
}

// Whether S makes a call for which Pred holds (lambdas left out: their
// bodies run where they are called, not where written).
bool anyCall(const Stmt *S, llvm::function_ref<bool(const CallExpr *)> Pred) {
  return findStmt(S, WalkOptions(), [&](const Stmt *N) {
    const auto *Call = dyn_cast<CallExpr>(N);
    return Call && Pred(Call);
  });
}

// A call that reads a clock (a timer, an event record, a time function):
// the code around it measures itself.
bool readsClock(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || !F->getDeclName().isIdentifier())
    return false;
  std::string Name = F->getName().lower();
  if (const auto *M = dyn_cast<CXXMethodDecl>(F))
    Name += " " + llvm::StringRef(M->getParent()->getNameAsString()).lower();
  return F->getName() == "cudaEventRecord" ||
         llvm::StringRef(Name).contains("time") ||
         llvm::StringRef(Name).contains("clock");
}

// Whether the value a small copy writes into Dst decides what the code
// does next: a condition (a convergence test, a break) or a launch (its
// shape or an argument) reads it, or a value computed from it (grid.x =
// blocksFor(count)).
bool steers(const ValueDecl *Dst, const Stmt *Scope, const CallExpr *Copy) {
  DeclSet Tainted;
  Tainted.insert(Dst);
  for (int Round = 0; Round < 2; ++Round)
    forEachStmt(Scope, [&](const Stmt *N) {
      if (const auto *B = dyn_cast<BinaryOperator>(N)) {
        if (B->isAssignmentOp() && referencesAny(B->getRHS(), Tainted))
          if (const ValueDecl *L = baseDecl(B->getLHS()))
            Tainted.insert(L);
      } else if (const auto *DS = dyn_cast<DeclStmt>(N)) {
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D))
            if (V->getInit() && referencesAny(V->getInit(), Tainted))
              Tainted.insert(V);
      }
    });
  bool Found = false;
  forEachStmt(Scope, [&](const Stmt *N) {
    const Stmt *Cond = FunctionDependence::conditionOf(N);
    // A launch's shape or its arguments: the next launch needs the value
    // (srad's q0sqr, from the sums it reads back), so the copy cannot leave
    // the loop.
    if (const auto *L = dyn_cast<CallExpr>(N); L && isLaunch(L))
      Cond = L;
    else if (const auto *R = dyn_cast<ReturnStmt>(N))
      Cond = R->getRetValue();
    // The copy's own error check (if (cudaMemcpy(&x, ...) != cudaSuccess))
    // does not read the value.
    Found |= Cond && referencesAny(Cond, Tainted, Copy);
  });
  return Found;
}

std::string kernelName(const CallExpr *Launch, const ASTContext &Ctx) {
  if (const FunctionDecl *K = launchSite(Launch).Kernel)
    return "'" + K->getNameAsString() + "'";
  if (const auto *L = dyn_cast<CUDAKernelCallExpr>(Launch))
    return "'" + sourceText(L->getCallee(), Ctx) + "'";
  return "a kernel";
}

std::string bytesText(uint64_t Bytes) {
  std::string Out = std::to_string(Bytes) + (Bytes == 1 ? " byte" : " bytes");
  auto Scaled = [](double V, const char *Unit) {
    return V == double(uint64_t(V))
               ? llvm::formatv(" ({0} {1})", uint64_t(V), Unit).str()
               : llvm::formatv(" ({0:F1} {1})", V, Unit).str();
  };
  if (Bytes >= (1u << 20))
    Out += Scaled(Bytes / double(1u << 20), "MiB");
  else if (Bytes >= 1024)
    Out += Scaled(Bytes / 1024.0, "KiB");
  return Out;
}

// Where the walk stands: the loops and taken then-branches around a call.
struct Frame {
  const Stmt *S;
  bool Loop;
};

struct Event {
  TransferInLoopCheck::Reach R;
  bool Launch;
  const RuntimeCall *Runtime; // null for a launch
  llvm::SmallVector<Frame, 4> Frames;
};

// Collects the launches and runtime calls of one function body, with the
// loops and branches around each; a call of the TU's own host function is
// replaced by what that function reaches.
class Walker {
public:
  using SummaryFn =
      llvm::function_ref<TransferInLoopCheck::Summary(const FunctionDecl *)>;
  Walker(const FunctionDecl *F, const ASTContext &Ctx, SummaryFn Summarise)
      : F(F), Ctx(Ctx), Summarise(Summarise) {}

  std::vector<Event> Events;

  // Lambdas are left out: their bodies run where they are called. A loop or
  // an if is walked part by part, each under the frames it runs in.
  void visit(const Stmt *Root) {
    forEachStmt(Root, [&](const Stmt *S) {
      if (const auto *For = dyn_cast<ForStmt>(S)) {
        visit(For->getInit());
        inLoop(For, {For->getCond(), For->getInc(), For->getBody()});
      } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
        inLoop(W,
               {W->getConditionVariableDeclStmt(), W->getCond(), W->getBody()});
      } else if (const auto *D = dyn_cast<DoStmt>(S)) {
        if (runsBodyOnce(D, Ctx))
          visit(D->getBody());
        else
          inLoop(D, {D->getBody(), D->getCond()});
      } else if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) {
        visit(R->getInit());
        visit(R->getRangeInit());
        inLoop(R, {R->getBody()});
      } else if (const auto *If = dyn_cast<IfStmt>(S)) {
        visit(If->getInit());
        visit(If->getConditionVariableDeclStmt());
        visit(If->getCond());
        Frames.push_back({If, false});
        visit(If->getThen());
        Frames.pop_back();
        visit(If->getElse());
      } else {
        if (const auto *Call = dyn_cast<CallExpr>(S))
          call(Call);
        return WalkStep::Continue;
      }
      return WalkStep::SkipChildren;
    });
  }

private:
  void inLoop(const Stmt *Loop, std::initializer_list<const Stmt *> Parts) {
    Frames.push_back({Loop, true});
    for (const Stmt *P : Parts)
      visit(P);
    Frames.pop_back();
  }

  void add(const CallExpr *Site, const CallExpr *Inner,
           const FunctionDecl *InnerFn, const RuntimeCall *Runtime) {
    Events.push_back(
        {{Site, Inner, InnerFn},
         Runtime == nullptr,
         Runtime,
         llvm::SmallVector<Frame, 4>(Frames.begin(), Frames.end())});
  }

  void call(const CallExpr *Call) {
    if (isLaunch(Call))
      return add(Call, Call, F, nullptr);
    if (const RuntimeCall *R = runtimeCall(Call))
      return add(Call, Call, F, R);
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    const SourceManager &SM = Ctx.getSourceManager();
    if (!Callee || !Callee->hasBody(Def) || isDeviceSide(Def) ||
        SM.isInSystemHeader(SM.getFileLoc(Def->getLocation())))
      return;
    TransferInLoopCheck::Summary S = Summarise(Def);
    if (S.Launch)
      add(Call, S.Launch->Inner, S.Launch->InnerFn, nullptr);
    for (const TransferInLoopCheck::Reach &B : S.Blocking)
      add(Call, B.Inner, B.InnerFn, runtimeCall(B.Inner));
  }

  const FunctionDecl *F;
  const ASTContext &Ctx;
  SummaryFn Summarise;
  llvm::SmallVector<Frame, 8> Frames;
};

bool inside(const Event &E, const Stmt *Loop) {
  return llvm::any_of(E.Frames, [&](const Frame &Fr) { return Fr.S == Loop; });
}

// Whether a then-branch between the loop (at LoopIndex of the frames; all
// of them without one) and the call makes it run once.
bool guardedOnce(const Event &E, const Stmt *Loop, size_t LoopIndex) {
  for (size_t I = Loop ? LoopIndex + 1 : 0; I < E.Frames.size(); ++I)
    if (!E.Frames[I].Loop && runsOnceInLoop(cast<IfStmt>(E.Frames[I].S), Loop))
      return true;
  return false;
}

} // namespace

TransferInLoopCheck::TransferInLoopCheck(llvm::StringRef Name,
                                         CheckContext &Ctx)
    : FunctionCheck(Name, Ctx),
      SmallCopyBytes(Options.get("SmallCopyBytes", int64_t(65536))),
      MinIterations(Options.get("MinIterations", int64_t(16))) {}

void TransferInLoopCheck::storeOptions(CheckOptionMap &Opts) const {
  Opts[Name + ".SmallCopyBytes"] = std::to_string(SmallCopyBytes);
  Opts[Name + ".MinIterations"] = std::to_string(MinIterations);
}

void TransferInLoopCheck::checkFunction(const FunctionDecl *F) {
  if (!isDeviceSide(F))
    analyse(F, 0, /*Report=*/true);
}

void TransferInLoopCheck::finishTranslationUnit() {
  Summaries.clear();
  HotLoops.clear();
  WaitingLoops.clear();
}

TransferInLoopCheck::Summary TransferInLoopCheck::summary(const FunctionDecl *F,
                                                          unsigned Depth) {
  auto Key = std::make_pair(F, Depth);
  auto [It, New] = Summaries.try_emplace(Key);
  if (!New)
    return It->second; // done, or in progress (a recursive call)
  Summary S = analyse(F, Depth, /*Report=*/false);
  Summaries[Key] = S;
  return S;
}

TransferInLoopCheck::Summary TransferInLoopCheck::analyse(const FunctionDecl *F,
                                                          unsigned Depth,
                                                          bool Report) {
  auto Summarise = [&](const FunctionDecl *Callee) {
    return Depth < MaxHostCallDepth ? summary(Callee, Depth + 1) : Summary();
  };
  Walker W(F, context().astContext(), Summarise);
  W.visit(F->getBody());

  Summary Out;
  llvm::SmallVector<Pending, 8> Found;
  // A function that times itself is a benchmark: what it does is measured
  // on purpose, and not held against the loops that call it.
  bool Timed = anyCall(F->getBody(), readsClock);
  for (const Event &E : W.Events) {
    if (E.Launch) {
      if (!Out.Launch)
        Out.Launch = E.R;
      continue;
    }
    if (E.Runtime->Kind == OpKind::SetDevice)
      continue;
    // The innermost loop around the call that also launches.
    const Event *Launch = nullptr;
    size_t LoopIndex = E.Frames.size();
    while (!Launch && LoopIndex-- > 0) {
      if (!E.Frames[LoopIndex].Loop)
        continue;
      for (const Event &L : W.Events)
        if (L.Launch && inside(L, E.Frames[LoopIndex].S)) {
          Launch = &L;
          break;
        }
    }
    if (!Launch) {
      // Not in a loop that launches here: a loop of a caller may.
      if (smallSteeringRead(E.R, F->getBody()))
        Out.Waits |= E.R.Site == E.R.Inner && E.Frames.empty();
      else if (!Timed && !guardedOnce(E, nullptr, 0))
        Out.Blocking.push_back(E.R);
      continue;
    }
    const Stmt *Loop = E.Frames[LoopIndex].S;
    if (!Report || guardedOnce(E, Loop, LoopIndex) ||
        !isHot(Loop, F->getBody()))
      continue;
    // An allocation is churn when the loop frees too (not when it sets up
    // one buffer per iteration, nor inside one self-contained helper call).
    const Reach *Freed = nullptr;
    if (E.Runtime->Kind == OpKind::Alloc) {
      for (const Event &Other : W.Events)
        if (!Other.Launch && Other.Runtime->Kind == OpKind::Free &&
            Other.Runtime->Pinned == E.Runtime->Pinned && inside(Other, Loop) &&
            (E.R.Site == E.R.Inner || Other.R.Site != E.R.Site)) {
          Freed = &Other.R;
          break;
        }
      if (!Freed)
        continue;
    }
    Pending P{&E.R, Loop, &Launch->R, Freed};
    if (E.Runtime->Kind == OpKind::Sync)
      for (const Event &L : W.Events)
        if (L.Launch && inside(L, Loop))
          if (const FunctionDecl *K = launchSite(L.R.Inner).Kernel)
            if (const LongLoop &Long = longThreadLoop(K); Long.Loop) {
              P.LongLaunch = &L.R;
              P.Long = &Long;
              break;
            }
    Found.push_back(P);
  }
  report(Found, F, Depth);
  return Out;
}

std::optional<uint64_t> TransferInLoopCheck::bytes(const Reach &Op) {
  const CallExpr *Copy = Op.Inner;
  const RuntimeCall &R = *runtimeCall(Copy);
  AffineAnalysis &A = context().affine();
  const Stmt *Body = Op.InnerFn ? Op.InnerFn->getBody() : nullptr;
  // Through a local assigned constants only: `size = sizeof(float) * 1`.
  auto ValueOf = [&](int Index) {
    return constantThroughLocals(
        callArgument(Copy, Index), Body,
        [&](const Expr *E) { return A.literalValueOf(E); });
  };
  std::optional<uint64_t> N = ValueOf(R.Size);
  if (!N || R.Size2 < 0)
    return N;
  std::optional<uint64_t> M = ValueOf(R.Size2);
  return M ? std::optional<uint64_t>(*N * *M) : std::nullopt;
}

const TransferInLoopCheck::LongLoop &
TransferInLoopCheck::longThreadLoop(const FunctionDecl *Kernel) {
  static const LongLoop None;
  const FunctionDecl *Def = nullptr;
  if (!Kernel->hasBody(Def))
    return None;
  auto [It, New] = LongLoops.try_emplace(Def);
  if (!New)
    return It->second;
  const ASTContext &AST = context().astContext();
  AffineAnalysis &A = context().affine();
  FunctionDependence &Dep = context().threadDependence().forFunction(Def);
  LongLoop Found;
  // Rounds: how many times the loops around S run it.
  std::function<void(const Stmt *, uint64_t)> Walk = [&](const Stmt *S,
                                                         uint64_t Rounds) {
    if (!S || Found.Loop || isa<LambdaExpr>(S))
      return;
    if (isLoop(S)) {
      const Expr *Cond = FunctionDependence::conditionOf(S);
      std::optional<uint64_t> N = constantTripCount(
          S, AST, [&](const Expr *E) { return A.literalValueOf(E); });
      if (N) {
        Rounds = *N >= LongThreadRounds
                     ? *N
                     : std::min(Rounds * std::max<uint64_t>(*N, 1), uint64_t(1)
                                                                        << 32);
        if (Rounds >= LongThreadRounds) {
          Found = {S, std::to_string(Rounds) + " rounds"};
          return;
        }
      } else if (isGeometric(S)) {
        Rounds = std::min<uint64_t>(Rounds * GeometricTrips, uint64_t(1) << 32);
      } else if (Cond && !Cond->isValueDependent() &&
                 !Cond->isEvaluatable(AST) &&
                 Dep.dependence(Cond) == Dependence::Uniform) {
        Found = {S, "a count known at run time ('" +
                        context().sourceText(Cond) +
                        "'), the same in every thread"};
        return;
      }
    }
    for (const Stmt *C : S->children())
      Walk(C, Rounds);
  };
  Walk(Def->getBody(), 1);
  return LongLoops[Def] = std::move(Found);
}

bool TransferInLoopCheck::isSmallDeviceToHost(const Reach &Op) {
  const RuntimeCall &R = *runtimeCall(Op.Inner);
  if (R.Kind != OpKind::Copy ||
      direction(Op.Inner, R) != "cudaMemcpyDeviceToHost")
    return false;
  std::optional<uint64_t> N = bytes(Op);
  return N && *N <= uint64_t(SmallCopyBytes);
}

bool TransferInLoopCheck::smallSteeringRead(const Reach &Op,
                                            const Stmt *Scope) {
  if (!isSmallDeviceToHost(Op))
    return false;
  // Through a helper: its result is the test (while (!converged(...))).
  if (Op.Site != Op.Inner)
    return steersThroughCall(Op.Site, Scope);
  const ValueDecl *Dst = baseDecl(callArgument(Op.Inner, 0));
  return Dst && steers(Dst, Scope, Op.Inner);
}

bool TransferInLoopCheck::steersThroughCall(const CallExpr *Site,
                                            const Stmt *Scope) {
  bool Found = false;
  forEachStmt(Scope, [&](const Stmt *N) {
    if (const Expr *Cond = FunctionDependence::conditionOf(N))
      Found |= containsStmt(Cond, Site);
  });
  if (Found)
    return true;
  // status = step(...); ... while (status != DONE)
  bool Assigned = false;
  forEachStmt(Scope, [&](const Stmt *N) {
    if (const auto *B = dyn_cast<BinaryOperator>(N))
      if (B->isAssignmentOp() && B->getRHS()->IgnoreParenImpCasts() == Site)
        if (const ValueDecl *D = baseDecl(B->getLHS()))
          Assigned |= steers(D, Scope, Site);
  });
  return Assigned;
}

bool TransferInLoopCheck::isHot(const Stmt *Loop, const Stmt *Body) {
  auto [It, New] = HotLoops.try_emplace(Loop, false);
  if (New)
    It->second = judgeLoop(Loop, Body);
  return It->second;
}

bool TransferInLoopCheck::judgeLoop(const Stmt *Loop, const Stmt *Body) {
  // A fixed handful of iterations: a list of block sizes, kernels, levels.
  AffineAnalysis &A = context().affine();
  if (std::optional<uint64_t> N =
          constantTripCount(Loop, context().astContext(),
                            [&](const Expr *E) { return A.literalValueOf(E); });
      N && *N < uint64_t(MinIterations))
    return false;
  // log2(n) passes: mipmap levels, reduction passes, problem sizes.
  if (isGeometric(Loop))
    return false;
  // A loop that times itself measures what it does on purpose.
  if (anyCall(Loop, readsClock))
    return false;
  // A benchmark's repetitions between a timer start and stop: the same work
  // run again and again, measured as written (a synchronous baseline).
  if (repeatsSameWork(Loop) && bracketedBy(Body, Loop, [](const Stmt *S) {
        return anyCall(S, readsClock);
      }))
    return false;
  // A loop over the GPUs sets up another device each iteration.
  if (anyCall(Loop, [](const CallExpr *C) {
        const RuntimeCall *R = runtimeCall(C);
        return R && R->Kind == OpKind::SetDevice;
      }))
    return false;
  // A loop over problem sizes: a whole buffer, of a size that the loop
  // steps, copied or allocated anew each iteration (not a chunk of one
  // buffer at an offset the loop steps, which is a pipeline).
  DeclSet Counters = loopCounters(Loop);
  return !anyCall(Loop, [&](const CallExpr *C) {
    const RuntimeCall *R = runtimeCall(C);
    if (!R || (R->Kind != OpKind::Copy && R->Kind != OpKind::Alloc))
      return false;
    auto Steps = [&](int I) {
      const Expr *E = callArgument(C, I);
      return E && referencesAny(E, Counters);
    };
    return (Steps(R->Size) || Steps(R->Size2)) && !Steps(0) && !Steps(R->Src);
  });
}

// Whether the host produces the data of Copy (a host-to-device copy made in
// Loop) in Loop itself: it declares the source from a call or assigns it
// (frame = next_frame()), writes into it (h[i] = ...), or hands it to a
// function that may fill it (fread(h, ...)); the runtime's own calls left
// out.
static bool producedInLoop(const CallExpr *Copy, const RuntimeCall &R,
                           const Stmt *Loop) {
  const ValueDecl *Src = baseDecl(callArgument(Copy, R.Src));
  if (!Src)
    return false;
  bool Found = false;
  forEachStmt(Loop, [&](const Stmt *N) {
    const auto *Call = dyn_cast<CallExpr>(N);
    if (Call && globalCalleeName(Call).starts_with("cuda"))
      return WalkStep::SkipChildren;
    if (const auto *B = dyn_cast<BinaryOperator>(N)) {
      Found |= B->isAssignmentOp() && baseDecl(B->getLHS()) == Src;
    } else if (const auto *DS = dyn_cast<DeclStmt>(N)) {
      // float *frame = next_frame(i);
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V == Src && V->getInit())
          Found |= findStmt(V->getInit(), WalkOptions(), [](const Stmt *I) {
                     return isa<CallExpr>(I);
                   }) != nullptr;
    } else if (const auto *U = dyn_cast<UnaryOperator>(N)) {
      Found |= U->isIncrementDecrementOp() && baseDecl(U->getSubExpr()) == Src;
    } else if (Call) {
      for (const Expr *Arg : Call->arguments()) {
        QualType T = Arg->getType();
        bool MayWrite =
            T->isPointerType() && !T->getPointeeType().isConstQualified();
        Found |= MayWrite && baseDecl(Arg) == Src;
      }
    }
    return Found ? WalkStep::Stop : WalkStep::Continue;
  });
  return Found;
}

bool TransferInLoopCheck::waitsEachIteration(const Stmt *Loop,
                                             const FunctionDecl *F,
                                             unsigned Depth) {
  auto [It, New] = WaitingLoops.try_emplace(Loop, false);
  if (!New)
    return It->second;
  const SourceManager &SM = context().astContext().getSourceManager();
  bool Waits = anyCall(Loop, [&](const CallExpr *C) {
    if (const RuntimeCall *R = runtimeCall(C))
      return R->Kind == OpKind::Copy && smallSteeringRead({C, C, F}, Loop);
    const FunctionDecl *Callee = C->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (Depth >= MaxHostCallDepth || !Callee || !Callee->hasBody(Def) ||
        isDeviceSide(Def) ||
        SM.isInSystemHeader(SM.getFileLoc(Def->getLocation())))
      return false;
    return summary(Def, Depth + 1).Waits && steersThroughCall(C, Loop);
  });
  WaitingLoops[Loop] = Waits;
  return Waits;
}

std::optional<TransferInLoopCheck::Verdict>
TransferInLoopCheck::verdict(const Pending &P, const FunctionDecl *F,
                             unsigned Depth) {
  const Reach &Op = *P.Op;
  const RuntimeCall &R = *runtimeCall(Op.Inner);
  std::string Call = R.Name.str();
  if (Op.Site != Op.Inner)
    Call = quotedName(Op.Site) + " calls " + Call;
  Verdict V{&P, true, "", std::nullopt, false};
  switch (R.Kind) {
  case OpKind::Copy: {
    llvm::StringRef Dir = direction(Op.Inner, R);
    // Device-to-device and host-to-host copies do not wait for the GPU; a
    // computed or default direction is not known.
    bool ToDevice = Dir == "cudaMemcpyHostToDevice";
    if (!ToDevice && Dir != "cudaMemcpyDeviceToHost")
      return std::nullopt;
    std::optional<uint64_t> Bytes = bytes(Op);
    bool Small = Bytes && *Bytes <= uint64_t(SmallCopyBytes);
    // The runtime stages a small host-to-device copy and returns at once;
    // a small read of a flag or a count the loop needs to decide what it
    // does next is the algorithm's sync point.
    if (Small && (ToDevice || smallSteeringRead(Op, P.Loop)))
      return std::nullopt;
    // The loop waits for the GPU every iteration anyway, for the value that
    // decides whether it goes on: a read of the iteration's results costs
    // its bytes, not a wait (a level of a tree built on the host).
    if (!ToDevice && waitsEachIteration(P.Loop, F, Depth))
      return std::nullopt;
    // Data the host makes in this iteration (the next video frame) cannot
    // be copied before the loop; the host's work making it already runs
    // while the previous iteration's kernels do.
    if (ToDevice && Op.Site == Op.Inner && producedInLoop(Op.Inner, R, P.Loop))
      return std::nullopt;
    std::string Size;
    if (Bytes)
      Size = bytesText(*Bytes);
    else
      Size = "'" + context().sourceText(callArgument(Op.Inner, R.Size)) + "'" +
             (R.Size2 < 0
                  ? ""
                  : " x '" +
                        context().sourceText(callArgument(Op.Inner, R.Size2)) +
                        "'") +
             " bytes";
    V.What = (Op.Site != Op.Inner ? quotedName(Op.Site) + " makes a blocking "
                                  : std::string("blocking ")) +
             R.Name.str() + " of " + Size +
             (ToDevice ? " host-to-device" : " device-to-host");
    V.Warning = !Small;
    V.Small = Small;
    V.Bytes = Bytes;
    return V;
  }
  case OpKind::Sync:
    // A wait where the loop waits anyway adds nothing.
    if (waitsEachIteration(P.Loop, F, Depth))
      return std::nullopt;
    V.What = Call;
    // A wait after a kernel whose threads each run a long loop is a small
    // share of the iteration: real, but not worth a warning.
    V.Warning = P.Long == nullptr;
    return V;
  case OpKind::Alloc:
    V.What = Call + " with a free in the same loop";
    return V;
  case OpKind::Free:
  case OpKind::SetDevice:
    break;
  }
  return std::nullopt;
}

void TransferInLoopCheck::report(llvm::ArrayRef<Pending> Found,
                                 const FunctionDecl *F, unsigned Depth) {
  // One finding per loop: its first warning (or, with none, its first
  // note); the loop's other blocking calls are notes of it.
  llvm::SmallVector<const Stmt *, 4> Loops;
  for (const Pending &P : Found)
    if (!llvm::is_contained(Loops, P.Loop))
      Loops.push_back(P.Loop);
  for (const Stmt *Loop : Loops) {
    llvm::SmallVector<Verdict, 4> Verdicts;
    for (const Pending &P : Found)
      if (P.Loop == Loop && llvm::none_of(Verdicts, [&](const Verdict &V) {
            return V.P->Op->Inner == P.Op->Inner; // two paths to one call
          }))
        if (std::optional<Verdict> V = verdict(P, F, Depth))
          Verdicts.push_back(std::move(*V));
    if (Verdicts.empty())
      continue;
    const Verdict *Main = &Verdicts.front();
    for (const Verdict &V : Verdicts)
      if (V.Warning) {
        Main = &V;
        break;
      }
    llvm::SmallVector<const Verdict *, 4> Others;
    for (const Verdict &V : Verdicts)
      if (&V != Main)
        Others.push_back(&V);
    judge(*Main, Others);
  }
}

void TransferInLoopCheck::judge(const Verdict &V,
                                llvm::ArrayRef<const Verdict *> Others) {
  const Reach &Op = *V.P->Op;
  const Reach &Launch = *V.P->Launch;
  const Reach *Freed = V.P->Freed;
  const Stmt *Loop = V.P->Loop;
  const RuntimeCall &R = *runtimeCall(Op.Inner);
  std::string Kernel = kernelName(Launch.Inner, context().astContext());
  std::string Call = R.Name.str();
  if (Op.Site != Op.Inner)
    Call = quotedName(Op.Site) + " calls " + Call;
  SourceLocation Loc = Op.Site->getBeginLoc();

  // The finding, whichever operation it is about; its notes follow.
  std::optional<FindingBuilder> B;
  switch (R.Kind) {
  case OpKind::Copy:
    if (V.Small) {
      B.emplace(diag(
          Loc,
          "{0} in a loop that launches {1}: the copy is small, but the host "
          "waits for the GPU to finish every iteration before it can queue "
          "the next launch (a round trip of latency, not bandwidth); keep "
          "the value on the device, or read it once after the loop",
          Severity::Note));
      *B << V.What << Kernel;
      break;
    }
    B.emplace(diag(Loc,
                   "{0} in a loop that launches {1}: each iteration waits for "
                   "the GPU before the copy and for the copy before the next "
                   "launch, so copies and kernels run back to back, never "
                   "overlapped (Volta tuning guide 1.2: minimize data "
                   "transfers between the host and the device); hoist the "
                   "copy out of the loop, or use pinned memory and "
                   "cudaMemcpyAsync on a stream"));
    *B << V.What << Kernel;
    if (V.Bytes)
      B->metric("bytes", double(*V.Bytes));
    break;
  case OpKind::Sync:
    if (const LongLoop *Long = V.P->Long) {
      const SourceManager &SM = context().astContext().getSourceManager();
      B.emplace(diag(
          Loc,
          "{0} in a loop that launches {1}: the host waits for the GPU to go "
          "idle every iteration, but each thread of {2} runs the loop at line "
          "{3} for {4}, so the kernel likely runs far longer than the few "
          "microseconds a wait costs; the wait is a small share unless the "
          "kernel is short",
          Severity::Note));
      *B << Call << Kernel
         << kernelName(V.P->LongLaunch->Inner, context().astContext())
         << SM.getSpellingLineNumber(Long->Loop->getBeginLoc()) << Long->Rounds;
      break;
    }
    B.emplace(diag(
        Loc, "{0} in a loop that launches {1}: the host waits for the GPU to "
             "go idle every iteration, so each launch starts on an idle GPU "
             "and nothing overlaps across iterations (Pascal deep dive, "
             "Streams: concurrent kernels, asynchronous data transfers); "
             "synchronize once after the loop, or on a stream or event "
             "where the host needs a result"));
    *B << Call << Kernel;
    break;
  case OpKind::Alloc: {
    const RuntimeCall &Free = *runtimeCall(Freed->Inner);
    std::string FreeCall = Free.Name.str();
    if (Freed->Site != Freed->Inner)
      FreeCall = quotedName(Freed->Site) + " calls " + FreeCall;
    bool Device = R.Name == "cudaMalloc" || R.Name == "cudaMallocPitch";
    B.emplace(diag(
        Loc, "{0} in a loop that launches {1}, and {2} in the same loop: {3} "
             "is allocated and freed every iteration, and {4}; allocate once "
             "before the loop and free after it{5}"));
    *B << Call << Kernel << FreeCall
       << (R.Pinned                        ? "pinned host memory"
           : R.Name == "cudaMallocManaged" ? "managed memory"
                                           : "device memory")
       << (Device ? "cudaMalloc and cudaFree make the GPU synchronize "
                    "across all streams (CUDA C++ Programming Guide, "
                    "Stream-Ordered Memory Allocator)"
                  : "an allocation keeps commands of different streams "
                    "from overlapping (CUDA C++ Programming Guide, Implicit "
                    "Synchronization)")
       << (Device ? ", or use cudaMallocAsync and cudaFreeAsync on a stream"
                  : "");
    break;
  }
  case OpKind::Free:
  case OpKind::SetDevice:
    return;
  }

  B->note(Loop->getBeginLoc(), "the loop");
  if (Launch.Site != Launch.Inner) {
    B->note(Launch.Site->getBeginLoc(), "{0} launches {1}")
        << quotedName(Launch.Site) << Kernel;
    B->note(Launch.Inner->getBeginLoc(), "{0} is launched here") << Kernel;
  } else {
    B->note(Launch.Inner->getBeginLoc(),
            "{0} is launched here, in the same loop")
        << Kernel;
  }
  if (Op.Site != Op.Inner)
    B->note(Op.Inner->getBeginLoc(), "the {0}, in '{1}'")
        << R.Name << Op.InnerFn->getQualifiedNameAsString();
  if (Freed)
    B->note(Freed->Inner->getBeginLoc(), "freed here");
  // The loop's other blocking calls: one finding per loop.
  for (const Verdict *O : Others)
    B->note(O->P->Op->Site->getBeginLoc(), "also in this loop: {0}") << O->What;
}

WARPLINT_CHECK_FACTORY(TransferInLoopCheck)

} // namespace warplint::host
