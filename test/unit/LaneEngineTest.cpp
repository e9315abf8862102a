// The per-lane engine's launch shapes: the one shape every check and layer
// gets for a kernel, a kernel template as written and a __device__ helper.
#include "Analysis/LaneEngine.h"
#include "Analysis/Launches.h"
#include "CudaAst.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;

namespace {

struct Engine {
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<warplint::LaneEngine> E;

  explicit Engine(llvm::StringRef Code) : AST(parseCuda(Code)) {
    E = std::make_unique<warplint::LaneEngine>(AST->getASTContext(), 32);
    for (auto &M : match(warplint::launchMatcher(), AST->getASTContext()))
      E->affine().recordLaunch(M.getNodeAs<CallExpr>("launch"));
  }

  // The shape of function Name (a template as written when Pattern), as
  // "XxYxZ" with "+z{a|b}" for run-time z choices, or "unknown".
  std::string shape(llvm::StringRef Name, bool Pattern = false) {
    for (auto &M : match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                         AST->getASTContext())) {
      const auto *F = M.getNodeAs<FunctionDecl>("f");
      if (Pattern != bool(F->getDescribedFunctionTemplate()))
        continue;
      warplint::BlockShape S = E->shape(F);
      if (!S.pinned())
        return "unknown";
      std::string Out = std::to_string(S.X) + "x" + std::to_string(S.Y) + "x" +
                        std::to_string(S.Z);
      if (S.RuntimeZ) {
        Out += "+z{";
        for (unsigned Z : S.ZChoices)
          Out += std::to_string(Z) + (Z == S.ZChoices.back() ? "" : "|");
        Out += "}";
      }
      return Out;
    }
    return "no function";
  }
};

} // namespace

TEST(LaneEngine, KernelTemplateTakesTheShapeItsInstantiationsAgreeOn) {
  Engine E("template <int N> __global__ void k(float *p) { p[N] = 0; }\n"
           "template <int N> __global__ void d(float *p) { p[N] = 0; }\n"
           "void h(float *p) { k<1><<<1, dim3(16, 2)>>>(p);"
           " k<2><<<1, dim3(16, 2)>>>(p);"
           " d<1><<<1, 64>>>(p); d<2><<<1, 128>>>(p); }\n");
  EXPECT_EQ(E.shape("k", /*Pattern=*/true), "16x2x1");
  EXPECT_EQ(E.shape("d", /*Pattern=*/true), "unknown");
  EXPECT_EQ(E.shape("d"), "64x1x1"); // the first instantiation
}

TEST(LaneEngine, HelperTakesTheShapeOfTheKernelsThatReachIt) {
  Engine E("__device__ void leaf(float *p) { p[threadIdx.x] = 0; }\n"
           "__device__ void mid(float *p) { leaf(p); }\n"
           "__device__ void split(float *p) { p[threadIdx.x] = 1; }\n"
           "__device__ void orphan(float *p) { p[threadIdx.x] = 1; }\n"
           "__global__ void a(float *p) { mid(p); split(p); }\n"
           "__global__ void b(float *p) { mid(p); }\n"
           "__global__ void c(float *p) { split(p); }\n"
           "void h(float *p) { a<<<1, dim3(16, 16)>>>(p);"
           " b<<<2, dim3(16, 16)>>>(p); c<<<1, 256>>>(p); }\n");
  EXPECT_EQ(E.shape("leaf"), "16x16x1");   // two calls deep, a and b agree
  EXPECT_EQ(E.shape("split"), "unknown");  // a and c disagree
  EXPECT_EQ(E.shape("orphan"), "unknown"); // no kernel reaches it
}

TEST(LaneEngine, HelperOfATemplateKernelJoinsRunTimeZChoices) {
  Engine E("__device__ void leaf(float *p) { p[threadIdx.x] = 0; }\n"
           "template <int N> __global__ void k(float *p) { leaf(p); }\n"
           "void h(float *p, bool big, int n) {"
           " k<1><<<1, dim3(4, 8, big ? 32 : 24)>>>(p);"
           " k<2><<<1, dim3(4, 8, n > 2 ? 16 : 24)>>>(p); }\n");
  EXPECT_EQ(E.shape("leaf"), "4x8x1+z{16|24|32}");
}

// The lane evaluator takes what it cannot follow itself (a local assigned
// after its declaration, a helper of several statements) from the affine
// forms, where they model the evaluator's block shape.
TEST(LaneEngine, LanesTakeWhatTheyCannotFollowFromTheAffineForms) {
  Engine E("__device__ unsigned lane_of(unsigned t) {\n"
           "  unsigned l = t & 31; return l; }\n"
           "__global__ void k(int *p) {\n"
           "  unsigned a = lane_of(threadIdx.x);\n"
           "  unsigned b; b = threadIdx.x % 32;\n"
           "  unsigned c; c = threadIdx.x - threadIdx.x % 32;\n"
           "  p[a] = 0; p[b] = 1; p[c] = 2; }\n"
           "void h(int *p) { k<<<1, 64>>>(p); }\n");
  ASTContext &Ctx = E.AST->getASTContext();
  const auto *K = selectFirst<FunctionDecl>(
      "k", match(functionDecl(hasName("k"), isDefinition()).bind("k"), Ctx));
  ASSERT_TRUE(K);
  auto Use = [&](llvm::StringRef Name) {
    return selectFirst<Expr>(
        "u",
        match(
            traverse(TK_AsIs,
                     arraySubscriptExpr(hasIndex(ignoringImpCasts(
                         declRefExpr(to(varDecl(hasName(Name)))).bind("u"))))),
            Ctx));
  };
  warplint::LaneEvaluator L = E.E->lanes(K);
  warplint::ThreadId T37{37, 0, 0};
  EXPECT_EQ(L.eval(Use("a"), T37), std::optional<int64_t>(5));
  EXPECT_EQ(L.eval(Use("b"), T37), std::optional<int64_t>(5));
  EXPECT_EQ(L.eval(Use("c"), T37), std::optional<int64_t>(32));
  // Under another shape than the launch's, the forms (which took
  // `threadIdx.x % 32` as the lane of a 64-thread block) are not used.
  warplint::BlockShape Rows;
  Rows.X = 16;
  Rows.Y = 4;
  warplint::LaneEvaluator Other = E.E->lanes(K, Rows);
  EXPECT_EQ(Other.eval(Use("b"), warplint::ThreadId{5, 2, 0}), std::nullopt);
}
