// Lane evaluation: the value of a thread-dependent expression in each lane of
// each warp of a block, computed concretely, so that a branch can be judged by
// the lanes it actually separates ("threadIdx.x > 2" splits warp 0 into 3 and
// 29 lanes; "threadIdx.x / warpSize > 2" splits no warp: the Pascal deep dive's
// "branch granularity" slides, and the Optimizing for CUDA slides'
// "Divergence").
//
// Thread t of a block of shape (X, Y, Z) belongs to warp t / warpSize with
// t = x + X * (y + Y * z). With the shape known (the kernel's launches in the
// TU agree on a literal block), every thread is modelled; without it, the
// block is taken as 1-D with blockDim.x a multiple of warpSize (up to 1024
// threads) and y = z = 0 — y and z are then the same in every lane of a warp.
//
// Only what is certain is evaluated: literals, constant expressions,
// threadIdx, blockDim of a known shape, locals whose one definition is their
// initialiser, small helpers (and lambdas) returning one expression, and
// cooperative groups' thread_rank(). What the evaluator cannot compute itself
// (a local written after its declaration, a helper of several statements or
// calls deep) it takes from the engine's affine forms (AffineIndex.h) when the
// form is exact in every lane: thread-index terms with integer coefficients
// and no run-time value. Anything else (a kernel parameter, a loop counter, a
// load) makes the answer "unknown", and checks stay silent on unknown.
#pragma once
#include "Analysis/AffineIndex.h"
#include "Analysis/LocalWrites.h"
#include "Analysis/ThreadDependence.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace warplint {

struct ThreadId {
  int64_t X = 0, Y = 0, Z = 0;
};

// How a condition splits the warps of a block.
struct LaneSplit {
  bool Known = false;
  unsigned WarpsChecked = 0;
  unsigned WarpsSplit = 0; // warps with lanes on both sides
  // The first split warp: its index, the lanes where the condition holds,
  // and the lanes that exist in it.
  unsigned FirstWarp = 0;
  uint64_t TrueLanes = 0;
  uint64_t Lanes = 0;
  // For multi-way branches (switch): distinct values within that warp.
  unsigned Paths = 0;
  // Over the block: the lanes where the condition holds, and the warps
  // that hold at least one of them.
  unsigned TrueTotal = 0, FalseTotal = 0;
  unsigned WarpsTrue = 0, WarpsFalse = 0;
};

// V wrapped to the width and signedness of an integral type T (a bool: 0 or
// 1); nothing for another type.
std::optional<int64_t> wrapTo(int64_t V, clang::QualType T,
                              const clang::ASTContext &Ctx);

// A set of lanes for messages: "lane 0", "lanes 0-2", "lanes 0-7, 16-23",
// "the 16 odd lanes", "12 lanes".
std::string describeLanes(uint64_t Mask, unsigned WarpSize);

class LaneEvaluator {
public:
  LaneEvaluator(const clang::FunctionDecl *F, BlockShape Shape,
                unsigned WarpSize);

  // The value of an integer or boolean expression in one thread.
  std::optional<int64_t> eval(const clang::Expr *E, const ThreadId &T);

  // Whether Cond takes different values within a warp, over the warps of
  // the block. Unknown when any lane cannot be evaluated.
  LaneSplit split(const clang::Expr *Cond);

  // Whether the lanes of a warp run For a different number of times: each
  // lane's trip count, its counter started at the init's value in that lane
  // and stepped by the increment (+=, -=, *=, <<=, >>=, /= an expression
  // evaluated in the lane, or ++/--), up to a budget. TrueLanes holds the
  // lanes of the first split warp that run it the most. Unknown when a lane
  // cannot be evaluated, the counter is written in the body, or a lane
  // runs past the budget.
  LaneSplit tripSplit(const clang::ForStmt *For);

  // The lanes of warp W that reach S with the rest of the function: the
  // enclosing if/else polarities and the returns before S. Unknown when a
  // condition on the way cannot be evaluated, or a loop lies in between.
  std::optional<uint64_t> activeLanes(const clang::Stmt *S,
                                      FunctionDependence &FD, unsigned W);

  // The lanes of warp W that may reach S, an access or call in the last
  // function of Chain (the calls from the kernel inwards; empty: S is in
  // this evaluator's function): the if/else polarities, && / || / ?: sides
  // and earlier returns of every function on the way, each callee's
  // parameters bound in every lane to its call's arguments. A condition
  // that cannot be evaluated keeps its lanes and a loop is passed through,
  // so this is a superset of the lanes that reach S (all the warp's lanes
  // when nothing is known: `if (i < n)` with n a parameter).
  uint64_t mayReach(const clang::Stmt *S, llvm::ArrayRef<CallLink> Chain,
                    ThreadDependenceAnalysis &TDA, unsigned W);

  // Where a parameter of this function comes from: the argument of one
  // call, evaluated in the same thread by the caller's evaluator.
  struct ArgSource {
    const clang::Expr *Arg;
    std::shared_ptr<LaneEvaluator> Caller;
  };
  // Binds the parameters of a __device__ helper to the arguments of its
  // calls: a parameter that no call binding (mayReach's) or fixed value
  // covers takes, in thread T, the value its argument has in thread T in
  // the caller, when every call gives the same (`tree(s, threadIdx.x)`,
  // `lanesum(v, threadIdx.x % 32)`); otherwise it stays unknown.
  void bindParameters(
      llvm::DenseMap<const clang::ParmVarDecl *, std::vector<ArgSource>> Src) {
    Sources = std::move(Src);
    Guards.clear();
    Chains.clear();
  }

  // Evaluates V as Value from now on (a loop counter in its first
  // iteration); clear() forgets all such bindings.
  void fix(const clang::VarDecl *V, int64_t Value) { Fixed[V] = Value; }
  void clearFixed() { Fixed.clear(); }
  // All the fixed values at once (a parameter among them counts when no
  // call binds it): a caller that keeps each lane's locals swaps its map in
  // before evaluating and out after.
  llvm::DenseMap<const clang::VarDecl *, int64_t> &fixedValues() {
    return Fixed;
  }

  // Takes from Forms what the evaluator cannot compute itself, for the
  // locals and calls of this function (not of the helpers it inlines).
  // Model: the kernel whose block shape the forms model, the same as this
  // evaluator's (null: this function's own launches). Set by LaneEngine.
  void useForms(AffineAnalysis &Forms, const clang::FunctionDecl *Model) {
    this->Forms = &Forms;
    FormModel = Model;
    Guards.clear();
    Chains.clear();
  }

  unsigned warpSize() const { return WarpSize; }
  const clang::FunctionDecl *function() const { return F; }
  const BlockShape &shape() const { return Shape; }
  bool shapeKnown() const { return Shape.pinned(); }
  unsigned warpCount() const;
  // The thread of lane L of warp W, or nothing if the block has no such
  // thread.
  std::optional<ThreadId> thread(unsigned W, unsigned L) const;

private:
  using Bindings = llvm::DenseMap<const clang::ParmVarDecl *, int64_t>;
  // mayReach within one function, from the lanes Entry that enter it, lane
  // L's parameters bound by Binds[L]. Exact: no condition, loop or return
  // on the way was left unevaluated (then the result is exactly the lanes
  // of Entry that reach S). Context names what Binds hold (the number
  // mayReach gave the call chain that made them, the empty chain included),
  // for the cache of conditions; NoContext: not cached.
  static constexpr unsigned NoContext = ~0u;
  uint64_t mayReachIn(const clang::Stmt *S, FunctionDependence &FD,
                      uint64_t Entry, llvm::ArrayRef<Bindings> Binds,
                      unsigned W, bool &Exact, unsigned Context);
  // The returns of F's body (not in its lambdas), in source order.
  llvm::ArrayRef<const clang::ReturnStmt *>
  returnsOf(const clang::FunctionDecl *F);
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<const clang::ReturnStmt *>>
      Returns;
  std::optional<int64_t> evalIn(const clang::Expr *E, const ThreadId &T,
                                const Bindings *B, unsigned Depth);
  std::optional<int64_t> evalCall(const clang::CallExpr *Call,
                                  const ThreadId &T, const Bindings *B,
                                  unsigned Depth);
  std::optional<int64_t> builtin(const clang::Expr *E, const ThreadId &T);
  bool isWritten(const clang::VarDecl *V);
  // E's value in thread T from its affine form (useForms), when exact.
  std::optional<int64_t> fromForm(const clang::Expr *E, const ThreadId &T);
  // Whether Call is in this function's body (not in a helper it inlines).
  bool inBody(const clang::CallExpr *Call);
  // The values the counter of For takes, in order, when the loop counts
  // with constants only: `for (int m = 0; m < 16; m++)`, `m = 14; m >= 0;
  // m--`, `s = 1; s <= 256; s *= 2`, the counter written nowhere else.
  // Nothing for any other loop or more than a budget of iterations.
  std::optional<std::vector<int64_t>> countedValues(const clang::ForStmt *For);
  // Evaluates Cond in thread T with the counters of Loops (from the
  // outermost) bound to each combination of their values, up to a budget:
  // whether Want holds for some combination, for none, or is unknown.
  std::optional<bool> holdsInSomeIteration(
      const clang::Expr *Cond, bool Want, const ThreadId &T, const Bindings *B,
      llvm::ArrayRef<std::pair<const clang::VarDecl *, std::vector<int64_t>>>
          Loops);

  const clang::FunctionDecl *F;
  BlockShape Shape;
  unsigned WarpSize;
  llvm::DenseMap<const clang::VarDecl *, int64_t> Fixed;
  llvm::DenseMap<const clang::ParmVarDecl *, std::vector<ArgSource>> Sources;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<LocalWrites>>
      Writes;
  // Locals written after their declaration, per function seen.
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::DenseSet<const clang::VarDecl *>>
      Written;
  // The value of each expression that folds to a constant, or nothing.
  llvm::DenseMap<const clang::Expr *, std::optional<int64_t>> Constants;
  // mayReach's conditions of this function's own body, each evaluated once
  // per warp in every lane, without fixed values: a long device function
  // has each access judged under the same guards (and the returns before
  // it), for every warp.
  llvm::DenseMap<std::tuple<const clang::Expr *, unsigned, unsigned>,
                 std::vector<std::optional<int64_t>>>
      Guards; // by condition, warp and context
  // The lanes of warp W that enter the last callee of a call chain, and
  // their parameters' values: per chain (its calls), a context number and
  // per warp what the chain leaves.
  struct ChainEntry {
    uint64_t Active = 0;
    std::vector<Bindings> Binds;
    bool Exact = true;
  };
  std::map<std::vector<const clang::CallExpr *>, unsigned> Contexts;
  llvm::DenseMap<std::pair<unsigned, unsigned>, ChainEntry> Chains;
  AffineAnalysis *Forms = nullptr;
  const clang::FunctionDecl *FormModel = nullptr;
  llvm::DenseMap<const clang::Expr *, AffineForm> FormOf;
  std::optional<llvm::DenseSet<const clang::CallExpr *>> BodyCalls;
};

} // namespace warplint
