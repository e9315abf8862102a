// The algebra of affine forms (AffineForm.h): sums, scaling by a constant or
// by a run-time uniform value, and the text --dump-analysis prints.
#include "Analysis/AffineForm.h"
#include "Analysis/AffineInternal.h"
#include <cstdlib>
#include <numeric>

using namespace clang;

namespace warplint {

// ------------------------------------------------------------ coefficients

static int64_t knownFactor(const Coef &C) {
  return C.Symbolic ? C.Factor : C.Value;
}

static Coef symbolic(std::string Name, int64_t Factor) {
  Coef C;
  C.Symbolic = true;
  C.Name = std::move(Name);
  C.Factor = Factor == 0 ? 1 : std::llabs(Factor);
  return C;
}

static Coef coefAdd(const Coef &A, const Coef &B) {
  if (A.isZero())
    return B;
  if (B.isZero())
    return A;
  if (!A.Symbolic && !B.Symbolic) {
    Coef C;
    C.Value = A.Value + B.Value;
    return C;
  }
  return symbolic((A.Symbolic ? A.Name : std::to_string(A.Value)) + " + " +
                      (B.Symbolic ? B.Name : std::to_string(B.Value)),
                  std::gcd(knownFactor(A), knownFactor(B)));
}

// A symbolic coefficient's text as a factor of a product: a sum in
// parentheses, so that (nx + 2) * 8 does not read as nx + 16.
static std::string factorText(const std::string &Name) {
  for (size_t I = 0; I < Name.size(); ++I)
    if (Name[I] == '+' || Name[I] == '?' ||
        (Name[I] == '-' && (I + 1 == Name.size() || Name[I + 1] != '>')))
      return "(" + Name + ")";
  return Name;
}

static Coef coefScale(const Coef &A, int64_t K) {
  if (K == 0 || A.isZero())
    return {};
  if (!A.Symbolic) {
    Coef C;
    C.Value = A.Value * K;
    return C;
  }
  if (K == 1)
    return A;
  return symbolic(factorText(A.Name) + " * " + std::to_string(K), A.Factor * K);
}

static Coef coefTimesSymbol(const Coef &A, const std::string &Name) {
  if (A.isZero())
    return {};
  if (!A.Symbolic && A.Value == 1)
    return symbolic(Name, 1);
  return symbolic((A.Symbolic ? factorText(A.Name) : std::to_string(A.Value)) +
                      " * " + factorText(Name),
                  knownFactor(A));
}

// ------------------------------------------------------------ forms

AffineForm AffineForm::constant(int64_t V) {
  AffineForm F;
  F.Known = true;
  F.Const = V;
  return F;
}
AffineForm AffineForm::walk(const VarDecl *V) {
  AffineForm F;
  F.Walk = V;
  return F;
}
AffineForm AffineForm::uniform() {
  AffineForm F;
  F.Known = true;
  F.HasUniform = true;
  return F;
}
AffineForm AffineForm::term(ThreadTerm T) {
  AffineForm F;
  F.Known = true;
  F.C[T].Value = 1;
  return F;
}

bool AffineForm::isLaneUniform() const {
  for (const Coef &Co : C)
    if (!Co.isZero())
      return false;
  return true;
}

bool AffineForm::sameThreadPart(const AffineForm &O) const {
  return Known && O.Known && C == O.C;
}

std::string AffineForm::str() const {
  if (!Known)
    return "unknown";
  static const char *Names[] = {"tid.x", "tid.y", "tid.z", "lane"};
  std::string Out;
  for (int T = 0; T < NumThreadTerms; ++T) {
    if (C[T].isZero())
      continue;
    if (!Out.empty())
      Out += " + ";
    Out +=
        (C[T].Symbolic ? "(" + C[T].Name + ")" : std::to_string(C[T].Value)) +
        "*" + Names[T];
  }
  if (Const || Out.empty()) {
    if (!Out.empty())
      Out += " + ";
    Out += std::to_string(Const);
  }
  if (HasUniform)
    Out += " + uniform";
  return Out;
}

AffineForm add(const AffineForm &A, const AffineForm &B) {
  // A per-lane walk plus anything known is still that walk.
  if (A.Walk && B.Known)
    return A;
  if (B.Walk && A.Known)
    return B;
  if (!A.Known || !B.Known)
    return AffineForm::unknown();
  AffineForm R;
  R.Known = true;
  for (int T = 0; T < NumThreadTerms; ++T)
    R.C[T] = coefAdd(A.C[T], B.C[T]);
  R.Const = A.Const + B.Const;
  R.HasUniform = A.HasUniform || B.HasUniform;
  return R;
}

AffineForm scale(const AffineForm &A, int64_t K) {
  if (!A.Known)
    return A;
  AffineForm R = A;
  for (Coef &Co : R.C)
    Co = coefScale(Co, K);
  R.Const = A.Const * K;
  R.HasUniform = K != 0 && A.HasUniform;
  return R;
}

// A thread-dependent form times a uniform value known only at run time.
AffineForm scaleBySymbol(const AffineForm &A, const std::string &Name) {
  AffineForm R = A;
  for (Coef &Co : R.C)
    Co = coefTimesSymbol(Co, Name);
  R.Const = 0;
  R.HasUniform = true;
  return R;
}

bool isExactly(const AffineForm &F, ThreadTerm T) {
  if (!F.Known || F.Const != 0 || F.HasUniform)
    return false;
  for (int I = 0; I < NumThreadTerms; ++I)
    if (F.C[I].Symbolic || F.C[I].Value != (I == T ? 1 : 0))
      return false;
  return true;
}

} // namespace warplint
