// arith-fp64-promotion: double-precision arithmetic in device code that float
// code got by accident — an unsuffixed literal, a double constant, a double
// math overload chosen for float arguments — graded by the target's FP64:FP32
// throughput ratio (CUDA C++ Best Practices Guide, "Other Arithmetic
// Instructions"; Optimizing for CUDA slides, "How to get high performance
// #4": use double precision only when necessary).
#pragma once
#include "Core/Check.h"
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
    clang::SourceLocation Loc;
    std::string Why;
    std::string Advice;
    std::vector<clang::FixItHint> Fixes;
    // Loc is a declaration, not part of the expression: a note points at
    // the expression.
    bool AtDeclaration = false;
  };
  void report(const Site &S, const clang::FunctionDecl *F);
  // One finding per cause.
  void emit(const clang::Expr *Shown, const Cause &C);
  void reportPowFloatInt(const clang::CallExpr *Call,
                         const clang::FunctionDecl *F);
  Severity severity() const;
  std::string ratioText() const;

  // FP64 at 1:WarnRatio of the FP32 rate or slower is a warning; a faster
  // FP64 unit (1:2 on the data-centre GPUs) makes the finding a note.
  int64_t WarnRatio;
  // Where a finding was reported (a literal, a declaration, a call), so that
  // one cause is reported once however many expressions it reaches.
  llvm::DenseSet<unsigned> Reported;
};

} // namespace warplint::arith
