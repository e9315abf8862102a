// The language server's focused pass: which bodies an edit lets it skip, and
// how the last full analysis's findings move with the edit.
#include "Driver/Focus.h"
#include "CudaAst.h"
#include "clang/AST/ASTContext.h"
#include <gtest/gtest.h>

using namespace warplint;

namespace {

const char *const Source =
    R"cu(__device__ float twice(float v) { return 2 * v; }
__global__ void scale(float *a) {
  a[threadIdx.x] = twice(a[threadIdx.x]);
}
__global__ void other(float *a) {
  a[threadIdx.x * 2] = 0;
}
void setup(float *a) {
  int unrelated = 0;
}
void launch(float *a) {
  scale<<<1, 128>>>(a);
  other<<<1, 128>>>(a);
}
)cu";

struct Parsed {
  std::unique_ptr<clang::ASTUnit> AST;
  FullAnalysis Last;
};

Parsed parse(std::string Text) {
  Parsed P;
  P.AST = parseCuda(Text);
  std::vector<clang::Decl *> Top;
  for (auto It = P.AST->top_level_begin(); It != P.AST->top_level_end(); ++It)
    if (P.AST->getSourceManager().isInMainFile((*It)->getLocation()))
      Top.push_back(*It);
  P.Last.Text = std::move(Text);
  P.Last.Bodies = mainFileBodies(Top, P.AST->getASTContext());
  return P;
}

unsigned at(llvm::StringRef Text, llvm::StringRef Name) {
  return Text.find(Name);
}

std::string edited(std::string Text, llvm::StringRef After,
                   llvm::StringRef Insert) {
  Text.insert(Text.find(After) + After.size(), Insert.str());
  return Text;
}

Finding findingAt(unsigned Line, unsigned Column, std::string Message) {
  Finding F;
  F.Check = "memory-uncoalesced-access";
  F.Loc = {"input.cu", Line, Column};
  F.Message = std::move(Message);
  return F;
}

} // namespace

TEST(Focus, BodiesAndWhatTheyName) {
  Parsed P = parse(Source);
  const std::string &T = P.Last.Text;
  ASSERT_EQ(P.Last.Bodies.size(), 5u);
  const BodySpan &Scale = P.Last.Bodies[1];
  EXPECT_EQ(Scale.Name, at(T, "scale"));
  EXPECT_EQ(T[Scale.Begin], '{');
  EXPECT_EQ(T[Scale.End - 1], '}');
  EXPECT_EQ(Scale.Refs, std::vector<unsigned>{at(T, "twice")});
  const BodySpan &Launch = P.Last.Bodies[4];
  EXPECT_EQ(Launch.Refs,
            (std::vector<unsigned>{at(T, "scale"), at(T, "other(float")}));
}

TEST(Focus, AnEditInAKernelParsesItsHelpersAndLaunchers) {
  Parsed P = parse(Source);
  std::string New = edited(P.Last.Text, "twice(a[threadIdx.x]);", "\n  ;");
  std::optional<Focus> F = Focus::plan(P.Last, New);
  ASSERT_TRUE(F);
  // Parsed: scale itself, twice (it calls), launch (it launches scale).
  EXPECT_FALSE(F->skipsBodyNamedAt(at(New, "scale")));
  EXPECT_FALSE(F->skipsBodyNamedAt(at(New, "twice")));
  EXPECT_FALSE(F->skipsBodyNamedAt(at(New, "launch")));
  // Skipped: the other kernel and the host function that names no kernel,
  // after the edit, at their new offsets.
  EXPECT_TRUE(F->skipsBodyNamedAt(at(New, "other(float")));
  EXPECT_TRUE(F->skipsBodyNamedAt(at(New, "setup")));
  EXPECT_EQ(F->skippedBodies(), 2u);
}

TEST(Focus, NoFocusOutsideABody) {
  Parsed P = parse(Source);
  // Between two functions: a new declaration may change anything.
  std::string New =
      edited(P.Last.Text, "}\n__global__ void other", "\nint added;");
  EXPECT_FALSE(Focus::plan(P.Last, New));
  // Across two bodies.
  New = P.Last.Text;
  New.replace(at(New, "2 * v"), at(New, "threadIdx.x]);") - at(New, "2 * v"),
              "v; }\n__global__ void scale(float *a) {\n  a[");
  EXPECT_FALSE(Focus::plan(P.Last, New));
}

TEST(Focus, FindingsMoveWithTheEdit) {
  Parsed P = parse(Source);
  // The last full analysis: one finding in the edited kernel, one in the
  // other kernel below it, one error in a skipped body.
  P.Last.Findings = {findingAt(3, 3, "old in scale"),
                     findingAt(6, 3, "in other")};
  ToolError E;
  E.Loc = {"input.cu", 9, 7};
  E.Message = "an error in setup";
  P.Last.Errors = {E};
  std::string New =
      edited(P.Last.Text, "twice(a[threadIdx.x]);", "\n  a[0] = 1;\n  ;");
  std::optional<Focus> F = Focus::plan(P.Last, New);
  ASSERT_TRUE(F);
  // The focused pass found: a new finding in scale, one in other (whose
  // body it did not parse: not taken), one at the edit.
  std::vector<Finding> Found = {findingAt(3, 3, "new in scale"),
                                findingAt(4, 3, "at the edit"),
                                findingAt(8, 3, "in other, unparsed")};
  std::vector<ToolError> Errors;
  F->merge(P.Last, New, Found, Errors);
  ASSERT_EQ(Found.size(), 3u);
  EXPECT_EQ(Found[0].Message, "new in scale");
  EXPECT_EQ(Found[1].Message, "at the edit");
  EXPECT_EQ(Found[2].Message, "in other");
  EXPECT_EQ(Found[2].Loc.Line, 8u); // two lines down
  EXPECT_EQ(Found[2].Loc.Column, 3u);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0].Loc.Line, 11u);
}

TEST(Focus, AnUnchangedTextSkipsEveryBody) {
  Parsed P = parse(Source);
  P.Last.Findings = {findingAt(6, 3, "in other")};
  std::optional<Focus> F = Focus::plan(P.Last, P.Last.Text);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->skippedBodies(), 5u);
  std::vector<Finding> Found;
  std::vector<ToolError> Errors;
  F->merge(P.Last, P.Last.Text, Found, Errors);
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Found[0].Loc.Line, 6u);
}
