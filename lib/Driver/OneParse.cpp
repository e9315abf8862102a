#include "Driver/OneParse.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/DependencyDirectivesScanner.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/LiteralSupport.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Token.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>

using namespace clang;

namespace warplint {

class SystemDirectives {
public:
  // File's directives, scanned on first use; none when the scanner cannot
  // read it (the preprocessor then lexes it whole). One file's targets are
  // preprocessed one after the other, on the thread of its parse.
  std::optional<llvm::ArrayRef<dependency_directives_scan::Directive>>
  directives(FileEntryRef File, FileManager &Files) {
    auto [It, New] = Scanned.try_emplace(File.getName());
    if (New) {
      auto S = std::make_unique<Scan>();
      auto Buffer = Files.getBufferForFile(File);
      if (Buffer && !scanSourceForDependencyDirectives(
                        (*Buffer)->getBuffer(), S->Tokens, S->Directives))
        It->second = std::move(S);
    }
    if (!It->second)
      return std::nullopt;
    return llvm::ArrayRef(It->second->Directives);
  }

private:
  struct Scan {
    llvm::SmallVector<dependency_directives_scan::Token, 0> Tokens;
    llvm::SmallVector<dependency_directives_scan::Directive, 0> Directives;
  };
  llvm::StringMap<std::unique_ptr<Scan>> Scanned;
};

bool isTargetMacro(llvm::StringRef Name, bool &ByValue) {
  // clang defines both for every device target, with the target's number.
  ByValue = Name == "__CUDA_ARCH__" || Name == "__CUDA_ARCH_LIST__";
  // __CUDA_ARCH_FEAT_SM90_ALL and the like: only for the 'a' targets.
  // __warplint_lacks_<feature>: the rule table's features (Runner.cpp).
  return ByValue || Name.starts_with("__CUDA_ARCH_FEAT_") ||
         Name.starts_with("__warplint_lacks_");
}

const ArchInfo *oneParseTarget(llvm::ArrayRef<const ArchInfo *> Archs) {
  auto Lacks = [](const ArchInfo *A, llvm::StringRef Feature) {
    return !A->hasFeature(Feature).value_or(true);
  };
  const ArchInfo *Best = nullptr;
  for (const ArchInfo *Candidate : Archs) {
    bool Covers = llvm::all_of(Archs, [&](const ArchInfo *Other) {
      return llvm::all_of(Other->features(), [&](const auto &F) {
        return F.second || Lacks(Candidate, F.first);
      });
    });
    if (Covers && (!Best || Candidate->SM < Best->SM))
      Best = Candidate;
  }
  return Best;
}

namespace {

// Not a system header, nor the predefines, the command line's -D and
// -include lines (the __warplint_lacks_* of the target: warplint's own) or
// the scratch space of token pasting.
bool inUserCode(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  return Loc.isValid() && !SM.isInSystemHeader(Loc) &&
         !SM.isWrittenInBuiltinFile(Loc) &&
         !SM.isWrittenInCommandLineFile(Loc) &&
         !SM.isWrittenInScratchSpace(Loc);
}

// The names of the macros the preprocessor expands or tests (#ifdef,
// defined()), wherever: what a macro definition can change.
class MacroReads : public PPCallbacks {
public:
  explicit MacroReads(llvm::StringSet<> &Out) : Out(Out) {}
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *) override {
    reads(Name);
  }
  void Defined(const Token &Name, const MacroDefinition &,
               SourceRange) override {
    reads(Name);
  }
  void Ifdef(SourceLocation, const Token &Name,
             const MacroDefinition &) override {
    reads(Name);
  }
  void Ifndef(SourceLocation, const Token &Name,
              const MacroDefinition &) override {
    reads(Name);
  }
  void Elifdef(SourceLocation, const Token &Name,
               const MacroDefinition &) override {
    reads(Name);
  }
  void Elifndef(SourceLocation, const Token &Name,
                const MacroDefinition &) override {
    reads(Name);
  }

private:
  void reads(const Token &Name) {
    if (const IdentifierInfo *II = Name.getIdentifierInfo())
      Out.insert(II->getName());
  }
  llvm::StringSet<> &Out;
};

class TargetMacroWatch : public PPCallbacks {
public:
  TargetMacroWatch(const SourceManager &SM, const LangOptions &LangOpts,
                   TargetDependence &Out)
      : SM(SM), LangOpts(LangOpts), Out(Out) {}

  void MacroExpands(const Token &Name, const MacroDefinition &,
                    SourceRange Range, const MacroArgs *) override {
    // Nested expansions count where the outermost one is written: a user's
    // NV_IF_TARGET(...) expands __CUDA_ARCH__ from a system header's macro.
    if (dependsOnTarget(Name, /*OnlyDefinedness=*/false))
      sawUse(Name, SM.getExpansionLoc(Range.getBegin()));
  }
  void Defined(const Token &Name, const MacroDefinition &,
               SourceRange Range) override {
    if (dependsOnTarget(Name, /*OnlyDefinedness=*/true))
      sawUse(Name, SM.getExpansionLoc(Range.getBegin()));
  }
  void Ifdef(SourceLocation Loc, const Token &Name,
             const MacroDefinition &) override {
    testsName(Loc, Name);
  }
  void Ifndef(SourceLocation Loc, const Token &Name,
              const MacroDefinition &) override {
    testsName(Loc, Name);
  }
  void Elifdef(SourceLocation Loc, const Token &Name,
               const MacroDefinition &) override {
    testsNameAgain(Loc, Name);
  }
  void Elifndef(SourceLocation Loc, const Token &Name,
                const MacroDefinition &) override {
    testsNameAgain(Loc, Name);
  }
  void If(SourceLocation Loc, SourceRange Condition,
          ConditionValueKind) override {
    Closed.reset();
    Open.push_back({Loc, conditionTestsTarget(Condition)});
  }
  void Elif(SourceLocation, SourceRange Condition, ConditionValueKind,
            SourceLocation IfLoc) override {
    Closed.reset();
    if (conditionTestsTarget(Condition))
      taint(IfLoc);
  }
  void Endif(SourceLocation, SourceLocation IfLoc) override {
    // A conditional opened in a skipped block was never reported open.
    auto It = llvm::find_if(llvm::reverse(Open), [&](const Conditional &C) {
      return C.If == IfLoc;
    });
    if (It == Open.rend())
      return;
    Closed = *It;
    Open.erase(std::prev(It.base()), Open.end());
  }
  void Else(SourceLocation, SourceLocation) override { Closed.reset(); }
  // This parse's target skips the block; another's may define macros there.
  // Blocks skipped for another reason (an include guard) under such a test
  // are skipped for every target that reaches them.
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    // The skip ended at the #endif of its conditional (reported during the
    // skip, which reports nothing else), or at an #elif or #else of the one
    // still open.
    bool TestsTarget =
        Closed ? Closed->TestsTarget : !Open.empty() && Open.back().TestsTarget;
    Closed.reset();
    if (!Out.Where.empty() || !TestsTarget)
      return;
    for (llvm::StringRef Name : macrosDefinedIn(Range))
      Derived.insert(Name);
  }
  void MacroDefined(const Token &Name, const MacroDirective *) override {
    changes(Name);
  }
  void MacroUndefined(const Token &Name, const MacroDefinition &,
                      const MacroDirective *) override {
    changes(Name);
  }

private:
  struct Conditional {
    SourceLocation If;
    bool TestsTarget; // this branch or an earlier one of the chain
  };

  // The answer of #ifdef Name / defined(Name) (OnlyDefinedness) or the value
  // of Name may differ between targets.
  bool dependsOnTarget(const Token &Name, bool OnlyDefinedness) const {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!II)
      return false;
    bool ByValue = false;
    if (isTargetMacro(II->getName(), ByValue))
      return !(ByValue && OnlyDefinedness);
    return Derived.contains(II->getName());
  }

  void sawUse(const Token &Name, SourceLocation Loc) {
    LastUse = Loc;
    if (!Out.Where.empty() || !inUserCode(SM, Loc))
      return;
    PresumedLoc P = SM.getPresumedLoc(Loc);
    Out.Where = ("'" + Name.getIdentifierInfo()->getName() + "' at " +
                 (P.isValid() ? llvm::Twine(P.getFilename()) + ":" +
                                    llvm::Twine(P.getLine()) + ":" +
                                    llvm::Twine(P.getColumn())
                              : llvm::Twine("an unknown place")))
                    .str();
  }

  // #ifdef/#ifndef Name opens a conditional.
  void testsName(SourceLocation Loc, const Token &Name) {
    Closed.reset();
    bool Tests = dependsOnTarget(Name, /*OnlyDefinedness=*/true);
    if (Tests)
      sawUse(Name, Loc);
    Open.push_back({Loc, Tests});
  }
  void testsNameAgain(SourceLocation Loc, const Token &Name) {
    Closed.reset();
    if (!dependsOnTarget(Name, /*OnlyDefinedness=*/true))
      return;
    sawUse(Name, Loc);
    if (!Open.empty())
      Open.back().TestsTarget = true;
  }

  // The macros of the condition were expanded (and reported) before the
  // directive's own callback.
  bool conditionTestsTarget(SourceRange Condition) const {
    return LastUse.isValid() && Condition.isValid() &&
           SM.isPointWithin(LastUse, SM.getExpansionLoc(Condition.getBegin()),
                            SM.getExpansionLoc(Condition.getEnd()));
  }

  void taint(SourceLocation IfLoc) {
    for (Conditional &C : llvm::reverse(Open))
      if (C.If == IfLoc) {
        C.TestsTarget = true;
        return;
      }
  }

  // A macro a system header defines or undefines under a target test is a
  // target macro too (cooperative_groups' _CG_HAS_MATCH_COLLECTIVE); the
  // user's own #define of a target macro makes the parse the user's.
  void changes(const Token &Name) {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!II)
      return;
    bool ByValue = false;
    if (isTargetMacro(II->getName(), ByValue)) {
      sawUse(Name, Name.getLocation());
      return;
    }
    if (underTargetTest())
      Derived.insert(II->getName());
  }

  bool underTargetTest() const {
    return llvm::any_of(Open,
                        [](const Conditional &C) { return C.TestsTarget; });
  }

  // The names of the #define and #undef directives in a skipped block, by
  // clang's raw lexer.
  std::vector<llvm::StringRef> macrosDefinedIn(SourceRange Range) const {
    std::vector<llvm::StringRef> Names;
    auto [FID, Begin] =
        SM.getDecomposedLoc(SM.getExpansionLoc(Range.getBegin()));
    unsigned End = SM.getFileOffset(SM.getExpansionLoc(Range.getEnd()));
    llvm::StringRef Buffer = SM.getBufferData(FID);
    if (End > Buffer.size() || Begin > End)
      return Names;
    Lexer Raw(SM.getLocForStartOfFile(FID), LangOpts, Buffer.begin(),
              Buffer.begin() + Begin, Buffer.end());
    Token Tok;
    while (!Raw.LexFromRawLexer(Tok) &&
           SM.getFileOffset(Tok.getLocation()) < End) {
      if (Tok.isNot(tok::hash) || !Tok.isAtStartOfLine())
        continue;
      Token Directive, Name;
      if (Raw.LexFromRawLexer(Directive) ||
          Directive.isNot(tok::raw_identifier) ||
          !llvm::is_contained({"define", "undef"},
                              Directive.getRawIdentifier()) ||
          Raw.LexFromRawLexer(Name) || Name.isNot(tok::raw_identifier))
        continue;
      Names.push_back(Name.getRawIdentifier());
    }
    return Names;
  }

  const SourceManager &SM;
  const LangOptions &LangOpts;
  TargetDependence &Out;
  std::vector<Conditional> Open;
  std::optional<Conditional> Closed; // by the last #endif, if nothing since
  llvm::StringSet<> Derived;
  SourceLocation LastUse; // of a target macro, anywhere
};

// Whether D is the feature header's: it carries a warplint-requires mark.
bool hasRequiresMark(const Decl *D) {
  if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
    D = T->getTemplatedDecl();
  return llvm::any_of(D->specific_attrs<AnnotateAttr>(), [](const auto *A) {
    return A->getAnnotation().starts_with("warplint-requires:");
  });
}

std::string firstUserRedeclaration(const DeclContext *DC,
                                   const SourceManager &SM) {
  for (const Decl *D : DC->decls()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      if (SM.isInSystemHeader(SM.getExpansionLoc(NS->getLocation())))
        if (std::string Found = firstUserRedeclaration(NS, SM); !Found.empty())
          return Found;
      continue;
    }
    const auto *ND = dyn_cast<NamedDecl>(D);
    if (!ND || !ND->getDeclName() || !hasRequiresMark(ND))
      continue;
    for (const NamedDecl *Same : DC->lookup(ND->getDeclName())) {
      SourceLocation Loc = SM.getExpansionLoc(Same->getLocation());
      if (Loc.isValid() && !SM.isInSystemHeader(Loc)) {
        PresumedLoc P = SM.getPresumedLoc(Loc);
        return "'" + ND->getQualifiedNameAsString() + "' is declared at " +
               (P.isValid() ? std::string(P.getFilename()) + ":" +
                                  std::to_string(P.getLine())
                            : std::string("an unknown place"));
      }
    }
  }
  return "";
}

// The digest of preprocessedUserCode, fed by the preprocessor's callbacks
// (includes, macro definitions, pragmas) and by the token loop.
class UserCodeDigest : public PPCallbacks {
public:
  UserCodeDigest(const Preprocessor &PP, llvm::MD5 &Hash,
                 const llvm::StringSet<> &Read,
                 const llvm::StringSet<> &ParseRead)
      : PP(PP), SM(PP.getSourceManager()), Hash(Hash), Read(Read),
        ParseRead(ParseRead) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          StringRef FileName, bool IsAngled, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (!inUserCode(SM, HashLoc))
      return;
    add("#include");
    add(IsAngled ? "<>" : "\"\"");
    add(File ? File->getName() : FileName);
  }
  // A macro the user defines or undefines matters only if something reads
  // it: a definition that differs between targets (llm.c's
  // MAX_1024_THREADS_BLOCKS) and that nothing expands or tests changes no
  // token and no conditional of the parse. Kept aside, and added to the
  // digest at the end only for the names read here (the user's code, any
  // directive) or by the parse (a system header's code, which this run does
  // not lex).
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    if (inUserCode(SM, Name.getLocation()))
      Changes.push_back({Name.getIdentifierInfo()->getName(), true,
                         MD ? MD->getMacroInfo() : nullptr});
  }
  void MacroUndefined(const Token &Name, const MacroDefinition &,
                      const MacroDirective *) override {
    if (inUserCode(SM, Name.getLocation()))
      Changes.push_back({Name.getIdentifierInfo()->getName(), false, nullptr});
  }
  // The definitions of the macros something read, in their order (the
  // preprocessor keeps every MacroInfo until it goes).
  void finish() {
    flush();
    for (const Change &C : Changes) {
      if (!Read.contains(C.Name) && !ParseRead.contains(C.Name))
        continue;
      add(C.Defines ? "#define" : "#undef");
      add(C.Name);
      if (!C.Info)
        continue;
      add(C.Info->isFunctionLike() ? "(" : "");
      for (const IdentifierInfo *P : C.Info->params())
        add(P->getName());
      for (const Token &T : C.Info->tokens())
        spelling(T);
    }
  }

  // Pragmas are handled by the parser, which a preprocessor-only run has
  // not got: their line, as written.
  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind) override {
    if (!inUserCode(SM, Loc) || Loc.isMacroID())
      return;
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    llvm::StringRef Text = SM.getBufferData(FID).substr(Offset);
    add("#pragma");
    add(Text.take_until([](char C) { return C == '\n'; }));
  }

  // The file the preprocessor reads is the user's: its tokens, and those of
  // the macros expanded there, are the user's code.
  // (#pragma clang system_header makes the rest of a file the system's.)
  void FileChanged(SourceLocation Loc, FileChangeReason,
                   SrcMgr::CharacteristicKind Kind, FileID) override {
    flush();
    InUser = Kind == SrcMgr::C_User && inUserCode(SM, Loc);
  }

  void token(const Token &T) {
    if (!InUser || T.isAnnotation())
      return;
    Run.push_back({T, T.is(tok::numeric_constant) && fromTargetValue(T)});
  }

private:
  struct Change {
    llvm::StringRef Name; // the identifier table's
    bool Defines;         // else an #undef
    const MacroInfo *Info;
  };
  // A token of the user's code, kept until the run of tokens it belongs to
  // ends (a directive, a file change) and is added to the digest.
  struct Lexed {
    Token Tok;
    bool TargetValue; // the number a by-value target macro expanded to
  };

  // Whether T is the number __CUDA_ARCH__ (or __CUDA_ARCH_LIST__) expanded
  // to, in the user's code or in a macro the user's code expanded.
  bool fromTargetValue(const Token &T) const {
    if (!T.getLocation().isMacroID())
      return false;
    bool ByValue = false;
    return isTargetMacro(Lexer::getImmediateMacroName(T.getLocation(), SM,
                                                      PP.getLangOpts()),
                         ByValue) &&
           ByValue;
  }

  // The user's tokens since the last directive, into the digest. A
  // comparison of a target's number with a constant that the code tests as
  // a whole, `(__CUDA_ARCH__ >= 200) ? 32 : 16`, goes in as its answer:
  // two targets that answer it alike read the same code there (Rodinia's
  // dwt2d sizes its shared buffers so). Anything else of the number goes in
  // as it is, and the targets differ.
  void flush() {
    for (size_t I = 0; I < Run.size(); ++I) {
      if (std::optional<bool> Answer = comparison(I)) {
        Hash.update(static_cast<uint8_t>(tok::kw_true));
        put(*Answer ? "true" : "false");
        I += 2;
        continue;
      }
      tokenSpelling(Run[I].Tok);
    }
    Run.clear();
  }

  // The answer of Run[I..I+2] when it is a comparison of a target's number
  // with an integer literal, standing whole between the tokens around it:
  // an operator of the comparison's own or a tighter precedence on either
  // side would take one of its operands, and a '>' that may close a
  // template argument list is a comparison only inside parentheses or
  // brackets, or where no template argument list can be open.
  std::optional<bool> comparison(size_t I) const {
    if (I == 0 || I + 3 >= Run.size())
      return std::nullopt;
    const Token &L = Run[I].Tok, &R = Run[I + 2].Tok;
    tok::TokenKind Op = Run[I + 1].Tok.getKind();
    if (L.isNot(tok::numeric_constant) || R.isNot(tok::numeric_constant) ||
        Run[I].TargetValue == Run[I + 2].TargetValue)
      return std::nullopt;
    bool Greater = Op == tok::greater || Op == tok::greaterequal;
    if (!Greater && Op != tok::less && Op != tok::lessequal &&
        Op != tok::equalequal && Op != tok::exclaimequal)
      return std::nullopt;
    switch (Run[I - 1].Tok.getKind()) {
    case tok::l_paren:
    case tok::l_square:
    case tok::equal:
    case tok::kw_return:
    case tok::semi:
    case tok::l_brace:
      break;
    case tok::comma:
    case tok::question:
    case tok::colon:
    case tok::ampamp:
    case tok::pipepipe:
      if (Greater)
        return std::nullopt;
      break;
    default:
      return std::nullopt;
    }
    switch (Run[I + 3].Tok.getKind()) {
    case tok::r_paren:
    case tok::r_square:
    case tok::r_brace:
    case tok::comma:
    case tok::semi:
    case tok::question:
    case tok::colon:
    case tok::ampamp:
    case tok::pipepipe:
      break;
    default:
      return std::nullopt;
    }
    std::optional<uint64_t> A = integer(L), B = integer(R);
    if (!A || !B)
      return std::nullopt;
    switch (Op) {
    case tok::greater:
      return *A > *B;
    case tok::greaterequal:
      return *A >= *B;
    case tok::less:
      return *A < *B;
    case tok::lessequal:
      return *A <= *B;
    case tok::equalequal:
      return *A == *B;
    default:
      return *A != *B;
    }
  }

  // An integer literal's value, as clang's parser reads it; none for a
  // floating one, or one too wide for 64 bits.
  std::optional<uint64_t> integer(const Token &T) const {
    llvm::SmallString<32> Buffer;
    NumericLiteralParser Literal(PP.getSpelling(T, Buffer), T.getLocation(), SM,
                                 PP.getLangOpts(), PP.getTargetInfo(),
                                 PP.getDiagnostics());
    llvm::APInt Value(64, 0);
    if (Literal.hadError || !Literal.isIntegerLiteral() ||
        Literal.GetIntegerValue(Value))
      return std::nullopt;
    return Value.getZExtValue();
  }

  // What a callback adds comes after the tokens before it.
  void add(llvm::StringRef S) {
    flush();
    put(S);
  }
  void put(llvm::StringRef S) {
    Hash.update(S);
    Hash.update(llvm::ArrayRef<uint8_t>{0});
  }

  void spelling(const Token &T) {
    flush();
    tokenSpelling(T);
  }
  void tokenSpelling(const Token &T) {
    Hash.update(static_cast<uint8_t>(T.getKind()));
    llvm::SmallString<32> Buffer;
    put(PP.getSpelling(T, Buffer));
  }
  const Preprocessor &PP;
  const SourceManager &SM;
  llvm::MD5 &Hash;
  bool InUser = false;
  std::vector<Change> Changes;
  std::vector<Lexed> Run;
  const llvm::StringSet<> &Read; // by this run (MacroReads)
  const llvm::StringSet<> &ParseRead;
};

// Gives the preprocessor the directives alone of the system headers (found
// through -isystem, the CUDA and C++ headers' directories): what of them
// can change the user's tokens is their macros, conditionals and includes.
// A file is a system header by clang's own verdict, the characteristic of
// the entry the source manager has just made for it; a file that verdict
// does not cover (the main file, a header a '#pragma GCC system_header'
// makes system from its middle) is lexed whole.
class SystemDirectivesGetter : public DependencyDirectivesGetter {
public:
  SystemDirectivesGetter(SystemDirectives &Cache, FileManager &Files,
                         const SourceManager &SM)
      : Cache(Cache), Files(Files), SM(SM) {}

  std::unique_ptr<DependencyDirectivesGetter>
  cloneFor(FileManager &Other) override {
    return std::make_unique<SystemDirectivesGetter>(Cache, Other, SM);
  }

  std::optional<llvm::ArrayRef<dependency_directives_scan::Directive>>
  operator()(FileEntryRef File) override {
    // The preprocessor enters a file right after creating its entry.
    unsigned N = SM.local_sloc_entry_size();
    if (N == 0)
      return std::nullopt;
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(N - 1);
    if (!E.isFile() || !SrcMgr::isSystem(E.getFile().getFileCharacteristic()))
      return std::nullopt;
    OptionalFileEntryRef Entered = E.getFile().getContentCache().OrigEntry;
    if (!Entered || &Entered->getFileEntry() != &File.getFileEntry())
      return std::nullopt;
    return Cache.directives(File, Files);
  }

private:
  SystemDirectives &Cache;
  FileManager &Files;
  const SourceManager &SM;
};

class UserCodeAction : public PreprocessorFrontendAction {
public:
  UserCodeAction(std::optional<llvm::MD5::MD5Result> &Out,
                 const llvm::StringSet<> &ParseRead,
                 SystemDirectives &Directives)
      : Out(Out), ParseRead(ParseRead), Directives(Directives) {}

  void ExecuteAction() override {
    CompilerInstance &CI = getCompilerInstance();
    Preprocessor &PP = CI.getPreprocessor();
    SystemDirectivesGetter Getter(Directives, CI.getFileManager(),
                                  CI.getSourceManager());
    PP.setDependencyDirectivesGetter(Getter);
    llvm::MD5 Hash;
    llvm::StringSet<> Read;
    PP.addPPCallbacks(std::make_unique<MacroReads>(Read));
    auto Digest = std::make_unique<UserCodeDigest>(PP, Hash, Read, ParseRead);
    UserCodeDigest &D = *Digest;
    PP.addPPCallbacks(std::move(Digest));
    PP.IgnorePragmas();
    PP.EnterMainSourceFile();
    Token Tok;
    do {
      PP.Lex(Tok);
      D.token(Tok);
    } while (Tok.isNot(tok::eof));
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    D.finish();
    Out.emplace();
    Hash.final(*Out);
  }

private:
  std::optional<llvm::MD5::MD5Result> &Out;
  const llvm::StringSet<> &ParseRead;
  SystemDirectives &Directives;
};

} // namespace

std::shared_ptr<SystemDirectives> makeSystemDirectives() {
  return std::make_shared<SystemDirectives>();
}

std::optional<llvm::MD5::MD5Result>
preprocessedUserCode(const std::vector<std::string> &Args,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                     const llvm::StringSet<> &Read,
                     SystemDirectives &Directives) {
  std::optional<llvm::MD5::MD5Result> Out;
  llvm::IntrusiveRefCntPtr<FileManager> Files(
      new FileManager(FileSystemOptions(), std::move(FS)));
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<UserCodeAction>(Out, Read, Directives),
      Files.get());
  IgnoringDiagConsumer Quiet;
  Invocation.setDiagnosticConsumer(&Quiet);
  if (!Invocation.run())
    return std::nullopt;
  return Out;
}

std::unique_ptr<PPCallbacks> watchTargetMacros(const SourceManager &SM,
                                               const LangOptions &LangOpts,
                                               TargetDependence &Out) {
  return std::make_unique<PPChainedCallbacks>(
      std::make_unique<TargetMacroWatch>(SM, LangOpts, Out),
      std::make_unique<MacroReads>(Out.Read));
}

std::string userDeclaresFeatureName(ASTContext &AST) {
  return firstUserRedeclaration(AST.getTranslationUnitDecl(),
                                AST.getSourceManager());
}

} // namespace warplint
