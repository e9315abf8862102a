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

// Whether the optimiser may inline into Kernel an access of the user's code
// that the check did not follow: Kernel calls a function of the user's
// (directly, or a lambda or functor) whose code, or that of the user's
// functions it calls, may read or write memory other than its own
// variables and constants. Only then is the kernel's optimised code asked
// for such accesses.
bool mayInlineUserAccesses(const clang::FunctionDecl *Kernel,
                           const clang::SourceManager &SM);

// "; the compiler merges it with the accesses beside it into one N-byte
// load per lane" for a Merged view, else "".
std::string mergedWords(const OptimisedView &V, const MemoryAccess &A);

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

// What a memory check judged of one memory space, for asking the IR layer,
// once every function is checked, for the accesses it did not follow.
class FollowedAccesses {
public:
  explicit FollowedAccesses(bool Shared) : Shared(Shared) {}
  // F, if it is a kernel, is asked about at the end.
  void kernel(const clang::FunctionDecl *F);
  // The source analysis judged A.
  void follow(CheckContext &Ctx, const MemoryAccess &A);
  // The inlined accesses of the kernels whose IR position is not among
  // those followed, each with its kernel. Asks the IR layer only for a
  // kernel that calls a function of the user's.
  std::vector<std::pair<const clang::FunctionDecl *, InlinedAccess>>
  unfollowed(CheckContext &Ctx, AffineAnalysis &AA) const;

private:
  bool Shared;
  std::set<std::string> Keys; // OptimisedAccesses::key of each access
  std::vector<const clang::FunctionDecl *> Kernels;
};

} // namespace warplint::memory
