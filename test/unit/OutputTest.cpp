#include "Core/DiagSink.h"
#include "Core/FindingJSON.h"
#include "Output/Writers.h"
#include <functional>
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
  EXPECT_EQ(Merged.Archs,
            (std::vector<std::string>{"sm_70", "sm_80", "sm_90"}));
  EXPECT_EQ(Merged.Message,
            "removed on sm_70 and later (target sm_70, sm_80 and sm_90)");
  EXPECT_EQ(Merged.Notes.front().Message, "judged for sm_70, sm_80 and sm_90");
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

// Two findings for one target at one place come from two instantiations of
// a template: they are not merged as if they were two targets.
TEST(DiagSink, KeepsInstantiationsOfOneTargetApart) {
  DiagSink S;
  auto At = [](const char *Arch, const char *Registers) {
    Finding F;
    F.Check = "launch-block-size";
    F.Loc = {"k.cu", 9, 16};
    std::string Head = std::string("too small on ") + Arch + " (";
    F.Message = Head + Registers + " registers)";
    F.TargetSpans = {{Head.size(), strlen(Registers)}};
    F.Archs = {Arch};
    return F;
  };
  S.report(At("sm_80", "19"));
  S.report(At("sm_80", "22"));
  S.report(At("sm_90", "20"));
  S.mergeTargets();
  ASSERT_EQ(S.findings().size(), 2u);
  EXPECT_EQ(S.findings()[0].Message, "too small on sm_80 and sm_90 (19 and 20 "
                                     "registers)");
  EXPECT_EQ(S.findings()[1].Message, "too small on sm_80 (22 registers)");
}

// The one reader and writer of a finding's JSON (Core/FindingJSON.h): the
// cache's form reads back whole, the report's keeps --format=json's fields.
TEST(FindingJSON, CompleteFormReadsBackWhole) {
  Finding F = sample();
  F.PromotedToError = true;
  F.Function = "ns::k";
  FindingNote N;
  N.Loc = {"k.cu", 2, 1};
  N.Message = "a note";
  F.Notes.push_back(N);
  F.Fixes.front().FileHash = "0123abcd";
  F.Metrics.push_back({"ratio", 1.0 / 3});
  F.MetricsByArch["sm_60"] = {{"ratio", 0.25}};
  F.MetricsByArch["sm_80"] = {};
  auto J = findingToJson(F, FindingJSONForm::Complete);
  auto Back = findingFromJson(nlohmann::ordered_json::parse(J.dump()));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Check, F.Check);
  EXPECT_EQ(Back->Level, Severity::Warning);
  EXPECT_TRUE(Back->PromotedToError);
  EXPECT_EQ(Back->Loc.File, "k.cu");
  EXPECT_EQ(Back->Loc.Line, 3u);
  EXPECT_EQ(Back->Loc.Column, 8u);
  EXPECT_EQ(Back->Message, F.Message);
  EXPECT_EQ(Back->Archs, F.Archs);
  EXPECT_EQ(Back->Function, "ns::k");
  ASSERT_EQ(Back->Notes.size(), 1u);
  EXPECT_EQ(Back->Notes[0].Loc.Line, 2u);
  EXPECT_EQ(Back->Notes[0].Message, "a note");
  ASSERT_EQ(Back->Fixes.size(), 1u);
  EXPECT_EQ(Back->Fixes[0].File, "/abs/k.cu");
  EXPECT_EQ(Back->Fixes[0].Offset, 10u);
  EXPECT_EQ(Back->Fixes[0].Length, 4u);
  EXPECT_EQ(Back->Fixes[0].Replacement, "x");
  EXPECT_EQ(Back->Fixes[0].FileHash, "0123abcd");
  EXPECT_EQ(Back->Metrics, F.Metrics); // 1/3 exactly
  EXPECT_EQ(Back->MetricsByArch, F.MetricsByArch);
  EXPECT_EQ(findingToJson(*Back, FindingJSONForm::Complete), J);
}

TEST(FindingJSON, ReportFormIsTheReportsFinding) {
  Finding F = sample();
  F.PromotedToError = true;
  F.Function = "ns::k";
  F.Fixes.front().FileHash = "0123abcd";
  auto J = findingToJson(F);
  std::vector<std::string> Keys;
  for (const auto &[Key, Value] : J.items())
    Keys.push_back(Key);
  EXPECT_EQ(Keys, (std::vector<std::string>{"check", "severity", "file", "line",
                                            "column", "message", "arch",
                                            "notes", "fixes", "metrics"}));
  EXPECT_EQ(J["severity"], "error"); // after --warnings-as-errors
  EXPECT_FALSE(J["fixes"][0].contains("file_hash"));
  // Read back: the severity as reported; what it leaves out, empty.
  auto Back = findingFromJson(J);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->effectiveLevel(), Severity::Error);
  EXPECT_TRUE(Back->Function.empty());
  EXPECT_TRUE(Back->Fixes[0].FileHash.empty());
  // A target without numbers is not named in a report.
  F.MetricsByArch["sm_60"] = {{"ratio", 0.25}};
  F.MetricsByArch["sm_80"] = {};
  EXPECT_EQ(findingToJson(F)["metrics_by_arch"].dump(),
            R"({"sm_60":{"ratio":0.25}})");
}

TEST(FindingJSON, WhatDoesNotReadBackIsAnError) {
  using OJ = nlohmann::ordered_json;
  const OJ Good = findingToJson(sample(), FindingJSONForm::Complete);
  std::vector<std::function<void(OJ &)>> Breaks = {
      [](OJ &J) { J = OJ::array(); },
      [](OJ &J) { J.erase("check"); },
      [](OJ &J) { J["check"] = 1; },
      [](OJ &J) { J["severity"] = "fatal"; },
      [](OJ &J) { J["level"] = 2; },
      [](OJ &J) { J["line"] = -1; },
      [](OJ &J) { J["line"] = "3"; },
      [](OJ &J) { J["column"] = 1.5; },
      [](OJ &J) { J["line"] = 1ull << 32; },
      [](OJ &J) { J["arch"] = OJ::array({1}); },
      [](OJ &J) { J["notes"] = OJ::array({1}); },
      [](OJ &J) { J["notes"] = OJ::object(); },
      [](OJ &J) { J["fixes"][0].erase("offset"); },
      [](OJ &J) { J["fixes"][0]["file_hash"] = nullptr; },
      [](OJ &J) { J["metrics"] = OJ::array(); },
      [](OJ &J) { J["metrics"]["x"] = "y"; },
      [](OJ &J) { J["metrics_by_arch"] = OJ::object({{"sm_60", 1}}); },
      [](OJ &J) { J["promoted"] = "yes"; },
      [](OJ &J) { J["function"] = OJ::array(); },
  };
  for (size_t I = 0; I < Breaks.size(); ++I) {
    OJ J = Good;
    Breaks[I](J);
    auto F = findingFromJson(J);
    EXPECT_FALSE(bool(F)) << "break " << I;
    if (!F)
      llvm::consumeError(F.takeError());
  }
  EXPECT_TRUE(bool(findingFromJson(Good)));
}
