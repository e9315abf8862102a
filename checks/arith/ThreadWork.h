// How much a thread runs of a device function: its operations (arithmetic,
// comparisons, loads and stores, calls to functions with their own work
// added) each weighted by how often the loops around run them (loopTrips,
// as the memory checks' traffic model counts). The denominator of
// arith-unsigned-index's estimate of what declaring an index int saves;
// the numerator is the widening it removes per run of an access.
#pragma once
#include "Analysis/TripCounts.h"
#include "Core/Check.h"
#include "llvm/ADT/DenseMap.h"

namespace warplint::arith {

// The operations per memory access below which a function is taken to be
// bound by memory, where the instructions int saves hide behind its loads
// (measured on an H100: ten kernels of 2 to 6 operations per access saved
// 14-42% of their instructions with int and at most 2.7% of their time,
// bench/gpu/index_savings.cu).
constexpr double IssueBoundOps = 8;

struct ThreadWork {
  double Total = 0; // operations a thread runs, callees' included
  // Of them, loads and stores through a pointer (p[i], *p) or of a
  // __shared__ array: memory, where a local array's elements are
  // registers.
  double PointerAccesses = 0;
  // How many times a thread runs each array subscript and pointer addition.
  llvm::DenseMap<const clang::Stmt *, double> Runs;
  bool UnknownLoops = false; // some loop ran AssumedTrips
};

class ThreadWorkModel {
public:
  explicit ThreadWorkModel(CheckContext &Ctx) : Ctx(Ctx) {}
  const ThreadWork &of(const clang::FunctionDecl *F);
  void clear() { Work.clear(); }

private:
  const ThreadWork &of(const clang::FunctionDecl *F, unsigned Depth);
  CheckContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, ThreadWork> Work;
};

} // namespace warplint::arith
