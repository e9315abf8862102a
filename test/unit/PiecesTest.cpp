// The module in pieces (IR/Pieces.h): kernels that share only a template
// helper or a tiny static one are optimised apart, with a copy of the helper
// each; kernels that share a static function the inliner may not inline
// everywhere, or a static variable, stay together; a table of function
// pointers keeps the whole module together; a copy declares what its piece
// does not define.
#include "IR/Pieces.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace warplint::ir;

namespace {

// a and b call the template helper @tmpl; c and d call the static @big,
// too large to be surely inlined; e and f call the tiny static @tiny; g and
// h read and write the static variable @g.
constexpr const char *Module = R"(
target triple = "nvptx64-nvidia-cuda"
@g = internal addrspace(1) global i32 0
@str = private constant [2 x i8] c"x\00"

define linkonce_odr i32 @tmpl(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
define internal i32 @tiny(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}
define internal i32 @big(i32 %x) {
  %a1 = add i32 %x, 1
  %a2 = add i32 %a1, 2
  %a3 = add i32 %a2, 3
  %a4 = add i32 %a3, 4
  %a5 = add i32 %a4, 5
  %a6 = add i32 %a5, 6
  %a7 = add i32 %a6, 7
  %a8 = add i32 %a7, 8
  %a9 = add i32 %a8, 9
  %b1 = mul i32 %a9, %a1
  %b2 = mul i32 %b1, %a2
  %b3 = mul i32 %b2, %a3
  %b4 = mul i32 %b3, %a4
  %b5 = mul i32 %b4, %a5
  %b6 = mul i32 %b5, %a6
  %b7 = mul i32 %b6, %a7
  %b8 = mul i32 %b7, %a8
  %b9 = mul i32 %b8, %a9
  %c1 = xor i32 %b9, %a1
  %c2 = xor i32 %c1, %a2
  %c3 = xor i32 %c2, %a3
  ret i32 %c3
}
define ptx_kernel void @a(ptr %p) {
  %v = call i32 @tmpl(i32 1)
  store i32 %v, ptr %p
  ret void
}
define ptx_kernel void @b(ptr %p) {
  %v = call i32 @tmpl(i32 2)
  store i32 %v, ptr %p
  ret void
}
define ptx_kernel void @c(ptr %p) {
  %v = call i32 @big(i32 1)
  store i32 %v, ptr %p
  ret void
}
define ptx_kernel void @d(ptr %p) {
  %v = call i32 @big(i32 2)
  store i32 %v, ptr %p
  ret void
}
define ptx_kernel void @e(ptr %p) {
  %v = call i32 @tiny(i32 1)
  store i32 %v, ptr %p
  ret void
}
define ptx_kernel void @f(ptr %p) {
  %v = call i32 @tiny(i32 2)
  %s = load i8, ptr @str
  store i32 %v, ptr %p
  ret void
}
define ptx_kernel void @g1(ptr %p) {
  store i32 1, ptr addrspace(1) @g
  ret void
}
define ptx_kernel void @h1(ptr %p) {
  %v = load i32, ptr addrspace(1) @g
  store i32 %v, ptr %p
  ret void
}
)";

std::unique_ptr<llvm::Module> parse(const char *Text, llvm::LLVMContext &Ctx) {
  llvm::SMDiagnostic Err;
  auto M = llvm::parseAssemblyString(Text, Err, Ctx);
  if (!M)
    ADD_FAILURE() << Err.getMessage().str();
  return M;
}

// Each piece as the sorted names of its functions, joined by ','.
std::multiset<std::string> names(const std::vector<Piece> &Pieces) {
  std::multiset<std::string> Out;
  for (const Piece &P : Pieces) {
    std::set<std::string> Names;
    for (const llvm::Function *F : P.Functions)
      Names.insert(F->getName().str());
    std::string Joined;
    for (const std::string &N : Names)
      Joined += (Joined.empty() ? "" : ",") + N;
    Out.insert(Joined);
  }
  return Out;
}

TEST(Pieces, KeepsTogetherWhatMayOptimiseTogether) {
  llvm::LLVMContext Ctx;
  auto M = parse(Module, Ctx);
  ASSERT_TRUE(M);
  // One group a piece.
  EXPECT_EQ(names(pieces(*M, 1)),
            (std::multiset<std::string>{"a,tmpl", "b,tmpl", "big,c,d", "e,tiny",
                                        "f,tiny", "g1,h1"}));
  // Large pieces hold every group, each function once.
  EXPECT_EQ(names(pieces(*M)),
            (std::multiset<std::string>{"a,b,big,c,d,e,f,g1,h1,tiny,tmpl"}));
}

TEST(Pieces, FunctionTableKeepsTheModuleWhole) {
  llvm::LLVMContext Ctx;
  auto M = parse(R"(
target triple = "nvptx64-nvidia-cuda"
@table = internal addrspace(1) constant [1 x ptr] [ptr @f]
define internal void @f() {
  ret void
}
define ptx_kernel void @a() {
  ret void
}
define ptx_kernel void @b() {
  %p = load ptr, ptr addrspace(1) @table
  call void %p()
  ret void
}
)",
                 Ctx);
  ASSERT_TRUE(M);
  EXPECT_EQ(names(pieces(*M, 1)), (std::multiset<std::string>{"a,b,f"}));
}

TEST(Pieces, CopyDefinesItsPieceAndDeclaresTheRest) {
  llvm::LLVMContext Ctx;
  auto M = parse(Module, Ctx);
  ASSERT_TRUE(M);
  for (const Piece &P : pieces(*M, 1)) {
    llvm::LLVMContext PieceCtx;
    std::unique_ptr<llvm::Module> Copy = copyInto(*M, P, PieceCtx);
    ASSERT_TRUE(Copy);
    EXPECT_EQ(&Copy->getContext(), &PieceCtx);
    for (const llvm::Function &F : *M) {
      const llvm::Function *C = Copy->getFunction(F.getName());
      if (P.contains(&F))
        EXPECT_TRUE(C && !C->isDeclaration()) << F.getName().str();
      else
        EXPECT_TRUE(!C || C->isDeclaration()) << F.getName().str();
    }
    // Variables are copied whole, with their initializers.
    const llvm::GlobalVariable *G = Copy->getGlobalVariable("g", true);
    EXPECT_TRUE(G && G->hasInitializer());
  }
}

} // namespace
