#include "Output/Fixes.h"
#include "Support/Hashing.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>

using namespace clang;

namespace warplint {

namespace {

// The fixes of one file, as they will be made.
struct FilePlan {
  tooling::Replacements Edits;
  // Each edit made, with the finding it came from (to name it in a conflict).
  std::vector<std::pair<FixEdit, const Finding *>> Made;
  std::vector<const Finding *> Findings; // whose fixes it holds
  std::set<std::string> Hashes;          // of the content the parses read
  std::string Conflict;                  // why the file's fixes are refused
};

std::string where(const Finding &F) {
  return "[" + F.Check + "] at " + std::to_string(F.Loc.Line) + ":" +
         std::to_string(F.Loc.Column);
}

bool overlaps(const FixEdit &A, const FixEdit &B) {
  return A.Offset <= B.Offset + B.Length && B.Offset <= A.Offset + A.Length;
}

// Groups the findings' edits per file. An edit seen before (the same fix
// from two targets, or from two files that include the same header) is made
// once; two different edits of one place make their file's plan a conflict.
std::map<std::string, FilePlan> planFixes(llvm::ArrayRef<Finding> Findings) {
  std::map<std::string, FilePlan> Plans;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;
  for (const Finding &F : Findings) {
    std::set<std::string> Touched;
    for (const FixEdit &E : F.Fixes) {
      FilePlan &P = Plans[E.File];
      if (!E.FileHash.empty())
        P.Hashes.insert(E.FileHash);
      if (Touched.insert(E.File).second)
        P.Findings.push_back(&F);
      if (!Seen.insert({E.File, E.Offset, E.Length, E.Replacement}).second)
        continue;
      llvm::Error Err = P.Edits.add(
          tooling::Replacement(E.File, E.Offset, E.Length, E.Replacement));
      if (!Err) {
        P.Made.push_back({E, &F});
        continue;
      }
      llvm::consumeError(std::move(Err));
      if (!P.Conflict.empty())
        continue;
      P.Conflict = "the fix of " + where(F) + " overlaps ";
      auto Other = llvm::find_if(
          P.Made, [&](const auto &M) { return overlaps(M.first, E); });
      P.Conflict += Other == P.Made.end()
                        ? std::string("another fix")
                        : "the fix of " + where(*Other->second);
    }
  }
  return Plans;
}

// Writes Content over Path atomically: a temporary beside it with its
// permissions, then a rename; a symbolic link's target is rewritten, the
// link kept.
llvm::Error writeAtomically(llvm::StringRef Path, llvm::StringRef Content) {
  llvm::SmallString<256> Real;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, Real))
    return llvm::createStringError(EC, "cannot resolve: " + EC.message());
  llvm::sys::fs::file_status St;
  if (std::error_code EC = llvm::sys::fs::status(Real, St))
    return llvm::createStringError(EC, "cannot stat: " + EC.message());
  llvm::SmallString<256> Model(Real);
  Model += ".warplint-%%%%%%%%.tmp";
  int FD = -1;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Model, FD, Temp, llvm::sys::fs::OF_None, St.permissions()))
    return llvm::createStringError(
        EC, "cannot create a temporary file beside it: " + EC.message());
  auto Fail = [&](std::error_code EC, const llvm::Twine &What) {
    llvm::sys::fs::remove(Temp);
    return llvm::createStringError(EC, What + ": " + EC.message());
  };
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Content;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      return Fail(EC, "cannot write");
    }
  }
  // The umask narrowed the temporary's permissions: the file's, exactly.
  if (std::error_code EC =
          llvm::sys::fs::setPermissions(Temp, St.permissions()))
    return Fail(EC, "cannot set permissions");
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Real))
    return Fail(EC, "cannot replace");
  return llvm::Error::success();
}

} // namespace

FixSummary applyFixes(llvm::ArrayRef<Finding> Findings) {
  FixSummary Summary;
  for (auto &[File, Plan] : planFixes(Findings)) {
    auto Refuse = [&, &File = File](const llvm::Twine &Why) {
      Summary.Refused.push_back(
          (File + ": " + Why + "; no fixes applied, the file is unchanged")
              .str());
    };
    if (!Plan.Conflict.empty()) {
      Refuse(Plan.Conflict);
      continue;
    }
    auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!Buf) {
      Refuse("cannot read: " + Buf.getError().message());
      continue;
    }
    llvm::StringRef Old = (*Buf)->getBuffer();
    if (Plan.Hashes.size() > 1 ||
        (Plan.Hashes.size() == 1 &&
         *Plan.Hashes.begin() != hexHash(llvm::xxh3_64bits(Old)))) {
      Refuse("changed on disk since it was analysed");
      continue;
    }
    auto New = tooling::applyAllReplacements(Old, Plan.Edits);
    if (!New) {
      Refuse("cannot apply the fixes: " + llvm::toString(New.takeError()));
      continue;
    }
    if (*New == Old)
      continue;
    if (llvm::Error E = writeAtomically(File, *New)) {
      Refuse(llvm::toString(std::move(E)));
      continue;
    }
    std::set<const Finding *> Fixed;
    for (const auto &Made : Plan.Made)
      Fixed.insert(Made.second);
    Summary.Applied += Fixed.size();
    ++Summary.Files;
  }
  return Summary;
}

llvm::Error exportFixes(llvm::ArrayRef<Finding> Findings,
                        llvm::StringRef MainFile, llvm::StringRef Path,
                        std::vector<std::string> &Refused) {
  std::map<std::string, FilePlan> Plans = planFixes(Findings);
  for (const auto &[File, Plan] : Plans)
    if (!Plan.Conflict.empty())
      Refused.push_back(File + ": " + Plan.Conflict +
                        "; its fixes are left out of " + Path.str());
  tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainFile.str();
  for (const auto &[File, Plan] : Plans) {
    if (!Plan.Conflict.empty())
      continue;
    // One diagnostic per finding, with the edits of this file made for it
    // (an edit made twice is exported once).
    for (const Finding *F : Plan.Findings) {
      tooling::DiagnosticMessage Msg(F->Message);
      Msg.FilePath = File;
      Msg.FileOffset = 0;
      for (const auto &[E, From] : Plan.Made)
        if (From == F)
          llvm::cantFail(Msg.Fix[File].add(
              tooling::Replacement(File, E.Offset, E.Length, E.Replacement)));
      if (Msg.Fix.empty())
        continue;
      TUD.Diagnostics.push_back(tooling::Diagnostic(
          F->Check, Msg, {},
          F->effectiveLevel() == Severity::Error ? tooling::Diagnostic::Error
                                                 : tooling::Diagnostic::Warning,
          ""));
    }
  }
  return llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    llvm::yaml::Output YAML(OS);
    YAML << TUD;
    return llvm::Error::success();
  });
}

} // namespace warplint
