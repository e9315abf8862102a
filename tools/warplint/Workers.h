// Crash and hang isolation for --timeout (Workers.cpp): each file analysed in
// a child process, this program again, which can be killed where a parse on
// a thread cannot be stopped.
#pragma once
#include "Driver/Runner.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace warplint::cli {

// Runs Task (the Index-th) in a child process, this program (Self) again
// with the same arguments (Own: before "--", Fixed: after it, if any), killed
// after --timeout seconds. Complete: the child answered (not killed, not
// crashed uncontained), so the result may be cached.
FileResult runIsolated(const FileTask &Task, size_t Index, llvm::StringRef Self,
                       llvm::ArrayRef<const char *> Own,
                       const std::optional<std::vector<std::string>> &Fixed,
                       bool &Complete);

// The child's side (--internal-worker-result): analyses the one task its
// index names and writes the result to that file; exits.
int runAsWorker(const std::vector<FileTask> &Tasks, const RunEnvironment &Env);

} // namespace warplint::cli
