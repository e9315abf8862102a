// Which local variables of a function body keep the value they were
// initialised with. A reference to a local is a read when it is converted to
// an rvalue (directly or through a field: `v.x`), bound to a const reference
// or copied whole; any other use (assignment, ++/--, &v, binding to a
// non-const reference, passing as an lvalue) may write it. A local that is
// only read stands for its initialiser, as the compiler's SSA form sees it.
#pragma once
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace warplint {

class LocalWrites {
public:
  explicit LocalWrites(const clang::Stmt *Body);

  // A local of the body (not a parameter, not static) with an initialiser
  // and no use after its declaration that may write it.
  bool keepsInitialValue(const clang::VarDecl *V) const;
  // The references to V that may write it, in the order they appear.
  llvm::ArrayRef<const clang::DeclRefExpr *>
  writes(const clang::VarDecl *V) const;
  // Every variable declared in the body, in order.
  llvm::ArrayRef<const clang::VarDecl *> locals() const { return Locals; }

private:
  void walk(const clang::Stmt *S);

  // The statements from the body down to the one being walked.
  llvm::SmallVector<const clang::Stmt *, 16> Path;

  std::vector<const clang::VarDecl *> Locals;
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::DeclRefExpr *, 2>>
      Writes;
};

} // namespace warplint
