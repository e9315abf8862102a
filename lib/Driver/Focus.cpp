#include "Driver/Focus.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace clang;

namespace warplint {

namespace {

// The main-file functions a body names: calls, launches, a kernel passed to
// cudaFuncSetAttribute, a dependent name in a template.
class References : public RecursiveASTVisitor<References> {
public:
  References(const SourceManager &SM, std::vector<unsigned> &Out)
      : SM(SM), Out(Out) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) { return add(E->getDecl()); }
  bool VisitMemberExpr(MemberExpr *E) { return add(E->getMemberDecl()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    return add(E->getConstructor());
  }
  bool VisitOverloadExpr(OverloadExpr *E) {
    for (NamedDecl *D : E->decls())
      add(D);
    return true;
  }

private:
  bool add(const Decl *D) {
    if (const auto *T = dyn_cast_or_null<FunctionTemplateDecl>(D))
      D = T->getTemplatedDecl();
    const auto *F = dyn_cast_or_null<FunctionDecl>(D);
    if (!F)
      return true;
    if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
      F = Pattern;
    if (const FunctionDecl *Def = F->getDefinition())
      F = Def;
    SourceLocation L = F->getLocation();
    if (L.isFileID() && SM.isInMainFile(L))
      Out.push_back(SM.getFileOffset(L));
    return true;
  }

  const SourceManager &SM;
  std::vector<unsigned> &Out;
};

class BodyCollector : public RecursiveASTVisitor<BodyCollector> {
public:
  explicit BodyCollector(const SourceManager &SM) : SM(SM) {}
  // A lambda's body is parsed with its function's; it is no entry of its
  // own.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitFunctionDecl(FunctionDecl *F) {
    Stmt *Body = F->doesThisDeclarationHaveABody() ? F->getBody() : nullptr;
    // The parser asks about the bodies of namespace- and class-scope
    // functions only.
    if (!Body || F->getDeclContext()->isFunctionOrMethod() ||
        F->isTemplateInstantiation())
      return true;
    std::optional<unsigned> Name = offset(F->getLocation()),
                            Begin = offset(Body->getBeginLoc()),
                            End = offset(Body->getEndLoc());
    if (!Name || !Begin || !End || !isa<CompoundStmt>(Body))
      return true;
    BodySpan S;
    S.Name = *Name;
    S.Begin = *Begin;
    S.End = *End + 1;
    // As Sema::canSkipFunctionBody.
    S.AlwaysParsed =
        F->isConstexpr() || F->getReturnType()->getContainedDeducedType();
    S.HostOnly = !F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAGlobalAttr>();
    References(SM, S.Refs).TraverseStmt(Body);
    if (const auto *C = dyn_cast<CXXConstructorDecl>(F))
      for (const CXXCtorInitializer *I : C->inits())
        References(SM, S.Refs).TraverseStmt(I->getInit());
    llvm::sort(S.Refs);
    S.Refs.erase(llvm::unique(S.Refs), S.Refs.end());
    Bodies.push_back(std::move(S));
    return true;
  }

  std::vector<BodySpan> Bodies;

private:
  // Written in the main file itself, not in a macro.
  std::optional<unsigned> offset(SourceLocation L) const {
    if (L.isInvalid() || !L.isFileID() || !SM.isInMainFile(L))
      return std::nullopt;
    return SM.getFileOffset(L);
  }

  const SourceManager &SM;
};

// Line starts of a text, for Location <-> offset.
class Lines {
public:
  explicit Lines(llvm::StringRef Text) {
    Starts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Starts.push_back(I + 1);
  }
  std::optional<unsigned> offset(const Location &L) const {
    if (L.Line == 0 || L.Line > Starts.size() || L.Column == 0)
      return std::nullopt;
    return Starts[L.Line - 1] + L.Column - 1;
  }
  void place(unsigned Offset, Location &L) const {
    auto It = std::upper_bound(Starts.begin(), Starts.end(), Offset);
    L.Line = It - Starts.begin();
    L.Column = Offset - *std::prev(It) + 1;
  }

private:
  std::vector<unsigned> Starts;
};

} // namespace

std::vector<BodySpan> mainFileBodies(llvm::ArrayRef<Decl *> Decls,
                                     const ASTContext &Ctx) {
  BodyCollector C(Ctx.getSourceManager());
  for (Decl *D : Decls)
    C.TraverseDecl(D);
  llvm::sort(C.Bodies, [](const BodySpan &A, const BodySpan &B) {
    return A.Name < B.Name;
  });
  return std::move(C.Bodies);
}

std::optional<Focus> Focus::plan(const FullAnalysis &Last,
                                 llvm::StringRef Text) {
  llvm::StringRef Old = Last.Text;
  size_t Prefix = 0, Limit = std::min(Old.size(), Text.size());
  while (Prefix < Limit && Old[Prefix] == Text[Prefix])
    ++Prefix;
  size_t Suffix = 0;
  while (Suffix < Limit - Prefix &&
         Old[Old.size() - 1 - Suffix] == Text[Text.size() - 1 - Suffix])
    ++Suffix;
  Focus F;
  F.Start = Prefix;
  F.OldEnd = Old.size() - Suffix;
  F.NewEnd = Text.size() - Suffix;
  // The edit lies between one body's braces (an unchanged text: in none).
  const BodySpan *Edited = nullptr;
  for (const BodySpan &B : Last.Bodies)
    if (B.Begin < F.Start && F.OldEnd < B.End)
      Edited = &B;
  if (!Edited && Old != Text)
    return std::nullopt;
  if (Edited)
    F.Edited = *Edited;
  else
    F.Edited.Name = F.Edited.End = Old.size() + 1; // holds nothing

  // Parsed: the edited function, what it names (through any depth: a
  // kernel's helpers, a host function's kernels), and what names it (a
  // kernel's launches, which give its block shape).
  llvm::DenseMap<unsigned, const BodySpan *> ByName;
  for (const BodySpan &B : Last.Bodies)
    ByName[B.Name] = &B;
  llvm::DenseSet<unsigned> Parsed;
  if (Edited) {
    std::vector<const BodySpan *> Work = {Edited};
    Parsed.insert(Edited->Name);
    while (!Work.empty()) {
      const BodySpan *B = Work.back();
      Work.pop_back();
      for (unsigned R : B->Refs)
        if (auto It = ByName.find(R);
            It != ByName.end() && Parsed.insert(R).second)
          Work.push_back(It->second);
    }
    for (const BodySpan &B : Last.Bodies)
      if (llvm::is_contained(B.Refs, Edited->Name))
        Parsed.insert(B.Name);
  }
  for (const BodySpan &B : Last.Bodies) {
    if (Edited && B.Name == Edited->Name)
      continue;
    F.Others.push_back(B);
    if (!B.AlwaysParsed && !Parsed.contains(B.Name))
      F.SkippedNames.push_back(B.Name);
  }
  if (F.SkippedNames.empty())
    return std::nullopt; // as dear as a full analysis, which says more
  llvm::sort(F.SkippedNames);
  return F;
}

bool Focus::skipsBodyNamedAt(unsigned Offset) const {
  if (Offset >= Start && Offset < NewEnd)
    return false; // written by the edit
  return std::binary_search(SkippedNames.begin(), SkippedNames.end(),
                            original(Offset));
}

bool Focus::inOtherFunction(unsigned OldOffset) const {
  return llvm::any_of(Others,
                      [&](const BodySpan &B) { return holds(B, OldOffset); });
}

void Focus::merge(const FullAnalysis &Last, llvm::StringRef Text,
                  std::vector<Finding> &Findings,
                  std::vector<ToolError> &Errors) const {
  Lines OldLines(Last.Text), NewLines(Text);
  // Where a location of the new text was in the old one (the edit itself:
  // in the edited function).
  auto Before = [&](const Location &L) -> std::optional<unsigned> {
    std::optional<unsigned> O = NewLines.offset(L);
    if (!O)
      return std::nullopt;
    return *O >= Start && *O < NewEnd ? Edited.Name : original(*O);
  };
  auto Move = [&](Location &L) {
    if (std::optional<unsigned> O = OldLines.offset(L))
      NewLines.place(moved(*O), L);
  };
  // The focused pass: its findings in the edited function, its errors
  // outside the other functions (a brace the edit broke, at the end).
  llvm::erase_if(Findings, [&](const Finding &F) {
    std::optional<unsigned> O = Before(F.Loc);
    return !O || !holds(Edited, *O);
  });
  llvm::erase_if(Errors, [&](const ToolError &E) {
    std::optional<unsigned> O = Before(E.Loc);
    return O && inOtherFunction(*O);
  });
  // The last full analysis: the rest.
  for (Finding F : Last.Findings) {
    std::optional<unsigned> O = OldLines.offset(F.Loc);
    if (O && holds(Edited, *O))
      continue;
    for (FindingNote &N : F.Notes)
      if (N.Loc.File == F.Loc.File)
        Move(N.Loc);
    for (FixEdit &E : F.Fixes)
      if (E.File == F.Loc.File)
        E.Offset = moved(E.Offset);
    Move(F.Loc);
    Findings.push_back(std::move(F));
  }
  for (ToolError E : Last.Errors) {
    std::optional<unsigned> O = OldLines.offset(E.Loc);
    if (!O || !inOtherFunction(*O))
      continue;
    Move(E.Loc);
    Errors.push_back(std::move(E));
  }
}

} // namespace warplint
