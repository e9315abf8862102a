// The shared body walk: its order, its skips (lambdas, unevaluated operands,
// nested declarations) and its controls (prune, stop, the ancestors).
#include "Analysis/BodyWalk.h"
#include "CudaAst.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using namespace warplint;

namespace {

const char *Prelude = "__device__ int a();\n"
                      "__device__ int b(int);\n"
                      "__device__ int c();\n"
                      "__device__ int inLambda();\n"
                      "__device__ int inSizeof();\n"
                      "__device__ int inTypeid();\n"
                      "__device__ int inLocalClass();\n";

struct Body {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *Fn = nullptr;

  explicit Body(llvm::StringRef Code)
      : AST(parseCuda(std::string(Prelude) + Code.str())) {
    auto M = match(functionDecl(hasName("f"), isDefinition()).bind("f"),
                   AST->getASTContext());
    if (!M.empty())
      Fn = M[0].getNodeAs<FunctionDecl>("f");
  }

  // The functions called in f's body, in the order the walk sees the calls.
  std::vector<std::string> calls(const WalkOptions &Options = WalkOptions()) {
    std::vector<std::string> Out;
    forEachStmt(Fn->getBody(), Options, [&](const Stmt *S) {
      if (const auto *Call = dyn_cast<CallExpr>(S))
        if (const FunctionDecl *Callee = Call->getDirectCallee())
          Out.push_back(Callee->getNameAsString());
    });
    return Out;
  }
};

using Names = std::vector<std::string>;

} // namespace

TEST(BodyWalk, PreOrderInSourceOrder) {
  Body B("__device__ void f() { a(); if (b(c())) a(); int x = c(); }");
  ASSERT_TRUE(B.Fn);
  EXPECT_EQ(B.calls(), (Names{"a", "b", "c", "a", "c"}));
}

TEST(BodyWalk, LambdasOnlyWhenAsked) {
  Body B("__device__ void f() { auto l = [&] { return inLambda(); }; "
         "a(); (void)l; }");
  ASSERT_TRUE(B.Fn);
  EXPECT_EQ(B.calls(), (Names{"a"}));
  EXPECT_EQ(B.calls(WalkOptions().enterLambdas()), (Names{"inLambda", "a"}));
}

TEST(BodyWalk, UnevaluatedOperandsUnlessSkipped) {
  Body B("__device__ void f() { unsigned n = sizeof(inSizeof()) + "
         "alignof(decltype(inSizeof())); a(); (void)n; }");
  ASSERT_TRUE(B.Fn);
  // decltype is a type: never walked, whatever the options.
  EXPECT_EQ(B.calls(), (Names{"inSizeof", "a"}));
  EXPECT_EQ(B.calls(WalkOptions().skipSizeof()), (Names{"a"}));
  EXPECT_EQ(B.calls(WalkOptions().skipTypeid()), (Names{"inSizeof", "a"}));
}

TEST(BodyWalk, TypeidOperandsUnlessSkipped) {
  Body B("#include <typeinfo>\n"
         "__device__ void f() { (void)typeid(inTypeid()); a(); }");
  ASSERT_TRUE(B.Fn);
  EXPECT_EQ(B.calls(), (Names{"inTypeid", "a"}));
  EXPECT_EQ(B.calls(WalkOptions().skipTypeid()), (Names{"a"}));
  EXPECT_EQ(B.calls(WalkOptions().skipSizeof()), (Names{"inTypeid", "a"}));
}

TEST(BodyWalk, NestedDeclarationsAreNotEntered) {
  Body B("__device__ void f() { struct Local { __device__ int m() { return "
         "inLocalClass(); } }; int x = a(); (void)x; }");
  ASSERT_TRUE(B.Fn);
  EXPECT_EQ(B.calls(WalkOptions().enterLambdas()), (Names{"a"}));
}

TEST(BodyWalk, SkipChildrenPrunesOneSubtree) {
  Body B("__device__ void f() { if (a()) { b(c()); } c(); }");
  ASSERT_TRUE(B.Fn);
  Names Seen;
  forEachStmt(B.Fn->getBody(), [&](const Stmt *S) {
    if (isa<IfStmt>(S))
      return WalkStep::SkipChildren;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Seen.push_back(Call->getDirectCallee()->getNameAsString());
    return WalkStep::Continue;
  });
  EXPECT_EQ(Seen, (Names{"c"}));
}

TEST(BodyWalk, StopEndsTheWalk) {
  Body B("__device__ void f() { a(); b(1); c(); }");
  ASSERT_TRUE(B.Fn);
  Names Seen;
  bool Finished = forEachStmt(B.Fn->getBody(), [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return WalkStep::Continue;
    Seen.push_back(Call->getDirectCallee()->getNameAsString());
    return Seen.size() == 2 ? WalkStep::Stop : WalkStep::Continue;
  });
  EXPECT_FALSE(Finished);
  EXPECT_EQ(Seen, (Names{"a", "b"}));
  EXPECT_TRUE(forEachStmt(B.Fn->getBody(), [](const Stmt *) {}));
}

TEST(BodyWalk, AncestorsOutermostFirst) {
  Body B("__device__ void f() { if (a()) { c(); } }");
  ASSERT_TRUE(B.Fn);
  std::vector<const Stmt *> Up;
  forEachStmt(B.Fn->getBody(),
              [&](const Stmt *S, llvm::ArrayRef<const Stmt *> Parents) {
                const auto *Call = dyn_cast<CallExpr>(S);
                if (Call && Call->getDirectCallee()->getName() == "c")
                  Up.assign(Parents.begin(), Parents.end());
              });
  ASSERT_EQ(Up.size(), 3u);
  EXPECT_EQ(Up[0], B.Fn->getBody());
  EXPECT_TRUE(isa<IfStmt>(Up[1]));
  EXPECT_TRUE(isa<CompoundStmt>(Up[2]));
}

TEST(BodyWalk, FindAndContains) {
  Body B("__device__ void f() { auto l = [] { return inLambda(); }; "
         "b(c()); (void)l; }");
  ASSERT_TRUE(B.Fn);
  auto IsCallOf = [](llvm::StringRef Name) {
    return [Name](const Stmt *S) {
      const auto *Call = dyn_cast<CallExpr>(S);
      return Call && Call->getDirectCallee() &&
             Call->getDirectCallee()->getName() == Name;
    };
  };
  const Stmt *InLambda = findStmt(B.Fn->getBody(), WalkOptions().enterLambdas(),
                                  IsCallOf("inLambda"));
  ASSERT_TRUE(InLambda);
  EXPECT_FALSE(findStmt(B.Fn->getBody(), WalkOptions(), IsCallOf("inLambda")));
  EXPECT_FALSE(containsStmt(B.Fn->getBody(), InLambda));
  EXPECT_TRUE(
      containsStmt(B.Fn->getBody(), InLambda, WalkOptions().enterLambdas()));
  const Stmt *C = findStmt(B.Fn->getBody(), WalkOptions(), IsCallOf("c"));
  const Stmt *Bc = findStmt(B.Fn->getBody(), WalkOptions(), IsCallOf("b"));
  ASSERT_TRUE(C && Bc);
  EXPECT_TRUE(containsStmt(Bc, C));
  EXPECT_FALSE(containsStmt(C, Bc));
}
