#include "Driver/ResourceUsage.h"
#include "Driver/CacheEntry.h"
#include "Driver/Runner.h"
#include "Support/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>
#ifdef LLVM_ON_UNIX
#include <signal.h>
#endif

using json = nlohmann::ordered_json;
using namespace llvm;

namespace warplint {

namespace {

constexpr int Format = 1; // of a cache entry
// The longest a resource-usage compile may take; then it is killed and the
// registers are left out, as without a toolkit.
constexpr unsigned TimeoutSeconds = 300;

std::string readFile(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

std::string absoluteIn(StringRef Dir, StringRef Path) {
  SmallString<256> P(Path);
  if (sys::path::is_relative(P)) {
    if (!Dir.empty())
      sys::path::make_absolute(Dir, P);
    else
      sys::fs::make_absolute(P);
  }
  sys::path::remove_dots(P, true);
  return std::string(P);
}

} // namespace

ResourceTable parsePtxasOutput(StringRef Text) {
  // ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'
  // ptxas info    : Function properties for _Z1kPf
  //     0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
  // ptxas info    : Used 12 registers, used 1 barriers, 160 bytes smem, ...
  static const Regex Entry(
      "Compiling entry function '([^']+)' for '(sm_[0-9a-z]+)'");
  static const Regex Used("Used ([0-9]+) registers");
  static const Regex Smem("([0-9]+) bytes smem");
  static const Regex Spill("([0-9]+) bytes spill stores");
  ResourceTable Out;
  KernelResources *Current = nullptr;
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    SmallVector<StringRef, 3> M;
    if (Entry.match(Line, &M)) {
      Current = &Out[M[2].str()][M[1].str()];
      continue;
    }
    if (!Current)
      continue;
    if (Spill.match(Line, &M))
      M[1].getAsInteger(10, Current->SpillBytes);
    if (Used.match(Line, &M)) {
      M[1].getAsInteger(10, Current->Registers);
      if (Smem.match(Line, &M))
        M[1].getAsInteger(10, Current->SharedBytes);
      Current = nullptr; // the entry's last line
    }
  }
  return Out;
}

namespace {

// The first error line of a failed run's output, as the program printed it;
// else its exit status.
std::string firstError(StringRef Text, StringRef Program, int Status) {
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, false);
  for (StringRef L : Lines)
    if (L.contains("error"))
      return L.trim().str();
  return (Program + " exited with status " + Twine(Status)).str();
}

// One target's kernels as a cache entry holds them: name -> [registers,
// shared bytes, spilled bytes]. kernelsFromJson throws json::exception on
// what this warplint did not write.
json kernelsToJson(const std::map<std::string, KernelResources> &Kernels) {
  json Out = json::object();
  for (const auto &[Name, R] : Kernels)
    Out[Name] = {R.Registers, R.SharedBytes, R.SpillBytes};
  return Out;
}
std::map<std::string, KernelResources> kernelsFromJson(const json &J) {
  std::map<std::string, KernelResources> Out;
  for (const auto &[Name, R] : J.items())
    Out[Name] = {R.at(0).get<unsigned>(), R.at(1).get<unsigned>(),
                 R.at(2).get<unsigned>()};
  return Out;
}

// Runs ptxas on File for Target; its output in Log. The exit status, -2
// past the time limit, -1 when it could not be started.
int runPtxas(const std::string &Ptxas, StringRef Target, StringRef File,
             StringRef Log, bool Relocatable) {
  std::string Arch = ("-arch=" + Target).str();
  SmallString<128> Out(File);
  Out += ".cubin";
  std::vector<StringRef> Argv = {Ptxas, Arch, "-v", "-o", Out};
  if (Relocatable)
    Argv.push_back("-c");
  Argv.push_back(File);
  std::optional<StringRef> Redirects[] = {StringRef(""), Log, Log};
  int RC =
      sys::ExecuteAndWait(Ptxas, Argv, std::nullopt, Redirects, TimeoutSeconds);
  sys::fs::remove(Out);
  return RC;
}

} // namespace

std::map<std::string, KernelResources>
ptxasResources(const std::string &Ptxas, StringRef Target, StringRef Ptx,
               const std::string &CacheDir, std::string &Failure) {
  std::map<std::string, KernelResources> Out;
  Hasher H;
  H.add("ptx")
      .add(std::to_string(Format))
      .addFileStamp(Ptxas)
      .add(Target)
      .add(Ptx);
  std::string Key = H.hash();
  auto NoHash = [](const std::string &) { return std::string(); };
  if (!CacheDir.empty())
    if (std::optional<json> Entry =
            readCacheEntry(cacheEntryPath(CacheDir, Key), Format, NoHash)) {
      try {
        Out = kernelsFromJson(Entry->at("kernels"));
        Failure = Entry->at("failure").get<std::string>();
        return Out;
      } catch (const json::exception &) {
        Out.clear(); // not an entry this warplint wrote: a miss
      }
    }
  SmallString<128> File, Log;
  if (sys::fs::createTemporaryFile("warplint-kernels", "ptx", File) ||
      sys::fs::createTemporaryFile("warplint-ptxas", "log", Log)) {
    Failure = "cannot create a temporary file";
    return Out;
  }
  {
    std::error_code EC;
    raw_fd_ostream OS(File, EC);
    OS << Ptx;
  }
  int RC = runPtxas(Ptxas, Target, File, Log, /*Relocatable=*/false);
  std::string Text = readFile(Log);
  // Calls of functions the text only declares (extern __device__ functions
  // of other files): a relocatable compile, as -rdc=true would make.
  if (RC > 0 && StringRef(Text).contains("Unresolved extern function")) {
    RC = runPtxas(Ptxas, Target, File, Log, /*Relocatable=*/true);
    Text = readFile(Log);
  }
  sys::fs::remove(File);
  sys::fs::remove(Log);
  bool Keep = true;
  if (RC == 0) {
    ResourceTable Table = parsePtxasOutput(Text);
    auto It = Table.find(Target.str());
    if (It != Table.end())
      Out = std::move(It->second);
  } else if (RC == -2) {
    Failure = "ptxas took longer than " + std::to_string(TimeoutSeconds) + " s";
    Keep = false; // not an answer to keep
  } else if (RC < 0) {
    Failure = "cannot run " + Ptxas;
    Keep = false;
  } else {
    Failure = firstError(Text, "ptxas", RC);
  }
  if (Keep && !CacheDir.empty()) {
    writeCacheEntry(cacheEntryPath(CacheDir, Key), Format, {}, NoHash,
                    {{"kernels", kernelsToJson(Out)}, {"failure", Failure}});
  }
  return Out;
}

const std::vector<std::string> &nvccTargets(const std::string &NvccPath) {
  static std::mutex Lock;
  static std::map<std::string, std::vector<std::string>> Known;
  std::lock_guard<std::mutex> Hold(Lock);
  auto [It, New] = Known.try_emplace(NvccPath);
  if (!New)
    return It->second;
  SmallString<128> Out;
  if (sys::fs::createTemporaryFile("warplint-nvcc", "txt", Out))
    return It->second;
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out),
                                          StringRef("")};
  if (sys::ExecuteAndWait(NvccPath, {NvccPath, "--list-gpu-code"}, std::nullopt,
                          Redirects, /*SecondsToWait=*/60) == 0) {
    SmallVector<StringRef, 32> Lines;
    std::string Text = readFile(Out);
    StringRef(Text).split(Lines, '\n', -1, false);
    for (StringRef L : Lines)
      if (L.trim().starts_with("sm_"))
        It->second.push_back(L.trim().str());
  }
  sys::fs::remove(Out);
  return It->second;
}

std::vector<std::string>
nvccResourceArgs(const FileTask &T, const std::string &NvccPath,
                 const std::vector<std::string> &Targets, StringRef Output) {
  std::vector<std::string> Args = {NvccPath,
                                   "-fatbin",
                                   "-o",
                                   Output.str(),
                                   "-Xptxas",
                                   "-v",
                                   "--expt-relaxed-constexpr",
                                   "--extended-lambda",
                                   "-x",
                                   "cu"};
  for (const std::string &Target : Targets) {
    StringRef Number = StringRef(Target).drop_front(3);
    Args.push_back("-gencode");
    Args.push_back(("arch=compute_" + Number + ",code=" + Target).str());
  }
  // What decides the device code among the parse's flags: include paths,
  // macros, pre-included files and the language standard.
  const std::vector<std::string> &F = T.Flags.Args;
  for (size_t I = 0; I < F.size(); ++I) {
    StringRef A = F[I];
    bool Path = false;
    StringRef Flag, Value;
    for (StringRef P : {"-I", "-isystem", "-include", "-D", "-U"}) {
      if (!A.starts_with(P))
        continue;
      Flag = P;
      Path = P == "-I" || P == "-isystem" || P == "-include";
      if (A.size() > P.size())
        Value = A.drop_front(P.size());
      else if (I + 1 < F.size())
        Value = F[++I];
      break;
    }
    if (Flag.empty()) {
      if (A.starts_with("-std="))
        Args.push_back(A.str());
      continue;
    }
    if (Value.empty())
      continue;
    Args.push_back(Flag.str());
    Args.push_back(Path ? absoluteIn(T.Directory, Value) : Value.str());
  }
  Args.insert(Args.end(), T.Flags.NvccCodegen.begin(),
              T.Flags.NvccCodegen.end());
  Args.push_back(absoluteIn(T.Directory, T.File));
  return Args;
}

std::unique_ptr<ResourceUsageJob>
ResourceUsageJob::start(const FileTask &T, std::string NvccPath,
                        std::string CacheDir) {
  const std::vector<std::string> &Supported = nvccTargets(NvccPath);
  std::unique_ptr<ResourceUsageJob> J(new ResourceUsageJob());
  for (const ArchInfo *A : T.Archs)
    if (A && is_contained(Supported, A->Name))
      J->Targets.push_back(A->Name);
  if (J->Targets.empty())
    return J; // covers nothing: the check says why

  J->Args = nvccResourceArgs(T, NvccPath, J->Targets, "<output>");
  Hasher H;
  H.add(std::to_string(Format)).addFileStamp(NvccPath);
  for (const std::string &A : J->Args)
    H.add(A);
  H.add(fileContentHash(J->Args.back()));
  J->Key = H.hash();
  J->CacheDir = std::move(CacheDir);

  if (!J->CacheDir.empty())
    if (std::optional<json> Entry = readCacheEntry(
            cacheEntryPath(J->CacheDir, J->Key), Format, fileContentHash)) {
      // The last lint of the same text asked nothing of nvcc (no launch
      // whose occupancy needs the registers): start it only if asked.
      if (Entry->value("unneeded", false)) {
        J->Deferred = true;
        return J;
      }
      try {
        for (const auto &[Target, Kernels] : Entry->at("table").items())
          J->Table[Target] = kernelsFromJson(Kernels);
        J->Failure = Entry->at("failure").get<std::string>();
        J->Done = true;
        return J;
      } catch (const json::exception &) {
        J->Table.clear(); // not an entry this warplint wrote: a miss
      }
    }
  J->launch();
  return J;
}

void ResourceUsageJob::launch() {
  Deferred = false;
  SmallString<128> Output, Log;
  if (sys::fs::createTemporaryFile("warplint-ptxas", "fatbin", Output) ||
      sys::fs::createTemporaryFile("warplint-ptxas", "log", Log)) {
    Failure = "cannot create a temporary file";
    Done = true;
    return;
  }
  OutputFile = std::string(Output);
  LogFile = std::string(Log);
  Args[3] = OutputFile;
  std::vector<StringRef> Argv(Args.begin(), Args.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Log),
                                          StringRef(Log)};
  std::string Err;
  bool Failed = false;
  Process = sys::ExecuteNoWait(Args.front(), Argv, std::nullopt, Redirects, 0,
                               &Err, &Failed);
  Ran = true;
  if (Failed) {
    Failure = "cannot run " + Args.front() + ": " + Err;
    Done = true;
  }
}

void ResourceUsageJob::stop() {
  if (Done || !Process.Pid)
    return;
  Done = true;
#ifdef LLVM_ON_UNIX
  ::kill(Process.Pid, SIGKILL);
  sys::Wait(Process, std::nullopt);
#else
  sys::Wait(Process, /*SecondsToWait=*/1); // kills it after a second
#endif
}

ResourceUsageJob::~ResourceUsageJob() {
  stop();
  for (const std::string &F : {OutputFile, LogFile})
    if (!F.empty())
      sys::fs::remove(F);
}

bool ResourceUsageJob::covers(StringRef Target) const {
  return is_contained(Targets, Target);
}

void ResourceUsageJob::wait() {
  std::lock_guard<std::mutex> Hold(Lock);
  if (Deferred)
    launch();
  if (Done)
    return;
  Done = true;
  std::string Err;
  sys::ProcessInfo R = sys::Wait(Process, TimeoutSeconds, &Err);
  std::string Text = readFile(LogFile);
  if (R.ReturnCode == 0) {
    Table = parsePtxasOutput(Text);
    return;
  }
  if (R.ReturnCode == -2) {
    Failure = "nvcc took longer than " + std::to_string(TimeoutSeconds) + " s";
    Ran = false; // not an answer to keep
    return;
  }
  Failure = firstError(Text, "nvcc", R.ReturnCode);
}

std::optional<KernelResources> ResourceUsageJob::lookup(StringRef Target,
                                                        StringRef Mangled,
                                                        std::string &Why) {
  if (!covers(Target))
    return std::nullopt;
  Asked = true;
  wait();
  if (!Failure.empty()) {
    Why = "nvcc could not compile the file for " + Target.str() + " (" +
          Failure + ")";
    return std::nullopt;
  }
  auto T = Table.find(Target.str());
  if (T == Table.end())
    return std::nullopt;
  auto K = T->second.find(Mangled.str());
  if (K == T->second.end())
    return std::nullopt;
  return K->second;
}

void ResourceUsageJob::finish(const std::vector<std::string> &Dependencies) {
  if (!wantsDependencies())
    return;
  if (!Asked) {
    // Nobody needed the answer: stop nvcc, and remember that this text
    // needs none, so that the next lint of it starts no nvcc at all.
    stop();
    writeCacheEntry(cacheEntryPath(CacheDir, Key), Format, Dependencies,
                    fileContentHash, {{"unneeded", true}});
    return;
  }
  wait();
  if (!Ran)
    return;
  json Tab = json::object();
  for (const auto &[Target, Kernels] : Table)
    Tab[Target] = kernelsToJson(Kernels);
  writeCacheEntry(cacheEntryPath(CacheDir, Key), Format, Dependencies,
                  fileContentHash, {{"table", Tab}, {"failure", Failure}});
}

} // namespace warplint
