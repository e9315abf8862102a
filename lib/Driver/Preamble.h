// Parses that reuse a precompiled preamble (the #includes at the top of the
// main file, compiled once into an in-memory PCH), as clangd does: the
// language server parses the same buffer at every edit, and most of a CUDA
// file's parse is its headers (cuda_runtime.h, CUB).
#pragma once
#include "Core/DiagSink.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace warplint {

class PreambleCache {
public:
  PreambleCache();
  ~PreambleCache();

  // Runs Action on the parse Args describe (driver arguments, one input),
  // reading through FS, with the preamble built for the same arguments when
  // it still fits the file (same includes, headers unchanged), else a new
  // one. Diags gets the diagnostics of the main file's parse; the errors of
  // the preamble's own build go to Sink, each time it is used. False when
  // no compiler invocation could be made of Args.
  bool parse(const std::vector<std::string> &Args,
             std::unique_ptr<clang::FrontendAction> Action,
             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
             clang::DiagnosticConsumer &Diags, DiagSink &Sink);

  // How the last parse went, for the log: built, reused, or none (the
  // preamble did not compile: parsed without).
  enum class Use { None, Built, Reused };
  Use lastUse() const { return Last; }

  // Forgets every preamble (a file was saved, a compile command changed).
  void clear();

private:
  struct Entry;
  std::mutex Lock;
  std::map<std::vector<std::string>, std::shared_ptr<Entry>> Entries;
  Use Last = Use::None;
};

} // namespace warplint
