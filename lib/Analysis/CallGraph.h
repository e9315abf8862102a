// The calls of the user's code in one translation unit, both ways: the calls
// a function makes, and the calls that reach it, each with its call site.
// Built once per TU (CheckContext::callGraph()) by one RecursiveASTVisitor
// pass over the declarations outside the system headers; the checks query it
// instead of walking the TU for callers themselves.
//
// What counts, and why not clang::CallGraph: warplint's checks judge
// templates as written (FunctionCheck) and their instantiations, and a call
// written in a lambda runs where the lambda is called, which the checks
// treat as code of the function the lambda is written in. clang::CallGraph
// leaves templates as written out (a helper called only from a template
// kernel that the file never instantiates would have no caller), gives each
// lambda a node of its own, and walks every body of the CUDA headers. Here:
// - a call belongs to the innermost function whose declaration holds it
//   (its body, its parameters' default arguments, a constructor's member
//   initialisers); a call in a lambda's body belongs to the function the
//   lambda is written in, a call in a local class's method to that method;
// - templates as written and their instantiations are both callers;
// - declarations in system headers are not walked (their calls are not
//   recorded); calls from the user's code into them are;
// - every CallExpr is recorded (member, operator and kernel-launch calls
//   included), with its direct callee or null (through a pointer, or
//   dependent); constructions, new and destruction are not calls here.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace warplint {

struct CallSite {
  const clang::CallExpr *Call;
  const clang::FunctionDecl *Caller; // the function whose code holds Call
  const clang::FunctionDecl *Callee; // Call's direct callee, or null
};

class CallGraphView {
public:
  explicit CallGraphView(clang::ASTContext &Ctx);

  // The calls of F (of any of its declarations) in the user's code, in the
  // order the traversal met them.
  llvm::ArrayRef<CallSite> callers(const clang::FunctionDecl *F) const;
  // The calls F's code makes (see above for what belongs to F), in the
  // order the traversal met them.
  llvm::ArrayRef<CallSite> callees(const clang::FunctionDecl *F) const;
  // The function Call belongs to (see above); null when the traversal did
  // not meet it (a system header's code, a body it does not walk).
  const clang::FunctionDecl *callerOf(const clang::CallExpr *Call) const;

private:
  using Sites = llvm::SmallVector<CallSite, 2>;
  llvm::DenseMap<const clang::FunctionDecl *, Sites> ByCallee, ByCaller;
  llvm::DenseMap<const clang::CallExpr *, const clang::FunctionDecl *> ByCall;
};

} // namespace warplint
