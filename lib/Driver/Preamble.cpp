#include "Driver/Preamble.h"
#include "Driver/ParseInputs.h"
#include "Driver/Runner.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Sema/MultiplexExternalSemaSource.h"
#include "clang/Sema/Sema.h"
#include "clang/Serialization/PCHContainerOperations.h"

using namespace clang;

namespace warplint {

struct PreambleCache::Built {
  std::optional<PrecompiledPreamble> Preamble; // none: it did not compile
  std::vector<ToolError> Errors;               // of the build
};

struct PreambleCache::Entry {
  std::string Region; // the main file's text the preamble covers
  // The build, in the background until it is done.
  std::shared_future<std::shared_ptr<const Built>> Build;
};

namespace {

// The host-only bodies of system headers are left out of the preamble, as
// out of every parse (skippableSystemBody): a smaller preamble, built sooner.
class SkippingCallbacks : public PreambleCallbacks {
public:
  void BeforeExecute(CompilerInstance &CI) override {
    SM = &CI.getSourceManager();
  }
  bool shouldSkipFunctionBody(Decl *D) override {
    return SM && skippableSystemBody(D, *SM);
  }

private:
  const SourceManager *SM = nullptr;
};

// Builds the preamble of Buffer's #include region (Bounds) for Invocation.
std::shared_ptr<const PreambleCache::Built>
buildPreamble(std::shared_ptr<CompilerInvocation> Invocation,
              std::unique_ptr<llvm::MemoryBuffer> Buffer, PreambleBounds Bounds,
              llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
              std::shared_ptr<PCHContainerOperations> PCHOps,
              std::string MainFile) {
  auto Out = std::make_shared<PreambleCache::Built>();
  DiagSink Errors;
  std::unique_ptr<DiagnosticConsumer> Collector =
      createErrorCollector(Errors, MainFile);
  DiagnosticOptions BuildOpts;
  auto BuildDiags = CompilerInstance::createDiagnostics(
      *FS, BuildOpts, Collector.get(), /*ShouldOwnClient=*/false);
  SkippingCallbacks Callbacks;
  Invocation->getFrontendOpts().SkipFunctionBodies = true;
  // The templates the #include region uses are instantiated once, in the
  // preamble, rather than at the end of every parse that reuses it (most of
  // such a parse for a file that includes CUB).
  Invocation->getLangOpts().PCHInstantiateTemplates = true;
  auto Made = PrecompiledPreamble::Build(
      *Invocation, Buffer.get(), Bounds, BuildDiags, FS, PCHOps,
      /*StoreInMemory=*/true, /*StoragePath=*/"", Callbacks);
  if (Made) {
    Out->Preamble.emplace(std::move(*Made));
    Out->Errors = Errors.errors();
  }
  return Out;
}

// Sema's external source (the preamble's reader) as it was, but for the
// deferred-diagnostic roots, read only when Sema::emitDeferredDiags will
// walk them: it returns at once when this parse deferred no diagnostic and
// is not OpenMP, after reading them all.
class DeferredDiagRootsGate : public MultiplexExternalSemaSource {
public:
  DeferredDiagRootsGate(Sema &S, IntrusiveRefCntPtr<ExternalSemaSource> Reader)
      : MultiplexExternalSemaSource(
            std::move(Reader), llvm::makeIntrusiveRefCnt<ExternalSemaSource>()),
        S(S) {}

  void ReadDeclsToCheckForDeferredDiags(
      llvm::SmallSetVector<Decl *, 4> &Decls) override {
    if (!S.DeviceDeferredDiags.empty() || S.getLangOpts().OpenMP)
      MultiplexExternalSemaSource::ReadDeclsToCheckForDeferredDiags(Decls);
  }

private:
  Sema &S;
};

} // namespace

void readPreambleDeferredDiagRootsOnlyWhenNeeded(Sema &S) {
  assert(S.ExternalSource && "a parse that reads no preamble");
  S.ExternalSource = llvm::makeIntrusiveRefCnt<DeferredDiagRootsGate>(
      S, std::move(S.ExternalSource));
}

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
  std::shared_ptr<const Built> Ready;
  if (E && E->Region == Region) {
    bool Done =
        E->Build.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    Ready = E->Build.get();
    Last = Done ? Use::Reused : Use::Waited;
    // A header changed on disk since it was built: built again.
    if (Ready->Preamble &&
        !Ready->Preamble->CanReuse(*CI, **Buffer, Bounds, *FS))
      Ready = nullptr;
    else if (!Ready->Preamble)
      Last = Use::None;
  }
  if (!Ready) {
    // A region this cache has no preamble for: built in the background,
    // and this parse goes on without it.
    auto Fresh = std::make_shared<Entry>();
    Fresh->Region = Region.str();
    Fresh->Build = std::async(
        std::launch::async, buildPreamble,
        std::make_shared<CompilerInvocation>(*CI),
        llvm::MemoryBuffer::getMemBufferCopy((*Buffer)->getBuffer(), MainFile),
        Bounds, FS, PCHOps, MainFile.str());
    Last = Use::Building;
    std::lock_guard<std::mutex> Hold(Lock);
    Entries[Args] = Fresh;
  }
  if (Ready && Ready->Preamble) {
    for (const ToolError &Err : Ready->Errors)
      Sink.reportError(Err);
    // The main file is remapped to this buffer, which the parse then owns.
    Ready->Preamble->AddImplicitPreamble(
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
