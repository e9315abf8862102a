// Parses a CUDA snippet (device side, sm_80, warplint's fallback header so no
// toolkit is needed) for the analysis unit tests.
#pragma once
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

inline std::unique_ptr<clang::ASTUnit> parseCuda(llvm::StringRef Code) {
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=sm_80",
                                   "-nocudainc",
                                   "-nogpulib",
                                   "-resource-dir",
                                   WARPLINT_CLANG_RESOURCE_DIR,
                                   "-isystem",
                                   WARPLINT_SOURCE_DIR
                                   "/share/include/fallback",
                                   "-include",
                                   "warplint_cuda_fallback.h",
                                   "-std=c++17",
                                   "-Xclang",
                                   "-target-sdk-version=12.0"};
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
}
