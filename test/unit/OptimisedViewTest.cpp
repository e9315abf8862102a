// Which kernels the memory checks ask the optimised view for the accesses
// the optimiser inlines into them (checks/memory/OptimisedView.h): those
// calling a function of the user's whose code may read or write memory
// other than its own variables and constants, and no others.
#include "checks/memory/OptimisedView.h"
#include "CudaAst.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using warplint::memory::mayInlineUserAccesses;

namespace {

constexpr const char *Code = R"(
// A warp's sum by shuffles: warpSize, a default argument, its own values.
template <class T> __device__ T warpSum(T v) {
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
// The cast of an extern __shared__ array (the samples' SharedMemory<T>).
template <class T> struct Shared {
  __device__ operator T *() {
    extern __shared__ int smem[];
    return (T *)smem;
  }
};
const int Scale = 4;
__device__ int scaled(int x) { return x * Scale; }
__device__ float load(const float *p, int i) { return p[i]; }
__device__ void store(float &r, float v) { r = v; }
__device__ float viaLoad(const float *p) { return load(p, threadIdx.x); }
__device__ int counter;
__device__ int readGlobal() { return counter; }
struct Pair { float a, b; };
__device__ float first(const Pair *p) { Pair q = *p; return q.a; }
__device__ float apply(float (*f)(float), float x) { return f(x); }

__global__ void none(float *out) { out[threadIdx.x] = 0; }
__global__ void sums(float *out, const float *in) {
  float *s = Shared<float>();
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = warpSum(s[threadIdx.x]) + scaled(threadIdx.x);
}
__global__ void loads(float *out, const float *in) {
  out[threadIdx.x] = load(in, threadIdx.x);
}
__global__ void stores(float *out) { store(out[threadIdx.x], 1.0f); }
__global__ void nested(float *out, const float *in) {
  out[threadIdx.x] = viaLoad(in);
}
__global__ void global(int *out) { out[threadIdx.x] = readGlobal(); }
__global__ void copies(float *out, const Pair *in) {
  out[threadIdx.x] = first(in + threadIdx.x);
}
__global__ void lambda(float *out, const float *in) {
  auto f = [=](int i) { return in[i]; };
  out[threadIdx.x] = f(threadIdx.x);
}
)";

class MayInlineUserAccessesTest : public ::testing::Test {
protected:
  void SetUp() override {
    AST = parseCuda(Code);
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  }
  bool mayInline(llvm::StringRef Kernel) {
    auto Found = match(functionDecl(hasName(Kernel), isDefinition()).bind("k"),
                       AST->getASTContext());
    EXPECT_EQ(Found.size(), 1u) << Kernel.str();
    if (Found.empty())
      return false;
    return mayInlineUserAccesses(Found[0].getNodeAs<FunctionDecl>("k"),
                                 AST->getSourceManager());
  }
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(MayInlineUserAccessesTest, HelpersThatOnlyComputeNeedNoView) {
  EXPECT_FALSE(mayInline("none"));
  EXPECT_FALSE(mayInline("sums"));
}

TEST_F(MayInlineUserAccessesTest, HelpersThatReadOrWriteMemoryDo) {
  EXPECT_TRUE(mayInline("loads"));
  EXPECT_TRUE(mayInline("stores"));
  EXPECT_TRUE(mayInline("nested"));
  EXPECT_TRUE(mayInline("global"));
  EXPECT_TRUE(mayInline("copies"));
  EXPECT_TRUE(mayInline("lambda"));
}

} // namespace
