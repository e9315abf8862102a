// What a parse is given: its driver arguments, and the file system it reads
// (ParseInputs.h); and afterwards the files it read.
#include "Driver/ParseInputs.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace warplint {

bool skippableSystemBody(const Decl *D, const SourceManager &SM) {
  const FunctionDecl *FD = D->getAsFunction();
  return FD && !FD->isTemplated() && !FD->hasAttr<CUDADeviceAttr>() &&
         !FD->hasAttr<CUDAGlobalAttr>() &&
         SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

std::vector<std::string> buildParseArgs(const FileTask &T,
                                        const RunEnvironment &Env,
                                        const ArchInfo *Arch) {
  std::vector<std::string> Args = {"clang++"};
  Args.insert(Args.end(), T.Flags.Args.begin(), T.Flags.Args.end());
  Args.push_back("-fsyntax-only");
  Args.push_back("-resource-dir");
  Args.push_back(Env.ResourceDir);
  if (!T.Directory.empty()) {
    Args.push_back("-working-directory");
    Args.push_back(T.Directory);
  }
  if (Arch) {
    // One device-side parse: it sees kernels and host code alike, at half
    // the cost of clang's default host+device pair.
    Args.insert(Args.end(),
                {"-x", "cuda", "--cuda-device-only",
                 "--cuda-gpu-arch=" + Arch->Name, "--no-cuda-version-check",
                 "-Wno-unknown-cuda-version", "-nogpulib",
                 "-fno-caret-diagnostics"});
    // A device-only parse does not tell Sema the toolkit's version, and
    // without it clang lowers <<<...>>> to the pre-9.2 cudaConfigureCall,
    // which CUDA 13's headers no longer declare.
    std::string Sdk = Env.Toolkit.found() && !Env.Toolkit.Version.empty()
                          ? Env.Toolkit.Version
                          : "12.0"; // what the fallback header declares
    Args.insert(Args.end(), {"-Xclang", "-target-sdk-version=" + Sdk});
    if (Env.Toolkit.found()) {
      Args.push_back("--cuda-path=" + Env.Toolkit.Path);
      // CUDA 13 keeps CCCL (cub, thrust, libcu++) here; nvcc adds it itself.
      llvm::SmallString<256> Cccl(Env.Toolkit.Path);
      llvm::sys::path::append(Cccl, "include", "cccl");
      if (llvm::sys::fs::is_directory(Cccl)) {
        Args.push_back("-isystem");
        Args.push_back(std::string(Cccl));
      }
    } else {
      Args.insert(Args.end(), {"-nocudainc", "-isystem", Env.FallbackDir,
                               "-include", "warplint_cuda_fallback.h"});
      // With no toolkit, clang's driver targets PTX ISA 4.2, which has no
      // _sync warp intrinsics: code generation (the IR layer) would fail
      // on __shfl_sync. The ISA of the CUDA the fallback header declares,
      // 12.0 (PTX 8.0), or for the targets newer than it, LLVM 22's newest.
      Args.insert(Args.end(), {"-Xclang", "-target-feature", "-Xclang",
                               Arch->SM > 90 ? "+ptx90" : "+ptx80"});
    }
    // The features the target lacks, by the rule table: the header declares
    // what the CUDA headers leave out for them, so that a call to one is
    // arch-unsupported-feature's finding rather than a failed parse.
    for (auto [Feature, Has] : Arch->features())
      if (!Has)
        Args.push_back(("-D__warplint_lacks_" + Feature).str());
    if (!Env.FeatureHeader.empty())
      Args.insert(Args.end(), {"-include", Env.FeatureHeader});
    // What nvcc's headers declare for host code and clang's do not (host
    // min/max): a host function that calls one must not fail the parse.
    if (!Env.CompatHeader.empty())
      Args.insert(Args.end(), {"-include", Env.CompatHeader});
  }
  // The user's spelling of the file, unless the compile command runs in
  // another directory (a compile database): then its absolute path.
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  if (llvm::sys::path::is_relative(T.File) && !T.Directory.empty() &&
      T.Directory != Cwd.str()) {
    llvm::SmallString<256> Abs(Cwd);
    llvm::sys::path::append(Abs, T.File);
    llvm::sys::path::remove_dots(Abs, true);
    Args.push_back(std::string(Abs));
  } else {
    Args.push_back(T.File);
  }
  return Args;
}

std::string wrapperCudaHeader(const RunEnvironment &Env,
                              llvm::vfs::FileSystem &FS) {
  if (!Env.Toolkit.found() || Env.ResourceDir.empty())
    return "";
  llvm::SmallString<256> Path(Env.ResourceDir);
  llvm::sys::path::append(Path, "include", "cuda.h");
  return FS.exists(Path) ? "" : std::string(Path);
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withWrapperCudaHeader(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                      llvm::StringRef Path, const CudaToolkit &Toolkit) {
  llvm::SmallString<256> Real(Toolkit.Path);
  llvm::sys::path::append(Real, "include", "cuda.h");
  return withFilesInMemory(
      FS, {{Path.str(), "#include \"" + std::string(Real) + "\"\n"}});
}

std::vector<std::string> filesRead(FileManager &Files, llvm::StringRef Skip) {
  std::vector<std::string> Out;
  llvm::SmallVector<OptionalFileEntryRef, 64> Read;
  Files.GetUniqueIDMapping(Read);
  for (OptionalFileEntryRef F : Read) {
    if (!F)
      continue;
    // '..' cannot be dropped by hand (a/link/.. need not be a).
    llvm::SmallString<256> Path(F->getFileEntry().tryGetRealPathName());
    if (Path.empty()) {
      Path = F->getName();
      Files.makeAbsolutePath(Path);
    }
    if (Path != Skip)
      Out.push_back(std::string(Path));
  }
  llvm::sort(Out);
  Out.erase(llvm::unique(Out), Out.end());
  return Out;
}

} // namespace warplint
