#include "IR/DebugSource.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace warplint::ir {

std::string pathOf(const DIFile *F) {
  if (!F)
    return "";
  SmallString<256> Path(F->getFilename());
  if (sys::path::is_relative(Path) && !F->getDirectory().empty()) {
    Path = F->getDirectory();
    sys::path::append(Path, F->getFilename());
  }
  return std::string(Path);
}

bool startsWithReturn(StringRef Text) {
  return Text.starts_with("return") &&
         (Text.size() == 6 || (!isAlnum(Text[6]) && Text[6] != '_'));
}

const ReturnStatementsOnDisk::File *
ReturnStatementsOnDisk::fileFor(const std::string &Path) {
  auto [It, New] = Files.try_emplace(Path);
  if (!New)
    return It->second.get();
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return nullptr;
  auto F = std::make_unique<File>();
  F->Buffer = std::move(*Buffer);
  StringRef Text = F->Buffer->getBuffer();
  F->LineStarts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      F->LineStarts.push_back(I + 1);
  It->second = std::move(F);
  return It->second.get();
}

bool ReturnStatementsOnDisk::operator()(const DILocation &L) {
  const File *F = fileFor(pathOf(L.getFile()));
  if (!F || L.getLine() == 0 || L.getLine() > F->LineStarts.size() ||
      L.getColumn() == 0)
    return false;
  size_t Offset = F->LineStarts[L.getLine() - 1] + L.getColumn() - 1;
  StringRef Text = F->Buffer->getBuffer();
  return Offset < Text.size() && startsWithReturn(Text.substr(Offset));
}

} // namespace warplint::ir
