// What a global access costs its kernel, for the severity of the memory
// findings: how often a thread runs the access (its loops' trip counts), the
// sectors each of its warp requests moves, the kernel's global traffic as
// the sum of those over every global access the source analysis sees in the
// kernel and the functions it calls, and the sibling accesses that read or
// write the rest of the same sectors (out[i].x, out[i].y, out[i].z), after
// which the group, not one field, says what reaches L2 and DRAM.
//
// The estimate is in sectors, the unit of L2 and DRAM traffic (Pascal deep
// dive, 'Access Patterns vs. Memory Throughput'); bench/gpu/run_savings.sh
// measures it against Nsight Compute's sector counts and times the fix.
#pragma once
#include "Analysis/AccessSites.h"
#include "Analysis/TripCounts.h"
#include "Core/Check.h"
#include "llvm/ADT/DenseMap.h"
#include <string>
#include <vector>

namespace warplint::memory {

// Loops run loopTrips rounds (Analysis/TripCounts.h).

// The sectors and lines one warp request touches, and the bytes it uses.
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
  unsigned efficiencyPct(unsigned Sector) const;
};

// One access's byte ranges per lane: lane l moves [Offsets[l] + Shift,
// + Size). Lanes in different groups (WarpPattern::Group) are a run-time
// distance apart, taken to be at least a line.
struct LaneRanges {
  const WarpPattern *Pattern;
  int64_t Shift;
  unsigned Size;
};
Traffic warpTraffic(llvm::ArrayRef<LaneRanges> Accesses, unsigned Sector,
                    unsigned Line);

// How many times a thread runs a statement per launch, as far as its loops
// say.
struct Runs {
  double Times = 1;
  unsigned UnknownLoops = 0; // loops taken as AssumedTrips or GeometricTrips
  // Times also holds the share a guard lets through: the statement runs
  // only where `i < B`, inside a loop or branch that bounds i by a product
  // of B and other factors (`i < B * L * H`), so for 1 in L * H of i's
  // values (a factor not written with constants taken as AssumedTrips).
  // Guard says which, for the message; empty when no such guard is around.
  std::string Guard;
};

// The accesses of a group of siblings (global or shared, as the access):
// same array, the same thread part and
// the same index up to a constant, in the same loop and direction, in the
// same call context.
struct SiblingGroup {
  std::vector<MemoryAccess> Members; // in source order, the access among them
  const clang::Expr *Self = nullptr;
  Traffic Together;        // the group's union per warp
  unsigned SumSectors = 0; // the members' own sectors added up: the requests
  // The bytes a lane moves over the group, when they are contiguous from
  // the lowest member's address (a vector load could move them); else 0.
  unsigned ContiguousBytes = 0;
  // The access copies a whole struct or vector that the compiler moves in
  // this many pieces (the other pieces are among Members, at the access's
  // own expression); 0 otherwise.
  unsigned CopyPieces = 0;
  std::string CopiedType;
  // The access lies in a loop of this many rounds that nvcc unrolls whole
  // (a constant trip count of 2 to 16) and steps its address by less than
  // the lanes' spacing: the other rounds are among Members, and the group
  // is what the unrolled loop moves, once (0: no rounds).
  unsigned Rounds = 0;
};

// The share of a kernel's global sectors an access takes, and what a fix
// would save of them.
struct CostShare {
  double AccessPct = 0; // runs × sectors of the access (group) / kernel
  double SavingPct = 0; // runs × (sectors − needed) / kernel
  Runs R;
  bool KernelHasUnknownLoops = false;
};

// The N of an N-way bank conflict: the most distinct bank-width words one
// bank must serve in one pass of a warp's shared request with these lane
// offsets and Size bytes a lane.
unsigned bankConflictWays(const std::vector<int64_t> &Offsets, unsigned Size,
                          unsigned Banks, unsigned Width);

// A global sector weighed against shared wavefronts, for the share of a
// kernel's memory work a bank conflict takes: an H100 moves about 105 G
// DRAM sectors a second (3.35 TB/s) and serves about 232 G shared
// wavefronts (132 SMs at 1.755 GHz), about 2 to 1.
constexpr double SectorWavefronts = 2;

// Why a kernel's memory efficiency matters little to the program, from
// its launches in this file: every one runs fewer warps in all than the
// GPU has SMs (it cannot load the memory system: latency bounds it).
// Empty when that does not hold or is not known (a grid or block not
// written with constants), no launch of the file names the kernel, or F
// is not a kernel.
std::string smallLaunchReason(CheckContext &Ctx, const clang::FunctionDecl *F,
                              llvm::ArrayRef<CallLink> Chain);

class TrafficModel {
public:
  explicit TrafficModel(CheckContext &Ctx) : Ctx(Ctx) {}

  // How often a thread of the kernel runs S, a statement of F reached
  // through Chain (from the kernel inwards; empty: F is the kernel).
  Runs runs(const clang::Stmt *S, const clang::FunctionDecl *F,
            llvm::ArrayRef<CallLink> Chain);

  // The siblings of access A of F in context Chain whose own pattern is P.
  SiblingGroup siblings(const MemoryAccess &A, const WarpPattern &P,
                        const clang::FunctionDecl *F,
                        llvm::ArrayRef<CallLink> Chain);

  // The kernel's global sectors, and the share of them a run of Sectors
  // (Needed at best) per request at S takes.
  CostShare share(const clang::Stmt *S, const clang::FunctionDecl *F,
                  llvm::ArrayRef<CallLink> Chain, double Sectors,
                  double Needed);

  // The share of the kernel's memory work (its shared wavefronts, and its
  // global sectors at SectorWavefronts each) that Extra more wavefronts per
  // run of S take: what removing a bank conflict at S saves. The kernel's
  // tally counts an access whose lanes are a run-time or loop-varying
  // stride apart as conflict-free: for such an access (!InTally) the extra
  // is added to it.
  CostShare sharedShare(const clang::Stmt *S, const clang::FunctionDecl *F,
                        llvm::ArrayRef<CallLink> Chain, double Extra,
                        bool InTally);

  // Whether every identifier of a run-time stride ("INCX * 4") is one the
  // kernel never compares with anything: a stride parameter that may well
  // be 1 at run time, not a dimension that bounds an index.
  bool strideMayBeUnit(llvm::StringRef SymbolName, const clang::FunctionDecl *F,
                       llvm::ArrayRef<CallLink> Chain);

  void clear() {
    Kernels.clear();
    Loops.clear();
    Guards.clear();
    Accesses.clear();
    Signatures.clear();
    Steps.clear();
  }

private:
  struct KernelSectors {
    double Sectors = 0;
    double SharedWavefronts = 0;
    bool UnknownLoops = false;
  };
  const KernelSectors &kernel(const clang::FunctionDecl *K);
  // Every global and shared access of F's body (AffineAnalysis::
  // everyAccess), found once.
  const std::vector<MemoryAccess> &accessesOf(const clang::FunctionDecl *F);
  // addressSignature of E, spelled once.
  const std::string &signatureOf(const clang::Expr *E);
  // The bytes B lies beyond A when both index with the same local that a
  // statement between them steps by a constant (col = col + 1; col++),
  // which the flow-insensitive address forms do not see: 0 if none.
  int64_t steppedShift(const MemoryAccess &A, const MemoryAccess &B,
                       const clang::FunctionDecl *F);
  // The loops around S in F that run it each round, outermost first.
  llvm::ArrayRef<const clang::Stmt *> loopsAround(const clang::Stmt *S,
                                                  const clang::FunctionDecl *F);
  // The share of the rounds of its loops that the guards around S in F let
  // through (Runs::Guard), and the text saying so; {1, ""} without one.
  struct GuardShare {
    double Share = 1;
    std::string Text;
  };
  const GuardShare &guardAround(const clang::Stmt *S,
                                const clang::FunctionDecl *F);
  CheckContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::DenseMap<const clang::Stmt *,
                                llvm::SmallVector<const clang::Stmt *, 4>>>
      Loops;
  // Per function, the statements under a narrowing guard (guardAround).
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::DenseMap<const clang::Stmt *, GuardShare>>
      Guards;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<MemoryAccess>>
      Accesses;
  llvm::DenseMap<const clang::Expr *, std::string> Signatures;
  // Per function, each local's constant steps: where, and by how much.
  llvm::DenseMap<
      const clang::FunctionDecl *,
      llvm::DenseMap<
          const clang::VarDecl *,
          llvm::SmallVector<std::pair<clang::SourceLocation, int64_t>, 4>>>
      Steps;
  llvm::DenseMap<const clang::FunctionDecl *, KernelSectors> Kernels;
};

// "the array 'p' (index 'p[i]')" style key: the lvalue with its constant
// offsets and fields dropped, for telling siblings apart.
std::string addressSignature(const clang::Expr *E,
                             const clang::ASTContext &AST);

} // namespace warplint::memory
