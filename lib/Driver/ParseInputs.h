// What a parse reads besides its arguments (buildParseArgs, Runner.h): the
// file system, with files in memory over the disk, and afterwards the list
// of files it read. Internal to the driver.
#pragma once
#include "Driver/Overlay.h"
#include "Driver/Runner.h"
#include "clang/Basic/FileManager.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <string>
#include <vector>

namespace clang {
class Decl;
class SourceManager;
} // namespace clang

namespace warplint {

// Whether a parse may skip D's body, as clangd skips bodies in a preamble:
// a host-only function of a system header that is no template (the C++
// library's, the runtime API's host side). A device-side analysis reads no
// such body: the IR holds only device code, and the checks stop at system
// headers. A device or host-device function keeps its body (inlined into
// the user's kernels), and so does a template (it instantiates the kernels
// and functors the user's code hands it); clang itself keeps constexpr
// functions and those with a deduced return type. Set
// FrontendOptions::SkipFunctionBodies for the parser to ask.
bool skippableSystemBody(const clang::Decl *D, const clang::SourceManager &SM);

// clang's CUDA wrapper header includes "cuda.h" for CUDA_VERSION, and a
// quoted include looks first in the includer's directory, then on the -I
// path: a project's own cuda.h there (Rodinia's util/cuda/cuda.h, next to
// the file and on -I) is taken for the toolkit's, and the parse fails with
// "cuda.h did not define CUDA_VERSION". nvcc never includes a cuda.h by
// itself. A cuda.h beside the wrapper, in memory, that includes the
// toolkit's by its path is what the wrapper finds first; the project's
// `#include "cuda.h"` still finds its own. The path, or empty where there
// is no toolkit or clang has a cuda.h of its own there.
std::string wrapperCudaHeader(const RunEnvironment &Env,
                              llvm::vfs::FileSystem &FS);

// FS with wrapperCudaHeader's file at Path, which includes Toolkit's cuda.h.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withWrapperCudaHeader(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                      llvm::StringRef Path, const CudaToolkit &Toolkit);

// Every file a parse read (absolute paths, symlinks and '..' resolved), but
// Skip (a file only in memory).
std::vector<std::string> filesRead(clang::FileManager &Files,
                                   llvm::StringRef Skip);

} // namespace warplint
