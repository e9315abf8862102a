// The errors of a file's first parse that a second parse gets around
// (runFile, Runner.cpp): the consumer that collects them, what they are, and
// the second parse they call for. Internal to the driver.
#pragma once
#include "Core/DiagSink.h"
#include "Driver/Runner.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warplint {

// The errors of a file's first parse, and whether a second parse recovers
// the findings they cost (clang generates no device code after an error, so
// the IR layer would not run):
// - errors only in the bodies of the main file's host functions: clang's
//   device-side parse judges host code that nvcc hands to the host compiler
//   (an initialised variable-sized array, which GCC accepts), and the device
//   code and the other host functions do not need those bodies. The file is
//   parsed again without them (as the language server's focused pass skips
//   bodies), a warning names each function left out, and the errors stand;
// - a `%name` in inline assembly that nvcc passes to ptxas as written: the
//   file is parsed again with it written `%%name`, and the errors become
//   warnings;
// - a kernel launched from device code without -fgpu-rdc, which nvcc refuses
//   too without -rdc=true: the file is parsed again with -fgpu-rdc, as its
//   build must compile it, and the errors stand.
struct FirstParseErrors {
  // Each error of the parse: its offset in the main file (none: elsewhere,
  // or without a location) and its text.
  std::vector<std::pair<std::optional<unsigned>, std::string>> Errors;
  // After the parse: the host bodies that hold every error, when they do,
  // each with its warning.
  std::vector<std::pair<unsigned, std::string>> Broken; // name offset, text
  // The errors that are a `%name` in inline assembly clang cannot read as
  // an operand (`mov.u64 %0, %globaltimer;`): each with its file, the offset
  // of its `%` there, and its warning.
  struct AsmEscape {
    std::string Path;
    unsigned Percent;
    std::string Warning;
  };
  std::vector<AsmEscape> AsmEscapes;
  // The first kernel launch from device code that needs -fgpu-rdc: where.
  std::string NeedsRdc;
  // Some error is neither of those two kinds.
  bool OtherErrors = false;

  enum class Recovery { None, AsmEscapes, Rdc, SkipHostBodies };
  // The second parse these errors call for.
  Recovery recovery() const {
    if (!OtherErrors && !AsmEscapes.empty() && NeedsRdc.empty())
      return Recovery::AsmEscapes;
    if (!OtherErrors && AsmEscapes.empty() && !NeedsRdc.empty())
      return Recovery::Rdc;
    return Broken.empty() ? Recovery::None : Recovery::SkipHostBodies;
  }
};

// Collects the compiler's errors (not its warnings: those are the compiler's
// business) with their locations, as clang-tidy reports clang-diagnostic-error;
// with FirstErrors, also where each lies in the main file.
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  ErrorCollector(DiagSink &Sink, llvm::StringRef File,
                 FirstParseErrors *FirstErrors = nullptr)
      : Sink(Sink), File(File.str()), FirstErrors(FirstErrors) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

private:
  DiagSink &Sink;
  std::string File;
  FirstParseErrors *FirstErrors;
};

// The host bodies of the main file that hold all of the parse's errors, each
// with the warning that names it; nothing if any error lies elsewhere (in
// device code, a header, between functions) or in a body the parser cannot
// skip.
std::vector<std::pair<unsigned, std::string>>
brokenHostBodies(const FirstParseErrors &E, clang::ASTContext &AST,
                 llvm::StringRef File);

// The second parse that a first parse's errors call for: the task and the
// files it parses (null: the first parse's), the warnings that say why, and
// whether the first parse's errors stand.
struct SecondParse {
  FileTask Task;
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files;
  std::vector<std::string> Warnings;
  bool KeepErrors = true;
};

// What Errors, of the first parse of T over FS, call for; nothing when they
// stand and the first parse's results are kept.
std::optional<SecondParse>
secondParse(const FirstParseErrors &Errors, const FileTask &T,
            llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS);

} // namespace warplint
