#include "Driver/NvccFlags.h"
#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;

namespace warplint {

namespace {

enum class Action {
  Arch,       // -arch: virtual or real architecture
  Code,       // -code: real architectures
  Gencode,    // -gencode arch=...,code=...
  Host,       // -Xcompiler: host compiler flags, comma separated
  Keep,       // pass through unchanged (same spelling in clang)
  KeepJoined, // pass through as -flag=value / -flagvalue in clang's form
  Std,        // -std / --std
  Lang,       // -x
  Rdc,        // -rdc=true
  DeviceC,    // -dc
  FastMath,   // --use_fast_math
  DefaultStream,
  OptionsFile,
  NoExceptions,  // --no-exceptions
  TemplateDepth, // --ftemplate-depth / --ftemplate-backtrace-limit
  Forward,       // -forward-unknown-to-host-compiler / -forward-unknown-opts
  Drop, // known, the build's mechanics (outputs, linking, tools): silent
  Untranslated, // changes the device code, no clang counterpart: one warning
};

struct NvccOption {
  StringRef Short, Long; // either may be empty
  bool TakesValue;
  Action A;
  StringRef ClangSpelling = {}; // for Keep/KeepJoined
};

// Every option of CUDA 13's `nvcc --help`: those that matter are translated,
// the rest are known to be irrelevant. What is not here nvcc itself does not
// know: with -forward-unknown-to-host-compiler (CMake passes it on every nvcc
// command) nvcc hands it to the host compiler, and so do we (clang's driver
// then drops what it does not know, with one warning); without it, it is
// dropped with one warning.
const NvccOption Options[] = {
    {"-arch", "--gpu-architecture", true, Action::Arch},
    {"-code", "--gpu-code", true, Action::Code},
    {"-gencode", "--generate-code", true, Action::Gencode},
    {"-Xcompiler", "--compiler-options", true, Action::Host},
    {"-I", "--include-path", true, Action::KeepJoined, "-I"},
    {"-isystem", "--system-include", true, Action::Keep, "-isystem"},
    {"-D", "--define-macro", true, Action::KeepJoined, "-D"},
    {"-U", "--undefine-macro", true, Action::KeepJoined, "-U"},
    {"-include", "--pre-include", true, Action::Keep, "-include"},
    {"-std", "--std", true, Action::Std},
    {"-x", "--x", true, Action::Lang},
    {"-rdc", "--relocatable-device-code", true, Action::Rdc},
    {"-dc", "--device-c", false, Action::DeviceC},
    {"-use_fast_math", "--use_fast_math", false, Action::FastMath},
    {"", "--default-stream", true, Action::DefaultStream},
    {"-optf", "--options-file", true, Action::OptionsFile},
    {"-noeh", "--no-exceptions", false, Action::NoExceptions},
    {"-ftemplate-depth", "--ftemplate-depth", true, Action::TemplateDepth},
    {"-ftemplate-backtrace-limit", "--ftemplate-backtrace-limit", true,
     Action::TemplateDepth},
    {"-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
     false, Action::Forward},
    {"-forward-unknown-opts", "--forward-unknown-opts", false, Action::Forward},
    {"-g", "--debug", false, Action::Keep, "-g"},
    {"-w", "--disable-warnings", false, Action::Keep, "-w"},
    // Known and irrelevant to a syntax-level analysis.
    {"-Xptxas", "--ptxas-options", true, Action::Untranslated},
    {"-Xnvlink", "--nvlink-options", true, Action::Drop},
    {"-Xlinker", "--linker-options", true, Action::Drop},
    {"-Xarchive", "--archive-options", true, Action::Drop},
    {"-Xfatbin", "--fatbin-options", true, Action::Drop},
    {"-Xcudafe", "", true, Action::Untranslated},
    {"-expt-relaxed-constexpr", "--expt-relaxed-constexpr", false,
     Action::Drop},
    {"-expt-extended-lambda", "--expt-extended-lambda", false, Action::Drop},
    {"-extended-lambda", "--extended-lambda", false, Action::Drop},
    {"-ccbin", "--compiler-bindir", true, Action::Drop},
    {"-lineinfo", "--generate-line-info", false, Action::Drop},
    {"-G", "--device-debug", false, Action::Untranslated},
    {"-c", "--compile", false, Action::Drop},
    {"-o", "--output-file", true, Action::Drop},
    {"-L", "--library-path", true, Action::Drop},
    {"-l", "--library", true, Action::Drop},
    {"-m", "--machine", true, Action::Drop},
    {"-maxrregcount", "--maxrregcount", true, Action::Untranslated},
    {"-ftz", "--ftz", true, Action::Untranslated},
    {"-prec-div", "--prec-div", true, Action::Untranslated},
    {"-prec-sqrt", "--prec-sqrt", true, Action::Untranslated},
    {"-fmad", "--fmad", true, Action::Untranslated},
    {"-t", "--threads", true, Action::Drop},
    {"-keep", "--keep", false, Action::Drop},
    {"-keep-dir", "--keep-dir", true, Action::Drop},
    {"-res-usage", "--resource-usage", false, Action::Drop},
    {"-v", "--verbose", false, Action::Drop},
    {"-dryrun", "--dryrun", false, Action::Drop},
    {"-time", "--time", true, Action::Drop},
    {"-cudart", "--cudart", true, Action::Drop},
    {"-cudadevrt", "--cudadevrt", true, Action::Drop},
    {"-Werror", "--Werror", true, Action::Drop},
    {"-diag-suppress", "--diag-suppress", true, Action::Drop},
    {"-diag-warn", "--diag-warn", true, Action::Drop},
    {"-diag-error", "--diag-error", true, Action::Drop},
    {"-err-no", "--display-error-number", false, Action::Drop},
    {"-no-err-no", "--no-display-error-number", false, Action::Drop},
    {"-restrict", "--restrict", false, Action::Untranslated},
    {"-allow-unsupported-compiler", "--allow-unsupported-compiler", false,
     Action::Drop},
    {"-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker",
     false, Action::Drop},
    {"-odir", "--output-directory", true, Action::Drop},
    {"-MD", "--generate-dependencies-with-compile", false, Action::Drop},
    {"-MMD", "--generate-nonsystem-dependencies-with-compile", false,
     Action::Drop},
    {"-MF", "--dependency-output", true, Action::Drop},
    {"-MT", "--dependency-target-name", true, Action::Drop},
    {"-M", "--generate-dependencies", false, Action::Drop},
    {"-MM", "--generate-nonsystem-dependencies", false, Action::Drop},
    {"-ptx", "--ptx", false, Action::Drop},
    {"-cubin", "--cubin", false, Action::Drop},
    {"-fatbin", "--fatbin", false, Action::Drop},
    {"-optix-ir", "--optix-ir", false, Action::Drop},
    {"-src-in-ptx", "--source-in-ptx", false, Action::Drop},
    {"-static-global-template-stub", "--static-global-template-stub", true,
     Action::Drop},
    {"-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets", false,
     Action::Drop},
    {"-Wno-deprecated-declarations", "--Wno-deprecated-declarations", false,
     Action::Drop},
    {"-Wreorder", "--Wreorder", false, Action::Drop},
    {"-Wdefault-stream-launch", "--Wdefault-stream-launch", false,
     Action::Drop},
    {"-Wext-lambda-captures-this", "--Wext-lambda-captures-this", false,
     Action::Drop},
    {"-Wmissing-launch-bounds", "--Wmissing-launch-bounds", false,
     Action::Drop},
    {"-split-compile", "--split-compile", true, Action::Drop},
    {"-jump-table-density", "--jump-table-density", true, Action::Drop},
    {"-jtd", "", true, Action::Drop},
    // The rest of CUDA 13's options: nvcc's own, so never the host's.
    {"-cuda", "--cuda", false, Action::Drop},
    {"-ltoir", "--ltoir", false, Action::Drop},
    {"-E", "--preprocess", false, Action::Drop},
    {"-MP", "--generate-dependency-targets", false, Action::Drop},
    {"-dw", "--device-w", false, Action::Drop},
    {"-dlink", "--device-link", false, Action::Drop},
    {"-link", "--link", false, Action::Drop},
    {"-lib", "--lib", false, Action::Drop},
    {"-run", "--run", false, Action::Drop},
    {"-objtemp", "--objdir-as-tempdir", false, Action::Drop},
    {"-arbin", "--archiver-binary", true, Action::Drop},
    {"-ldir", "--libdevice-directory", true, Action::Drop},
    {"-target-dir", "--target-directory", true, Action::Drop},
    {"-use-local-env", "--use-local-env", false, Action::Drop},
    {"-force-cl-env-setup", "--force-cl-env-setup", false, Action::Drop},
    {"-pg", "--profile", false, Action::Drop},
    {"-opt-info", "--optimization-info", true, Action::Drop},
    {"-dopt", "--dopt", true, Action::Untranslated},
    {"-dlto", "--dlink-time-opt", false, Action::Drop},
    {"-lto", "--lto", false, Action::Drop},
    {"-gen-opt-lto", "--gen-opt-lto", false, Action::Drop},
    {"-shared", "--shared", false, Action::Drop},
    {"-nohdinitlist", "--no-host-device-initializer-list", false, Action::Drop},
    {"-nohdmoveforward", "--no-host-device-move-forward", false, Action::Drop},
    {"-m64", "--m64", false, Action::Drop},
    {"-device-entity-has-hidden-visibility",
     "--device-entity-has-hidden-visibility", true, Action::Drop},
    {"-noprof", "--dont-use-profile", false, Action::Drop},
    {"-split-compile-extended", "--split-compile-extended", true, Action::Drop},
    {"-fdevice-syntax-only", "--fdevice-syntax-only", false, Action::Drop},
    {"-fdevice-time-trace", "--fdevice-time-trace", true, Action::Drop},
    {"-save-temps", "--save-temps", false, Action::Drop},
    {"-clean", "--clean-targets", false, Action::Drop},
    {"-run-args", "--run-args", true, Action::Drop},
    {"-idp", "--input-drive-prefix", true, Action::Drop},
    {"-ddp", "--dependency-drive-prefix", true, Action::Drop},
    {"-dp", "--drive-prefix", true, Action::Drop},
    {"", "--no-align-double", false, Action::Drop},
    {"-nodlink", "--no-device-link", false, Action::Drop},
    {"-e", "--entries", true, Action::Drop},
    {"-extra-device-vectorization", "--extra-device-vectorization", false,
     Action::Untranslated},
    {"-keep-device-functions", "--keep-device-functions", false, Action::Drop},
    {"-ewp", "--extensible-whole-program", false, Action::Drop},
    {"-no-compress", "--no-compress", false, Action::Drop},
    {"-qpp-config", "--qpp-config", true, Action::Drop},
    {"-astoolspatch", "--compile-as-tools-patch", false, Action::Drop},
    {"-code-ls", "--list-gpu-code", false, Action::Drop},
    {"-arch-ls", "--list-gpu-arch", false, Action::Drop},
    {"-hls", "--host-linker-script", true, Action::Drop},
    {"-aug-hls", "--augment-host-linker-script", false, Action::Drop},
    {"-r", "--relocatable-link", false, Action::Drop},
    {"-brief-diag", "--brief-diagnostics", true, Action::Drop},
    {"-reloc-ptx", "--relocatable-ptx", false, Action::Drop},
    {"-device-stack-protector", "--device-stack-protector", true, Action::Drop},
    {"-compress-mode", "--compress-mode", true, Action::Drop},
    {"-frandom-seed", "--frandom-seed", true, Action::Drop},
    {"-sanitize", "--sanitize", true, Action::Drop},
    {"-jobserver", "--jobserver", false, Action::Drop},
    {"-h", "--help", false, Action::Drop},
    {"-V", "--version", false, Action::Drop},
};

// Finds Arg in the table. Value receives an attached value (-arch=sm_80,
// -arch sm_80 is handled by the caller, -O3 / -Ifoo / -DX joined forms).
const NvccOption *lookup(StringRef Arg, std::optional<std::string> &Value) {
  Value.reset();
  for (const NvccOption &O : Options) {
    for (StringRef Name : {O.Short, O.Long}) {
      if (Name.empty())
        continue;
      if (Arg == Name)
        return &O;
      if (O.TakesValue && Arg.starts_with(Name) && Arg.size() > Name.size() &&
          Arg[Name.size()] == '=') {
        Value = Arg.drop_front(Name.size() + 1).str();
        return &O;
      }
    }
  }
  // Joined short forms: -Ifoo, -DX=1, -UX, -lfoo, -Lfoo.
  for (StringRef Prefix : {"-I", "-D", "-U", "-L", "-l"}) {
    if (Arg.starts_with(Prefix) && Arg.size() > Prefix.size()) {
      Value = Arg.drop_front(Prefix.size()).str();
      for (const NvccOption &O : Options)
        if (O.Short == Prefix)
          return &O;
    }
  }
  return nullptr;
}

// compute_80 / sm_80 / lto_80 / [sm_80,compute_80] lists.
void addArchs(StringRef List, std::vector<std::string> &Out) {
  List = List.trim().trim("[]\"'");
  SmallVector<StringRef, 4> Parts;
  List.split(Parts, ',', -1, false);
  for (StringRef P : Parts) {
    std::string A = normaliseArch(P.trim("[] "));
    if (!A.empty() && !is_contained(Out, A))
      Out.push_back(A);
  }
}

// -gencode arch=compute_80,code=[sm_80,compute_80]: the real architectures in
// code= are the targets; arch= alone when code= names none.
void addGencode(StringRef Spec, std::vector<std::string> &Out) {
  size_t CodePos = Spec.find("code=");
  // "arch=...,code=..."; find code= that is not part of "arch=".
  std::vector<std::string> FromArch, FromCode;
  size_t ArchPos = Spec.find("arch=");
  if (ArchPos != StringRef::npos) {
    StringRef A = Spec.drop_front(ArchPos + 5);
    A = A.take_until([](char C) { return C == ','; });
    addArchs(A, FromArch);
  }
  while (CodePos != StringRef::npos && CodePos > 0 &&
         Spec[CodePos - 1] != ',' && Spec[CodePos - 1] != ' ')
    CodePos = Spec.find("code=", CodePos + 1);
  if (CodePos != StringRef::npos)
    addArchs(Spec.drop_front(CodePos + 5), FromCode);
  for (const std::string &A : FromCode.empty() ? FromArch : FromCode)
    if (!is_contained(Out, A))
      Out.push_back(A);
}

void addHostFlags(StringRef List, CompileFlags &Out) {
  // -Xcompiler takes a comma-separated list; a value may itself have been
  // quoted by the build system.
  SmallVector<StringRef, 8> Parts;
  List.split(Parts, ',', -1, false);
  for (StringRef P : Parts) {
    P = P.trim().trim("\"");
    if (P.empty())
      continue;
    Out.Args.push_back(P.str());
  }
}

} // namespace

std::string normaliseArch(StringRef Text) {
  StringRef T = Text.trim();
  for (StringRef Prefix : {"sm_", "compute_", "lto_"})
    if (T.consume_front(Prefix))
      break;
  T.consume_back("a");
  T.consume_back("f");
  unsigned N;
  if (T.empty() || T.getAsInteger(10, N))
    return "";
  return "sm_" + std::to_string(N);
}

bool isNvccCommand(StringRef Program) {
  StringRef Base = sys::path::stem(Program);
  return Base == "nvcc" || Base.ends_with("-nvcc");
}

static bool sameFile(StringRef A, StringRef B, StringRef Dir) {
  if (A == B)
    return true;
  SmallString<256> PA(A), PB(B);
  if (!sys::path::is_absolute(PA))
    sys::path::make_absolute(Dir, PA);
  if (!sys::path::is_absolute(PB))
    sys::path::make_absolute(Dir, PB);
  sys::path::remove_dots(PA, true);
  sys::path::remove_dots(PB, true);
  return PA == PB;
}

bool isCudaSource(StringRef File) {
  StringRef Ext = sys::path::extension(File);
  return Ext == ".cu" || Ext == ".cuh";
}

static CompileFlags translateNvcc(ArrayRef<std::string> Args, StringRef File,
                                  StringRef Directory, unsigned Depth,
                                  bool ForwardUnknown);

static void translateInto(CompileFlags &Out, ArrayRef<std::string> Args,
                          StringRef File, StringRef Directory, unsigned Depth,
                          bool ForwardUnknown) {
  CompileFlags Sub =
      translateNvcc(Args, File, Directory, Depth, ForwardUnknown);
  Out.Args.insert(Out.Args.end(), Sub.Args.begin(), Sub.Args.end());
  for (auto &A : Sub.Archs)
    if (!is_contained(Out.Archs, A))
      Out.Archs.push_back(A);
  Out.IsCuda |= Sub.IsCuda;
  Out.Dropped.insert(Out.Dropped.end(), Sub.Dropped.begin(), Sub.Dropped.end());
  Out.IgnoredNvcc.insert(Out.IgnoredNvcc.end(), Sub.IgnoredNvcc.begin(),
                         Sub.IgnoredNvcc.end());
  Out.NvccCodegen.insert(Out.NvccCodegen.end(), Sub.NvccCodegen.begin(),
                         Sub.NvccCodegen.end());
  if (Sub.MaxRegCount)
    Out.MaxRegCount = Sub.MaxRegCount;
}

static CompileFlags translateNvcc(ArrayRef<std::string> Args, StringRef File,
                                  StringRef Directory, unsigned Depth,
                                  bool ForwardUnknown) {
  CompileFlags Out;
  // nvcc reads the whole command before it forwards anything, so the flag
  // counts wherever it stands.
  for (StringRef Arg : Args) {
    std::optional<std::string> Ignored;
    if (const NvccOption *O = lookup(Arg, Ignored))
      ForwardUnknown |= O->A == Action::Forward;
  }
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (Arg.empty())
      continue;
    if (!Arg.starts_with("-")) {
      if (sameFile(Arg, File, Directory)) {
        Out.IsCuda |= isCudaSource(Arg);
        continue;
      }
      Out.Dropped.push_back(Arg.str()); // other inputs (objects, libraries)
      continue;
    }
    if (Arg.starts_with("-O") || Arg == "--optimize") {
      if (Arg == "--optimize" && I + 1 < Args.size())
        Out.Args.push_back("-O" + Args[++I]);
      else if (Arg.starts_with("--optimize="))
        Out.Args.push_back("-O" + Arg.drop_front(11).str());
      else
        Out.Args.push_back(Arg.str());
      continue;
    }
    std::optional<std::string> Value;
    const NvccOption *O = lookup(Arg, Value);
    if (!O) {
      // Not nvcc's: the host compiler's when nvcc forwards it (clang's
      // driver judges it later), else nobody's.
      if (ForwardUnknown)
        Out.Args.push_back(Arg.str());
      else
        Out.Dropped.push_back(Arg.str());
      continue;
    }
    if (O->TakesValue && !Value) {
      if (I + 1 >= Args.size()) {
        Out.Dropped.push_back(Arg.str());
        continue;
      }
      Value = Args[++I];
    }
    switch (O->A) {
    case Action::Arch:
      // -arch=sm_80 compiles for sm_80; -arch=native/all/all-major name no
      // single target, so the default applies.
      addArchs(*Value, Out.Archs);
      break;
    case Action::Code:
      addArchs(*Value, Out.Archs);
      break;
    case Action::Gencode:
      addGencode(*Value, Out.Archs);
      break;
    case Action::Host:
      addHostFlags(*Value, Out);
      break;
    case Action::Keep:
      Out.Args.push_back(O->ClangSpelling.str());
      if (Value)
        Out.Args.push_back(*Value);
      break;
    case Action::KeepJoined:
      Out.Args.push_back(O->ClangSpelling.str() + *Value);
      break;
    case Action::Std:
      Out.Args.push_back("-std=" + *Value);
      break;
    case Action::Lang:
      if (*Value == "cu" || *Value == "cuda") {
        Out.IsCuda = true;
      } else {
        Out.Args.push_back("-x");
        Out.Args.push_back(*Value);
      }
      break;
    case Action::Rdc:
      if (StringRef(*Value).equals_insensitive("true"))
        Out.Args.push_back("-fgpu-rdc");
      break;
    case Action::DeviceC:
      Out.Args.push_back("-fgpu-rdc");
      break;
    case Action::FastMath:
      Out.Args.push_back("-ffast-math");
      Out.NvccCodegen.push_back("--use_fast_math");
      break;
    case Action::NoExceptions:
      Out.Args.push_back("-fno-exceptions");
      break;
    case Action::TemplateDepth:
      Out.Args.push_back(
          (O->Long.drop_front(1) + "=" + StringRef(*Value)).str());
      break;
    case Action::Forward:
      break;
    case Action::DefaultStream:
      if (*Value == "per-thread")
        Out.Args.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      break;
    case Action::OptionsFile: {
      if (Depth > 8)
        break;
      SmallString<256> Path(*Value);
      if (!sys::path::is_absolute(Path))
        sys::path::make_absolute(Directory, Path);
      auto Buf = MemoryBuffer::getFile(Path);
      if (!Buf) {
        Out.Dropped.push_back(Arg.str() + " " + *Value);
        break;
      }
      BumpPtrAllocator Alloc;
      StringSaver Saver(Alloc);
      SmallVector<const char *, 32> Tokens;
      cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Tokens);
      std::vector<std::string> Inner(Tokens.begin(), Tokens.end());
      translateInto(Out, Inner, File, Directory, Depth + 1, ForwardUnknown);
      break;
    }
    case Action::Untranslated:
      Out.IgnoredNvcc.push_back(Arg.split('=').first.str());
      if (O->Short != "-Xcudafe") {
        Out.NvccCodegen.push_back(O->Long.str());
        if (O->TakesValue)
          Out.NvccCodegen.push_back(*Value);
      }
      if (O->Short == "-maxrregcount") {
        unsigned N;
        if (!StringRef(*Value).getAsInteger(10, N))
          Out.MaxRegCount = N;
      }
      break;
    case Action::Drop:
      break;
    }
  }
  return Out;
}

// @file arguments of a clang or gcc command (CMake's response files for
// include directories, for one) are read as the driver reads them: relative to
// the command's directory, GNU quoting, nested ones too. One that cannot be
// read stays, to be reported as dropped.
static std::vector<std::string> expandResponseFiles(ArrayRef<std::string> Args,
                                                    StringRef Directory,
                                                    unsigned Depth) {
  std::vector<std::string> Out;
  for (const std::string &A : Args) {
    StringRef Arg = A;
    if (Arg.size() < 2 || !Arg.starts_with("@") || Depth > 8) {
      Out.push_back(A);
      continue;
    }
    SmallString<256> Path(Arg.drop_front());
    if (!sys::path::is_absolute(Path))
      sys::path::make_absolute(Directory, Path);
    auto Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      Out.push_back(A);
      continue;
    }
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 32> Tokens;
    cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Tokens);
    std::vector<std::string> Inner(Tokens.begin(), Tokens.end());
    for (std::string &E : expandResponseFiles(Inner, Directory, Depth + 1))
      Out.push_back(std::move(E));
  }
  return Out;
}

static CompileFlags translateFlags(ArrayRef<std::string> Command,
                                   StringRef File, StringRef Directory);

CompileFlags translateCommand(ArrayRef<std::string> Command, StringRef File,
                              StringRef Directory) {
  if (Command.empty())
    return {};
  // After "--" only inputs: an interpolated command (a header, a file not
  // in the database) ends in "-- <file>".
  auto DashDash = llvm::find(Command, "--");
  std::vector<std::string> Inputs(
      DashDash == Command.end() ? DashDash : DashDash + 1, Command.end());
  Command = Command.take_front(DashDash - Command.begin());
  CompileFlags F = translateFlags(Command, File, Directory);
  for (const std::string &Input : Inputs)
    if (!sameFile(Input, File, Directory))
      F.Dropped.push_back(Input);
  return F;
}

// translateCommand without a "--".
static CompileFlags translateFlags(ArrayRef<std::string> Command,
                                   StringRef File, StringRef Directory) {
  if (Command.empty())
    return {};
  if (isNvccCommand(Command.front())) {
    CompileFlags F =
        translateNvcc(Command.drop_front(), File, Directory, 0, false);
    F.IsCuda |= isCudaSource(File);
    return F;
  }
  // A clang (or gcc) command: keep its flags, take out the targets, inputs,
  // outputs and dependency-file flags.
  CompileFlags Out;
  std::vector<std::string> Expanded =
      expandResponseFiles(Command.drop_front(), Directory, 0);
  ArrayRef<std::string> Args = Expanded;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (!Arg.starts_with("-")) {
      if (!sameFile(Arg, File, Directory))
        Out.Dropped.push_back(Arg.str());
      continue;
    }
    StringRef V = Arg;
    if (V.consume_front("--cuda-gpu-arch=") ||
        V.consume_front("--offload-arch=")) {
      addArchs(V, Out.Archs);
      continue;
    }
    if (Arg == "-o" || Arg == "-MF" || Arg == "-MT" || Arg == "-MQ") {
      ++I;
      continue;
    }
    if (Arg == "-c" || Arg == "-S" || Arg == "-E" || Arg == "-fsyntax-only" ||
        Arg == "-MD" || Arg == "-MMD" || Arg == "-M" || Arg == "-MM" ||
        Arg.starts_with("-o") || Arg == "--cuda-device-only" ||
        Arg == "--cuda-host-only" || Arg == "--offload-device-only" ||
        Arg == "--offload-host-only")
      continue;
    if (Arg == "-x" && I + 1 < Args.size()) {
      StringRef Lang = Args[++I];
      if (Lang == "cuda" || Lang == "cu")
        Out.IsCuda = true;
      else {
        Out.Args.push_back("-x");
        Out.Args.push_back(Lang.str());
      }
      continue;
    }
    if (Arg == "-xcuda") {
      Out.IsCuda = true;
      continue;
    }
    // clang's way of passing ptxas a register cap; nvcc's spelling for the
    // resource-usage compile.
    if (Arg == "-Xcuda-ptxas" && I + 1 < Args.size()) {
      StringRef Opt = Args[I + 1];
      unsigned N;
      if ((Opt.consume_front("--maxrregcount=") ||
           Opt.consume_front("-maxrregcount=")) &&
          !Opt.getAsInteger(10, N)) {
        Out.MaxRegCount = N;
        Out.NvccCodegen.push_back("--maxrregcount=" + std::to_string(N));
      }
    }
    Out.Args.push_back(Arg.str());
    // Flags with a separate value keep it.
    if ((Arg == "-I" || Arg == "-isystem" || Arg == "-include" || Arg == "-D" ||
         Arg == "-U" || Arg == "-iquote" || Arg == "-idirafter" ||
         Arg == "-imacros" || Arg == "-Xclang" || Arg == "-target") &&
        I + 1 < Args.size())
      Out.Args.push_back(Args[++I]);
  }
  Out.IsCuda |= isCudaSource(File);
  return Out;
}

void dropUnknownDriverFlags(CompileFlags &Flags) {
  const opt::OptTable &Table = clang::getDriverOptTable();
  std::vector<const char *> Ptrs;
  for (const std::string &A : Flags.Args)
    Ptrs.push_back(A.c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  opt::InputArgList Parsed =
      Table.ParseArgs(Ptrs, MissingIndex, MissingCount,
                      llvm::opt::Visibility(clang::options::ClangOption));
  std::vector<bool> Unknown(Flags.Args.size(), false);
  for (const opt::Arg *A : Parsed.filtered(clang::options::OPT_UNKNOWN))
    Unknown[A->getIndex()] = true;
  // Options the driver only accepts in other modes (cl, flang) are as bad.
  for (const opt::Arg *A : Parsed)
    if (A->getOption().getID() != clang::options::OPT_INPUT &&
        !A->getOption().hasVisibilityFlag(clang::options::ClangOption))
      Unknown[A->getIndex()] = true;
  std::vector<std::string> Kept;
  for (size_t I = 0; I < Flags.Args.size(); ++I) {
    if (Unknown[I])
      Flags.Dropped.push_back(Flags.Args[I]);
    else
      Kept.push_back(Flags.Args[I]);
  }
  Flags.Args = std::move(Kept);
}

} // namespace warplint
