#include "checks/launch/OccupancyCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/Launches.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"

using namespace clang;

namespace warplint::launch {

OccupancyCheck::OccupancyCheck(llvm::StringRef Name, CheckContext &Ctx)
    : FunctionCheck(Name, Ctx),
      MinOccupancy(Options.get("MinOccupancy", int64_t(50))) {}

void OccupancyCheck::storeOptions(CheckOptionMap &Opts) const {
  Opts[Name + ".MinOccupancy"] = std::to_string(MinOccupancy);
}

void OccupancyCheck::checkFunction(const FunctionDecl *F) {
  // A launch written in a lambda is one this function makes.
  forEachStmt(F->getBody(), WalkOptions().enterLambdas(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return;
    if (isLaunch(Call)) {
      LaunchSite L = launchSite(Call);
      if (L.Kernel && L.Block)
        Launches.push_back({Call, L.Kernel, L.Grid, L.Block, L.SharedBytes});
    }
    if (std::optional<SharedOptIn> O = sharedOptIn(Call))
      if (auto Bytes = context().affine().literalValueOf(O->Bytes))
        OptIns[O->Kernel] = std::max<uint64_t>(OptIns[O->Kernel], *Bytes);
  });
}

void OccupancyCheck::finishTranslationUnit() {
  for (const Launch &L : Launches)
    judge(L);
  Launches.clear();
  OptIns.clear();
}

// The most registers per thread that still fit Blocks blocks of Threads
// threads on an SM: the cap __launch_bounds__(Threads, Blocks) sets.
static unsigned boundsCap(const ArchInfo &A, unsigned Threads,
                          unsigned Blocks) {
  LaunchResources R;
  R.ThreadsPerBlock = Threads;
  for (unsigned Regs = A.max_registers_per_thread; Regs > 0; --Regs) {
    R.RegistersPerThread = Regs;
    if (computeOccupancy(A, R).ByRegisters >= Blocks)
      return Regs;
  }
  return 0;
}

namespace {

// A kernel's __launch_bounds__(MaxThreads, MinBlocks), read from its
// definition (where the attribute is written).
struct LaunchBounds {
  std::optional<unsigned> MaxThreads, MinBlocks;
};

const FunctionDecl *definitionOf(const FunctionDecl *Kernel) {
  const FunctionDecl *Def = Kernel;
  Kernel->hasBody(Def);
  return Def;
}

LaunchBounds launchBoundsOf(const FunctionDecl *Kernel) {
  LaunchBounds Out;
  const FunctionDecl *Def = definitionOf(Kernel);
  const auto *B = Def->getAttr<CUDALaunchBoundsAttr>();
  if (!B)
    return Out;
  auto Value = [&](const Expr *E) -> std::optional<unsigned> {
    if (E)
      if (auto V = E->getIntegerConstantExpr(Def->getASTContext()))
        return unsigned(V->getZExtValue());
    return std::nullopt;
  };
  Out.MaxThreads = Value(B->getMaxThreads());
  Out.MinBlocks = Value(B->getMinBlocks());
  return Out;
}

unsigned percent(double F) { return unsigned(100.0 * F + 0.5); }

} // namespace

OccupancyCheck::Registers
OccupancyCheck::registersOf(const FunctionDecl *Kernel) {
  Registers Out;
  const ArchInfo &A = arch();
  RunServices &Src = context().services();
  std::string Why;
  ASTNameGenerator Names(context().astContext());
  std::string Mangled = Names.getName(definitionOf(Kernel));
  if (auto R = Src.kernelResources(A, Mangled, Why)) {
    Out.PerThread = R->Registers;
    Out.Spilled = R->SpillBytes;
    Out.SharedBytes = R->SharedBytes;
    return Out;
  }
  if (Why.empty())
    Why = "ptxas did not compile '" + Kernel->getNameAsString() +
          "' from this file";
  // The caps that bound what ptxas would allocate: said, not counted.
  std::vector<std::string> Caps;
  LaunchBounds Bounds = launchBoundsOf(Kernel);
  if (Bounds.MaxThreads && *Bounds.MaxThreads > 0 &&
      *Bounds.MaxThreads <= A.max_threads_per_block) {
    unsigned N = Bounds.MinBlocks.value_or(1);
    Caps.push_back(
        "__launch_bounds__(" + std::to_string(*Bounds.MaxThreads) +
        (Bounds.MinBlocks ? ", " + std::to_string(N) : "") + ") caps them at " +
        std::to_string(boundsCap(A, *Bounds.MaxThreads, std::max(N, 1u))) +
        " per thread");
  }
  if (std::optional<unsigned> Cap = Src.maxRegisterCount())
    Caps.push_back("-maxrregcount caps them at " + std::to_string(*Cap) +
                   " per thread");
  Out.NotCounted = "registers not counted: " + Why;
  for (const std::string &C : Caps)
    Out.NotCounted += "; " + C;
  return Out;
}

void OccupancyCheck::judge(const Launch &L) {
  std::optional<BlockShape> S = context().affine().literalShapeOf(L.Block);
  if (!S)
    return; // a block size known only at run time
  const ArchInfo &A = arch();
  uint64_t Threads = uint64_t(S->X) * S->Y * S->Z;
  // Beyond the per-block limit, one block of one thread, or a single block:
  // launch-block-size's verdicts, or no SM to fill.
  std::optional<BlockShape> G = context().affine().literalShapeOf(L.Grid);
  if (Threads > A.max_threads_per_block || Threads == 1 ||
      (G && uint64_t(G->X) * G->Y * G->Z == 1))
    return;
  LaunchResources R;
  R.ThreadsPerBlock = unsigned(Threads);
  if (L.Dynamic) {
    std::optional<uint64_t> Dynamic =
        context().affine().literalValueOf(L.Dynamic);
    if (!Dynamic)
      return; // shared memory known only at run time
    R.DynamicSharedBytes = unsigned(*Dynamic);
  }
  auto Opt = OptIns.find(L.Kernel);
  if (Opt != OptIns.end())
    R.MaxDynamicSharedOptIn = unsigned(Opt->second);
  Registers Regs = registersOf(L.Kernel);
  R.RegistersPerThread = Regs.PerThread;
  R.StaticSharedBytes = Regs.SharedBytes
                            ? *Regs.SharedBytes
                            : unsigned(StaticShared.bytes(L.Kernel));
  Occupancy O = computeOccupancy(A, R);
  std::string Name = "'" + L.Kernel->getNameAsString() + "'";
  SourceLocation Loc = L.Block->getBeginLoc();
  std::string RegText =
      Regs.PerThread
          ? std::to_string(*Regs.PerThread) + " registers per thread" +
                (Regs.Spilled ? " (ptxas, which also spills " +
                                    std::to_string(Regs.Spilled) + " bytes)"
                              : " (ptxas)")
          : std::string();

  if (O.BlocksPerSM == 0) {
    // Too much shared memory is the memory checks' verdict; too many
    // registers for one block is this one's.
    if (O.BySharedMemory == 0 || !Regs.PerThread || O.ByRegisters != 0)
      return;
    diag(Loc,
         "{0} cannot be launched with blocks of {1} threads on {2}: {3} need "
         "{4} "
         "registers per block, more than the {5} an SM has for one block; the "
         "launch fails (cudaErrorLaunchOutOfResources). Cap them with "
         "__launch_bounds__({1}) or use smaller blocks",
         Severity::Error)
        << Name << unsigned(Threads) << A.Name << PerTarget{RegText}
        << PerTarget{std::to_string(*Regs.PerThread * unsigned(Threads))}
        << PerTarget{std::to_string(A.max_registers_per_block)};
    return;
  }
  if (percent(O.fraction()) >= MinOccupancy ||
      (O.Limiter != OccupancyLimiter::Registers &&
       O.Limiter != OccupancyLimiter::SharedMemory))
    return;
  // __launch_bounds__(T, minBlocks) states the occupancy the author chose
  // (the register budget ptxas was given): met, it is not a finding.
  if (std::optional<unsigned> Min = launchBoundsOf(L.Kernel).MinBlocks;
      Min && O.BlocksPerSM >= *Min)
    return;

  std::string Cause, Next;
  if (O.Limiter == OccupancyLimiter::Registers) {
    Cause = RegText + ", " + std::to_string(O.RegistersPerBlock) +
            " allocated per block of the SM's " +
            std::to_string(A.registers_per_sm);
    if (auto Fewer = registersForNextBlock(A, R))
      Next = "at " + std::to_string(*Fewer) +
             " registers per thread or fewer, " +
             std::to_string(O.BlocksPerSM + 1) +
             " blocks would fit (__launch_bounds__(" + std::to_string(Threads) +
             ", " + std::to_string(O.BlocksPerSM + 1) +
             ") or -maxrregcount=" + std::to_string(*Fewer) + ")";
  } else {
    unsigned Static = R.StaticSharedBytes;
    std::string Parts;
    auto Add = [&](unsigned Bytes, const char *What) {
      if (Bytes)
        Parts +=
            (Parts.empty() ? "" : " + ") + std::to_string(Bytes) + " " + What;
    };
    Add(Static, "static");
    Add(R.DynamicSharedBytes, "dynamic");
    Add(A.reserved_shared_memory_per_block, "reserved");
    Cause = std::to_string(O.SharedBytesPerBlock) +
            " bytes of shared memory per block (" + Parts + ") of the " +
            std::to_string(A.shared_memory_per_sm) + " an SM has";
    if (auto Less = sharedBytesForNextBlock(A, R))
      Next = "at " + std::to_string(*Less) + " bytes per block or less, " +
             std::to_string(O.BlocksPerSM + 1) + " blocks would fit";
    if (!Regs.PerThread)
      Cause += " (" + Regs.NotCounted + ")";
  }
  FindingBuilder B = diag(
      Loc,
      "{0} reaches {1}% occupancy on {2}: {3} block{4} of {5} threads ({6} "
      "of the {7} warps an SM holds) fit at once, limited by {8}: {9}");
  B << Name << PerTarget{std::to_string(percent(O.fraction()))} << A.Name
    << PerTarget{std::to_string(O.BlocksPerSM)}
    << (O.BlocksPerSM == 1 ? "" : "s") << unsigned(Threads)
    << PerTarget{std::to_string(O.ActiveWarps)}
    << PerTarget{std::to_string(O.MaxWarps)} << limiterName(O.Limiter)
    << Cause + (Next.empty() ? "" : "; " + Next);
  B.metric("blocks_per_sm", O.BlocksPerSM)
      .metric("occupancy", O.fraction())
      .metric("shared_bytes_per_block", O.SharedBytesPerBlock);
  if (Regs.PerThread)
    B.metric("registers_per_thread", *Regs.PerThread);
}

WARPLINT_CHECK_FACTORY(OccupancyCheck)

} // namespace warplint::launch
