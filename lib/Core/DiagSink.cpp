#include "Core/DiagSink.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <map>
#include <optional>

namespace warplint {

llvm::StringRef severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

DiagSink::Key DiagSink::keyOf(const Finding &F) {
  return {F.Check,      F.Loc.File, F.Loc.Line,
          F.Loc.Column, F.Message,  F.archList()};
}

std::optional<size_t> DiagSink::report(Finding F) {
  if (!Seen.insert(keyOf(F)).second)
    return std::nullopt;
  Findings.push_back(std::move(F));
  return Findings.size() - 1;
}

void DiagSink::addNote(size_t Index, FindingNote N) {
  if (Index < Findings.size())
    Findings[Index].Notes.push_back(std::move(N));
}

void DiagSink::reportError(ToolError E) {
  Key K{std::string(), E.Loc.File, E.Loc.Line,
        E.Loc.Column,  E.Message,  std::string()};
  if (!SeenErrors.insert(std::move(K)).second)
    return;
  Errors.push_back(std::move(E));
}

// Where the target's name stands in Text, as a whole word.
static std::vector<size_t> occurrences(llvm::StringRef Text,
                                       llvm::StringRef Arch) {
  std::vector<size_t> Out;
  for (size_t At = Text.find(Arch); At != llvm::StringRef::npos;
       At = Text.find(Arch, At + 1)) {
    size_t End = At + Arch.size();
    if ((At == 0 || !llvm::isAlnum(Text[At - 1])) &&
        (End == Text.size() || !llvm::isAlnum(Text[End])))
      Out.push_back(At);
  }
  return Out;
}

// Text with the target's name made a placeholder: at one place (Only), or
// everywhere.
static std::string withoutTarget(llvm::StringRef Text, llvm::StringRef Arch,
                                 std::optional<size_t> Only = std::nullopt) {
  std::string Out;
  size_t From = 0;
  for (size_t At : occurrences(Text, Arch)) {
    if (Only && At != *Only)
      continue;
    Out += Text.substr(From, At - From).str() + '\x01';
    From = At + Arch.size();
  }
  return Out + Text.substr(From).str();
}

static std::string listOf(llvm::ArrayRef<std::string> Archs) {
  std::string Out;
  for (size_t I = 0; I < Archs.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Archs.size() ? " and " : ", ") + Archs[I];
  return Out;
}

// Message with its per-target values made placeholders ('\x02'), and the
// values in order.
static std::string withoutValues(const Finding &F,
                                 std::vector<std::string> &Values) {
  std::string Out;
  size_t From = 0;
  for (auto [At, Len] : F.TargetSpans) {
    Out += F.Message.substr(From, At - From) + '\x02';
    Values.push_back(F.Message.substr(At, Len));
    From = At + Len;
  }
  return Out + F.Message.substr(From);
}

void DiagSink::mergeTargets() {
  // A message may name its target more than once, or name a fixed
  // architecture that happens to be the target ("removed on sm_70 and later
  // (target sm_70)"): each place the name stands is a candidate for the
  // target's, and two targets merge on the candidate they share. Values
  // marked per target may differ between the targets of one group.
  struct Member {
    std::string Arch;
    std::vector<std::string> Values;
    std::vector<std::pair<std::string, double>> Metrics;
  };
  struct Group {
    Finding F;
    std::string Chosen;                      // the key it merged on
    std::map<std::string, std::string> Text; // candidate key -> message
    std::vector<Member> Members;
  };
  std::vector<Group> Groups;
  std::map<std::string, size_t> ByKey;
  for (Finding &F : Findings) {
    if (F.Archs.size() != 1) {
      Groups.push_back({std::move(F), "", {}, {}});
      continue;
    }
    const std::string &Arch = F.Archs.front();
    std::vector<std::string> Values;
    std::string Message = withoutValues(F, Values);
    std::string Rest = '\0' + F.Check + '\0' + F.Loc.File + '\0' +
                       std::to_string(F.Loc.Line) + ':' +
                       std::to_string(F.Loc.Column) + '\0' +
                       severityName(F.effectiveLevel()).str();
    for (const FindingNote &N : F.Notes)
      Rest += '\0' + N.Loc.File + ':' + std::to_string(N.Loc.Line) + ':' +
              std::to_string(N.Loc.Column) + withoutTarget(N.Message, Arch);
    for (const FixEdit &E : F.Fixes)
      Rest += '\0' + E.File + ':' + std::to_string(E.Offset) + '+' +
              std::to_string(E.Length) + E.Replacement;
    std::map<std::string, std::string> Candidates;
    for (size_t At : occurrences(Message, Arch)) {
      std::string Template = withoutTarget(Message, Arch, At);
      Candidates[Template + Rest] = Template;
    }
    if (Candidates.empty()) // the message does not name it: as it is
      Candidates[Message + Rest] = Message;
    Member Me{Arch, std::move(Values), F.Metrics};
    bool Merged = false;
    for (const auto &[Key, Template] : Candidates) {
      auto It = ByKey.find(Key);
      if (It == ByKey.end())
        continue;
      Group &G = Groups[It->second];
      if (!G.Chosen.empty() && G.Chosen != Key)
        continue;
      // Two findings for one target at one place are two instantiations of
      // a template, not two targets: each stays as it is.
      if (llvm::any_of(G.Members,
                       [&](const Member &M) { return M.Arch == Arch; }))
        continue;
      G.Chosen = Key;
      G.Members.push_back(std::move(Me));
      Merged = true;
      break;
    }
    if (Merged)
      continue;
    for (const auto &[Key, Template] : Candidates)
      ByKey.try_emplace(Key, Groups.size());
    Groups.push_back({std::move(F), "", std::move(Candidates), {}});
    Groups.back().Members.push_back(std::move(Me));
  }
  Findings.clear();
  Seen.clear();
  for (Group &G : Groups) {
    Finding &F = G.F;
    if (G.Members.size() > 1) {
      std::string First = G.Members.front().Arch; // whose words it keeps
      // Oldest first, whatever order the command gave the targets in.
      auto Number = [](const std::string &A) {
        unsigned N = 0;
        llvm::StringRef(A).drop_front(3).consumeInteger(10, N);
        return N;
      };
      std::stable_sort(G.Members.begin(), G.Members.end(),
                       [&](const Member &X, const Member &Y) {
                         return Number(X.Arch) < Number(Y.Arch);
                       });
      F.Archs.clear();
      for (const Member &M : G.Members)
        F.Archs.push_back(M.Arch);
      std::string List = listOf(F.Archs);
      auto Fill = [&](std::string Text) {
        for (size_t At; (At = Text.find('\x01')) != std::string::npos;)
          Text.replace(At, 1, List);
        return Text;
      };
      std::string Text = Fill(G.Text[G.Chosen]);
      // Each value slot: one value when the targets agree, else theirs in
      // target order.
      for (size_t Slot = 0, At; (At = Text.find('\x02')) != std::string::npos;
           ++Slot) {
        std::vector<std::string> Vals;
        for (const Member &M : G.Members)
          Vals.push_back(Slot < M.Values.size() ? M.Values[Slot] : "");
        bool Same = llvm::all_equal(Vals);
        Text.replace(At, 1, Same ? Vals.front() : listOf(Vals));
      }
      F.Message = std::move(Text);
      F.TargetSpans.clear();
      for (FindingNote &N : F.Notes)
        N.Message = Fill(withoutTarget(N.Message, First));
      bool MetricsDiffer = llvm::any_of(G.Members, [&](const Member &M) {
        return M.Metrics != G.Members.front().Metrics;
      });
      F.Metrics = G.Members.front().Metrics;
      if (MetricsDiffer)
        for (const Member &M : G.Members)
          F.MetricsByArch[M.Arch] = M.Metrics;
    }
    Seen.insert(keyOf(F));
    Findings.push_back(std::move(F));
  }
}

void DiagSink::append(DiagSink &&Other) {
  for (Finding &F : Other.Findings)
    report(std::move(F));
  for (ToolError &E : Other.Errors)
    reportError(std::move(E));
  Other.Findings.clear();
  Other.Errors.clear();
  Other.Seen.clear();
  Other.SeenErrors.clear();
}

} // namespace warplint
