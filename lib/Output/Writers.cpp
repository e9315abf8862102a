#include "Output/Writers.h"
#include "Core/FindingJSON.h"
#include "Output/Fingerprint.h"
#include "Output/SourceLines.h"
#include "Support/JsonText.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

using json = nlohmann::ordered_json;

namespace warplint {

namespace {

void writeTextDiag(llvm::raw_ostream &OS, SourceLines &Src, const Location &L,
                   llvm::StringRef Level, llvm::StringRef Message,
                   llvm::StringRef Tag) {
  if (!L.File.empty()) {
    OS << L.File;
    if (L.Line)
      OS << ":" << L.Line << ":" << L.Column;
    OS << ": ";
  }
  OS << Level << ": " << Message;
  if (!Tag.empty())
    OS << " [" << Tag << "]";
  OS << "\n";
  if (!L.Line)
    return;
  llvm::StringRef Text = Src.line(L.File, L.Line);
  if (Text.empty())
    return;
  std::string Gutter = llvm::formatv("{0,5} | ", L.Line).str();
  OS << Gutter << Text << "\n";
  OS << std::string(Gutter.size() - 2, ' ') << "| ";
  // Keep tabs so the caret lines up under the source.
  for (unsigned I = 0; I + 1 < L.Column && I < Text.size(); ++I)
    OS << (Text[I] == '\t' ? '\t' : ' ');
  OS << "^\n";
}

std::string fileUri(const std::string &File) {
  std::string Path = File;
  std::replace(Path.begin(), Path.end(), '\\', '/');
  std::string Out;
  for (char C : Path) {
    if (isalnum((unsigned char)C) || llvm::StringRef("/-._~").contains(C))
      Out += C;
    else
      Out += llvm::formatv("%{0:X-2}", (unsigned)(unsigned char)C).str();
  }
  return llvm::sys::path::is_absolute(File) ? "file://" + Out : Out;
}

json locationJson(const Location &L) {
  return {{"file", L.File}, {"line", L.Line}, {"column", L.Column}};
}

} // namespace

void writeText(const Report &R, llvm::raw_ostream &OS) {
  SourceLines Src;
  for (const ToolError &E : R.Errors)
    writeTextDiag(OS, Src, E.Loc, "error", E.Message,
                  E.FromCompiler ? "clang-diagnostic-error" : "");
  for (const Finding &F : R.Findings) {
    std::string Tag = F.Check;
    if (F.PromotedToError)
      Tag += ",-warnings-as-errors";
    writeTextDiag(OS, Src, F.Loc, severityName(F.effectiveLevel()), F.Message,
                  Tag);
    for (const FindingNote &N : F.Notes)
      writeTextDiag(OS, Src, N.Loc, "note", N.Message, "");
  }
}

void writeJson(const Report &R, llvm::raw_ostream &OS) {
  json Findings = json::array();
  for (const Finding &F : R.Findings)
    Findings.push_back(findingToJson(F));
  json Errors = json::array();
  for (const ToolError &E : R.Errors) {
    json J = locationJson(E.Loc);
    J["message"] = E.Message;
    Errors.push_back(J);
  }
  json Doc = {{"version", 1},
              {"tool", "warplint"},
              {"findings", Findings},
              {"errors", Errors}};
  OS << jsonText(Doc, 2) << "\n";
}

static const char *sarifLevel(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "warning";
}

namespace {

// Where a report's paths are written from, and its fingerprints.
struct ReportContext {
  ReportContext(const Report &R) : Root(absolutePath(R.SourceRoot)) {
    if (R.Fingerprints.size() == R.Findings.size())
      Fingerprints.assign(R.Fingerprints.begin(), R.Fingerprints.end());
    else
      Fingerprints = fingerprints(R.Findings, Root, Src);
  }
  std::string Root;
  SourceLines Src;
  std::vector<std::string> Fingerprints;
};

// A byte column (clang's) as UTF-16 code units, SARIF's default columnKind.
unsigned utf16Column(llvm::StringRef Line, unsigned ByteColumn) {
  unsigned Units = 1;
  for (unsigned I = 0; I + 1 < ByteColumn && I < Line.size(); ++I) {
    unsigned char C = Line[I];
    if ((C & 0xC0) == 0x80)
      continue;                 // a continuation byte
    Units += C >= 0xF0 ? 2 : 1; // four-byte sequences are surrogate pairs
  }
  return Units;
}

json sarifLocation(const Location &L, ReportContext &C) {
  json Artifact;
  std::string Below = L.File.empty() ? "" : pathBelow(L.File, C.Root);
  if (!Below.empty())
    Artifact = {{"uri", fileUri(Below)}, {"uriBaseId", "%SRCROOT%"}};
  else
    Artifact = {{"uri", fileUri(absolutePath(L.File))}};
  json Phys = {{"artifactLocation", Artifact}};
  if (L.Line)
    Phys["region"] = {{"startLine", L.Line},
                      {"startColumn", utf16Column(C.Src.line(L.File, L.Line),
                                                  std::max(1u, L.Column))}};
  return {{"physicalLocation", Phys}};
}

// The doc page as plain text for help.text: markdown's marks taken off.
std::string plainText(llvm::StringRef Markdown) {
  std::string Out;
  for (llvm::StringRef Line : llvm::split(Markdown, '\n')) {
    Line = Line.rtrim("\r");
    if (Line.starts_with("```"))
      continue;
    Line = Line.ltrim('#').ltrim();
    for (char Ch : Line)
      if (Ch != '`' && Ch != '*')
        Out += Ch;
    Out += '\n';
  }
  return llvm::StringRef(Out).trim().str() + "\n";
}

} // namespace

void writeSarif(const Report &R, llvm::raw_ostream &OS) {
  ReportContext C(R);
  json Rules = json::array();
  std::map<std::string, size_t> RuleIndex;
  for (const RuleInfo &Rule : R.Rules) {
    RuleIndex[Rule.Id] = Rules.size();
    json J = {{"id", Rule.Id},
              {"name", Rule.Name},
              {"shortDescription", {{"text", Rule.Summary}}}};
    if (!Rule.HelpMarkdown.empty())
      J["help"] = {{"text", plainText(Rule.HelpMarkdown)},
                   {"markdown", Rule.HelpMarkdown}};
    if (!Rule.HelpUri.empty())
      J["helpUri"] = Rule.HelpUri;
    Rules.push_back(J);
  }
  json Results = json::array();
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const Finding &F = R.Findings[I];
    json J = {{"ruleId", F.Check}};
    if (RuleIndex.count(F.Check))
      J["ruleIndex"] = RuleIndex[F.Check];
    J["level"] = sarifLevel(F.effectiveLevel());
    J["message"] = {{"text", F.Message}};
    J["locations"] = json::array({sarifLocation(F.Loc, C)});
    J["partialFingerprints"] = {{"warplint/v1", C.Fingerprints[I]}};
    if (!F.Notes.empty()) {
      json Related = json::array();
      int Id = 1;
      for (const FindingNote &N : F.Notes) {
        json L = sarifLocation(N.Loc, C);
        L["id"] = Id++;
        L["message"] = {{"text", N.Message}};
        Related.push_back(L);
      }
      J["relatedLocations"] = Related;
    }
    if (!F.Fixes.empty()) {
      std::map<std::string, json> PerFile;
      for (const FixEdit &E : F.Fixes)
        PerFile[E.File].push_back(
            {{"deletedRegion",
              {{"charOffset", E.Offset}, {"charLength", E.Length}}},
             {"insertedContent", {{"text", E.Replacement}}}});
      json Changes = json::array();
      for (auto &[File, Reps] : PerFile)
        Changes.push_back(
            {{"artifactLocation",
              sarifLocation({File, 0, 0},
                            C)["physicalLocation"]["artifactLocation"]},
             {"replacements", Reps}});
      J["fixes"] =
          json::array({{{"description", {{"text", "apply the suggested fix"}}},
                        {"artifactChanges", Changes}}});
    }
    // SARIF's rank (0-100): the share of the kernel's cost the fix saves,
    // where the check estimates it, for sorting and gating.
    for (const auto &[Name, Value] : F.Metrics)
      if (Name == "saving_pct")
        J["rank"] = std::clamp(std::round(Value * 10) / 10, 0.0, 100.0);
    json Props = json::object();
    if (!F.Archs.empty())
      Props["arch"] = F.Archs;
    for (const auto &[Name, Value] : F.Metrics)
      Props[Name] = Value;
    for (const auto &[Arch, Ms] : F.MetricsByArch)
      for (const auto &[Name, Value] : Ms)
        Props["metricsByArch"][Arch][Name] = Value;
    if (!Props.empty())
      J["properties"] = Props;
    Results.push_back(J);
  }
  json Notifications = json::array();
  for (const ToolError &E : R.Errors) {
    json N = {{"level", "error"}, {"message", {{"text", E.Message}}}};
    if (!E.Loc.File.empty())
      N["locations"] = json::array({sarifLocation(E.Loc, C)});
    Notifications.push_back(N);
  }
  std::string RootUri = fileUri(C.Root);
  if (RootUri.empty() || RootUri.back() != '/')
    RootUri += '/';
  json Run = {{"tool",
               {{"driver",
                 {{"name", "warplint"},
                  {"version", WARPLINT_VERSION},
                  {"rules", Rules}}}}},
              {"automationDetails", {{"id", R.Category + "/"}}},
              {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", RootUri}}}}},
              {"columnKind", "utf16CodeUnits"},
              {"invocations",
               json::array({{{"executionSuccessful", R.Errors.empty()},
                             {"toolExecutionNotifications", Notifications}}})},
              {"results", Results}};
  json Doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({Run})}};
  OS << jsonText(Doc, 2) << "\n";
}

void writeCodeClimate(const Report &R, llvm::raw_ostream &OS) {
  ReportContext C(R);
  json Issues = json::array();
  auto Issue = [&](const std::string &Check, const std::string &Description,
                   const char *Severity, const Location &L,
                   const std::string &Fingerprint) {
    std::string Path = pathBelow(L.File, C.Root);
    Issues.push_back(
        {{"type", "issue"},
         {"check_name", Check},
         {"description", Description},
         {"categories", json::array({Check.rfind("memory-", 0) == 0 ||
                                             Check.rfind("launch-", 0) == 0
                                         ? "Performance"
                                         : "Bug Risk"})},
         {"severity", Severity},
         {"fingerprint", Fingerprint},
         {"location",
          {{"path", Path.empty() ? L.File : Path},
           {"lines", {{"begin", std::max(1u, L.Line)}}}}}});
  };
  for (const ToolError &E : R.Errors)
    Issue(E.FromCompiler ? "clang-diagnostic-error" : "warplint", E.Message,
          "blocker", E.Loc,
          llvm::utohexstr(llvm::xxh3_64bits(E.Loc.File + '\0' + E.Message),
                          true, 16));
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const Finding &F = R.Findings[I];
    Severity S = F.effectiveLevel();
    Issue(F.Check, F.Message,
          S == Severity::Error     ? "critical"
          : S == Severity::Warning ? "major"
                                   : "info",
          F.Loc, C.Fingerprints[I]);
  }
  OS << jsonText(Issues, 2) << "\n";
}

// Workflow-command escaping: the message, then property values.
static std::string escapeData(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '%')
      Out += "%25";
    else if (C == '\r')
      Out += "%0D";
    else if (C == '\n')
      Out += "%0A";
    else
      Out += C;
  }
  return Out;
}
static std::string escapeProperty(llvm::StringRef S) {
  std::string Out;
  for (char C : escapeData(S)) {
    if (C == ':')
      Out += "%3A";
    else if (C == ',')
      Out += "%2C";
    else
      Out += C;
  }
  return Out;
}

static void githubLine(llvm::raw_ostream &OS, llvm::StringRef Command,
                       const Location &L, llvm::StringRef Title,
                       llvm::StringRef Message) {
  OS << "::" << Command;
  std::vector<std::string> Props;
  if (!L.File.empty())
    Props.push_back("file=" + escapeProperty(L.File));
  if (L.Line) {
    Props.push_back("line=" + std::to_string(L.Line));
    Props.push_back("col=" + std::to_string(L.Column));
  }
  if (!Title.empty())
    Props.push_back("title=" + escapeProperty(Title));
  for (size_t I = 0; I < Props.size(); ++I)
    OS << (I ? "," : " ") << Props[I];
  OS << "::" << escapeData(Message) << "\n";
}

void writeGithub(const Report &R, llvm::raw_ostream &OS) {
  for (const ToolError &E : R.Errors)
    githubLine(OS, "error", E.Loc,
               E.FromCompiler ? "clang-diagnostic-error" : "warplint",
               E.Message);
  for (const Finding &F : R.Findings) {
    std::string Msg = F.Message + " [" + F.Check + "]";
    for (const FindingNote &N : F.Notes)
      Msg += "\nnote: " + N.Message;
    llvm::StringRef Cmd = F.effectiveLevel() == Severity::Error     ? "error"
                          : F.effectiveLevel() == Severity::Warning ? "warning"
                                                                    : "notice";
    githubLine(OS, Cmd, F.Loc, F.Check, Msg);
  }
}

void writeReport(OutputFormat F, const Report &R, llvm::raw_ostream &OS) {
  switch (F) {
  case OutputFormat::Text:
    return writeText(R, OS);
  case OutputFormat::Json:
    return writeJson(R, OS);
  case OutputFormat::Sarif:
    return writeSarif(R, OS);
  case OutputFormat::Github:
    return writeGithub(R, OS);
  case OutputFormat::CodeClimate:
    return writeCodeClimate(R, OS);
  }
}

} // namespace warplint
