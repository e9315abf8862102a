#include "checks/launch/VerdictGroups.h"
#include "Analysis/BodyWalk.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>

using namespace clang;

namespace warplint::launch {

bool inDeadBranch(llvm::ArrayRef<const Stmt *> Path, const Stmt *Launch,
                  ASTContext &Ctx) {
  for (size_t I = 0; I < Path.size(); ++I) {
    const auto *If = dyn_cast<IfStmt>(Path[I]);
    const Stmt *C = I + 1 < Path.size() ? Path[I + 1] : Launch;
    const Expr *Cond = If ? If->getCond() : nullptr;
    bool Value = false;
    if (Cond && (C == If->getThen() || C == If->getElse()) &&
        !Cond->isValueDependent() &&
        Cond->EvaluateAsBooleanCondition(Value, Ctx) &&
        (Value ? C == If->getElse() : C == If->getThen()))
      return true;
  }
  return false;
}

bool inDeadBranch(const Stmt *Launch, const FunctionDecl *Caller,
                  ASTContext &Ctx) {
  // The ifs around the launch, from a walk of the caller's body (the AST's
  // own parent map would be built for the whole TU for it).
  if (!Caller || !Caller->getBody())
    return false;
  bool Dead = false;
  forEachStmt(Caller->getBody(), WalkOptions().enterLambdas(),
              [&](const Stmt *S, llvm::ArrayRef<const Stmt *> Path) {
                if (S != Launch)
                  return WalkStep::Continue;
                Dead = inDeadBranch(Path, Launch, Ctx);
                return WalkStep::Stop;
              });
  return Dead;
}

const FunctionDecl *kernelPattern(const FunctionDecl *K) {
  if (!K)
    return nullptr;
  if (const FunctionDecl *P = K->getTemplateInstantiationPattern())
    K = P;
  return K->getCanonicalDecl();
}

void noteOtherLaunches(FindingBuilder &B, llvm::ArrayRef<SourceLocation> Others,
                       llvm::StringRef Name) {
  for (SourceLocation L : Others)
    B.note(L, "{0} is also launched here, with the same verdict") << Name;
}

void noteGridFill(FindingBuilder &B, SourceLocation Loc, uint64_t FillsAbove,
                  llvm::StringRef Matters) {
  if (!FillsAbove)
    return;
  // The number differs between targets (their SMs): a metric.
  B.metric("grid_fills_gpu_above_blocks", double(FillsAbove));
  B.note(Loc, "the grid's size is known only at run time: {0} only when it "
              "has more blocks than one wave of the GPU holds (the SMs of the "
              "architecture's largest part times the blocks per SM above)")
      << Matters;
}

void VerdictGroups::add(SourceLocation Loc, const FunctionDecl *Kernel,
                        std::string Key, const KernelResourcesSeen &Res,
                        Emit E) {
  Pending.push_back(
      {Loc, Kernel, kernelPattern(Kernel), std::move(Key), Res, std::move(E)});
}

void VerdictGroups::flush() {
  std::vector<bool> Done(Pending.size());
  for (size_t I = 0; I < Pending.size(); ++I) {
    if (Done[I])
      continue;
    const Verdict &First = Pending[I];
    std::vector<const Verdict *> Members{&First};
    for (size_t J = I + 1; J < Pending.size(); ++J)
      if (!Done[J] && Pending[J].Pattern == First.Pattern &&
          Pending[J].Key == First.Key &&
          (Grouping == By::Kernel || Pending[J].Loc == First.Loc)) {
        Done[J] = true;
        Members.push_back(&Pending[J]);
      }
    // The registers: one count, or the range the instantiations span.
    std::string RegText = First.Res.registerText();
    unsigned Low = UINT_MAX, High = 0, Known = 0;
    bool Differ = false;
    std::vector<const FunctionDecl *> Kernels;
    for (const Verdict *M : Members) {
      if (std::find(Kernels.begin(), Kernels.end(), M->Kernel) == Kernels.end())
        Kernels.push_back(M->Kernel);
      if (M->Res.registerText() != RegText)
        Differ = true;
      if (M->Res.Registers) {
        ++Known;
        Low = std::min(Low, *M->Res.Registers);
        High = std::max(High, *M->Res.Registers);
      }
    }
    if (Differ && Known == Members.size())
      RegText =
          (Low == High ? std::to_string(Low)
                       : std::to_string(Low) + " to " + std::to_string(High)) +
          " registers per thread (ptxas, over " +
          std::to_string(Kernels.size()) + " instantiations)";
    // Other launch sites, each once (instantiations of one launch share it).
    std::vector<SourceLocation> Others;
    for (const Verdict *M : Members)
      if (M->Loc != First.Loc &&
          std::find(Others.begin(), Others.end(), M->Loc) == Others.end())
        Others.push_back(M->Loc);
    First.E(RegText, Others);
  }
  Pending.clear();
}

} // namespace warplint::launch
