// Registers and shared memory per kernel as the toolkit's ptxas allocates
// them, for launch-occupancy. The file is compiled for the device by the
// toolkit's nvcc (`-Xptxas -v`, one run for every target it supports) in a
// child process started before warplint's own parse, so the two overlap; the
// check waits for it only when it judges a launch. Results are cached as the
// result cache does (ccache's direct mode): a key from nvcc, its arguments
// and the main file, and a hash of every file the parse read; a second lint
// of an unchanged file runs no nvcc.
#pragma once
#include "Core/Services.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct FileTask;

// Target -> mangled kernel name -> resources.
using ResourceTable =
    std::map<std::string, std::map<std::string, KernelResources>>;

// Reads `ptxas -v` output (as nvcc relays it on stderr).
ResourceTable parsePtxasOutput(llvm::StringRef Text);

// The resources of the kernels of a PTX text as the ptxas at Ptxas
// allocates them for Target (`ptxas -v`, a whole-program compile; a
// relocatable one where the text calls functions it does not define), by
// mangled name; empty with Failure set when ptxas failed. Answers are cached
// in CacheDir (empty: not cached), keyed by ptxas, the target and the text.
std::map<std::string, KernelResources>
ptxasResources(const std::string &Ptxas, llvm::StringRef Target,
               llvm::StringRef Ptx, const std::string &CacheDir,
               std::string &Failure);

// The targets the nvcc at NvccPath compiles for (`nvcc --list-gpu-code`),
// asked once per nvcc per run.
const std::vector<std::string> &nvccTargets(const std::string &NvccPath);

// The nvcc arguments (program first, file last) that report resource usage
// for Targets, from the task's compile flags; Output is where the fat binary
// goes.
std::vector<std::string>
nvccResourceArgs(const FileTask &T, const std::string &NvccPath,
                 const std::vector<std::string> &Targets,
                 llvm::StringRef Output);

// One file's resource usage, running or done.
class ResourceUsageJob {
public:
  // Null when there is nothing to run: no nvcc, no target it compiles.
  // Starts nvcc unless the cache in CacheDir (empty: none) has the answer.
  static std::unique_ptr<ResourceUsageJob>
  start(const FileTask &T, std::string NvccPath, std::string CacheDir);
  ~ResourceUsageJob();

  // Whether Target was asked of nvcc (it supports it).
  bool covers(llvm::StringRef Target) const;
  // Waits for nvcc; then the resources of a kernel, or why they are not
  // known (empty when the kernel is not in this file's device code).
  std::optional<KernelResources>
  lookup(llvm::StringRef Target, llvm::StringRef Mangled, std::string &Why);
  // Whether finish() would write a cache entry: nvcc ran (or, deferred,
  // was asked and then ran).
  bool wantsDependencies() const { return Ran && !CacheDir.empty(); }
  // Caches the answer with the files the parse read; or, when no check
  // asked for it, stops nvcc and caches that the answer is not needed, so
  // that the next lint of the same text defers nvcc until a check asks.
  void finish(const std::vector<std::string> &Dependencies);

private:
  ResourceUsageJob() = default;
  void launch();
  void wait();
  void stop(); // kills a running nvcc

  std::vector<std::string> Targets;
  std::vector<std::string> Args; // nvcc's; Args[3] is the output file
  std::string CacheDir, Key;
  std::string OutputFile, LogFile;
  llvm::sys::ProcessInfo Process;
  bool Ran = false, Done = false, Asked = false;
  bool Deferred = false; // started only when a check asks
  std::string Failure;   // nvcc failed: its first error line
  ResourceTable Table;
  std::mutex Lock;
};

} // namespace warplint
