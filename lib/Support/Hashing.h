// The hashes the caches key and check their entries with.
#pragma once
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"
#include <string>

namespace warplint {

inline std::string hexHash(uint64_t H) { return llvm::utohexstr(H, true, 16); }

// A streaming hash of several parts, each delimited.
class Hasher {
public:
  Hasher &add(llvm::StringRef S) {
    Text += std::to_string(S.size());
    Text += ':';
    Text += S;
    return *this;
  }
  // A file's size and modification time: stands for a program's identity
  // without reading it.
  Hasher &addFileStamp(llvm::StringRef Path) {
    llvm::sys::fs::file_status St;
    if (!llvm::sys::fs::status(Path, St))
      add(std::to_string(St.getSize()))
          .add(std::to_string(
              St.getLastModificationTime().time_since_epoch().count()));
    return *this;
  }
  std::string hash() const {
    // Two halves with different seeds: 128 bits, ample for a cache key.
    return hexHash(llvm::xxh3_64bits(Text)) +
           hexHash(llvm::xxh3_64bits("warplint" + Text));
  }

private:
  std::string Text;
};

// A hash of a file's content, or "" when it cannot be read.
inline std::string fileContentHash(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return Buffer ? hexHash(llvm::xxh3_64bits((*Buffer)->getBuffer())) : "";
}

} // namespace warplint
