// The device module in pieces, each a copy of some kernels and all they
// reach, in a context of its own. The IR layer's analyses work on one piece
// at a time and drop it: what -O3 or the barrier analysis's inlining makes
// of a file of many kernels (a template instantiated for every block size,
// each unrolled) is never held at once beside the module, and the module
// the AST layer generated stays as it was.
//
// A piece keeps together the functions whose optimisation could depend on
// each other's: those that reach the same internal variable (IPSCCP follows
// its stores) or the same internal function that is not surely inlined at
// every call (the inliner's bonus for the last call of a static function,
// IPSCCP's constant arguments), and all of them when a variable's
// initializer refers to a function (a table of function pointers, a
// vtable). What each function becomes in its piece is then what it becomes
// in the whole module. A function several pieces reach (a template helper)
// is copied into each, and becomes the same in each.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstddef>
#include <memory>
#include <vector>

namespace llvm {
class Function;
class LLVMContext;
class Module;
} // namespace llvm

namespace warplint::ir {

struct Piece {
  // The defined functions to copy; every other function is declared.
  llvm::DenseSet<const llvm::Function *> Functions;
  bool contains(const llvm::Function *F) const { return Functions.count(F); }
};

// M's pieces, every defined function in at least one. Groups that must stay
// together are packed into a piece until it holds about Instructions
// instructions: small enough that one piece's -O3 stays a few MiB, large
// enough that copying the module's declarations for each costs little.
std::vector<Piece> pieces(const llvm::Module &M, size_t Instructions = 2000);

// Roots and every defined function they reach (directly, through constant
// expressions, or through the initializers of the variables they use).
Piece reachedFrom(const llvm::Module &M,
                  llvm::ArrayRef<const llvm::Function *> Roots);

// A copy of P's part of Src in Ctx; null if it could not be made.
std::unique_ptr<llvm::Module> copyInto(const llvm::Module &Src, const Piece &P,
                                       llvm::LLVMContext &Ctx);

// M's pieces, copied as often as the IR layer's analyses ask (the optimised
// view of each target, the barrier analysis): a piece's bitcode, written
// the first time it is copied, serves every later copy, so that each piece
// is cloned out of M once. M must not change while this lives.
class PieceCopies {
public:
  // Instructions: as for pieces().
  explicit PieceCopies(const llvm::Module &M, size_t Instructions = 2000);
  // Calls Work on a copy of each piece in turn, each copy in a context of
  // its own that is dropped after it; with Wanted, only of the pieces it
  // accepts (the others are not copied).
  void forEach(llvm::function_ref<void(llvm::Module &)> Work,
               llvm::function_ref<bool(const Piece &)> Wanted = nullptr);
  // The pieces, and Work on a copy of the I-th.
  size_t size() const { return All.size(); }
  const Piece &piece(size_t I) const { return All[I]; }
  void copy(size_t I, llvm::function_ref<void(llvm::Module &)> Work);

private:
  const llvm::Module &M;
  std::vector<Piece> All;
  std::vector<llvm::SmallVector<char, 0>> Bitcode; // empty: not yet written
};

// Calls Work on a copy of each piece of M in turn, each copy in a context of
// its own that is dropped after it; with Wanted, only of the pieces it
// accepts (the others are not copied).
void forEachPiece(const llvm::Module &M,
                  llvm::function_ref<void(llvm::Module &)> Work,
                  llvm::function_ref<bool(const Piece &)> Wanted = nullptr);

} // namespace warplint::ir
