#include "Driver/Preamble.h"
#include "Driver/Runner.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Serialization/PCHContainerOperations.h"

using namespace clang;

namespace warplint {

struct PreambleCache::Entry {
  std::string Region; // the main file's text the preamble covers
  std::optional<PrecompiledPreamble> Preamble;
  std::vector<ToolError> Errors; // of the preamble's build
};

PreambleCache::PreambleCache() = default;
PreambleCache::~PreambleCache() = default;

void PreambleCache::drop(StringRef File) {
  std::lock_guard<std::mutex> Hold(Lock);
  // The parse's arguments end with its file.
  for (auto It = Entries.begin(); It != Entries.end();)
    It = !It->first.empty() && It->first.back() == File ? Entries.erase(It)
                                                        : std::next(It);
}

bool PreambleCache::parse(const std::vector<std::string> &Args,
                          std::unique_ptr<FrontendAction> Action,
                          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                          DiagnosticConsumer &Diags, DiagSink &Sink) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  DiagnosticOptions DiagOpts;
  CreateInvocationOptions CIOpts;
  CIOpts.VFS = FS;
  CIOpts.Diags = CompilerInstance::createDiagnostics(*FS, DiagOpts, &Diags,
                                                     /*ShouldOwnClient=*/false);
  std::shared_ptr<CompilerInvocation> CI = createInvocation(Argv, CIOpts);
  if (!CI || CI->getFrontendOpts().Inputs.size() != 1)
    return false;
  StringRef MainFile = CI->getFrontendOpts().Inputs[0].getFile();
  auto Buffer = FS->getBufferForFile(MainFile);
  if (!Buffer)
    return false;

  auto PCHOps = std::make_shared<PCHContainerOperations>();
  PreambleBounds Bounds =
      ComputePreambleBounds(CI->getLangOpts(), **Buffer, /*MaxLines=*/0);
  std::shared_ptr<Entry> E;
  {
    std::lock_guard<std::mutex> Hold(Lock);
    E = Entries[Args];
  }
  StringRef Region = (*Buffer)->getBuffer().take_front(Bounds.Size);
  Last = Use::Reused;
  if (!E || !E->Preamble ||
      !E->Preamble->CanReuse(*CI, **Buffer, Bounds, *FS)) {
    auto Fresh = std::make_shared<Entry>();
    Fresh->Region = Region.str();
    // Built only once the #include region has stayed the same for two
    // parses: while it is being edited, each build would cost more than the
    // parse it saves.
    Last = Use::Deferred;
    if (E && E->Region == Region) {
      DiagSink Errors;
      std::unique_ptr<DiagnosticConsumer> Collector =
          createErrorCollector(Errors, MainFile);
      DiagnosticOptions BuildOpts;
      auto BuildDiags = CompilerInstance::createDiagnostics(
          *FS, BuildOpts, Collector.get(), /*ShouldOwnClient=*/false);
      PreambleCallbacks Callbacks;
      // The templates the #include region uses are instantiated once, in
      // the preamble, rather than at the end of every parse that reuses it
      // (most of such a parse for a file that includes CUB).
      CI->getLangOpts().PCHInstantiateTemplates = true;
      auto Built = PrecompiledPreamble::Build(
          *CI, Buffer->get(), Bounds, BuildDiags, FS, PCHOps,
          /*StoreInMemory=*/true, /*StoragePath=*/"", Callbacks);
      if (Built) {
        Fresh->Preamble.emplace(std::move(*Built));
        Fresh->Errors = Errors.errors();
      }
      Last = Built ? Use::Built : Use::None;
    }
    E = Fresh;
    std::lock_guard<std::mutex> Hold(Lock);
    Entries[Args] = E;
  }
  if (E->Preamble) {
    for (const ToolError &Err : E->Errors)
      Sink.reportError(Err);
    // The main file is remapped to this buffer, which the parse then owns.
    E->Preamble->AddImplicitPreamble(
        *CI, FS,
        llvm::MemoryBuffer::getMemBufferCopy((*Buffer)->getBuffer(), MainFile)
            .release());
  }

  // As ToolInvocation: free what the parse made (a long-lived process).
  CI->getFrontendOpts().DisableFree = false;
  CompilerInstance Clang(CI, PCHOps);
  Clang.setVirtualFileSystem(FS);
  Clang.createDiagnostics(&Diags, /*ShouldOwnClient=*/false);
  Clang.createFileManager();
  Clang.ExecuteAction(*Action);
  return true;
}

} // namespace warplint
