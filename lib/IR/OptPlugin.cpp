// The IR layer's pass plugin for opt, without Clang:
//   opt -load-pass-plugin=WarpLintIRPlugin.so
//   -passes='print<warplint-barriers>'
// (WarpLintPlugin.so, the clang plugin, links libclang-cpp, which opt cannot
// load next to its own options.)
#include "IR/BarrierDivergence.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {
      LLVM_PLUGIN_API_VERSION, "warplint-ir", WARPLINT_VERSION,
      [](llvm::PassBuilder &PB) { warplint::ir::registerBarrierPasses(PB); }};
}
