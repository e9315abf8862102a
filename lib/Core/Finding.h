// The finding model shared by every check, writer and front end (CLI, plugin,
// LSP).
#pragma once
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warplint {

enum class Severity { Note, Warning, Error };

llvm::StringRef severityName(Severity S);

struct Location {
  std::string File;
  unsigned Line = 0;   // 1-based; 0 when the problem has no place in a file
  unsigned Column = 0; // 1-based byte column, as clang counts
};

struct FindingNote {
  Location Loc;
  std::string Message;
};

// One edit of a fix, in the clang-apply-replacements sense.
struct FixEdit {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Replacement;
  // A hash of File's content as the parse read it (hexadecimal xxh3; empty:
  // unknown): --fix leaves a file that changed on disk since then alone.
  std::string FileHash;
};

struct Finding {
  std::string Check;
  Severity Level = Severity::Warning;
  Location Loc;
  std::string Message;
  // The targets it was judged for with this verdict, in --arch order: one
  // per parse, merged across targets when the verdict is the same.
  std::vector<std::string> Archs;
  std::string archList(llvm::StringRef Sep = ",") const {
    std::string Out;
    for (const std::string &A : Archs)
      Out += (Out.empty() ? "" : Sep.str()) + A;
    return Out;
  }
  // The qualified name of the function the finding lies in (empty outside
  // one): part of its fingerprint, which must survive lines moving.
  std::string Function;
  std::vector<FindingNote> Notes;
  std::vector<FixEdit> Fixes;
  std::vector<std::pair<std::string, double>> Metrics;
  // Where Message holds a number of its target (offset, length): a finding
  // merged across targets lists each target's ("1:32 and 1:64").
  std::vector<std::pair<size_t, size_t>> TargetSpans;
  // After a merge, each target's metrics where they differ ("metrics" keeps
  // the first target's).
  std::map<std::string, std::vector<std::pair<std::string, double>>>
      MetricsByArch;
  // Set by --warnings-as-errors: reported as an error and fails the run.
  bool PromotedToError = false;

  Severity effectiveLevel() const {
    return PromotedToError ? Severity::Error : Level;
  }
};

// A problem that stopped (part of) the analysis: a compiler error in the TU,
// an unreadable file, a driver error. These make the exit status 2.
struct ToolError {
  Location Loc;
  std::string Message;
  // A crash contained while analysing the file: the process must not run
  // its normal shutdown (the crashed parse's state is abandoned).
  bool Crashed = false;
  // Reported by the compiler while parsing (shown as clang-diagnostic-error).
  bool FromCompiler = false;
};

} // namespace warplint
