// GlobList: clang-tidy's check-selection syntax. A comma (or newline) separated
// list of globs, '*' matching any run of characters, a leading '-' excluding;
// the last glob that matches a name decides.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace warplint {

class GlobList {
public:
  GlobList() = default;
  explicit GlobList(llvm::StringRef Globs);
  bool contains(llvm::StringRef Name) const;
  bool empty() const { return Items.empty(); }

private:
  struct Item {
    bool Positive;
    std::string Pattern;
  };
  static bool matches(llvm::StringRef Pattern, llvm::StringRef Name);
  std::vector<Item> Items;
};

} // namespace warplint
