// The IR layer inside a normal compile (clang -fpass-plugin=): the
// divergence-barrier findings of the device module, reported as LLVM
// diagnostics that clang prints as its own, with the CLI's words.
//
// There is no SourceManager here, so the CLI's rules are applied from the
// debug locations: a barrier inside a system directory is reported where code
// outside one calls into it, and NOLINT comments are read from the file.
#pragma once
#include "llvm/IR/PassManager.h"
#include <functional>
#include <string>
#include <vector>

namespace warplint {
class ArchTable;
} // namespace warplint

namespace warplint::ir {

struct DiagnosticReportOptions {
  // Rule tables, for the per-target words of the message; may be null.
  const ArchTable *Tables = nullptr;
  // Directories whose files count as system headers (absolute paths).
  std::vector<std::string> SystemDirs;
  // The check the verdicts are reported for.
  std::string CheckId;
  // Whether that check is enabled for the module's source file.
  std::function<bool(llvm::StringRef SourceFile)> Enabled;
  // Whether the AST layer already reported that check at File:Line
  // for Arch in this process.
  std::function<bool(llvm::StringRef File, unsigned Line, llvm::StringRef Arch)>
      ReportedByAST;
};

class BarrierDiagnosticsPass
    : public llvm::PassInfoMixin<BarrierDiagnosticsPass> {
public:
  explicit BarrierDiagnosticsPass(DiagnosticReportOptions Opts)
      : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  DiagnosticReportOptions Opts;
};

} // namespace warplint::ir
