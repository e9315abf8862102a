// DiagSink: the one place findings go. The CLI's writers, the plugin's clang
// diagnostics and the language server all read from it; duplicates (host and
// device passes, template instantiations, two targets with the same verdict)
// are merged here once.
#pragma once
#include "Core/Finding.h"
#include <set>
#include <tuple>

namespace warplint {

class DiagSink {
public:
  // Adds F unless the same finding is already there. Returns its index, or
  // nothing when it was a duplicate.
  std::optional<size_t> report(Finding F);
  // Attaches a note to the finding at Index.
  void addNote(size_t Index, FindingNote N);
  // Adds E unless the same error is there (every target's parse reports
  // the TU's errors again).
  void reportError(ToolError E);

  const std::vector<Finding> &findings() const { return Findings; }
  std::vector<Finding> &findings() { return Findings; }
  const std::vector<ToolError> &errors() const { return Errors; }

  // Findings of several targets' parses that say the same thing at the same
  // place, but for the target's name, become one naming every target ("on
  // sm_60, sm_80 and sm_90"), oldest target first; a verdict that differs
  // (another severity, other numbers) stays a finding of its own.
  void mergeTargets();

  // Moves everything of Other behind what is here, keeping Other's order.
  void append(DiagSink &&Other);

private:
  using Key = std::tuple<std::string, std::string, unsigned, unsigned,
                         std::string, std::string>;
  static Key keyOf(const Finding &F);
  std::vector<Finding> Findings;
  std::vector<ToolError> Errors;
  std::set<Key> Seen;
  std::set<Key> SeenErrors;
};

} // namespace warplint
