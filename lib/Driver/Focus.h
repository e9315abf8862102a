// A focused re-analysis, for the language server: after an edit inside one
// function's body, parse that body and the bodies it depends on or that
// depend on it (its callees, its launchers), and skip every other body, whose
// template instantiations (CUB's and Thrust's dispatch layers, the other
// kernels' block algorithms) are most of a parse after the preamble. The
// edited function's findings are the focused pass's; every other finding is
// carried over from the last full analysis, moved with the edit. A full
// analysis follows once the buffer holds still and settles what the edit
// changed elsewhere (a launch's occupancy after its kernel's shared memory
// changed).
#pragma once
#include "Core/Finding.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
} // namespace clang

namespace warplint {

// A main-file function definition, by offsets into the text it was parsed
// from.
struct BodySpan {
  unsigned Name = 0;  // the function's name
  unsigned Begin = 0; // its body's '{'
  unsigned End = 0;   // one past its body's '}'
  // Sema parses it whatever the consumer says (constexpr, a deduced return
  // type).
  bool AlwaysParsed = false;
  // Neither __device__ nor __global__: code only the host compiler builds.
  bool HostOnly = false;
  // The main-file functions its body names (calls, launches, passes), by
  // their Name offsets.
  std::vector<unsigned> Refs;
};

// The main-file function definitions among Decls (the main file's top-level
// declarations), in text order.
std::vector<BodySpan> mainFileBodies(llvm::ArrayRef<clang::Decl *> Decls,
                                     const clang::ASTContext &Ctx);

// What a full analysis of a buffer found in it (the main file only).
struct FullAnalysis {
  std::string Text;
  std::vector<Finding> Findings;
  std::vector<ToolError> Errors;
  std::vector<BodySpan> Bodies;
};

class Focus {
public:
  // The focused pass for Text after Last, or none when the edit is not
  // inside a single function body (or there is nothing to skip).
  static std::optional<Focus> plan(const FullAnalysis &Last,
                                   llvm::StringRef Text);

  // Whether the body of the function whose name is at Offset of the new
  // text is skipped.
  bool skipsBodyNamedAt(unsigned Offset) const;

  // The focused pass's findings in the edited function and its errors
  // outside the other bodies (new text), with Last's other findings and
  // errors, moved to the new text.
  void merge(const FullAnalysis &Last, llvm::StringRef Text,
             std::vector<Finding> &Findings,
             std::vector<ToolError> &Errors) const;

  unsigned skippedBodies() const { return SkippedNames.size(); }

private:
  // The edit: [Start, OldEnd) of the old text became [Start, NewEnd).
  unsigned Start = 0, OldEnd = 0, NewEnd = 0;
  BodySpan Edited;                    // offsets in the old text
  std::vector<BodySpan> Others;       // the other functions, old text
  std::vector<unsigned> SkippedNames; // sorted, old text

  // An old offset outside the edit, in the new text.
  unsigned moved(unsigned Old) const {
    return Old < Start ? Old : Old - OldEnd + NewEnd;
  }
  // A new offset outside the edit, in the old text.
  unsigned original(unsigned New) const {
    return New < Start ? New : New - NewEnd + OldEnd;
  }
  // A function's own findings lie from its name to its closing brace.
  static bool holds(const BodySpan &B, unsigned OldOffset) {
    return B.Name <= OldOffset && OldOffset < B.End;
  }
  bool inOtherFunction(unsigned OldOffset) const;
};

} // namespace warplint
