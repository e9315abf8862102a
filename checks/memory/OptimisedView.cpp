#include "checks/memory/OptimisedView.h"
#include "IR/OptimisedAccesses.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace warplint::memory {

namespace {

// Loc as debug info names it: the presumed file made absolute, line, column.
std::optional<ir::SourcePos> positionOf(CheckContext &Ctx, SourceLocation Loc) {
  SourceManager &SM = Ctx.sourceManager();
  PresumedLoc P = SM.getPresumedLoc(Loc);
  if (Loc.isInvalid() || Loc.isMacroID() || P.isInvalid())
    return std::nullopt;
  llvm::SmallString<256> Path(P.getFilename());
  SM.getFileManager().makeAbsolutePath(Path);
  return ir::SourcePos{std::string(Path), P.getLine(), P.getColumn()};
}

// What became of the access of one kind (load or store) written by A.
ir::AccessFate fateOf(CheckContext &Ctx, const ir::OptimisedAccesses &O,
                      const MemoryAccess &A, bool IsStore) {
  // Clang puts a load at its lvalue's expression location, a store (and
  // the load of a compound assignment or ++/--) at the operator after it.
  std::vector<SourceLocation> Candidates;
  if (!IsStore && !A.AlsoLoads)
    Candidates.push_back(A.E->getExprLoc());
  if (IsStore || A.AlsoLoads)
    if (auto Next = Lexer::findNextToken(A.E->getEndLoc(),
                                         Ctx.sourceManager(), Ctx.langOpts()))
      Candidates.push_back(Next->getLocation());
  for (SourceLocation Loc : Candidates)
    if (auto Pos = positionOf(Ctx, Loc)) {
      ir::AccessFate F = O.fate(*Pos, IsStore);
      if (F.K != ir::AccessFate::Unknown)
        return F;
    }
  return {};
}

} // namespace

OptimisedView optimisedView(CheckContext &Ctx, const MemoryAccess &A) {
  const ir::OptimisedAccesses *O = Ctx.optimisedAccesses();
  if (!O || A.E->getBeginLoc().isMacroID())
    return {};
  ir::AccessFate F = fateOf(Ctx, *O, A, A.IsStore);
  if (A.AlsoLoads) { // both halves must agree
    ir::AccessFate L = fateOf(Ctx, *O, A, /*IsStore=*/false);
    if (L.K != F.K || L.Bytes != F.Bytes || L.Offset != F.Offset)
      return {};
  }
  switch (F.K) {
  case ir::AccessFate::Removed:
    return {OptimisedView::Removed};
  case ir::AccessFate::Merged:
    if (F.Bytes <= A.Size)
      return {};
    return {F.Offset ? OptimisedView::Covered : OptimisedView::Merged,
            F.Bytes};
  default:
    return {};
  }
}

std::string mergedWords(const OptimisedView &V, const MemoryAccess &A) {
  if (V.K != OptimisedView::Merged)
    return "";
  return "; the compiler merges it with the accesses beside it into one " +
         std::to_string(V.Bytes) + "-byte " + (A.IsStore ? "store" : "load") +
         " per lane";
}

} // namespace warplint::memory
