// ArchTable: the per-architecture rule tables (arch-data/sm_XX.json), loaded
// and validated once at start-up. Checks ask it what a target does; no check
// hard-codes a number that belongs to an architecture.
#pragma once
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct ArchInfo {
  std::string Name;              // "sm_80"
  unsigned SM = 0;               // 80
  std::string ComputeCapability; // "8.0"
  std::string Family;            // "Ampere"
#define ARCH_FIELD(NAME, TYPE, KIND) TYPE NAME{};
#include "Arch/ArchFields.def"
  std::map<std::string, std::string> Sources; // field -> citation

  // The Feature fields of ArchFields.def (device features a target has or
  // lacks), by JSON name, with their values.
  std::vector<std::pair<llvm::StringRef, bool>> features() const;
  // Whether the target has feature Name; none if Name is no Feature field.
  std::optional<bool> hasFeature(llvm::StringRef Name) const;
};

class ArchTable {
public:
  // Loads every sm_*.json in Dir. Any malformed table is an error naming the
  // file and the field.
  static llvm::Expected<ArchTable> loadDirectory(llvm::StringRef Dir);
  // Parses one table (Text is the contents of Path).
  static llvm::Expected<ArchInfo> parseTable(llvm::StringRef Text,
                                             llvm::StringRef Path);
  // Accepts "sm_80", "compute_80", "80" and "8.0".
  const ArchInfo *find(llvm::StringRef Name) const;
  std::string knownNames() const; // "sm_50, sm_52, ..."
  const std::vector<ArchInfo> &all() const { return Archs; }
  // The oldest known architecture for which Pred holds, or null.
  const ArchInfo *
  firstWhere(llvm::function_ref<bool(const ArchInfo &)> Pred) const;

private:
  std::vector<ArchInfo> Archs; // sorted by SM
};

// warplint's data directory for a binary or plugin installed (or built) as
// <prefix>/bin/warplint or <prefix>/lib/WarpLintPlugin.so:
// <prefix>/share/warplint, holding arch-data/, include/ and docs/.
std::string shareDirectoryFor(llvm::StringRef BinaryPath);

} // namespace warplint
