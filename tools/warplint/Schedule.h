// Running the analyses of all tasks (Schedule.cpp): from the result cache
// where it has them, in this process or in workers, several at once with -j.
#pragma once
#include "Driver/ResultCache.h"
#include "Driver/Runner.h"
#include "Options.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace warplint::cli {

// The result of each task, in the order of Tasks: with --timeout each
// analysed in a child process of Self (Workers.h) started with Cmd's
// arguments; Cache (null: none) answers those it holds and keeps those that
// completed. Progress on a terminal.
std::vector<FileResult> analyseAll(const std::vector<FileTask> &Tasks,
                                   const RunEnvironment &Env,
                                   ResultCache *Cache, llvm::StringRef Self,
                                   const CommandLine &Cmd);

} // namespace warplint::cli
