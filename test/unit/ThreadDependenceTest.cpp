// The thread-dependence analysis on small kernels, queried directly.
#include "Analysis/ThreadDependence.h"
#include "CudaAst.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using namespace warplint;

namespace {

// The dependence of the expression in variable `probe`'s initialiser in the
// function named Fn, and the guard of the statement `marker();`.
struct Probe {
  std::unique_ptr<ASTUnit> AST;
  warplint::ThreadDependenceAnalysis TDA;
  const FunctionDecl *Fn = nullptr;

  explicit Probe(llvm::StringRef Code) : AST(parseCuda(Code)) {}

  warplint::Dependence value(llvm::StringRef Var) {
    auto M = match(
        varDecl(hasName(Var), hasAncestor(functionDecl().bind("f"))).bind("v"),
        AST->getASTContext());
    if (M.empty())
      return warplint::Dependence::Unknown;
    Fn = M[0].getNodeAs<FunctionDecl>("f");
    const auto *V = M[0].getNodeAs<VarDecl>("v");
    return TDA.forFunction(Fn).dependence(V->getInit());
  }

  warplint::Dependence guardOfMarker() {
    auto M = match(callExpr(callee(functionDecl(hasName("marker"))),
                            hasAncestor(functionDecl().bind("f")))
                       .bind("c"),
                   AST->getASTContext());
    if (M.empty())
      return warplint::Dependence::Unknown;
    Fn = M[0].getNodeAs<FunctionDecl>("f");
    return TDA.forFunction(Fn).guardOf(M[0].getNodeAs<CallExpr>("c")).D;
  }
};

const char *Prelude =
    "__device__ void marker();\n"
    "__device__ int idx() { return blockIdx.x * blockDim.x + threadIdx.x; }\n"
    "__device__ int twice(int v) { return 2 * v; }\n";

} // namespace

TEST(ThreadDependence, BuiltinVariables) {
  Probe P(std::string(Prelude) +
          "__global__ void k(int n) { int probe = threadIdx.x; int probe_u = "
          "blockIdx.x * blockDim.x + n; int probe_ws = warpSize; (void)probe; "
          "(void)probe_u; (void)probe_ws; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::ThreadDependent);
  EXPECT_EQ(P.value("probe_u"), warplint::Dependence::Uniform);
  EXPECT_EQ(P.value("probe_ws"), warplint::Dependence::Uniform);
}

TEST(ThreadDependence, ThroughLocalsAndHelpers) {
  Probe P(std::string(Prelude) +
          "__global__ void k(int n) { int i = idx(); int probe = i + n; int "
          "probe_q = twice(n); (void)probe; (void)probe_q; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::ThreadDependent);
  EXPECT_EQ(P.value("probe_q"), warplint::Dependence::Uniform);
}

TEST(ThreadDependence, AssignmentUnderDivergentBranchIsDependent) {
  Probe P(std::string(Prelude) +
          "__global__ void k(int n) { int x = 0; if (threadIdx.x < 5) x = 1; "
          "int probe = x; (void)probe; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::ThreadDependent);
}

TEST(ThreadDependence, ElementsAndFieldsOfLocals) {
  // Writing an element or a field makes the local as thread-dependent as
  // the value and the subscript; a local pointer's elements are memory.
  Probe P(std::string(Prelude) +
          "struct S { int a, b; };"
          "__global__ void k(int n, int *q) { int idx[2]; idx[0] = "
          "threadIdx.x; int probe = idx[1]; int sel[4] = {0, 0, 0, 0}; "
          "sel[threadIdx.x % 4] = n; int probe_i = sel[0]; S s = {n, n}; "
          "s.b = threadIdx.x; int probe_f = s.a; int u[2] = {n, n}; u[1] = "
          "n + 1; int probe_u = u[0]; int *ptr = q; ptr[threadIdx.x] = n; "
          "int *probe_p = ptr; (void)probe; (void)probe_i; (void)probe_f; "
          "(void)probe_u; (void)probe_p; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::ThreadDependent);
  EXPECT_EQ(P.value("probe_i"), warplint::Dependence::ThreadDependent);
  EXPECT_EQ(P.value("probe_f"), warplint::Dependence::ThreadDependent);
  EXPECT_EQ(P.value("probe_u"), warplint::Dependence::Uniform);
  EXPECT_EQ(P.value("probe_p"), warplint::Dependence::Uniform);
}

TEST(ThreadDependence, UniformLoopCounter) {
  Probe P(std::string(Prelude) +
          "__global__ void k(float *a) { for (int s = blockDim.x / 2; s > 0; s "
          ">>= 1) { int probe = s; (void)probe; marker(); } }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::Uniform);
  EXPECT_EQ(P.guardOfMarker(), warplint::Dependence::Uniform);
}

// A counter declared once and reused: the for's init kills the definitions
// before it and after the loop; the value after the loop joins them all.
TEST(ThreadDependence, ReusedCounterIsUniformInsideItsLoop) {
  Probe P(std::string(Prelude) +
          "__global__ void k(int n) { int i; for (i = 1; i < 64; i *= 2) { "
          "int probe = i; (void)probe; marker(); } if (threadIdx.x == 0) "
          "for (i = 0; i < n; ++i) {} int probe_after = i; "
          "(void)probe_after; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::Uniform);
  EXPECT_EQ(P.guardOfMarker(), warplint::Dependence::Uniform);
  EXPECT_EQ(P.value("probe_after"), warplint::Dependence::ThreadDependent);
}

TEST(ThreadDependence, CounterStepsByThreadInsideItsLoop) {
  Probe P(std::string(Prelude) +
          "__global__ void k(int n) { int i = 0; for (i = 0; i < n; "
          "i += threadIdx.x + 1) { int probe = i; (void)probe; } }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::ThreadDependent);
}

// A goto may enter the loop past its init: no refinement.
TEST(ThreadDependence, GotoIntoLoopKeepsTheJoin) {
  Probe P(std::string(Prelude) +
          "__global__ void k(int n) { int i = threadIdx.x; if (n) goto in; "
          "for (i = 0; i < 4; ++i) { in: int probe = i; (void)probe; } }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::ThreadDependent);
}

TEST(ThreadDependence, GuardOfThreadDependentBranch) {
  Probe P(
      std::string(Prelude) +
      "__global__ void k(float *a) { if (threadIdx.x % 2 == 0) marker(); }");
  EXPECT_EQ(P.guardOfMarker(), warplint::Dependence::ThreadDependent);
}

TEST(ThreadDependence, GridStrideLoopIsThreadDependent) {
  Probe P(std::string(Prelude) +
          "__global__ void k(float *a, int n) { for (int i = idx(); i < n; i "
          "+= blockDim.x * gridDim.x) marker(); }");
  EXPECT_EQ(P.guardOfMarker(), warplint::Dependence::ThreadDependent);
}

// A use of the index after its cancelled loop asks whether the loop's steps
// run together, which asks for the loop's condition, which asks for the
// index again: the answer must not depend on which is asked first (an
// answer computed around the cut was once cached, and the first order seen
// decided the barrier's verdict from run to run).
TEST(ThreadDependence, AnswersDoNotDependOnQueryOrder) {
  std::string Code =
      std::string(Prelude) +
      "__global__ void k(int *a, int n) { int i = idx(); int stride = "
      "gridDim.x * blockDim.x; while (i - threadIdx.x < n) { marker(); i += "
      "stride; } int probe = i - threadIdx.x; a[0] = probe; }";
  Probe LoopFirst(Code);
  EXPECT_EQ(LoopFirst.guardOfMarker(), warplint::Dependence::Uniform);
  warplint::Dependence After = LoopFirst.value("probe");
  Probe AfterFirst(Code);
  EXPECT_EQ(AfterFirst.value("probe"), After);
  EXPECT_EQ(AfterFirst.guardOfMarker(), warplint::Dependence::Uniform);
}

TEST(ThreadDependence, UnknownParametersOfDeviceFunctions) {
  Probe P(std::string(Prelude) +
          "__device__ void f(int lane) { if (lane < 16) marker(); }");
  EXPECT_EQ(P.guardOfMarker(), warplint::Dependence::Unknown);
}

TEST(ThreadDependence, EarlyReturnInDeviceFunction) {
  Probe P(
      std::string(Prelude) +
      "__device__ void f(int n) { if (threadIdx.x >= 4) return; marker(); }");
  EXPECT_EQ(P.guardOfMarker(), warplint::Dependence::ThreadDependent);
}

TEST(ThreadDependence, EarlyReturnInKernelExitsTheThread) {
  Probe P(
      std::string(Prelude) +
      "__global__ void k(int n) { if (threadIdx.x >= n) return; marker(); }");
  EXPECT_EQ(P.guardOfMarker(), warplint::Dependence::Uniform);
}

TEST(ThreadDependence, VotesAreWarpUniform) {
  Probe P(std::string(Prelude) +
          "__global__ void k(int n) { int probe = __any_sync(0xffffffff, "
          "threadIdx.x > 3); (void)probe; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::WarpUniform);
}

TEST(ThreadDependence, WarpIdIsWarpUniform) {
  Probe P(
      std::string(Prelude) +
      "__global__ void k(int n) { int warp = threadIdx.x / 32; int probe = "
      "warp * 4 + (threadIdx.x >> 5);"
      " int probe_lane = threadIdx.x % 32; (void)probe; (void)probe_lane; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::WarpUniform);
  EXPECT_EQ(P.value("probe_lane"), warplint::Dependence::ThreadDependent);
}

TEST(ThreadDependence, LoadThroughThreadIndexIsDependent) {
  Probe P(std::string(Prelude) +
          "__global__ void k(const float *a) { float probe = a[threadIdx.x]; "
          "float probe_u = a[blockIdx.x]; (void)probe; (void)probe_u; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::ThreadDependent);
  EXPECT_EQ(P.value("probe_u"), warplint::Dependence::Uniform);
}

// A loop left through a thread-dependent break: statements in it and after
// it are reached by some lanes only; the query terminates.
TEST(ThreadDependence, LoopWithDivergentBreak) {
  Probe P(std::string(Prelude) + "__device__ void f(const int *a, int n) {"
                                 "  for (int i = 0; i < n; ++i) { if (a[i] == "
                                 "threadIdx.x) break; marker(); }"
                                 "}");
  EXPECT_EQ(P.guardOfMarker(), warplint::Dependence::ThreadDependent);
}

TEST(ThreadDependence, NestedLoopsWithExits) {
  Probe P(
      std::string(Prelude) +
      "__global__ void k(const int *a, int n) {"
      "  for (int i = 0; i < n; ++i) {"
      "    while (a[i] > 0) { if (i == 3) break; if (a[i] == 2) return; }"
      "    for (int j = 0; j < n; ++j) { if (j == n - 1) continue; marker(); }"
      "  }"
      "}");
  EXPECT_EQ(P.guardOfMarker(), warplint::Dependence::Uniform);
}

// A variable declared inside a thread-dependent branch and defined only there
// is uniform among the lanes that have it; one declared outside and assigned
// inside is not (the ThreadDependence.AssignmentUnderDivergentBranch case).
TEST(ThreadDependence, LocalOfADivergentScopeKeepsItsValue) {
  Probe P(std::string(Prelude) +
          "__global__ void k(int n) { if (threadIdx.x < n) { for (int j = 0; j "
          "< n; ++j) { int probe = j; (void)probe; } } }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::Uniform);
}

TEST(ThreadDependence, StraightLineDefinitionReachesTheUse) {
  // The last assignment before the use, in straight-line code, is the value
  // read; through a branch or a loop the join of all definitions answers.
  Probe P(std::string(Prelude) +
          "__global__ void k(int n) { int x = threadIdx.x; x = n; int probe = "
          "x; int y = n; y = threadIdx.x; int probe_t = y; int z = n; if (n > "
          "2) z = threadIdx.x; int probe_b = z; int w = n; for (int i = 0; i "
          "< n; ++i) { int probe_l = w; w = threadIdx.x; (void)probe_l; } "
          "(void)probe; (void)probe_t; (void)probe_b; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::Uniform);
  EXPECT_EQ(P.value("probe_t"), warplint::Dependence::ThreadDependent);
  EXPECT_EQ(P.value("probe_b"), warplint::Dependence::ThreadDependent);
  EXPECT_EQ(P.value("probe_l"), warplint::Dependence::ThreadDependent);
}

TEST(ThreadDependence, WarpReductionsAndBlockVotes) {
  // A butterfly of __shfl_xor_sync over the full warp leaves the warp's
  // reduction in every lane; a vote over a shared array read at the lane
  // index is the same in every warp.
  Probe P(std::string(Prelude) +
          "__device__ float sum(float v) { for (int o = 16; o > 0; o >>= 1) v "
          "+= __shfl_xor_sync(0xffffffff, v, o); return v; }\n"
          "__device__ float half(float v) { for (int o = 8; o > 0; o >>= 1) v "
          "+= __shfl_xor_sync(0xffffffff, v, o); return v; }\n"
          "__global__ void k(const float *a, int n) { __shared__ int buf[32]; "
          "float probe = sum(a[threadIdx.x]); float probe_h = "
          "half(a[threadIdx.x]); int lane = threadIdx.x % 32; int probe_v = "
          "__all_sync(0xffffffff, buf[lane]); int probe_w = "
          "__all_sync(0xffffffff, buf[threadIdx.x / 32]); float probe_s = "
          "sum(buf[threadIdx.x & 31]); (void)probe; (void)probe_h; "
          "(void)probe_v; (void)probe_w; (void)probe_s; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::WarpUniform);
  EXPECT_EQ(P.value("probe_h"), warplint::Dependence::ThreadDependent);
  EXPECT_EQ(P.value("probe_v"), warplint::Dependence::Uniform);
  EXPECT_EQ(P.value("probe_w"), warplint::Dependence::WarpUniform);
  EXPECT_EQ(P.value("probe_s"), warplint::Dependence::Uniform);
}

namespace {
// The tail cut of the condition of the first while loop in kernel k, as
// "x", "y", "z" (several: "xz"), or "none" when it is not a tail guard.
std::string tailOf(llvm::StringRef Code) {
  std::unique_ptr<ASTUnit> AST = parseCuda(Code);
  auto M = match(
      whileStmt(hasAncestor(functionDecl(hasName("k")).bind("f"))).bind("w"),
      AST->getASTContext());
  if (M.empty())
    return "no loop";
  ThreadDependenceAnalysis TDA;
  auto Cut = TDA.forFunction(M[0].getNodeAs<FunctionDecl>("f"))
                 .tailGuard(M[0].getNodeAs<WhileStmt>("w")->getCond(),
                            /*SurviveIfTrue=*/true);
  if (!Cut)
    return "none";
  return std::string(Cut->X ? "x" : "") + (Cut->Y ? "y" : "") +
         (Cut->Z ? "z" : "");
}
} // namespace

TEST(ThreadDependence, TailGuards) {
  // A grid-stride index, over x.
  EXPECT_EQ(tailOf("__global__ void k(long n) { long i = blockIdx.x * "
                   "blockDim.x + threadIdx.x; while (i < n) i += gridDim.x "
                   "* blockDim.x; }"),
            "x");
  // Divided by a group size the remainder of which the rest may carry:
  // still growing with the thread index.
  EXPECT_EQ(tailOf("template <int BS, int TS> __global__ void k(long n) { "
                   "long i = (BS * blockIdx.x + threadIdx.x) / TS; while (i "
                   "< n) i += gridDim.x * BS / TS; }"),
            "x");
  // Whole z-slices of the block (llm.c's rows per slice).
  EXPECT_EQ(tailOf("__global__ void k(int n) { int r = blockIdx.x * "
                   "blockDim.z + threadIdx.z; while (r < n) r += gridDim.x "
                   "* blockDim.z; }"),
            "z");
  // Data, or an index that falls with the thread: not a tail.
  EXPECT_EQ(tailOf("__global__ void k(const float *a) { float v = "
                   "a[threadIdx.x]; while (v > 0.5f) v *= 0.5f; }"),
            "none");
  EXPECT_EQ(tailOf("__global__ void k(int n) { int i = n - threadIdx.x; "
                   "while (i < n) ++i; }"),
            "none");
}

TEST(ThreadDependence, InexactDivisionDoesNotCancel) {
  // (BS * b + t) / TS - t / TS is uniform only when TS divides BS: with
  // template parameters nothing says so.
  Probe P(std::string(Prelude) +
          "template <int BS, int TS> __global__ void k() { int probe = "
          "(BS * blockIdx.x + threadIdx.x) / TS - threadIdx.x / TS; "
          "(void)probe; }");
  EXPECT_EQ(P.value("probe"), warplint::Dependence::ThreadDependent);
  // With the rest a multiple of blockDim (and so of the group size), it is.
  Probe Q(std::string(Prelude) +
          "template <int TS> __global__ void k() { int probe = "
          "(blockDim.x * blockIdx.x + threadIdx.x) / TS - threadIdx.x / TS; "
          "(void)probe; }");
  EXPECT_EQ(Q.value("probe"), warplint::Dependence::Uniform);
}
