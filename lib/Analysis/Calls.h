// What one call names, as the checks resolve it by hand (the call graph,
// Analysis/CallGraph.h, holds who calls whom).
#pragma once
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace warplint {

// The name of the global function Call names: its callee's when that is a
// function of the global namespace, or in a template the unqualified name
// it looks up; "" otherwise.
llvm::StringRef globalCalleeName(const clang::CallExpr *Call);

// The argument at Index as written, or the default argument it takes; null
// when Index is out of range (a negative Index included).
const clang::Expr *callArgument(const clang::CallExpr *Call, int Index);

// The integer E holds when ValueOf folds it, or when E names an integer local
// of Body that every write assigns the same folded value (its initialiser
// included): `bytes = sizeof(float) * 1; cudaMemcpy(&x, d, bytes, ...)`.
// Nothing when any write is something else (+=, &bytes, a call's result) or
// two writes disagree.
std::optional<uint64_t> constantThroughLocals(
    const clang::Expr *E, const clang::Stmt *Body,
    llvm::function_ref<std::optional<uint64_t>(const clang::Expr *)> ValueOf);

} // namespace warplint
