#include "checks/memory/OptimisedView.h"
#include "IR/OptimisedAccesses.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
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

// Where clang's code generator puts the access of one kind (load or store)
// that A writes: a load at its lvalue's expression location, a store (and
// the load of a compound assignment or ++/--) at the operator after it.
std::vector<ir::SourcePos> irPositions(CheckContext &Ctx, const MemoryAccess &A,
                                       bool IsStore) {
  std::vector<SourceLocation> Candidates;
  if (!IsStore && !A.AlsoLoads)
    Candidates.push_back(A.E->getExprLoc());
  // A structure read whole is copied from where its expression begins.
  if (!IsStore && A.E->getType()->isRecordType() &&
      A.E->getBeginLoc() != A.E->getExprLoc())
    Candidates.push_back(A.E->getBeginLoc());
  if (IsStore || A.AlsoLoads)
    if (auto Next = Lexer::findNextToken(A.E->getEndLoc(), Ctx.sourceManager(),
                                         Ctx.langOpts()))
      Candidates.push_back(Next->getLocation());
  std::vector<ir::SourcePos> Out;
  for (SourceLocation Loc : Candidates)
    if (auto Pos = positionOf(Ctx, Loc))
      Out.push_back(*Pos);
  return Out;
}

// What became of the access of one kind (load or store) written by A.
ir::AccessFate fateOf(CheckContext &Ctx, const ir::OptimisedAccesses &O,
                      const MemoryAccess &A, bool IsStore) {
  for (const ir::SourcePos &Pos : irPositions(Ctx, A, IsStore)) {
    ir::AccessFate F = O.fate(Pos, IsStore);
    if (F.K != ir::AccessFate::Unknown)
      return F;
  }
  return {};
}

// The access expressions of the user's code by the position the IR layer
// knows them by: for a load the outermost lvalue (p[i].x rather than p[i])
// whose expression location is the position, for a store the left side of
// the assignment whose operator is there. One walk of the TU (its system
// headers skipped, as no access there is asked for) answers every position.
class AccessIndex : public RecursiveASTVisitor<AccessIndex> {
public:
  explicit AccessIndex(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && !isa<LinkageSpecDecl>(D) &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitExpr(Expr *E) {
    const Expr *LHS = nullptr;
    SourceLocation Op;
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
      LHS = B->getLHS(), Op = B->getOperatorLoc();
    if (const auto *C = dyn_cast<CXXOperatorCallExpr>(E);
        C && C->isAssignmentOp())
      LHS = C->getArg(0), Op = C->getOperatorLoc();
    if (LHS)
      Stores.try_emplace(Op.getRawEncoding(), LHS->IgnoreParenImpCasts());
    bool Lvalue = isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E) ||
                  (isa<UnaryOperator>(E) &&
                   cast<UnaryOperator>(E)->getOpcode() == UO_Deref);
    // Visited outermost first: the first one at a position is the widest.
    if (Lvalue)
      Loads.try_emplace(E->getExprLoc().getRawEncoding(), E);
    return true;
  }
  const Expr *find(SourceLocation Loc, bool IsStore) const {
    const auto &Map = IsStore ? Stores : Loads;
    auto It = Map.find(Loc.getRawEncoding());
    return It == Map.end() ? nullptr : It->second;
  }

private:
  const SourceManager &SM;
  llvm::DenseMap<SourceLocation::UIntTy, const Expr *> Loads, Stores;
};

SourceLocation locate(CheckContext &Ctx, const std::string &File, unsigned Line,
                      unsigned Column) {
  SourceManager &SM = Ctx.sourceManager();
  auto Ref = SM.getFileManager().getOptionalFileRef(File);
  if (!Ref || !Line)
    return {};
  return SM.translateFileLineCol(*Ref, Line, std::max(Column, 1u));
}

// Whether E names a variable of the function's own (a local or a
// parameter that is not a reference) or a constant (warpSize, a const int
// with its value): -O3 keeps the one in registers and folds the other, and
// reading or writing it is no access of memory.
bool isOwnVariable(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (DRE && isa<EnumConstantDecl>(DRE->getDecl()))
    return true;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V)
    return false;
  if (V->hasLocalStorage() && !V->getType()->isReferenceType())
    return true;
  return V->getType().isConstQualified() && V->getType()->isScalarType() &&
         V->isUsableInConstantExpressions(V->getASTContext());
}

// Whether the code of the user's function Def (and of the user's functions
// it calls) may load or store memory at a position of the user's: a read
// or write of anything but its own variables and constants (default
// arguments included), a call whose callee is not known or has no body, a
// builtin. What the system headers' code
// it calls does is not counted: an access inlined from there has a
// position in the system header, which no finding names.
bool mayAccessMemory(const FunctionDecl *Def, const SourceManager &SM,
                     llvm::DenseMap<const FunctionDecl *, bool> &Memo);

bool userCallMayAccess(const FunctionDecl *Callee, const SourceManager &SM,
                       llvm::DenseMap<const FunctionDecl *, bool> &Memo) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (Def && SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return false;
  if (!Def || !Def->hasBody())
    return !(Callee &&
             SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())) &&
             !Callee->getBuiltinID());
  return mayAccessMemory(Def, SM, Memo);
}

bool mayAccessMemory(const FunctionDecl *Def, const SourceManager &SM,
                     llvm::DenseMap<const FunctionDecl *, bool> &Memo) {
  auto [It, New] = Memo.try_emplace(Def, true); // recursion: assume it does
  if (!New)
    return It->second;
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager &SM;
    llvm::DenseMap<const FunctionDecl *, bool> &Memo;
    bool Found = false;
    Finder(const SourceManager &SM,
           llvm::DenseMap<const FunctionDecl *, bool> &Memo)
        : SM(SM), Memo(Memo) {}
    bool found() {
      Found = true;
      return false;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
      if (C->getCastKind() == CK_LValueToRValue &&
          !isOwnVariable(C->getSubExpr()))
        return found();
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp() && !isOwnVariable(B->getLHS()))
        return found();
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp() && !isOwnVariable(U->getSubExpr()))
        return found();
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      if (userCallMayAccess(C->getDirectCallee(), SM, Memo))
        return found();
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *C) {
      for (const Expr *A : C->arguments())
        if (A->isGLValue() && !isOwnVariable(A))
          return found(); // a copy of an object in memory
      if (userCallMayAccess(C->getConstructor(), SM, Memo))
        return found();
      return true;
    }
    // Default arguments and member initializers are read where they are
    // used.
    bool shouldVisitImplicitCode() const { return true; }
  } F(SM, Memo);
  F.TraverseDecl(const_cast<FunctionDecl *>(Def));
  Memo[Def] = F.Found;
  return F.Found;
}

} // namespace

bool mayInlineUserAccesses(const FunctionDecl *Kernel,
                           const SourceManager &SM) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const SourceManager &SM;
    llvm::DenseMap<const FunctionDecl *, bool> Memo;
    bool Found = false;
    explicit Finder(const SourceManager &SM) : SM(SM) {}
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *Callee = C->getDirectCallee();
      if (!Callee) { // through a pointer or a dependent call
        Found = true;
        return false;
      }
      if (const FunctionDecl *Def = Callee->getDefinition();
          Def && Def->hasBody() &&
          !SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())) &&
          mayAccessMemory(Def, SM, Memo)) {
        Found = true;
        return false;
      }
      return true;
    }
  } F(SM);
  F.TraverseStmt(Kernel->getBody());
  return F.Found;
}

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
    return {F.Offset ? OptimisedView::Covered : OptimisedView::Merged, F.Bytes};
  default:
    return {};
  }
}

void FollowedAccesses::kernel(const FunctionDecl *F) {
  if (F->hasAttr<CUDAGlobalAttr>())
    Kernels.push_back(F);
}

void FollowedAccesses::follow(CheckContext &Ctx, const MemoryAccess &A) {
  for (bool IsStore : {false, true}) {
    if (IsStore ? !A.IsStore : (A.IsStore && !A.AlsoLoads))
      continue;
    for (const ir::SourcePos &Pos : irPositions(Ctx, A, IsStore))
      Keys.insert(ir::OptimisedAccesses::key(Pos, IsStore));
  }
}

// The unfollowed accesses of one kernel.
static std::vector<InlinedAccess>
inlinedAccesses(CheckContext &Ctx, AffineAnalysis &AA,
                const FunctionDecl *Kernel, bool Shared,
                const std::set<std::string> &Followed,
                std::unique_ptr<AccessIndex> &Index) {
  std::vector<InlinedAccess> Out;
  SourceManager &SM = Ctx.sourceManager();
  if (!Kernel->hasBody() || !mayInlineUserAccesses(Kernel, SM))
    return Out;
  const ir::OptimisedAccesses *O = Ctx.optimisedAccesses();
  auto KernelPos = positionOf(Ctx, Kernel->getLocation());
  if (!O || !KernelPos)
    return Out;
  std::set<std::string> Seen;
  for (const ir::LaneLinearAccess *IA :
       O->laneLinear(KernelPos->File, KernelPos->Line)) {
    const ir::Frame &At = IA->Frames.front();
    std::string Key =
        ir::OptimisedAccesses::key({At.File, At.Line, At.Column}, IA->IsStore);
    if (IA->Shared != Shared || Followed.count(Key) || !Seen.insert(Key).second)
      continue;
    SourceLocation Loc = locate(Ctx, At.File, At.Line, At.Column);
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      continue;
    if (!Index) {
      Index = std::make_unique<AccessIndex>(SM);
      Index->TraverseDecl(Ctx.astContext().getTranslationUnitDecl());
    }
    const Expr *Found = Index->find(Loc, IA->IsStore);
    if (!Found)
      continue;
    InlinedAccess A;
    A.Loc = Found->getBeginLoc();
    A.E = Found;
    A.IsStore = IA->IsStore;
    A.Bytes = IA->Bytes;
    AffineForm Form = AffineForm::constant(0);
    for (int T = 0; T < NumThreadTerms; ++T)
      Form.C[T].Value = IA->Coef[T];
    A.Pattern = AA.pattern(Form, AA.blockShape(Kernel));
    if (!A.Pattern.Known)
      continue;
    for (size_t I = 1; I < IA->Frames.size(); ++I) {
      const ir::Frame &Call = IA->Frames[I];
      SourceLocation CallLoc = locate(Ctx, Call.File, Call.Line, Call.Column);
      if (CallLoc.isValid())
        A.Calls.push_back({CallLoc, Call.Function});
    }
    Out.push_back(std::move(A));
  }
  return Out;
}

std::vector<std::pair<const FunctionDecl *, InlinedAccess>>
FollowedAccesses::unfollowed(CheckContext &Ctx, AffineAnalysis &AA) const {
  std::vector<std::pair<const FunctionDecl *, InlinedAccess>> Out;
  std::unique_ptr<AccessIndex> Index; // built when first needed
  for (const FunctionDecl *K : Kernels)
    for (InlinedAccess &A : inlinedAccesses(Ctx, AA, K, Shared, Keys, Index))
      Out.emplace_back(K, std::move(A));
  return Out;
}

std::string mergedWords(const OptimisedView &V, const MemoryAccess &A) {
  if (V.K != OptimisedView::Merged)
    return "";
  return "; the compiler merges it with the accesses beside it into one " +
         std::to_string(V.Bytes) + "-byte " + (A.IsStore ? "store" : "load") +
         " per lane";
}

} // namespace warplint::memory
