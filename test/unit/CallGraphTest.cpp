// The TU's call graph: which function a call belongs to (templates as
// written and instantiated, lambdas, local classes), and what it leaves out
// (the system headers' bodies).
#include "Analysis/CallGraph.h"
#include "CudaAst.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using namespace warplint;

namespace {

struct Graph {
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<CallGraphView> G;

  explicit Graph(llvm::StringRef Code) : AST(parseCuda(Code)) {
    G = std::make_unique<CallGraphView>(AST->getASTContext());
  }

  const FunctionDecl *function(llvm::StringRef Name) {
    auto M = match(functionDecl(hasName(Name)).bind("f"), AST->getASTContext());
    return M.empty() ? nullptr : M[0].getNodeAs<FunctionDecl>("f");
  }

  // The callers of Name: each caller's name, "<...>" added for a template
  // instantiation, "(template)" for a template as written.
  std::vector<std::string> callersOf(llvm::StringRef Name) {
    std::vector<std::string> Out;
    for (const CallSite &S : G->callers(function(Name))) {
      std::string Caller = S.Caller->getNameAsString();
      if (S.Caller->isTemplateInstantiation())
        Caller += "<...>";
      else if (S.Caller->getDescribedFunctionTemplate())
        Caller += " (template)";
      Out.push_back(Caller);
    }
    return Out;
  }
};

using Names = std::vector<std::string>;

} // namespace

TEST(CallGraph, TemplatesAsWrittenAndInstantiated) {
  Graph G("__device__ void helper() {}\n"
          "template <int N> __device__ void used() { helper(); }\n"
          "template <int N> __device__ void never() { helper(); }\n"
          "__device__ void user() { used<4>(); }\n");
  // clang::CallGraph would know only used<4>: a template as written has no
  // node there, and a template never instantiated none at all.
  EXPECT_EQ(G.callersOf("helper"),
            (Names{"used (template)", "used<...>", "never (template)"}));
}

TEST(CallGraph, LambdaCallsBelongToTheEnclosingFunction) {
  Graph G("__device__ void helper() {}\n"
          "__device__ void outer() { auto l = [] { helper(); }; l(); }\n");
  EXPECT_EQ(G.callersOf("helper"), (Names{"outer"}));
  const FunctionDecl *Outer = G.function("outer");
  ASSERT_TRUE(Outer);
  llvm::ArrayRef<CallSite> Calls = G.G->callees(Outer);
  ASSERT_EQ(Calls.size(), 2u);
  EXPECT_EQ(Calls[0].Callee->getName(), "helper");
  EXPECT_EQ(Calls[1].Callee->getOverloadedOperator(), OO_Call); // l()
}

TEST(CallGraph, LocalClassMethodsAreCallersOfTheirOwn) {
  Graph G("__device__ void helper() {}\n"
          "__device__ void outer() {\n"
          "  struct Local { __device__ void m() { helper(); } };\n"
          "  Local().m();\n"
          "}\n");
  EXPECT_EQ(G.callersOf("helper"), (Names{"m"}));
  EXPECT_EQ(G.callersOf("m"), (Names{"outer"}));
}

TEST(CallGraph, SystemHeadersAreNotWalked) {
  Graph G("__device__ void helper() {}\n"
          "# 1 \"sys.h\" 1 3\n"
          "inline __device__ void library() { helper(); }\n"
          "# 4 \"input.cu\" 2\n"
          "__device__ void user() { library(); helper(); }\n");
  EXPECT_EQ(G.callersOf("helper"), (Names{"user"}));
  EXPECT_EQ(G.callersOf("library"), (Names{"user"}));
  const FunctionDecl *Library = G.function("library");
  ASSERT_TRUE(Library);
  EXPECT_TRUE(G.G->callees(Library).empty());
}

TEST(CallGraph, CallsInOrderWithUnresolvedCallees) {
  Graph G("__device__ int a() { return 1; }\n"
          "__device__ int b(int x) { return x; }\n"
          "__device__ int user(int (*p)()) { return b(a()) + p(); }\n");
  const FunctionDecl *User = G.function("user");
  ASSERT_TRUE(User);
  llvm::ArrayRef<CallSite> Calls = G.G->callees(User);
  ASSERT_EQ(Calls.size(), 3u);
  EXPECT_EQ(Calls[0].Callee->getName(), "b");
  EXPECT_EQ(Calls[1].Callee->getName(), "a");
  EXPECT_EQ(Calls[2].Callee, nullptr); // through a pointer
  for (const CallSite &S : Calls)
    EXPECT_EQ(S.Caller, User);
}
