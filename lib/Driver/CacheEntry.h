// The on-disk entry both caches keep (the result cache, ptxas's resource
// usage), as ccache's direct mode does: found by a key, valid while every
// file the parse read still hashes as recorded, written to a temporary file
// renamed into place so that no reader sees half of one.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

using FileHasher = std::function<std::string(const std::string &)>;

// <Dir>/<first two characters of Key>/<Key>.json
std::string cacheEntryPath(llvm::StringRef Dir, llvm::StringRef Key);

// The entry at Path when it is one of this Format and no file it lists has
// changed; nullopt for a miss (absent, foreign, stale).
std::optional<nlohmann::ordered_json>
readCacheEntry(llvm::StringRef Path, int Format, const FileHasher &Hash);

// Writes Fields plus the format and each dependency's hash; writes nothing
// when a dependency cannot be read back.
void writeCacheEntry(llvm::StringRef Path, int Format,
                     const std::vector<std::string> &Dependencies,
                     const FileHasher &Hash, nlohmann::ordered_json Fields);

} // namespace warplint
