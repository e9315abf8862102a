#include "checks/memory/UncoalescedAccessCheck.h"
#include "Analysis/AccessSites.h"
#include "Analysis/ThreadDependence.h"
#include "checks/memory/KernelTraffic.h"
#include "checks/memory/OptimisedView.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/STLExtras.h"
#include <cmath>
#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace warplint::memory {

namespace {

Traffic runTraffic(const AccessRun &R, unsigned Sector, unsigned Line,
                   unsigned Size = 0) {
  LaneRanges One{&R.Pattern, 0, Size ? Size : R.Access.Size};
  return warpTraffic(One, Sector, Line);
}

// The run-time stride's symbol as the source spells it: its name less the
// constant factor the analysis multiplied in ("(nx + 2) * 8": nx + 2).
llvm::StringRef strideSymbol(const WarpPattern &P) {
  llvm::StringRef Base = P.SymbolName;
  if (P.SymbolFactor > 1)
    Base.consume_back(" * " + std::to_string(P.SymbolFactor));
  if (Base.size() > 1 && Base.front() == '(' && Base.back() == ')')
    Base = Base.drop_front().drop_back();
  return Base;
}

// The value a guard around E in F fixes its run-time stride's symbol at:
// E in the true arm of `s == K ? ... : ...` or the then-branch of
// `if (s == K)`, where s is spelled as the stride's symbol (its name less
// the constant factor the analysis multiplied in). FasterTransformer's
// `scale_is_vector == 1 ? __ldg(p + threadIdx.x * scale_is_vector) : ...`.
std::optional<int64_t> guardedSymbol(CheckContext &Ctx, const Expr *E,
                                     const FunctionDecl *F,
                                     const WarpPattern &P) {
  llvm::StringRef Base = strideSymbol(P);
  FunctionDependence &FD = Ctx.threadDependence().forFunction(F);
  auto Fixed = [&](const Expr *Cond) -> std::optional<int64_t> {
    const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
    if (!B || B->getOpcode() != BO_EQ)
      return std::nullopt;
    for (auto [S, K] : {std::pair(B->getLHS(), B->getRHS()),
                        std::pair(B->getRHS(), B->getLHS())})
      if (auto V = K->getIntegerConstantExpr(Ctx.astContext());
          V && Ctx.sourceText(S->IgnoreParenImpCasts()) == Base)
        return V->getExtValue();
    return std::nullopt;
  };
  const Stmt *Child = E;
  for (const Stmt *S = FD.parent(E); S; Child = S, S = FD.parent(S)) {
    if (const auto *C = dyn_cast<ConditionalOperator>(S);
        C && C->getTrueExpr() == Child)
      if (auto K = Fixed(C->getCond()))
        return K;
    if (const auto *If = dyn_cast<IfStmt>(S); If && If->getThen() == Child)
      if (auto K = Fixed(If->getCond()))
        return K;
  }
  return std::nullopt;
}

// The most lanes of a warp that can reach access E of F together, from the
// conditions around it that bound one local index from both sides against
// one run-time bound: a vector load's scalar tail,
//   if (i + 3 < n) { ...uint4... } else { x = (i < n) ? in[i] : 0; ... }
// keeps i in [n - 3, n - 1], three values, and the lanes' i are 4 apart:
// one lane at most, for every n. Nothing when no such pair bounds it.
std::optional<unsigned> lanesInWindow(CheckContext &Ctx, const Expr *E,
                                      const FunctionDecl *F) {
  FunctionDependence &FD = Ctx.threadDependence().forFunction(F);
  // Per (index local, bound's text): the most of its lower offsets and the
  // least of its upper ones, i in [bound + Lo, bound + Hi].
  struct Window {
    std::optional<int64_t> Lo, Hi;
    const Expr *Index = nullptr;
  };
  std::map<std::pair<const VarDecl *, std::string>, Window> Windows;
  const ASTContext &AST = Ctx.astContext();
  // `i + c` (or `i - c`, `i`): the local and c.
  auto Split =
      [&](const Expr *X) -> std::optional<std::pair<const Expr *, int64_t>> {
    X = X->IgnoreParenImpCasts();
    int64_t C = 0;
    if (const auto *B = dyn_cast<BinaryOperator>(X);
        B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub))
      if (auto K = B->getRHS()->getIntegerConstantExpr(AST)) {
        C = B->getOpcode() == BO_Add ? K->getExtValue() : -K->getExtValue();
        X = B->getLHS()->IgnoreParenImpCasts();
      }
    const auto *Ref = dyn_cast<DeclRefExpr>(X);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    // A local that keeps its value: written once, where it is declared.
    if (!V || !V->isLocalVarDecl() || !V->getType().isConstQualified())
      return std::nullopt;
    return std::pair(X, C);
  };
  std::function<void(const Expr *, bool)> Add = [&](const Expr *Cond,
                                                    bool Holds) {
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Cond);
        U && U->getOpcode() == UO_LNot)
      return Add(U->getSubExpr(), !Holds);
    const auto *B = dyn_cast<BinaryOperator>(Cond);
    // Both sides of a && that holds, or of a || that fails.
    if (B && B->getOpcode() == (Holds ? BO_LAnd : BO_LOr)) {
      Add(B->getLHS(), Holds);
      Add(B->getRHS(), Holds);
      return;
    }
    if (!B || !B->isRelationalOp())
      return;
    BinaryOperatorKind Op = B->getOpcode();
    const Expr *L = B->getLHS(), *R = B->getRHS();
    auto LS = Split(L);
    if (!LS) { // n > i + c: i + c < n
      LS = Split(R);
      if (!LS)
        return;
      std::swap(L, R);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    if (!Holds)
      Op = BinaryOperator::negateComparisonOp(Op);
    // The bound: a whole number, the same in every thread.
    if (!R->getType()->isIntegerType() || R->isTypeDependent() ||
        FD.dependence(R) != Dependence::Uniform)
      return;
    const VarDecl *V = cast<VarDecl>(cast<DeclRefExpr>(LS->first)->getDecl());
    Window &W = Windows[{V, Ctx.sourceText(R->IgnoreParenImpCasts())}];
    W.Index = LS->first;
    int64_t C = LS->second; // i + C op n
    auto Lower = [&](int64_t O) { W.Lo = W.Lo ? std::max(*W.Lo, O) : O; };
    auto Upper = [&](int64_t O) { W.Hi = W.Hi ? std::min(*W.Hi, O) : O; };
    switch (Op) {
    case BO_LT:
      Upper(-C - 1);
      break;
    case BO_LE:
      Upper(-C);
      break;
    case BO_GT:
      Lower(-C + 1);
      break;
    case BO_GE:
      Lower(-C);
      break;
    default:
      break;
    }
  };
  const Stmt *Child = E;
  for (const Stmt *S = FD.parent(E); S; Child = S, S = FD.parent(S)) {
    if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
      if (C->getTrueExpr() == Child || C->getFalseExpr() == Child)
        Add(C->getCond(), C->getTrueExpr() == Child);
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getThen() == Child || If->getElse() == Child)
        Add(If->getCond(), If->getThen() == Child);
    } else if (const auto *B = dyn_cast<BinaryOperator>(S);
               B && B->getOpcode() == BO_LAnd && B->getRHS() == Child) {
      Add(B->getLHS(), true);
    } else if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
      break; // a loop's rounds may move the window
    }
  }
  std::optional<unsigned> Most;
  for (const auto &[Key, W] : Windows) {
    if (!W.Lo || !W.Hi)
      continue;
    AffineForm Form = Ctx.affine().form(W.Index, F);
    if (!Form.Known || Form.C[TermTy].Symbolic || !Form.C[TermTy].isZero() ||
        !Form.C[TermTz].isZero() || Form.C[TermTx].Symbolic ||
        Form.C[TermLane].Symbolic)
      continue;
    // The lanes' values of the index, apart by Spacing, each lane's its
    // own (x runs along the warp).
    if (!Form.C[TermTx].isZero() == !Form.C[TermLane].isZero())
      continue;
    int64_t Spacing = std::llabs(Form.C[TermTx].Value + Form.C[TermLane].Value);
    int64_t Values = std::max<int64_t>(0, *W.Hi - *W.Lo + 1);
    unsigned Lanes = unsigned((Values + Spacing - 1) / Spacing);
    Most = Most ? std::min(*Most, Lanes) : Lanes;
  }
  return Most;
}

// Whether S names threadIdx or blockIdx .y or .z: a thread mapping of more
// than one dimension, whose other rows or blocks may use the rest of a
// sector one warp leaves.
bool namesSecondDimension(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (auto B = cudaBuiltinComponent(E);
        B && B->second != "x" &&
        (B->first == "__cuda_builtin_threadIdx_t" ||
         B->first == "__cuda_builtin_blockIdx_t"))
      return true;
  return llvm::any_of(S->children(), namesSecondDimension);
}

// Why no change inside the kernel saves a sector of access A: it reads or
// writes one scalar of each row of a run-time length (a column of a
// row-major array: a halo, a matrix's column gathered into a vector), once
// per thread, alone (no sibling, no rounds), in a kernel of one dimension
// (threadIdx.x and blockIdx.x only, in it and the functions on the way):
// nothing in the kernel uses the rest of the sectors. Only the array's
// layout, which its other users set, would save; empty when that does not
// hold.
std::string columnReason(const MemoryAccess &A, const WarpPattern &P,
                         const CostShare &Cost, const FunctionDecl *F,
                         llvm::ArrayRef<CallLink> Chain) {
  if (!A.Records.empty() || Cost.R.Times != 1 || Cost.R.UnknownLoops)
    return "";
  // A run-time spacing is a row length: the array is laid out in rows on
  // purpose. (A constant one may be an array of records to split.)
  if (!P.SymbolicStride)
    return "";
  if (namesSecondDimension(F->getBody()))
    return "";
  for (const CallLink &Link : Chain)
    if (namesSecondDimension(Link.Caller->getBody()))
      return "";
  return std::string("; the kernel is one-dimensional and runs it once per "
                     "thread, and nothing else in it ") +
         (A.IsStore ? "writes" : "reads") +
         " the rest of those rows: no change inside the kernel saves a "
         "sector, only a layout of the array that keeps this column "
         "contiguous, which its other users set, so this is a note";
}

// Whether the run-time stride's symbol is a parameter of F that holds a
// 0/1 flag: a bool, or an integer named as a predicate (scale_is_vector,
// isStrided, use_bias, has_scale). Lanes spread by a flag times the
// element's size read one broadcast value or consecutive elements: never
// more sectors than the bytes need.
bool flagSymbol(const FunctionDecl *F, const WarpPattern &P, unsigned Size) {
  // The flag times the element's size (or a byte array's flag alone).
  if (P.SymbolFactor != Size && P.SymbolFactor != 1)
    return false;
  llvm::StringRef Base = strideSymbol(P);
  for (const ParmVarDecl *V : F->parameters()) {
    if (V->getName() != Base)
      continue;
    QualType T = V->getType().getNonReferenceType();
    if (T->isBooleanType())
      return true;
    if (!T->isIntegerType())
      return false;
    // The words of the name, lower case: scale_is_vector, isStrided.
    llvm::SmallVector<std::string, 4> Words(1);
    for (char C : Base) {
      if (C == '_') {
        if (!Words.back().empty())
          Words.emplace_back();
        continue;
      }
      if (llvm::isUpper(C) && !Words.back().empty())
        Words.emplace_back();
      Words.back() += llvm::toLower(C);
    }
    return llvm::any_of(
               Words,
               [](const std::string &W) { return W == "is" || W == "has"; }) ||
           llvm::is_contained({"use", "enable", "do", "with"}, Words.front());
  }
  return false;
}

bool isConstRestrict(const ValueDecl *Root) {
  QualType T = Root->getType();
  return T->isPointerType() && T.isRestrictQualified() &&
         T->getPointeeType().isConstQualified();
}

} // namespace

UncoalescedAccessCheck::UncoalescedAccessCheck(llvm::StringRef Name,
                                               CheckContext &Ctx)
    : FunctionCheck(Name, Ctx),
      MinSavingPct(Options.get("MinSavingPct", int64_t(20))) {}

void UncoalescedAccessCheck::storeOptions(CheckOptionMap &Opts) const {
  Opts[Name + ".MinSavingPct"] = std::to_string(MinSavingPct);
}

void UncoalescedAccessCheck::checkFunction(const FunctionDecl *F) {
  reportLaneWalks(F);
  AffineAnalysis &AA = context().affine();
  Followed.kernel(F);
  const ArchInfo &Target = arch();
  const unsigned Sector = Target.global_sector_bytes;
  const unsigned Line = Target.global_line_bytes;
  // The advice is given once per function and array.
  std::set<const void *> Advised;

  for (const std::vector<AccessRun> &Runs :
       accessRuns(AA, context().threadDependence(), F, MemorySpace::Global,
                  Target.warp_size)) {
    // The worst run: the most sectors beyond what its bytes need (the first
    // of equals: the TU's order).
    const AccessRun *Worst = nullptr;
    Traffic T;
    int64_t Waste = 0;
    if (!Runs.empty())
      Followed.follow(context(), Runs.front().Access);
    for (const AccessRun &R : Runs) {
      Traffic RT = runTraffic(R, Sector, Line);
      if (!RT.wastes(Sector))
        continue;
      if (!Worst || int64_t(RT.Sectors) - RT.Needed > Waste)
        Worst = &R, T = RT, Waste = int64_t(RT.Sectors) - RT.Needed;
    }
    if (!Worst)
      continue;
    const MemoryAccess &A = Worst->Access;
    const WarpPattern &P = Worst->Pattern;
    // One lane at most, for any run-time bound: one sector, nothing lost.
    if (unsigned X = AA.blockShape(F).X; X == 0 || X % Target.warp_size == 0)
      if (std::optional<unsigned> Most = lanesInWindow(context(), A.E, F);
          Most && *Most <= 1)
        continue;
    // A guard that fixes the run-time stride at 0 (a broadcast) or at the
    // element's size (consecutive lanes, consecutive elements): coalesced.
    if (P.SymbolicStride && Worst->Chain.empty())
      if (std::optional<int64_t> K = guardedSymbol(context(), A.E, F, P);
          K && (*K == 0 || *K * P.SymbolFactor == int64_t(A.Size)))
        continue;
    // A 0/1 flag times the element's size: a broadcast or coalesced.
    if (P.SymbolicStride && Worst->Chain.empty() && flagSymbol(F, P, A.Size))
      continue;
    // What the optimiser made of it (asked only of a finding: merging never
    // makes an access waste more).
    OptimisedView View = optimisedView(context(), A);
    if (View.hidden())
      continue;
    const unsigned Size = View.bytes(A);
    if (View.K == OptimisedView::Merged) {
      T = runTraffic(*Worst, Sector, Line, Size);
      if (!T.wastes(Sector))
        continue;
      // Merged with its neighbour (.z with .w), it is still a sibling of
      // the fields the optimised code stores as written (.x, .y): their
      // group, reported at its first such member, counts its bytes.
      SiblingGroup Around = Model.siblings(A, P, F, Worst->Chain);
      if (llvm::any_of(Around.Members, [&](const MemoryAccess &M) {
            return M.E != A.E &&
                   optimisedView(context(), M).K == OptimisedView::AsWritten;
          }))
        continue;
    }
    std::string Spacing;
    if (P.SymbolicStride) {
      Spacing = "the lanes are spread by (" + P.SymbolName +
                ") bytes, a run-time value (taken here to be at least a " +
                std::to_string(Line) + "-byte line)";
    } else {
      if (P.Regular)
        Spacing = "consecutive lanes are " +
                  std::to_string(std::llabs(P.LaneStride)) + " bytes apart";
      else
        Spacing = "the lanes' addresses are not evenly spaced";
    }
    if (!Worst->AllLanes)
      Spacing += ", " + activeLanesText(*Worst, Target.warp_size);
    unsigned Efficiency = T.efficiencyPct(Sector);
    std::string Assumption;
    if (P.DependsOnBlockShape)
      Assumption = " (assuming blockDim.x is a multiple of " +
                   std::to_string(Target.warp_size) + ")";

    // The siblings that read or write the rest of the same sectors: the
    // group says what reaches L2 and DRAM (reported once, at its first).
    SiblingGroup G;
    if (View.K != OptimisedView::Merged) {
      G = Model.siblings(A, P, F, Worst->Chain);
      // A sibling the optimiser removed moves nothing; the group is
      // reported at its first access that the optimised code keeps.
      llvm::erase_if(G.Members, [&](const MemoryAccess &M) {
        return M.E != A.E &&
               optimisedView(context(), M).K == OptimisedView::Removed;
      });
      const MemoryAccess *Reporter = nullptr;
      for (const MemoryAccess &M : G.Members) {
        // A merged access is judged at its merged width, alone.
        OptimisedView::Kind K = optimisedView(context(), M).K;
        if (M.E == A.E || K == OptimisedView::AsWritten) {
          Reporter = &M;
          break;
        }
      }
      if (Reporter && Reporter->E != A.E &&
          runTraffic(*Worst, Sector, Line, Reporter->Size).wastes(Sector))
        continue;
    }
    const bool Grouped = G.Members.size() > 1;
    const Traffic &Moved = Grouped ? G.Together : T;
    // The group uses what it moves: the fix saves requests, not bandwidth.
    const bool Filled =
        Grouped && Moved.efficiencyPct(Sector) >= FilledGroupPct;
    // A group with the rounds of its unrolled loop moves Moved once for
    // all of them.
    double PerRun = double(std::max(1u, G.Rounds));
    CostShare Cost =
        Model.share(A.E, F, Worst->Chain, Moved.Sectors / PerRun,
                    (Filled ? Moved.Sectors : Moved.Needed) / PerRun);
    const bool MayBeUnit = P.SymbolicStride &&
                           Model.strideMayBeUnit(P.SymbolName, F, Worst->Chain);
    Severity Level = !Filled && !MayBeUnit && Cost.SavingPct >= MinSavingPct
                         ? Severity::Warning
                         : Severity::Note;
    // A kernel whose launches cannot load the memory system; a column
    // that no change inside the kernel saves.
    std::string Small;
    bool Column = false;
    if (Level == Severity::Warning) {
      Small = smallLaunchReason(context(), F, Worst->Chain);
      if (Small.empty() && !Grouped) {
        Small = columnReason(A, P, Cost, F, Worst->Chain);
        Column = !Small.empty();
      }
      if (!Small.empty())
        Level = Severity::Note;
    }

    std::string CostText;
    if (Grouped) {
      std::string Others;
      unsigned Named = 0;
      std::set<const Expr *> Said; // a sibling's rounds are one name
      for (const MemoryAccess &M : G.Members)
        if (M.E != A.E && Said.insert(M.E).second) {
          Others += (Named ? ", '" : "'") + context().sourceText(M.E, 40) + "'";
          ++Named;
        }
      std::string Who;
      if (Named)
        Who = Others + " " +
              (A.IsStore ? (Named == 1 ? "writes" : "write")
                         : (Named == 1 ? "reads" : "read")) +
              " the rest of the same sectors";
      if (G.Rounds) {
        std::string Rounds =
            (G.Rounds == 2
                 ? std::string("the other round")
                 : "the other " + std::to_string(G.Rounds - 1) + " rounds") +
            " of its loop, which nvcc unrolls, " +
            (A.IsStore ? (G.Rounds == 2 ? "writes" : "write")
                       : (G.Rounds == 2 ? "reads" : "read")) +
            " the rest of the same sectors";
        Who = Who.empty() ? Rounds : Who + ", and " + Rounds;
      }
      if (G.CopyPieces) {
        std::string Pieces = "the copy of the whole '" + G.CopiedType +
                             "' moves its other " +
                             std::to_string(G.CopyPieces - 1) + " piece" +
                             (G.CopyPieces > 2 ? "s" : "") + " of " +
                             std::to_string(A.Size) + " bytes beside it";
        Who = Who.empty() ? Pieces : Who + ", and " + Pieces;
      }
      CostText = "; " + Who + ": together the " +
                 std::to_string(G.Members.size()) + " accesses move " +
                 std::to_string(Moved.Sectors) + " sectors for " +
                 std::to_string(Moved.UsefulBytes) + " useful bytes (" +
                 std::to_string(Moved.efficiencyPct(Sector)) + "%)";
      if (Filled)
        CostText += ", so no L2 or DRAM bandwidth is lost, only L1 work (" +
                    std::to_string(G.SumSectors) +
                    " sectors requested for the " +
                    std::to_string(Moved.Sectors) + " the group needs)";
    }
    auto Pct = [](double V) {
      return V >= 1 ? std::to_string(unsigned(std::lround(V)))
                    : std::string("under 1");
    };
    if (!Filled) {
      CostText += "; " + std::string(Grouped ? "they move" : "it moves") +
                  " about " + Pct(Cost.AccessPct) +
                  "% of the kernel's global sectors, and laying the data out "
                  "for the warp would save about " +
                  Pct(Cost.SavingPct) + "% of them";
      std::vector<std::string> Taken;
      if (Cost.R.UnknownLoops || Cost.KernelHasUnknownLoops)
        Taken.push_back("taking each loop of unknown trip count as " +
                        std::to_string(AssumedTrips) + " rounds");
      if (!Cost.R.Guard.empty())
        Taken.push_back(Cost.R.Guard +
                        ", each factor not written with "
                        "constants taken as " +
                        std::to_string(AssumedTrips));
      if (!Taken.empty())
        CostText += " (" + llvm::join(Taken, "; ") + ")";
    }
    CostText += Small;
    if (MayBeUnit)
      CostText += "; the access is coalesced if (" + P.SymbolName + ") is " +
                  std::to_string(Size) +
                  " at run time, and the kernel compares none of its terms "
                  "with anything, as it would a row length";

    {
      FindingBuilder B = diag(A.E->getBeginLoc(),
                              "each warp {0} of '{1}' touches {2} "
                              "{3}-byte sectors for {4} useful bytes "
                              "({5}% efficiency) on {6}: {7}{8}{9}{10}",
                              Level);
      B << (A.AlsoLoads ? "load and store"
            : A.IsStore ? "store"
                        : "load")
        << context().sourceText(A.E) << T.Sectors << Sector << T.UsefulBytes
        << Efficiency << Target.Name << Spacing << Assumption
        << mergedWords(View, A) << CostText;
      B.metric("sectors_per_request", T.Sectors)
          .metric("sectors_needed", T.Needed)
          .metric("lines_per_request", T.Lines)
          .metric("useful_bytes", T.UsefulBytes)
          .metric("bytes_used_pct", Efficiency)
          .metric("runs_per_thread", Cost.R.Times)
          .metric("kernel_sectors_pct", Cost.AccessPct)
          .metric("saving_pct", Cost.SavingPct);
      if (Grouped)
        B.metric("group_accesses", double(G.Members.size()))
            .metric("group_sectors", Moved.Sectors)
            .metric("group_useful_bytes", Moved.UsefulBytes)
            .metric("group_requested_sectors", G.SumSectors);
      if (P.Regular && !P.SymbolicStride)
        B.metric("lane_stride_bytes", double(P.LaneStride));
      if (View.K == OptimisedView::Merged)
        B.metric("merged_bytes_per_lane", Size);
      if (!Worst->AllLanes)
        B.metric("active_lanes", Worst->Lanes);
      B.noteMacroOrigin(A.E);
      for (const CallLink &Link : llvm::reverse(Worst->Chain))
        B.note(callLocation(Link), "{0}") << describeCall(
            Link, [&](const Stmt *S) { return context().sourceText(S); });

      // How to fix it. The struct whose array the lanes walk: the one of the
      // enclosing structs whose size is the lane stride.
      const RecordDecl *FieldOf = nullptr;
      unsigned RecordSize = 0;
      for (auto [RD, RDSize] : A.Records)
        if (RDSize > Size &&
            (P.SymbolicStride || std::llabs(P.LaneStride) == int64_t(RDSize))) {
          FieldOf = RD;
          RecordSize = RDSize;
        }
      const RecordDecl *WholeRecord = nullptr;
      if (const auto *RT = A.E->getType()->getAs<RecordType>())
        if (Size < context()
                       .astContext()
                       .getTypeSizeInChars(A.E->getType())
                       .getQuantity())
          WholeRecord = RT->getDecl();
      // A column has no fix in the kernel to advise (its reason says so).
      if (Column || !Advised.insert(A.Addr.Root).second)
        continue;
      if (Filled && (G.ContiguousBytes == 8 || G.ContiguousBytes == 16) &&
          P.Regular && std::llabs(P.LaneStride) == int64_t(G.ContiguousBytes)) {
        // Two or four 4-byte fields side by side: one vector access moves
        // them in one request where the element is aligned to its size.
        B.note(A.E->getBeginLoc(),
               "{0} the {1} values with one {2}-byte access per lane ({3} "
               "through a cast of the element's address, where the element is "
               "{2}-byte aligned): one request instead of {4} (CUDA C++ "
               "Programming Guide, 'Device Memory Accesses': sizes of 8 and 16 "
               "bytes need natural alignment)")
            << (A.IsStore ? "write" : "read") << unsigned(G.Members.size())
            << G.ContiguousBytes
            << (G.ContiguousBytes == 8 ? "float2 or uint2" : "float4 or uint4")
            << unsigned(G.Members.size());
        continue;
      }
      const RecordDecl *RD = FieldOf ? FieldOf : WholeRecord;
      const SourceManager &SM = context().sourceManager();
      if (FieldOf && SM.isInSystemHeader(FieldOf->getLocation())) {
        // A CUDA vector type read one component at a time.
        B.note(A.E->getBeginLoc(),
               A.IsStore ? "store the whole '{0}' once (one {1}-byte store "
                           "per lane), built from its components"
                         : "load the whole '{0}' once (one {1}-byte load per "
                           "lane) and use its components")
            << FieldOf->getName() << RecordSize;
      } else if (RD) {
        B.note(
            RD->getLocation(),
            "'{0}' is {1} bytes and is moved {2} bytes at a time: as a "
            "structure of "
            "arrays (one array per field) a warp would read {3} contiguous "
            "bytes "
            "per request (Pascal deep dive, 'Structures of Non-Native Size')")
            << RD->getName()
            << unsigned(context()
                            .astContext()
                            .getASTRecordLayout(RD)
                            .getSize()
                            .getQuantity())
            << Size << Size * Target.warp_size;
      } else {
        B.note(
            A.E->getBeginLoc(),
            "stage the data through shared memory: let consecutive lanes {0} "
            "consecutive addresses of a __shared__ tile, then do the strided "
            "access in shared memory (slides, 'Coalesce global memory "
            "accesses')")
            << (A.IsStore ? "write" : "read");
      }
      if (!A.IsStore && !Target.l1_caches_global_loads &&
          !isConstRestrict(A.Addr.Root))
        B.note(A.Addr.Root->getLocation(),
               "on {0} global loads are cached in L2 only; if '{1}' is "
               "read-only in "
               "the kernel, 'const __restrict__' or __ldg() routes these loads "
               "through the read-only data cache (Pascal deep dive, 'Read-only "
               "Data Cache')")
            << Target.Name << A.Addr.Root->getName();
    }
  }
}

// Each lane walks its own range (j = row_ptr[row]; j++: the scalar CSR
// SpMV): the lanes start at values loaded from memory, so how far apart they
// are depends on the data. Short ranges may even sit side by side, hence
// note level: the pattern to look at, not a measured waste.
void UncoalescedAccessCheck::reportLaneWalks(const FunctionDecl *F) {
  AffineAnalysis &AA = context().affine();
  const ArchInfo &Target = arch();
  for (const MemoryAccess &A : AA.laneWalks(F, MemorySpace::Global)) {
    Followed.follow(context(), A);
    OptimisedView View = optimisedView(context(), A);
    if (View.hidden())
      continue;
    const Expr *Start = AA.walkStart(A.Walk);
    unsigned Lanes = Target.warp_size;
    // A naturally aligned element lies in one sector (or A.Size / sector).
    unsigned PerLane =
        (A.Size + Target.global_sector_bytes - 1) / Target.global_sector_bytes;
    {
      FindingBuilder B = diag(
          A.E->getBeginLoc(),
          "each warp {0} of '{1}' may touch up to {2} {3}-byte sectors for {4} "
          "useful bytes on {5}: each lane walks its own range ('{6}' starts at "
          "'{7}', which each lane loads for itself, and steps by the same "
          "amount in every lane), so the lanes' spacing is unknown and "
          "depends on the data (slides, 'Coalesce global memory accesses')",
          Severity::Note);
      B << (A.AlsoLoads ? "load and store"
            : A.IsStore ? "store"
                        : "load")
        << context().sourceText(A.E) << Lanes * PerLane
        << Target.global_sector_bytes << Lanes * A.Size << Target.Name
        << A.Walk->getName()
        << (Start ? context().sourceText(Start)
                  : std::string("a loaded value"));
      B.metric("sectors_per_request_max", Lanes * PerLane)
          .metric("useful_bytes", Lanes * A.Size);
      B.noteMacroOrigin(A.E);
      B.note(A.E->getBeginLoc(),
             "when the ranges are long, let the lanes of a warp walk one range "
             "together (lane k takes elements k, k + {0}, ...), so that "
             "consecutive lanes read consecutive addresses")
          << Lanes;
    }
  }
}

void UncoalescedAccessCheck::finishTranslationUnit() {
  Model.clear();
  const ArchInfo &Target = arch();
  const unsigned Sector = Target.global_sector_bytes;
  const unsigned Line = Target.global_line_bytes;
  for (const auto &[K, A] :
       Followed.unfollowed(context(), context().affine())) {
    AccessRun R;
    R.Access.Size = A.Bytes;
    R.Pattern = A.Pattern;
    Traffic T = runTraffic(R, Sector, Line);
    if (!T.wastes(Sector))
      continue;
    const WarpPattern &P = A.Pattern;
    std::string Spacing = P.Regular
                              ? "consecutive lanes are " +
                                    std::to_string(std::llabs(P.LaneStride)) +
                                    " bytes apart"
                              : "the lanes' addresses are not evenly spaced";
    unsigned Efficiency = T.efficiencyPct(Sector);
    {
      // Seen only in the optimised code, the access has no place in the
      // source's loops and no siblings to weigh it by: a note.
      FindingBuilder B = diag(
          A.Loc,
          "each warp {0} of '{1}' touches {2} {3}-byte sectors for {4} useful "
          "bytes ({5}% efficiency) on {6}: {7}{8}, as the optimised code of "
          "'{9}' shows it with the calls inlined (its share of the kernel's "
          "traffic is not estimated)",
          Severity::Note);
      B << (A.IsStore ? "store" : "load") << context().sourceText(A.E)
        << T.Sectors << Sector << T.UsefulBytes << Efficiency << Target.Name
        << Spacing
        << (P.DependsOnBlockShape ? " (assuming blockDim.x is a multiple of " +
                                        std::to_string(Target.warp_size) + ")"
                                  : std::string())
        << functionName(K);
      B.metric("sectors_per_request", T.Sectors)
          .metric("sectors_needed", T.Needed)
          .metric("lines_per_request", T.Lines)
          .metric("useful_bytes", T.UsefulBytes)
          .metric("bytes_used_pct", Efficiency)
          .metric("ir_only", 1);
      if (P.Regular)
        B.metric("lane_stride_bytes", double(P.LaneStride));
      B.noteMacroOrigin(A.E);
      for (const auto &[CallLoc, Caller] : A.Calls)
        B.note(CallLoc, "inlined into '{0}' here") << Caller;
      B.note(A.Loc,
             "stage the data through shared memory: let consecutive lanes {0} "
             "consecutive addresses of a __shared__ tile, then do the strided "
             "access in shared memory (slides, 'Coalesce global memory "
             "accesses')")
          << (A.IsStore ? "write" : "read");
    }
  }
}

WARPLINT_CHECK_FACTORY(UncoalescedAccessCheck)

} // namespace warplint::memory
