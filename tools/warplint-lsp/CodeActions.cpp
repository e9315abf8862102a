// Code actions: a finding's fix-its as a workspace edit, and a NOLINT
// comment that silences it.
#include "Server.h"
#include "SourceText.h"
#include "Support/Paths.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace warplint::lsp {

json Server::workspaceEdit(
    const std::map<std::string, std::vector<json>> &Edits) {
  auto Array = [](const std::vector<json> &List) {
    json A = json::array();
    for (const json &E : List)
      A.push_back(E);
    return A;
  };
  if (!DocumentChanges) {
    json Changes = json::object();
    for (const auto &[Path, List] : Edits)
      Changes[pathToUri(Path)] = Array(List);
    return json::object({{"changes", std::move(Changes)}});
  }
  json Changes = json::array();
  for (const auto &[Path, List] : Edits) {
    // An open document's edits name its version: the editor refuses them
    // once the buffer has moved on.
    json Version = nullptr;
    {
      std::lock_guard<std::mutex> Hold(Lock);
      for (const auto &[U, D] : Docs)
        if (D.Path == Path)
          Version = D.Version;
    }
    Changes.push_back(json::object(
        {{"textDocument",
          json::object({{"uri", pathToUri(Path)}, {"version", Version}})},
         {"edits", Array(List)}}));
  }
  return json::object({{"documentChanges", std::move(Changes)}});
}

Expected<json> Server::codeAction(const json &Params) {
  std::optional<std::string> Uri = uriOf(Params);
  const json *Range = objectMember(Params, "range");
  const json *Start = Range ? member(*Range, "start") : nullptr;
  const json *End = Range ? member(*Range, "end") : nullptr;
  Position From, To;
  if (!Uri || !Start || !End || !fromJSON(*Start, From) || !fromJSON(*End, To))
    return createStringError("codeAction needs textDocument.uri and range");

  std::string Text, Path;
  std::vector<Finding> Findings;
  {
    std::lock_guard<std::mutex> Hold(Lock);
    auto It = Docs.find(*Uri);
    // Actions only for diagnostics of the buffer as it is now: edits made
    // for an older version would land in the wrong places.
    if (It == Docs.end() || It->second.PublishedVersion != It->second.Version ||
        It->second.PublishedText != It->second.Text)
      return json::array();
    Text = It->second.PublishedText;
    Path = It->second.Path;
    Findings = It->second.Findings;
  }
  size_t Lo = offsetOf(Text, From, Enc), Hi = offsetOf(Text, To, Enc);
  Document Here;
  Here.Path = Path;

  json Actions = json::array();
  for (const Finding &F : Findings) {
    size_t Start = offsetOfLineColumn(Text, F.Loc.Line, F.Loc.Column);
    size_t End = Start + tokenLength(Text, Start);
    if (Start > Hi || Lo > End)
      continue;
    json Diag = diagnosticOf(F, Here, Text);
    if (!F.Fixes.empty()) {
      std::map<std::string, std::vector<json>> Edits;
      bool Readable = true;
      for (const FixEdit &E : F.Fixes) {
        std::string File = absolutePath(E.File);
        std::optional<std::string> FileText =
            File == Path ? std::optional<std::string>(Text) : textOf(File);
        if (!FileText) {
          Readable = false;
          break;
        }
        Edits[File].push_back(json::object(
            {{"range",
              json::object(
                  {{"start", toJSON(positionOf(*FileText, E.Offset, Enc))},
                   {"end",
                    toJSON(positionOf(*FileText, E.Offset + E.Length, Enc))}})},
             {"newText", E.Replacement}}));
      }
      std::string Title;
      if (F.Fixes.size() == 1) {
        const FixEdit &E = F.Fixes.front();
        std::string Old =
            E.File.empty() || absolutePath(E.File) != Path
                ? ""
                : Text.substr(std::min<size_t>(E.Offset, Text.size()),
                              E.Length);
        Title = E.Length == 0 ? "insert '" + shorten(E.Replacement) + "'"
                : E.Replacement.empty() ? "remove '" + shorten(Old) + "'"
                                        : "change '" + shorten(Old) + "' to '" +
                                              shorten(E.Replacement) + "'";
      } else {
        Title = "apply the fix of [" + F.Check + "]";
      }
      if (Readable)
        Actions.push_back(json::object({{"title", Title},
                                        {"kind", "quickfix"},
                                        {"diagnostics", json::array({Diag})},
                                        {"isPreferred", true},
                                        {"edit", workspaceEdit(Edits)}}));
    }
    // The suppression: NOLINT at the end of the line, or NOLINTNEXTLINE
    // above it when the line already ends in a comment.
    size_t LineStart = offsetOfLineColumn(Text, F.Loc.Line, 1);
    size_t LineEnd = std::min(Text.find('\n', LineStart), Text.size());
    if (LineEnd > LineStart && Text[LineEnd - 1] == '\r')
      --LineEnd;
    json Edit;
    if (lineEndsInComment(Text, LineStart, LineEnd)) {
      size_t Indent = Text.find_first_not_of(" \t", LineStart);
      std::string Break = Text.compare(LineEnd, 2, "\r\n") == 0 ? "\r\n" : "\n";
      Edit = json::object(
          {{"range",
            json::object({{"start", toJSON(positionOf(Text, LineStart, Enc))},
                          {"end", toJSON(positionOf(Text, LineStart, Enc))}})},
           {"newText",
            Text.substr(LineStart, std::min(Indent, LineEnd) - LineStart) +
                "// NOLINTNEXTLINE(" + F.Check + ")" + Break}});
    } else {
      Edit = json::object(
          {{"range",
            json::object({{"start", toJSON(positionOf(Text, LineEnd, Enc))},
                          {"end", toJSON(positionOf(Text, LineEnd, Enc))}})},
           {"newText", "  // NOLINT(" + F.Check + ")"}});
    }
    std::map<std::string, std::vector<json>> Edits;
    Edits[Path].push_back(std::move(Edit));
    Actions.push_back(json::object(
        {{"title", "suppress [" + F.Check + "] on this line (NOLINT)"},
         {"kind", "quickfix"},
         {"diagnostics", json::array({std::move(Diag)})},
         {"edit", workspaceEdit(Edits)}}));
  }
  return Actions;
}

} // namespace warplint::lsp
