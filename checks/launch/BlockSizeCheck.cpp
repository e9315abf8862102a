#include "checks/launch/BlockSizeCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/CallGraph.h"
#include "Analysis/Launches.h"
#include "Analysis/ThreadDependence.h"
#include "Arch/Occupancy.h"
#include "checks/launch/KernelResources.h"
#include "checks/launch/VerdictGroups.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warplint::launch {

void BlockSizeCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(launchMatcher(), this);
}

namespace {
unsigned percent(double F) { return unsigned(100.0 * F + 0.5); }

uint64_t threadsOf(const BlockShape &S) { return uint64_t(S.X) * S.Y * S.Z; }
} // namespace

// Whether the launch sits in one arm of an 'if' whose other arm launches
// the same kernel with a larger block: the branch picks the block by the
// problem's size ('if (ncols < 1024) <<<..., 32>>> else <<<..., 1024>>>'),
// and the small block is the author's choice for small problems.
bool BlockSizeCheck::smallArmOfSizeBranch(const CallExpr *Launch,
                                          const FunctionDecl *Kernel,
                                          uint64_t Threads) {
  const FunctionDecl *Pattern = kernelPattern(Kernel);
  if (!Pattern)
    return false;
  // The statements around the launch, from the body of the function that
  // holds it (the call graph knows which): the TU's parent map would walk
  // every header's declarations.
  const FunctionDecl *Caller = context().callGraph().callerOf(Launch);
  if (!Caller || !Caller->getBody())
    return false;
  std::unique_ptr<ParentMap> &Parents = ParentsOf[Caller];
  if (!Parents)
    Parents = std::make_unique<ParentMap>(Caller->getBody());
  const Stmt *Node = Launch;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const Stmt *Child = Node;
    Node = Parents->getParent(Child);
    if (!Node)
      return false;
    const auto *If = dyn_cast<IfStmt>(Node);
    if (!If || If->getCond() == Child)
      continue;
    const Stmt *Other = If->getThen() == Child ? If->getElse() : If->getThen();
    bool Larger = false;
    forEachStmt(Other, [&](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      if (!Call)
        return WalkStep::Continue;
      LaunchSite L = launchSite(Call);
      if (!L.Block || kernelPattern(L.Kernel) != Pattern)
        return WalkStep::Continue;
      std::optional<BlockShape> B = context().affine().literalShapeOf(L.Block);
      Larger = B && threadsOf(*B) > Threads;
      return Larger ? WalkStep::Stop : WalkStep::Continue;
    });
    if (Larger)
      return true;
  }
  return false;
}

// Whether F, or a function it calls, reads the block's size: blockDim, or
// a cooperative group's size of the block. A kernel that never does is
// written for one block size (ggml's 'const int il = tid/8; ... yy +
// 256*i', "assume 32 threads"): a larger block alone would compute other
// elements, so the launch's block is the kernel's. Unknown (an indirect
// call, a function without a body in the user's code) counts as a read.
bool BlockSizeCheck::readsBlockSize(const FunctionDecl *F, unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || Depth > 8)
    return true;
  auto [It, New] = ReadsBlockSize.try_emplace(Def, true);
  if (!New)
    return It->second;
  bool Reads = false;
  forEachStmt(Def->getBody(), WalkOptions().enterLambdas(), [&](const Stmt *S) {
    if (const auto *E = dyn_cast<Expr>(S)) {
      auto B = cudaBuiltinComponent(E);
      Reads = B && B->first == "__cuda_builtin_blockDim_t";
    }
    return Reads ? WalkStep::Stop : WalkStep::Continue;
  });
  const SourceManager &SM = context().sourceManager();
  for (const CallSite &C : context().callGraph().callees(Def)) {
    if (Reads)
      break;
    const FunctionDecl *Callee = C.Callee;
    if (!Callee) {
      Reads = !isa<CUDAKernelCallExpr>(C.Call);
      continue;
    }
    if (Callee->getBuiltinID())
      continue;
    llvm::StringRef Name =
        Callee->getDeclName().isIdentifier() ? Callee->getName() : "";
    bool InCG = false;
    for (const DeclContext *DC = Callee->getDeclContext(); DC;
         DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        InCG |= NS->getName() == "cooperative_groups";
    if (InCG) {
      Reads = Name == "size" || Name == "num_threads" ||
              Name == "dim_threads" || Name == "group_dim" ||
              Name == "block_dim";
      continue;
    }
    // Library code without the user's indexing (math, intrinsics, CUB
    // whose block size is a template argument): not a read.
    if (SM.isInSystemHeader(Callee->getLocation()))
      continue;
    Reads = readsBlockSize(Callee, Depth + 1);
  }
  ReadsBlockSize[Def] = Reads;
  return Reads;
}

// The CUB block-wide primitive (cub::BlockLoad, BlockStore, BlockReduce,
// BlockScan, BlockRadixSort, ...) that Kernel's body declares for blocks of
// Threads threads in x (its BLOCK_DIM_X, the second template argument), as
// "cub::BlockLoad"; empty if none.
std::string BlockSizeCheck::cubBlockPrimitive(const FunctionDecl *Kernel,
                                              uint64_t Threads) {
  const FunctionDecl *Def = nullptr;
  if (!Kernel->hasBody(Def))
    return "";
  std::string Found;
  auto Look = [&](QualType T) {
    const auto *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
    if (!Spec || !Spec->getIdentifier() ||
        !Spec->getName().starts_with("Block"))
      return;
    bool InCub = false;
    for (const DeclContext *DC = Spec->getDeclContext(); DC;
         DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        InCub |= NS->getName() == "cub" || NS->getName().starts_with("CUB_");
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (!InCub || Args.size() < 2 ||
        Args[1].getKind() != TemplateArgument::Integral ||
        Args[1].getAsIntegral().getZExtValue() != Threads)
      return;
    Found = "cub::" + Spec->getName().str();
  };
  forEachStmt(Def->getBody(), [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls()) {
        if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
          Look(TD->getUnderlyingType());
        else if (const auto *VD = dyn_cast<VarDecl>(D))
          Look(VD->getType());
      }
    return Found.empty() ? WalkStep::Continue : WalkStep::Stop;
  });
  return Found;
}

void BlockSizeCheck::check(const MatchFinder::MatchResult &R) {
  const auto *Call = R.Nodes.getNodeAs<CallExpr>("launch");
  LaunchSite L = launchSite(Call);
  if (!L.Block || inDeadBranch(Call, context().callGraph().callerOf(Call),
                               context().astContext()))
    return;
  // Judged at the end of the TU, when every launch whose kernel's registers
  // a verdict needs is known (this check's and launch-occupancy's): the
  // run compiles those kernels in one batch rather than one by one.
  judge(L.Grid, L.Block, L.SharedBytes, L.Kernel, Call, /*Expect=*/true);
  Sites.push_back({Call, L});
}

void BlockSizeCheck::onEndOfTranslationUnit() {
  for (const auto &[Call, L] : Sites)
    judge(L.Grid, L.Block, L.SharedBytes, L.Kernel, Call);
  Sites.clear();
  Groups.flush();
  ParentsOf.clear();
}

namespace {

// A launch argument as written: the value a dim3 is built from.
const Expr *asWritten(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    const auto *C = dyn_cast<CXXConstructExpr>(E);
    if (!C || C->getNumArgs() == 0 ||
        !llvm::all_of(llvm::drop_begin(C->arguments()),
                      [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); }))
      return E;
    E = C->getArg(0);
  }
  return E;
}

// Whether a name says "the warp size": warpSize, WARP_SIZE, kWarpSize,
// bnb_host_warp_size.
bool saysWarpSize(llvm::StringRef Name) {
  std::string Flat;
  for (char C : Name)
    if (C != '_')
      Flat += llvm::toLower(C);
  return llvm::StringRef(Flat).contains("warpsize");
}

// The name E spells the warp size with, through a macro, a variable (a
// local's initialiser, twice at most), a field (prop.warpSize) or a call
// (bnb_host_warp_size()); empty if none.
std::string warpSizeName(const Expr *E, const SourceManager &SM,
                         const LangOptions &LO, unsigned Depth = 0) {
  if (!E || Depth > 2)
    return "";
  E = asWritten(E);
  for (SourceLocation L = E->getBeginLoc(); L.isMacroID();
       L = SM.getImmediateMacroCallerLoc(L)) {
    llvm::StringRef Macro = Lexer::getImmediateMacroName(L, SM, LO);
    if (saysWarpSize(Macro))
      return Macro.str();
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (saysWarpSize(Ref->getDecl()->getName()))
      return Ref->getDecl()->getNameAsString();
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
        V && V->isLocalVarDecl() && V->getInit())
      return warpSizeName(V->getInit(), SM, LO, Depth + 1);
    return "";
  }
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return saysWarpSize(M->getMemberDecl()->getName())
               ? M->getMemberDecl()->getNameAsString()
               : "";
  if (const auto *C = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *F = C->getDirectCallee();
        F && F->getDeclName().isIdentifier() && saysWarpSize(F->getName()))
      return F->getNameAsString() + "()";
  return "";
}

// The literal L (not in a macro), or null.
const IntegerLiteral *literalOf(const Expr *E, uint64_t L) {
  const auto *I = dyn_cast_or_null<IntegerLiteral>(asWritten(E));
  if (!I || I->getValue() != L || I->getBeginLoc().isMacroID())
    return nullptr;
  return I;
}

} // namespace

// The suggested block size written at a launch of literals whose grid is
// the ceiling division by the same literal ((n + 31) / 32, or a helper
// iDivUp(n, 32)): the block and the grid's literals change together, so
// the grid still covers n. Nothing where the kernel's __launch_bounds__
// caps it below the suggestion or the launch is in a template or macro.
static std::vector<FixItHint>
literalLaunchFix(const Expr *Grid, const Expr *Block,
                 const FunctionDecl *Kernel, unsigned Threads,
                 unsigned Suggested, ASTContext &Ctx) {
  std::vector<FixItHint> None;
  const IntegerLiteral *B = literalOf(Block, Threads);
  if (!B || !Grid || Grid->getBeginLoc().isMacroID())
    return None;
  if (std::optional<unsigned> Max = launchBoundsOf(Kernel).MaxThreads;
      Max && *Max < Suggested)
    return None;
  auto Edit = [](const IntegerLiteral *I, uint64_t V) {
    return FixItHint::CreateReplacement(I->getSourceRange(), std::to_string(V));
  };
  std::vector<FixItHint> Out{Edit(B, Suggested)};
  const Expr *G = asWritten(Grid);
  if (const auto *Div = dyn_cast<BinaryOperator>(G);
      Div && Div->getOpcode() == BO_Div) {
    const IntegerLiteral *By = literalOf(Div->getRHS(), Threads);
    const auto *Add = dyn_cast<BinaryOperator>(Div->getLHS()->IgnoreParens());
    const IntegerLiteral *Up = Add && Add->getOpcode() == BO_Add
                                   ? literalOf(Add->getRHS(), Threads - 1)
                                   : nullptr;
    if (!By || !Up)
      return None;
    Out.push_back(Edit(By, Suggested));
    Out.push_back(Edit(Up, Suggested - 1));
    return Out;
  }
  if (const auto *Call = dyn_cast<CallExpr>(G);
      Call && Call->getNumArgs() == 2) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const IntegerLiteral *By = literalOf(Call->getArg(1), Threads);
    if (!Callee || !By ||
        !llvm::StringRef(Callee->getNameAsString()).contains_insensitive("div"))
      return None;
    Out.push_back(Edit(By, Suggested));
    return Out;
  }
  return None;
}

void BlockSizeCheck::judge(const Expr *Grid, const Expr *Block,
                           const Expr *Dynamic, const FunctionDecl *Kernel,
                           const CallExpr *Launch, bool Expect) {
  std::optional<BlockShape> S = context().affine().literalShapeOf(Block);
  if (!S)
    return; // a size known only at run time: nothing to judge
  const ArchInfo &A = arch();
  uint64_t Threads = uint64_t(S->X) * S->Y * S->Z;
  std::string Shape = std::to_string(Threads) + " threads";
  if (S->Y != 1 || S->Z != 1)
    Shape += " (" + std::to_string(S->X) + "x" + std::to_string(S->Y) +
             (S->Z != 1 ? "x" + std::to_string(S->Z) : "") + ")";
  std::string Name = Kernel ? "'" + Kernel->getNameAsString() + "'"
                            : std::string("the kernel");
  SourceLocation Loc = Block->getBeginLoc();
  if (Threads > A.max_threads_per_block) {
    if (Expect)
      return;
    diag(
        Loc,
        "{0} is launched with blocks of {1}, more than the {2} threads a block "
        "may have on {3}: the launch fails (cudaErrorInvalidConfiguration)",
        Severity::Error)
        << Name << Shape << A.max_threads_per_block << A.Name;
    return;
  }
  // A serial kernel (one thread per block), or a grid written with
  // constants that has fewer blocks than one SM may hold: its shape is the
  // algorithm's or the demo's choice, and it cannot fill the GPU, so
  // neither idle lanes nor the block limit are what limit it.
  std::optional<uint64_t> G;
  if (auto Shape = context().affine().literalShapeOf(Grid))
    G = uint64_t(Shape->X) * Shape->Y * Shape->Z;
  else
    G = gridBlocksOf(Grid, context().astContext());
  uint64_t GridBlocks = G.value_or(0);
  if (Threads == 1 || (G && GridBlocks < A.max_blocks_per_sm))
    return;
  // A size that a template argument gives (a run-time block size
  // dispatched to constants) is the instantiating code's choice.
  if (fromTemplateArgument(Block))
    return;
  // A small block that a branch on the problem's size chose, beside a
  // larger one for the same kernel in the other arm: the author's choice.
  if (Launch && smallArmOfSizeBranch(Launch, Kernel, Threads))
    return;
  // The block is the algorithm's tile when the name that sizes it also
  // sizes the kernel's __shared__ arrays: a note, not a warning, since the
  // fix changes the tiling, not just the launch.
  std::string TileName;
  std::vector<const VarDecl *> Tiles =
      sharedArraysSizedLike(Block, Kernel, TileName);
  bool DynamicTile =
      Dynamic && sizedLike(Dynamic, Block, context().astContext(), TileName);
  bool IsTile = !Tiles.empty() || DynamicTile;
  std::string TileText;
  if (IsTile)
    TileText = "'" + TileName + "' also sizes " +
               (Tiles.empty()
                    ? std::string("its dynamic shared memory")
                    : "its __shared__ '" + Tiles[0]->getNameAsString() + "'") +
               ": the block is the algorithm's tile, and another block size "
               "is another tiling";
  // A kernel that never reads its block's size is written for this one:
  // the fix is a change to the kernel, not to the launch.
  if (!IsTile && Kernel && !readsBlockSize(Kernel)) {
    IsTile = true;
    TileText = Name +
               " never reads blockDim: its indexing is written for this "
               "block size, and another block size is a change to the kernel";
  }
  // A kernel built on CUB's block-wide primitives for this block size
  // (cub::BlockLoad<T, 32, ...>: BLOCK_DIM_X is a template argument, and
  // the primitive is only correct for a block of that many threads).
  if (!IsTile && Kernel) {
    if (std::string Cub = cubBlockPrimitive(Kernel, Threads); !Cub.empty()) {
      IsTile = true;
      TileText = Name + " builds " + Cub + " for blocks of " +
                 std::to_string(Threads) +
                 " threads: its block size is a template argument of the "
                 "kernel's CUB primitives, and another is a change to the "
                 "kernel";
    }
  }
  // A block of one warp spelled as the warp size (<<<grid, WARP_SIZE>>>,
  // a local set from prop.warpSize): one warp a block is the kernel's
  // design, its block's work done by warp-wide primitives, whose body may
  // be in another file.
  if (!IsTile && Threads == A.warp_size)
    if (std::string Warp = warpSizeName(Block, context().sourceManager(),
                                        context().astContext().getLangOpts());
        !Warp.empty()) {
      IsTile = true;
      TileText = "its block is spelled as the warp size ('" + Warp +
                 "'): one warp a block is the kernel's design, and more "
                 "warps a block is a change to the kernel";
    }
  // A warp-synchronous kernel (lanes exchanging through shared memory
  // without a barrier) is written for the warps it has: its block size is
  // part of that design, not a launch parameter to tune.
  if (!IsTile && Kernel && Kernel->hasBody() &&
      !context().engine().exchanges(Kernel).empty()) {
    IsTile = true;
    TileText = Name + " is warp-synchronous (its lanes exchange data through "
                      "shared memory without a barrier): its block size is "
                      "part of that design";
  }
  unsigned Warp = A.warp_size;
  if (Threads % Warp != 0) {
    if (Expect)
      return;
    uint64_t Warps = (Threads + Warp - 1) / Warp;
    uint64_t Idle = Warps * Warp - Threads;
    std::string Key = Shape + '\0' + TileText;
    Severity Level = IsTile ? Severity::Note : Severity::Warning;
    std::string Format =
        "{0} is launched with blocks of {1}, not a multiple of the warp size "
        "({2}): the last warp of every block runs {3} of its {2} lanes, so {4} "
        "of the {5} lanes the block occupies ({6}%) idle on {7}{8}";
    Groups.add(Loc, Kernel, Key, KernelResourcesSeen(),
               [=, this, &A](const std::string &,
                             llvm::ArrayRef<SourceLocation> Others) {
                 FindingBuilder B = diag(Loc, Format, Level);
                 B << Name << Shape << Warp << int64_t(Threads % Warp)
                   << int64_t(Idle) << int64_t(Warps * Warp)
                   << unsigned(100.0 * Idle / double(Warps * Warp) + 0.5)
                   << A.Name << (IsTile ? "; " + TileText : std::string());
                 noteOtherLaunches(B, Others, Name);
               });
    return;
  }
  // Is the SM's block limit what binds, once registers and shared memory
  // are counted? Not known without the kernel or with a dynamic size known
  // only at run time.
  if (!Kernel)
    return;
  LaunchResources R;
  R.ThreadsPerBlock = unsigned(Threads);
  if (Dynamic) {
    std::optional<uint64_t> Bytes = context().affine().literalValueOf(Dynamic);
    if (!Bytes)
      return;
    R.DynamicSharedBytes = unsigned(*Bytes);
    R.MaxDynamicSharedOptIn = R.DynamicSharedBytes; // its own verdict
  }
  if (Expect)
    return expectKernelResourcesOf(context(), A, Kernel);
  KernelResourcesSeen Res =
      kernelResourcesOf(context(), A, Kernel, StaticShared);
  R.RegistersPerThread = Res.Registers;
  R.StaticSharedBytes = Res.StaticSharedBytes;
  Occupancy O = computeOccupancy(A, R);
  if (O.BlocksPerSM == 0 || !O.limitedBy(OccupancyLimiter::Blocks) ||
      O.limitedBy(OccupancyLimiter::Registers) ||
      O.limitedBy(OccupancyLimiter::SharedMemory) ||
      O.ActiveWarps >= O.MaxWarps)
    return;
  // A grid that cannot give an SM more blocks than it holds: a constant one
  // no larger than that, k blocks per SM with k fitting, or one sized by
  // the occupancy API.
  // The block limit binds only where the grid gives every SM of the
  // architecture's largest part that many blocks: 1,225 blocks over 108
  // SMs are 12 an SM, under a limit of 32.
  if (G && GridBlocks <= uint64_t(A.sm_count) * O.BlocksPerSM)
    return;
  GridPerSM P = gridPerSMOf(Grid, context().astContext());
  if (P.K == GridPerSM::Resident ||
      (P.K == GridPerSM::PerSM && P.BlocksPerSM <= O.BlocksPerSM))
    return;
  uint64_t FillsAbove =
      G || P.K == GridPerSM::PerSM ? 0 : uint64_t(A.sm_count) * O.BlocksPerSM;
  // The smallest larger block that reaches the most warps with the same
  // registers per thread and shared memory per block: true when applied.
  unsigned Best = O.ActiveWarps, BestThreads = 0;
  for (unsigned T = unsigned(Threads) + Warp; T <= A.max_threads_per_block;
       T += Warp) {
    LaunchResources Try = R;
    Try.ThreadsPerBlock = T;
    Occupancy Bigger = computeOccupancy(A, Try);
    if (Bigger.ActiveWarps > Best) {
      Best = Bigger.ActiveWarps;
      BestThreads = T;
    }
  }
  if (!BestThreads)
    return;
  std::string Shared = std::to_string(O.SharedBytesPerBlock) +
                       " bytes of shared memory per block";
  if (!Res.Registers)
    Shared += " (" + Res.NotCounted + ")";
  Severity Level = IsTile ? Severity::Note : Severity::Warning;
  std::vector<FixItHint> Fixes;
  if (!IsTile)
    Fixes = literalLaunchFix(Grid, Block, Kernel, unsigned(Threads),
                             BestThreads, context().astContext());
  std::string Key = Shape + '\0' + std::to_string(O.BlocksPerSM) + '\0' +
                    std::to_string(O.ActiveWarps) + '\0' + Shared + '\0' +
                    std::to_string(BestThreads) + '\0' + std::to_string(Best) +
                    '\0' + TileText;
  Groups.add(
      Loc, Kernel, Key, Res,
      [=, this, &A](const std::string &RegText,
                    llvm::ArrayRef<SourceLocation> Others) {
        std::string Counted =
            RegText.empty() ? Shared : RegText + ", " + Shared;
        FindingBuilder B = diag(
            Loc,
            "{0} is launched with blocks of {1}, too small to fill an SM on "
            "{2}: it holds at most {3} blocks, so at most {4} of its {5} warps "
            "({6}% occupancy) are resident, the block limit binding before "
            "registers and shared memory ({7}); blocks of {8} threads, with "
            "the same registers and shared memory per block, reach {9} warps "
            "({10}%){11}",
            Level);
        B << Name << Shape << A.Name << O.BlocksPerSM << O.ActiveWarps
          << O.MaxWarps << percent(O.fraction()) << PerTarget{Counted}
          << BestThreads << PerTarget{std::to_string(Best)}
          << PerTarget{std::to_string(percent(double(Best) / O.MaxWarps))}
          << (IsTile ? "; " + TileText : std::string());
        B.metric("blocks_per_sm", O.BlocksPerSM)
            .metric("occupancy", O.fraction());
        for (const FixItHint &H : Fixes)
          B << H;
        noteGridFill(B, Loc, FillsAbove, "the block limit binds");
        noteOtherLaunches(B, Others, Name);
      });
}

WARPLINT_CHECK_FACTORY(BlockSizeCheck)

} // namespace warplint::launch
