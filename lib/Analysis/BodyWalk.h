// How a check visits a function body (or any statement under it): every
// statement in pre-order, children in the order clang lists them
// (Stmt::children(), which is their source order), with the same skips for
// every caller. The callback is a plain lambda; it may prune a subtree or
// stop the walk, and it may ask for the statements above the one it sees.
// The walk keeps its own stack, so an expression thousands of operators deep
// costs no native stack.
//
// Why Stmt::children() and not RecursiveASTVisitor: the visitor also walks
// the types written in the body (decltype and array-bound expressions), the
// declarations a DeclStmt holds (local classes' methods) and both forms of an
// initializer list, which the checks do not treat as the function's code.
//
// What is walked, and what not:
// - Declarations nested in the body are never entered: a DeclStmt's children
//   are its variables' initialisers (and variable-length array bounds), not
//   the bodies of local classes, their methods or blocks.
// - Lambdas (their captures' initialisers and body) are skipped unless
//   WalkOptions::EnterLambdas: a lambda is a function of its own, which a
//   FunctionCheck visits on its own (its call operator).
// - Unevaluated operands are entered: they never run, but a name written
//   there is still a use of the variable (a rewrite of the variable must see
//   sizeof(v)). A search for what the code does skips them:
//   WalkOptions::SkipSizeof for sizeof/alignof and the other traits of an
//   expression, WalkOptions::SkipTypeid for typeid. (noexcept(e) is entered
//   whatever the options: no caller has asked to skip it yet.)
// - Everything else clang lists as a child is entered, implicit nodes
//   included (casts, a range-for's hidden begin/end calls).
#pragma once
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <type_traits>

namespace warplint {

// What the walk does after the callback has seen a statement.
enum class WalkStep {
  Continue,     // on into its children
  SkipChildren, // on to its next sibling
  Stop,         // end the walk
};

struct WalkOptions {
  bool EnterLambdas = false;
  bool SkipSizeof = false;
  bool SkipTypeid = false;

  constexpr WalkOptions &enterLambdas() {
    EnterLambdas = true;
    return *this;
  }
  constexpr WalkOptions &skipSizeof() {
    SkipSizeof = true;
    return *this;
  }
  constexpr WalkOptions &skipTypeid() {
    SkipTypeid = true;
    return *this;
  }
};

// Whether the walk leaves S and everything under it out.
bool isSkipped(const clang::Stmt *S, const WalkOptions &Options);

namespace detail {
// The walk itself, for forEachStmt. Visit sees each statement with its
// ancestors (Root's first, the parent last).
bool walkStmts(const clang::Stmt *Root, const WalkOptions &Options,
               llvm::function_ref<WalkStep(const clang::Stmt *,
                                           llvm::ArrayRef<const clang::Stmt *>)>
                   Visit);
} // namespace detail

// Calls Fn on Root and every statement under it that the options do not
// skip, parents before children. Fn takes the statement, or the statement
// and its ancestors in this walk (outermost first, the parent last; empty
// for Root); it returns nothing (always Continue) or a WalkStep. Returns
// false when Fn stopped the walk.
template <typename Fn>
bool forEachStmt(const clang::Stmt *Root, const WalkOptions &Options,
                 Fn &&Visit) {
  using Parents = llvm::ArrayRef<const clang::Stmt *>;
  return detail::walkStmts(
      Root, Options, [&](const clang::Stmt *S, Parents Up) -> WalkStep {
        if constexpr (std::is_invocable_v<Fn &, const clang::Stmt *, Parents>) {
          if constexpr (std::is_void_v<std::invoke_result_t<
                            Fn &, const clang::Stmt *, Parents>>) {
            Visit(S, Up);
            return WalkStep::Continue;
          } else {
            return Visit(S, Up);
          }
        } else if constexpr (std::is_void_v<std::invoke_result_t<
                                 Fn &, const clang::Stmt *>>) {
          Visit(S);
          return WalkStep::Continue;
        } else {
          return Visit(S);
        }
      });
}

template <typename Fn> bool forEachStmt(const clang::Stmt *Root, Fn &&Visit) {
  return forEachStmt(Root, WalkOptions(), std::forward<Fn>(Visit));
}

// The first statement under Root (Root included), in the walk's order, for
// which Pred holds; null if none.
const clang::Stmt *findStmt(const clang::Stmt *Root, const WalkOptions &Options,
                            llvm::function_ref<bool(const clang::Stmt *)> Pred);

// Whether Target is Root or lies under it, as the walk sees it.
bool containsStmt(const clang::Stmt *Root, const clang::Stmt *Target,
                  const WalkOptions &Options = WalkOptions());

} // namespace warplint
