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
