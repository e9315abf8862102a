// The IR layer's optimised view of the accesses (IR/OptimisedAccesses.h):
// merged by the load/store vectoriser, removed by CSE and dead-store
// elimination, kept, and positions it knows nothing of.
#include "IR/OptimisedAccesses.h"
#include "IR/Pieces.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include <gtest/gtest.h>
#include <map>
#include <tuple>
#include <vector>

using namespace warplint::ir;

namespace {

// A kernel at -O0's shape (generic pointers, no alignment beyond the
// element's): line 10 reads s[2t] (col 12) and s[2t+1] (col 23) of an
// 8-aligned shared array; line 11 reads p[t] twice (cols 7, 15); line 12
// stores out[t] twice (cols 10, 20), the first dead; line 13 reads a 4-aligned
// shared array at 2t (col 5) and 2t+1 (col 9). Kernel g (line 3) stores
// p[3t] under `t < n` (line 5: a tail guard keeps every lane) and q[3t]
// under `t < 16` (line 7: it does not, and is not listed).
constexpr const char *Kernel = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = addrspace(3) global [64 x float] undef, align 8
@u = addrspace(3) global [64 x float] undef, align 4

define ptx_kernel void @k(ptr %out, ptr %p) !dbg !5 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t2 = shl nuw nsw i32 %t, 1
  %i2 = zext i32 %t2 to i64
  %i = zext i32 %t to i64
  %a = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 %i2
  %x = load float, ptr %a, align 4, !dbg !10
  %b = getelementptr inbounds float, ptr %a, i64 1
  %y = load float, ptr %b, align 4, !dbg !11
  %q = getelementptr inbounds float, ptr %p, i64 %i
  %v1 = load float, ptr %q, align 4, !dbg !12
  %v2 = load float, ptr %q, align 4, !dbg !13
  %c = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @u to ptr), i64 %i2
  %z = load float, ptr %c, align 4, !dbg !16
  %d = getelementptr inbounds float, ptr %c, i64 1
  %w = load float, ptr %d, align 4, !dbg !17
  %s1 = fadd float %x, %y
  %s2 = fadd float %v1, %v2
  %s3 = fadd float %s1, %s2
  %s4 = fadd float %z, %w
  %s5 = fadd float %s3, %s4
  %o = getelementptr inbounds float, ptr %out, i64 %i
  store float 0.0, ptr %o, align 4, !dbg !14
  store float %s5, ptr %o, align 4, !dbg !15
  ret void
}

define ptx_kernel void @g(ptr %p, ptr %q, i32 %n) !dbg !20 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %i3 = mul nuw nsw i64 %i, 3
  %tail = icmp slt i32 %t, %n
  br i1 %tail, label %a, label %b
a:
  %y = getelementptr inbounds float, ptr %p, i64 %i3
  store float 1.0, ptr %y, align 4, !dbg !21
  br label %b
b:
  %half = icmp ult i32 %t, 16
  br i1 %half, label %c, label %d
c:
  %z = getelementptr inbounds float, ptr %q, i64 %i3
  store float 2.0, ptr %z, align 4, !dbg !22
  br label %d
d:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 9, type: !6, scopeLine: 9, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!10 = !DILocation(line: 10, column: 12, scope: !5)
!11 = !DILocation(line: 10, column: 23, scope: !5)
!12 = !DILocation(line: 11, column: 7, scope: !5)
!13 = !DILocation(line: 11, column: 15, scope: !5)
!14 = !DILocation(line: 12, column: 10, scope: !5)
!15 = !DILocation(line: 12, column: 20, scope: !5)
!16 = !DILocation(line: 13, column: 5, scope: !5)
!17 = !DILocation(line: 13, column: 9, scope: !5)
!20 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!21 = !DILocation(line: 5, column: 5, scope: !20)
!22 = !DILocation(line: 7, column: 5, scope: !20)
)";

class OptimisedAccessesTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SMDiagnostic Err;
    M = llvm::parseAssemblyString(Kernel, Err, Ctx);
    ASSERT_TRUE(M) << Err.getMessage().str();
    O = OptimisedAccesses::analyse(*M, "sm_90");
    ASSERT_TRUE(O);
  }
  AccessFate fate(unsigned Line, unsigned Col, bool Store = false) {
    return O->fate({"/src/k.cu", Line, Col}, Store);
  }

  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> M;
  std::unique_ptr<OptimisedAccesses> O;
};

TEST_F(OptimisedAccessesTest, NeighboursOfAnAlignedArrayMergeIntoOneAccess) {
  AccessFate Lo = fate(10, 12), Hi = fate(10, 23);
  EXPECT_EQ(Lo.K, AccessFate::Merged);
  EXPECT_EQ(Lo.Bytes, 8u);
  EXPECT_EQ(Lo.Offset, 0u);
  EXPECT_EQ(Hi.K, AccessFate::Merged);
  EXPECT_EQ(Hi.Bytes, 8u);
  EXPECT_EQ(Hi.Offset, 4u);
  EXPECT_EQ(Lo.Group, Hi.Group);
}

TEST_F(OptimisedAccessesTest, NeighboursOfAFourAlignedArrayStayApart) {
  EXPECT_EQ(fate(13, 5).K, AccessFate::Kept);
  EXPECT_EQ(fate(13, 9).K, AccessFate::Kept);
}

TEST_F(OptimisedAccessesTest, ASecondReadOfTheSameAddressIsRemoved) {
  EXPECT_EQ(fate(11, 7).K, AccessFate::Kept);
  EXPECT_EQ(fate(11, 15).K, AccessFate::Removed);
}

TEST_F(OptimisedAccessesTest, ADeadStoreIsRemoved) {
  EXPECT_EQ(fate(12, 10, /*Store=*/true).K, AccessFate::Removed);
  EXPECT_EQ(fate(12, 20, /*Store=*/true).K, AccessFate::Kept);
}

TEST_F(OptimisedAccessesTest, UnknownPositionsAndKindsSayNothing) {
  EXPECT_EQ(fate(12, 10, /*Store=*/false).K, AccessFate::Unknown);
  EXPECT_EQ(fate(40, 1).K, AccessFate::Unknown);
  EXPECT_EQ(O->fate({"/src/other.cu", 10, 12}, false).K, AccessFate::Unknown);
}

// What is left, with each address's bytes per threadIdx.x.
TEST_F(OptimisedAccessesTest, LaneLinearAddressesOfTheKernel) {
  std::map<std::string, const LaneLinearAccess *> At;
  for (const LaneLinearAccess *A : O->laneLinear("/src/k.cu", 9))
    At[std::to_string(A->Frames.front().Line) + ":" +
       std::to_string(A->Frames.front().Column)] = A;
  ASSERT_TRUE(At.count("10:12")); // s[2t], s[2t+1]: one 8-byte access
  EXPECT_TRUE(At["10:12"]->Shared);
  EXPECT_EQ(At["10:12"]->Bytes, 8u);
  EXPECT_EQ(At["10:12"]->Coef[0], 8);
  ASSERT_TRUE(At.count("11:7")); // p[t]
  EXPECT_FALSE(At["11:7"]->Shared);
  EXPECT_EQ(At["11:7"]->Coef[0], 4);
  EXPECT_FALSE(At.count("11:15")); // removed
  ASSERT_TRUE(At.count("12:20"));
  EXPECT_TRUE(At["12:20"]->IsStore);
  EXPECT_EQ(At["12:20"]->Kernel, "/src/k.cu:9");
  EXPECT_TRUE(O->laneLinear("/src/k.cu", 8).empty());
}

TEST_F(OptimisedAccessesTest, TailGuardsOnly) {
  std::vector<const LaneLinearAccess *> L = O->laneLinear("/src/k.cu", 3);
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(L[0]->Frames.front().Line, 5u);
  EXPECT_EQ(L[0]->Coef[0], 12);
}

TEST_F(OptimisedAccessesTest, TheModuleAnalysedIsLeftAsItWas) {
  unsigned Loads = 0;
  for (const llvm::Instruction &I : M->getFunction("k")->getEntryBlock())
    Loads += llvm::isa<llvm::LoadInst>(I);
  EXPECT_EQ(Loads, 6u);
}

} // namespace

// FP64 work (arithmetic, conversions, calls of double math functions) and
// what -O3 leaves of it: line 31 is `x * 0.5` of a float (narrowed to
// float), line 32 `x * 0.1` (kept), line 33 exp of a constant (libdevice's
// exp folds), line 34 pow of constants (nvcc calls its pow at run time).
constexpr const char *Fp64Kernel = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @f(ptr %out, float %x) !dbg !5 {
  %a = fpext float %x to double, !dbg !10
  %b = fmul double %a, 5.000000e-01, !dbg !10
  %c = fptrunc double %b to float, !dbg !10
  store float %c, ptr %out, align 4
  %d = fpext float %x to double, !dbg !11
  %e = fmul double %d, 1.000000e-01, !dbg !11
  %f = fptrunc double %e to float, !dbg !11
  %o1 = getelementptr inbounds float, ptr %out, i64 1
  store float %f, ptr %o1, align 4
  %g = call double @__nv_exp(double 2.000000e+00), !dbg !12
  %h = fptrunc double %g to float, !dbg !12
  %o2 = getelementptr inbounds float, ptr %out, i64 2
  store float %h, ptr %o2, align 4
  %i = call double @__nv_pow(double 2.000000e+00, double 2.000000e+00), !dbg !13
  %j = fptrunc double %i to float, !dbg !13
  %o3 = getelementptr inbounds float, ptr %out, i64 3
  store float %j, ptr %o3, align 4
  ret void
}

declare double @__nv_exp(double)
declare double @__nv_pow(double, double)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "f.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 30, type: !6, scopeLine: 30, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!10 = !DILocation(line: 31, column: 5, scope: !5)
!11 = !DILocation(line: 32, column: 5, scope: !5)
!12 = !DILocation(line: 33, column: 5, scope: !5)
!13 = !DILocation(line: 34, column: 5, scope: !5)
)";

namespace {

TEST(OptimisedFp64Test, WhatMinusO3LeavesOfDoubleWork) {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Err;
  std::unique_ptr<llvm::Module> M =
      llvm::parseAssemblyString(Fp64Kernel, Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  std::unique_ptr<OptimisedAccesses> O =
      OptimisedAccesses::analyse(*M, "sm_90");
  ASSERT_TRUE(O);
  auto At = [&](unsigned Line) {
    return O->fp64({"/src/f.cu", Line, 1}, {"/src/f.cu", Line, 80});
  };
  EXPECT_EQ(At(31), Fp64Fate::Removed);
  EXPECT_EQ(At(32), Fp64Fate::Kept);
  EXPECT_EQ(At(33), Fp64Fate::Removed);
  EXPECT_EQ(At(34), Fp64Fate::Kept);
  EXPECT_EQ(At(35), Fp64Fate::Unknown);
  // A range that ends before the column: nothing generated in it.
  EXPECT_EQ(O->fp64({"/src/f.cu", 32, 1}, {"/src/f.cu", 32, 4}),
            Fp64Fate::Unknown);
  std::optional<Fp64Share> S = O->fp64Share("/src/f.cu", 30);
  ASSERT_TRUE(S);
  EXPECT_GT(S->Fp64, 0u);
  EXPECT_LT(S->Fp64, S->Instructions);
  EXPECT_FALSE(O->fp64Share("/src/f.cu", 31));
}

} // namespace

// The view optimises a piece of the module when a question first needs it,
// and its answers are those of a view that optimised every piece.
TEST(OptimisedAccessesLazyTest, OptimisesThePiecesAQuestionNeeds) {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Err;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(Kernel, Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  PieceCopies Copies(*M, /*Instructions=*/1); // k and g apart
  ASSERT_EQ(Copies.size(), 2u);
  std::unique_ptr<OptimisedAccesses> O =
      OptimisedAccesses::analyse(Copies, *M, "sm_90");
  ASSERT_TRUE(O);
  EXPECT_EQ(O->piecesOptimised(), 0u);
  // g's lane-linear store (line 5): g's piece alone.
  ASSERT_EQ(O->laneLinear("/src/k.cu", 3).size(), 1u);
  EXPECT_EQ(O->piecesOptimised(), 1u);
  // A line of neither kernel needs nothing.
  EXPECT_EQ(O->fate({"/src/k.cu", 40, 1}, false).K, AccessFate::Unknown);
  EXPECT_EQ(O->piecesOptimised(), 1u);
  // k's accesses, as the whole module's view has them.
  std::unique_ptr<OptimisedAccesses> Whole =
      OptimisedAccesses::analyse(*M, "sm_90");
  ASSERT_TRUE(Whole);
  for (auto [Line, Col, Store] :
       std::vector<std::tuple<unsigned, unsigned, bool>>{{10, 12, false},
                                                         {10, 23, false},
                                                         {11, 7, false},
                                                         {11, 15, false},
                                                         {12, 10, true},
                                                         {12, 20, true},
                                                         {13, 5, false},
                                                         {13, 9, false}}) {
    AccessFate A = O->fate({"/src/k.cu", Line, Col}, Store);
    AccessFate B = Whole->fate({"/src/k.cu", Line, Col}, Store);
    EXPECT_EQ(A.K, B.K) << Line << ":" << Col;
    EXPECT_EQ(A.Bytes, B.Bytes) << Line << ":" << Col;
    EXPECT_EQ(A.Offset, B.Offset) << Line << ":" << Col;
  }
  EXPECT_NE(O->fate({"/src/k.cu", 12, 10}, true).K, AccessFate::Unknown);
  EXPECT_EQ(O->piecesOptimised(), 2u);
}
