// The shape of a loop as written: whether a statement is a loop, which
// variables it steps, how many times it runs when constants say so, and
// which ifs inside it run their branch only once in a while. Syntactic, in
// the common spellings; anything else is "unknown" (no count, not once).
#pragma once
#include "Analysis/DeclRefs.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/OperationKinds.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace warplint {

// The counter a for loop declares or assigns in its init (`for (int i =
// s; ...)`, `for (i = s; ...)`) and its start value; nothing for any other
// init.
struct ForCounter {
  const clang::VarDecl *Var;
  const clang::Expr *Start;
};
std::optional<ForCounter> forCounter(const clang::ForStmt *For);

// for, while, do and range-for.
bool isLoop(const clang::Stmt *S);

// The body of a for, while, do or range-for, or null.
const clang::Stmt *loopBody(const clang::Stmt *S);

// do { ... } while (0): a macro's statement braces, not a loop.
bool runsBodyOnce(const clang::DoStmt *Do, const clang::ASTContext &Ctx);

// The variables a loop steps each iteration: a for loop's own counters, and
// the variables its body steps outside nested loops (while (...) { ...;
// ++iter; }).
DeclSet loopCounters(const clang::Stmt *Loop);

// Whether the value of E may change from one iteration of Loop to the next:
// it reads a variable Loop steps or writes (its counters, an accumulator, an
// array its body stores to), or a local declared inside Loop whose
// initialiser or later writes do. `tid % (2 * s)` in `for (s = 1; ...; s *=
// 2)` varies, `ixj > col` with `int ixj = col ^ j;` in the j loop varies,
// `tid < K` with K a parameter does not.
bool variesWithLoop(const clang::Expr *E, const clang::Stmt *Loop);

// Whether the then-branch of If runs once, or once in a while, however often
// Loop (null: none) runs around it: it changes what its condition reads
// (if (!buf) cudaMalloc(&buf, n); if (n > cap) { ...; cap = n; }), or
// compares the loop's counter (if (iter == 0), if (step % 100 == 0)).
bool runsOnceInLoop(const clang::IfStmt *If, const clang::Stmt *Loop);

// The number of iterations of `for (i = A; i < B; ++i / i += S)` (also <=
// and !=) or of a range-for over an array or a braced list, when ValueOf
// folds A, B and S to constants; nothing otherwise.
std::optional<uint64_t> constantTripCount(
    const clang::Stmt *Loop, const clang::ASTContext &Ctx,
    llvm::function_ref<std::optional<uint64_t>(const clang::Expr *)> ValueOf);

// The operands of a chain of one binary operator (a && b && c: a, b, c;
// x * y * z: x, y, z), in order, each with parentheses and implicit casts
// stripped; E itself when it is not such an operation.
void chainOperands(const clang::Expr *E, clang::BinaryOperatorKind Op,
                   llvm::SmallVectorImpl<const clang::Expr *> &Out);
// The conjuncts of a && chain.
inline void conjuncts(const clang::Expr *E,
                      llvm::SmallVectorImpl<const clang::Expr *> &Out) {
  chainOperands(E, clang::BO_LAnd, Out);
}

// Whether Loop runs a logarithmic number of times: a variable its condition
// reads is scaled each iteration (n /= 2, size *= 2, s >>= 1,
// n = (n + 255) / 256, or grown by a share of itself, n += n / 20) and none
// is stepped by addition (++i, i += k). Such a loop runs a logarithm of a
// size times: tens of passes for a halving or doubling (mipmap levels,
// reduction passes), a few hundred for a sweep over problem sizes that grows
// by a few percent.
bool isGeometric(const clang::Stmt *Loop);

// Whether Loop is a for loop whose body never names the counters it steps:
// each iteration repeats the same work (a benchmark's repetitions).
bool repeatsSameWork(const clang::Stmt *Loop);

// Whether Loop, a statement of Body, sits between two marks in its block:
// walking back from it, a statement for which IsMark holds comes before any
// other loop, and walking forward too (timer start; loop; timer stop).
bool bracketedBy(const clang::Stmt *Body, const clang::Stmt *Loop,
                 llvm::function_ref<bool(const clang::Stmt *)> IsMark);

} // namespace warplint
