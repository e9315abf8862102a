// runFile: the parses of one file, one for several targets where the code
// allows it (Driver/OneParse.h), each contained against crashes, with a
// second parse where the first one's errors call for it (ParseRecovery.h).
#include "Driver/Runner.h"
#include "Analysis/Budget.h"
#include "Driver/AnalysisAction.h"
#include "Driver/OneParse.h"
#include "Driver/ParseInputs.h"
#include "Driver/ParseRecovery.h"
#include "Driver/Preamble.h"
#include "Driver/ResourceUsage.h"
#include "clang/Basic/FileManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace warplint {

namespace {

// Whether the main file launches a kernel, by its text: a file without a
// launch (a header of kernels, device functions) needs no register counts.
bool mentionsLaunch(const FileTask &T, llvm::vfs::FileSystem &FS) {
  llvm::SmallString<256> Path(T.File);
  if (llvm::sys::path::is_relative(Path) && !T.Directory.empty())
    llvm::sys::path::make_absolute(T.Directory, Path);
  auto Buf = FS.getBufferForFile(Path, -1, /*RequiresNullTerminator=*/false,
                                 /*IsVolatile=*/false, /*IsText=*/true);
  if (!Buf)
    return false;
  llvm::StringRef Text = (*Buf)->getBuffer();
  return Text.contains("<<<") || Text.contains("cudaLaunch");
}

// The parses of one file for its targets. Each target's findings and errors
// go to a sink of its own, gathered in the order of the targets whichever
// parse judged them, so that one parse reports what a parse per target does.
class FileParses {
public:
  FileParses(const FileTask &T, const RunEnvironment &Env,
             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
             FileManager &Files, std::vector<const ArchInfo *> Targets,
             ResourceUsageJob *Resources, PreambleCache *Preambles,
             FileResult &R)
      : T(T), Env(Env), FS(std::move(FS)), Files(Files),
        Targets(std::move(Targets)), Resources(Resources), Preambles(Preambles),
        R(R), Sinks(this->Targets.size()), Digests(this->Targets.size()) {}

  // Parses every target: once for all of them where that gives what a parse
  // each would, else a parse each. False when a parse crashed (reported).
  bool parseTargets();

  // The targets' sinks into the result, in the order of the targets.
  void gather() {
    for (DiagSink &S : Sinks)
      R.Sink.append(std::move(S));
  }

private:
  // Parses Targets[I]; once more when its errors call for it
  // (FirstParseErrors). Not for the language server, whose preambles and
  // focused passes have their own bodies.
  bool parseFor(size_t I, SharedParse *Shared);
  // Parses Targets[I], judging the others of Shared on it too. False when it
  // crashed (reported).
  bool parseOnce(size_t I, SharedParse *Shared, const FileTask &Task,
                 FirstParseErrors *FirstErrors,
                 FileManager *ParseFiles = nullptr);
  // One parse of Group's targets, made for For: those it could not stand
  // for go to Rest, and Why says why (or, where it stood for all, how it
  // could). KnownAlike: their user code is known to preprocess alike.
  bool parseShared(llvm::ArrayRef<size_t> Group, const ArchInfo *For,
                   bool KnownAlike, std::vector<size_t> &Rest,
                   std::string &Why);
  std::string made(const ArchInfo *For, llvm::ArrayRef<size_t> Group,
                   llvm::ArrayRef<size_t> Except) const;
  // Forgets the first parse of Targets[I]: its findings, and its errors
  // unless KeepErrors, for a second.
  void forget(size_t I, SharedParse *Shared, bool KeepErrors);
  // Which of the targets Others preprocess the file's user code as
  // Targets[Own] does (preprocessedUserCode); their digests are kept for
  // grouping the rest.
  std::vector<bool> userCodeAlike(size_t Own, llvm::ArrayRef<size_t> Others,
                                  const TargetDependence &Parse) {
    std::vector<bool> Alike(Others.size(), false);
    if (!Directives)
      Directives = makeSystemDirectives();
    Digests[Own] = preprocessedUserCode(buildParseArgs(T, Env, Targets[Own]),
                                        FS, Parse.Read, *Directives);
    if (!Digests[Own])
      return Alike;
    for (size_t K = 0; K < Others.size(); ++K) {
      if (T.Cancelled && T.Cancelled())
        break;
      size_t I = Others[K];
      Digests[I] = preprocessedUserCode(buildParseArgs(T, Env, Targets[I]), FS,
                                        Parse.Read, *Directives);
      Alike[K] = Digests[I] && *Digests[I] == *Digests[Own];
    }
    return Alike;
  }
  void warn(const std::string &Warning) {
    if (!llvm::is_contained(R.Warnings, Warning))
      R.Warnings.push_back(Warning);
  }

  const FileTask &T;
  const RunEnvironment &Env;
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS;
  FileManager &Files;
  std::vector<const ArchInfo *> Targets;
  ResourceUsageJob *Resources;
  PreambleCache *Preambles;
  FileResult &R;
  std::vector<DiagSink> Sinks;
  // Per target, the digest of its user code, where it was asked for.
  std::vector<std::optional<llvm::MD5::MD5Result>> Digests;
  std::shared_ptr<SystemDirectives> Directives; // scanned for the digests
};

bool FileParses::parseTargets() {
  // One parse for every target where it gives what a parse each would
  // (Driver/OneParse.h); the language server's preambles hide the
  // directives of the #include region from the preprocessor's callbacks,
  // and --dump-analysis prints each target's own parse.
  const ArchInfo *OneFor = T.OneParse && T.Flags.IsCuda && Targets.size() > 1 &&
                                   !Preambles && !T.DumpAnalysis
                               ? oneParseTarget(Targets)
                               : nullptr;
  if (!OneFor) {
    R.Parses = Targets.size() > 1 ? "a parse per target" : "one parse";
    for (size_t I = 0; I < Targets.size(); ++I) {
      if (T.Cancelled && T.Cancelled())
        break;
      if (!parseFor(I, nullptr))
        return false;
    }
    return true;
  }
  std::vector<size_t> All;
  for (size_t I = 0; I < Targets.size(); ++I)
    All.push_back(I);
  std::vector<size_t> Rest;
  std::string Why;
  if (!parseShared(All, OneFor, /*KnownAlike=*/false, Rest, Why))
    return false;
  if (Rest.empty()) {
    R.Parses = "one parse, for " + OneFor->Name;
    if (!Why.empty())
      R.Parses += ": " + Why;
    return true;
  }
  // The targets the first parse could not stand for: where their user code
  // preprocesses alike, a parse for each group of them.
  std::vector<std::string> Made = {made(OneFor, All, Rest)};
  while (!Rest.empty()) {
    if (T.Cancelled && T.Cancelled())
      break;
    std::vector<size_t> Group;
    for (size_t I : Rest)
      if (I == Rest.front() ||
          (Digests[I] && Digests[I] == Digests[Rest.front()]))
        Group.push_back(I);
    llvm::erase_if(Rest,
                   [&](size_t I) { return llvm::is_contained(Group, I); });
    std::vector<const ArchInfo *> Archs;
    for (size_t I : Group)
      Archs.push_back(Targets[I]);
    const ArchInfo *For = Group.size() > 1 ? oneParseTarget(Archs) : nullptr;
    std::vector<size_t> Alone = Group;
    if (For) {
      Alone.clear();
      std::string Ignored;
      if (!parseShared(Group, For, /*KnownAlike=*/true, Alone, Ignored))
        return false;
      Made.push_back(made(For, Group, Alone));
    }
    for (size_t I : Alone) {
      if (T.Cancelled && T.Cancelled())
        break;
      if (!parseFor(I, nullptr))
        return false;
      Made.push_back(Targets[I]->Name);
    }
  }
  if (Made.size() == Targets.size())
    R.Parses = "a parse per target: " + Why;
  else
    R.Parses = std::to_string(Made.size()) + " parses (" +
               llvm::join(Made, "; ") + "): " + Why;
  return true;
}

// A parse made for For, judged for Group's targets but those of Except, in
// words: "sm_80 for sm_80,sm_90".
std::string FileParses::made(const ArchInfo *For, llvm::ArrayRef<size_t> Group,
                             llvm::ArrayRef<size_t> Except) const {
  std::vector<std::string> Judged;
  for (size_t I : Group)
    if (!llvm::is_contained(Except, I))
      Judged.push_back(Targets[I]->Name);
  return Judged.size() > 1 ? For->Name + " for " + llvm::join(Judged, ",")
                           : For->Name;
}

bool FileParses::parseShared(llvm::ArrayRef<size_t> Group, const ArchInfo *For,
                             bool KnownAlike, std::vector<size_t> &Rest,
                             std::string &Why) {
  size_t Own = llvm::find(Targets, For) - Targets.begin();
  SharedParse Shared;
  std::vector<size_t> OthersAt;
  for (size_t I : Group)
    if (I != Own) {
      Shared.Others.push_back({Targets[I], &Sinks[I]});
      OthersAt.push_back(I);
    }
  Shared.UserCodeAlike = [this, Own, OthersAt,
                          KnownAlike](const TargetDependence &Parse) {
    return KnownAlike ? std::vector<bool>(OthersAt.size(), true)
                      : userCodeAlike(Own, OthersAt, Parse);
  };
  if (!parseFor(Own, &Shared))
    return false;
  // The code generator may fail for the oldest target alone (a builtin
  // it lacks): the others' IR findings then need their own parses.
  bool AnyJudged = false;
  for (size_t K = 0; K < OthersAt.size(); ++K)
    AnyJudged |= Shared.judges(K);
  if (AnyJudged && !T.IRBarrierCheck.empty() && !Shared.IRAnalysed) {
    Shared.OwnParsesBecause = "the IR layer's code generation failed";
    Shared.JudgedHere.assign(OthersAt.size(), false);
  }
  for (size_t K = 0; K < OthersAt.size(); ++K)
    if (!Shared.judges(K)) {
      Sinks[OthersAt[K]] = DiagSink();
      Rest.push_back(OthersAt[K]);
    }
  if (!Rest.empty())
    Why = Shared.OwnParsesBecause;
  else if (!Shared.Watched.Where.empty())
    Why = "the code tests the target, but preprocesses to the same code "
          "for every target";
  return true;
}

bool FileParses::parseFor(size_t I, SharedParse *Shared) {
  if (Preambles || T.MainFileOnly || T.SkipBody || T.DumpAnalysis ||
      !T.Flags.IsCuda)
    return parseOnce(I, Shared, T, nullptr);
  FirstParseErrors FirstErrors;
  if (!parseOnce(I, Shared, T, &FirstErrors))
    return false;
  std::optional<SecondParse> Again = secondParse(FirstErrors, T, FS);
  if (!Again)
    return true;
  for (const std::string &Warning : Again->Warnings)
    warn(Warning);
  forget(I, Shared, Again->KeepErrors);
  return parseOnce(I, Shared, Again->Task, nullptr, Again->Files.get());
}

void FileParses::forget(size_t I, SharedParse *Shared, bool KeepErrors) {
  std::vector<ToolError> Errors =
      KeepErrors ? Sinks[I].errors() : std::vector<ToolError>();
  Sinks[I] = DiagSink();
  for (ToolError &E : Errors)
    Sinks[I].reportError(std::move(E));
  if (Shared) { // as before the first parse, the targets it stands for kept
    SharedParse Fresh;
    Fresh.Others = std::move(Shared->Others);
    Fresh.UserCodeAlike = std::move(Shared->UserCodeAlike);
    *Shared = std::move(Fresh);
  }
}

bool FileParses::parseOnce(size_t I, SharedParse *Shared, const FileTask &Task,
                           FirstParseErrors *FirstErrors,
                           FileManager *ParseFiles) {
  if (!ParseFiles)
    ParseFiles = &Files;
  const ArchInfo *Arch = Targets[I];
  // Heap objects, so that after a contained crash they can be abandoned
  // rather than destroyed half-way through their work.
  auto Errors = std::make_unique<ErrorCollector>(Sinks[I], T.File, FirstErrors);
  std::vector<std::string> Args = buildParseArgs(Task, Env, Arch);
  auto Action = std::make_unique<AnalysisAction>(
      Task, *Env.Tables, Judged{Arch, &Sinks[I]}, Shared,
      T.DumpAnalysis ? &R.Dump : nullptr, Resources);
  if (T.MainFileOnly && !T.SkipBody && I == 0)
    Action->collectBodies(&R.Bodies);
  if (FirstErrors)
    Action->collectFirstParseErrors(FirstErrors);
  if (T.RecordDependencies)
    Action->collectLaunches(&R.Launched);
  std::string IRFailure;
  Action->collectIRFailure(&IRFailure);
  std::map<std::string, unsigned> Withheld;
  Action->collectWithheld(&Withheld);
  std::unique_ptr<tooling::ToolInvocation> Invocation;
  if (!Preambles) {
    Invocation = std::make_unique<tooling::ToolInvocation>(
        Args, std::move(Action), ParseFiles);
    Invocation->setDiagnosticConsumer(Errors.get());
  }
  auto Parse = [&] {
    if (!Preambles) {
      Invocation->run();
      return;
    }
    if (!Preambles->parse(Args, std::move(Action), FS, *Errors, Sinks[I])) {
      ToolError E;
      E.Loc.File = T.File;
      E.Message = "cannot make a compiler invocation of the compile command";
      Sinks[I].reportError(std::move(E));
    }
  };
  // A TU with errors still gets the findings of what parsed; the errors
  // themselves go to the sink, merged across targets. A crash in the
  // parser or in a check is contained: this file gets an error, the other
  // files are still analysed. The parse runs on a thread of its own with
  // a stack deep enough for the walks of a deep expression (Budget.h).
  llvm::CrashRecoveryContext CRC;
  if (CRC.RunSafelyOnThread(Parse, AnalysisStackSize)) {
    // The IR layer failed on this file: what is missing, and the user must
    // know (the message says what and what stands).
    if (!IRFailure.empty()) {
      R.IRFailed = true;
      warn(T.File + ": " + IRFailure);
    }
    if (!Withheld.empty())
      warn(T.File + (Arch ? " (" + Arch->Name + ")" : std::string()) + ": " +
           withheldWarning(Withheld));
    return true;
  }
  (void)Invocation.release();
  (void)Errors.release();
  ParseFiles->Retain();
  ToolError E;
  E.Loc.File = T.File;
  E.Message = "internal error: warplint crashed while analysing this file" +
              std::string(Arch ? " for " + Arch->Name : "") +
              "; its findings are incomplete (please report this)";
  E.Crashed = true;
  Sinks[I].reportError(std::move(E));
  return false;
}

} // namespace

FileResult runFile(const FileTask &T, const RunEnvironment &Env,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                   PreambleCache *Preambles) {
  FileResult R;
  if (!T.Flags.Dropped.empty()) {
    std::string List;
    for (const std::string &D : T.Flags.Dropped)
      List += (List.empty() ? "" : " ") + D;
    R.Warnings.push_back(T.File +
                         ": ignored compile flags warplint cannot "
                         "translate: " +
                         List);
  }
  if (!FS)
    FS = llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
        llvm::vfs::createPhysicalFileSystem().release());
  std::string WrapperCudaH =
      T.Flags.IsCuda ? wrapperCudaHeader(Env, *FS) : std::string();
  if (!WrapperCudaH.empty())
    FS = withWrapperCudaHeader(FS, WrapperCudaH, Env.Toolkit);
  llvm::IntrusiveRefCntPtr<FileManager> Files(
      new FileManager(FileSystemOptions(), FS));

  std::vector<const ArchInfo *> Targets = T.Archs;
  if (!T.Flags.IsCuda)
    Targets = {nullptr}; // plain C++: one host parse, host-side checks only
  // Register counts for launch-occupancy: nvcc runs beside the parses.
  std::unique_ptr<ResourceUsageJob> Resources;
  if (T.Flags.IsCuda && !T.Nvcc.empty() && T.Ptxas.empty() && !T.DumpAnalysis &&
      T.ResourceUsage && mentionsLaunch(T, *FS))
    Resources = ResourceUsageJob::start(T, T.Nvcc, T.ResourceCacheDir);

  FileParses Parses(T, Env, FS, *Files, std::move(Targets), Resources.get(),
                    Preambles, R);
  bool Finished = Parses.parseTargets();
  Parses.gather();
  if (!Finished)
    return R;
  R.Sink.mergeTargets();
  if (T.RecordDependencies || (Resources && Resources->wantsDependencies())) {
    R.Dependencies = filesRead(*Files, WrapperCudaH);
    if (Resources)
      Resources->finish(R.Dependencies);
    if (!T.RecordDependencies)
      R.Dependencies.clear();
  }
  return R;
}

} // namespace warplint
