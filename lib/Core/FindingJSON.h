// A Finding as JSON: the one writer and reader of it, shared by
// --format=json (Output/Writers.cpp) and the result cache's entries and
// --timeout's worker results (Driver/ResultCache.cpp).
#pragma once
#include "Core/Finding.h"
#include "llvm/Support/Error.h"
#include <nlohmann/json.hpp>

namespace warplint {

enum class FindingJSONForm {
  // --format=json's finding: "check", "severity" (as reported, after
  // --warnings-as-errors), "file", "line", "column", "message", "arch",
  // "notes", "fixes", "metrics", and "metrics_by_arch" where the targets'
  // numbers differ. Its bytes are the report's: keep them.
  Report,
  // The report's fields and what a report leaves out, so that the Finding
  // reads back as it was: each fix's "file_hash", and "function", "level"
  // (before --warnings-as-errors) and "promoted". (TargetSpans, which only
  // the merge of a file's targets reads, before any result is stored, is
  // left out.)
  Complete,
};

nlohmann::ordered_json
findingToJson(const Finding &F, FindingJSONForm Form = FindingJSONForm::Report);

// A finding of either form (what the Report form leaves out: empty, the
// severity as its level); an error naming the first field that is missing
// or of the wrong type. Throws nothing.
llvm::Expected<Finding> findingFromJson(const nlohmann::ordered_json &J);

} // namespace warplint
