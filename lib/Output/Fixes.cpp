#include "Output/Fixes.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>

using namespace clang;

namespace warplint {

llvm::Expected<FixSummary> applyFixes(llvm::ArrayRef<Finding> Findings) {
  FixSummary Summary;
  std::map<std::string, tooling::Replacements> PerFile;
  // The same edit can come from two targets or passes; apply it once.
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;
  for (const Finding &F : Findings) {
    if (F.Fixes.empty())
      continue;
    // All edits of one finding go in together or not at all.
    std::map<std::string, tooling::Replacements> Trial = PerFile;
    bool Ok = true, Any = false;
    for (const FixEdit &E : F.Fixes) {
      if (!Seen.insert({E.File, E.Offset, E.Length, E.Replacement}).second)
        continue;
      Any = true;
      if (llvm::Error Err = Trial[E.File].add(tooling::Replacement(
              E.File, E.Offset, E.Length, E.Replacement))) {
        llvm::consumeError(std::move(Err));
        Ok = false;
        break;
      }
    }
    if (!Ok) {
      Summary.Conflicts.push_back(
          F.Loc.File + ":" + std::to_string(F.Loc.Line) + ": fix of [" +
          F.Check + "] overlaps another fix; not applied");
      continue;
    }
    if (Any) {
      PerFile = std::move(Trial);
      ++Summary.Applied;
    }
  }
  for (auto &[File, Reps] : PerFile) {
    auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false);
    if (!Buf)
      return llvm::createStringError(Buf.getError(), "%s: cannot read: %s",
                                     File.c_str(),
                                     Buf.getError().message().c_str());
    auto NewCode = tooling::applyAllReplacements((*Buf)->getBuffer(), Reps);
    if (!NewCode)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(), "%s: cannot apply fixes: %s",
          File.c_str(), llvm::toString(NewCode.takeError()).c_str());
    if (llvm::Error E = llvm::writeToOutput(File, [&](llvm::raw_ostream &OS) {
          OS << *NewCode;
          return llvm::Error::success();
        }))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: cannot write: %s", File.c_str(),
                                     llvm::toString(std::move(E)).c_str());
    ++Summary.Files;
  }
  return Summary;
}

llvm::Error exportFixes(llvm::ArrayRef<Finding> Findings,
                        llvm::StringRef MainFile, llvm::StringRef Path) {
  tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainFile.str();
  for (const Finding &F : Findings) {
    if (F.Fixes.empty())
      continue;
    tooling::DiagnosticMessage Msg(F.Message);
    Msg.FilePath = F.Fixes.front().File;
    Msg.FileOffset = 0;
    for (const FixEdit &E : F.Fixes) {
      llvm::Error Err = Msg.Fix[E.File].add(
          tooling::Replacement(E.File, E.Offset, E.Length, E.Replacement));
      if (Err)
        llvm::consumeError(std::move(Err));
    }
    tooling::Diagnostic D(F.Check, Msg, {},
                          F.effectiveLevel() == Severity::Error
                              ? tooling::Diagnostic::Error
                              : tooling::Diagnostic::Warning,
                          "");
    TUD.Diagnostics.push_back(std::move(D));
  }
  return llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    llvm::yaml::Output YAML(OS);
    YAML << TUD;
    return llvm::Error::success();
  });
}

} // namespace warplint
