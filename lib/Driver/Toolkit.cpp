#include "Driver/Toolkit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace warplint {

bool looksLikeToolkit(StringRef Dir) {
  if (Dir.empty())
    return false;
  SmallString<256> P(Dir);
  sys::path::append(P, "include", "cuda_runtime.h");
  return sys::fs::exists(P);
}

// CUDA_VERSION from include/cuda.h: 13000 -> "13.0".
static std::string toolkitVersion(StringRef Dir) {
  SmallString<256> P(Dir);
  sys::path::append(P, "include", "cuda.h");
  auto Buf = MemoryBuffer::getFile(P);
  if (!Buf)
    return "";
  StringRef Text = (*Buf)->getBuffer();
  size_t Pos = Text.find("#define CUDA_VERSION ");
  if (Pos == StringRef::npos)
    return "";
  unsigned V;
  if (Text.drop_front(Pos + 21).take_while(isDigit).getAsInteger(10, V))
    return "";
  return std::to_string(V / 1000) + "." + std::to_string(V % 1000 / 10);
}

static CudaToolkit found(StringRef Path) {
  return {Path.str(), toolkitVersion(Path)};
}

CudaToolkit findCudaToolkit(StringRef Explicit) {
  if (!Explicit.empty()) {
    if (looksLikeToolkit(Explicit))
      return found(Explicit);
    return {};
  }
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (auto V = sys::Process::GetEnv(Var))
      if (looksLikeToolkit(*V))
        return found(*V);
  if (auto Nvcc = sys::findProgramByName("nvcc")) {
    SmallString<256> Real;
    if (!sys::fs::real_path(*Nvcc, Real)) {
      StringRef Root = sys::path::parent_path(sys::path::parent_path(Real));
      if (looksLikeToolkit(Root))
        return found(Root);
    }
  }
  if (looksLikeToolkit("/usr/local/cuda"))
    return found("/usr/local/cuda");
  return {};
}

} // namespace warplint
