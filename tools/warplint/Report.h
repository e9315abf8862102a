// The end of a run (Report.cpp): the findings written in the chosen format,
// the baseline recorded or applied, the fixes exported or made, the summary,
// and the exit code.
#pragma once
#include "Core/DiagSink.h"
#include "Driver/Runner.h"
#include "Output/Fingerprint.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace warplint::cli {

// --dump-analysis: each file's dump on stdout, All's errors on stderr; the
// exit code.
int printDumps(const std::vector<FileTask> &Tasks,
               const std::vector<FileResult> &Results, const DiagSink &All);

// Writes All's findings less those Recorded in the --baseline, records them
// with --write-baseline, exports or applies their fixes, and says what
// happened; the exit code. Share: where the check docs are (SARIF's rules);
// Inputs: the files given (--export-fixes names the first as the main one).
int report(const DiagSink &All, const std::optional<Baseline> &Recorded,
           llvm::StringRef Share, const std::vector<std::string> &Inputs);

} // namespace warplint::cli
