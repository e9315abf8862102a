// Turning a compile command (from compile_commands.json or after `--`) into
// the clang driver arguments warplint parses with. nvcc command lines are
// translated flag by flag (the table in NvccFlags.cpp); clang ones keep their
// flags. Either way the target architectures are taken out: warplint parses
// once per target it judges.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct CompileFlags {
  std::vector<std::string> Args; // driver flags, no program name, no input file
  std::vector<std::string> Archs;   // sm_XX the command targets, in order
  bool IsCuda = false;              // -x cu / -x cuda / a .cu input
  std::vector<std::string> Dropped; // flags we could not translate
  // nvcc's own options with no clang counterpart (-lineinfo, -Xptxas, ...),
  // as spelt: left out of the parse, reported once per run each.
  std::vector<std::string> IgnoredNvcc;
  // nvcc options that change the device code ptxas allocates registers for
  // (-maxrregcount, -Xptxas, --use_fast_math, -G ...), in nvcc's spelling:
  // launch-occupancy's resource-usage compile passes them on.
  std::vector<std::string> NvccCodegen;
  // -maxrregcount: the cap on registers per thread, when nvcc cannot say.
  std::optional<unsigned> MaxRegCount;
};

bool isNvccCommand(llvm::StringRef Program);

// A .cu or .cuh file: CUDA whatever its compile command says.
bool isCudaSource(llvm::StringRef File);

// Command is a whole command line (program first) as a compile database has
// it; File is the source being analysed (removed from the result); Directory
// resolves --options-file.
CompileFlags translateCommand(llvm::ArrayRef<std::string> Command,
                              llvm::StringRef File, llvm::StringRef Directory);

// Removes what the clang driver does not know (a host compiler's own flags),
// recording each in Dropped.
void dropUnknownDriverFlags(CompileFlags &Flags);

// "sm_80", "compute_80", "80", "sm_90a" -> "sm_80" ...; empty if not an arch.
std::string normaliseArch(llvm::StringRef Text);

} // namespace warplint
