// The source behind debug locations: the path of a debug-info file, and
// whether a location is a `return` statement (the IR of `return;` and of
// falling off the end of an if look alike; the text tells them apart).
#pragma once
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class DIFile;
class DILocation;
} // namespace llvm

namespace warplint::ir {

// The path of a debug-info file, made absolute with its directory.
std::string pathOf(const llvm::DIFile *F);

// Whether Text (from a location to the end of its file) starts with the
// keyword `return`.
bool startsWithReturn(llvm::StringRef Text);

// Answers "is L a return statement?" from the files on disk, each read once.
class ReturnStatementsOnDisk {
public:
  bool operator()(const llvm::DILocation &L);

private:
  struct File {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::vector<size_t> LineStarts;
  };
  const File *fileFor(const std::string &Path);
  llvm::StringMap<std::unique_ptr<File>> Files;
};

} // namespace warplint::ir
