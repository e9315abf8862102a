#include "DiagnosticReport.h"
#include "Arch/ArchTable.h"
#include "Core/NoLint.h"
#include "IR/BarrierDivergence.h"
#include "IR/Pieces.h"
#include "IR/Report.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

using namespace llvm;

namespace warplint::ir {

namespace {

class Reporter {
public:
  Reporter(const DiagnosticReportOptions &Opts, LLVMContext &Ctx)
      : Opts(Opts), Ctx(Ctx) {}

  void report(const BarrierVerdict &V) {
    const Function &F = *V.Point->getFunction();
    const ArchInfo *Arch = archOf(F);
    SmallVector<const DILocation *, 4> Chain = chainOf(V.Point->getDebugLoc());
    std::vector<Frame> Frames = framesOf(V.Point->getDebugLoc().get());
    if (Chain.empty()) { // no debug info: clang points at the function
      if (Reported.insert(F.getName().str() + "|" + tagKey(V)).second)
        diagnose(F, barrierMessage(barrierWhat(V, Frames, 0), Arch), nullptr);
      return;
    }
    std::optional<size_t> At = firstUserFrame(Frames);
    if (!At || isSilenced(Frames[*At], Arch))
      return;
    // With a witness an error, without one a warning (as in the CLI).
    std::string Words = V.Witness ? "; witness: " + witnessWords(*V.Witness)
                                  : "; " + NoWitnessWords.str();
    diagnose(F, barrierMessage(barrierWhat(V, Frames, *At), Arch) + Words,
             Chain[*At], V.Witness ? DS_Error : DS_Warning);
    const Instruction *Blame = V.Witness ? V.Witness->Branch : V.Branch;
    SmallVector<const DILocation *, 4> Branch = chainOf(Blame->getDebugLoc());
    std::vector<Frame> BranchFrames = framesOf(Blame->getDebugLoc().get());
    if (auto B = firstUserFrame(BranchFrames))
      note(F, SplitNote, Branch[*B]);
    for (size_t I = *At + 1; I < Frames.size(); ++I)
      note(F, callNote(Frames[I].Function), Chain[I]);
  }

  bool isSystem(StringRef File) const {
    for (const std::string &Dir : Opts.SystemDirs)
      if (File.starts_with(Dir) && (File.size() == Dir.size() ||
                                    sys::path::is_separator(File[Dir.size()])))
        return true;
    return false;
  }

private:
  // The same barrier of the source in every inlined copy and every piece:
  // the tag's function and number, not its address.
  static std::string tagKey(const BarrierVerdict &V) {
    std::string Key;
    raw_string_ostream OS(Key);
    const MDNode *Tag = barrierTag(*V.Point);
    if (!Tag) {
      OS << V.Point;
      return Key;
    }
    for (const MDOperand &Op : Tag->operands()) {
      if (const auto *S = dyn_cast_or_null<MDString>(Op.get()))
        OS << S->getString();
      else if (auto *C = mdconst::dyn_extract_or_null<ConstantInt>(Op.get()))
        OS << C->getValue();
      OS << "#";
    }
    return Key;
  }

  static SmallVector<const DILocation *, 4> chainOf(const DebugLoc &DL) {
    SmallVector<const DILocation *, 4> Out;
    for (const DILocation *L = DL.get(); L; L = L->getInlinedAt())
      Out.push_back(L);
    return Out;
  }

  const ArchInfo *archOf(const Function &F) const {
    if (!Opts.Tables)
      return nullptr;
    return Opts.Tables->find(F.getFnAttribute("target-cpu").getValueAsString());
  }

  std::optional<size_t> firstUserFrame(const std::vector<Frame> &Frames) const {
    for (size_t I = 0; I < Frames.size(); ++I)
      if (Frames[I].Line && !isSystem(Frames[I].File))
        return I;
    return std::nullopt;
  }

  // Reported already in this module, suppressed by NOLINT, or said by the
  // AST layer in this process.
  bool isSilenced(const Frame &At, const ArchInfo *Arch) {
    std::string Key = At.File + ":" + std::to_string(At.Line) + ":" +
                      std::to_string(At.Column);
    if (!Reported.insert(Key).second)
      return true;
    if (const NoLintIndex *Index = noLintFor(At.File))
      if (Index->suppresses(At.Line, Opts.CheckId))
        return true;
    return Opts.ReportedByAST &&
           Opts.ReportedByAST(At.File, At.Line, Arch ? Arch->Name : "");
  }

  const NoLintIndex *noLintFor(const std::string &File) {
    auto [It, New] = NoLint.try_emplace(File);
    if (New)
      if (auto Buf = MemoryBuffer::getFile(File))
        It->second = std::make_unique<NoLintIndex>((*Buf)->getBuffer());
    return It->second.get();
  }

  void diagnose(const Function &F, const std::string &Message,
                const DILocation *L, DiagnosticSeverity Level = DS_Error) {
    std::string Text = Message + " [" + Opts.CheckId + "]";
    Ctx.diagnose(DiagnosticInfoUnsupported(
        F, Text, L ? DiagnosticLocation(DebugLoc(L)) : DiagnosticLocation(),
        Level));
  }

  // The witness in words; the plugin has no source text to quote.
  static std::string witnessWords(const IRWitness &W) {
    std::string Source;
    if (W.Source)
      if (const DILocation *L = W.Source->getDebugLoc().get())
        Source = "at line " + std::to_string(L->getLine());
    return witnessText(W, "", Source);
  }

  void note(const Function &F, StringRef Text, const DILocation *L) {
    std::string Copy = Text.str();
    Ctx.diagnose(DiagnosticInfoGenericWithLoc(
        Copy, F, DiagnosticLocation(DebugLoc(L)), DS_Note));
  }

  const DiagnosticReportOptions &Opts;
  LLVMContext &Ctx;
  std::set<std::string> Reported;
  std::map<std::string, std::unique_ptr<NoLintIndex>> NoLint;
};

} // namespace

PreservedAnalyses BarrierDiagnosticsPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  if (!M.getTargetTriple().isNVPTX() ||
      (Opts.Enabled && !Opts.Enabled(M.getSourceFileName())))
    return PreservedAnalyses::all();
  // The compile goes on with M as it is: the analysis inlines into copies,
  // one piece at a time.
  Reporter Rep(Opts, M.getContext());
  PrepareOptions Prep;
  Prep.InSystemHeader = [&](const Function &F) {
    const DISubprogram *SP = F.getSubprogram();
    return SP && Rep.isSystem(pathOf(SP->getFile()));
  };
  forEachPiece(M, [&](Module &Copy) {
    BarrierResult R = analyseBarriers(Copy, Prep);
    for (const BarrierVerdict *V : R.divergent())
      Rep.report(*V);
  });
  return PreservedAnalyses::all();
}

} // namespace warplint::ir
