// The abstract values of the affine thread-index analysis (AffineIndex.h):
// Const + Σ coef_t · t over the thread terms, with coefficients that are
// integers or uniform values known only at run time.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace clang {
class VarDecl;
} // namespace clang

namespace warplint {

enum ThreadTerm { TermTx = 0, TermTy, TermTz, TermLane, NumThreadTerms };

// A coefficient: an integer, or a uniform value known only at run time.
struct Coef {
  int64_t Value = 0;
  bool Symbolic = false;
  std::string Name; // how the symbolic value is written, for messages
  // A symbolic coefficient is a multiple of this (2 * s: 2), as far as the
  // analysis can tell.
  int64_t Factor = 1;

  bool isZero() const { return !Symbolic && Value == 0; }
  bool operator==(const Coef &O) const {
    return Symbolic == O.Symbolic &&
           (Symbolic ? Name == O.Name : Value == O.Value);
  }
};

struct AffineForm {
  bool Known = false;
  std::array<Coef, NumThreadTerms> C{};
  int64_t Const = 0;
  bool HasUniform = false; // plus an opaque uniform value
  // With Known false: the value is local Walk plus a known form, where Walk
  // starts at a value loaded per lane (j = row_ptr[row]) and steps by a
  // uniform amount (j++): each lane walks its own range, with an unknown
  // spacing between the lanes.
  const clang::VarDecl *Walk = nullptr;

  static AffineForm unknown() { return {}; }
  static AffineForm walk(const clang::VarDecl *V);
  static AffineForm constant(int64_t V);
  static AffineForm uniform(); // some uniform value
  static AffineForm term(ThreadTerm T);

  bool isLaneUniform() const; // no thread term
  bool sameThreadPart(const AffineForm &O) const;
  std::string str() const; // for --dump-analysis and tests
};

} // namespace warplint
