// warp-implicit-sync: lanes of a warp exchanging values through shared
// memory with no barrier or __syncwarp() between the write and the read (or
// between a read and another lane's write of the same bytes) — code that
// assumes the warp runs in lockstep (Volta tuning guide 1.4.1.2).
#pragma once
#include "Analysis/WarpExchange.h"
#include "Core/Check.h"
#include "llvm/ADT/DenseSet.h"

namespace warplint::warp {

class ImplicitSyncCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  void checkFunction(const clang::FunctionDecl *Fn) override;
  bool wantsInstantiations() const override { return true; }
  // The tagged-update idiom of old histograms: a loop that writes a shared
  // slot and repeats until it reads back its own value.
  void checkTaggedUpdates(const clang::FunctionDecl *Fn);

  // (later, earlier) pairs reported: a helper called from several kernels
  // is reported once.
  llvm::DenseSet<std::pair<const clang::Expr *, const clang::Expr *>> Seen;
  // The same pair by its places in the source: each instantiation of a
  // kernel template has expressions of its own, and its lanes may differ
  // (a template argument in the bounds), but it is one site to fix.
  llvm::DenseSet<std::pair<clang::SourceLocation, clang::SourceLocation>>
      SeenSites;
};

} // namespace warplint::warp
