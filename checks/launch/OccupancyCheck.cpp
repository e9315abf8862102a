#include "checks/launch/OccupancyCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/CallGraph.h"
#include "Analysis/Launches.h"
#include "checks/launch/KernelResources.h"
#include "checks/launch/VerdictGroups.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"

using namespace clang;

namespace warplint::launch {

OccupancyCheck::OccupancyCheck(llvm::StringRef Name, CheckContext &Ctx)
    : FunctionCheck(Name, Ctx),
      MinOccupancy(Options.get("MinOccupancy", int64_t(50))),
      MinGain(Options.get("MinGain", int64_t(10))) {}

void OccupancyCheck::storeOptions(CheckOptionMap &Opts) const {
  Opts[Name + ".MinOccupancy"] = std::to_string(MinOccupancy);
  Opts[Name + ".MinGain"] = std::to_string(MinGain);
}

std::optional<OccupancyCheck::Launch>
OccupancyCheck::launchOf(const CallExpr *Call) {
  LaunchSite L = launchSite(Call);
  if (!L.Kernel || !L.Block)
    return std::nullopt;
  return Launch{Call, L.Kernel, L.Grid, L.Block, L.SharedBytes};
}

void OccupancyCheck::launchMatched(const CallExpr *Call) {
  // Before any check's end of the TU asks for registers (launch-block-size's
  // may come first): every kernel this check will ask for is expected. It
  // judges the launches of the code as written (checkFunction), which the
  // call graph walks too: a launch in a template's instantiation, or in a
  // generic lambda's, which the graph does not walk (llm.c's
  // attention_backward.cu dispatches 18 kernels over block sizes so), is
  // judged nowhere, and expecting it compiled its kernel for nothing.
  const FunctionDecl *Caller = context().callGraph().callerOf(Call);
  if (!Caller || Caller->isTemplateInstantiation() ||
      inDeadBranch(Call, Caller, context().astContext()))
    return;
  if (std::optional<Launch> L = launchOf(Call))
    judge(*L, /*Expect=*/true);
}

void OccupancyCheck::checkFunction(const FunctionDecl *F) {
  // A launch written in a lambda is one this function makes.
  forEachStmt(
      F->getBody(), WalkOptions().enterLambdas(),
      [&](const Stmt *S, llvm::ArrayRef<const Stmt *> Path) {
        const auto *Call = dyn_cast<CallExpr>(S);
        if (!Call)
          return;
        if (isLaunch(Call) && !inDeadBranch(Path, Call, context().astContext()))
          if (std::optional<Launch> L = launchOf(Call))
            Launches.push_back(*L);
        if (std::optional<SharedOptIn> O = sharedOptIn(Call))
          if (auto Bytes = context().affine().literalValueOf(O->Bytes))
            OptIns[O->Kernel] = std::max<uint64_t>(OptIns[O->Kernel], *Bytes);
      });
}

namespace {
unsigned percent(double F) { return unsigned(100.0 * F + 0.5); }
} // namespace

std::optional<OccupancyCheck::Verdict>
OccupancyCheck::verdict(const Launch &L, const LaunchResources &R,
                        const Occupancy &O, std::optional<uint64_t> G) {
  const ArchInfo &A = arch();
  Verdict V;
  V.ByRegisters = O.limitedBy(OccupancyLimiter::Registers);
  V.ByShared = O.limitedBy(OccupancyLimiter::SharedMemory);
  if (percent(O.fraction()) >= uint64_t(MinOccupancy) ||
      (!V.ByRegisters && !V.ByShared))
    return std::nullopt;
  // __launch_bounds__(T, minBlocks) states the occupancy the author chose
  // (the register budget ptxas was given): met, it is not a finding.
  if (std::optional<unsigned> Min = launchBoundsOf(L.Kernel).MinBlocks;
      Min && O.BlocksPerSM >= *Min)
    return std::nullopt;
  // A grid that is resident already gains nothing from more room per SM: a
  // constant grid that one SM holds at once, a persistent kernel of k blocks
  // for every SM with k fitting, a grid sized by the occupancy API. One of k
  // blocks per SM gains only up to k.
  if (G) {
    // A grid the GPU holds at once already (every SM of the architecture's
    // largest part running its share at the present occupancy) runs in one
    // wave: more room per SM gives it nothing.
    uint64_t Blocks = *G;
    if (Blocks <= uint64_t(A.sm_count) * O.BlocksPerSM)
      return std::nullopt;
    V.MaxBlocks = unsigned(
        std::min<uint64_t>((Blocks + A.sm_count - 1) / A.sm_count, UINT_MAX));
  } else {
    GridPerSM P = gridPerSMOf(L.Grid, context().astContext());
    if (P.K == GridPerSM::Resident ||
        (P.K == GridPerSM::PerSM && P.BlocksPerSM <= O.BlocksPerSM))
      return std::nullopt;
    if (P.K == GridPerSM::PerSM)
      V.MaxBlocks = unsigned(P.BlocksPerSM);
    else
      V.FillsAbove = uint64_t(A.sm_count) * O.BlocksPerSM;
  }
  // The change must add at least MinGain points of occupancy: fewer warps
  // hide no more latency worth a register cut or a smaller tile.
  unsigned MinWarps = unsigned((uint64_t(MinGain) * O.MaxWarps + 99) / 100);
  V.Step = nextOccupancyStep(A, R, std::max(MinWarps, 1u), V.MaxBlocks);
  if (!V.Step)
    return std::nullopt;
  return V;
}

std::pair<Occupancy, std::optional<OccupancyCheck::Verdict>>
OccupancyCheck::verdictWith(const Launch &L, LaunchResources R, unsigned Regs,
                            std::optional<uint64_t> G) {
  R.RegistersPerThread = Regs;
  Occupancy O = computeOccupancy(arch(), R);
  return {O, O.BlocksPerSM ? verdict(L, R, O, G) : std::nullopt};
}

void OccupancyCheck::finishTranslationUnit() {
  // The kernels whose registers the verdicts need were expected as their
  // launches were matched (launchMatched): the run compiles them together.
  for (const Launch &L : Launches)
    judge(L);
  Groups.flush();
  // One note for the file: the kernels whose verdict its registers could
  // change and that the run could not count.
  if (!Unjudged.empty()) {
    std::vector<std::string> Names;
    for (const UnjudgedLaunch &U : Unjudged)
      if (std::string N = "'" + U.Kernel->getNameAsString() + "'";
          !llvm::is_contained(Names, N))
        Names.push_back(N);
    std::string List;
    const size_t Named = Names.size() > 12 ? 10 : Names.size();
    for (size_t I = 0; I < Named; ++I)
      List += (I ? ", " : "") + Names[I];
    if (Names.size() > Named)
      List += " and " + std::to_string(Names.size() - Named) + " more";
    const bool One = Unjudged.size() == 1;
    FindingBuilder B = diag(
        Unjudged.front().Loc,
        "{0} {1} judged on {2} without {3} registers ({4}): shared memory "
        "alone does not limit {3} occupancy, and the registers, which could, "
        "are unknown; the build's object, or --registers-from=nvcc, counts "
        "them",
        Severity::Note);
    B << (One ? List : std::to_string(Unjudged.size()) + " launches of " + List)
      << (One ? "is" : "are") << arch().Name << (One ? "its" : "their")
      << Unjudged.front().NotCounted;
    B.metric("launches_not_judged", double(Unjudged.size()));
  }
  Unjudged.clear();
  Launches.clear();
  OptIns.clear();
}

void OccupancyCheck::judge(const Launch &L, bool Expect) {
  std::optional<BlockShape> S = context().affine().literalShapeOf(L.Block);
  if (!S)
    return; // a block size known only at run time
  const ArchInfo &A = arch();
  uint64_t Threads = uint64_t(S->X) * S->Y * S->Z;
  // Beyond the per-block limit, one block of one thread, or a single block:
  // launch-block-size's verdicts, or no SM to fill.
  std::optional<uint64_t> G;
  if (auto Shape = context().affine().literalShapeOf(L.Grid))
    G = uint64_t(Shape->X) * Shape->Y * Shape->Z;
  else
    G = gridBlocksOf(L.Grid, context().astContext());
  if (Threads > A.max_threads_per_block || Threads == 1 || (G && *G == 1))
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
  if (Expect)
    return expectKernelResourcesOf(context(), A, L.Kernel);
  auto Opt = OptIns.find(L.Kernel);
  if (Opt != OptIns.end())
    R.MaxDynamicSharedOptIn = unsigned(Opt->second);
  KernelResourcesSeen Res =
      kernelResourcesOf(context(), A, L.Kernel, StaticShared);
  R.RegistersPerThread = Res.Registers;
  R.StaticSharedBytes = Res.StaticSharedBytes;
  Occupancy O = computeOccupancy(A, R);
  std::string Name = "'" + L.Kernel->getNameAsString() + "'";
  SourceLocation Loc = L.Block->getBeginLoc();
  std::string RegText = Res.registerText();

  if (O.BlocksPerSM == 0) {
    // Too much shared memory is the memory checks' verdict; too many
    // registers for one block is this one's.
    if (O.BySharedMemory == 0 || !Res.Registers || O.ByRegisters != 0)
      return;
    diag(Loc,
         "{0} cannot be launched with blocks of {1} threads on {2}: {3} need "
         "{4} "
         "registers per block, more than the {5} an SM has for one block; the "
         "launch fails (cudaErrorLaunchOutOfResources). Cap them with "
         "__launch_bounds__({1}) or use smaller blocks",
         Severity::Error)
        << Name << unsigned(Threads) << A.Name << PerTarget{RegText}
        << PerTarget{std::to_string(*Res.Registers * unsigned(Threads))}
        << PerTarget{std::to_string(A.max_registers_per_block)};
    return;
  }
  std::optional<Verdict> V = verdict(L, R, O, G);
  if (!V) {
    // Without its registers, a launch that shared memory alone does not
    // limit may still be limited by them: the file's note says so, only where
    // warplint's own route left the kernel out and nvcc's would count it: a
    // kernel over the size budget, or code generation that failed on a parse
    // without errors (IRLayer.cpp's words). A legacy warp intrinsic has its own
    // error, a parse with errors has said so, a kernel of another file has no
    // registers in this one, and ptxas refusing the file's PTX says nothing of
    // one kernel's registers (SHOC's radix sort kernels take 10 to 30 from
    // nvcc: nothing limits them).
    llvm::StringRef Why = Res.NotCounted;
    if (!Res.Registers && O.BlocksPerSM &&
        context().services().countsRegisters(A) &&
        !context().astContext().getDiagnostics().hasErrorOccurred() &&
        (Why.contains("LLVM instructions after -O3") ||
         Why.contains("the device code could not be generated"))) {
      auto [OM, W] = verdictWith(L, R, Res.MostRegisters, G);
      if (OM.BlocksPerSM != O.BlocksPerSM && (!OM.BlocksPerSM || W))
        Unjudged.push_back({Loc, L.Kernel, Res.NotCounted});
    }
    return;
  }
  const bool ByRegisters = V->ByRegisters, ByShared = V->ByShared;
  const unsigned MaxBlocks = V->MaxBlocks;
  const uint64_t FillsAbove = V->FillsAbove;
  const std::optional<OccupancyStep> Step = V->Step;
  // Registers that the verdict cannot count, or that warplint's own code
  // generation counted (nvcc's allocation is within RouteError of it for
  // 203 of 211 corpus kernels, bench/realcode/routes-sm80.txt): where a
  // count in that range
  // would take the verdict away, or registers not counted may bind before
  // shared memory, the finding is a note that says so.
  std::string Unsure;
  if (!Res.Registers) {
    // The most the kernel may be given: where even that fits more blocks
    // than shared memory does, the verdict stands.
    if (verdictWith(L, R, Res.MostRegisters, G).first.BlocksPerSM !=
        O.BlocksPerSM)
      Unsure = "registers not counted may bind before shared memory, so the "
               "occupancy may be lower and the limit another";
  } else if (Res.Generated) {
    for (int Delta : {-int(RouteError), int(RouteError)}) {
      int Regs = std::clamp(int(*Res.Registers) + Delta, 1,
                            int(A.max_registers_per_thread));
      if (!verdictWith(L, R, unsigned(Regs), G).second) {
        Unsure = "the registers are those of warplint's own code generation "
                 "of the kernel, and nvcc's may differ by " +
                 std::to_string(RouteError) + ": with " + std::to_string(Regs) +
                 " the verdict would not stand (the build's object, or "
                 "--registers-from=nvcc, gives nvcc's count)";
        break;
      }
    }
  }

  // The registers stand as '\x03' until the group's text is known.
  std::vector<std::string> Causes;
  if (ByRegisters)
    Causes.push_back("\x03, " + std::to_string(O.RegistersPerBlock) +
                     " allocated per block of the SM's " +
                     std::to_string(A.registers_per_sm));
  if (ByShared) {
    std::string Parts;
    auto Add = [&](unsigned Bytes, const char *What) {
      if (Bytes)
        Parts +=
            (Parts.empty() ? "" : " + ") + std::to_string(Bytes) + " " + What;
    };
    Add(R.StaticSharedBytes, "static");
    Add(R.DynamicSharedBytes, "dynamic");
    Add(A.reserved_shared_memory_per_block, "reserved");
    std::string Cause = std::to_string(O.SharedBytesPerBlock) +
                        " bytes of shared memory allocated per block (" +
                        Parts + ") of the " +
                        std::to_string(A.shared_memory_per_sm) + " an SM has";
    if (!Res.Registers)
      Cause += " (" + Res.NotCounted + ")";
    Causes.push_back(Cause);
  }
  std::vector<std::string> Changes;
  if (Step->Registers)
    Changes.push_back(std::to_string(*Step->Registers) +
                      " registers per thread or fewer");
  if (Step->SharedBytes)
    Changes.push_back(
        std::to_string(*Step->SharedBytes) +
        " bytes of shared memory per block or less" +
        (A.reserved_shared_memory_per_block
             ? " (" + std::to_string(Step->SharedAllocated) +
                   " allocated, the " +
                   std::to_string(A.reserved_shared_memory_per_block) +
                   " reserved included)"
             : std::string()));
  const Occupancy &After = Step->After;
  std::string Next = "with " + Changes[0] +
                     (Changes.size() > 1 ? " and " + Changes[1] : "") + ", " +
                     std::to_string(After.BlocksPerSM) + " blocks (" +
                     std::to_string(After.ActiveWarps) + " warps, " +
                     std::to_string(percent(After.fraction())) + "%) would fit";
  if (Step->Registers)
    Next += " (__launch_bounds__(" + std::to_string(Threads) + ", " +
            std::to_string(After.BlocksPerSM) +
            ") or -maxrregcount=" + std::to_string(*Step->Registers) + ")";
  if (MaxBlocks != UINT_MAX && After.BlocksPerSM >= MaxBlocks && !G)
    Next += ", and the grid of " + std::to_string(MaxBlocks) +
            " blocks per SM would be resident at once";
  std::string Cause = Causes[0];
  for (size_t I = 1; I < Causes.size(); ++I)
    Cause += "; " + Causes[I];
  std::string Key = std::to_string(Threads) + '\0' +
                    std::to_string(O.BlocksPerSM) + '\0' + Cause + '\0' + Next +
                    '\0' + Unsure;
  Groups.add(
      Loc, L.Kernel, Key, Res,
      [=, this, &A](const std::string &RegText,
                    llvm::ArrayRef<SourceLocation> Others) {
        std::string Because = Cause;
        if (size_t At = Because.find('\x03'); At != std::string::npos)
          Because.replace(At, 1, RegText);
        FindingBuilder B =
            diag(Loc,
                 "{0} reaches {11}{1}% occupancy on {2}: {3} block{4} of {5} "
                 "threads ({6} of the {7} warps an SM holds) fit at once, "
                 "limited by {8}: {9}{10}{12}",
                 Unsure.empty() ? Severity::Warning : Severity::Note);
        B << Name << PerTarget{std::to_string(percent(O.fraction()))} << A.Name
          << PerTarget{std::to_string(O.BlocksPerSM)}
          << (O.BlocksPerSM == 1 ? "" : "s") << unsigned(Threads)
          << PerTarget{std::to_string(O.ActiveWarps)}
          << PerTarget{std::to_string(O.MaxWarps)} << O.limiterNames()
          << Because
          // Registers that may bind first leave the change to shared
          // memory unproven: no change is offered.
          << (!Unsure.empty() && !Res.Registers ? std::string() : "; " + Next)
          << (Unsure.empty() || Res.Registers ? "" : "at most ")
          << (Unsure.empty() ? std::string()
                             : "; a note, not a warning: " + Unsure);
        B.metric("blocks_per_sm", O.BlocksPerSM)
            .metric("occupancy", O.fraction())
            .metric("shared_bytes_per_block", O.SharedBytesPerBlock);
        if (Res.Registers)
          B.metric("registers_per_thread", *Res.Registers);
        noteGridFill(B, Loc, FillsAbove, "this matters");
        noteOtherLaunches(B, Others, Name);
      });
}

WARPLINT_CHECK_FACTORY(OccupancyCheck)

} // namespace warplint::launch
