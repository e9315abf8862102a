// The call-depth budgets of Analysis/Budget.h as the checks apply them: a
// chain of helpers as deep as the budget allows is followed, one more call
// is not.
#include "Analysis/Budget.h"
#include "CudaAst.h"
#include "checks/Registry.h"
#include "llvm/ADT/STLExtras.h"
#include <gtest/gtest.h>

using namespace warplint;

namespace {

// The findings of one check on Code, parsed for sm_80.
std::vector<Finding> findingsOf(llvm::StringRef CheckId,
                                const std::string &Code) {
  auto Tables = ArchTable::loadDirectory(WARPLINT_SOURCE_DIR "/arch-data");
  EXPECT_TRUE(bool(Tables)) << llvm::toString(Tables.takeError());
  if (!Tables)
    return {};
  std::unique_ptr<clang::ASTUnit> AST = parseCuda(Code);
  CheckOptionMap Options;
  GlobList WarningsAsErrors;
  DiagSink Sink;
  CheckContext Ctx(*Tables, Tables->find("sm_80"), Options, WarningsAsErrors,
                   Sink);
  CheckRunner Runner(allChecks(), GlobList(("-*," + CheckId).str()),
                     CheckSide::Both, Ctx);
  Runner.run(AST->getASTContext());
  return Sink.findings();
}

// h1 calls h2, ..., h<Depth> does Last.
std::string chain(llvm::StringRef Attr, unsigned Depth, llvm::StringRef Last) {
  std::string Out;
  for (unsigned I = Depth; I >= 1; --I)
    Out += (Attr + " int h" + std::to_string(I) + "(int v) { " +
            (I == Depth ? Last.str()
                        : "return h" + std::to_string(I + 1) + "(v);") +
            " }\n")
               .str();
  return Out;
}

// The line of the first line of Code holding Text (1-based).
unsigned lineOf(const std::string &Code, llvm::StringRef Text) {
  size_t At = Code.find(Text.str());
  return At == std::string::npos ? 0
                                 : 1 + llvm::count(Code.substr(0, At), '\n');
}

// A full-mask shuffle that only half of each warp reaches, Depth helpers
// below the kernel.
std::string maskCase(unsigned Depth) {
  return chain("__device__", Depth, "return __shfl_sync(0xffffffff, v, 1);") +
         "__global__ void k(int *out) {\n"
         "  int v = threadIdx.x;\n"
         "  if (threadIdx.x % 32 < 16)\n"
         "    v = h1(v);\n"
         "  out[threadIdx.x] = v;\n"
         "}\n";
}

// A block barrier that only half of the block reaches, Depth helpers below
// the kernel.
std::string barrierCase(unsigned Depth) {
  return chain("__device__", Depth, "__syncthreads(); return v;") +
         "__global__ void k(int *out) {\n"
         "  if (threadIdx.x < 16)\n"
         "    out[0] = h1(1);\n"
         "  out[1] = 2;\n"
         "}\n";
}

// A blocking copy Depth helpers below a host loop that launches.
std::string hostCase(unsigned Depth) {
  return "__global__ void k() {}\n" +
         chain("", Depth, "cudaDeviceSynchronize(); return v;") +
         "void run(int n) {\n"
         "  for (int i = 0; i < n; ++i) {\n"
         "    k<<<1, 32>>>();\n"
         "    h1(i);\n"
         "  }\n"
         "}\n";
}

} // namespace

// warp-mask-divergent follows helpers from depth 0 (the one the kernel
// calls) to depth MaxDeviceCallDepth.
TEST(CallDepth, MaskDivergentFollowsDeviceHelpers) {
  std::string Within = maskCase(MaxDeviceCallDepth + 1);
  std::vector<Finding> F = findingsOf("warp-mask-divergent", Within);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Loc.Line, lineOf(Within, "__shfl_sync"));
  EXPECT_TRUE(
      findingsOf("warp-mask-divergent", maskCase(MaxDeviceCallDepth + 2))
          .empty());
}

// divergence-barrier reports the barrier itself through as many helpers;
// past them, the deepest call it followed.
TEST(CallDepth, DivergentBarrierFollowsDeviceHelpers) {
  std::string Within = barrierCase(MaxDeviceCallDepth + 1);
  std::vector<Finding> F = findingsOf("divergence-barrier", Within);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Loc.Line, lineOf(Within, "__syncthreads"));
  std::string Beyond = barrierCase(MaxDeviceCallDepth + 2);
  F = findingsOf("divergence-barrier", Beyond);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(
      F[0].Loc.Line,
      lineOf(Beyond, "return h" + std::to_string(MaxDeviceCallDepth + 2)));
}

// host-transfer-in-loop looks MaxHostCallDepth calls deep from the loop.
TEST(CallDepth, TransferInLoopFollowsHostHelpers) {
  std::string Within = hostCase(MaxHostCallDepth);
  std::vector<Finding> F = findingsOf("host-transfer-in-loop", Within);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Loc.Line, lineOf(Within, "h1(i);"));
  EXPECT_TRUE(
      findingsOf("host-transfer-in-loop", hostCase(MaxHostCallDepth + 1))
          .empty());
}
