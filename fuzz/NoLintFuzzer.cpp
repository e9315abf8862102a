// libFuzzer target: NOLINT comments (Core/NoLint.h), indexed over a whole
// buffer as the CLI does for each file with findings, then asked about
// every line.
#include "Core/NoLint.h"
#include "FuzzInput.h"

using namespace warplint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text = fuzz::textOf(Data, Size);
  NoLintIndex Index(Text);
  unsigned Lines = Text.count('\n') + 2;
  for (unsigned L = 0; L <= Lines; ++L) {
    (void)Index.suppresses(L, "warp-legacy-intrinsic");
    (void)Index.suppresses(L, "divergence-barrier");
  }
  for (const NoLintIndex::Problem &P : Index.problems())
    (void)P.Message.size();
  return 0;
}
