#include "checks/warp/ImplicitSyncCheck.h"

using namespace clang;

namespace warplint::warp {

void ImplicitSyncCheck::checkFunction(const FunctionDecl *Fn) {
  // Judged from the kernels, where the lanes are known; helpers run inside
  // them with their arguments bound.
  if (!Fn->hasAttr<CUDAGlobalAttr>() || Fn->isDependentContext())
    return;
  unsigned WS = arch().warp_size;
  const SourceManager &SM = context().sourceManager();
  auto LineOf = [&](const Expr *E) {
    return SM.getPresumedLoc(SM.getFileLoc(E->getBeginLoc())).getLine();
  };
  for (const WarpExchange &X :
       findWarpExchanges(Fn, context().affine().blockShape(Fn), WS)) {
    if (!Seen.insert({X.Later, X.Earlier}).second)
      continue;
    bool Its = arch().independent_thread_scheduling;
    bool Raw = X.ReadAfterWrite;
    std::string Where = X.SameStatement ? "in this same statement"
                        : X.EarlierIteration
                            ? "in an earlier iteration of the loop"
                            : "at line " + std::to_string(LineOf(X.Earlier));
    std::string Consequence =
        Its ? "independent thread scheduling on " + arch().Name +
                  " does not guarantee"
            : arch().Name +
                  " happens to do, but sm_70 and later do not guarantee";
    FindingBuilder B =
        Raw ? diag(X.Later->getBeginLoc(),
                   "{0} of warp {1} read '{2}', which {3} of the same warp "
                   "write {4}, with no __syncwarp() between: this assumes "
                   "the warp runs in lockstep (warp-synchronous code), which "
                   "{5} (Volta tuning guide 1.4.1.2)",
                   Its ? Severity::Error : Severity::Warning)
            : diag(X.Later->getBeginLoc(),
                   "{0} of warp {1} write '{2}', which {3} of the same warp "
                   "read {4}, with no __syncwarp() between the read and the "
                   "write: a lane can overwrite the value before the other "
                   "has read it unless the warp runs in lockstep "
                   "(warp-synchronous code), which {5} (Volta tuning guide "
                   "1.4.1.2)",
                   Its ? Severity::Error : Severity::Warning);
    B << describeLanes(X.LaterLanes, WS) << int64_t(X.Warp)
      << context().sourceText(X.Later) << describeLanes(X.EarlierLanes, WS)
      << Where << Consequence;
    if (!X.SameStatement && X.Earlier != X.Later)
      B.note(X.Earlier->getBeginLoc(), Raw ? "written here" : "read here");
    for (const CallExpr *Call : X.LaterChain)
      B.note(Call->getBeginLoc(), "through this call");
    B.note(X.Later->getBeginLoc(),
           Raw ? "synchronise the lanes between the write and the read with "
                 "__syncwarp(), or exchange the values with __shfl_down_sync "
                 "/ cooperative_groups::reduce; 'volatile' does not order "
                 "lanes"
               : "synchronise the lanes between the read and the write with "
                 "__syncwarp(), or exchange the values with __shfl_sync; "
                 "'volatile' does not order lanes");
  }
}

WARPLINT_CHECK_FACTORY(ImplicitSyncCheck)

} // namespace warplint::warp
