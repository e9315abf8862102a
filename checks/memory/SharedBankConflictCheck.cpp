#include "checks/memory/SharedBankConflictCheck.h"
#include "Analysis/AccessSites.h"
#include "checks/memory/OptimisedView.h"
#include "clang/AST/Attr.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include <cmath>
#include <map>
#include <numeric>
#include <set>

using namespace clang;

namespace warplint::memory {

namespace {

// V[I][J] on a two-dimensional array: its index expressions.
std::optional<std::pair<const Expr *, const Expr *>>
twoDimIndex(const Expr *E, const VarDecl *V) {
  const auto *Outer = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
  if (!Outer)
    return std::nullopt;
  const auto *Inner =
      dyn_cast<ArraySubscriptExpr>(Outer->getBase()->IgnoreParenImpCasts());
  if (!Inner)
    return std::nullopt;
  const auto *DRE =
      dyn_cast<DeclRefExpr>(Inner->getBase()->IgnoreParenImpCasts());
  if (!DRE || DRE->getDecl() != V)
    return std::nullopt;
  return std::make_pair(Inner->getIdx(), Outer->getIdx());
}

// Every use of V in Body is an element access V[i][j] whose address is not
// taken, so padding its rows changes no other code's meaning (no flat
// indexing, sizeof, pointers into it or row pointers).
bool onlyElementAccesses(const Stmt *Body, const VarDecl *V) {
  bool Ok = true;
  // Every use: in lambdas and unevaluated operands too.
  WalkOptions Uses = WalkOptions().enterLambdas();
  forEachStmt(
      Body, Uses, [&](const Stmt *S, llvm::ArrayRef<const Stmt *> Stack) {
        const auto *DRE = dyn_cast<DeclRefExpr>(S);
        if (!DRE || DRE->getDecl() != V)
          return WalkStep::Continue;
        auto Up = [&](size_t K) -> const Stmt * {
          return K < Stack.size() ? Stack[Stack.size() - 1 - K] : nullptr;
        };
        const auto *Decay1 = dyn_cast_or_null<ImplicitCastExpr>(Up(0));
        const auto *Inner = dyn_cast_or_null<ArraySubscriptExpr>(Up(1));
        const auto *Decay2 = dyn_cast_or_null<ImplicitCastExpr>(Up(2));
        const auto *Outer = dyn_cast_or_null<ArraySubscriptExpr>(Up(3));
        const auto *Use = dyn_cast_or_null<UnaryOperator>(Up(4));
        Ok = Decay1 && Decay1->getCastKind() == CK_ArrayToPointerDecay &&
             Inner && Inner->getBase() == Decay1 && Decay2 &&
             Decay2->getCastKind() == CK_ArrayToPointerDecay && Outer &&
             Outer->getBase() == Decay2 &&
             !(Use && Use->getOpcode() == UO_AddrOf);
        return Ok ? WalkStep::SkipChildren : WalkStep::Stop;
      });
  return Ok;
}

} // namespace

SharedBankConflictCheck::SharedBankConflictCheck(llvm::StringRef Name,
                                                 CheckContext &Ctx)
    : FunctionCheck(Name, Ctx),
      MinSavingPct(Options.get("MinSavingPct", int64_t(20))) {}

void SharedBankConflictCheck::storeOptions(CheckOptionMap &Opts) const {
  Opts[Name + ".MinSavingPct"] = std::to_string(MinSavingPct);
}

bool SharedBankConflictCheck::alignedFor(const ValueDecl *Root,
                                         const FunctionDecl *F,
                                         unsigned Bytes) {
  // Declared so aligned (a double2 or __align__(16) array), or the only
  // __shared__ array the function uses: ptxas puts it at the start of the
  // block's shared memory.
  const ASTContext &AST = context().astContext();
  if (!Root)
    return false;
  if (AST.getDeclAlign(Root).getQuantity() >= int64_t(Bytes))
    return true;
  const auto *V = dyn_cast<VarDecl>(Root);
  if (!V || !V->hasAttr<CUDASharedAttr>())
    return false;
  bool Other = false;
  forEachStmt(F->getBody(), [&](const Stmt *S) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *W = dyn_cast<VarDecl>(DRE->getDecl()))
        Other |= W != V && W->hasAttr<CUDASharedAttr>();
  });
  return !Other;
}

SharedBankConflictCheck::Saving
SharedBankConflictCheck::saving(const MemoryAccess &A, const FunctionDecl *F,
                                llvm::ArrayRef<CallLink> Chain, unsigned Ways,
                                unsigned Lanes, unsigned Size, bool InTally) {
  const ArchInfo &Target = arch();
  const unsigned Banks = Target.shared_memory_banks;
  const unsigned Width = Target.shared_memory_bank_width;
  double Passes = std::max(
      1.0, std::ceil(double(Lanes) * std::max(Size, Width) / (Banks * Width)));
  Saving S;
  S.Share =
      Model.sharedShare(A.E, F, Chain, double(Ways - 1) * Passes, InTally);
  S.Level = S.Share.SavingPct >= double(MinSavingPct) ? Severity::Warning
                                                      : Severity::Note;
  double Pct = S.Share.SavingPct;
  S.Text = "; the extra passes are about " +
           (Pct >= 1 ? std::to_string(unsigned(std::lround(Pct)))
                     : std::string("under 1")) +
           "% of the kernel's memory work (its shared-memory passes, and its "
           "global sectors at " +
           std::to_string(unsigned(SectorWavefronts)) + " passes each";
  if (S.Share.R.UnknownLoops || S.Share.KernelHasUnknownLoops)
    S.Text += ", taking each loop of unknown trip count as " +
              std::to_string(AssumedTrips) + " rounds";
  S.Text += ")";
  if (S.Level == Severity::Warning) {
    std::string Small = smallLaunchReason(context(), F, Chain);
    if (!Small.empty()) {
      S.Level = Severity::Note;
      S.Text += Small;
    }
  }
  return S;
}

void SharedBankConflictCheck::checkFunction(const FunctionDecl *F) {
  AffineAnalysis &AA = context().affine();
  const ArchInfo &Target = arch();
  const unsigned Banks = Target.shared_memory_banks;
  const unsigned Width = Target.shared_memory_bank_width;
  BlockShape Shape = AA.blockShape(F);
  ASTContext &AST = context().astContext();
  Followed.kernel(F);

  for (const std::vector<AccessRun> &Runs :
       accessRuns(AA, context().threadDependence(), F, MemorySpace::Shared,
                  Target.warp_size)) {
    // Judged as written in its own function: a stride that a loop
    // multiplies (on all the warp's lanes).
    const AccessRun &Own = Runs.front();
    Followed.follow(context(), Own.Access);
    if (Own.Chain.empty() && Own.Pattern.Offsets.size() >= 2)
      if (auto Loop = AA.loopPatterns(Own.Access, F)) {
        reportOverLoop(Own, F, Loop->first, Loop->second, Target);
        continue;
      }
    // The worst run: the most ways (the first of equals: the TU's order).
    const AccessRun *Worst = nullptr;
    unsigned Ways = 1;
    for (const AccessRun &R : Runs) {
      if (R.Pattern.Offsets.size() < 2)
        continue;
      unsigned W = R.Pattern.SymbolicStride
                       ? runtimeStrideWays(R.Access, R.Pattern, Target)
                       : bankConflictWays(R.Pattern.Offsets, R.Access.Size,
                                          Banks, Width);
      if (W > Ways)
        Worst = &R, Ways = W;
    }
    if (!Worst)
      continue;
    const MemoryAccess &A = Worst->Access;
    const WarpPattern &P = Worst->Pattern;
    if (P.SymbolicStride) {
      reportRuntimeStride(*Worst, F, Ways, Target);
      continue;
    }
    // What the optimiser made of it (asked only of a finding: merging never
    // adds passes): s[2*t] and s[2*t+1] of an 8-aligned array become one
    // 8-byte access, served by half-warps.
    OptimisedView View = optimisedView(context(), A);
    if (View.hidden())
      continue;
    unsigned Size = View.bytes(A);
    if (View.K == OptimisedView::Merged) {
      Ways = bankConflictWays(P.Offsets, Size, Banks, Width);
      if (Ways <= 1)
        continue;
    }
    // Siblings a lane reads or writes together, 8 or 16 contiguous bytes
    // at an address aligned to them (s[2 * t] and s[2 * t + 1] of a
    // double array): ptxas makes them one LDS.64/LDS.128 where it lays the
    // array out aligned, whatever the PTX shows (measured: a "2-way"
    // double pair had no conflict on an H100). Judged at that width, at
    // the group's first access.
    if (View.K == OptimisedView::AsWritten && P.Regular) {
      SiblingGroup G = Model.siblings(A, P, F, Worst->Chain);
      unsigned Bytes = G.ContiguousBytes;
      // Lane l's group starts at Low + Offsets[l] (the pattern's offsets
      // are relative to lane 0's base; a uniform part is taken aligned).
      int64_t Low = INT64_MAX;
      for (const MemoryAccess &M : G.Members)
        Low = std::min(Low, M.Addr.Offset.Const);
      if (G.Members.size() > 1 && (Bytes == 8 || Bytes == 16) && Bytes > Size &&
          alignedFor(A.Addr.Root, F, Bytes) &&
          llvm::all_of(P.Offsets,
                       [&](int64_t O) { return (O + Low) % Bytes == 0; })) {
        if (G.Members.front().E != A.E)
          continue;
        std::vector<int64_t> Merged;
        for (int64_t O : P.Offsets)
          Merged.push_back(O + Low);
        Ways = bankConflictWays(Merged, Bytes, Banks, Width);
        if (Ways <= 1)
          continue;
        Size = Bytes;
      }
    }

    // The padding fix: a local __shared__ T tile[R][C] used only as
    // tile[i][j], whose access becomes conflict-free with C + 1 columns.
    const auto *V = dyn_cast<VarDecl>(A.Addr.Root);
    std::optional<FixItHint> Pad;
    std::string PadText;
    if (V && Worst->Chain.empty() && V->getDeclContext() == F &&
        V->getTypeSourceInfo()) {
      const auto *Rows = AST.getAsConstantArrayType(V->getType());
      const auto *Cols =
          Rows ? AST.getAsConstantArrayType(Rows->getElementType()) : nullptr;
      auto Index = twoDimIndex(A.E, V);
      if (Cols && Index && onlyElementAccesses(F->getBody(), V)) {
        int64_t Elem =
            AST.getTypeSizeInChars(Cols->getElementType()).getQuantity();
        int64_t NewRow = (Cols->getSize().getSExtValue() + 1) * Elem;
        AffineForm I = AA.form(Index->first, F), J = AA.form(Index->second, F);
        AffineForm Padded = AffineForm::unknown();
        if (I.Known && J.Known) {
          Padded.Known = true;
          for (int T = 0; T < NumThreadTerms; ++T) {
            if (I.C[T].Symbolic || J.C[T].Symbolic) {
              Padded.Known = false;
              break;
            }
            Padded.C[T].Value = I.C[T].Value * NewRow + J.C[T].Value * Elem;
          }
        }
        WarpPattern PP = AA.pattern(Padded, Shape);
        auto ArrayLoc = V->getTypeSourceInfo()
                            ->getTypeLoc()
                            .getAsAdjusted<ConstantArrayTypeLoc>();
        auto InnerLoc =
            ArrayLoc
                ? ArrayLoc.getElementLoc().getAsAdjusted<ConstantArrayTypeLoc>()
                : ConstantArrayTypeLoc();
        if (PP.Known && !PP.SymbolicStride &&
            bankConflictWays(PP.Offsets, Size, Banks, Width) == 1 && InnerLoc &&
            InnerLoc.getSizeExpr()) {
          SourceLocation End = Lexer::getLocForEndOfToken(
              context().sourceManager().getExpansionLoc(
                  InnerLoc.getSizeExpr()->getEndLoc()),
              0, context().sourceManager(), context().langOpts());
          if (End.isValid()) {
            Pad = FixItHint::CreateInsertion(End, " + 1");
            PadText = context().sourceText(InnerLoc.getSizeExpr());
          }
        }
      }
    }

    {
      Saving Cost = saving(A, F, Worst->Chain, Ways, unsigned(P.Offsets.size()),
                           Size, true);
      FindingBuilder B = diag(
          A.E->getExprLoc(),
          "{0}-way bank conflict on '{1}' on {2}: a warp's {3} hits {0} "
          "different "
          "{4}-byte words in one of the {5} banks ({6}{7}), so it takes {0} "
          "times "
          "the passes of a conflict-free access (slides, 'Shared memory bank "
          "conflicts'){8}",
          Cost.Level);
      B << Ways << context().sourceText(A.E) << Target.Name
        << (A.AlsoLoads ? "load and store"
            : A.IsStore ? "store"
                        : "load")
        << Width << Banks
        << (P.Regular
                ? "consecutive lanes are " +
                      std::to_string(std::llabs(P.LaneStride)) + " bytes apart"
                : std::string("its lanes' addresses are not evenly "
                              "spaced")) +
               (Worst->AllLanes
                    ? std::string()
                    : ", " + activeLanesText(*Worst, Target.warp_size))
        << mergedWords(View, A) << Cost.Text;
      B.metric("bank_conflict_ways", Ways);
      B.metric("runs_per_thread", Cost.Share.R.Times);
      B.metric("saving_pct", std::round(Cost.Share.SavingPct * 10) / 10);
      if (View.K == OptimisedView::Merged)
        B.metric("merged_bytes_per_lane", Size);
      if (!Worst->AllLanes)
        B.metric("active_lanes", Worst->Lanes);
      if (P.Regular)
        B.metric("lane_stride_bytes", double(P.LaneStride));
      if (Pad)
        B << *Pad;
      B.noteMacroOrigin(A.E);
      noteCallChain(B, *Worst);
      if (Pad)
        B.note(V->getLocation(),
               "padding each row of '{0}' by one element ([{1} + 1]) puts "
               "consecutive rows in different banks")
            << V->getName() << PadText;
      else if (V)
        B.note(
            V->getLocation(),
            "pad the rows of '{0}' or permute (swizzle) its index so that the "
            "lanes of a warp fall in different banks")
            << V->getName();
    }
  }
}

void SharedBankConflictCheck::finishTranslationUnit() {
  Model.clear();
  const ArchInfo &Target = arch();
  const unsigned Banks = Target.shared_memory_banks;
  const unsigned Width = Target.shared_memory_bank_width;
  for (const auto &[K, A] :
       Followed.unfollowed(context(), context().affine())) {
    const WarpPattern &P = A.Pattern;
    if (P.Offsets.size() < 2)
      continue;
    unsigned Ways = bankConflictWays(P.Offsets, A.Bytes, Banks, Width);
    if (Ways <= 1)
      continue;
    {
      FindingBuilder B = diag(
          A.Loc,
          "{0}-way bank conflict on '{1}' on {2}: a warp's {3} hits {0} "
          "different {4}-byte words in one of the {5} banks ({6}), so it takes "
          "{0} times the passes of a conflict-free access, as the optimised "
          "code of '{7}' shows it with the calls inlined (slides, 'Shared "
          "memory bank conflicts'); how often it runs is not known to the "
          "source analysis",
          Severity::Note);
      B << Ways << context().sourceText(A.E) << Target.Name
        << (A.IsStore ? "store" : "load") << Width << Banks
        << (P.Regular
                ? "consecutive lanes are " +
                      std::to_string(std::llabs(P.LaneStride)) + " bytes apart"
                : std::string("its lanes' addresses are not evenly "
                              "spaced"))
        << functionName(K);
      B.metric("bank_conflict_ways", Ways).metric("ir_only", 1);
      if (P.Regular)
        B.metric("lane_stride_bytes", double(P.LaneStride));
      B.noteMacroOrigin(A.E);
      for (const auto &[CallLoc, Caller] : A.Calls)
        B.note(CallLoc, "inlined into '{0}' here") << Caller;
    }
  }
}

// Lanes a run-time multiple of a known stride apart (sdata[2 * s * tid] in
// the interleaved tree reduction): whatever the run-time factor, lanes whose
// words are k apart share banks at least gcd(k, banks) ways (no more than
// the lanes that run it).
unsigned SharedBankConflictCheck::runtimeStrideWays(const MemoryAccess &A,
                                                    const WarpPattern &P,
                                                    const ArchInfo &Target) {
  const unsigned Banks = Target.shared_memory_banks;
  const unsigned Width = Target.shared_memory_bank_width;
  // Only a pure run-time stride of whole words, one word per lane.
  if (A.Size > Width || P.SymbolFactor % Width != 0 ||
      llvm::any_of(P.Offsets, [&](int64_t O) { return O != P.Offsets[0]; }))
    return 1;
  return unsigned(std::min<int64_t>(
      std::gcd<int64_t>(P.SymbolFactor / Width, int64_t(Banks)),
      int64_t(P.Offsets.size())));
}

void SharedBankConflictCheck::reportRuntimeStride(const AccessRun &R,
                                                  const FunctionDecl *F,
                                                  unsigned Ways,
                                                  const ArchInfo &Target) {
  const MemoryAccess &A = R.Access;
  const WarpPattern &P = R.Pattern;
  const unsigned Width = Target.shared_memory_bank_width;
  if (optimisedView(context(), A).K != OptimisedView::AsWritten)
    return;
  {
    Saving Cost =
        saving(A, F, R.Chain, Ways, unsigned(P.Offsets.size()), A.Size, false);
    FindingBuilder B = diag(
        A.E->getBeginLoc(),
        "at least {0}-way bank conflict on '{1}' on {2}: consecutive lanes are "
        "({3}) bytes apart, a multiple of {4} words, so whenever that is not 0 "
        "every bank serves {0} or more different words of a warp's {5}{6} "
        "(slides, 'Shared memory bank conflicts'){7}",
        Cost.Level);
    B << Ways << context().sourceText(A.E) << Target.Name << P.SymbolName
      << unsigned(P.SymbolFactor / Width)
      << (A.AlsoLoads ? "load and store"
          : A.IsStore ? "store"
                      : "load")
      << (R.AllLanes ? std::string()
                     : " " + activeLanesText(R, Target.warp_size))
      << Cost.Text;
    B.metric("bank_conflict_ways", Ways);
    B.metric("runs_per_thread", Cost.Share.R.Times);
    B.metric("saving_pct", std::round(Cost.Share.SavingPct * 10) / 10);
    B.noteMacroOrigin(A.E);
    noteCallChain(B, R);
  }
}

// One note per call of the chain that reaches an access, innermost first.
void SharedBankConflictCheck::noteCallChain(FindingBuilder &B,
                                            const AccessRun &R) {
  for (const CallLink &Link : llvm::reverse(R.Chain))
    B.note(callLocation(Link), "{0}") << describeCall(
        Link, [&](const Stmt *S) { return context().sourceText(S); });
}

// The values a loop gives its multiplied local, for messages: "offset = 1,
// 2, 4, ... while offset < n", or every value of a short bounded sequence.
static std::string describeValues(const LoopValues &LV,
                                  const std::string &CondText) {
  std::string Out = LV.Var->getName().str() + " = ";
  const std::vector<int64_t> &V = LV.Values;
  bool All = LV.Bounded && V.size() <= 4;
  for (size_t I = 0; I < V.size() && I < (All ? V.size() : 3); ++I)
    Out += (I ? ", " : "") + std::to_string(V[I]);
  if (!All)
    Out += LV.Bounded ? ", ..., " + std::to_string(V.back()) : ", ...";
  if (!CondText.empty())
    Out += " while " + CondText;
  return Out;
}

void SharedBankConflictCheck::reportOverLoop(
    const AccessRun &Own, const FunctionDecl *F, const LoopValues &LV,
    const std::vector<WarpPattern> &AllLanes, const ArchInfo &Target) {
  const MemoryAccess &A = Own.Access;
  const unsigned Banks = Target.shared_memory_banks;
  const unsigned Width = Target.shared_memory_bank_width;
  // On the lanes that run it (a guard `tid < 16` around the loop's access):
  // the same lanes at every value.
  std::vector<WarpPattern> Patterns;
  for (const WarpPattern &P : AllLanes)
    Patterns.push_back(Own.AllLanes ? P : restrictLanes(P, Own.Mask));
  std::vector<unsigned> Ways;
  for (const WarpPattern &P : Patterns)
    Ways.push_back(P.Offsets.size() < 2
                       ? 1
                       : bankConflictWays(P.Offsets, A.Size, Banks, Width));
  unsigned Worst = *llvm::max_element(Ways);
  if (Worst <= 1 || optimisedView(context(), A).K != OptimisedView::AsWritten)
    return;
  // Without a bound the values run on past what a warp can tell apart: they
  // end where the worst is first reached.
  size_t Seen = Ways.size();
  if (!LV.Bounded)
    Seen = size_t(llvm::find(Ways, Worst) - Ways.begin()) + 1;
  unsigned Least = *std::min_element(Ways.begin(), Ways.begin() + Seen);
  std::string Spacing =
      "its lanes' addresses are not evenly spaced at some of these values";
  if (llvm::all_of(llvm::make_range(Patterns.begin(), Patterns.begin() + Seen),
                   [](const WarpPattern &P) { return P.Regular; })) {
    int64_t Lo = INT64_MAX, Hi = 0;
    for (size_t I = 0; I < Seen; ++I) {
      Lo = std::min<int64_t>(Lo, std::llabs(Patterns[I].LaneStride));
      Hi = std::max<int64_t>(Hi, std::llabs(Patterns[I].LaneStride));
    }
    Spacing = "consecutive lanes are " + std::to_string(Lo) +
              (Lo == Hi ? "" : " to " + std::to_string(Hi)) + " bytes apart";
  }
  if (!Own.AllLanes)
    Spacing += ", " + activeLanesText(Own, Target.warp_size);
  // Over the loop: the mean of its steps' ways.
  double MeanWays = 0;
  for (size_t I = 0; I < Seen; ++I)
    MeanWays += Ways[I];
  MeanWays /= double(Seen);
  Saving Cost =
      saving(A, F, {}, unsigned(std::lround(MeanWays)),
             unsigned(Patterns.front().Offsets.size()), A.Size, false);
  {
    FindingBuilder B = diag(
        A.E->getExprLoc(),
        "{0}-way bank conflict on '{1}' on {2} at worst, {3} to {0}-way over "
        "the "
        "loop ({4}): a warp's {5} hits up to {0} different {6}-byte words in "
        "one "
        "of the {7} banks ({8}), so it takes up to {0} times the passes of a "
        "conflict-free access (slides, 'Shared memory bank conflicts'){9}",
        Cost.Level);
    B << Worst << context().sourceText(A.E) << Target.Name
      << (Least <= 1 ? std::string("conflict-free")
                     : std::to_string(Least) + "-way")
      << describeValues(LV, LV.Cond ? context().sourceText(LV.Cond) : "")
      << (A.AlsoLoads ? "load and store"
          : A.IsStore ? "store"
                      : "load")
      << Width << Banks << Spacing << Cost.Text;
    B.metric("runs_per_thread", Cost.Share.R.Times);
    B.metric("saving_pct", std::round(Cost.Share.SavingPct * 10) / 10);
    B.metric("bank_conflict_ways", Worst)
        .metric("bank_conflict_ways_least", Least);
    if (!Own.AllLanes)
      B.metric("active_lanes", Own.Lanes);
    B.noteMacroOrigin(A.E);
    if (const auto *V = dyn_cast<VarDecl>(A.Addr.Root))
      B.note(
          V->getLocation(),
          "pad the index into '{0}' (one word per {1} words: i + i / {1}) or "
          "permute (swizzle) it so that the lanes of a warp fall in different "
          "banks at every step of the loop")
          << V->getName() << Banks;
  }
}

WARPLINT_CHECK_FACTORY(SharedBankConflictCheck)

} // namespace warplint::memory
