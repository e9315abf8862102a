#include "Driver/CacheEntry.h"
#include "Support/JsonText.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using json = nlohmann::ordered_json;

namespace warplint {

std::string cacheEntryPath(llvm::StringRef Dir, llvm::StringRef Key) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Key.substr(0, 2), Key + ".json");
  return std::string(P);
}

std::optional<json> readCacheEntry(llvm::StringRef Path, int Format,
                                   const FileHasher &Hash) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return std::nullopt;
  json Entry = json::parse((*Buffer)->getBuffer().begin(),
                           (*Buffer)->getBuffer().end(), nullptr, false);
  try {
    if (Entry.is_discarded() || Entry.at("format").get<int>() != Format)
      return std::nullopt;
    for (const json &D : Entry.at("deps"))
      if (Hash(D.at(0).get<std::string>()) != D.at(1).get<std::string>())
        return std::nullopt; // a file the parse read has changed
  } catch (const json::exception &) {
    return std::nullopt; // not an entry this warplint wrote: a miss
  }
  return Entry;
}

void writeCacheEntry(llvm::StringRef Path, int Format,
                     const std::vector<std::string> &Dependencies,
                     const FileHasher &Hash, json Fields) {
  json Deps = json::array();
  for (const std::string &D : Dependencies) {
    std::string H = Hash(D);
    if (H.empty())
      return; // a file read by the parse that cannot be read back: no entry
    Deps.push_back({D, H});
  }
  json Entry = {{"format", Format}, {"deps", Deps}};
  Entry.update(Fields);
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
  llvm::consumeError(llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << jsonText(Entry);
    return llvm::Error::success();
  }));
}

} // namespace warplint
