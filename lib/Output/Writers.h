// The output formats. A writer sees findings and errors, never checks.
#pragma once
#include "Core/Finding.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace warplint {

enum class OutputFormat { Text, Json, Sarif, Github, CodeClimate };

struct RuleInfo {
  std::string Id, Name, Summary;
  std::string HelpMarkdown; // the check's doc page
  std::string HelpUri;      // "" when no base URL was given
};

struct Report {
  llvm::ArrayRef<Finding> Findings;
  llvm::ArrayRef<ToolError> Errors;
  llvm::ArrayRef<RuleInfo> Rules; // every check, for SARIF's rule list
  // One per finding (see Output/Fingerprint.h); computed when empty.
  llvm::ArrayRef<std::string> Fingerprints = {};
  // Paths below it are written relative to it (SARIF's %SRCROOT%, Code
  // Climate's paths); the working directory when empty.
  std::string SourceRoot = {};
  // SARIF's runAutomationDetails id is "<Category>/".
  std::string Category = "warplint";
};

// clang's format: "file:line:col: warning: message [check-id]", the source
// line and a caret; notes below their finding.
void writeText(const Report &R, llvm::raw_ostream &OS);
// {"version": 1, "tool": "warplint", "findings": [...], "errors": [...]}
void writeJson(const Report &R, llvm::raw_ostream &OS);
// SARIF 2.1.0, one run.
void writeSarif(const Report &R, llvm::raw_ostream &OS);
// GitHub Actions workflow commands (::warning file=...::message).
void writeGithub(const Report &R, llvm::raw_ostream &OS);
// GitLab's Code Quality report: a JSON array of Code Climate issues.
void writeCodeClimate(const Report &R, llvm::raw_ostream &OS);

void writeReport(OutputFormat F, const Report &R, llvm::raw_ostream &OS);

} // namespace warplint
