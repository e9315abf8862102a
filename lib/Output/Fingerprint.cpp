#include "Output/Fingerprint.h"
#include "Support/JsonText.h"
#include "Support/Paths.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <map>
#include <nlohmann/json.hpp>

using json = nlohmann::ordered_json;

namespace warplint {

// The line's text with runs of blanks made one space: re-indenting or
// re-spacing a line keeps its findings.
static std::string normalised(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 16> Words;
  llvm::SplitString(Text, Words); // at any blank
  return llvm::join(Words, " ");
}

std::vector<std::string> fingerprints(llvm::ArrayRef<Finding> Findings,
                                      llvm::StringRef Root, SourceLines &Src) {
  std::vector<std::string> Out;
  std::map<std::string, unsigned> Seen;
  for (const Finding &F : Findings) {
    std::string Path = pathBelow(F.Loc.File, Root);
    if (Path.empty())
      Path = absolutePath(F.Loc.File);
    llvm::StringRef Line = Src.line(F.Loc.File, F.Loc.Line);
    std::string Key = "warplint-fingerprint-1";
    for (const std::string &Part :
         {F.Check, Path, F.Function,
          Line.empty() ? F.Message : normalised(Line)})
      Key += '\0' + Part;
    Key += '\0' + std::to_string(Seen[Key]++);
    Out.push_back(llvm::utohexstr(llvm::xxh3_64bits(Key), /*LowerCase=*/true,
                                  /*Width=*/16));
  }
  return Out;
}

llvm::Expected<Baseline> loadBaseline(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        Path + ": cannot read the baseline: " + Buffer.getError().message());
  return parseBaseline((*Buffer)->getBuffer(), Path);
}

llvm::Expected<Baseline> parseBaseline(llvm::StringRef Text,
                                       llvm::StringRef Path) {
  auto Fail = [&](const llvm::Twine &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   Path + ": " + Why);
  };
  json Doc = json::parse(Text.begin(), Text.end(), nullptr,
                         /*allow_exceptions=*/false);
  if (Doc.is_discarded())
    return Fail("not a JSON document (a baseline is written by "
                "--write-baseline)");
  if (!Doc.is_object() || !Doc.contains("findings") ||
      !Doc["findings"].is_array())
    return Fail("no \"findings\" array (a baseline is written by "
                "--write-baseline)");
  if (Doc.contains("version") && Doc["version"] != 1)
    return Fail("baseline version " + Doc["version"].dump() +
                " is not one this warplint reads (1)");
  Baseline B;
  size_t I = 0;
  for (const json &Entry : Doc["findings"]) {
    if (!Entry.is_object() || !Entry.contains("fingerprint") ||
        !Entry["fingerprint"].is_string())
      return Fail("findings[" + llvm::Twine(I) +
                  "] has no \"fingerprint\" string");
    B.Fingerprints.insert(Entry["fingerprint"].get<std::string>());
    ++I;
  }
  return B;
}

llvm::Error writeBaseline(llvm::StringRef Path,
                          llvm::ArrayRef<Finding> Findings,
                          llvm::ArrayRef<std::string> Fingerprints,
                          llvm::StringRef Root) {
  json List = json::array();
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    std::string File = pathBelow(F.Loc.File, Root);
    List.push_back({{"fingerprint", Fingerprints[I]},
                    {"check", F.Check},
                    {"file", File.empty() ? F.Loc.File : File},
                    {"line", F.Loc.Line},
                    {"message", F.Message}});
  }
  json Doc = {{"version", 1}, {"tool", "warplint"}, {"findings", List}};
  return llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << jsonText(Doc, 2) << "\n";
    return llvm::Error::success();
  });
}

} // namespace warplint
