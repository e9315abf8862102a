// Suppression comments with clang-tidy's grammar and semantics:
//   NOLINT, NOLINT(ids)            this line
//   NOLINTNEXTLINE, ...(ids)       the next line
//   NOLINTBEGIN(ids) / NOLINTEND(ids)  the lines between, inclusive
// ids are globs ("warp-*"); no list or "*" means every check. A BEGIN without
// its END (or the reverse) suppresses nothing and is itself reported.
#pragma once
#include "Support/Glob.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace warplint {

// The check id under which malformed suppression comments are reported.
inline constexpr llvm::StringLiteral NoLintCheckId = "warplint-nolint";

class NoLintIndex {
public:
  struct Problem {
    unsigned Line, Column;
    std::string Message;
  };

  explicit NoLintIndex(llvm::StringRef Buffer);

  bool suppresses(unsigned Line, llvm::StringRef CheckId) const;
  const std::vector<Problem> &problems() const { return Problems; }

private:
  struct Range {
    unsigned First, Last; // inclusive lines
    std::string Checks;   // as written between the parentheses; "*" if none
    GlobList Globs;
  };
  std::vector<Range> Ranges;
  std::vector<Problem> Problems;
};

} // namespace warplint
