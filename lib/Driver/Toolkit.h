// Finding the CUDA toolkit the way the design page orders it: --cuda-path,
// $CUDA_PATH, $CUDA_HOME, nvcc on PATH, /usr/local/cuda.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <string>

namespace warplint {

struct CudaToolkit {
  std::string Path;    // empty: none found
  std::string Version; // "13.0", from include/cuda.h; empty if unknown
  bool found() const { return !Path.empty(); }
};

// A directory counts as a toolkit when it has include/cuda_runtime.h.
bool looksLikeToolkit(llvm::StringRef Dir);
// Explicit is --cuda-path; when it is given but is no toolkit, nothing else is
// tried (the user asked for that one), and the fallback header is used.
CudaToolkit findCudaToolkit(llvm::StringRef Explicit);

} // namespace warplint
