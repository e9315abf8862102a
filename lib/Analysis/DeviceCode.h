// Which functions the user wrote as device code. Clang marks some functions
// __host__ __device__ on its own: constexpr functions, and lambdas with no
// attributes of their own, wherever they are written. Checks that must stay
// silent on host code ask for the functions written for the device.
#pragma once
#include "clang/AST/Decl.h"

namespace warplint {

// A kernel, a function declared __device__ (or __host__ __device__), or a
// lambda written inside one of those.
bool isWrittenForDevice(const clang::FunctionDecl *F);

} // namespace warplint
