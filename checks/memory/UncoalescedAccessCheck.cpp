#include "checks/memory/UncoalescedAccessCheck.h"
#include "Analysis/AccessSites.h"
#include "checks/memory/OptimisedView.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/STLExtras.h"
#include <cmath>
#include <map>
#include <set>

using namespace clang;

namespace warplint::memory {

namespace {

int64_t floorDiv(int64_t A, int64_t B) {
  return A >= 0 ? A / B : -((-A + B - 1) / B);
}

struct Traffic {
  unsigned Sectors = 0;
  unsigned Lines = 0;
  unsigned UsefulBytes = 0; // distinct bytes the lanes ask for
  unsigned Needed = 0;      // sectors those bytes need at the least

  // More sectors than the bytes need; broadcasts and tiny requests cannot
  // do better than one sector.
  bool wastes(unsigned Sector) const {
    return UsefulBytes >= Sector && Sectors > Needed;
  }
};

// The sectors and lines a warp request touches, lane l moving
// [Offsets[l], Offsets[l] + Size). The warp's lowest address is taken as
// line-aligned (cudaMalloc's alignment, times a block offset): a constant
// misalignment is not this check's business. The lowest, not lane 0's: in a
// descending walk (in[n - i]) lane 0 has the highest address.
Traffic traffic(const std::vector<int64_t> &Offsets, unsigned Size,
                unsigned Sector, unsigned Line) {
  std::set<int64_t> Sectors, Lines;
  std::vector<std::pair<int64_t, int64_t>> Ranges;
  int64_t Lowest = Offsets.empty() ? 0 : *llvm::min_element(Offsets);
  for (int64_t O : Offsets) {
    O -= Lowest;
    for (int64_t S = floorDiv(O, Sector); S <= floorDiv(O + Size - 1, Sector);
         ++S)
      Sectors.insert(S);
    for (int64_t L = floorDiv(O, Line); L <= floorDiv(O + Size - 1, Line); ++L)
      Lines.insert(L);
    Ranges.push_back({O, O + Size});
  }
  std::sort(Ranges.begin(), Ranges.end());
  int64_t Useful = 0, End = INT64_MIN;
  for (auto [B, E] : Ranges) {
    if (B < End)
      B = End;
    if (E > B)
      Useful += E - B;
    End = std::max(End, E);
  }
  return {unsigned(Sectors.size()), unsigned(Lines.size()), unsigned(Useful)};
}

// Lanes a run-time distance apart (a[tid * n]) are taken to be at least a
// line apart: each group of lanes with the same run-time terms is counted
// on its own.
Traffic runTraffic(const AccessRun &R, unsigned Sector, unsigned Line,
                   unsigned Size = 0) {
  if (!Size)
    Size = R.Access.Size;
  Traffic T;
  std::map<int64_t, std::vector<int64_t>> Groups;
  for (size_t L = 0; L < R.Pattern.Offsets.size(); ++L)
    Groups[R.Pattern.Group[L]].push_back(R.Pattern.Offsets[L]);
  for (auto &[Key, Offsets] : Groups) {
    Traffic G = traffic(Offsets, Size, Sector, Line);
    T.Sectors += G.Sectors;
    T.Lines += G.Lines;
    T.UsefulBytes += G.UsefulBytes;
  }
  T.Needed = (T.UsefulBytes + Sector - 1) / Sector;
  return T;
}

bool isConstRestrict(const ValueDecl *Root) {
  QualType T = Root->getType();
  return T->isPointerType() && T.isRestrictQualified() &&
         T->getPointeeType().isConstQualified();
}

} // namespace

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
    unsigned Efficiency = unsigned(
        std::lround(100.0 * T.UsefulBytes / (double(T.Sectors) * Sector)));
    std::string Assumption;
    if (P.DependsOnBlockShape)
      Assumption = " (assuming blockDim.x is a multiple of " +
                   std::to_string(Target.warp_size) + ")";

    {
      FindingBuilder B =
          diag(A.E->getBeginLoc(), "each warp {0} of '{1}' touches {2} "
                                   "{3}-byte sectors for {4} useful bytes "
                                   "({5}% efficiency) on {6}: {7}{8}{9}");
      B << (A.AlsoLoads ? "load and store"
            : A.IsStore ? "store"
                        : "load")
        << context().sourceText(A.E) << T.Sectors << Sector << T.UsefulBytes
        << Efficiency << Target.Name << Spacing << Assumption
        << mergedWords(View, A);
      B.metric("sectors_per_request", T.Sectors)
          .metric("sectors_needed", T.Needed)
          .metric("lines_per_request", T.Lines)
          .metric("useful_bytes", T.UsefulBytes)
          .metric("bytes_used_pct", Efficiency);
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
      if (!Advised.insert(A.Addr.Root).second)
        continue;
      const RecordDecl *RD = FieldOf ? FieldOf : WholeRecord;
      const SourceManager &SM = context().sourceManager();
      if (FieldOf && SM.isInSystemHeader(FieldOf->getLocation())) {
        // A CUDA vector type read one component at a time.
        B.note(A.E->getBeginLoc(), "load the whole '{0}' once (one {1}-byte "
                                   "load per lane) and use its "
                                   "components")
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
    unsigned Efficiency = unsigned(
        std::lround(100.0 * T.UsefulBytes / (double(T.Sectors) * Sector)));
    {
      FindingBuilder B = diag(
          A.Loc,
          "each warp {0} of '{1}' touches {2} {3}-byte sectors for {4} useful "
          "bytes ({5}% efficiency) on {6}: {7}{8}, as the optimised code of "
          "'{9}' shows it with the calls inlined");
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
