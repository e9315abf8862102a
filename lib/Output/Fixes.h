// Fix-its: applying them in place (--fix) and exporting them in
// clang-apply-replacements' YAML (--export-fixes).
#pragma once
#include "Core/Finding.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace warplint {

struct FixSummary {
  unsigned Applied = 0; // findings whose fix was applied
  unsigned Files = 0;   // files rewritten
  // Files left as they were, one line each naming the file and why: fixes
  // that overlap, a file changed on disk since it was analysed, a file that
  // cannot be read or written.
  std::vector<std::string> Refused;
};

// Applies every finding's fix, file by file. The same edit found twice (by
// two targets, or by two files that include one header) is made once. A file
// is rewritten only if all its fixes fit together and its content is still
// what the analysis read; it is written atomically (a temporary in the same
// directory, its permissions, then a rename): rewritten whole or left as it
// was.
FixSummary applyFixes(llvm::ArrayRef<Finding> Findings);

// Writes the fixes as a clang-apply-replacements document, atomically. The
// fixes of a file where two of them overlap are left out, each such file
// named in Refused.
llvm::Error exportFixes(llvm::ArrayRef<Finding> Findings,
                        llvm::StringRef MainFile, llvm::StringRef Path,
                        std::vector<std::string> &Refused);

} // namespace warplint
