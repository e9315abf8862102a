#include "checks/arch/UnsupportedFeatureCheck.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace warplint::arch {

namespace {

// What a Feature field of the rule tables stands for in a message, the
// guide section that says which targets have it, and what else to do.
struct FeatureText {
  llvm::StringLiteral Field;
  llvm::StringLiteral Uses;
  llvm::StringLiteral Section;
  llvm::StringLiteral Otherwise;
};

constexpr FeatureText Features[] = {
    {"atomic_add_fp64", "a 64-bit floating-point atomic add",
     "CUDA C++ Programming Guide, 'Atomic Functions'",
     ", or loop on atomicCAS as the guide's atomicAdd for double does"},
    {"fp16_arithmetic", "half-precision arithmetic",
     "CUDA C++ Programming Guide, 'Arithmetic Instructions'; CUDA Math API, "
     "'Half Precision Intrinsics'",
     ", or compute in float"},
    {"bf16_arithmetic", "bfloat16 arithmetic",
     "PTX ISA, 'Half Precision Floating-Point Instructions'; CUDA Math API, "
     "'Bfloat16 Precision Intrinsics'",
     ", or compute in float"},
    {"nanosleep", "the nanosleep instruction",
     "CUDA C++ Programming Guide, 'Nanosleep Function'", ""},
    {"warp_reduce_functions", "the redux.sync instruction",
     "CUDA C++ Programming Guide, 'Warp Reduce Functions'",
     ", or reduce with __shfl_xor_sync"},
    {"warp_match_functions", "the match.sync instruction",
     "CUDA C++ Programming Guide, 'Warp Match Functions'", ""},
    {"thread_block_clusters", "thread block clusters",
     "CUDA C++ Programming Guide, 'Thread Block Clusters'", ""},
    {"tensor_memory_access", "the Tensor Memory Accelerator",
     "CUDA C++ Programming Guide, 'Asynchronous Data Copies using the Tensor "
     "Memory Accelerator (TMA)'",
     ", or copy with cuda::memcpy_async"},
};

constexpr llvm::StringLiteral RequiresMark = "warplint-requires:";

// The mark share/include/features puts on what needs a feature, if D has one.
const AnnotateAttr *requiresMark(const Decl *D) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation().starts_with(RequiresMark))
      return A;
  return nullptr;
}

// The Feature field a mark names.
llvm::StringRef featureOf(const AnnotateAttr *Mark) {
  return Mark->getAnnotation().drop_front(RequiresMark.size());
}

bool inSystemHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

// The toolkit's or the compiler's atomicAdd on double: clang declares it for
// every target, so the call parses; codegen and nvcc reject it below sm_60.
bool isDoubleAtomicAdd(const FunctionDecl *F) {
  if (!F->getDeclName().isIdentifier() ||
      !llvm::is_contained({"atomicAdd", "atomicAdd_block", "atomicAdd_system"},
                          F->getName()) ||
      !F->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
      F->getNumParams() == 0)
    return false;
  const auto *P = F->getParamDecl(0)->getType()->getAs<PointerType>();
  if (!P || !P->getPointeeType()->isSpecificBuiltinType(BuiltinType::Double))
    return false;
  // A user's own atomicAdd(double *, double) is not the intrinsic.
  const FunctionDecl *Def = F->getDefinition();
  return inSystemHeader(F->getFirstDecl()) && (!Def || inSystemHeader(Def));
}

// The namespaces around D, outermost first, inline ones (ABI versions) left
// out: {"cuda", "ptx"}.
llvm::SmallVector<llvm::StringRef, 4> namespacesOf(const Decl *D) {
  llvm::SmallVector<llvm::StringRef, 4> Out;
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C);
        NS && !NS->isInline() && NS->getDeclName().isIdentifier())
      Out.insert(Out.begin(), NS->getName());
  return Out;
}

// libcu++'s wrappers of the bulk copies: cuda::ptx::cp_async_bulk*,
// cp_reduce_async_bulk*, cuda::device::memcpy_async_tx and
// cuda::device::experimental::cp_async_bulk_*. They parse for every target;
// below sm_90 they call a function that is never defined, and linking fails.
bool isTmaWrapper(const FunctionDecl *F) {
  if (!F->getDeclName().isIdentifier() || !inSystemHeader(F))
    return false;
  llvm::StringRef Name = F->getName();
  if (!Name.starts_with("cp_async_bulk") &&
      !Name.starts_with("cp_reduce_async_bulk") && Name != "memcpy_async_tx")
    return false;
  auto NS = namespacesOf(F);
  return NS.size() >= 2 && NS[0] == "cuda" &&
         (NS[1] == "ptx" || NS[1] == "device");
}

// PTX without its comments (// to the end of the line, /* ... */).
std::string withoutComments(llvm::StringRef Ptx) {
  std::string Out;
  while (!Ptx.empty()) {
    size_t Line = Ptx.find("//"), Block = Ptx.find("/*");
    size_t At = std::min(Line, Block);
    Out += Ptx.substr(0, At).str();
    if (At == llvm::StringRef::npos)
      break;
    Ptx = Ptx.drop_front(At);
    size_t End = At == Line ? Ptx.find('\n') : Ptx.find("*/");
    Ptx = End == llvm::StringRef::npos
              ? llvm::StringRef()
              : Ptx.drop_front(End + (At == Line ? 0 : 2));
    Out += ' ';
  }
  return Out;
}

// The bulk-copy instruction an inline PTX string issues, if any: the
// mnemonic where an instruction starts (after ';', '{', '}', a label or a
// predicate guard), outside comments.
std::optional<llvm::StringRef> bulkCopyIn(llvm::StringRef Asm) {
  std::string Code = withoutComments(Asm);
  llvm::StringRef Ptx(Code);
  for (llvm::StringRef Mnemonic : {"cp.reduce.async.bulk", "cp.async.bulk"}) {
    for (size_t At = Ptx.find(Mnemonic); At != llvm::StringRef::npos;
         At = Ptx.find(Mnemonic, At + 1)) {
      llvm::StringRef Before = Ptx.take_front(At).rtrim();
      // Past a predicate guard: "@p cp.async.bulk ...", "@!%p1 ...".
      size_t Space = Before.find_last_of(" \t\n;{}:");
      llvm::StringRef Last = Space == llvm::StringRef::npos
                                 ? Before
                                 : Before.drop_front(Space + 1);
      if (Last.starts_with("@"))
        Before = Before.drop_back(Last.size()).rtrim();
      if (Before.empty() || llvm::StringRef(";{}:").contains(Before.back()))
        return Mnemonic;
    }
  }
  return std::nullopt;
}

} // namespace

void UnsupportedFeatureCheck::checkFunction(const FunctionDecl *F) {
  // A kernel attribute (__cluster_dims__), reported where it is written.
  if (const AnnotateAttr *Mark = requiresMark(F)) {
    const SourceManager &SM = context().sourceManager();
    SourceLocation Written = SM.getExpansionLoc(Mark->getLocation());
    llvm::StringRef Spelling =
        Lexer::getSourceText(CharSourceRange::getTokenRange(Written, Written),
                             SM, context().langOpts());
    report(Written, ("'" + Spelling + "'").str(), featureOf(Mark));
  }

  walk(F->getBody(), nullptr);
}

// Lambdas are functions of their own: their bodies are checked there. The
// branch an if constexpr discards is not built, but its names must still be
// declared: only what the headers leave out is reported there.
void UnsupportedFeatureCheck::walk(const Stmt *Root,
                                   const IfStmt *DiscardedBy) {
  forEachStmt(Root, [&](const Stmt *S) {
    if (const auto *If = dyn_cast<IfStmt>(S); If && If->isConstexpr()) {
      if (std::optional<const Stmt *> Taken =
              If->getNondiscardedCase(context().astContext())) {
        walk(If->getInit(), DiscardedBy);
        walk(If->getConditionVariableDeclStmt(), DiscardedBy);
        walk(If->getCond(), DiscardedBy);
        walk(*Taken, DiscardedBy);
        walk(*Taken == If->getThen() ? If->getElse() : If->getThen(),
             DiscardedBy ? DiscardedBy : If);
        return WalkStep::SkipChildren;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      checkCall(Call, DiscardedBy);
    else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S); Asm && !DiscardedBy)
      checkAsm(Asm);
    return WalkStep::Continue;
  });
}

void UnsupportedFeatureCheck::checkCall(const CallExpr *Call,
                                        const IfStmt *DiscardedBy) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return;
  const AnnotateAttr *Mark = requiresMark(Callee);
  if (const FunctionTemplateDecl *T = Callee->getPrimaryTemplate(); !Mark && T)
    Mark = requiresMark(T->getTemplatedDecl());
  if (Mark && inSystemHeader(Callee)) {
    std::string Name = Callee->getQualifiedNameAsString();
    std::optional<FindingBuilder> B =
        report(Call->getBeginLoc(), "'" + Name + "'", featureOf(Mark));
    if (B && DiscardedBy)
      B->note(DiscardedBy->getBeginLoc(),
              "this 'if constexpr' does not hide it: the CUDA headers do not "
              "declare '{0}' for the target, so the branch it discards still "
              "fails to build; use #if")
          << Name;
    return;
  }
  if (DiscardedBy)
    return; // declared, and not built
  if (isDoubleAtomicAdd(Callee))
    report(Call->getBeginLoc(), "'" + Callee->getNameAsString() + "' on double",
           "atomic_add_fp64");
  else if (isTmaWrapper(Callee))
    report(Call->getBeginLoc(), "'" + Callee->getQualifiedNameAsString() + "'",
           "tensor_memory_access");
}

void UnsupportedFeatureCheck::checkAsm(const GCCAsmStmt *Asm) {
  if (std::optional<llvm::StringRef> Mnemonic = bulkCopyIn(Asm->getAsmString()))
    report(Asm->getAsmStringExpr()->getBeginLoc(),
           ("inline PTX '" + *Mnemonic + "'").str(), "tensor_memory_access");
}

std::optional<FindingBuilder>
UnsupportedFeatureCheck::report(SourceLocation Loc, llvm::StringRef What,
                                llvm::StringRef Feature) {
  std::optional<bool> Has = arch().hasFeature(Feature);
  const FeatureText *Text = llvm::find_if(
      Features, [&](const FeatureText &T) { return T.Field == Feature; });
  if (!Has || *Has || Text == std::end(Features))
    return std::nullopt;
  const ArchInfo *First = context().tables().firstWhere(
      [&](const ArchInfo &A) { return A.hasFeature(Feature).value_or(false); });
  if (!First)
    return std::nullopt; // no target has it: nothing to guard for
  FindingBuilder B = diag(
      Loc,
      "{0} uses {1} ({2} or later); building it for {3} fails ({4}): guard it "
      "with '#if __CUDA_ARCH__ >= {5}'{6}",
      Severity::Error);
  B << What << Text->Uses << First->Name << arch().Name << Text->Section
    << int64_t(First->SM * 10) << Text->Otherwise;
  B.metric("first_sm", First->SM);
  return B;
}

WARPLINT_CHECK_FACTORY(UnsupportedFeatureCheck)

} // namespace warplint::arch
