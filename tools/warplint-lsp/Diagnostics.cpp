// Findings as LSP diagnostics: their ranges, notes as related information,
// and publishing them for a document.
#include "Server.h"
#include "SourceText.h"
#include "Support/Paths.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace warplint::lsp {

json Server::rangeAt(const std::string &Text, unsigned Line,
                     unsigned Column) const {
  size_t Start = offsetOfLineColumn(Text, Line, Column);
  size_t End = Start + tokenLength(Text, Start);
  return json::object({{"start", toJSON(positionOf(Text, Start, Enc))},
                       {"end", toJSON(positionOf(Text, End, Enc))}});
}

std::optional<std::string> Server::textOf(StringRef Path) {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    for (const auto &[U, D] : Docs)
      if (D.Path == Path)
        return D.Text;
  }
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

json Server::diagnosticOf(const Finding &F, const Document &D,
                          const std::string &Text) const {
  static const int LspSeverity[] = {3, 2, 1}; // Note, Warning, Error
  json Diag = json::object({
      {"range", rangeAt(Text, F.Loc.Line, F.Loc.Column)},
      {"severity", LspSeverity[static_cast<int>(F.effectiveLevel())]},
      {"code", F.Check},
      {"source", "warplint"},
      {"message", F.Message},
  });
  if (!Opts.HelpBaseUrl.empty())
    Diag["codeDescription"] =
        json::object({{"href", Opts.HelpBaseUrl + F.Check + ".md"}});
  if (F.Notes.empty())
    return Diag;
  json Related = json::array();
  std::string Message = F.Message;
  for (const FindingNote &N : F.Notes) {
    std::string NotePath = absolutePath(N.Loc.File);
    if (!RelatedInformation) {
      Message += "\n" + sys::path::filename(NotePath).str() + ":" +
                 std::to_string(N.Loc.Line) + ":" +
                 std::to_string(N.Loc.Column) + ": note: " + N.Message;
      continue;
    }
    std::optional<std::string> NoteText;
    if (NotePath == D.Path)
      NoteText = Text;
    else if (auto Buf = MemoryBuffer::getFile(NotePath, /*IsText=*/true))
      NoteText = (*Buf)->getBuffer().str();
    Related.push_back(json::object(
        {{"location",
          json::object({{"uri", pathToUri(NotePath)},
                        {"range", rangeAt(NoteText.value_or(""), N.Loc.Line,
                                          N.Loc.Column)}})},
         {"message", N.Message}}));
  }
  if (RelatedInformation)
    Diag["relatedInformation"] = std::move(Related);
  else
    Diag["message"] = Message;
  return Diag;
}

void Server::publish(const std::string &Uri, Document &D,
                     std::vector<Finding> Findings,
                     const std::vector<ToolError> &Errors,
                     const std::string &Text, int64_t Version) {
  json Diags = json::array();
  for (const Finding &F : Findings)
    Diags.push_back(diagnosticOf(F, D, Text));
  for (const ToolError &E : Errors) {
    bool Here = E.Loc.Line && absolutePath(E.Loc.File) == D.Path;
    std::string Message = E.Message;
    if (!Here && E.Loc.Line)
      Message = "in included file: " + E.Loc.File + ":" +
                std::to_string(E.Loc.Line) + ":" +
                std::to_string(E.Loc.Column) + ": " + Message;
    Diags.push_back(json::object({
        {"range",
         Here ? rangeAt(Text, E.Loc.Line, E.Loc.Column) : rangeAt(Text, 1, 1)},
        {"severity", 1},
        {"code", E.FromCompiler ? "clang-diagnostic-error" : "warplint-error"},
        {"source", "warplint"},
        {"message", Message},
    }));
  }
  std::string Serialized = serialize(Diags);
  bool Same =
      D.PublishedVersion == Version && D.PublishedDiagnostics == Serialized;
  D.PublishedText = Text;
  D.PublishedVersion = Version;
  D.PublishedDiagnostics = std::move(Serialized);
  D.Findings = std::move(Findings);
  if (Same)
    return; // the full analysis agreed with the focused pass
  T.send(json::object(
      {{"jsonrpc", "2.0"},
       {"method", "textDocument/publishDiagnostics"},
       {"params", json::object({{"uri", Uri},
                                {"version", Version},
                                {"diagnostics", std::move(Diags)}})}}));
}

void Server::publishEmpty(const std::string &Uri) {
  T.send(json::object(
      {{"jsonrpc", "2.0"},
       {"method", "textDocument/publishDiagnostics"},
       {"params",
        json::object({{"uri", Uri}, {"diagnostics", json::array()}})}}));
}

} // namespace warplint::lsp
