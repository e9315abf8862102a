// The end of a run: the findings written, the baseline recorded or applied,
// the fixes exported or made, the summary on stderr, and the exit code.
#include "Report.h"
#include "Options.h"
#include "Output/Fixes.h"
#include "Output/SourceLines.h"
#include "Output/Writers.h"
#include "Support/Paths.h"
#include "checks/Registry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace warplint::cli {

namespace {

std::vector<RuleInfo> ruleList(StringRef Share) {
  std::vector<RuleInfo> Rules;
  std::string Base = HelpBaseUrlOpt;
  if (!Base.empty() && Base.back() != '/')
    Base += '/';
  for (const CheckInfo &C : allChecks()) {
    SmallString<256> Doc(Share);
    sys::path::append(Doc, "docs", "checks", C.Id + ".md");
    auto Text = MemoryBuffer::getFile(Doc, /*IsText=*/true);
    Rules.push_back({C.Id.str(), C.ClassName.str(), C.Summary.str(),
                     Text ? (*Text)->getBuffer().str() : "",
                     Base.empty() ? "" : Base + C.Id.str() + ".md"});
  }
  return Rules;
}

// The findings reported: All's less those recorded in the baseline, each
// with its fingerprint.
struct KeptFindings {
  std::vector<Finding> Findings;
  std::vector<std::string> Prints;
  unsigned Baselined = 0;
};

KeptFindings leaveOutBaselined(const std::vector<Finding> &All,
                               const std::vector<std::string> &Prints,
                               const std::optional<Baseline> &Recorded) {
  KeptFindings K;
  for (size_t I = 0; I < All.size(); ++I) {
    if (Recorded && Recorded->Fingerprints.count(Prints[I])) {
      ++K.Baselined;
      continue;
    }
    K.Findings.push_back(All[I]);
    K.Prints.push_back(Prints[I]);
  }
  return K;
}

// --export-fixes, then --fix unless the analysis had errors. Refused: the
// fixes not made (overlapping, or their file changed on disk), each named.
Error fixFindings(const std::vector<Finding> &Kept, bool HadErrors,
                  const std::vector<std::string> &Inputs,
                  std::vector<std::string> &Refused) {
  if (!ExportFixes.empty())
    if (Error E = exportFixes(
            Kept, Inputs.empty() ? "" : absolutePath(Inputs.front()),
            ExportFixes, Refused))
      return E;

  if (FixOpt) {
    if (HadErrors) {
      errs() << "warplint: found compiler errors; fixes have NOT been "
                "applied\n";
    } else {
      FixSummary Summary = applyFixes(Kept);
      Refused.insert(Refused.end(), Summary.Refused.begin(),
                     Summary.Refused.end());
      if (!Quiet)
        errs() << "warplint: applied " << Summary.Applied << " fix"
               << (Summary.Applied == 1 ? "" : "es") << " in " << Summary.Files
               << " file" << (Summary.Files == 1 ? "" : "s") << "\n";
    }
  }
  return Error::success();
}

// A run whose analysis had errors: the first of them said (with how many
// more), and exit 2.
int failWithErrors(const DiagSink &All) {
  bool Crashed =
      llvm::any_of(All.errors(), [](const ToolError &E) { return E.Crashed; });
  if (!Quiet || FormatOpt != OutputFormat::Text) {
    const ToolError &First = All.errors().front();
    std::string Where = First.Loc.File;
    if (First.Loc.Line)
      Where += ":" + std::to_string(First.Loc.Line) + ":" +
               std::to_string(First.Loc.Column);
    errs() << "warplint: error: " << Where << ": " << First.Message;
    if (All.errors().size() > 1)
      errs() << " (and " << All.errors().size() - 1 << " more errors)";
    errs() << "\n";
  }
  if (Crashed) {
    // The crashed parse left state that LLVM's shutdown would touch.
    outs().flush();
    errs().flush();
    sys::Process::Exit(2, /*NoCleanup=*/true);
  }
  return 2;
}

} // namespace

int printDumps(const std::vector<FileTask> &Tasks,
               const std::vector<FileResult> &Results, const DiagSink &All) {
  for (size_t I = 0; I < Tasks.size(); ++I)
    outs() << "file " << Tasks[I].File << "\n" << Results[I].Dump;
  for (const ToolError &E : All.errors())
    errs() << "warplint: error: " << E.Loc.File << ":" << E.Loc.Line << ":"
           << E.Loc.Column << ": " << E.Message << "\n";
  return All.errors().empty() ? 0 : 2;
}

int report(const DiagSink &All, const std::optional<Baseline> &Recorded,
           StringRef Share, const std::vector<std::string> &Inputs) {
  // Fingerprints over every finding, before a baseline leaves some out, so
  // that each keeps the one it was recorded with.
  std::string Root =
      SourceRootOpt.empty() ? absolutePath(".") : absolutePath(SourceRootOpt);
  SourceLines Src;
  std::vector<std::string> Prints = fingerprints(All.findings(), Root, Src);
  if (!WriteBaselineOpt.empty()) {
    if (Error E =
            writeBaseline(WriteBaselineOpt, All.findings(), Prints, Root)) {
      printError(WriteBaselineOpt + ": " + toString(std::move(E)));
      return 2;
    }
    if (!Quiet)
      errs() << "warplint: recorded " << All.findings().size() << " finding"
             << (All.findings().size() == 1 ? "" : "s") << " in "
             << WriteBaselineOpt << "\n";
  }
  KeptFindings Kept = leaveOutBaselined(All.findings(), Prints, Recorded);

  // Only SARIF lists the rules (with their doc pages, read from disk).
  std::vector<RuleInfo> Rules;
  if (FormatOpt == OutputFormat::Sarif)
    Rules = ruleList(Share);
  Report Out{Kept.Findings, All.errors(), Rules,
             Kept.Prints,   Root,         SarifCategoryOpt};
  writeReport(FormatOpt, Out, outs());
  outs().flush();
  if (Kept.Baselined && !Quiet)
    errs() << "warplint: " << Kept.Baselined << " finding"
           << (Kept.Baselined == 1 ? "" : "s") << " left out: recorded in "
           << BaselineOpt << "\n";

  unsigned Errors = 0, Warnings = 0;
  for (const Finding &F :
       Kept.Findings) // notes are advice: counted as clang does
    if (F.effectiveLevel() != Severity::Note)
      (F.effectiveLevel() == Severity::Error ? Errors : Warnings) += 1;

  // Fixes refused (overlapping, or their file changed on disk): each named,
  // and the run fails (exit 2) though the other files' fixes are made.
  std::vector<std::string> Refused;
  if (Error E =
          fixFindings(Kept.Findings, !All.errors().empty(), Inputs, Refused)) {
    printError(ExportFixes + ": " + toString(std::move(E)));
    return 2;
  }
  for (const std::string &R : Refused)
    printError(R);
  if (!Refused.empty() && All.errors().empty())
    return 2;

  if (!All.errors().empty())
    return failWithErrors(All);
  if (!Quiet && FormatOpt == OutputFormat::Text && (Errors || Warnings))
    errs() << Warnings << " warning" << (Warnings == 1 ? "" : "s") << " and "
           << Errors << " error" << (Errors == 1 ? "" : "s") << " generated.\n";
  if (!WriteBaselineOpt.empty())
    return 0; // recording is not gating
  return Errors ? 1 : 0;
}

} // namespace warplint::cli
