// libFuzzer target: .warplint.yaml (Core/Config.h), parsed as the CLI reads
// it, then combined with a command line and turned into check globs.
#include "Core/Config.h"
#include "FuzzInput.h"
#include "Support/Glob.h"

using namespace warplint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto C = parseConfig(fuzz::textOf(Data, Size), "fuzz/.warplint.yaml");
  if (!C) {
    llvm::consumeError(C.takeError());
    return 0;
  }
  EffectiveSettings E = combineSettings(&*C, "-*,warp-*", "divergence-*");
  GlobList Checks(E.ChecksText), AsErrors(E.WarningsAsErrorsText);
  (void)Checks.contains("warp-legacy-intrinsic");
  (void)AsErrors.contains("divergence-barrier");
  std::vector<std::string> Archs;
  for (const std::string &A : C->Arch)
    appendArchList(A, Archs);
  return 0;
}
