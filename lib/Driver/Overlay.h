// Files held in memory over a file system: the unsaved buffers of an editor,
// a rewritten copy of a file for a second parse.
#pragma once
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <string>

namespace warplint {

// FS with Files (path: contents) in memory over it. A relative path is
// FS's working directory's.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withFilesInMemory(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                  const std::map<std::string, std::string> &Files);

} // namespace warplint
