// How many rounds a loop is taken to run per thread, for the estimates of
// what a fix saves (memory-uncoalesced-access, memory-shared-bank-conflict,
// arith-unsigned-index): its constant trip count (through the constants the
// file defines), 1 for a do { } while (0), and for a loop whose count is
// not written with constants AssumedTrips rounds, GeometricTrips for one
// that halves or doubles its bound (a tree reduction). The messages say
// when an assumption was made.
#pragma once
#include "Analysis/Loops.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <algorithm>

namespace warplint {

constexpr unsigned AssumedTrips = 16;
constexpr unsigned GeometricTrips = 8;

struct LoopTrips {
  double Times = 1;
  bool Assumed = false; // AssumedTrips or GeometricTrips
};

inline LoopTrips loopTrips(
    const clang::Stmt *Loop, const clang::ASTContext &AST,
    llvm::function_ref<std::optional<uint64_t>(const clang::Expr *)> ValueOf) {
  if (const auto *Do = llvm::dyn_cast<clang::DoStmt>(Loop);
      Do && runsBodyOnce(Do, AST))
    return {};
  if (std::optional<uint64_t> N = constantTripCount(Loop, AST, ValueOf))
    return {double(std::max<uint64_t>(*N, 1)), false};
  return {double(isGeometric(Loop) ? GeometricTrips : AssumedTrips), true};
}

} // namespace warplint
