// The order and the parallelism of the analyses: a pool of -j workers,
// largest files first, the cache consulted before each, progress on stderr.
#include "Schedule.h"
#include "Workers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>

using namespace llvm;

namespace warplint::cli {

std::vector<FileResult> analyseAll(const std::vector<FileTask> &Tasks,
                                   const RunEnvironment &Env,
                                   ResultCache *Cache, StringRef Self,
                                   const CommandLine &Cmd) {
  // One file's analysis: in this process, or with --timeout in a child.
  auto Analyse = [&](size_t I, bool &Complete) {
    Complete = true;
    if (!TimeoutOpt)
      return runFile(Tasks[I], Env);
    return runIsolated(Tasks[I], I, Self, Cmd.Own, Cmd.FixedFlags, Complete);
  };

  std::vector<FileResult> Results(Tasks.size());
  // Progress on a terminal, as run-clang-tidy prints it; nothing in a log.
  bool Progress =
      !Quiet && Tasks.size() > 1 && sys::Process::StandardErrIsDisplayed();
  std::mutex ProgressLock;
  size_t Done = 0;
  auto Run = [&](size_t I) {
    if (Cache) {
      std::string Key = Cache->keyOf(Tasks[I], Env);
      if (auto Hit = Cache->lookup(Key)) {
        Results[I] = std::move(*Hit);
      } else {
        bool Complete;
        Results[I] = Analyse(I, Complete);
        if (Complete)
          Cache->store(Key, Results[I]);
      }
    } else {
      bool Complete;
      Results[I] = Analyse(I, Complete);
    }
    if (!Progress)
      return;
    std::lock_guard<std::mutex> Hold(ProgressLock);
    errs() << "[" << ++Done << "/" << Tasks.size() << "] " << Tasks[I].File
           << "\n";
  };
  if (Jobs <= 1 || Tasks.size() <= 1) {
    for (size_t I = 0; I < Tasks.size(); ++I)
      Run(I);
    return Results;
  }
  // Largest files first (their size stands for their cost), so that one
  // big file started last does not leave the other workers idle at the
  // end; the output keeps the order of the command line.
  std::vector<std::pair<uint64_t, size_t>> Order;
  for (size_t I = 0; I < Tasks.size(); ++I) {
    uint64_t Size = 0;
    (void)sys::fs::file_size(Tasks[I].File, Size);
    Order.push_back({Size, I});
  }
  llvm::stable_sort(
      Order, [](const auto &A, const auto &B) { return A.first > B.first; });
  DefaultThreadPool Pool(hardware_concurrency(Jobs));
  for (auto [Size, I] : Order)
    Pool.async([&, I = I] { Run(I); });
  Pool.wait();
  return Results;
}

} // namespace warplint::cli
