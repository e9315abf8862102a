// What the optimiser did to an access the memory checks found in the AST:
// the IR layer's answer (IR/OptimisedAccesses.h) for the position clang's
// code generator gives the access (a load: the lvalue's expression
// location, `x` of `p[i].x`; a store: its assignment operator).
#pragma once
#include "Analysis/AffineIndex.h"
#include "Core/Check.h"
#include <set>

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
  // The bytes per lane to judge A at: the merged width, or A's own.
  unsigned bytes(const MemoryAccess &A) const {
    return K == Merged ? Bytes : A.Size;
  }
};

OptimisedView optimisedView(CheckContext &Ctx, const MemoryAccess &A);

// "; the compiler merges it with the accesses beside it into one N-byte
// load per lane" for a Merged view, else "".
std::string mergedWords(const OptimisedView &V, const MemoryAccess &A);

// Where the IR layer knows access A (of one kind): "file:line:col:ld|st"
// keys, for RecordFollowed below.
void addIRKeys(CheckContext &Ctx, const MemoryAccess &A,
               std::set<std::string> &Keys);

// An access of a callee inlined into a kernel that the optimised IR shows
// linear in the thread index with every lane of the warp active, and the
// analysis of the source did not follow (a pointer in a struct, an index
// through a local array, a call deeper than it goes): reported from the IR.
struct InlinedAccess {
  clang::SourceLocation Loc; // the access as written
  const clang::Expr *E = nullptr;
  bool IsStore = false;
  unsigned Bytes = 0;
  WarpPattern Pattern; // under the kernel's block shape
  // The calls that lead to it, innermost first: where, and the caller.
  std::vector<std::pair<clang::SourceLocation, std::string>> Calls;
};

// The inlined accesses of Kernel to global or shared memory whose IR
// position is not among Followed (the accesses the source analysis judged).
// Asks the IR layer only when Kernel calls a function of the user's.
std::vector<InlinedAccess>
inlinedAccesses(CheckContext &Ctx, AffineAnalysis &AA,
                const clang::FunctionDecl *Kernel, bool Shared,
                const std::set<std::string> &Followed);

} // namespace warplint::memory
