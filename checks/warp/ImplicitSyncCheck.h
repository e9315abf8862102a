// warp-implicit-sync: lanes of a warp exchanging values through shared
// memory with no barrier or __syncwarp() between the write and the read —
// code that assumes the warp runs in lockstep (Volta tuning guide 1.4.1.2).
#pragma once
#include "Analysis/LaneEval.h"
#include "Analysis/SyncPrimitives.h"
#include "Core/Check.h"

namespace warplint::warp {

class ImplicitSyncCheck : public FunctionCheck {
public:
  using FunctionCheck::FunctionCheck;

private:
  // One shared-memory access or barrier, in the order the function runs them.
  struct Event {
    bool IsBarrier = false;
    MemoryAccess Access;
    const clang::Stmt *Site = nullptr;    // the statement in the function
    const clang::CallExpr *Via = nullptr; // the helper call it is inside
    unsigned Order = 0;                   // position of Site
    unsigned Sub = 0;                     // loads before stores in a statement
  };

  void checkFunction(const clang::FunctionDecl *Fn) override;
  bool wantsInstantiations() const override { return true; }
  std::vector<Event> collect(const clang::FunctionDecl *Fn,
                             FunctionDependence &FD);

  BarrierSummary Barriers;
};

} // namespace warplint::warp
