// The byte offsets that the lanes of one warp touch, from an address's
// affine form and the kernel's block shape.
#include "Analysis/AffineIndex.h"
#include <numeric>

using namespace clang;

namespace warplint {

WarpPattern AffineAnalysis::pattern(const AffineForm &Off,
                                    const BlockShape &Shape) {
  WarpPattern P;
  if (!Off.Known)
    return P;
  if (Shape.pinned() && Shape.X > WarpSize && Shape.X % WarpSize != 0)
    return P; // warps straddle rows of the block: not modelled
  bool AlongX = !Shape.pinned() || Shape.X % WarpSize == 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    int64_t V[NumThreadTerms];
    if (AlongX) {
      V[TermTx] = L;
      V[TermTy] = 0;
      V[TermTz] = 0;
    } else {
      V[TermTx] = L % Shape.X;
      V[TermTy] = (L / Shape.X) % Shape.Y;
      V[TermTz] = L / (Shape.X * Shape.Y);
      if (V[TermTz] >= int64_t(Shape.Z))
        break; // a block smaller than a warp: the rest of the lanes are absent
    }
    V[TermLane] = L;
    int64_t Sum = 0, Key = 0;
    for (int T = 0; T < NumThreadTerms; ++T) {
      const Coef &C = Off.C[T];
      if (C.isZero())
        continue;
      bool Varies = AlongX ? (T == TermTx || T == TermLane) : true;
      if (C.Symbolic) {
        if (Varies && V[T] != 0) {
          P.SymbolicStride = true;
          P.SymbolName = C.Name;
          P.SymbolFactor = std::gcd(P.SymbolFactor, C.Factor);
        }
        Key = Key * int64_t(WarpSize + 1) + V[T];
        continue;
      }
      Sum += C.Value * V[T];
    }
    P.Offsets.push_back(Sum);
    P.Group.push_back(Key);
  }
  if (!Shape.pinned() && (!Off.C[TermTy].isZero() || !Off.C[TermTz].isZero()))
    P.DependsOnBlockShape = true;
  P.Known = true;
  P.Regular = P.Offsets.size() > 1;
  for (size_t I = 1; I < P.Offsets.size(); ++I)
    if (P.Offsets[I] - P.Offsets[I - 1] != P.Offsets[1] - P.Offsets[0])
      P.Regular = false;
  if (P.Regular)
    P.LaneStride = P.Offsets[1] - P.Offsets[0];
  return P;
}

WarpPattern restrictLanes(const WarpPattern &P, uint64_t Mask) {
  WarpPattern R = P;
  R.Offsets.clear();
  R.Group.clear();
  for (size_t L = 0; L < P.Offsets.size() && L < 64; ++L)
    if (Mask >> L & 1) {
      R.Offsets.push_back(P.Offsets[L]);
      R.Group.push_back(P.Group[L]);
    }
  R.Regular = R.Offsets.size() > 1;
  for (size_t I = 1; I < R.Offsets.size(); ++I)
    if (R.Offsets[I] - R.Offsets[I - 1] != R.Offsets[1] - R.Offsets[0])
      R.Regular = false;
  R.LaneStride = R.Regular ? R.Offsets[1] - R.Offsets[0] : 0;
  return R;
}

} // namespace warplint
