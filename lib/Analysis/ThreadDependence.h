// Thread-dependence analysis (AST level): which values differ between the
// threads of a block, and which statements only some threads reach.
//
// The lattice is Uniform < WarpUniform < Unknown < ThreadDependent. Sources
// of dependence are threadIdx, the lane/thread ids cooperative groups read,
// and per-thread results (atomics, shuffles). blockIdx, blockDim, gridDim,
// warpSize, literals, globals and kernel parameters are uniform. The warp id
// (threadIdx.x / 32, threadIdx.x >> 5, with blockDim.x a multiple of 32) and
// the votes (__any_sync, __ballot_sync, ...) differ between warps but not
// within one: WarpUniform. A local variable joins all its definitions, plus the
// guard of each definition (a value assigned under a thread-dependent branch is
// itself thread-dependent: LLVM's "sync dependence", see
// llvm/include/llvm/ADT/GenericUniformityImpl.h), iterated to a fixed point.
// One refinement of that flow-insensitive join: inside a `for` whose init
// assigns the variable (`for (i = 2; ...)` with `i` declared earlier), only
// that assignment and the loop's own definitions reach a use, as in SSA form,
// so a counter reused later under `if (tid == 0)` stays uniform in the loop.
// Calls into functions with a visible body are summarised from their return
// statements; anything the analysis cannot see is Unknown, never a guess.
#pragma once
#include "Analysis/DeclRefs.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace warplint {

enum class Dependence {
  Uniform = 0,     // the same in every thread of the block
  WarpUniform = 1, // the same in every lane of a warp
  Unknown = 2,
  ThreadDependent = 3,
};

// threadIdx.x, blockDim.y, ...: the built-in's type name
// ("__cuda_builtin_threadIdx_t") and the component ("x"), or nothing.
std::optional<std::pair<llvm::StringRef, llvm::StringRef>>
cudaBuiltinComponent(const clang::Expr *E);

// A binary operation: a built-in operator, or, in a template as written, an
// operator call left unresolved until instantiation (`first + tid < last`
// with `first` of a template type, once some `operator<` is in scope). An
// operator an instantiation resolves to a class's own is not one.
struct BinaryForm {
  clang::BinaryOperatorKind Op;
  const clang::Expr *LHS;
  const clang::Expr *RHS;
};
std::optional<BinaryForm> binaryForm(const clang::Expr *E);

// The same in all lanes of a warp (Uniform or WarpUniform).
inline bool isWarpUniform(Dependence D) { return D <= Dependence::WarpUniform; }

inline Dependence join(Dependence A, Dependence B) { return A > B ? A : B; }
const char *dependenceName(Dependence D);

class ThreadDependenceAnalysis;

// The analysis of one function body; built lazily, queried many times.
class FunctionDependence {
public:
  // ParamsUniform: the parameters (and 'this') are the same in every thread,
  // as for a kernel; otherwise they are Unknown.
  FunctionDependence(const clang::FunctionDecl *F,
                     ThreadDependenceAnalysis &Parent, bool ParamsUniform);
  // A call context: parameter I starts as ParamDeps[I] (missing: Unknown).
  FunctionDependence(const clang::FunctionDecl *F,
                     ThreadDependenceAnalysis &Parent,
                     llvm::ArrayRef<Dependence> ParamDeps);

  Dependence dependence(const clang::Expr *E);
  // The parent of S inside this function's body, or null at the top.
  const clang::Stmt *parent(const clang::Stmt *S) const;

  // Whether every thread that runs this function reaches S together: the
  // worst condition among the branches and loops around S and the early
  // exits before it. Where (if not null) is the statement responsible.
  struct Guard {
    Dependence D = Dependence::Uniform;
    const clang::Stmt *Where = nullptr;
  };
  Guard guardOf(const clang::Stmt *S);

  // Whether the lanes that hold local V all executed the definition at
  // Site: the branches between Site and V's declaration. (A definition under
  // a thread-dependent branch that V's scope lies outside of makes V
  // thread-dependent; one inside V's own divergent scope does not.)
  Guard definitionGuard(const clang::VarDecl *V, const clang::Stmt *Site);

  // Every construct that may keep some threads of the block from reaching S
  // with the others, innermost first: the branches and loops around S, and
  // the early exits before S that do not end the thread (a return from a
  // __device__ function, a goto; break and continue count through their
  // loop). A kernel's return ends the thread, and exited threads do not hold
  // a barrier up (Volta tuning guide 1.4.1.2: "all non-exited threads").
  enum class GuardKind { Branch, Loop, EarlyExit };
  struct GuardSite {
    GuardKind Kind;
    Dependence D;
    const clang::Stmt *Where;          // the branch, the loop or the exit
    const clang::Stmt *Exit = nullptr; // Loop: the break/continue/return, if
                                       // that is what varies
  };
  llvm::SmallVector<GuardSite, 4> guardSites(const clang::Stmt *S);
  // The values local V is given: its initialiser and its assignments (a
  // compound assignment's whole expression); none for a parameter.
  llvm::SmallVector<const clang::Expr *, 2>
  definitionValues(const clang::VarDecl *V) const;
  // The condition of a branch or loop statement, or null.
  static const clang::Expr *conditionOf(const clang::Stmt *S);
  const clang::FunctionDecl *function() const { return F; }
  // Analysing a template's pattern for one of its specializations that has
  // no body of its own (a helper template never instantiated in this TU):
  // the specialization, whose template arguments give the pattern's
  // non-type parameters their values.
  const clang::FunctionDecl *Specialization = nullptr;

  // Uniformity by value: the thread-dependent part of an integer expression
  // as a sum of atoms (threadIdx.x, a block's or grid's thread_rank(), such
  // an atom divided by a uniform divisor), each with its coefficient, and the
  // dependence of the rest. `idx - threadIdx.x` with `idx` set to
  // `blockIdx.x * blockDim.x + threadIdx.x` and stepped by a uniform stride
  // has no atom left: its value is the same in every thread.
  struct ThreadPart {
    std::map<std::string, int64_t> Atoms;
    Dependence Rest = Dependence::Uniform;
    bool RestBlockMultiple = true; // the rest is a multiple of blockDim
    bool RestXMultiple = true;     // ... of blockDim.x itself
    // The value is the atoms' sum plus the rest. Not Exact: it only grows
    // with the atoms (a division whose remainder the rest may carry), which
    // a tail guard needs and a cancellation does not allow.
    bool Exact = true;
  };
  std::optional<ThreadPart> threadPart(const clang::Expr *E, unsigned Depth);

  // A tail guard: the threads for which Cond is SurviveIfTrue are a prefix
  // of the block along x (threadIdx.x or the block's thread_rank()), y
  // and/or z, of a length known only at run time. Each conjunct (of the
  // survivors' condition) compares a value growing with one thread index,
  // coefficient positive, with a uniform bound: `idx < n` with `idx =
  // blockIdx.x * blockDim.x + threadIdx.x`, `i + tid < end`, llm.c's
  // per-z-slice rows `blockIdx.x * blockDim.z + threadIdx.z < N`.
  struct TailCut {
    bool X = false, Y = false, Z = false;
  };
  std::optional<TailCut> tailGuard(const clang::Expr *Cond, bool SurviveIfTrue);

private:
  bool cutsTail(const clang::Expr *Cond, bool SurviveIfTrue, TailCut &Cut);
  std::optional<ThreadPart> varThreadPart(const clang::VarDecl *V,
                                          const clang::Expr *Use,
                                          unsigned Depth);
  // Whether every thread that reaches the loops around Site runs Site
  // together, taking the loops being judged (those around the use whose
  // value is asked) as run together.
  using JudgedLoops = llvm::SmallPtrSetImpl<const clang::Stmt *>;
  bool runsTogether(const clang::Stmt *Site, const clang::Stmt *Scope,
                    const JudgedLoops &Judged);
  Dependence compute(const clang::Expr *E);
  bool isWarpIndex(const clang::BinaryOperator *BO);
  Dependence varDependence(const clang::VarDecl *V);
  // Whether a definition at Site may reach Use: it comes before Use, or a
  // loop holds both (no jumps into loops). One after the last loop around
  // Use (`idx += stride` after the loop that reads `idx`) never does.
  bool mayReach(const clang::Stmt *Site, const clang::Stmt *Use) const;
  // The innermost `for` that holds Use in its condition, increment or body
  // and whose init assigns V: no other definition of V reaches Use.
  const clang::ForStmt *resettingLoop(const clang::VarDecl *V,
                                      const clang::Stmt *Use) const;
  // V inside Loop: its init's value and the loop's own definitions.
  Dependence loopVarDependence(const clang::VarDecl *V,
                               const clang::ForStmt *Loop);
  Dependence solveLoopVar(const clang::VarDecl *V, const clang::ForStmt *Loop);
  void registerLoopVars(const clang::ForStmt *Loop, const clang::Stmt *Init);
  void collect(const clang::Stmt *S, const clang::Stmt *Parent);
  void solveVariables();
  Dependence loopDependence(const clang::Stmt *Loop);
  // The branches around S up to (not including) Stop, without early exits.
  Guard enclosingGuard(const clang::Stmt *S, const clang::Stmt *Stop);
  // The branches and loops whose body (not condition) holds S, innermost
  // first, up to (not including) Stop.
  llvm::SmallVector<const clang::Stmt *, 4>
  enclosingBranches(const clang::Stmt *S, const clang::Stmt *Stop) const;
  // The break/continue/return/goto statements that let a thread leave Loop
  // early or skip the rest of an iteration (a kernel's return ends the
  // thread instead).
  llvm::SmallVector<const clang::Stmt *, 4>
  loopExits(const clang::Stmt *Loop) const;
  // The returns (not a kernel's) and gotos before S.
  llvm::SmallVector<const clang::Stmt *, 4>
  exitsBefore(const clang::Stmt *S) const;
  // How much the threads that take Exit differ from those that do not.
  Dependence earlyExitDependence(const clang::Stmt *Exit);

private:
  bool isKernel() const;
  Dependence incoming(const clang::ParmVarDecl *P) const;
  // Values kept in locals, flow-sensitively where the code is straight:
  // walking back from Use through the statements before it in each block
  // around it (no loop, switch or label in between), the statement that
  // defines V (Writer) and, for a declaration or a plain assignment, the
  // value it gives (Value); Entry when the walk reached the function's
  // entry with no definition. Nothing of the three: the walk cannot tell.
  struct Reaching {
    const clang::Stmt *Writer = nullptr;
    const clang::Expr *Value = nullptr;
    bool Entry = false;
  };
  Reaching reachingDefinition(const clang::Stmt *Use, const clang::VarDecl *V);
  // The dependence of Use (a read of V) from the definition that reaches
  // it: its value, a parameter's incoming value, or a butterfly loop on V
  // (warpButterfly); nothing when the flow-insensitive join must answer.
  std::optional<Dependence> reachingDependence(const clang::Stmt *Use,
                                               const clang::VarDecl *V);
  // The value the one definition that reaches Use gives local V, or null.
  const clang::Expr *reachingValue(const clang::Stmt *Use,
                                   const clang::VarDecl *V);
  // `for (o = 16; o > 0; o >>= 1) v = op(__shfl_xor_sync(full, v, o), v);`
  // (also `v op= __shfl_xor_sync(..)`): every lane ends with the reduction
  // of the warp's 32 values.
  bool warpButterfly(const clang::Stmt *Loop, const clang::VarDecl *V);
  // An integer constant, also through the non-type template parameters of
  // Specialization.
  std::optional<int64_t> constantValue(const clang::Expr *E);
  // A value that is the same in lane l of every warp: a __shared__ array
  // read at a lane index (`buf[tid % 32]`, `buf[lane]`), as every warp
  // reads the same 32 slots.
  bool laneOnly(const clang::Expr *E);
  // blockDim.x, or a local whose one definition is its initialiser
  // `localSize = blockDim.x`.
  bool isBlockDimX(const clang::Expr *E, unsigned Depth);
  // `i < P` (also `P > i`, `i >= P`, `P <= i`) with i = tid.x + k *
  // blockDim.x and P = m * blockDim.x, both exact: it holds exactly when
  // k < m, the same in every thread. The rests' dependence, or nothing.
  std::optional<Dependence> blockPaddedCompare(const BinaryForm &BO);
  // E without casts, followed through the definitions of the locals it
  // names (reachingValue), at most Hops of them (decremented); null where a
  // local's value is not known or the hops run out.
  const clang::Expr *throughLocals(const clang::Expr *E, unsigned &Hops);
  // The variables S may write (collectWrites, lambdas' bodies and bound
  // references included), cached: the walk back asks it of each statement
  // it passes.
  const DeclSet &writtenIn(const clang::Stmt *S);
  llvm::DenseMap<const clang::Stmt *, std::unique_ptr<DeclSet>> WrittenIn;
  // A full-warp collective's operands: each uniform or lane-only, so that
  // every warp computes the same result: the block's.
  bool sameInEveryWarp(llvm::ArrayRef<const clang::Expr *> Args);

  const clang::FunctionDecl *F;
  ThreadDependenceAnalysis &Parent;
  // Parameter I starts as ParamDeps[I] (a call context); the others, and
  // 'this', as Incoming (Uniform for a kernel, Unknown otherwise).
  llvm::SmallVector<Dependence, 4> ParamDeps;
  Dependence Incoming;
  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> Parents;
  llvm::DenseMap<const clang::Expr *, Dependence> Cache;
  // Definitions of each local variable: (value, statement defining it).
  llvm::DenseMap<
      const clang::VarDecl *,
      llvm::SmallVector<std::pair<const clang::Expr *, const clang::Stmt *>, 2>>
      Defs;
  llvm::DenseMap<const clang::VarDecl *, Dependence> VarDeps;
  // Loops whose init assigns a local, with that local's dependence inside.
  llvm::DenseMap<std::pair<const clang::VarDecl *, const clang::ForStmt *>,
                 Dependence>
      LoopVarDeps;
  // A goto or a case label can enter a loop without its init: no
  // per-loop refinement then.
  bool MayJumpIntoLoops = false;
  llvm::DenseSet<const clang::VarDecl *> Escaped;  // address taken, asm output
  llvm::SmallVector<const clang::Stmt *, 4> Exits; // return/break/continue/goto
  llvm::DenseMap<const clang::Stmt *, Dependence> LoopCache;
  llvm::DenseSet<const clang::Stmt *> LoopsInProgress;
  llvm::DenseSet<const clang::VarDecl *> PartsInProgress;
  // How many times a query came back to a loop or a local whose answer was
  // under way and took a stand-in: an answer computed meanwhile depends on
  // the order of the queries and is not cached (else the first order seen
  // decides, and the verdict changes from run to run).
  unsigned CutOffs = 0;
  llvm::DenseMap<const clang::Stmt *, Guard> GuardCache;
  // The statement each local is declared in.
  llvm::DenseMap<const clang::VarDecl *, const clang::Stmt *> DeclaredIn;
  bool Solving = false;
  bool Solved = false;
};

// Caches one FunctionDependence per function of the TU.
class ThreadDependenceAnalysis {
public:
  FunctionDependence &forFunction(const clang::FunctionDecl *F);
  // The dependence a call to F adds beyond its arguments': what its return
  // statements depend on when its parameters are uniform.
  Dependence calleeSummary(const clang::FunctionDecl *F);
  // What F's returns depend on with every parameter thread-dependent: at
  // most WarpUniform for a helper that reduces its arguments over the warp
  // (a vote, a butterfly of __shfl_xor_sync), whatever they are.
  Dependence collectiveSummary(const clang::FunctionDecl *F);
  // F analysed for one call context: its parameters as dependent as the
  // arguments of the call (Args[I]: argument I's dependence).
  FunctionDependence &forContext(const clang::FunctionDecl *F,
                                 llvm::ArrayRef<Dependence> Args);

  // dependence() queries under way, for the nesting budget (Budget.h).
  unsigned &nesting() { return Nesting; }

private:
  unsigned Nesting = 0;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<FunctionDependence>>
      Functions;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<FunctionDependence>>
      SummaryViews;
  llvm::DenseMap<const clang::FunctionDecl *, Dependence> Summaries;
  llvm::DenseMap<const clang::FunctionDecl *, Dependence> Collectives;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<FunctionDependence>>
      CollectiveViews;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
  std::map<std::pair<const clang::FunctionDecl *, std::vector<int>>,
           std::unique_ptr<FunctionDependence>>
      Contexts;
};

} // namespace warplint
