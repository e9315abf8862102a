// The affine thread-index analysis, queried directly: forms of indices and
// the per-lane pattern of memory accesses.
#include "Analysis/AffineIndex.h"
#include "Analysis/LaneEval.h"
#include "Analysis/Launches.h"
#include "Analysis/LocalWrites.h"
#include "CudaAst.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <gtest/gtest.h>
#include <map>

using namespace clang;
using namespace clang::ast_matchers;
using warplint::AffineAnalysis;
using warplint::AffineForm;
using warplint::MemoryAccess;
using warplint::MemorySpace;
using warplint::ThreadDependenceAnalysis;

namespace {

struct Fixture {
  std::unique_ptr<ASTUnit> AST;
  ThreadDependenceAnalysis TDA;
  std::unique_ptr<AffineAnalysis> AA;

  explicit Fixture(llvm::StringRef Code) : AST(parseCuda(Code)) {
    AA = std::make_unique<AffineAnalysis>(AST->getASTContext(), TDA, 32);
    for (auto &M : match(warplint::launchMatcher(), AST->getASTContext()))
      AA->recordLaunch(M.getNodeAs<CallExpr>("launch"));
  }

  const FunctionDecl *fn(llvm::StringRef Name) {
    auto M = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                   AST->getASTContext());
    return M.empty() ? nullptr : M[0].getNodeAs<FunctionDecl>("f");
  }

  // The form of `probe`'s initialiser in kernel K.
  std::string form(llvm::StringRef K) {
    const FunctionDecl *F = fn(K);
    auto M = match(varDecl(hasName("probe")).bind("v"), AST->getASTContext());
    for (auto &R : M) {
      const auto *V = R.getNodeAs<VarDecl>("v");
      if (V->getDeclContext() == F)
        return AA->form(V->getInit(), F).str();
    }
    return "no probe";
  }

  // The first access in K that is a load (or, with Stores, a store):
  // per-lane byte offsets.
  std::vector<int64_t> lanes(llvm::StringRef K, MemorySpace *Space = nullptr,
                             unsigned *Size = nullptr, bool Stores = false) {
    const FunctionDecl *F = fn(K);
    for (const MemoryAccess &A : AA->accesses(F)) {
      if (A.IsStore != Stores)
        continue;
      if (Space)
        *Space = A.Addr.Space;
      if (Size)
        *Size = A.Size;
      return AA->pattern(A.Addr.Offset, AA->blockShape(F)).Offsets;
    }
    return {};
  }
};

std::vector<int64_t> stride(int64_t S, int N = 32) {
  std::vector<int64_t> V;
  for (int I = 0; I < N; ++I)
    V.push_back(S * I);
  return V;
}

} // namespace

TEST(AffineIndex, GlobalIndex) {
  Fixture F("__global__ void k(int n) { int probe = blockIdx.x * blockDim.x + "
            "threadIdx.x; }");
  EXPECT_EQ(F.form("k"), "1*tid.x + uniform");
}

TEST(AffineIndex, LaneAndWarpIds) {
  Fixture F("__global__ void k() { int lane = threadIdx.x % 32; int warp = "
            "threadIdx.x / warpSize;"
            " int probe = lane * 4 + warp * 1000; }");
  EXPECT_EQ(F.form("k"), "4*lane + uniform");
}

TEST(AffineIndex, SymbolicCoefficient) {
  Fixture F("__global__ void k(int n, int c) { int row = blockIdx.x * "
            "blockDim.x + threadIdx.x;"
            " int probe = row * n + c; }");
  EXPECT_EQ(F.form("k"), "(n)*tid.x + uniform");
}

TEST(AffineIndex, HelperInlinedAndGridStride) {
  Fixture F(
      "__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }\n"
      "__global__ void k(int n) { for (int i = gid(); i < n; i += blockDim.x * "
      "gridDim.x) { int probe = 2 * i; } }");
  EXPECT_EQ(F.form("k"), "2*tid.x + uniform");
}

TEST(AffineIndex, NonlinearIsUnknown) {
  Fixture F("__global__ void k(const int *idx) { int t = threadIdx.x; int "
            "probe = t * t + idx[t]; }");
  EXPECT_EQ(F.form("k"), "unknown");
}

TEST(AffineIndex, DivergentDefinitionIsUnknown) {
  Fixture F("__global__ void k() { int x = threadIdx.x; if (threadIdx.x & 1) x "
            "= 2 * threadIdx.x; int probe = x; }");
  EXPECT_EQ(F.form("k"), "unknown");
}

TEST(AffineIndex, AosFieldOffsets) {
  Fixture F("struct P { float x, y, z; };\n"
            "__global__ void k(P *p) { float v = p[blockIdx.x * blockDim.x + "
            "threadIdx.x].y; p[0].x = v; }");
  MemorySpace Space;
  unsigned Size;
  auto L = F.lanes("k", &Space, &Size);
  EXPECT_EQ(Space, MemorySpace::Global);
  EXPECT_EQ(Size, 4u);
  ASSERT_EQ(L.size(), 32u);
  EXPECT_EQ(L[1] - L[0], 12);
  EXPECT_EQ(L[31] - L[0], 12 * 31);
}

TEST(AffineIndex, SharedTwoDimensional) {
  Fixture F("__global__ void k(float *o) { __shared__ float t[32][33]; o[0] = "
            "t[threadIdx.x][3]; }");
  MemorySpace Space;
  auto L = F.lanes("k", &Space);
  EXPECT_EQ(Space, MemorySpace::Shared);
  ASSERT_EQ(L.size(), 32u);
  EXPECT_EQ(L[1] - L[0], 33 * 4);
}

TEST(AffineIndex, PinnedLaunchShape) {
  // 16x16 blocks: lanes 0-15 are row 0, lanes 16-31 row 1 of the tile.
  Fixture F("__global__ void k(float *o) { __shared__ float t[16][16]; o[0] = "
            "t[threadIdx.y][threadIdx.x]; }\n"
            "void host(float *o) { dim3 b(16, 16); k<<<1, b>>>(o); }");
  auto L = F.lanes("k");
  ASSERT_EQ(L.size(), 32u);
  EXPECT_EQ(L[15], 15 * 4);
  EXPECT_EQ(L[16], 16 * 4);
  EXPECT_EQ(L[17], 17 * 4);
}

TEST(AffineIndex, ConflictingLaunchesKeepTheDefault) {
  Fixture F(
      "__global__ void k(float *o) { o[threadIdx.y * 64 + threadIdx.x] = 0; }\n"
      "void host(float *o, int b) { k<<<1, dim3(16, 16)>>>(o); k<<<1, b>>>(o); "
      "}");
  EXPECT_EQ(F.lanes("k", nullptr, nullptr, /*Stores=*/true), stride(4));
}

TEST(AffineIndex, PointerParameterOfDeviceFunctionIsNotGlobal) {
  Fixture F("__device__ void f(float *p) { p[threadIdx.x] = 0; }");
  EXPECT_TRUE(F.lanes("f", nullptr, nullptr, /*Stores=*/true).empty());
}

TEST(AffineIndex, LoopInsideATailGuard) {
  // The naive matmul's row pointer: lanes are C floats apart at every i.
  Fixture F("__global__ void k(const float *inp, float *out, int BT, int C) {"
            "  int bt = blockIdx.x * blockDim.x + threadIdx.x;"
            "  if (bt < BT) { const float *row = inp + bt * C; float v = 0;"
            "    for (int i = 0; i < C; i++) v += row[i]; out[bt] = v; } }");
  const FunctionDecl *K = F.fn("k");
  auto Accesses = F.AA->accesses(K);
  ASSERT_FALSE(Accesses.empty());
  EXPECT_EQ(Accesses.front().Addr.Offset.str(), "(C * 4)*tid.x + uniform");
}

TEST(AffineIndex, RunTimeFactorKeepsItsKnownPart) {
  Fixture F("__global__ void k(float *o) { for (unsigned s = 1; s < "
            "blockDim.x; s *= 2) {"
            " unsigned probe = 2 * s * threadIdx.x; o[probe] = 0; } }");
  const FunctionDecl *K = F.fn("k");
  auto Accesses = F.AA->accesses(K);
  ASSERT_EQ(Accesses.size(), 1u);
  auto P = F.AA->pattern(Accesses[0].Addr.Offset, F.AA->blockShape(K));
  EXPECT_TRUE(P.SymbolicStride);
  EXPECT_EQ(P.SymbolFactor, 8); // 2 floats
}

namespace {
// The block shape recorded for kernel k, as "XxYxZ", or "default".
std::string shapeOf(Fixture &F, llvm::StringRef Kernel = "k") {
  warplint::BlockShape S = F.AA->blockShape(F.fn(Kernel));
  if (!S.pinned())
    return "default";
  return std::to_string(S.X) + "x" + std::to_string(S.Y) + "x" +
         std::to_string(S.Z);
}
const char *const Kernel =
    "__global__ void k(float *o) { o[threadIdx.x] = 0; }\n";
// Each host code launching k gives k the shape Want.
void expectShape(std::initializer_list<const char *> Hosts,
                 const std::string &Want) {
  for (const char *Host : Hosts) {
    Fixture F(std::string(Kernel) + Host);
    EXPECT_EQ(shapeOf(F), Want) << Host;
  }
}
} // namespace

TEST(AffineIndex, ShapeFoldedThroughConstants) {
  expectShape(
      {
          "#define B 16\nvoid h(float *o) { k<<<1, dim3(B, B)>>>(o); }",
          "const int B = 16; void h(float *o) { k<<<1, dim3(B, B)>>>(o); }",
          "void h(float *o) { constexpr int B = 16; dim3 b(B, B); "
          "k<<<1, b>>>(o); }",
          "void h(float *o) { dim3 b = dim3(16, 16); k<<<1, b>>>(o); }",
          "void h(float *o) { dim3 b{16, 16}; k<<<1, b>>>(o); }",
          "void h(float *o) { int s = 16; int t = s; k<<<1, dim3(t, s)>>>(o); "
          "}",
          "static const dim3 b(16, 16); void h(float *o) { k<<<1, b>>>(o); }",
          "template <int B> void h(float *o) { k<<<1, dim3(B, B)>>>(o); }\n"
          "void g(float *o) { h<16>(o); }",
      },
      "16x16x1");
}

TEST(AffineIndex, ShapeOfEveryLaunchSpelling) {
  Fixture Classic(
      std::string(Kernel) +
      "void h(float *o) { void *a[] = {&o}; "
      "cudaLaunchKernel((const void *)k, 1, dim3(8, 4), a, 0, 0); }");
  EXPECT_EQ(shapeOf(Classic), "8x4x1");
  Fixture Ex(std::string(Kernel) +
             "void h(float *o) { cudaLaunchConfig_t c = {}; c.gridDim = 1;"
             " c.blockDim = dim3(8, 4); cudaLaunchKernelEx(&c, k, o); }");
  EXPECT_EQ(shapeOf(Ex), "8x4x1");
}

TEST(AffineIndex, ShapeNotFoldedWhenItMayChange) {
  expectShape(
      {
          "void h(float *o) { dim3 b(16, 16); b.x = 32; k<<<1, b>>>(o); }",
          "void g(dim3 &); void h(float *o) { dim3 b(16, 16); g(b); "
          "k<<<1, b>>>(o); }",
          "void h(float *o) { dim3 b(16, 16); dim3 *p = &b; p->y = 2; "
          "k<<<1, b>>>(o); }",
          "void h(float *o) { dim3 b(16, 16); auto f = [&] { b.x = 8; }; f(); "
          "k<<<1, b>>>(o); }",
          "void h(float *o, int n) { int t = 16; if (n) t = 32; "
          "k<<<1, dim3(t, t)>>>(o); }",
          "void h(float *o) { k<<<1, dim3(16, 16)>>>(o); k<<<1, 256>>>(o); }",
          "template <int B> void h(float *o) { k<<<1, dim3(B, B)>>>(o); }\n"
          "void g(float *o) { h<16>(o); h<32>(o); }",
      },
      "default");
}

TEST(LocalWrites, ReadsThroughFieldsAndCopies) {
  auto AST =
      parseCuda("struct P { int x, y; };\n"
                "void take(P); void ref(P &); void cref(const P &);\n"
                "void f() { P a{1, 2}; take(a); int u = a.x; cref(a);\n"
                "  P b{1, 2}; b.y = 3;\n"
                "  P c{1, 2}; ref(c);\n"
                "  P d{1, 2}; P e = static_cast<P &&>(d); (void)u; (void)e; }");
  const auto *F = match(functionDecl(hasName("f"), isDefinition()).bind("f"),
                        AST->getASTContext())[0]
                      .getNodeAs<FunctionDecl>("f");
  warplint::LocalWrites W(F->getBody());
  std::map<std::string, bool> Keeps;
  for (const VarDecl *V : W.locals())
    Keeps[V->getName().str()] = W.keepsInitialValue(V);
  EXPECT_TRUE(Keeps["a"]);  // copied, a field read, bound to const &
  EXPECT_FALSE(Keeps["b"]); // a field written
  EXPECT_FALSE(Keeps["c"]); // bound to a non-const reference
  EXPECT_FALSE(Keeps["d"]); // moved from
}

// ------------------------------------------------ loop-carried indices

namespace {
// The values of the multiplied locals the first access of K sees.
std::vector<std::pair<std::string, std::vector<int64_t>>>
loopValuesAt(Fixture &F, bool Stores = false) {
  const FunctionDecl *K = F.fn("k");
  std::vector<std::pair<std::string, std::vector<int64_t>>> Out;
  for (const MemoryAccess &A : F.AA->accesses(K)) {
    if (A.IsStore != Stores)
      continue;
    for (const warplint::LoopValues &LV : F.AA->loopValues(A.E, K))
      Out.push_back({LV.Var->getName().str(), LV.Values});
    break;
  }
  return Out;
}
} // namespace

TEST(LoopValues, DoublingWithConstantBound) {
  Fixture F("__global__ void k(float *o) { __shared__ float s[1024];"
            " for (int offset = 1; offset <= 16; offset *= 2)"
            "   o[0] = s[offset * threadIdx.x]; }");
  auto V = loopValuesAt(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].first, "offset");
  EXPECT_EQ(V[0].second, (std::vector<int64_t>{1, 2, 4, 8, 16}));
}

TEST(LoopValues, ShiftWithoutBoundRunsToTheCap) {
  Fixture F("__global__ void k(float *o, int n) { __shared__ float s[1024];"
            " for (int t = 2; t < n; t <<= 2) o[0] = s[t * threadIdx.x]; }");
  auto V = loopValuesAt(F);
  ASSERT_EQ(V.size(), 1u);
  ASSERT_EQ(V[0].second.size(), 8u); // 2, 8, ..., 2^15 (the cap is 2^16)
  EXPECT_EQ(V[0].second.front(), 2);
  EXPECT_EQ(V[0].second.back(), int64_t(1) << 15);
}

TEST(LoopValues, StepBeforeTheAccessShiftsTheValues) {
  // GPU Gems' spelling: a separate local, here doubled before its use.
  Fixture F("__global__ void k(float *o, int n) { __shared__ float s[1024];"
            " int offset = 1; for (int d = n; d > 0; d >>= 1) {"
            "   offset *= 2; o[0] = s[offset * threadIdx.x]; } }");
  auto V = loopValuesAt(F);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].second.front(), 2);
  EXPECT_EQ(V[0].second[1], 4);
}

TEST(LoopValues, NotAnInductionVariable) {
  // Added to (a uniform step), multiplied by a run-time value, multiplied in
  // some lanes only, or started at a run-time value: no values.
  for (const char *Body : {
           "for (int s = 1; s < n; s += 2) o[0] = sh[s * threadIdx.x];",
           "for (int s = 1; s < n; s *= n) o[0] = sh[s * threadIdx.x];",
           "int s = 1; for (int i = 0; i < n; ++i) { o[0] = sh[s * "
           "threadIdx.x]; if (threadIdx.x & 1) s *= 2; }",
           "for (int s = n; s < 1024; s *= 2) o[0] = sh[s * threadIdx.x];",
       }) {
    Fixture F(std::string("__global__ void k(float *o, int n) { __shared__ "
                          "float sh[1024]; ") +
              Body + " }");
    EXPECT_TRUE(loopValuesAt(F).empty()) << Body;
  }
}

TEST(LoopValues, PatternPerValue) {
  // The Blelloch up-sweep's temp[ai]: lanes 2 * offset floats apart.
  Fixture F("__global__ void k(float *o) { __shared__ float temp[2048];"
            " int tid = threadIdx.x;"
            " for (int offset = 1; offset < 8; offset *= 2) {"
            "   int ai = offset * (2 * tid + 1) - 1; o[0] = temp[ai]; } }");
  const FunctionDecl *K = F.fn("k");
  auto Accesses = F.AA->accesses(K);
  ASSERT_EQ(Accesses.size(), 2u);
  const MemoryAccess &Load = Accesses[0].IsStore ? Accesses[1] : Accesses[0];
  auto LP = F.AA->loopPatterns(Load, K);
  ASSERT_TRUE(LP.has_value());
  ASSERT_EQ(LP->second.size(), 3u);
  EXPECT_EQ(LP->second[0].LaneStride, 8);
  EXPECT_EQ(LP->second[1].LaneStride, 16);
  EXPECT_EQ(LP->second[2].LaneStride, 32);
  // Outside the binding the variable is an opaque uniform again.
  EXPECT_TRUE(
      F.AA->pattern(Load.Addr.Offset, F.AA->blockShape(K)).SymbolicStride);
}

TEST(LoopValues, SpacingIndependentOfTheValueIsNotALoopPattern) {
  Fixture F("__global__ void k(float *o, int n) { __shared__ float s[2048];"
            " for (int d = 1; d < n; d *= 2) o[0] = s[threadIdx.x + d]; }");
  const FunctionDecl *K = F.fn("k");
  for (const MemoryAccess &A : F.AA->accesses(K))
    EXPECT_FALSE(F.AA->loopPatterns(A, K).has_value());
}

// ------------------------------------------------ per-lane walks

TEST(LaneWalk, LoadedStartSteppedUniformly) {
  Fixture F("__global__ void k(const int *row_ptr, const float *val, float "
            "*y) { int row = blockIdx.x * blockDim.x + threadIdx.x;"
            " float sum = 0; for (int j = row_ptr[row]; j < row_ptr[row + 1];"
            " j++) { int probe = j + 1; sum += val[j]; } y[row] = sum; }");
  const FunctionDecl *K = F.fn("k");
  auto Walks = F.AA->laneWalks(K, MemorySpace::Global);
  ASSERT_EQ(Walks.size(), 1u);
  EXPECT_EQ(Walks[0].Walk->getName(), "j");
  ASSERT_NE(F.AA->walkStart(Walks[0].Walk), nullptr);
  // Still unknown to every other consumer of forms and accesses.
  EXPECT_EQ(F.form("k"), "unknown");
  for (const MemoryAccess &A : F.AA->accesses(K))
    EXPECT_EQ(A.Walk, nullptr);
}

TEST(LaneWalk, NotWalks) {
  for (const char *Body : {
           // a warp-uniform start
           "for (int j = p[blockIdx.x]; j < n; j++) s += v[j];",
           // a start not loaded
           "for (int j = threadIdx.x * threadIdx.x; j < n; j++) s += v[j];",
           // a step through loaded links
           "for (int j = p[threadIdx.x]; j >= 0; j = p[j]) s += v[j];",
           // the walk undone: j - start counts iterations
           "for (int j = p[threadIdx.x]; j < n; j++) s += v[j - "
           "p[threadIdx.x]];",
           // never stepped: a gather
           "int j = p[threadIdx.x]; s += v[j];",
       }) {
    Fixture F(std::string("__global__ void k(const int *p, const float *v, "
                          "float *o, int n) { float s = 0; ") +
              Body + " o[0] = s; }");
    EXPECT_TRUE(F.AA->laneWalks(F.fn("k"), MemorySpace::Global).empty())
        << Body;
  }
}

// ---- accesses reached through calls (reachedAccesses) and their lanes

namespace {
// The per-lane byte offsets of the reached accesses of kernel K, and their
// chains' callees.
std::vector<std::pair<std::vector<int64_t>, std::string>>
reached(Fixture &F, llvm::StringRef K) {
  std::vector<std::pair<std::vector<int64_t>, std::string>> Out;
  const FunctionDecl *Kernel = F.fn(K);
  for (const warplint::ReachedAccess &R : F.AA->reachedAccesses(Kernel)) {
    std::string Chain;
    for (const warplint::CallLink &L : R.Chain)
      Chain += (Chain.empty() ? "" : ">") + L.Callee->getNameAsString();
    Out.push_back(
        {F.AA->pattern(R.Access.Addr.Offset, F.AA->blockShape(Kernel)).Offsets,
         Chain});
  }
  return Out;
}
} // namespace

TEST(ReachedAccesses, ArgumentsBindParametersThroughTwoLevels) {
  Fixture F("__device__ void put(float *m, int col) { for (int r = 0; r < 4; "
            "++r) m[col * 64 + r] = 0; }\n"
            "__device__ void mid(float *m, int i) { put(m, i); }\n"
            "__global__ void k(float *m) { mid(m, threadIdx.x); }");
  auto R = reached(F, "k");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].first, stride(256));
  EXPECT_EQ(R[0].second, "mid>put");
}

TEST(ReachedAccesses, LambdaCapturesAreTheKernelsLocals) {
  Fixture F("__global__ void k(float *a) { int tid = threadIdx.x; int s = 4;\n"
            "  auto byRef = [&](float v) { a[tid * s] = v; };\n"
            "  auto byVal = [=](int j) { a[j * 2] = 0; };\n"
            "  byRef(1.0f); byVal(tid); }");
  auto R = reached(F, "k");
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[0].first, stride(16));
  EXPECT_EQ(R[1].first, stride(8));
  // On its own, a lambda's capture is not known.
  auto M = match(lambdaExpr().bind("l"), F.AST->getASTContext());
  ASSERT_FALSE(M.empty());
  const auto *L = M[0].getNodeAs<LambdaExpr>("l");
  EXPECT_TRUE(F.AA->accesses(L->getCallOperator()).empty());
}

TEST(ReachedAccesses, TemplateInstantiationAndRecursionBound) {
  Fixture F("template <int LD> __device__ float get(const float *m, int c) "
            "{ return m[c * LD]; }\n"
            "__device__ float rec(const float *m, int i, int d) { return d ? "
            "rec(m, i, d - 1) : m[i * 3]; }\n"
            "__global__ void k(const float *m, float *o) { o[0] = get<8>(m, "
            "threadIdx.x) + rec(m, threadIdx.x, 2); }");
  auto R = reached(F, "k");
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[0].first, stride(32));
  EXPECT_EQ(R[1].first, stride(12)); // rec once: the repeat ends the chain
  EXPECT_EQ(R[1].second, "rec");
}

TEST(ReachedAccesses, SummariesPerArgumentPattern) {
  Fixture F("__device__ void put(float *m, int i) { m[i] = 0; }\n"
            "__global__ void k(float *m) { put(m, threadIdx.x); put(m, "
            "threadIdx.x); put(m, 2 * threadIdx.x); }");
  auto R = reached(F, "k");
  ASSERT_EQ(R.size(), 3u);
  EXPECT_EQ(R[0].first, stride(4));
  EXPECT_EQ(R[1].first, stride(4));
  EXPECT_EQ(R[2].first, stride(8));
  // The first two calls share one summary: the same access expression.
  const auto &All = F.AA->reachedAccesses(F.fn("k"));
  EXPECT_EQ(All[0].Access.E, All[1].Access.E);
}

TEST(RestrictLanes, KeepsTheMaskedLanesAndRecomputesTheStride) {
  warplint::WarpPattern P;
  P.Known = true;
  P.Offsets = stride(24);
  P.Group.assign(32, 0);
  warplint::WarpPattern Half = warplint::restrictLanes(P, 0xFFFF);
  EXPECT_EQ(Half.Offsets, stride(24, 16));
  EXPECT_TRUE(Half.Regular);
  EXPECT_EQ(Half.LaneStride, 24);
  warplint::WarpPattern Split = warplint::restrictLanes(P, 0x00FF00FF);
  EXPECT_EQ(Split.Offsets.size(), 16u);
  EXPECT_FALSE(Split.Regular);
}

namespace {
// The lanes of warp 0 that may reach each access of kernel K (its own, then
// the reached ones).
std::vector<uint64_t> lanesReaching(Fixture &F, llvm::StringRef K) {
  const FunctionDecl *Kernel = F.fn(K);
  warplint::LaneEvaluator LE(Kernel, F.AA->blockShape(Kernel), 32);
  std::vector<uint64_t> Out;
  for (const MemoryAccess &A : F.AA->accesses(Kernel))
    Out.push_back(LE.mayReach(A.E, {}, F.TDA, 0));
  for (const warplint::ReachedAccess &R : F.AA->reachedAccesses(Kernel))
    Out.push_back(LE.mayReach(R.Access.E, R.Chain, F.TDA, 0));
  return Out;
}
} // namespace

TEST(MayReach, GuardsReturnsAndCallersGuards) {
  Fixture F("__device__ void h(float *s, int lane, int d) { if (lane < d) "
            "s[lane] = 0; }\n"
            "__global__ void k(int n) { __shared__ float s[64];\n"
            "  if (threadIdx.x < 16) s[threadIdx.x] = 0;\n"
            "  if (threadIdx.x < n) s[threadIdx.x + 1] = 0;\n"
            "  if (threadIdx.x % 32 >= 24) return;\n"
            "  s[threadIdx.x + 2] = 0;\n"
            "  if (threadIdx.x < 16) h(s, threadIdx.x % 32, 4); }");
  auto L = lanesReaching(F, "k");
  ASSERT_EQ(L.size(), 4u);
  EXPECT_EQ(L[0], 0xFFFFull);     // if (threadIdx.x < 16)
  EXPECT_EQ(L[1], 0xFFFFFFFFull); // an unknown bound keeps every lane
  EXPECT_EQ(L[2], 0x00FFFFFFull); // lanes 24-31 returned
  EXPECT_EQ(L[3], 0xFull);        // the caller's 16, the helper's lane < 4
}

TEST(MayReach, GuardOnACountedLoopsCounter) {
  Fixture F("__global__ void k(int n, int *p) { __shared__ int s[1024];\n"
            "  int tx = threadIdx.x;\n"
            "  for (int m = 0; m < 16; m++) if (tx <= m) s[tx] = 0;\n"
            "  for (int m = 14; m >= 0; m--) if (tx <= m) s[tx + 1] = 0;\n"
            "  for (int m = 1; m <= 8; m *= 2) if (tx < m) s[tx + 2] = 0;\n"
            "  for (int m = 0; m < 4; m++) for (int j = 0; j < 2; j++)\n"
            "    if (tx == 2 * m + j + 8) s[tx + 3] = 0;\n"
            "  for (int m = 0; m < n; m++) if (tx <= m) s[tx + 4] = 0;\n"
            "  for (int m = 0; m < 16; m++) { if (tx <= m) s[tx + 5] = 0;\n"
            "    m += n; }\n"
            "  for (int m = 0; m < 0; m++) if (tx <= m) s[tx + 6] = 0; }");
  auto L = lanesReaching(F, "k");
  ASSERT_EQ(L.size(), 7u);
  EXPECT_EQ(L[0], 0xFFFFull);     // m = 0..15: lanes 0-15
  EXPECT_EQ(L[1], 0x7FFFull);     // m = 14..0: lanes 0-14
  EXPECT_EQ(L[2], 0xFFull);       // m = 1, 2, 4, 8: lanes 0-7
  EXPECT_EQ(L[3], 0xFF00ull);     // 8 + 2m + j over both counters
  EXPECT_EQ(L[4], 0xFFFFFFFFull); // an unknown bound: every lane
  EXPECT_EQ(L[5], 0xFFFFFFFFull); // the body writes m too: every lane
  EXPECT_EQ(L[6], 0ull);          // the body never runs
}
