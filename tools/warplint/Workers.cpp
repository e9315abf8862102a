// Crash and hang isolation for --timeout: the parent starts, polls and kills
// a child process per file; the child analyses its one file and answers.
#include "Workers.h"
#include "Driver/ResultCache.h"
#include "Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include <chrono>
#include <csignal>
#include <thread>

using namespace llvm;

namespace warplint::cli {

// A parse cannot be stopped safely on a thread (clang has no cancellation,
// and a hung template instantiation never polls a flag); a process can.
FileResult runIsolated(const FileTask &Task, size_t Index, StringRef Self,
                       ArrayRef<const char *> Own,
                       const std::optional<std::vector<std::string>> &Fixed,
                       bool &Complete) {
  Complete = false;
  FileResult R;
  auto Fail = [&](const Twine &Why) {
    ToolError E;
    E.Loc.File = Task.File;
    E.Message = Why.str();
    R.Sink.reportError(std::move(E));
    return std::move(R);
  };
  SmallString<128> ResultPath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("warplint-worker", "json", ResultPath))
    return Fail("cannot create a temporary file for its analysis: " +
                EC.message());
  FileRemover RemoveResult(ResultPath);
  std::vector<std::string> Storage(Own.begin() + 1, Own.end());
  Storage.push_back("--quiet");
  Storage.push_back("--internal-worker-index=" + std::to_string(Index));
  Storage.push_back("--internal-worker-result=" + std::string(ResultPath));
  if (Fixed) {
    Storage.push_back("--");
    Storage.insert(Storage.end(), Fixed->begin(), Fixed->end());
  }
  std::vector<StringRef> Args = {Self};
  Args.insert(Args.end(), Storage.begin(), Storage.end());
  // stdout to /dev/null (the child writes its result to the file); stderr
  // stays: an uncontained crash's stack dump belongs to the user.
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(""),
                                          std::nullopt};
  std::string ErrMsg;
  bool Failed = false;
  sys::ProcessInfo PI = sys::ExecuteNoWait(Self, Args, std::nullopt, Redirects,
                                           0, &ErrMsg, &Failed);
  if (Failed)
    return Fail("cannot start a process to analyse it: " + ErrMsg);
  // Polled rather than Wait's own timeout, which is SIGALRM: one per
  // process, and -j runs several children at once.
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(TimeoutOpt.getValue());
  sys::ProcessInfo Done;
  for (;;) {
    Done = sys::Wait(PI, /*SecondsToWait=*/0, &ErrMsg);
    if (Done.Pid != 0)
      break;
    if (std::chrono::steady_clock::now() >= Deadline) {
      ::kill(PI.Pid, SIGKILL);
      sys::Wait(PI, std::nullopt, &ErrMsg);
      return Fail("analysis stopped after the --timeout of " +
                  Twine(TimeoutOpt.getValue()) + " second" +
                  (TimeoutOpt == 1 ? "" : "s") + "; this file has no findings");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto Text = MemoryBuffer::getFile(ResultPath);
  std::optional<FileResult> Answer;
  if (Done.ReturnCode == 0 && Text)
    Answer = deserializeResult((*Text)->getBuffer());
  if (!Answer)
    return Fail("internal error: warplint crashed while analysing this file "
                "(" +
                (ErrMsg.empty() ? "exit code " + std::to_string(Done.ReturnCode)
                                : ErrMsg) +
                "); it has no findings (please report this)");
  Complete = llvm::none_of(Answer->Sink.errors(),
                           [](const ToolError &E) { return E.Crashed; });
  return std::move(*Answer);
}

int runAsWorker(const std::vector<FileTask> &Tasks, const RunEnvironment &Env) {
  if (WorkerIndexOpt >= Tasks.size())
    return 2;
  FileResult R = runFile(Tasks[WorkerIndexOpt], Env);
  if (Error E = writeToOutput(WorkerResultOpt, [&](raw_ostream &OS) {
        OS << serializeResult(R);
        return Error::success();
      })) {
    printError(WorkerResultOpt + ": " + toString(std::move(E)));
    return 2;
  }
  // After a contained crash, LLVM's shutdown would touch what it left.
  sys::Process::Exit(0, /*NoCleanup=*/true);
}

} // namespace warplint::cli
