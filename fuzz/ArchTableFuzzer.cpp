// libFuzzer target: one arch-data table (Arch/ArchTable.h,
// arch-data/sm_XX.json), parsed and validated as at start-up.
#include "Arch/ArchTable.h"
#include "FuzzInput.h"

using namespace warplint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto A = ArchTable::parseTable(fuzz::textOf(Data, Size), "fuzz/sm_80.json");
  if (!A) {
    llvm::consumeError(A.takeError());
    return 0;
  }
  for (const auto &[Name, Has] : A->features())
    (void)A->hasFeature(Name);
  return 0;
}
