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
  // one once the #include region is the same as at the previous parse. Diags
  // gets the diagnostics of the main file's parse; the errors of the preamble's
  // own build go to Sink, each time it is used. False when no compiler
  // invocation could be made of Args.
  bool parse(const std::vector<std::string> &Args,
             std::unique_ptr<clang::FrontendAction> Action,
             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
             clang::DiagnosticConsumer &Diags, DiagSink &Sink);

  // How the last parse went, for the log: without a preamble (it did not
  // compile), deferred (the #include region changed since the last parse:
  // parsed without, built at the next parse if it stays), built, reused.
  enum class Use { None, Deferred, Built, Reused };
  Use lastUse() const { return Last; }

  // Forgets the preambles of File (its buffer was closed).
  void drop(llvm::StringRef File);

private:
  struct Entry;
  std::mutex Lock;
  std::map<std::vector<std::string>, std::shared_ptr<Entry>> Entries;
  Use Last = Use::None;
};

} // namespace warplint
