// libFuzzer target: a baseline file (--baseline, Output/Fingerprint.h).
#include "FuzzInput.h"
#include "Output/Fingerprint.h"

using namespace warplint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto B = parseBaseline(fuzz::textOf(Data, Size), "fuzz/baseline.json");
  if (!B)
    llvm::consumeError(B.takeError());
  return 0;
}
