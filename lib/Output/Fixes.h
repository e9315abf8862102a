// Fix-its: applying them in place (--fix) and exporting them in
// clang-apply-replacements' YAML (--export-fixes).
#pragma once
#include "Core/Finding.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace warplint {

struct FixSummary {
  unsigned Applied = 0;               // findings whose fix was applied
  unsigned Files = 0;                 // files rewritten
  std::vector<std::string> Conflicts; // findings skipped, one line each
};

// Applies every finding's fix, each file written atomically (a temporary in
// the same directory, then a rename): a file is either rewritten whole or
// left as it was.
llvm::Expected<FixSummary> applyFixes(llvm::ArrayRef<Finding> Findings);

// Writes the fixes as a clang-apply-replacements document, atomically.
llvm::Error exportFixes(llvm::ArrayRef<Finding> Findings,
                        llvm::StringRef MainFile, llvm::StringRef Path);

} // namespace warplint
