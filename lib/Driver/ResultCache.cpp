#include "Driver/ResultCache.h"
#include "Core/FindingJSON.h"
#include "Driver/CacheEntry.h"
#include "Support/Hashing.h"
#include "Support/JsonText.h"
#include "checks/Registry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <nlohmann/json.hpp>

using json = nlohmann::ordered_json;

namespace warplint {

namespace {

// Of an entry; a change makes old entries misses. 5: findings as
// Core/FindingJSON.h writes them; 6: the kernels the file launches.
constexpr int Format = 6;

json locationJson(const Location &L) { return {L.File, L.Line, L.Column}; }
Location locationOf(const json &J) {
  return {J.at(0).get<std::string>(), J.at(1).get<unsigned>(),
          J.at(2).get<unsigned>()};
}

json toJson(const FileResult &R) {
  json Findings = json::array();
  for (const Finding &F : R.Sink.findings())
    Findings.push_back(findingToJson(F, FindingJSONForm::Complete));
  json Errors = json::array();
  for (const ToolError &E : R.Sink.errors())
    Errors.push_back({{"loc", locationJson(E.Loc)},
                      {"message", E.Message},
                      {"compiler", E.FromCompiler},
                      {"crashed", E.Crashed}});
  return {{"findings", Findings},           {"errors", Errors},
          {"warnings", R.Warnings},         {"dump", R.Dump},
          {"dependencies", R.Dependencies}, {"launched", R.Launched}};
}

// Nothing when a finding does not read back; the other fields throw
// json::exception.
std::optional<FileResult> fromJson(const json &J) {
  FileResult R;
  for (const json &E : J.at("errors")) {
    ToolError T;
    T.Loc = locationOf(E.at("loc"));
    T.Message = E.at("message").get<std::string>();
    T.FromCompiler = E.at("compiler").get<bool>();
    T.Crashed = E.at("crashed").get<bool>();
    R.Sink.reportError(std::move(T));
  }
  for (const json &FJ : J.at("findings")) {
    llvm::Expected<Finding> F = findingFromJson(FJ);
    if (!F) {
      llvm::consumeError(F.takeError());
      return std::nullopt;
    }
    R.Sink.report(std::move(*F));
  }
  for (const json &W : J.at("warnings"))
    R.Warnings.push_back(W.get<std::string>());
  R.Dump = J.at("dump").get<std::string>();
  R.Dependencies = J.at("dependencies").get<std::vector<std::string>>();
  R.Launched =
      J.at("launched").get<std::vector<std::pair<std::string, std::string>>>();
  return R;
}

} // namespace

std::string serializeResult(const FileResult &R) { return jsonText(toJson(R)); }

std::optional<FileResult> deserializeResult(llvm::StringRef Text) {
  try {
    return fromJson(json::parse(Text.begin(), Text.end()));
  } catch (const json::exception &) {
    return std::nullopt;
  }
}

llvm::Expected<std::unique_ptr<ResultCache>>
ResultCache::open(llvm::StringRef Dir, std::string Identity) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot use the cache directory '" +
                                           Dir + "': " + EC.message());
  llvm::SmallString<256> Probe(Dir);
  llvm::sys::path::append(Probe, "probe-%%%%%%%%");
  int FD;
  llvm::SmallString<256> Made;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Probe, FD, Made))
    return llvm::createStringError(EC, "cannot write in the cache directory '" +
                                           Dir + "': " + EC.message());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  llvm::sys::fs::remove(Made);
  return std::unique_ptr<ResultCache>(
      new ResultCache(Dir.str(), std::move(Identity)));
}

std::string ResultCache::contentHash(const std::string &Path) {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    auto It = Hashes.find(Path);
    if (It != Hashes.end())
      return It->second;
  }
  std::string H = fileContentHash(Path);
  std::lock_guard<std::mutex> Hold(Lock);
  Hashes[Path] = H;
  return H;
}

std::string ResultCache::keyOf(const FileTask &T, const RunEnvironment &Env) {
  Hasher H;
  H.add(Identity).add(std::to_string(Format));
  for (const CheckInfo &C : allChecks())
    H.add(C.Id)
        .add(T.Checks.contains(C.Id) ? "on" : "off")
        .add(T.WarningsAsErrors.contains(C.Id) ? "error" : "");
  for (const auto &[Name, Value] : T.Options)
    H.add(Name).add(Value);
  H.add(T.IRLayer ? "ir" : "no-ir");
  H.add(T.IRBarrierCheck.empty() ? "no-ir-barriers" : "ir-barriers");
  H.add(T.Flags.IsCuda ? "cuda" : "c++");
  // Where launch-occupancy's registers come from, if anywhere.
  H.add(T.Ptxas).add(T.Libdevice).add(T.Nvcc);
  // The build's output the registers are read from: a rebuild is a new key.
  if (T.ResourceUsage && !T.BuildOutput.empty()) {
    llvm::sys::fs::file_status S;
    H.add(T.BuildOutput);
    if (!llvm::sys::fs::status(T.BuildOutput, S))
      H.add(std::to_string(
                S.getLastModificationTime().time_since_epoch().count()))
          .add(std::to_string(S.getSize()));
  }
  std::vector<const ArchInfo *> Parses = T.Archs;
  if (!T.Flags.IsCuda)
    Parses = {nullptr};
  for (const ArchInfo *A : Parses)
    for (const std::string &Arg : buildParseArgs(T, Env, A))
      H.add(Arg);
  H.add(T.Directory);
  llvm::SmallString<256> Main(T.File);
  llvm::sys::fs::make_absolute(Main);
  H.add(Main).add(contentHash(std::string(Main)));
  return H.hash();
}

std::string ResultCache::pathOf(const std::string &Key) const {
  return cacheEntryPath(Dir, Key);
}

std::optional<FileResult> ResultCache::lookup(const std::string &Key) {
  std::optional<json> Entry =
      readCacheEntry(pathOf(Key), Format,
                     [&](const std::string &P) { return contentHash(P); });
  if (!Entry)
    return std::nullopt;
  try {
    std::optional<FileResult> R = fromJson(Entry->at("result"));
    if (!R)
      return std::nullopt; // not an entry this warplint wrote: a miss
    for (const json &D : Entry->at("deps"))
      R->Dependencies.push_back(D.at(0).get<std::string>());
    return R;
  } catch (const json::exception &) {
    return std::nullopt; // not an entry this warplint wrote: a miss
  }
}

void ResultCache::store(const std::string &Key, const FileResult &R) {
  if (R.IRFailed || llvm::any_of(R.Sink.errors(),
                                 [](const ToolError &E) { return E.Crashed; }))
    return;
  writeCacheEntry(pathOf(Key), Format, R.Dependencies,
                  [&](const std::string &P) { return contentHash(P); },
                  {{"result", toJson(R)}});
}

std::string buildIdentity(llvm::StringRef Executable,
                          llvm::StringRef ArchDataDir) {
  Hasher H;
  H.add(WARPLINT_VERSION);
  H.addFileStamp(Executable);
  std::error_code EC;
  std::vector<std::string> Tables;
  for (llvm::sys::fs::directory_iterator It(ArchDataDir, EC), End;
       It != End && !EC; It.increment(EC))
    Tables.push_back(It->path());
  std::sort(Tables.begin(), Tables.end());
  for (const std::string &T : Tables)
    if (auto B = llvm::MemoryBuffer::getFile(T))
      H.add(T).add((*B)->getBuffer());
  return H.hash();
}

} // namespace warplint
