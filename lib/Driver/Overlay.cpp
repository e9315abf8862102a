#include "Driver/Overlay.h"
#include "llvm/Support/MemoryBuffer.h"

namespace warplint {

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withFilesInMemory(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                  const std::map<std::string, std::string> &Files) {
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  if (auto Cwd = FS->getCurrentWorkingDirectory())
    Memory->setCurrentWorkingDirectory(*Cwd);
  for (const auto &[Path, Text] : Files)
    Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(FS);
  Overlay->pushOverlay(Memory);
  return Overlay;
}

} // namespace warplint
