// A cache of each file's results (--cache-dir), so that a CI run over
// mostly unchanged files parses only the changed ones.
//
// As ccache's direct mode: an entry is found by a hash of everything known
// before the parse (warplint's build, the rule tables, the checks and their
// options, the targets, the parse's arguments, the main file's path and
// text), and holds the list of every file the parse read with a hash of
// each. It is a hit when every one of those files still hashes the same; an
// edited header is a miss. Entries are written to a temporary file and
// renamed into place, so a run never reads a half-written one, whatever
// other runs share the directory; an entry that does not read back is a
// miss and is written anew.
#pragma once
#include "Driver/Runner.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <mutex>
#include <optional>
#include <string>

namespace warplint {

class ResultCache {
public:
  // Creates Dir if needed; an error when it cannot be used.
  static llvm::Expected<std::unique_ptr<ResultCache>>
  open(llvm::StringRef Dir, std::string Identity);

  // The key of T's entry: Identity (the build and the rule tables) and all
  // of T that decides its results.
  std::string keyOf(const FileTask &T, const RunEnvironment &Env);
  std::optional<FileResult> lookup(const std::string &Key);
  // Results with a contained crash are not stored.
  void store(const std::string &Key, const FileResult &R);

  // A hash of the content of a file, or "" when it cannot be read; each file
  // hashed once per run.
  std::string contentHash(const std::string &Path);

private:
  ResultCache(std::string Dir, std::string Identity)
      : Dir(std::move(Dir)), Identity(std::move(Identity)) {}
  std::string pathOf(const std::string &Key) const;

  std::string Dir, Identity;
  std::mutex Lock; // the hash memo, for -j
  llvm::StringMap<std::string> Hashes;
};

// What identifies this warplint and its rule tables: the version, the
// executable's size and time, and the tables' content.
std::string buildIdentity(llvm::StringRef Executable,
                          llvm::StringRef ArchDataDir);

// A FileResult as text and back: the cache's entries, and what a --timeout
// worker process hands back. Text that does not read back: nothing.
std::string serializeResult(const FileResult &R);
std::optional<FileResult> deserializeResult(llvm::StringRef Text);

} // namespace warplint
