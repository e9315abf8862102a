// arith-unsigned-index: index arithmetic in unsigned 32-bit types that the
// compiler must let wrap — in a loop, where it blocks strength reduction of
// the address (CUDA C++ Best Practices Guide, "Loop Counters Signed vs.
// Unsigned"; Maxwell tuning guide 1.4.1.4: "signed arithmetic should be
// preferred over unsigned arithmetic wherever possible"), and in a
// subtraction that does wrap (a[i - 1] when i is 0).
#pragma once
#include "Core/Check.h"
#include "checks/arith/ThreadWork.h"
#include "llvm/ADT/DenseSet.h"
#include <vector>

namespace warplint {
class LocalWrites;
}

namespace warplint::arith {

class UnsignedIndexCheck : public FunctionCheck {
public:
  UnsignedIndexCheck(llvm::StringRef Name, CheckContext &Ctx);
  // A counted for loop, and a memory access with its index (defined in the
  // .cpp).
  struct Loop;
  struct Access;

private:
  void checkFunction(const clang::FunctionDecl *F) override;
  bool wantsInstantiations() const override { return true; }
  void storeOptions(CheckOptionMap &Opts) const override;
  void finishTranslationUnit() override { Work.clear(); }

  // An access whose address costs a widening each iteration, with the
  // declarations to change; the loop it is slow in, with all of them.
  struct SlowAccess {
    const clang::Expr *E, *Index, *Base;
    std::vector<const clang::VarDecl *> Vars;
  };
  struct SlowLoop {
    const clang::Stmt *For;
    const clang::VarDecl *Counter;
    bool Unrolled; // a constant trip count, which nvcc unrolls whole
    const clang::FunctionDecl *F;
    std::vector<SlowAccess> Accesses;
    std::vector<const clang::VarDecl *> Vars;
  };
  void collectSlowAccess(const Access &A, llvm::ArrayRef<Loop> Loops,
                         const LocalWrites &Writes,
                         const clang::FunctionDecl *F,
                         std::vector<SlowLoop> &Slow);
  void reportSlowLoops(std::vector<SlowLoop> &Slow);
  void reportGroup(llvm::ArrayRef<const SlowLoop *> Loops);
  void checkWrap(const Access &A, llvm::ArrayRef<Loop> Loops,
                 llvm::ArrayRef<const clang::Stmt *> Path,
                 const LocalWrites &Writes);
  // for (unsigned j = i - w; j < n; j++) where i can be below w.
  void checkLoopStart(const Loop &L, llvm::ArrayRef<Loop> Outer,
                      llvm::ArrayRef<const clang::Stmt *> Path,
                      const LocalWrites &Writes);

  // Whether every call that reaches F passes a shared-memory pointer for
  // P (addressed with 32 bits: nothing to widen).
  bool passedShared(const clang::ParmVarDecl *P, const clang::FunctionDecl *F,
                    unsigned Depth);

  llvm::DenseSet<unsigned> ReportedWraps;
  ThreadWorkModel Work{context()};
  // The least share of the function's operations, in percent, that the
  // widening must be for a warning; below it, a note.
  const int64_t MinSavingPct;
};

} // namespace warplint::arith
