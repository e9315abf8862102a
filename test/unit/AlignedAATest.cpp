// The alias analysis of what accesses' alignments prove (IR/AlignedAA.h):
// two 8-aligned float2s' .x and .y cannot overlap, the same halves can,
// and bases aligned to 4 only prove nothing.
#include "IR/AlignedAA.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include <gtest/gtest.h>

using namespace llvm;
using warplint::ir::AlignedAA;

namespace {

// @k: k[i].x = -f[i].x; k[i].y = -f[i].y on 8-aligned float2s (the .x
// accesses say align 8). @p: the same on pairs aligned to 4.
constexpr const char *IR = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %k, ptr %f, i64 %i) {
  %fi = getelementptr inbounds [2 x float], ptr %f, i64 %i
  %ki = getelementptr inbounds [2 x float], ptr %k, i64 %i
  %fx = load float, ptr %fi, align 8
  store float %fx, ptr %ki, align 8
  %fyp = getelementptr inbounds i8, ptr %fi, i64 4
  %fy = load float, ptr %fyp, align 4
  %kyp = getelementptr inbounds i8, ptr %ki, i64 4
  store float %fy, ptr %kyp, align 4
  ret void
}

define void @p(ptr %k, ptr %f, i64 %i) {
  %fi = getelementptr inbounds [2 x float], ptr %f, i64 %i
  %ki = getelementptr inbounds [2 x float], ptr %k, i64 %i
  %fx = load float, ptr %fi, align 4
  store float %fx, ptr %ki, align 4
  %fyp = getelementptr inbounds i8, ptr %fi, i64 4
  %fy = load float, ptr %fyp, align 4
  %kyp = getelementptr inbounds i8, ptr %ki, i64 4
  store float %fy, ptr %kyp, align 4
  ret void
}
)";

struct Accesses {
  MemoryLocation FX, KX, FY, KY;
};

Accesses accessesOf(Function &F) {
  std::vector<MemoryLocation> L;
  for (Instruction &I : instructions(F))
    if (isa<LoadInst, StoreInst>(I))
      L.push_back(MemoryLocation::get(&I));
  return {L[0], L[1], L[2], L[3]};
}

TEST(AlignedAA, DisjointHalvesOfAlignedPairs) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, Ctx);
  ASSERT_TRUE(M) << Err.getMessage().str();
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  warplint::ir::registerAlignedAA(PB, FAM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  Function &K = *M->getFunction("k");
  auto &AA = FAM.getResult<AlignedAA>(K);
  AAQueryInfo Q(FAM.getResult<AAManager>(K), nullptr);
  Accesses A = accessesOf(K);
  // k[i].x is 0 mod 8, f[i].y 4 mod 8: no overlap.
  EXPECT_EQ(AA.alias(A.KX, A.FY, Q, nullptr), AliasResult::NoAlias);
  EXPECT_EQ(AA.alias(A.FY, A.KX, Q, nullptr), AliasResult::NoAlias);
  EXPECT_EQ(AA.alias(A.FX, A.KY, Q, nullptr), AliasResult::NoAlias);
  // The same halves of two arrays may be one place.
  EXPECT_EQ(AA.alias(A.KX, A.FX, Q, nullptr), AliasResult::MayAlias);
  EXPECT_EQ(AA.alias(A.KY, A.FY, Q, nullptr), AliasResult::MayAlias);
  // The whole pipeline sees it too: the .y load is independent of the .x
  // store.
  EXPECT_EQ(FAM.getResult<AAManager>(K).alias(A.KX, A.FY),
            AliasResult::NoAlias);

  Function &P = *M->getFunction("p");
  auto &AP = FAM.getResult<AlignedAA>(P);
  AAQueryInfo QP(FAM.getResult<AAManager>(P), nullptr);
  Accesses B = accessesOf(P);
  // Aligned to 4 only: k[i].x may be f[i].y.
  EXPECT_EQ(AP.alias(B.KX, B.FY, QP, nullptr), AliasResult::MayAlias);
}

} // namespace
