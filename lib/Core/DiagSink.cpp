#include "Core/DiagSink.h"

namespace warplint {

llvm::StringRef severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

DiagSink::Key DiagSink::keyOf(const Finding &F) {
  return {F.Check,      F.Loc.File, F.Loc.Line,
          F.Loc.Column, F.Message,  F.Arch.value_or("")};
}

std::optional<size_t> DiagSink::report(Finding F) {
  if (!Seen.insert(keyOf(F)).second)
    return std::nullopt;
  Findings.push_back(std::move(F));
  return Findings.size() - 1;
}

void DiagSink::addNote(size_t Index, FindingNote N) {
  if (Index < Findings.size())
    Findings[Index].Notes.push_back(std::move(N));
}

void DiagSink::reportError(ToolError E) {
  Key K{std::string(), E.Loc.File, E.Loc.Line,
        E.Loc.Column,  E.Message,  std::string()};
  if (!SeenErrors.insert(std::move(K)).second)
    return;
  Errors.push_back(std::move(E));
}

void DiagSink::append(DiagSink &&Other) {
  for (Finding &F : Other.Findings)
    report(std::move(F));
  for (ToolError &E : Other.Errors)
    reportError(std::move(E));
  Other.Findings.clear();
  Other.Errors.clear();
  Other.Seen.clear();
  Other.SeenErrors.clear();
}

} // namespace warplint
