// The LLVM-only passes may not use clang.
#pragma once
#include "clang/AST/Decl.h"
#include "llvm/IR/Module.h"
