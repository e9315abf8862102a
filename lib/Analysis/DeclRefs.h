// Which variables and fields a statement names, and which it may change: the
// object an lvalue expression designates (through &, *, [], . and ->), its
// mentions, its writes. Syntactic: what a statement spells, not what
// aliases may reach. Lambdas' bodies are left out: they run where the lambda
// is called, not where it is written.
#pragma once
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace warplint {

using DeclSet = llvm::SmallPtrSet<const clang::ValueDecl *, 4>;

// The variable or field E stands for, through &, *, [], ., -> and member
// calls (v.data()); a field of *this is the field. Null when E is computed
// otherwise (a call's result, arithmetic).
const clang::ValueDecl *baseDecl(const clang::Expr *E);

// Whether S names one of Decls (as a variable or as a member), outside the
// subtree Skip.
bool referencesAny(const clang::Stmt *S, const DeclSet &Decls,
                   const clang::Stmt *Skip = nullptr);

// Whether S changes D: assigns it, steps it, calls a non-const method on it,
// or takes its address (cudaMalloc(&buf, ...) writes buf).
bool writesTo(const clang::Stmt *S, const clang::ValueDecl *D);

// Every variable S changes, as writesTo judges one. EnterLambdas: also the
// writes in the bodies of lambdas written in S; BoundReferences: a local
// bound to a reference declared in S counts as written (the reference may
// write it later).
struct WriteScan {
  bool EnterLambdas = false;
  bool BoundReferences = false;
};
void collectWrites(const clang::Stmt *S, DeclSet &Out, WriteScan How = {});

} // namespace warplint
