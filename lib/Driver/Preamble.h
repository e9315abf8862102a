// Parses that reuse a precompiled preamble (the #includes at the top of the
// main file, compiled once into an in-memory PCH), as clangd does: the
// language server parses the same buffer at every edit, and most of a CUDA
// file's parse is its headers (cuda_runtime.h, CUB).
#pragma once
#include "Core/DiagSink.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace clang {
class Sema;
}

namespace warplint {

// A parse that reuses a preamble would, at its end, read back every function
// the preamble's headers declared (clang keeps them as the roots from which
// CUDA's deferred diagnostics are looked for) only to find that this parse
// deferred no diagnostic: a fifth of an edit's re-lint for a file that
// includes CUB. Once the parse's Sema reads the preamble, this reads those
// roots only when there is a deferred diagnostic to look for (or OpenMP,
// whose check walks them regardless), as clang would have used them: the
// diagnostics are the same. Call it once Sema has an external source (it
// gets the preamble's reader when it is initialised, after the reader has
// passed the preamble's declarations to the consumer).
void readPreambleDeferredDiagRootsOnlyWhenNeeded(clang::Sema &S);

class PreambleCache {
public:
  PreambleCache();
  ~PreambleCache();

  // Runs Action on the parse Args describe (driver arguments, one input),
  // reading through FS, with the preamble built for the same arguments when
  // it fits the file (same #include region, headers unchanged). As clangd
  // does, a preamble is built in the background as soon as a parse sees an
  // #include region it has none for (the file was opened, or its includes
  // were edited): that parse goes on without one, and the next parse of the
  // same region waits for the build rather than parsing the headers again.
  // Diags gets the diagnostics of the main file's parse; the errors of the
  // preamble's own build go to Sink, each time it is used. False when no
  // compiler invocation could be made of Args.
  bool parse(const std::vector<std::string> &Args,
             std::unique_ptr<clang::FrontendAction> Action,
             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
             clang::DiagnosticConsumer &Diags, DiagSink &Sink);

  // How the last parse went, for the log: without a preamble (it did not
  // compile), building (a new #include region: parsed without it while it
  // is built in the background), waited (for the build under way), reused
  // (built before the parse started).
  enum class Use { None, Building, Waited, Reused };
  Use lastUse() const { return Last; }

  // Forgets the preambles of File (its buffer was closed).
  void drop(llvm::StringRef File);

  // One preamble's build (Preamble.cpp).
  struct Built;

private:
  struct Entry;
  std::mutex Lock;
  std::map<std::vector<std::string>, std::shared_ptr<Entry>> Entries;
  Use Last = Use::None;
};

} // namespace warplint
