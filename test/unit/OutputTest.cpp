#include "Core/DiagSink.h"
#include "Output/Writers.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace warplint;

static Finding sample() {
  Finding F;
  F.Check = "warp-legacy-intrinsic";
  F.Level = Severity::Warning;
  F.Loc = {"k.cu", 3, 8};
  F.Message = "msg, with: 100% \"quotes\"\nand a newline";
  F.Archs = {"sm_60"};
  F.Fixes.push_back({"/abs/k.cu", 10, 4, "x", ""});
  F.Metrics.push_back({"sectors_per_request", 4});
  return F;
}

TEST(DiagSink, MergesDuplicates) {
  DiagSink S;
  EXPECT_TRUE(S.report(sample()).has_value());
  EXPECT_FALSE(S.report(sample()).has_value());
  Finding Other = sample();
  Other.Archs = {"sm_80"};
  EXPECT_TRUE(S.report(Other).has_value());
  EXPECT_EQ(S.findings().size(), 2u);
}

TEST(Output, JsonDocumentShape) {
  std::vector<Finding> Fs = {sample()};
  ToolError E;
  E.Loc.File = "k.cu";
  E.Loc.Line = 1;
  E.Loc.Column = 2;
  E.Message = "boom";
  std::vector<ToolError> Es = {E};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeJson({Fs, Es, {}}, OS);
  auto J = nlohmann::json::parse(Out);
  EXPECT_EQ(J["version"], 1);
  EXPECT_EQ(J["tool"], "warplint");
  ASSERT_EQ(J["findings"].size(), 1u);
  EXPECT_EQ(J["findings"][0]["check"], "warp-legacy-intrinsic");
  EXPECT_EQ(J["findings"][0]["line"], 3);
  EXPECT_EQ(J["findings"][0]["arch"], std::vector<std::string>{"sm_60"});
  EXPECT_EQ(J["findings"][0]["fixes"][0]["offset"], 10);
  EXPECT_EQ(J["findings"][0]["metrics"]["sectors_per_request"], 4);
  EXPECT_EQ(J["errors"][0]["message"], "boom");
}

TEST(Output, GithubEscapes) {
  std::vector<Finding> Fs = {sample()};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeGithub({Fs, {}, {}}, OS);
  EXPECT_EQ(
      Out.rfind(
          "::warning file=k.cu,line=3,col=8,title=warp-legacy-intrinsic::", 0),
      0u)
      << Out;
  EXPECT_NE(Out.find("100%25"), std::string::npos);
  EXPECT_NE(Out.find("%0Aand a newline"), std::string::npos);
  EXPECT_EQ(Out.find('\n'), Out.size() - 1); // one line
}

TEST(Output, PromotedWarningIsAnError) {
  Finding F = sample();
  F.PromotedToError = true;
  std::vector<Finding> Fs = {F};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeText({Fs, {}, {}}, OS);
  EXPECT_NE(Out.find("k.cu:3:8: error: "), std::string::npos) << Out;
  EXPECT_NE(Out.find("[warp-legacy-intrinsic,-warnings-as-errors]"),
            std::string::npos);
}

// One finding per site and verdict across the targets of a run.
TEST(DiagSink, MergesTargetsWithTheSameVerdict) {
  DiagSink S;
  auto At = [](const char *Arch, std::string Message, Severity L) {
    Finding F;
    F.Check = "warp-legacy-intrinsic";
    F.Level = L;
    F.Loc = {"k.cu", 3, 8};
    F.Message = std::move(Message);
    F.Archs = {Arch};
    FindingNote N;
    N.Loc.File = "k.cu";
    N.Loc.Line = 2;
    N.Message = std::string("judged for ") + Arch;
    F.Notes.push_back(N);
    return F;
  };
  // The target's name also stands for a fixed architecture on sm_70.
  S.report(At("sm_90", "removed on sm_70 and later (target sm_90)",
              Severity::Error));
  S.report(At("sm_70", "removed on sm_70 and later (target sm_70)",
              Severity::Error));
  S.report(At("sm_60", "deprecated (target sm_60)", Severity::Warning));
  S.report(At("sm_80", "removed on sm_70 and later (target sm_80)",
              Severity::Error));
  S.mergeTargets();
  ASSERT_EQ(S.findings().size(), 2u);
  const Finding &Merged = S.findings()[0];
  EXPECT_EQ(Merged.Archs, (std::vector<std::string>{"sm_70", "sm_80", "sm_90"}));
  EXPECT_EQ(Merged.Message,
            "removed on sm_70 and later (target sm_70, sm_80 and sm_90)");
  EXPECT_EQ(Merged.Notes.front().Message,
            "judged for sm_70, sm_80 and sm_90");
  EXPECT_EQ(S.findings()[1].Message, "deprecated (target sm_60)");
  EXPECT_EQ(S.findings()[1].Archs, std::vector<std::string>{"sm_60"});
}

TEST(DiagSink, MergesTargetsWhoseNumbersDiffer) {
  DiagSink S;
  // "FP64 at 1:%0 on %1", the ratio marked per target.
  auto At = [](const char *Arch, const char *Ratio, double Metric) {
    Finding F;
    F.Check = "arith-fp64-promotion";
    F.Loc = {"k.cu", 4, 2};
    std::string Head = "double math on ";
    F.Message = Head + Arch + " (FP64 at " + Ratio + ")";
    F.TargetSpans = {{Head.size() + strlen(Arch) + 10, strlen(Ratio)}};
    F.Archs = {Arch};
    F.Metrics = {{"fp64_ratio", Metric}};
    return F;
  };
  S.report(At("sm_75", "1:64", 1.0 / 64));
  S.report(At("sm_61", "1:32", 1.0 / 32));
  S.report(At("sm_86", "1:64", 1.0 / 64));
  S.mergeTargets();
  ASSERT_EQ(S.findings().size(), 1u);
  const Finding &F = S.findings().front();
  EXPECT_EQ(F.Message,
            "double math on sm_61, sm_75 and sm_86 (FP64 at 1:32, 1:64 and "
            "1:64)");
  EXPECT_EQ(F.Archs, (std::vector<std::string>{"sm_61", "sm_75", "sm_86"}));
  ASSERT_EQ(F.MetricsByArch.size(), 3u);
  EXPECT_EQ(F.MetricsByArch.at("sm_61").front().second, 1.0 / 32);
  EXPECT_EQ(F.Metrics.front().second, 1.0 / 32); // the oldest target's

  // The same values everywhere: said once, no per-target metrics.
  DiagSink T;
  T.report(At("sm_75", "1:64", 1.0 / 64));
  T.report(At("sm_86", "1:64", 1.0 / 64));
  T.mergeTargets();
  ASSERT_EQ(T.findings().size(), 1u);
  EXPECT_EQ(T.findings().front().Message,
            "double math on sm_75 and sm_86 (FP64 at 1:64)");
  EXPECT_TRUE(T.findings().front().MetricsByArch.empty());

  // JSON keeps each target's numbers.
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  Report R{S.findings(), {}, {}};
  writeReport(OutputFormat::Json, R, OS);
  auto J = nlohmann::json::parse(Out);
  EXPECT_EQ(J["findings"][0]["metrics_by_arch"]["sm_86"]["fp64_ratio"],
            1.0 / 64);
}
