// Affine thread-index analysis: how an index or address varies across the
// 32 lanes of a warp.
//
// Every integer expression in device code gets an abstract value
//     Const + Σ coef_t · t  (+ a block- or warp-uniform remainder)
// over the thread terms t ∈ {threadIdx.x, threadIdx.y, threadIdx.z, lane}
// (lane = threadIdx.x % 32; threadIdx.x / 32, the warp id, is uniform within
// a warp). A coefficient is an integer or a uniform value unknown at compile
// time (a matrix dimension n): `a[tid * n + k]` has coefficient n on
// threadIdx.x. Anything else — products of two thread terms, loads through
// thread-dependent addresses, values the analysis cannot follow — is Unknown,
// and the memory checks stay silent on Unknown.
//
// Locals are followed through all their definitions (they must agree on the
// thread coefficients; `i += stride` with a uniform stride keeps them, which
// covers grid-stride loops); small helper functions are inlined (their
// return expression with the arguments bound to the parameters); pointers
// are followed to their root — a kernel parameter (global memory), a
// __shared__ array or a __device__ array — with the byte offset as a form.
//
// Calls are followed interprocedurally and context-sensitively
// (reachedAccesses): a kernel's calls to __device__ functions, function
// template instantiations and lambdas ([=] and [&] captures read the
// enclosing function's locals) bind each callee's parameters to the forms
// and addresses of the call's arguments, through any depth of helpers up to
// MaxCallDepth; each callee is summarised once per distinct argument pattern
// (at most MaxContextsPerFunction of them), recursion stops at the first
// repeat.
//
// The lanes of a warp are modelled from the block shape: blockDim.x a
// multiple of 32 by default (lane l has threadIdx.x = 32w + l, the same y and
// z), or the literal block size of the kernel's launches in the TU. The
// per-lane byte offsets then give the 32-byte sectors (global) or the banks
// (shared) one warp request touches. This is the classic coalescing model of
// the CUDA C++ Best Practices Guide and the "Access Patterns vs. Memory
// Throughput" pages of the Pascal deep dive.
//
// The implementation, one job a file: AffineForm.cpp (the form algebra),
// IntegerForms.cpp (integer expressions), LocalDefinitions.cpp (locals
// through their definitions), Addresses.cpp (pointers and lvalues),
// MemoryAccesses.cpp (a function's accesses, per-lane walks),
// CallSummaries.cpp (calls, interprocedurally), LoopValues.cpp (geometric
// induction variables), WarpPatterns.cpp (the lanes of a warp),
// LaunchShapes.cpp (block shapes of launches), DumpAnalysis.cpp.
#pragma once
#include "Analysis/AffineForm.h"
#include "Analysis/LocalWrites.h"
#include "Analysis/ThreadDependence.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

// Where a pointer or lvalue points: a root and a byte offset.
enum class MemorySpace { Global, Shared, Other };

struct Address {
  const clang::ValueDecl *Root = nullptr;
  MemorySpace Space = MemorySpace::Other;
  AffineForm Offset; // bytes
  bool Known = false;
};

// The literal block shape of a kernel's launches, when every launch in the
// TU agrees.
struct BlockShape {
  unsigned X = 0, Y = 1, Z = 1; // X == 0: unknown (assume a multiple of 32)
  // z known only at run time (dim3(4, 8, n)): the lanes of a warp are one
  // z-slice's (Z is 1 in the model), but blockDim.z has no known value.
  bool RuntimeZ = false;
  // With RuntimeZ, the values z takes when the launches write it as a
  // choice of constants (`big ? 1024 : 768` threads over x * y = 32: 32 or
  // 24), in increasing order; empty when not known.
  llvm::SmallVector<unsigned, 4> ZChoices;
  // Joins the choices of another launch of the same x and y: the union,
  // unknown (empty) when either is.
  void joinZChoices(llvm::ArrayRef<unsigned> Other) {
    if (ZChoices.empty() || Other.empty()) {
      ZChoices.clear();
      return;
    }
    ZChoices.append(Other.begin(), Other.end());
    llvm::sort(ZChoices);
    ZChoices.erase(llvm::unique(ZChoices), ZChoices.end());
  }
  bool pinned() const { return X != 0; }
  // blockDim's component (0 x, 1 y, 2 z), if the launch gives it.
  std::optional<unsigned> dim(int Index) const {
    if (!pinned() || (Index == 2 && RuntimeZ))
      return std::nullopt;
    return Index == 0 ? X : Index == 1 ? Y : Z;
  }
};

// One global or shared memory access of a function.
struct MemoryAccess {
  const clang::Expr *E = nullptr; // the lvalue accessed
  bool IsStore = false;
  bool AlsoLoads = false; // a compound assignment or ++/--: load, then store
  Address Addr;
  unsigned Size = 0; // bytes one lane moves per instruction
  // For a field: the structs it is in, innermost first, with their sizes.
  std::vector<std::pair<const clang::RecordDecl *, unsigned>> Records;
  // The address is the per-lane walk of a local (AffineForm::Walk): Addr
  // has its root and space but no known offset.
  const clang::VarDecl *Walk = nullptr;
};

// The values a loop-carried geometric induction variable takes where an
// access reads it: `for (int offset = 1; offset < n; offset *= 2)`, or a
// local set before a loop and multiplied (or shifted left) by a constant
// inside it (`offset *= 2` at the end of the Blelloch up-sweep's body).
struct LoopValues {
  const clang::VarDecl *Var = nullptr;
  std::vector<int64_t> Values; // in iteration order
  // The loop's condition on Var (offset < n), when it has one.
  const clang::Expr *Cond = nullptr;
  // Whether Values end where Cond does (a constant bound); otherwise they
  // run on to a cap, as far as a warp can tell the strides apart.
  bool Bounded = false;
};

// The addresses one warp request touches: lane l reads [Offsets[l],
// Offsets[l] + Size).
struct WarpPattern {
  bool Known = false;
  bool SymbolicStride = false; // a coefficient known only at run time
  std::string SymbolName;
  int64_t SymbolFactor = 0;     // the run-time spacing is a multiple of this
  std::vector<int64_t> Offsets; // per active lane, relative to lane 0's base
  // Lanes in different groups differ by a run-time multiple (the symbolic
  // terms): assume they are far apart; within a group offsets are exact.
  std::vector<int64_t> Group;
  int64_t LaneStride = 0; // bytes between consecutive lanes, if regular
  bool Regular = false;
  bool DependsOnBlockShape = false; // the y/z terms mattered
};

// One call of a chain from a kernel to an access: Call in Caller, calling
// Callee; Shown are the arguments that carry the thread index or point
// into global or shared memory, each with its parameter, for the notes.
struct CallLink {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Caller = nullptr;
  const clang::FunctionDecl *Callee = nullptr;
  std::vector<std::pair<const clang::ParmVarDecl *, const clang::Expr *>> Shown;
};

// An access of a function a kernel calls, evaluated in that call's context.
struct ReachedAccess {
  MemoryAccess Access;
  std::vector<CallLink> Chain; // from the kernel inwards
};

// The argument of Call that initialises parameter I of its callee (a
// lambda's or functor's operator() call passes the object first).
const clang::Expr *argumentFor(const clang::CallExpr *Call, unsigned I);
// The function a call runs, with a body: a __device__ function, a function
// template's instantiation, a lambda's operator(); null otherwise.
const clang::FunctionDecl *calledDefinition(const clang::CallExpr *Call);

// The lanes of P that Mask keeps (bit l: lane l), with Regular and
// LaneStride recomputed over them.
WarpPattern restrictLanes(const WarpPattern &P, uint64_t Mask);

constexpr unsigned MaxCallDepth = 8;
constexpr unsigned MaxContextsPerFunction = 8;

class AffineAnalysis {
public:
  AffineAnalysis(clang::ASTContext &Ctx, ThreadDependenceAnalysis &TDA,
                 unsigned WarpSize)
      : Ctx(Ctx), TDA(TDA), WarpSize(WarpSize) {}

  // The abstract value of an integer expression in function F.
  AffineForm form(const clang::Expr *E, const clang::FunctionDecl *F);
  // The same with the lanes modelled by Kernel's block shape, F a function
  // Kernel reaches (null: F's own launches).
  AffineForm form(const clang::Expr *E, const clang::FunctionDecl *F,
                  const clang::FunctionDecl *Kernel);
  // The root and byte offset of a pointer value or an lvalue.
  Address pointer(const clang::Expr *E, const clang::FunctionDecl *F);
  Address lvalue(const clang::Expr *E, const clang::FunctionDecl *F);

  // The global and shared accesses in F's body (not in nested lambdas).
  std::vector<MemoryAccess> accesses(const clang::FunctionDecl *F);
  // The same with the accesses whose offset is unknown (Addr.Known false):
  // every access to a known space, for counting a kernel's traffic.
  std::vector<MemoryAccess> everyAccess(const clang::FunctionDecl *F);
  // The accesses of the function Call calls, with its parameters bound to
  // the forms and addresses of Call's arguments in Caller.
  std::vector<MemoryAccess> accessesInCall(const clang::CallExpr *Call,
                                           const clang::FunctionDecl *Caller);

  // The global and shared accesses of the functions Kernel calls, directly
  // or through other calls, each evaluated with the callee's parameters
  // bound to the arguments of its call chain; only those whose address is
  // known there. Cached per kernel.
  const std::vector<ReachedAccess> &
  reachedAccesses(const clang::FunctionDecl *Kernel);

  // The reached accesses (of every kernel of the TU) that lie in F, each
  // with the chain that reaches it; kernels in the TU's order.
  const std::vector<ReachedAccess> &reachedIn(const clang::FunctionDecl *F);

  // The locals that F's accesses walk per lane (AffineForm::Walk), each
  // with the access: global or shared accesses whose offset is unknown only
  // because each lane starts at its own loaded value.
  std::vector<MemoryAccess> laneWalks(const clang::FunctionDecl *F,
                                      MemorySpace Space);
  // Where a per-lane walk starts (row_ptr[row]), once laneWalks found it.
  const clang::Expr *walkStart(const clang::VarDecl *V) const {
    return WalkStarts.lookup(V);
  }

  // For access A of F inside a loop that multiplies a local by a constant
  // (a LoopValues variable) on which A's address depends: the values, and
  // the warp pattern of A for each of them (same order). Nothing when the
  // address does not depend on such a variable.
  std::optional<std::pair<LoopValues, std::vector<WarpPattern>>>
  loopPatterns(const MemoryAccess &A, const clang::FunctionDecl *F);
  // The geometric induction variables of F whose values access site At
  // sees, innermost loop first.
  std::vector<LoopValues> loopValues(const clang::Stmt *At,
                                     const clang::FunctionDecl *F);

  // The lanes of a warp for a block shape.
  WarpPattern pattern(const AffineForm &ByteOffset, const BlockShape &Shape);

  // Records the block shape of a launch in any spelling of Launches.h
  // (<<<grid, block>>>, cudaLaunchKernel, cudaLaunchKernelEx); a kernel
  // launched with different or non-constant shapes keeps the default model.
  // A launch in a template's pattern is skipped: its instantiations carry
  // the values of the template arguments.
  void recordLaunch(const clang::CallExpr *Launch);
  // What the launches recordLaunch saw say of a kernel's grids: the most
  // blocks one runs, and whether every one of them is written with
  // constants (gridBlocksOf).
  struct LaunchGrids {
    std::optional<uint64_t> MaxBlocks;
    bool AllConstant = true;
  };
  // Kernel's (a template as written: all its instantiations'); null when
  // no launch names it.
  std::optional<LaunchGrids> launchGrids(const clang::FunctionDecl *Kernel);
  // The value of a launch argument written with constants: a literal, a
  // constexpr or const variable, a macro, dim3(x, y, z) of those, a local
  // (dim3 or integer) that is initialised so and never written again (by
  // LocalWrites), or a const global dim3. For an integer the shape is
  // {value, 1, 1}. The one way both the launch checks and the memory
  // checks' warp model fold a block shape.
  // With RuntimeZ, a z not written with constants is taken as 1 and
  // *RuntimeZ set (see literalShape).
  std::optional<BlockShape> literalShapeOf(const clang::Expr *E,
                                           bool *RuntimeZ = nullptr);
  // The same for an integer argument that may be 0 (shared memory bytes).
  std::optional<uint64_t> literalValueOf(const clang::Expr *E);
  BlockShape blockShape(const clang::FunctionDecl *Kernel) const {
    return Shapes.lookup(Kernel->getCanonicalDecl());
  }
  // The launched kernels (canonical declarations) and their block shapes,
  // pinned or not.
  const llvm::DenseMap<const clang::FunctionDecl *, BlockShape> &
  launchedShapes() const {
    return Shapes;
  }

private:
  struct Env {
    const clang::FunctionDecl *F;
    // Inlined calls: parameters bound to the callers' forms.
    const llvm::DenseMap<const clang::ParmVarDecl *, AffineForm> *Params;
    const llvm::DenseMap<const clang::ParmVarDecl *, Address> *PtrParams;
    unsigned Depth;
    // The caller's environment: a lambda's captures are its locals.
    const Env *Outer = nullptr;
    // F's thread dependence in this call context (parameters as dependent
    // as their arguments); null: F's own.
    FunctionDependence *FD = nullptr;
    // The kernel whose block shape models the lanes; null: F.
    const clang::FunctionDecl *Kernel = nullptr;
  };
  FunctionDependence &dependenceOf(const Env &En) {
    return En.FD ? *En.FD : TDA.forFunction(En.F);
  }
  BlockShape shapeOf(const Env &En) const {
    return blockShape(En.Kernel ? En.Kernel : En.F);
  }
  // Whether the uniform fallbacks (any warp-uniform value) may be used.
  static bool knowsDependence(const Env &En) { return !En.Params || En.FD; }
  // The environment in which a local of another function (a lambda's
  // capture) is evaluated, or null.
  static const Env *ownerEnv(const clang::VarDecl *V, const Env &En);
  // The accesses reached through the calls in En.F's body.
  void
  reachThroughCalls(const Env &En, std::vector<ReachedAccess> &Out,
                    llvm::SmallVectorImpl<const clang::FunctionDecl *> &Stack);
  // Key of a call context: the callee's bound parameters.
  std::string contextKey(
      const clang::FunctionDecl *Def, const clang::FunctionDecl *Kernel,
      const llvm::DenseMap<const clang::ParmVarDecl *, AffineForm> &Params,
      const llvm::DenseMap<const clang::ParmVarDecl *, Address> &PtrParams)
      const;
  struct Defs {
    // (value or compound operator, defining statement)
    std::vector<std::pair<const clang::Expr *, const clang::Stmt *>> List;
    bool Escaped = false;
  };

  std::vector<MemoryAccess> accessesIn(const clang::FunctionDecl *F,
                                       const Env &En, bool Walks = false,
                                       bool Unknown = false);
  // Whether Value (a definition of V) is a step v += u, v -= u, v = v + u,
  // ++v with u uniform (true), another compound change (false), or an
  // initialiser or plain assignment (nothing).
  std::optional<bool> isUniformStep(const clang::VarDecl *V,
                                    const clang::Expr *Value, const Env &En);
  // Whether the lanes holding V all made its definition Value at Site; a
  // uniform step of a loop's induction variable counts only the branches
  // around the loop.
  Dependence definitionDependence(const clang::VarDecl *V,
                                  const clang::Stmt *Site, bool UniformStep,
                                  FunctionDependence &FD);
  // V as a per-lane walk (AffineForm::Walk), or unknown.
  AffineForm laneWalk(const clang::VarDecl *V, const Env &En);
  AffineForm formIn(const clang::Expr *E, const Env &En);
  AffineForm binary(const clang::BinaryOperator *BO, const Env &En);
  AffineForm variable(const clang::VarDecl *V, const Env &En);
  AffineForm inlineCall(const clang::CallExpr *Call, const Env &En);
  // The callee's parameters bound to the forms and addresses of Call's
  // arguments, evaluated in En.
  void
  bindArguments(const clang::CallExpr *Call, const clang::FunctionDecl *Def,
                const Env &En,
                llvm::DenseMap<const clang::ParmVarDecl *, AffineForm> &Params,
                llvm::DenseMap<const clang::ParmVarDecl *, Address> &PtrParams);
  Address pointerIn(const clang::Expr *E, const Env &En);
  Address lvalueIn(const clang::Expr *E, const Env &En);
  Address pointerVariable(const clang::VarDecl *V, const Env &En);
  template <typename T>
  T followVariable(const clang::VarDecl *V, const Env &En,
                   T (AffineAnalysis::*Eval)(const clang::Expr *, const Env &));
  const llvm::DenseMap<const clang::VarDecl *, Defs> &
  definitions(const clang::FunctionDecl *F);
  std::optional<int64_t> constant(const clang::Expr *E) const;
  // Whether local V keeps its initialiser in its function (LocalWrites).
  bool keepsInitialValue(const clang::VarDecl *V);
  int64_t uniformFactor(const clang::Expr *E) const;

  clang::ASTContext &Ctx;
  ThreadDependenceAnalysis &TDA;
  unsigned WarpSize;
  // Boxed: callers iterate one function's definitions while evaluating
  // forms that fill in other functions' entries (inlined callees).
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<llvm::DenseMap<const clang::VarDecl *, Defs>>>
      DefCache;
  llvm::DenseSet<const clang::VarDecl *> InProgress;
  // Geometric induction variables bound to one of their values while
  // loopPatterns evaluates an access for it.
  llvm::DenseMap<const clang::VarDecl *, int64_t> Bound;
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> WalkStarts;
  unsigned Nesting = 0; // formIn/pointerIn/lvalueIn under way (Budget.h)
  llvm::DenseMap<const clang::FunctionDecl *, BlockShape> Shapes;
  llvm::DenseSet<const clang::FunctionDecl *> Unpinned;
  llvm::DenseSet<const clang::CallExpr *> SeenLaunches;
  llvm::DenseMap<const clang::FunctionDecl *, LaunchGrids> Grids;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<LocalWrites>>
      Writes;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<ReachedAccess>>
      Reached;
  // Callee summaries per argument pattern: the accesses, with chains from
  // the callee inwards.
  std::map<std::pair<const clang::FunctionDecl *, std::string>,
           std::vector<ReachedAccess>>
      Summaries;
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> SummaryCount;
  std::optional<
      llvm::DenseMap<const clang::FunctionDecl *, std::vector<ReachedAccess>>>
      ReachedByOwner;
};

// --dump-analysis: for every kernel and device function the user wrote, the
// dependence of each branch condition and the address form and warp
// pattern of each global/shared access, one line each (lit tests read it, as
// LLVM's tests read print<uniformity>).
void dumpAnalysis(clang::ASTContext &AST, AffineAnalysis &AA,
                  ThreadDependenceAnalysis &TDA, llvm::raw_ostream &OS);

} // namespace warplint
