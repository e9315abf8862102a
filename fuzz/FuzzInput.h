// What every fuzz target shares: libFuzzer's input as text.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <cstdint>

namespace warplint::fuzz {

inline llvm::StringRef textOf(const uint8_t *Data, size_t Size) {
  return llvm::StringRef(reinterpret_cast<const char *>(Data), Size);
}

} // namespace warplint::fuzz
