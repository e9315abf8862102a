// What one call names, as the checks resolve it by hand (the call graph,
// Analysis/CallGraph.h, holds who calls whom).
#pragma once
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

namespace warplint {

// The name of the global function Call names: its callee's when that is a
// function of the global namespace, or in a template the unqualified name
// it looks up; "" otherwise.
llvm::StringRef globalCalleeName(const clang::CallExpr *Call);

// The argument at Index as written, or the default argument it takes; null
// when Index is out of range (a negative Index included).
const clang::Expr *callArgument(const clang::CallExpr *Call, int Index);

} // namespace warplint
