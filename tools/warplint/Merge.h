// One report from the results of several files (Merge.cpp): a .cu fragment
// analysed through the file that #includes it, a file given twice (itself,
// and #included by another input) reported once, a kernel file several
// inputs read reported from the inputs that launch its kernels, the
// --header-filter, and each header's findings shown once whichever files
// include it.
#pragma once
#include "Core/DiagSink.h"
#include "Driver/Runner.h"
#include "Driver/Tasks.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Regex.h"
#include <optional>
#include <vector>

namespace warplint::cli {

// With several inputs, each task records the files its parses read: which
// given file #includes which.
void recordIncludes(std::vector<FileTask> &Tasks);

// A .cu fragment that does not compile on its own, and that no other given
// file covers: analysed through the file of its directory that #includes
// it, if that one compiles.
void analyseFragmentsThroughIncluders(
    const std::vector<FileTask> &Tasks, std::vector<FileResult> &Results,
    TaskBuilder &Builder, const clang::tooling::CompilationDatabase *Database,
    const RunEnvironment &Env);

// The findings of Results into All, in input order whatever order the
// analyses finished in, through HeaderFilter, each shown once; each file's
// tool warnings (and with --print-parses, its parses) said on stderr.
void mergeResults(const std::vector<FileTask> &Tasks,
                  std::vector<FileResult> &Results,
                  const std::optional<llvm::Regex> &HeaderFilter,
                  DiagSink &All);

} // namespace warplint::cli
