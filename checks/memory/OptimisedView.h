// What the optimiser did to an access the memory checks found in the AST:
// the IR layer's answer (IR/OptimisedAccesses.h) for the position clang's
// code generator gives the access (a load: the lvalue's expression
// location, `x` of `p[i].x`; a store: its assignment operator).
#pragma once
#include "Core/Check.h"

namespace warplint::memory {

struct OptimisedView {
  enum Kind {
    AsWritten, // judge it as the AST shows it (also: no IR layer)
    Removed,   // the optimiser removed it: no finding
    Covered,   // merged into a wider access reported at another access
    Merged     // the first access of a wider one: judge it at Bytes
  } K = AsWritten;
  unsigned Bytes = 0;
  // Nothing to report at this access.
  bool hidden() const { return K == Removed || K == Covered; }
};

OptimisedView optimisedView(CheckContext &Ctx, const MemoryAccess &A);

// "; the compiler merges it with the accesses beside it into one N-byte
// load per lane" for a Merged view, else "".
std::string mergedWords(const OptimisedView &V, const MemoryAccess &A);

} // namespace warplint::memory
