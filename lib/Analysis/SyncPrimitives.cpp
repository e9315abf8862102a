#include "Analysis/SyncPrimitives.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace warplint {

namespace {

// What a cooperative group's sync() synchronises, from the group's type.
SyncKind groupKind(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return SyncKind::None;
  const DeclContext *NS = RD->getEnclosingNamespaceContext();
  bool InCG = false;
  for (; NS && !NS->isTranslationUnit(); NS = NS->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(NS))
      if (N->getName() == "cooperative_groups")
        InCG = true;
  if (!InCG)
    return SyncKind::None;
  return llvm::StringSwitch<SyncKind>(RD->getName())
      .Cases({"thread_block", "cluster_group"}, SyncKind::BlockBarrier)
      .Cases({"grid_group", "multi_grid_group"}, SyncKind::GridBarrier)
      .Cases({"thread_block_tile", "coalesced_group", "thread_group"},
             SyncKind::TileCollective)
      .Default(SyncKind::None);
}

std::string groupText(const Expr *Base) {
  Base = Base->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
    return DRE->getDecl()->getNameAsString();
  if (const auto *Call = dyn_cast<CallExpr>(Base))
    if (const FunctionDecl *F = Call->getDirectCallee())
      return F->getNameAsString() + "()";
  return "group";
}

} // namespace

SyncSite classifySync(const Stmt *S) {
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    std::string Str = Asm->getAsmString();
    llvm::StringRef Text = Str;
    if (Text.contains("bar.warp.sync"))
      return {SyncKind::WarpBarrier, "bar.warp.sync", -1};
    // A warp collective written in PTX (a library's own shuffle wrapper,
    // `shfl.sync.bfly.b32 %0, %1, %2, 0x1f, %3;`): it synchronises the
    // lanes of its mask, as __shfl_xor_sync does.
    for (llvm::StringRef Op :
         {"shfl.sync", "vote.sync", "match.sync", "redux.sync"})
      if (Text.contains(Op))
        return {SyncKind::WarpCollective, Op.str(), -1};
    // bar.sync a; / barrier.sync a; (no thread count): the whole block.
    // bar.sync a, b; names a subset. bar.warp.sync is __syncwarp.
    for (llvm::StringRef Op :
         {"bar.sync", "barrier.sync", "bar.red", "barrier.red",
          "barrier.cta.sync", "bar.cta.sync", "barrier.cta.red"}) {
      size_t At = Text.find(Op);
      if (At == llvm::StringRef::npos)
        continue;
      llvm::StringRef Rest = Text.substr(At + Op.size());
      Rest = Rest.take_until([](char C) { return C == ';' || C == '\n'; });
      // .red forms take a predicate operand too: "bar.red.popc.u32 %0, 0, %1"
      bool IsRed = Op.contains("red");
      unsigned Commas = Rest.count(',');
      bool HasCount = IsRed ? Commas >= 3 : Commas >= 1;
      SyncSite Site;
      Site.Kind = HasCount ? SyncKind::PartialBarrier : SyncKind::BlockBarrier;
      Site.Name = Op.str();
      return Site;
    }
    return {};
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return {};
  // Cooperative groups: g.sync(), cg::sync(g), g.shfl(...), ...
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(Callee)) {
    // The object as written, before any conversion to a base class.
    SyncKind K = groupKind(ME->getBase()->IgnoreImpCasts()->getType());
    // An operator, a conversion or a destructor has no identifier: none of
    // them is a primitive (and getName() asserts on them).
    const IdentifierInfo *MemberId = ME->getMemberDecl()->getIdentifier();
    if (K == SyncKind::None || !MemberId)
      return {};
    llvm::StringRef Member = MemberId->getName();
    std::string Name = groupText(ME->getBase()) + "." + Member.str();
    if (Member == "sync" || Member == "barrier_wait")
      return {K, Name};
    if (K == SyncKind::TileCollective &&
        llvm::is_contained({"shfl", "shfl_down", "shfl_up", "shfl_xor", "any",
                            "all", "ballot", "match_any", "match_all"},
                           Member))
      return {SyncKind::TileCollective, Name};
    return {};
  }
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || !F->getDeclName().isIdentifier())
    return {};
  llvm::StringRef Name = F->getName();
  if (Name == "sync" && Call->getNumArgs() == 1) {
    SyncKind K = groupKind(Call->getArg(0)->getType());
    if (K != SyncKind::None)
      return {K, "cooperative_groups::sync"};
    return {};
  }
  // Only the toolkit's and the compiler's declarations are the primitives.
  if (!F->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return {};
  if (llvm::is_contained({"__syncthreads", "__syncthreads_count",
                          "__syncthreads_and", "__syncthreads_or",
                          "__nvvm_bar0_popc", "__nvvm_bar0_and",
                          "__nvvm_bar0_or", "__nvvm_bar_sync"},
                         Name))
    return {SyncKind::BlockBarrier, Name.str()};
  if (Name == "__barrier_sync")
    return {SyncKind::BlockBarrier, Name.str()};
  if (Name == "__barrier_sync_count")
    return {SyncKind::PartialBarrier, Name.str()};
  if (Name == "__syncwarp")
    return {SyncKind::WarpBarrier, Name.str(), Call->getNumArgs() ? 0 : -1};
  if (Name.ends_with("_sync") &&
      (Name.starts_with("__shfl") || Name.starts_with("__match") ||
       Name.starts_with("__reduce_") ||
       llvm::is_contained(
           {"__any_sync", "__all_sync", "__ballot_sync", "__uni_sync"}, Name)))
    return {SyncKind::WarpCollective, Name.str(), 0};
  return {};
}

bool isFullMask(const Expr *Mask, const ASTContext &Ctx, unsigned WarpSize) {
  if (!Mask || Mask->isValueDependent())
    return false;
  Expr::EvalResult R;
  if (!Mask->EvaluateAsInt(R, Ctx))
    return false;
  uint64_t Full = WarpSize >= 64 ? ~uint64_t(0) : (uint64_t(1) << WarpSize) - 1;
  return (R.Val.getInt().getZExtValue() & Full) == Full;
}

unsigned tileSizeOf(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->getName().starts_with("thread_block_tile") ||
      Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return 0;
  return unsigned(Spec->getTemplateArgs()[0].getAsIntegral().getZExtValue());
}

const FunctionDecl *userCallee(const Stmt *S) {
  const auto *Call = dyn_cast<CallExpr>(S);
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  F = F ? F->getDefinition() : nullptr;
  if (!F || !F->getBody())
    return nullptr;
  const SourceManager &SM = F->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())) ? nullptr
                                                                   : F;
}

const Stmt *ruledOutArm(const Stmt *Parent, const ASTContext &Ctx) {
  const Expr *Cond = nullptr;
  const Stmt *Then = nullptr, *Else = nullptr;
  if (const auto *C = dyn_cast<ConditionalOperator>(Parent)) {
    Cond = C->getCond();
    Then = C->getTrueExpr();
    Else = C->getFalseExpr();
  } else if (const auto *If = dyn_cast<IfStmt>(Parent)) {
    Cond = If->getCond();
    Then = If->getThen();
    Else = If->getElse();
  }
  bool Value;
  if (!Cond || Cond->isValueDependent() ||
      !Cond->EvaluateAsBooleanCondition(Value, Ctx))
    return nullptr;
  return Value ? Else : Then;
}

const Stmt *BarrierSummary::barrierIn(const FunctionDecl *F) {
  return barrierIn(F, 0);
}

const Stmt *BarrierSummary::barrierIn(const FunctionDecl *F, unsigned Depth) {
  const FunctionDecl *Def = F->getDefinition();
  if (!Def || !Def->getBody() || Depth > 16)
    return nullptr;
  auto It = Memo.find(Def);
  if (It != Memo.end())
    return It->second;
  Memo[Def] = nullptr; // recursion: no
  Ctx = &Def->getASTContext();
  const Stmt *Found = search(Def->getBody(), Depth);
  Memo[Def] = Found;
  return Found;
}

const Stmt *BarrierSummary::search(const Stmt *S, unsigned Depth) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  SyncSite Site = classifySync(S);
  if (Site.Kind == SyncKind::BlockBarrier || Site.Kind == SyncKind::GridBarrier)
    return S;
  // A tile's or a warp's sync is what it is, whatever its implementation
  // does for other kinds of group (thread_group::sync() also serves blocks).
  if (Site.Kind != SyncKind::None)
    return nullptr;
  // A device-side launch starts another grid: not a call that synchronises.
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && !isa<CUDAKernelCallExpr>(Call))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (barrierIn(Callee, Depth + 1))
        return S;
  // Not the arm a constant condition rules out (its condition runs anyway).
  const Stmt *Dead = Ctx ? ruledOutArm(S, *Ctx) : nullptr;
  for (const Stmt *C : S->children())
    if (C != Dead)
      if (const Stmt *Found = search(C, Depth))
        return Found;
  return nullptr;
}

} // namespace warplint
