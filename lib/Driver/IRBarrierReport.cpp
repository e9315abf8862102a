#include "Driver/IRBarrierReport.h"
#include "Analysis/SyncPrimitives.h"
#include "Core/Check.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

using namespace clang;

namespace warplint {

namespace {

// Maps the IR layer's verdicts to source and reports them.
class Reporter : public IRBarrierReporter {
public:
  Reporter(CheckContext &Ctx, DiagSink &Sink, llvm::StringRef CheckId)
      : Ctx(Ctx), Sink(Sink), SM(Ctx.sourceManager()), CheckId(CheckId) {}

  void report(const ir::BarrierVerdict &V) override {
    std::vector<ir::Frame> Frames = ir::framesOf(V.Point->getDebugLoc().get());
    std::vector<SourceLocation> Locs = locate(Frames);
    std::optional<size_t> At = firstUserFrame(Locs);
    if (!At || isGroupSync(Locs[*At]))
      return;
    // Reported already, by the AST layer or by another copy of the barrier:
    // a witness this copy has completes a finding without one.
    if (Finding *Earlier = reportedAt(Locs[*At])) {
      lendWitness(*Earlier, V);
      return;
    }
    // Without a witness, a warning; the threads part at the outermost
    // branch of the chain.
    const llvm::Instruction *Blame =
        V.Grid || !V.Witness ? V.Branch : V.Witness->Branch;
    std::vector<SourceLocation> Branch =
        locate(ir::framesOf(V.Branch->getDebugLoc().get()));
    std::vector<SourceLocation> Outer =
        locate(ir::framesOf(Blame->getDebugLoc().get()));
    for (const auto *Side : {&Branch, &Outer})
      if (auto B = firstUserFrame(*Side);
          B && (isKernelExit((*Side)[*B]) || sameForLaunch((*Side)[*B])))
        return;
    if (!V.Grid && echoesAST(Locs, *At))
      return;
    Own.insert(fileLine(Locs[*At]));
    FindingBuilder F(Ctx, CheckId, Locs[*At], "{0}",
                     V.Grid || V.Witness ? Severity::Error : Severity::Warning);
    if (V.Grid) {
      F << ir::gridBarrierMessage(gridSyncText(Locs[*At]));
    } else if (!V.Witness) {
      F << ir::barrierMessage(ir::barrierWhat(V, Frames, *At), Ctx.arch()) +
               "; " + ir::NoWitnessWords.str();
    } else {
      const ir::IRWitness &W = *V.Witness;
      std::optional<size_t> B = firstUserFrame(Outer);
      F << ir::barrierMessage(ir::barrierWhat(V, Frames, *At), Ctx.arch()) +
               "; witness: " +
               witnessWords(W, B ? Outer[*B] : SourceLocation(), V);
      for (auto &[Name, Value] : witnessMetrics(W))
        F.metric(Name, Value);
    }
    if (auto B = firstUserFrame(Outer))
      note(F, Outer[*B], V.Grid ? ir::GridSplitNote : ir::SplitNote);
    for (size_t I = *At + 1; I < Frames.size(); ++I)
      note(F, Locs[I], ir::callNote(Frames[I].Function));
  }

  void settle(const JudgedBarriers &J) override;

private:
  // The condition of the branch or loop written at Loc's line, as written.
  std::string conditionText(SourceLocation Loc) {
    sameForLaunch(Loc); // indexes the branches
    auto It = Branches.find(fileLine(Loc));
    if (It == Branches.end() || It->second.empty())
      return "";
    const Expr *Cond =
        FunctionDependence::conditionOf(It->second.front().first);
    return Cond ? Ctx.sourceText(Cond) : "";
  }

  // The names of F's integer parameters ("n and C"), from its declaration
  // in the source; empty when they cannot be matched one to one.
  std::string inputNames(const llvm::Function &F) {
    const llvm::DISubprogram *SP = F.getSubprogram();
    if (!SP)
      return "";
    ir::Frame Fn;
    Fn.File = ir::pathOf(SP->getFile());
    Fn.Line = SP->getLine();
    SourceLocation Loc = locate({Fn}).front();
    if (Loc.isInvalid())
      return "";
    auto Where = fileLine(Loc);
    using namespace clang::ast_matchers;
    for (const auto &M :
         match(functionDecl(isDefinition()).bind("f"), Ctx.astContext())) {
      const auto *FD = M.getNodeAs<FunctionDecl>("f");
      if (fileLine(FD->getLocation()) != Where ||
          FD->getNumParams() != F.arg_size())
        continue;
      std::vector<std::string> Names;
      for (const llvm::Argument &A : F.args())
        if (A.getType()->isIntegerTy()) {
          const ParmVarDecl *P = FD->getParamDecl(A.getArgNo());
          if (!P->getType()->isIntegerType() || P->getName().empty())
            return "";
          Names.push_back(P->getName().str());
        }
      std::string Out;
      for (size_t I = 0; I < Names.size(); ++I)
        Out += (I == 0                  ? ""
                : I + 1 == Names.size() ? " and "
                                        : ", ") +
               Names[I];
      return Out;
    }
    return "";
  }

  // "at line 24" of a read, with the file's name when it is another file.
  std::string sourceWords(SourceLocation Loc) const {
    auto [File, Line] = fileLine(Loc);
    auto [Main, _] = fileLine(SM.getLocForStartOfFile(SM.getMainFileID()));
    std::string Where = "at line " + std::to_string(Line);
    if (File != Main)
      Where += " of " + llvm::sys::path::filename(File).str();
    return Where;
  }

  // Whether the AST layer reported a barrier of the innermost loop around
  // the barrier (or around the call that leads to it): a barrier of a loop
  // that some threads leave early is that finding's echo, a later round of
  // the same defect, and the AST's finding names its witness.
  bool echoesAST(const std::vector<SourceLocation> &Locs, size_t At) {
    if (!LoopsIndexed) {
      LoopsIndexed = true;
      using namespace clang::ast_matchers;
      for (const auto &M : match(
               stmt(anyOf(forStmt(), whileStmt(), doStmt(), cxxForRangeStmt()),
                    unless(isExpansionInSystemHeader()))
                   .bind("l"),
               Ctx.astContext())) {
        const auto *L = M.getNodeAs<Stmt>("l");
        auto [File, First] = fileLine(L->getBeginLoc());
        Loops.push_back({File, First, fileLine(L->getEndLoc()).second});
      }
    }
    for (size_t I = At; I < Locs.size(); ++I) {
      if (Locs[I].isInvalid())
        continue;
      auto [File, Line] = fileLine(Locs[I]);
      const LoopLines *Inner = nullptr;
      for (const LoopLines &L : Loops)
        if (L.File == File && L.First <= Line && Line <= L.Last &&
            (!Inner || L.Last - L.First < Inner->Last - Inner->First))
          Inner = &L;
      if (!Inner)
        continue;
      for (const Finding &F : Sink.findings())
        if (F.Check == CheckId && F.Loc.File == File &&
            Inner->First <= F.Loc.Line && F.Loc.Line <= Inner->Last &&
            F.Archs == archs() && !Own.count({F.Loc.File, F.Loc.Line}))
          return true;
      return false;
    }
    return false;
  }

  std::vector<std::string> archs() const {
    if (Ctx.arch())
      return {Ctx.arch()->Name};
    return {};
  }

  static void note(FindingBuilder &F, SourceLocation Loc,
                   llvm::StringRef Text) {
    if (Loc.isValid())
      F.note(Loc, "{0}") << Text;
  }

  std::vector<SourceLocation> locate(const std::vector<ir::Frame> &Frames) {
    std::vector<SourceLocation> Out;
    for (const ir::Frame &F : Frames) {
      auto Ref = SM.getFileManager().getOptionalFileRef(F.File);
      Out.push_back(Ref && F.Line ? SM.translateFileLineCol(
                                        *Ref, F.Line, std::max(F.Column, 1u))
                                  : SourceLocation());
    }
    return Out;
  }

  // The position nearest the barrier that the user wrote: a barrier inside
  // a system header is reported where user code calls into it.
  std::optional<size_t>
  firstUserFrame(const std::vector<SourceLocation> &Locs) const {
    for (size_t I = 0; I < Locs.size(); ++I)
      if (Locs[I].isValid() && !SM.isInSystemHeader(SM.getFileLoc(Locs[I])))
        return I;
    return std::nullopt;
  }

  std::pair<std::string, unsigned> fileLine(SourceLocation Loc) const {
    SourceLocation F = SM.getFileLoc(Loc);
    auto Ref = SM.getFileEntryRefForID(SM.getFileID(F));
    return {Ref ? Ref->getName().str() : "", SM.getSpellingLineNumber(F)};
  }

  std::string key(SourceLocation Loc) const {
    auto [File, Line] = fileLine(Loc);
    return File + ":" + std::to_string(Line) + ":" +
           std::to_string(SM.getSpellingColumnNumber(SM.getFileLoc(Loc)));
  }

  // The AST checks ran first; their divergence-barrier finding on the same
  // line of this parse says the same thing.
  Finding *reportedAt(SourceLocation Loc) {
    auto [File, Line] = fileLine(Loc);
    for (Finding &F : Sink.findings())
      if (F.Check == CheckId && F.Loc.File == File && F.Loc.Line == Line &&
          F.Archs == archs())
        return &F;
    return nullptr;
  }

  // An AST finding without a witness takes the IR's, and is an error; one
  // whose witness is a bound falling between two threads (any input) takes
  // a run of the kernel to its end (the inputs the launches pass).
  void lendWitness(Finding &F, const ir::BarrierVerdict &V) {
    if (V.Grid || !V.Witness)
      return;
    size_t At = F.Message.find(ir::NoWitnessWords);
    if (At == std::string::npos && V.Witness->FirstArrivals &&
        F.Message.find("falls between them") != std::string::npos) {
      At = F.Message.find("witness: ");
      llvm::erase_if(F.Metrics, [](const auto &M) {
        return llvm::StringRef(M.first).starts_with("witness_");
      });
    }
    if (At == std::string::npos)
      return;
    const ir::IRWitness &W = *V.Witness;
    std::vector<SourceLocation> Outer =
        locate(ir::framesOf(W.Branch->getDebugLoc().get()));
    std::optional<size_t> B = firstUserFrame(Outer);
    F.Message.replace(At, std::string::npos,
                      "witness: " +
                          witnessWords(W, B ? Outer[*B] : SourceLocation(), V));
    F.Level = Severity::Error;
    for (auto &[Name, Value] : witnessMetrics(W))
      F.Metrics.push_back({Name, Value});
  }

  std::string witnessWords(const ir::IRWitness &W, SourceLocation Branch,
                           const ir::BarrierVerdict &V) {
    std::string Source;
    if (W.Source) {
      std::vector<SourceLocation> S =
          locate(ir::framesOf(W.Source->getDebugLoc().get()));
      if (auto U = firstUserFrame(S))
        Source = sourceWords(S[*U]);
    }
    return ir::witnessText(W, Branch.isValid() ? conditionText(Branch) : "",
                           Source,
                           W.Inputs ? inputNames(*V.Point->getFunction()) : "");
  }

  static std::vector<std::pair<std::string, double>>
  witnessMetrics(const ir::IRWitness &W) {
    std::vector<std::pair<std::string, double>> Out = {
        {"witness_thread_reaches", double(W.First)},
        {"witness_thread_misses", double(W.Second)}};
    if (W.BlockDimX || W.AssumedBlock)
      Out.push_back({"witness_block_threads",
                     double(W.BlockDimX ? W.BlockDimX : W.AssumedBlock)});
    return Out;
  }

  // A tile's or a warp's sync written on that line: a type-erased
  // cooperative_groups::thread_group switches on its kind at run time, and
  // the IR keeps the block-barrier case that a tile never takes.
  bool isGroupSync(SourceLocation Loc) {
    if (!GroupSyncsIndexed) {
      GroupSyncsIndexed = true;
      using namespace clang::ast_matchers;
      for (const auto &M :
           match(callExpr(unless(isExpansionInSystemHeader())).bind("c"),
                 Ctx.astContext())) {
        const auto *Call = M.getNodeAs<CallExpr>("c");
        SyncKind K = classifySync(Call).Kind;
        if (K == SyncKind::TileCollective || K == SyncKind::WarpBarrier)
          GroupSyncs.insert(fileLine(Call->getBeginLoc()));
      }
    }
    return GroupSyncs.count(fileLine(Loc)) != 0;
  }

  // The grid barrier's call as written on that line ('grid.sync()').
  std::string gridSyncText(SourceLocation Loc) {
    using namespace clang::ast_matchers;
    auto Line = fileLine(Loc);
    for (const auto &M :
         match(callExpr(unless(isExpansionInSystemHeader())).bind("c"),
               Ctx.astContext())) {
      const auto *Call = M.getNodeAs<CallExpr>("c");
      if (classifySync(Call).Kind == SyncKind::GridBarrier &&
          fileLine(Call->getBeginLoc()) == Line)
        return "'" + Ctx.sourceText(Call) + "'";
    }
    return "the grid barrier";
  }

  // The condition of a kernel's `if (c) { ...; return; }` (no else, no
  // barrier inside) written on that line: the threads that take it exit
  // after what they do there, as the AST layer judges a kernel's return;
  // the IR layer sees only stores on a path that joins the kernel's `ret`.
  bool isKernelExit(SourceLocation Loc) {
    if (!ExitsIndexed) {
      ExitsIndexed = true;
      using namespace clang::ast_matchers;
      for (const auto &M :
           match(ifStmt(unless(isExpansionInSystemHeader()),
                        unless(hasElse(stmt())),
                        forFunction(functionDecl(hasAttr(attr::CUDAGlobal))))
                     .bind("if"),
                 Ctx.astContext())) {
        const auto *If = M.getNodeAs<IfStmt>("if");
        const Stmt *Then = If->getThen();
        if (const auto *Block = dyn_cast<CompoundStmt>(Then))
          Then = Block->body_empty() ? nullptr : Block->body_back();
        if (!Then || !isa<ReturnStmt>(Then) || containsBarrier(If->getThen()))
          continue;
        addExit(If->getCond());
      }
      // A kernel's last statement, a loop under a tail guard (`while (idx
      // < n)`, idx growing with the thread index): in the block's last
      // iteration the threads past the end leave it and exit (the AST
      // check judges what the survivors read after its barriers).
      for (const auto &M :
           match(functionDecl(unless(isExpansionInSystemHeader()),
                              hasAttr(attr::CUDAGlobal), isDefinition())
                     .bind("k"),
                 Ctx.astContext())) {
        const auto *K = M.getNodeAs<FunctionDecl>("k");
        const auto *Body = dyn_cast_or_null<CompoundStmt>(K->getBody());
        if (!Body)
          continue;
        const Stmt *Last = nullptr;
        for (const Stmt *S : Body->body())
          if (!isa<NullStmt>(S) &&
              !(isa<ReturnStmt>(S) && !cast<ReturnStmt>(S)->getRetValue()))
            Last = S;
        const Expr *Cond = FunctionDependence::conditionOf(Last);
        if (Cond && isa<ForStmt, WhileStmt, DoStmt>(Last) &&
            Ctx.threadDependence().forFunction(K).tailGuard(
                Cond, /*SurviveIfTrue=*/true))
          addExit(Cond);
      }
    }
    return Exits.count(fileLine(Loc)) != 0;
  }

  // A branch or loop written on that line that the launch shape makes take
  // every thread of the block the same way (the engine's sameForLaunch, as
  // the AST check judges its guards): every instance of it, a template's
  // instantiations included.
  bool sameForLaunch(SourceLocation Loc) {
    if (!BranchesIndexed) {
      BranchesIndexed = true;
      using namespace clang::ast_matchers;
      for (const auto &M : match(stmt(anyOf(ifStmt(), forStmt(), whileStmt(),
                                            doStmt(), switchStmt()),
                                      unless(isExpansionInSystemHeader()),
                                      forFunction(functionDecl().bind("f")))
                                     .bind("s"),
                                 Ctx.astContext())) {
        const auto *S = M.getNodeAs<Stmt>("s");
        const Expr *Cond = FunctionDependence::conditionOf(S);
        if (Cond)
          Branches[fileLine(Cond->getBeginLoc())].push_back(
              {S, M.getNodeAs<FunctionDecl>("f")});
      }
    }
    auto It = Branches.find(fileLine(Loc));
    return It != Branches.end() && llvm::all_of(It->second, [&](const auto &B) {
             return Ctx.engine().sameForLaunch(B.first, B.second);
           });
  }

  void addExit(const Expr *Cond) {
    auto [File, First] = fileLine(Cond->getBeginLoc());
    unsigned Last = fileLine(Cond->getEndLoc()).second;
    for (unsigned L = First; L <= Last && L - First < 16; ++L)
      Exits.insert({File, L});
  }

  static bool containsBarrier(const Stmt *S) {
    if (!S)
      return false;
    const auto *Call = dyn_cast<CallExpr>(S);
    if (classifySync(S).Kind != SyncKind::None ||
        (Call && !Call->getBuiltinCallee()))
      return true; // a barrier, or a call that may hold one
    for (const Stmt *C : S->children())
      if (containsBarrier(C))
        return true;
    return false;
  }

  struct LoopLines {
    std::string File;
    unsigned First, Last;
  };
  std::vector<LoopLines> Loops;
  std::set<std::pair<std::string, unsigned>> Own; // the IR layer's findings
  bool LoopsIndexed = false;
  CheckContext &Ctx;
  DiagSink &Sink;
  SourceManager &SM;
  std::string CheckId;
  std::set<std::pair<std::string, unsigned>> Exits;
  bool ExitsIndexed = false;
  std::map<std::pair<std::string, unsigned>,
           std::vector<std::pair<const Stmt *, const FunctionDecl *>>>
      Branches;
  bool BranchesIndexed = false;
  std::set<std::pair<std::string, unsigned>> GroupSyncs;
  bool GroupSyncsIndexed = false;
};

void Reporter::settle(const JudgedBarriers &J) {
  if (!J.Complete)
    return;
  std::vector<Finding> &Fs = Sink.findings();
  auto Judged = [&](const Finding &F) {
    return F.Check == CheckId && F.Archs == archs() &&
           llvm::StringRef(F.Message).contains(ir::PartialReachWords);
  };
  if (llvm::none_of(Fs, Judged))
    return;
  using Line = std::pair<std::string, unsigned>;
  std::set<Line> Divergent, Uniform, Compiled;
  for (const JudgedBarriers::Verdict &V : J.Verdicts)
    for (SourceLocation L : locate(V.Frames))
      if (L.isValid())
        (V.Divergent ? Divergent : Uniform).insert(fileLine(L));
  for (SourceLocation L : locate(J.Functions))
    if (L.isValid())
      Compiled.insert(fileLine(L));
  // The user's function definitions by their bodies' lines, to find the
  // function a finding lies in.
  struct Body {
    std::string File;
    unsigned First, Last;
    Line Decl;
  };
  std::vector<Body> Bodies;
  {
    using namespace clang::ast_matchers;
    for (const auto &M :
         match(functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
                   .bind("f"),
               Ctx.astContext())) {
      const auto *FD = M.getNodeAs<FunctionDecl>("f");
      const Stmt *B = FD->getBody();
      if (!B)
        continue;
      auto [File, First] = fileLine(B->getBeginLoc());
      Bodies.push_back({File, First, fileLine(B->getEndLoc()).second,
                        fileLine(FD->getLocation())});
    }
  }
  auto CompiledAround = [&](const Finding &F) {
    const Body *Inner = nullptr;
    for (const Body &B : Bodies)
      if (B.File == F.Loc.File && B.First <= F.Loc.Line &&
          F.Loc.Line <= B.Last &&
          (!Inner || B.Last - B.First < Inner->Last - Inner->First))
        Inner = &B;
    return Inner && Compiled.count(Inner->Decl);
  };
  llvm::erase_if(Fs, [&](Finding &F) {
    if (!Judged(F))
      return false;
    Line L = {F.Loc.File, F.Loc.Line};
    if (Divergent.count(L))
      return false;
    if (Uniform.count(L) || CompiledAround(F))
      return true; // uniform in every copy, or not in the optimised code
    F.Message += ir::JudgedFromSourceWords.str();
    return false;
  });
}

} // namespace

void collectJudged(const ir::BarrierResult &R, JudgedBarriers &Out) {
  std::set<const llvm::DISubprogram *> Seen;
  for (const ir::FunctionBarriers &FB : R.Functions) {
    for (const ir::BarrierVerdict &V : FB.Barriers)
      Out.Verdicts.push_back(
          {ir::framesOf(V.Point->getDebugLoc().get()), V.Branch != nullptr});
    for (const llvm::Instruction &I : llvm::instructions(*FB.F))
      for (const llvm::DILocation *L = I.getDebugLoc().get(); L;
           L = L->getInlinedAt())
        if (const llvm::DISubprogram *SP = L->getScope()->getSubprogram();
            SP && Seen.insert(SP).second) {
          ir::Frame Fn;
          Fn.File = ir::pathOf(SP->getFile());
          Fn.Line = SP->getLine();
          Fn.Function = SP->getName().str();
          Out.Functions.push_back(std::move(Fn));
        }
  }
}

std::unique_ptr<IRBarrierReporter>
createIRBarrierReporter(CheckContext &Ctx, DiagSink &Sink,
                        llvm::StringRef CheckId) {
  return std::make_unique<Reporter>(Ctx, Sink, CheckId);
}

} // namespace warplint
