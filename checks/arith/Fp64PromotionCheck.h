// arith-fp64-promotion: double-precision arithmetic in device code that float
// code got by accident — an unsuffixed literal, a double constant, a double
// math overload chosen for float arguments — graded by the target's FP64:FP32
// throughput ratio (CUDA C++ Best Practices Guide, "Other Arithmetic
// Instructions"; Optimizing for CUDA slides, "How to get high performance
// #4": use double precision only when necessary).
#pragma once
#include "Core/Check.h"
#include "Core/NoLint.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace warplint::arith {

class Fp64PromotionCheck : public FunctionCheck {
public:
  Fp64PromotionCheck(llvm::StringRef Name, CheckContext &Ctx);
  void storeOptions(CheckOptionMap &Opts) const override;

private:
  void checkFunction(const clang::FunctionDecl *F) override;
  bool wantsInstantiations() const override { return true; }

  struct Site;
  // What made an expression double, where to report it, and what to do.
  struct Cause {
    enum Kind { Literal, Pow, Call, Constant, Local } K = Literal;
    clang::SourceLocation Loc;
    const clang::Expr *Shown = nullptr; // the expression quoted
    std::string Why;
    std::string Advice;
    std::vector<clang::FixItHint> Fixes;
    std::string Name;      // Constant, Local: the variable
    std::string Macro;     // Literal: the macro that carries it
    std::string FloatCall; // Pow, Call: the float function (powf, fmaxf)
    // Loc is a declaration, not part of the expression: a note points at
    // the expression.
    bool AtDeclaration = false;
  };
  // What the IR layer's -O3 view says of the FP64 work in an expression.
  enum class Fate { Unknown, Kept, Removed };
  Fate optimisedFate(const clang::Expr *Shown) const;
  void report(const Site &S, const clang::FunctionDecl *F,
              std::vector<Cause> &Out);
  std::optional<Cause> powFloatInt(const clang::CallExpr *Call,
                                   const clang::FunctionDecl *F);
  void emit(const Cause &C);
  void emitGrouped(const clang::FunctionDecl *F,
                   const std::vector<Cause> &Causes);
  // NOLINT on the cause's line: it does not count towards a function's
  // total either.
  bool suppressed(clang::SourceLocation Loc);
  Severity severity() const;
  std::string ratioText() const;

  // FP64 at 1:WarnRatio of the FP32 rate or slower is a warning; a faster
  // FP64 unit (1:2 on the data-centre GPUs) makes the finding a note.
  int64_t WarnRatio;
  // Above this many causes in one function, one finding for the function
  // with each cause as a note.
  int64_t GroupAbove;
  // Where a cause was reported (a literal, a declaration, a call), so that
  // one cause is reported once however many expressions it reaches.
  llvm::DenseSet<std::pair<unsigned, unsigned>> Reported;
  std::pair<unsigned, unsigned> reportKey(clang::SourceLocation Loc) const;
  llvm::DenseMap<clang::FileID, std::unique_ptr<NoLintIndex>> NoLint;
};

} // namespace warplint::arith
