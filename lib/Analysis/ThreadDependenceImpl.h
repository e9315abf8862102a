// The pieces of the thread-dependence analysis that its files share
// (ThreadDependence.cpp: the lattice and expressions; ThreadGuards.cpp: what
// keeps threads from a statement; ThreadPart.cpp: uniformity by value;
// LocalValues.cpp: values kept in locals). Not for use outside them.
#pragma once
#include "Analysis/ThreadDependence.h"
#include "clang/AST/StmtCXX.h"

namespace warplint::detail {

// An assignment, `x = v` or `x += v`: built in, or, in a template as
// written, an operator call left unresolved (a definition all the same).
std::optional<BinaryForm> assignmentForm(const clang::Stmt *S);
// The operand of `++x`, `x--` (or, in a template as written, of the
// operator call left unresolved), or null.
const clang::Expr *incDecOperand(const clang::Stmt *S);
// The CUDA built-in variables, recognised by their declared types.
std::optional<Dependence> builtinVar(const clang::VarDecl *V);
// Functions without a visible body whose result differs per thread, or that
// are warp-uniform by definition (votes).
std::optional<Dependence> knownCallee(llvm::StringRef Name);
// A local (not __shared__, not static) variable or parameter E names.
const clang::VarDecl *localVar(const clang::Expr *E,
                               const clang::FunctionDecl *F);
// The local array or struct that an element or field lvalue lies in.
const clang::VarDecl *
localAggregate(const clang::Expr *E, const clang::FunctionDecl *F,
               llvm::SmallVectorImpl<const clang::Expr *> &Indices);

inline bool isLoop(const clang::Stmt *S) {
  return clang::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                    clang::CXXForRangeStmt>(S);
}

// Whether Exit can leave, or skip the rest of an iteration of, Loop: a
// break or continue only acts on its innermost loop (a break in a switch on
// the switch); a return or goto on every loop around it.
template <typename ParentFn>
bool exitsLoop(const clang::Stmt *Exit, const clang::Stmt *Loop,
               ParentFn Parent) {
  bool IsBreak = clang::isa<clang::BreakStmt>(Exit),
       IsContinue = clang::isa<clang::ContinueStmt>(Exit);
  for (const clang::Stmt *P = Parent(Exit); P; P = Parent(P)) {
    if (P == Loop)
      return true;
    if ((IsBreak || IsContinue) && isLoop(P))
      return false;
    if (IsBreak && clang::isa<clang::SwitchStmt>(P))
      return false;
  }
  return false;
}

} // namespace warplint::detail
