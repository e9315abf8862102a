// One launch finding per verdict. A launcher template instantiated for half
// and float launches two instantiations of one kernel from one line: one
// finding there, whose message gives the range of register counts where
// ptxas allocates the instantiations different ones. Where the fix is the
// kernel's (launch-occupancy: its registers or shared memory), a host
// function that launches one kernel template for each of a dozen types (a
// switch over data types) gets one finding too, at the first launch, with
// the other launches as notes.
#pragma once
#include "Core/Check.h"
#include "checks/launch/KernelResources.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include <functional>
#include <string>
#include <vector>

namespace warplint::launch {

// The function a kernel is an instance of (its template's pattern), so
// that norm_f32<32> and norm_f32<1024> are one kernel.
const clang::FunctionDecl *kernelPattern(const clang::FunctionDecl *K);

// Whether Launch lies in a branch that its own constants make dead: an
// if whose condition the compiler folds (`if (K < 10)` with K a macro's
// literal, `if constexpr`) and the branch it does not take. Such a launch
// never runs and gets no verdict.
bool inDeadBranch(const clang::Stmt *Launch, const clang::FunctionDecl *Caller,
                  clang::ASTContext &Ctx);
// The same, from the statements around Launch (outermost first, as a body
// walk gives them).
bool inDeadBranch(llvm::ArrayRef<const clang::Stmt *> Path,
                  const clang::Stmt *Launch, clang::ASTContext &Ctx);

// A note at each other launch that shares the finding's verdict.
void noteOtherLaunches(FindingBuilder &B,
                       llvm::ArrayRef<clang::SourceLocation> Others,
                       llvm::StringRef Name);

// For a grid known only at run time (FillsAbove, the blocks one wave of the
// architecture's largest part holds; 0: known), the note that the verdict
// (Matters: "this matters") holds only above one wave, and the metric.
void noteGridFill(FindingBuilder &B, clang::SourceLocation Loc,
                  uint64_t FillsAbove, llvm::StringRef Matters);

class VerdictGroups {
public:
  enum class By {
    Launch, // the instantiations of one launch
    Kernel  // every launch of one kernel, in one translation unit
  };
  explicit VerdictGroups(By B) : Grouping(B) {}
  // Reports the finding: RegText in place of the kernel's registers, and
  // a note at each of Others.
  using Emit =
      std::function<void(const std::string &RegText,
                         llvm::ArrayRef<clang::SourceLocation> Others)>;
  // Key: the verdict without the kernel's registers (every number the
  // message gives that is not the register count).
  void add(clang::SourceLocation Loc, const clang::FunctionDecl *Kernel,
           std::string Key, const KernelResourcesSeen &Res, Emit E);
  // Reports every group, in the order of their first launch.
  void flush();

private:
  struct Verdict {
    clang::SourceLocation Loc;
    const clang::FunctionDecl *Kernel, *Pattern;
    std::string Key;
    KernelResourcesSeen Res;
    Emit E;
  };
  By Grouping;
  std::vector<Verdict> Pending;
};

} // namespace warplint::launch
