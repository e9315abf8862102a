// warp-legacy-intrinsic: __shfl, __shfl_up/down/xor, __ballot, __any and
// __all without _sync (Volta tuning guide 1.4.1.2).
#pragma once
#include "Core/Check.h"

namespace warplint::warp {

class LegacyIntrinsicCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  void checkFunction(const clang::FunctionDecl *Fn) override;
  void report(const clang::CallExpr *Call, const clang::FunctionDecl *Fn,
              llvm::StringRef Name, clang::SourceLocation NameLoc);
  // Why no fix can be offered for Call in Fn, with the place to point at; an
  // empty reason means the full-mask fix is provably right.
  std::pair<std::string, clang::SourceLocation>
  whyNoFix(const clang::CallExpr *Call, const clang::FunctionDecl *Fn,
           clang::SourceLocation NameLoc);
};

} // namespace warplint::warp
