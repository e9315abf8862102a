// The PTX of the launched kernels (IR/Ptx.h): only the kernels asked for and
// what they call are compiled, each a visible entry; their helpers are
// internalised and inlined away as in a whole-program compile; a kernel
// over the instruction budget is left out and named with its size; a kernel
// the module does not define is skipped; the libdevice functions the kernels
// call are linked in and inlined, and no others; a kernel that calls a
// legacy warp intrinsic is left out for sm_70 and later, and the others
// still compile.
#include "IR/Ptx.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace warplint::ir;

namespace {

constexpr const char *Module = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define float @helper(float %x) {
  %y = fmul float %x, 2.0
  ret float %y
}
define ptx_kernel void @small(ptr %p) {
  %v = load float, ptr %p
  %w = call float @helper(float %v)
  store float %w, ptr %p
  ret void
}
define ptx_kernel void @other(ptr %p) {
  store float 1.0, ptr %p
  ret void
}
define ptx_kernel void @large(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %q = getelementptr float, ptr %p, i32 %i
  %v = load float, ptr %q
  %a = fmul float %v, %v
  %b = fadd float %a, %v
  %c = fmul float %b, %a
  %d = fadd float %c, %b
  store float %d, ptr %q
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)";

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &Ctx) {
  llvm::SMDiagnostic Err;
  auto M = llvm::parseAssemblyString(Module, Err, Ctx);
  if (!M)
    ADD_FAILURE() << Err.getMessage().str();
  return M;
}

TEST(Ptx, CompilesOnlyTheKernelsAskedFor) {
  llvm::LLVMContext Ctx;
  auto M = parse(Ctx);
  ASSERT_TRUE(M);
  auto P = kernelsPtx(*M, {"small", "missing"}, "sm_80", "", 0);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Kernels, std::vector<std::string>{"small"});
  EXPECT_TRUE(P->TooLarge.empty());
  llvm::StringRef Text = P->Text;
  EXPECT_TRUE(Text.contains(".target sm_80")) << Text.str();
  EXPECT_TRUE(Text.contains(".visible .entry small("));
  EXPECT_FALSE(Text.contains("other"));
  EXPECT_FALSE(Text.contains("large"));
  // The helper was internalised, inlined and dropped.
  EXPECT_FALSE(Text.contains("helper"));
  EXPECT_TRUE(Text.contains(".f32 ")) << Text.str();
  // The module the IR layer holds is not changed.
  EXPECT_TRUE(M->getFunction("helper") &&
              !M->getFunction("helper")->isDeclaration());
}

TEST(Ptx, LeavesOutKernelsOverTheBudget) {
  llvm::LLVMContext Ctx;
  auto M = parse(Ctx);
  ASSERT_TRUE(M);
  auto P = kernelsPtx(*M, {"small", "large"}, "sm_90", "", 8);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->TooLarge.size(), 1u);
  EXPECT_EQ(P->TooLarge[0].first, "large");
  EXPECT_GT(P->TooLarge[0].second, 8u);
  EXPECT_TRUE(llvm::StringRef(P->Text).contains(".entry small("));
  EXPECT_FALSE(llvm::StringRef(P->Text).contains("large"));
  // Without a budget both are compiled.
  auto All = kernelsPtx(*M, {"small", "large"}, "sm_90", "", 0);
  ASSERT_TRUE(bool(All)) << llvm::toString(All.takeError());
  EXPECT_TRUE(All->TooLarge.empty());
  EXPECT_TRUE(llvm::StringRef(All->Text).contains(".entry large("));
}

// A stand-in for libdevice: the real one is read lazily, and only what the
// kernels call is linked.
constexpr const char *Library = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-gpulibs"

define float @__nv_expf(float %x) {
  %y = fmul float %x, 3.0
  ret float %y
}
define float @__nv_logf(float %x) {
  %y = fadd float %x, 5.0
  ret float %y
}
)";

constexpr const char *Caller = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @__nv_expf(float)
define ptx_kernel void @exp_kernel(ptr %p) {
  %v = load float, ptr %p
  %w = call float @__nv_expf(float %v)
  store float %w, ptr %p
  ret void
}
)";

TEST(Ptx, LinksTheLibdeviceFunctionsTheKernelsCall) {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Err;
  auto Lib = llvm::parseAssemblyString(Library, Err, Ctx);
  ASSERT_TRUE(Lib) << Err.getMessage().str();
  llvm::SmallString<128> Path;
  int FD;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("libdevice", "bc", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    llvm::WriteBitcodeToFile(*Lib, OS);
  }
  auto M = llvm::parseAssemblyString(Caller, Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  auto P = kernelsPtx(*M, {"exp_kernel"}, "sm_80", Path, 0);
  llvm::sys::fs::remove(Path);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  llvm::StringRef Text = P->Text;
  // Linked, internalised and inlined: no call is left for ptxas to
  // resolve, and the function the kernel does not call is not there.
  EXPECT_FALSE(Text.contains("__nv_expf")) << Text.str();
  EXPECT_FALSE(Text.contains("__nv_logf")) << Text.str();
  EXPECT_TRUE(Text.contains("mul.rn.f32")) << Text.str();
  EXPECT_TRUE(Text.contains("3.0") || Text.contains("0f40400000"))
      << Text.str();
  // A library that cannot be read is an error, not a silent miss.
  auto Missing = kernelsPtx(*M, {"exp_kernel"}, "sm_80", Path, 0);
  EXPECT_FALSE(bool(Missing));
  llvm::consumeError(Missing.takeError());
}

constexpr const char *Legacy = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @llvm.nvvm.shfl.down.f32(float, i32, i32)
declare i1 @llvm.nvvm.vote.any(i1)
define float @reduce(float %v) {
  %s = call float @llvm.nvvm.shfl.down.f32(float %v, i32 16, i32 31)
  %r = fadd float %v, %s
  ret float %r
}
define ptx_kernel void @shuffles(ptr %p) {
  %v = load float, ptr %p
  %r = call float @reduce(float %v)
  store float %r, ptr %p
  ret void
}
define ptx_kernel void @votes(ptr %p, float %v) {
  %b = fcmp ogt float %v, 0.0
  %a = call i1 @llvm.nvvm.vote.any(i1 %b)
  %z = zext i1 %a to i32
  store i32 %z, ptr %p
  ret void
}
define ptx_kernel void @plain(ptr %p) {
  store float 1.0, ptr %p
  ret void
}
)";

TEST(Ptx, LeavesOutKernelsWithLegacyWarpIntrinsics) {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Err;
  auto M = llvm::parseAssemblyString(Legacy, Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  auto P = kernelsPtx(*M, {"shuffles", "votes", "plain"}, "sm_80", "", 0);
  // One kernel that cannot compile no longer fails the others.
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  using Pair = std::pair<std::string, std::string>;
  EXPECT_EQ(P->Unsupported, (std::vector<Pair>{{"shuffles", "__shfl_down"},
                                               {"votes", "__any"}}));
  llvm::StringRef Text = P->Text;
  EXPECT_TRUE(Text.contains(".entry plain(")) << Text.str();
  EXPECT_FALSE(Text.contains("shuffles"));
  EXPECT_FALSE(Text.contains("votes"));
  EXPECT_FALSE(Text.contains("shfl"));
  // Before sm_70 they are compiled as they are.
  auto Old = kernelsPtx(*M, {"shuffles", "plain"}, "sm_60", "", 0);
  ASSERT_TRUE(bool(Old)) << llvm::toString(Old.takeError());
  EXPECT_TRUE(Old->Unsupported.empty());
  EXPECT_TRUE(llvm::StringRef(Old->Text).contains(".entry shuffles("));
}

} // namespace
