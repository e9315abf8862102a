// The check API, in clang-tidy's shape: a check registers AST matchers, gets
// their results in check(), reads its options in its constructor and reports
// through diag(). It never prints, reads files or knows the output format.
#pragma once
#include "Analysis/BodyWalk.h"
#include "Analysis/Budget.h"
#include "Analysis/LaneEngine.h"
#include "Arch/ArchTable.h"
#include "Core/DiagSink.h"
#include "Core/NoLint.h"
#include "Core/Services.h"
#include "Support/Glob.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <map>
#include <memory>

namespace warplint {

class Check;
class CheckContext;

// A value of the target a message is judged for ("1:32", "50%"): when the
// same verdict holds on several targets, the merged message lists each
// target's value in its place ("on sm_61 and sm_75 (FP64 at 1:32 and 1:64)").
struct PerTarget {
  std::string Text;
};

// Which side of a CUDA compile a parse judges: device code (kernels,
// __device__ functions), host code, or both (warplint's device parse, which
// sees host code too).
enum class CheckSide { Device, Host, Both };

using CheckOptionMap = std::map<std::string, std::string>;

// Builds one finding; it is handed to the context when the builder dies, as
// clang's DiagnosticBuilder does. The format is llvm::formatv's: arguments
// replace {0}, {1}, ... in the order they are streamed.
class FindingBuilder {
public:
  FindingBuilder(CheckContext &Ctx, llvm::StringRef CheckId,
                 clang::SourceLocation Loc, llvm::StringRef Format,
                 Severity Level);
  FindingBuilder(FindingBuilder &&Other);
  FindingBuilder(const FindingBuilder &) = delete;
  ~FindingBuilder();

  FindingBuilder &operator<<(llvm::StringRef S);
  FindingBuilder &operator<<(const char *S) {
    return *this << llvm::StringRef(S);
  }
  FindingBuilder &operator<<(const std::string &S) {
    return *this << llvm::StringRef(S);
  }
  FindingBuilder &operator<<(int64_t V);
  FindingBuilder &operator<<(int V) { return *this << int64_t(V); }
  FindingBuilder &operator<<(unsigned V) { return *this << int64_t(V); }
  FindingBuilder &operator<<(const clang::NamedDecl *D);
  FindingBuilder &operator<<(const clang::FixItHint &Fix);
  FindingBuilder &operator<<(const PerTarget &V);
  // A number behind the message, for JSON/SARIF consumers.
  FindingBuilder &metric(llvm::StringRef Name, double Value);
  // A note of this finding (where, through which call, what it costs), its
  // arguments streamed into the builder returned; reported with the
  // finding, and dropped with it.
  FindingBuilder &note(clang::SourceLocation Loc, llvm::StringRef Format);
  // A note, when S's text in the message is a macro's invocation
  // (sourceText: 'DOT(x, y)'): where in the macro's definition S is
  // spelled, "expanded from macro 'DOT'".
  FindingBuilder &noteMacroOrigin(const clang::Stmt *S);

private:
  friend class CheckContext;
  // A note's builder: it belongs to its finding and reports nothing itself.
  FindingBuilder(llvm::StringRef CheckId, clang::SourceLocation Loc,
                 llvm::StringRef Format);
  CheckContext *Ctx;
  std::string CheckId;
  clang::SourceLocation Loc;
  std::string Format;
  Severity Level;
  std::vector<std::string> Args;
  std::vector<bool> ArgIsPerTarget;
  std::vector<clang::FixItHint> Fixes;
  std::vector<std::pair<std::string, double>> Metrics;
  std::vector<std::unique_ptr<FindingBuilder>> Notes;
};

// Per-check options: "check-id.Name" keys of CheckOptions.
class OptionsView {
public:
  OptionsView(llvm::StringRef CheckId, const CheckOptionMap &Options)
      : Prefix((CheckId + ".").str()), Options(Options) {}
  std::string get(llvm::StringRef Name, llvm::StringRef Default) const;
  int64_t get(llvm::StringRef Name, int64_t Default) const;
  bool get(llvm::StringRef Name, bool Default) const;

private:
  std::string Prefix;
  const CheckOptionMap &Options;
};

// What a check sees of the translation unit and target it runs on.
class CheckContext {
public:
  CheckContext(const ArchTable &Tables, const ArchInfo *Arch,
               const CheckOptionMap &Options, const GlobList &WarningsAsErrors,
               DiagSink &Sink);

  void setASTContext(clang::ASTContext *Ctx);
  clang::ASTContext &astContext() const { return *AST; }
  clang::SourceManager &sourceManager() const;
  const clang::LangOptions &langOpts() const;

  // The target this parse is judged for; null in a host-only parse.
  const ArchInfo *arch() const { return Arch; }
  const ArchTable &tables() const { return Tables; }
  const CheckOptionMap &options() const { return Options; }
  // What the run provides beyond the AST (a check gets what it declared
  // it needs; the rest answers "not available").
  void setServices(RunServices *S) { Services = S ? S : &NoServices; }
  RunServices &services() const { return *Services; }
  // The per-lane engine (Analysis/LaneEngine.h): thread dependence, affine
  // forms, per-lane values, launch shapes and the call graph, one instance
  // for the TU, built on first use. A body is walked with forEachStmt
  // (Analysis/BodyWalk.h); the call graph is built at the first query, when
  // the checks run at the end of the TU.
  LaneEngine &engine();
  // Answers engine() from Owner's: the contexts of the targets one parse is
  // judged for share it, as it depends on the AST and the warp size alone.
  void shareEngineOf(CheckContext &Owner) { EngineOf = &Owner; }
  ThreadDependenceAnalysis &threadDependence() { return engine().dependence(); }
  AffineAnalysis &affine() { return engine().affine(); }
  const CallGraphView &callGraph() { return engine().callGraph(); }
  // What the -O3 pipeline leaves of the device code's loads and stores for
  // this target (IR/OptimisedAccesses.h); null without the IR layer.
  const ir::OptimisedAccesses *optimisedAccesses() const {
    return Arch ? Services->optimisedAccesses(*Arch) : nullptr;
  }

  // The source text of S as the user wrote it (macros unexpanded; inside a
  // macro's body, the macro's invocation), shortened to MaxLen characters.
  std::string sourceText(const clang::Stmt *S, size_t MaxLen = 60) const;

  // Converts a builder into a Finding, its notes included, and reports it,
  // unless it lies in a system header or is suppressed by NOLINT.
  void emit(FindingBuilder &B);
  // Reports malformed NOLINT comments of every file seen in this TU.
  void reportNoLintProblems();

  // The qualified name of the function whose body holds Loc (a file
  // location), or "".
  std::string enclosingFunction(clang::SourceLocation Loc) const;

private:
  Location toLocation(clang::SourceLocation Loc) const;
  const NoLintIndex *noLintFor(clang::FileID FID);
  bool isSuppressed(clang::SourceLocation Loc, llvm::StringRef CheckId);
  // The hash of a file's content as this parse read it, for FixEdit.
  const std::string &contentHashOf(clang::FileID FID);

  const ArchTable &Tables;
  const ArchInfo *Arch;
  const CheckOptionMap &Options;
  const GlobList &WarningsAsErrors;
  DiagSink &Sink;
  clang::ASTContext *AST = nullptr;
  std::unique_ptr<LaneEngine> Engine;
  CheckContext *EngineOf = nullptr;
  RunServices NoServices;
  RunServices *Services = &NoServices;
  llvm::DenseMap<clang::FileID, std::unique_ptr<NoLintIndex>> NoLint;
  llvm::DenseMap<clang::FileID, std::string> ContentHashes;
  // enclosingFunction's candidates: the declarations of TopLevelOf's TU
  // outside the system headers.
  mutable const clang::ASTContext *TopLevelOf = nullptr;
  mutable std::vector<const clang::Decl *> TopLevel;
};

class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Check(llvm::StringRef Name, CheckContext &Ctx)
      : Name(Name.str()), Ctx(Ctx), Options(Name, Ctx.options()) {}
  ~Check() override = default;

  virtual void registerMatchers(clang::ast_matchers::MatchFinder *Finder) = 0;
  virtual void
  check(const clang::ast_matchers::MatchFinder::MatchResult &R) = 0;
  // Records the options in effect with their values, for --dump-config.
  virtual void storeOptions(CheckOptionMap &Opts) const {}

  llvm::StringRef name() const { return Name; }

protected:
  // A finding; Severity::Note makes a finding of note level (advice that
  // never fails the run), not a note of another finding.
  FindingBuilder diag(clang::SourceLocation Loc, llvm::StringRef Format,
                      Severity Level = Severity::Warning) {
    return FindingBuilder(Ctx, Name, Loc, Format, Level);
  }
  CheckContext &context() const { return Ctx; }
  // The target; device-side checks always have one.
  const ArchInfo &arch() const { return *Ctx.arch(); }

  std::string Name;
  CheckContext &Ctx;
  OptionsView Options;

private:
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) final;
  llvm::StringRef getID() const final { return Name; }
};

// A check that looks at each function the user wrote (not system headers),
// once, at the end of the TU, when every kernel launch in it has been seen
// (the block shapes the memory analyses use). Walking a function's body here
// knows the enclosing function without a TU-wide parent map.
class FunctionCheck : public Check {
public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) final;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &R) final;
  void onEndOfTranslationUnit() final;

protected:
  virtual void checkFunction(const clang::FunctionDecl *F) = 0;
  // Template instantiations (types known) instead of the templates as
  // written (seen even when never instantiated).
  virtual bool wantsInstantiations() const { return false; }
  // Host-only functions too (the default is kernels and __device__ code).
  virtual bool wantsHostFunctions() const { return false; }
  // After every function has been checked: for verdicts that need the whole
  // TU (a launch and a set-up call in another function).
  virtual void finishTranslationUnit() {}
  // Each kernel launch of the TU as it is matched, before any check's end of
  // the TU: for what must be known then (the kernels whose registers the
  // verdicts will ask for, compiled together).
  virtual void launchMatched(const clang::CallExpr *Launch) {}

private:
  std::vector<const clang::FunctionDecl *> Functions;
};

// One entry of checks/Checks.def.
struct CheckInfo {
  llvm::StringRef Category;
  llvm::StringRef Id;
  llvm::StringRef ClassName;
  unsigned Needs; // needs::* (Core/Services.h)
  llvm::StringRef Summary;
  std::unique_ptr<Check> (*Create)(llvm::StringRef Id, CheckContext &Ctx);
};

// Instantiates the enabled checks for one parse, puts all their matchers into
// one MatchFinder, and runs them in one traversal. Judges says which side's
// checks the parse runs: warplint's device parse sees host code too and runs
// both; in a clang compile (the plugin) the host pass runs the host-side
// checks and each GPU's pass the device-side ones, so that a host finding
// is reported once, not once per pass.
class CheckRunner {
public:
  CheckRunner(llvm::ArrayRef<CheckInfo> Registry, const GlobList &Enabled,
              CheckSide Judges, CheckContext &Ctx);
  void run(clang::ASTContext &AST);
  bool empty() const { return Checks.empty(); }

private:
  CheckContext &Ctx;
  std::vector<std::unique_ptr<Check>> Checks;
  clang::ast_matchers::MatchFinder Finder;
};

// Each check's .cpp ends with this, naming its class; Checks.def's registry
// refers to the factory it defines.
#define WARPLINT_CHECK_FACTORY(CLASS)                                          \
  std::unique_ptr<::warplint::Check> create##CLASS(                            \
      llvm::StringRef Id, ::warplint::CheckContext &Ctx) {                     \
    return std::make_unique<CLASS>(Id, Ctx);                                   \
  }

} // namespace warplint
