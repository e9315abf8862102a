// What identifies a finding across runs, so that code scanning can track it
// and a baseline can leave it out: its check, file, function and the text of
// its line, never the line number (inserting lines above it keeps it the same
// finding) nor the targets (judging for one more GPU does not make the
// recorded findings new).
#pragma once
#include "Core/Finding.h"
#include "Output/SourceLines.h"
#include "Support/Paths.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <set>
#include <string>
#include <vector>

namespace warplint {

// One fingerprint per finding, in order: 16 hex digits. Findings whose
// identifying parts are all equal get their occurrence counted in.
std::vector<std::string> fingerprints(llvm::ArrayRef<Finding> Findings,
                                      llvm::StringRef Root, SourceLines &Src);

// A recorded set of findings (--write-baseline) to leave out of later runs
// (--baseline): JSON, {"version": 1, "tool": "warplint", "findings":
// [{"fingerprint", "check", "file", "line", "message"}]}; only the
// fingerprints decide, the rest is there for people reading it.
struct Baseline {
  std::set<std::string> Fingerprints;
};
llvm::Expected<Baseline> loadBaseline(llvm::StringRef Path);
// Text is the contents of Path (which errors name).
llvm::Expected<Baseline> parseBaseline(llvm::StringRef Text,
                                       llvm::StringRef Path);
// Written whole or not at all (a temporary file renamed into place).
llvm::Error writeBaseline(llvm::StringRef Path,
                          llvm::ArrayRef<Finding> Findings,
                          llvm::ArrayRef<std::string> Fingerprints,
                          llvm::StringRef Root);

} // namespace warplint
