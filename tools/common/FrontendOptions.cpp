#include "FrontendOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace warplint::frontend {

cl::OptionCategory Category("warplint options");

cl::opt<std::string> ChecksOpt(
    "checks",
    cl::desc("Comma-separated globs of checks to run, '-' to exclude, applied "
             "after .warplint.yaml's Checks (e.g. -*,warp-*)"),
    cl::cat(Category));
cl::list<std::string>
    ArchOpt("arch",
            cl::desc("Target architecture(s) to judge for, e.g. sm_80 or "
                     "sm_70,sm_90 (default: the compile command's, then "
                     ".warplint.yaml's Arch, then sm_80)"),
            cl::CommaSeparated, cl::value_desc("sm_XX"), cl::cat(Category));
cl::list<std::string> ExtraArgs(
    "extra-arg",
    cl::desc("Additional argument to append to the compiler command line"),
    cl::cat(Category));
cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before",
    cl::desc("Additional argument to prepend to the compiler command line"),
    cl::cat(Category));
cl::opt<std::string> CudaPathOpt("cuda-path",
                                 cl::desc("CUDA toolkit to parse against"),
                                 cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> ArchDataOpt(
    "arch-data",
    cl::desc("Directory of rule tables (default: the installed arch-data, or "
             "$WARPLINT_ARCH_DATA)"),
    cl::value_desc("dir"), cl::cat(Category));

std::string archDataDirectory(StringRef Share) {
  if (!ArchDataOpt.empty())
    return ArchDataOpt;
  if (auto Env = sys::Process::GetEnv("WARPLINT_ARCH_DATA"))
    if (!Env->empty())
      return *Env;
  return Share.str() + "/arch-data";
}

Expected<ArchTable> loadArchTables(StringRef Dir) {
  auto Tables = ArchTable::loadDirectory(Dir);
  if (!Tables)
    return Tables.takeError();
  for (const std::string &A : ArchOpt)
    if (!Tables->find(A))
      return createStringError("unknown architecture '" + A +
                               "' (--arch); known: " + Tables->knownNames());
  return Tables;
}

std::string clangResourceDirectory(StringRef Share) {
  // The package carries clang's resource headers beside the rule tables, so
  // that its users need no clang -dev package; a source build has none there
  // and reads those of the clang it was built against.
  SmallString<256> Bundled(Share);
  sys::path::append(Bundled, "clang");
  SmallString<256> Wrapper(Bundled);
  sys::path::append(Wrapper, "include", "__clang_cuda_runtime_wrapper.h");
  if (sys::fs::exists(Wrapper))
    return std::string(Bundled);
  return WARPLINT_CLANG_RESOURCE_DIR;
}

RunEnvironment runEnvironment(const ArchTable &Tables, StringRef Share) {
  RunEnvironment Env;
  Env.Tables = &Tables;
  Env.Toolkit = findCudaToolkit(CudaPathOpt);
  Env.FallbackDir = Share.str() + "/include/fallback";
  Env.FeatureHeader =
      Share.str() + "/include/features/warplint_missing_features.h";
  Env.CompatHeader = Share.str() + "/include/compat/warplint_nvcc_compat.h";
  Env.ResourceDir = clangResourceDirectory(Share);
  return Env;
}

} // namespace warplint::frontend
