// Runs the checks on one file: a device-side parse (host code is visible
// there too) judged for every target architecture when the code does not
// depend on the target, else one per target (Driver/OneParse.h); or one plain
// parse for a non-CUDA file.
#pragma once
#include "Arch/ArchTable.h"
#include "Core/Check.h"
#include "Core/DiagSink.h"
#include "Driver/Focus.h"
#include "Driver/IRLayer.h"
#include "Driver/NvccFlags.h"
#include "Driver/Toolkit.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <functional>

namespace warplint {

struct RunEnvironment {
  const ArchTable *Tables = nullptr;
  CudaToolkit Toolkit;     // not found: the fallback header is used
  std::string FallbackDir; // <share>/include/fallback
  // <share>/include/features/warplint_missing_features.h: declares what the
  // toolkit leaves out for a target without a feature (none: not included)
  std::string FeatureHeader;
  // <share>/include/compat/warplint_nvcc_compat.h: declares what nvcc's
  // headers give host code and clang's wrapper headers do not (none: not
  // included)
  std::string CompatHeader;
  std::string ResourceDir; // clang's resource directory
};

// --registers-from
enum class RegisterSource { IR, Nvcc };

struct FileTask {
  std::string File;      // as the user named it
  std::string Directory; // working directory of the compile command
  CompileFlags Flags;
  std::vector<const ArchInfo *> Archs;
  GlobList Checks;
  GlobList WarningsAsErrors;
  CheckOptionMap Options;
  bool DumpAnalysis = false; // print the analyses instead of checking
  // Run the IR layer (device code generation, in process): --ir-layer is
  // not false and an enabled check needs its barrier verdicts or its
  // optimised view (needs::IRBarriers, needs::OptimisedView).
  bool IRLayer = false;
  // The check the IR layer's barrier verdicts are reported for (with
  // IRLayer); empty: the barriers are not judged on the IR.
  std::string IRBarrierCheck;
  // An enabled check needs ptxas's registers (needs::ResourceUsage).
  bool ResourceUsage = false;
  // List the files the parses read in FileResult::Dependencies (for the
  // result cache, and the CLI's which-input-includes-which).
  bool RecordDependencies = false;
  // Where launch-occupancy's registers per kernel come from: ptxas run on
  // the PTX the IR layer generates of the launched kernels (Ptxas set, with
  // the Libdevice its code links), or else the toolkit's nvcc compiling the
  // whole file beside the parse (--registers-from=nvcc). Nvcc empty: none
  // (--ptxas=false, no toolkit), and NoPtxas says why; else the targets it
  // lists are those either route compiles for.
  std::string Ptxas, Libdevice;
  std::string Nvcc;
  // The file the compile database's command writes (BuildObject): its
  // cubins give the registers first, where it exists and is newer than
  // the source (--registers-from=build, the default).
  std::string BuildOutput;
  std::string NoPtxas;
  // Say on stderr each kernel's registers as asked (--print-registers).
  bool PrintRegisters = false;
  // Where its answers are cached (empty: not cached).
  std::string ResourceCacheDir;
  // The language server: true once the result is no longer wanted (a newer
  // version of the buffer waits), checked between the parses and before the
  // checks run; the result of a cancelled run is incomplete.
  std::function<bool()> Cancelled;
  // Judge only the main file's own declarations (the language server, which
  // publishes the main file's findings): the headers' declarations are not
  // walked, which with a preamble spares deserializing all of them.
  bool MainFileOnly = false;
  // The language server's focused pass (Driver/Focus.h): whether the body of
  // the main-file function whose name is at this offset goes unparsed.
  std::function<bool(unsigned Offset)> SkipBody;
  // Judge several targets on one parse where that gives the same results as
  // a parse each (Driver/OneParse.h); false: a parse per target.
  bool OneParse = true;
};

struct FileResult {
  DiagSink Sink;
  // With MainFileOnly and no SkipBody: the main file's function definitions,
  // for a later focused pass.
  std::vector<BodySpan> Bodies;
  std::vector<std::string> Warnings; // one-line tool warnings for stderr
  std::string Dump;                  // --dump-analysis output
  // How the targets were parsed, and why (--print-parses).
  std::string Parses;
  // The IR layer failed on a parse (a warning says so): the result is not
  // cached, as a crashed file's is not, since the failure may not recur.
  bool IRFailed = false;
  // Every file the parses read (absolute paths): what decides the results
  // besides the task itself, for the result cache.
  std::vector<std::string> Dependencies;
  // With RecordDependencies: the kernels the file's host code launches and
  // the functions they call, as {qualified name, the file of its
  // definition}, sorted: a kernel file that several inputs read is reported
  // from the ones that launch its kernels (the CLI's merge).
  std::vector<std::pair<std::string, std::string>> Launched;
};

// The driver arguments for one parse, program name first, file last.
std::vector<std::string> buildParseArgs(const FileTask &T,
                                        const RunEnvironment &Env,
                                        const ArchInfo *Arch);

class PreambleCache;

// FS: what the parses read (the language server's unsaved buffers over the
// disk); null: the disk. Preambles: parse with precompiled preambles kept
// there (the language server); null: a plain LibTooling parse.
FileResult runFile(const FileTask &T, const RunEnvironment &Env,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = nullptr,
                   PreambleCache *Preambles = nullptr);

// The consumer of a parse's diagnostics: its errors go to Sink, as
// clang-diagnostic-error findings of File.
std::unique_ptr<clang::DiagnosticConsumer>
createErrorCollector(DiagSink &Sink, llvm::StringRef File);

} // namespace warplint
