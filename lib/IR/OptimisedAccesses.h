// What the optimiser leaves of the loads and stores the source shows: the
// device IR run through the pipeline clang uses for NVPTX at -O3, then the
// NVPTX code generator's own address-space inference and load/store
// vectoriser (LoadStoreVectorizer: `.x .y .z .w` of a uchar4 become one
// ld.global.v4.u8, s[2*t] and s[2*t+1] of an 8-byte-aligned array one
// ld.shared.v2.f32), each access known by the debug location clang gave it.
//
// Per source position (the innermost frame of the inlinedAt chain, so that
// an access in a helper answers for every copy inlined into a caller), the
// memory checks ask what became of the access written there:
//   Removed  it was generated, and no copy of it survives (CSE, a load
//            forwarded from a store, dead code);
//   Merged   every surviving copy went into one wider access per lane, this
//            one at a byte offset of it;
//   Kept     at least one copy survives as it was;
//   Unknown  nothing to say (not generated, a macro, copies that disagree, a
//            surviving access whose position the optimiser merged away).
// Only Removed and Merged change a verdict.
//
// The module is optimised one piece at a time (IR/Pieces.h), each in a
// context of its own.
//
// It also lists, per kernel, the global and shared accesses left after -O3
// (those of inlined helpers included) whose address scalar evolution writes
// as linear in the thread index: a byte coefficient per threadIdx term, the
// rest warp-uniform. The memory checks judge from these the accesses their
// own analysis of the source did not follow (a pointer in a struct, an
// index through a local array, recursion the optimiser unrolled).
//
// For arith-fp64-promotion it records where double-precision work
// (arithmetic, comparisons and conversions on double, calls of double math
// functions) is generated and where it survives -O3, so that a float
// expression the optimiser folds or narrows back to float is known as such;
// and, per function, how many of its instructions are FP64.
#pragma once
#include "IR/Report.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace llvm {
class Function;
class Module;
class TargetMachine;
template <typename IRUnitT, typename... ExtraArgTs> class AnalysisManager;
using FunctionAnalysisManager = AnalysisManager<Function>;
} // namespace llvm

namespace warplint::ir {

class PieceCopies;

struct AccessFate {
  enum Kind { Unknown, Kept, Removed, Merged } K = Unknown;
  unsigned Bytes = 0;  // Merged: bytes per lane of the merged access
  unsigned Offset = 0; // Merged: where this access starts in it
  // Merged: the same for every access merged into the same one.
  std::string Group;
};

// What became of the double-precision work written in a source range.
enum class Fp64Fate {
  Unknown, // none generated there (or nothing to say)
  Kept,    // at least one FP64 instruction survives -O3 there
  Removed  // generated, and -O3 folded or narrowed all of it
};

// A function's instructions after -O3 and how many of them are FP64.
struct Fp64Share {
  unsigned Instructions = 0, Fp64 = 0;
};

// A source position as debug info names it.
struct SourcePos {
  std::string File; // absolute, as DebugSource's pathOf
  unsigned Line = 0, Column = 0;
};

// A global or shared access of a kernel (its own or inlined) whose address
// is linear in
// the thread index, and whose lanes are all those of the warp the block
// gives it: every thread-dependent branch it is under is a bound check of
// the thread index against a run-time value (a tail guard `i < n`).
struct LaneLinearAccess {
  std::vector<Frame> Frames; // the access, then the call sites outwards
  bool IsStore = false;
  bool Shared = false; // __shared__; otherwise global
  unsigned Bytes = 0;  // per lane
  // Bytes per unit of threadIdx.x, .y, .z and %laneid.
  int64_t Coef[4] = {0, 0, 0, 0};
  // The kernel, by its definition's position.
  std::string Kernel; // file:line
  // The piece of the module it was found in (IR/Pieces.h).
  unsigned Piece = 0;
};

// What -O3 left of the conditional branches (br, switch) clang generated at
// the positions of a source range: the condition of an `if`, a `?:`, an
// `&&`.
struct BranchFate {
  enum Kind {
    Unknown,   // no branch was generated there
    Flattened, // generated, and no copy survives (selects, folded away)
    Uniform,   // copies survive, none thread-dependent by the IR's reading
    Divergent  // a copy survives as a thread-dependent branch
  } K = Unknown;
  // Divergent: instructions on the two sides of the largest such copy (a
  // side: what runs after the branch before the paths join; not counting
  // phis, debug records and unconditional branches), in successor order
  // (for `br i1 %c`: taken when %c holds, then not).
  unsigned Sides[2] = {0, 0};
  // Divergent: the instructions of the function that holds that copy (after
  // inlining, the kernel), counted the same way: what the sides are a share
  // of.
  unsigned FunctionSize = 0;
};

class OptimisedAccesses {
public:
  // Optimises a copy of M (M is left as it was) as for the GPU CPU (sm_90),
  // and records what became of each load and store. Nothing (an error) when
  // the NVPTX target is not available or M has no triple.
  //
  // The pieces of M (IR/Pieces.h) are optimised when a question first
  // needs them: those holding a function with code on the lines asked
  // about, the kernel or the function asked about. Each answer is what the
  // whole module's would be (every piece that holds code of those lines is
  // optimised before it is given), and a file of many kernels whose checks
  // ask about a few optimises only theirs. M must not change while this
  // lives.
  static std::unique_ptr<OptimisedAccesses> analyse(const llvm::Module &M,
                                                    llvm::StringRef CPU);
  // The same, for the module of Copies, whose pieces' bitcode it shares
  // with the other analyses of that module; Copies outlives this. Guard,
  // if given, runs each piece's optimisation and says whether it finished:
  // after one that did not, the view knows nothing (every answer is
  // Unknown, as without a view).
  using GuardFn = std::function<bool(llvm::function_ref<void()>)>;
  static std::unique_ptr<OptimisedAccesses> analyse(PieceCopies &Copies,
                                                    const llvm::Module &M,
                                                    llvm::StringRef CPU,
                                                    GuardFn Guard = nullptr);
  ~OptimisedAccesses();

  // How many of the module's pieces the questions so far have optimised.
  size_t piecesOptimised() const;

  // The access of the given kind written at Pos.
  AccessFate fate(const SourcePos &Pos, bool IsStore) const;

  // How an access of one kind at Pos is known: "file:line:col:ld|st".
  static std::string key(const SourcePos &Pos, bool IsStore);

  // The FP64 work written between Begin and End (one file, inclusive).
  Fp64Fate fp64(const SourcePos &Begin, const SourcePos &End) const;
  // The FP64 share of the function whose definition is at File:Line, if it
  // is still a function of its own after -O3.
  std::optional<Fp64Share> fp64Share(llvm::StringRef File, unsigned Line) const;

  // The LLVM instructions of the function named Name after -O3 (debug
  // records aside), if it is still a function of its own.
  std::optional<unsigned> sizeOf(llvm::StringRef Name) const;

  // The lane-linear accesses of the kernel defined at File:Line.
  std::vector<const LaneLinearAccess *> laneLinear(llvm::StringRef File,
                                                   unsigned Line) const;

  // The branches generated from Begin to End (inclusive, one file).
  BranchFate branchesIn(const SourcePos &Begin, const SourcePos &End) const;

private:
  OptimisedAccesses();
  // The pieces that hold code of File's lines From..To, of the function
  // defined at File:Line, of the function Name, optimised if not yet.
  void needLines(llvm::StringRef File, unsigned From, unsigned To) const;
  void needDefinition(llvm::StringRef File, unsigned Line) const;
  void needFunction(llvm::StringRef Name) const;
  void need(llvm::ArrayRef<unsigned> Pieces) const;
  void index(const llvm::Module &M);

  // What optimises the pieces on demand (a cache: the answers are the
  // whole module's whenever they are read).
  struct Lazy;
  std::unique_ptr<Lazy> Demand;
  unsigned CurrentPiece = 0;

  // Optimises M, one piece of the module, in place and records it.
  void optimise(llvm::Module &M, llvm::TargetMachine &TM, llvm::StringRef CPU);
  void recordBranches(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                      llvm::FunctionAnalysisManager &UFAM);

  struct Instance {
    bool Merged = false;
    unsigned Bytes = 0, Offset = 0;
    std::string Group;
  };
  struct Record {
    bool Generated = false; // before optimisation
    unsigned Bytes = 0;
    std::set<unsigned> Functions;    // generated in, by functionId()
    std::vector<Instance> Survivors; // after
  };

  llvm::StringMap<Record> Records;
  // file:line of surviving accesses whose column the optimiser dropped
  // (a location merged from several): nothing there counts as removed.
  llvm::StringMap<bool> LinesWithoutColumn;
  // Function, kind (store?) and width of surviving accesses without a
  // position (what LICM hoists): nothing of that kind and width generated in
  // that function counts as removed.
  std::set<std::tuple<unsigned, bool, unsigned>> Unplaced;
  // A number per function name: a templated kernel's accesses are generated
  // in tens of instantiations, each with a long mangled name.
  unsigned functionId(llvm::StringRef Name);
  llvm::StringMap<unsigned> FunctionIds;
  std::vector<LaneLinearAccess> Inlined;

  // FP64 instructions per file, by (line, column).
  struct Fp64Record {
    bool Generated = false;
    unsigned Survivors = 0;
    std::set<unsigned> Functions; // generated in, by functionId()
  };
  llvm::StringMap<std::map<std::pair<unsigned, unsigned>, Fp64Record>> Fp64;
  // Functions with FP64 instructions left without a position (hoisted):
  // nothing generated in them counts as removed.
  std::set<unsigned> Fp64Unplaced;
  // By the definition's file:line: the last piece's (a template's
  // instantiations share the line), as a pass over every piece leaves it.
  llvm::StringMap<std::pair<unsigned, Fp64Share>> Shares;
  llvm::StringMap<unsigned> Sizes; // by the function's name
  // Conditional branches by position (file, line, column).
  struct BranchCopy {
    unsigned Piece = 0; // the eager order: the first piece's copy wins ties
    bool Divergent = false;
    unsigned Sides[2] = {0, 0};
    unsigned FunctionSize = 0;
  };
  struct BranchRecord {
    bool Generated = false;
    std::vector<BranchCopy> Survivors;
  };
  std::map<std::tuple<std::string, unsigned, unsigned>, BranchRecord> Branches;
};

} // namespace warplint::ir
