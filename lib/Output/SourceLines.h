// The lines of source files, each file read once: for carets, fingerprints
// and SARIF's UTF-16 columns.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <memory>
#include <string>

namespace warplint {

class SourceLines {
public:
  // Line (1-based) of File without its line break; empty when unreadable.
  llvm::StringRef line(const std::string &File, unsigned Line) {
    auto &Buf = Files[File];
    if (!Buf) {
      auto B = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
      Buf = B ? std::move(*B) : llvm::MemoryBuffer::getMemBuffer("");
    }
    llvm::StringRef Rest = Buf->getBuffer();
    for (unsigned I = 1; I < Line && !Rest.empty(); ++I)
      Rest = Rest.split('\n').second;
    return Line ? Rest.split('\n').first.rtrim("\r") : llvm::StringRef();
  }

private:
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Files;
};

} // namespace warplint
