#include "checks/memory/KernelTraffic.h"
#include "Analysis/BodyWalk.h"
#include "Analysis/DeclRefs.h"
#include "Analysis/Loops.h"
#include "checks/memory/OptimisedView.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace warplint::memory {

namespace {

int64_t floorDiv(int64_t A, int64_t B) {
  return A >= 0 ? A / B : -((-A + B - 1) / B);
}

// Whether Child, a direct child of Loop, is evaluated every round (the
// body, the condition, the increment), not once (a for's init).
bool runsEachRound(const Stmt *Loop, const Stmt *Child) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return Child != For->getInit();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop))
    return Child == Range->getBody();
  return true;
}

} // namespace

unsigned Traffic::efficiencyPct(unsigned Sector) const {
  if (!Sectors)
    return 100;
  return unsigned(
      std::lround(100.0 * UsefulBytes / (double(Sectors) * Sector)));
}

Traffic warpTraffic(llvm::ArrayRef<LaneRanges> Accesses, unsigned Sector,
                    unsigned Line) {
  // Per group of lanes a run-time distance apart: the sectors, lines and
  // byte ranges of every access's lanes in it.
  struct Group {
    std::set<int64_t> Sectors, Lines;
    std::vector<std::pair<int64_t, int64_t>> Ranges;
  };
  std::map<int64_t, Group> Groups;
  int64_t Lowest = INT64_MAX;
  for (const LaneRanges &A : Accesses)
    for (int64_t O : A.Pattern->Offsets)
      Lowest = std::min(Lowest, O + A.Shift);
  // The warp's lowest address is taken as line-aligned (cudaMalloc's
  // alignment, times a block offset): a constant misalignment is not this
  // model's business. The lowest, not lane 0's: in a descending walk
  // (in[n - i]) lane 0 has the highest address.
  for (const LaneRanges &A : Accesses)
    for (size_t L = 0; L < A.Pattern->Offsets.size(); ++L) {
      Group &G = Groups[A.Pattern->Group[L]];
      int64_t O = A.Pattern->Offsets[L] + A.Shift - Lowest;
      int64_t E = O + A.Size - 1;
      for (int64_t S = floorDiv(O, Sector); S <= floorDiv(E, Sector); ++S)
        G.Sectors.insert(S);
      for (int64_t Ln = floorDiv(O, Line); Ln <= floorDiv(E, Line); ++Ln)
        G.Lines.insert(Ln);
      G.Ranges.push_back({O, O + A.Size});
    }
  Traffic T;
  for (auto &[Key, G] : Groups) {
    T.Sectors += G.Sectors.size();
    T.Lines += G.Lines.size();
    llvm::sort(G.Ranges);
    int64_t Useful = 0, End = INT64_MIN;
    for (auto [B, E] : G.Ranges) {
      B = std::max(B, End);
      if (E > B)
        Useful += E - B;
      End = std::max(End, E);
    }
    T.UsefulBytes += unsigned(Useful);
  }
  T.Needed = (T.UsefulBytes + Sector - 1) / Sector;
  return T;
}

llvm::ArrayRef<const Stmt *> TrafficModel::loopsAround(const Stmt *S,
                                                       const FunctionDecl *F) {
  auto [It, New] = Loops.try_emplace(F);
  if (New && F && F->hasBody())
    forEachStmt(F->getBody(),
                [&](const Stmt *X, llvm::ArrayRef<const Stmt *> Up) {
                  llvm::SmallVector<const Stmt *, 4> Around;
                  for (size_t I = 0; I < Up.size(); ++I) {
                    const Stmt *Child = I + 1 < Up.size() ? Up[I + 1] : X;
                    if (isLoop(Up[I]) && runsEachRound(Up[I], Child))
                      Around.push_back(Up[I]);
                  }
                  if (!Around.empty())
                    It->second[X] = std::move(Around);
                });
  auto Found = It->second.find(S);
  if (Found == It->second.end())
    return {};
  return Found->second;
}

namespace {

// `v < B`, `v <= B`, `B > v`: the local v and its bound B.
std::optional<std::pair<const VarDecl *, const Expr *>>
upperBound(const Expr *C) {
  const auto *B = dyn_cast<BinaryOperator>(C->IgnoreParenImpCasts());
  if (!B)
    return std::nullopt;
  const Expr *L = B->getLHS(), *R = B->getRHS();
  if (B->getOpcode() == BO_GT || B->getOpcode() == BO_GE)
    std::swap(L, R);
  else if (B->getOpcode() != BO_LT && B->getOpcode() != BO_LE)
    return std::nullopt;
  const auto *Ref = dyn_cast<DeclRefExpr>(L->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V)
    return std::nullopt;
  return std::make_pair(V, R->IgnoreParenImpCasts());
}

bool sameValue(const Expr *A, const Expr *B, const ASTContext &AST) {
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, AST, /*Canonical=*/true);
  B->Profile(IB, AST, /*Canonical=*/true);
  return IA == IB;
}

// The condition that holds where Child of S runs: a for or while loop's
// in its body and increment, an if's in its then-branch; null otherwise.
const Expr *holdingCondition(const Stmt *S, const Stmt *Child) {
  if (const auto *For = dyn_cast<ForStmt>(S))
    return Child == For->getBody() || Child == For->getInc() ? For->getCond()
                                                             : nullptr;
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return Child == W->getBody() ? W->getCond() : nullptr;
  if (const auto *If = dyn_cast<IfStmt>(S))
    return Child == If->getThen() ? If->getCond() : nullptr;
  return nullptr;
}

} // namespace

const TrafficModel::GuardShare &
TrafficModel::guardAround(const Stmt *S, const FunctionDecl *F) {
  static const GuardShare None;
  auto [It, New] = Guards.try_emplace(F);
  if (New && F && F->hasBody()) {
    const ASTContext &AST = Ctx.astContext();
    AffineAnalysis &AA = Ctx.affine();
    // Each if's then-branch share, against the conditions around the if.
    llvm::DenseMap<const IfStmt *, GuardShare> Then;
    forEachStmt(F->getBody(), [&](const Stmt *X,
                                  llvm::ArrayRef<const Stmt *> Up) {
      auto Child = [&](size_t I) { return I + 1 < Up.size() ? Up[I + 1] : X; };
      if (const auto *If = dyn_cast<IfStmt>(X)) {
        llvm::SmallVector<const Expr *, 4> Mine;
        conjuncts(If->getCond(), Mine);
        // Each conjunct bounds how many of v's values pass; the tightest
        // range around the if (the largest share) is the one that holds,
        // and any other condition on v around it (a bound not written as
        // such a product, a lower bound) leaves the share unknown.
        GuardShare Best;
        for (const Expr *C : Mine) {
          auto Bound = upperBound(C);
          if (!Bound)
            continue;
          DeclSet V;
          V.insert(Bound->first);
          GuardShare Widest{0, ""};
          bool Unknown = false;
          for (size_t I = 0; I < Up.size() && !Unknown; ++I) {
            const Expr *Outer = holdingCondition(Up[I], Child(I));
            if (!Outer)
              continue;
            llvm::SmallVector<const Expr *, 4> Theirs;
            conjuncts(Outer, Theirs);
            for (const Expr *O : Theirs) {
              if (!referencesAny(O, V))
                continue;
              auto Wide = upperBound(O);
              llvm::SmallVector<const Expr *, 4> Fs;
              if (Wide && Wide->first == Bound->first)
                chainOperands(Wide->second, BO_Mul, Fs);
              const Expr *Same = nullptr;
              for (const Expr *Fa : Fs)
                if (!Same && sameValue(Fa, Bound->second, AST))
                  Same = Fa;
              if (!Same || Fs.size() < 2) {
                Unknown = true;
                break;
              }
              double Share = 1;
              for (const Expr *Fa : Fs)
                if (Fa != Same) {
                  std::optional<uint64_t> N = AA.literalValueOf(Fa);
                  Share /= N ? double(std::max<uint64_t>(*N, 1))
                             : double(AssumedTrips);
                }
              if (Share > Widest.Share)
                Widest = {Share,
                          "it runs only where '" + Ctx.sourceText(C) +
                              "', 1 in " +
                              std::to_string(uint64_t(std::lround(1 / Share))) +
                              " of the values '" + Ctx.sourceText(O) +
                              "' lets through"};
            }
          }
          if (!Unknown && Widest.Share > 0 && Widest.Share < Best.Share)
            Best = std::move(Widest);
        }
        if (Best.Share < 1)
          Then[If] = std::move(Best);
      }
      if (Then.empty())
        return;
      GuardShare Mine;
      for (size_t I = 0; I < Up.size(); ++I)
        if (const auto *If = dyn_cast<IfStmt>(Up[I]);
            If && Child(I) == If->getThen())
          if (auto G = Then.find(If); G != Then.end()) {
            Mine.Share *= G->second.Share;
            if (Mine.Text.empty())
              Mine.Text = G->second.Text;
          }
      if (Mine.Share < 1)
        It->second[X] = std::move(Mine);
    });
  }
  auto Found = It->second.find(S);
  return Found == It->second.end() ? None : Found->second;
}

Runs TrafficModel::runs(const Stmt *S, const FunctionDecl *F,
                        llvm::ArrayRef<CallLink> Chain) {
  Runs R;
  ASTContext &AST = Ctx.astContext();
  AffineAnalysis &AA = Ctx.affine();
  auto ValueOf = [&](const Expr *E) { return AA.literalValueOf(E); };
  auto Within = [&](const Stmt *At, const FunctionDecl *In) {
    for (const Stmt *L : loopsAround(At, In)) {
      LoopTrips T = loopTrips(L, AST, ValueOf);
      R.UnknownLoops += T.Assumed;
      R.Times *= T.Times;
    }
  };
  auto Guarded = [&](const Stmt *At, const FunctionDecl *In) {
    const GuardShare &G = guardAround(At, In);
    R.Times *= G.Share;
    if (R.Guard.empty())
      R.Guard = G.Text;
  };
  Within(S, F);
  Guarded(S, F);
  for (const CallLink &Link : llvm::reverse(Chain)) {
    Within(Link.Call, Link.Caller);
    Guarded(Link.Call, Link.Caller);
  }
  return R;
}

// The N of an N-way conflict: the most distinct bank-width words one bank
// must serve in one pass. A warp's request is served in passes of
// banks × width bytes (a 64-bit access by 16 lanes at a time, a 128-bit one
// by 8); the same word read by several lanes is a broadcast, not a conflict.
unsigned bankConflictWays(const std::vector<int64_t> &Offsets, unsigned Size,
                          unsigned Banks, unsigned Width) {
  unsigned PassBytes = Banks * Width;
  size_t LanesPerPass =
      Size >= PassBytes
          ? 1
          : std::max<size_t>(1, PassBytes / std::max(Size, Width));
  unsigned Ways = 1;
  for (size_t First = 0; First < Offsets.size(); First += LanesPerPass) {
    std::map<int64_t, std::set<int64_t>> WordsPerBank;
    for (size_t L = First; L < std::min(Offsets.size(), First + LanesPerPass);
         ++L) {
      int64_t FirstWord = Offsets[L] >= 0
                              ? Offsets[L] / Width
                              : -((-Offsets[L] + Width - 1) / Width);
      int64_t LastWord =
          (Offsets[L] + Size - 1) >= 0
              ? (Offsets[L] + Size - 1) / Width
              : -((-(Offsets[L] + Size - 1) + Width - 1) / Width);
      for (int64_t W = FirstWord; W <= LastWord; ++W)
        WordsPerBank[((W % Banks) + Banks) % Banks].insert(W);
    }
    for (auto &[Bank, Words] : WordsPerBank)
      Ways = std::max<unsigned>(Ways, unsigned(Words.size()));
  }
  return Ways;
}

const TrafficModel::KernelSectors &TrafficModel::kernel(const FunctionDecl *K) {
  auto [It, New] = Kernels.try_emplace(K);
  if (!New)
    return It->second;
  AffineAnalysis &AA = Ctx.affine();
  const ArchInfo &Target = *Ctx.arch();
  BlockShape Shape = AA.blockShape(K);
  KernelSectors Sum;
  auto Add = [&](const MemoryAccess &A, const FunctionDecl *In,
                 llvm::ArrayRef<CallLink> Chain) {
    if (A.Addr.Space == MemorySpace::Shared) {
      // Passes of banks × width bytes, each as many wavefronts as its
      // worst bank has words; an unknown address as conflict-free.
      const unsigned Banks = Target.shared_memory_banks;
      const unsigned Width = Target.shared_memory_bank_width;
      double Lanes = Target.warp_size, Ways = 1;
      if (A.Addr.Known) {
        WarpPattern P = AA.pattern(A.Addr.Offset, Shape);
        if (P.Known && !P.SymbolicStride && !P.Offsets.empty()) {
          Lanes = double(P.Offsets.size());
          Ways = bankConflictWays(P.Offsets, A.Size, Banks, Width);
        }
      }
      double Passes = std::max(
          1.0, std::ceil(Lanes * std::max(A.Size, Width) / (Banks * Width)));
      Sum.SharedWavefronts += runs(A.E, In, Chain).Times * Passes * Ways;
      return;
    }
    if (A.Addr.Space != MemorySpace::Global)
      return;
    // What the optimised code moves: nothing for an access it removed or
    // merged into another, the merged width for the first of a merge.
    OptimisedView View = optimisedView(Ctx, A);
    if (View.hidden())
      return;
    unsigned Size = View.bytes(A);
    // An address the analysis does not know is counted as coalesced: the
    // share of the others is then, if anything, too small.
    double Sectors = std::max(1u, Size);
    if (A.Addr.Known) {
      WarpPattern P = AA.pattern(A.Addr.Offset, Shape);
      if (P.Known && !P.Offsets.empty()) {
        LaneRanges One{&P, 0, Size};
        Sectors = warpTraffic(One, Target.global_sector_bytes,
                              Target.global_line_bytes)
                      .Sectors;
        // Siblings move their union once: counted at the first of them.
        if (View.K == OptimisedView::AsWritten) {
          SiblingGroup G = siblings(A, P, In, Chain);
          if (G.Members.size() > 1) {
            if (G.Members.front().E != A.E)
              return;
            // The loop's rounds are in the group: it moves that once.
            Sectors = G.Together.Sectors / double(std::max(1u, G.Rounds));
          }
        }
      }
    }
    Runs R = runs(A.E, In, Chain);
    Sum.UnknownLoops |= R.UnknownLoops > 0;
    Sum.Sectors += R.Times * Sectors;
  };
  for (const MemoryAccess &A : accessesOf(K))
    Add(A, K, {});
  for (const ReachedAccess &RA : AA.reachedAccesses(K))
    if (!RA.Chain.empty())
      Add(RA.Access, RA.Chain.back().Callee, RA.Chain);
  // Add grew other maps, never Kernels: It still points at K's entry.
  It->second = Sum;
  return It->second;
}

const std::vector<MemoryAccess> &
TrafficModel::accessesOf(const FunctionDecl *F) {
  auto [It, New] = Accesses.try_emplace(F);
  if (New)
    It->second = Ctx.affine().everyAccess(F);
  return It->second;
}

const std::string &TrafficModel::signatureOf(const Expr *E) {
  auto [It, New] = Signatures.try_emplace(E);
  if (New)
    It->second = addressSignature(E, Ctx.astContext());
  return It->second;
}

CostShare TrafficModel::share(const Stmt *S, const FunctionDecl *F,
                              llvm::ArrayRef<CallLink> Chain, double Sectors,
                              double Needed) {
  CostShare C;
  const FunctionDecl *K = Chain.empty() ? F : Chain.front().Caller;
  C.R = runs(S, F, Chain);
  const KernelSectors &KS = kernel(K);
  C.KernelHasUnknownLoops = KS.UnknownLoops;
  double Mine = C.R.Times * Sectors;
  double Total = std::max(KS.Sectors, Mine);
  if (Total <= 0)
    return C;
  C.AccessPct = std::min(100.0, 100.0 * Mine / Total);
  C.SavingPct = std::min(100.0, 100.0 * C.R.Times * (Sectors - Needed) / Total);
  C.SavingPct = std::max(0.0, C.SavingPct);
  return C;
}

std::string smallLaunchReason(CheckContext &Ctx, const FunctionDecl *F,
                              llvm::ArrayRef<CallLink> Chain) {
  const FunctionDecl *K = Chain.empty() ? F : Chain.front().Caller;
  if (!K || !K->hasAttr<CUDAGlobalAttr>())
    return "";
  AffineAnalysis &AA = Ctx.affine();
  std::optional<AffineAnalysis::LaunchGrids> G = AA.launchGrids(K);
  const ArchInfo &Target = *Ctx.arch();
  // A kernel no launch of this file names may well be launched from
  // another file (through a declaration): judged as written.
  if (!G)
    return "";
  // Fewer warps in the whole grid than the GPU has SMs: not one warp an
  // SM. (32 blocks of 256 threads, each streaming a row, do load it: the
  // fix saved 76% of that kernel's time on an H100.)
  BlockShape Shape = AA.blockShape(K);
  if (!G->AllConstant || !G->MaxBlocks || !Target.sm_count || !Shape.X ||
      Shape.RuntimeZ)
    return "";
  uint64_t Threads = uint64_t(Shape.X) * Shape.Y * Shape.Z;
  uint64_t Warps =
      *G->MaxBlocks * ((Threads + Target.warp_size - 1) / Target.warp_size);
  if (Warps >= Target.sm_count)
    return "";
  return "; every launch of '" + K->getNameAsString() + "' runs at most " +
         std::to_string(Warps) + " warp" + (Warps == 1 ? "" : "s") +
         ", fewer than the " + std::to_string(Target.sm_count) + " SMs of " +
         Target.Name +
         ": latency, not memory bandwidth, bounds it, so this is a note";
}

CostShare TrafficModel::sharedShare(const Stmt *S, const FunctionDecl *F,
                                    llvm::ArrayRef<CallLink> Chain,
                                    double Extra, bool InTally) {
  CostShare C;
  const FunctionDecl *K = Chain.empty() ? F : Chain.front().Caller;
  C.R = runs(S, F, Chain);
  const KernelSectors &KS = kernel(K);
  C.KernelHasUnknownLoops = KS.UnknownLoops;
  double Mine = C.R.Times * Extra;
  double Total = KS.SharedWavefronts + SectorWavefronts * KS.Sectors;
  Total = InTally ? std::max(Total, Mine) : Total + Mine;
  if (Total <= 0)
    return C;
  C.SavingPct = std::min(100.0, 100.0 * Mine / Total);
  C.AccessPct = C.SavingPct;
  return C;
}

namespace {

// The index with a constant added or subtracted at its top dropped:
// `m + 1` and `m` are one index, `3 * i + 2` is `3 * i`.
const Expr *withoutConstantTerm(const Expr *E, const ASTContext &AST) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub))
      return E;
    const Expr *L = B->getLHS(), *R = B->getRHS();
    if (!R->isValueDependent() && R->isIntegerConstantExpr(AST)) {
      E = L;
      continue;
    }
    if (B->getOpcode() == BO_Add && !L->isValueDependent() &&
        L->isIntegerConstantExpr(AST)) {
      E = R;
      continue;
    }
    return E;
  }
}

std::string spelled(const Expr *E, const ASTContext &AST) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  E->printPretty(OS, nullptr, PrintingPolicy(AST.getLangOpts()));
  return Out;
}

} // namespace

std::string addressSignature(const Expr *E, const ASTContext &AST) {
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    if (M->isArrow())
      return "*" +
             addressSignature(withoutConstantTerm(M->getBase(), AST), AST);
    return addressSignature(M->getBase(), AST);
  }
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return addressSignature(A->getBase(), AST) + "[" +
           spelled(withoutConstantTerm(A->getIdx(), AST), AST) + "]";
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf))
    return (U->getOpcode() == UO_Deref ? "*" : "&") +
           addressSignature(withoutConstantTerm(U->getSubExpr(), AST), AST);
  // A vector load through a cast of an element's address
  // (*reinterpret_cast<const uint4 *>(&A[i + 4])).
  if (const auto *C = dyn_cast<ExplicitCastExpr>(E);
      C && C->getType()->isPointerType())
    return "(" + C->getType().getAsString() + ")" +
           addressSignature(withoutConstantTerm(C->getSubExpr(), AST), AST);
  // A load through a call of one pointer (__ldg(p + 1), __ldg(&w[i + 1])).
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && Call->getNumArgs() == 1 && Call->getDirectCallee() &&
      Call->getArg(0)->getType()->isPointerType())
    return Call->getDirectCallee()->getNameAsString() + "(" +
           addressSignature(withoutConstantTerm(Call->getArg(0), AST), AST) +
           ")";
  return spelled(E, AST);
}

namespace {

// The one local of E that is added into its address (p + col, p[col],
// __ldg(p + col)): every step from it up to E is a cast, a parenthesis, an
// addition (either side), a subtraction's left side, a subscript's index,
// a dereference or a call's argument. Null if none, or more than one local.
const VarDecl *addedLocal(const Expr *E) {
  const VarDecl *Found = nullptr;
  bool Ok = true;
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S,
                                                     bool Added) {
    if (!S || !Ok)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && V->isLocalVarDecl() && V->getType()->isIntegerType()) {
        if (!Added || (Found && Found != V))
          Ok = false;
        Found = V;
      }
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      bool Add = BO->getOpcode() == BO_Add;
      bool Sub = BO->getOpcode() == BO_Sub;
      Walk(BO->getLHS(), Added && (Add || Sub));
      Walk(BO->getRHS(), Added && Add);
      return;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
      Walk(AS->getBase(), Added);
      Walk(AS->getIdx(), Added);
      return;
    }
    bool Keeps = isa<ImplicitCastExpr, ParenExpr, CallExpr, MemberExpr>(S);
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      Keeps = UO->getOpcode() == UO_Deref;
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      for (const Expr *Arg : CE->arguments())
        Walk(Arg, Added);
      return;
    }
    for (const Stmt *C : S->children())
      Walk(C, Added && Keeps);
  };
  Walk(E, true);
  return Ok ? Found : nullptr;
}

} // namespace

namespace {

// The bytes lvalue E moves by when V grows by one, where V enters its
// address only added (times constants): p[2 * v + c], *(p + v), __ldg(p +
// v); nothing otherwise.
std::optional<int64_t> intStride(const Expr *E, const VarDecl *V,
                                 const ASTContext &AST, unsigned Depth = 0) {
  E = E->IgnoreParenImpCasts();
  if (Depth > 16)
    return std::nullopt;
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (D->getDecl() == V)
      return 1;
    // A local that holds an index computed from V (`const int a_k = inner_k
    // + sub * 8;`), never written after its initialiser.
    const auto *L = dyn_cast<VarDecl>(D->getDecl());
    const auto *Fn =
        L ? dyn_cast_or_null<FunctionDecl>(L->getParentFunctionOrMethod())
          : nullptr;
    if (L && L->isLocalVarDecl() && L->getInit() &&
        L->getType()->isIntegerType() && Fn && Fn->getBody() &&
        (L->getType().isConstQualified() || !writesTo(Fn->getBody(), L)))
      return intStride(L->getInit(), V, AST, Depth + 1);
    return 0;
  }
  if (isa<IntegerLiteral>(E) || E->isValueDependent())
    return E->isValueDependent() ? std::nullopt : std::optional<int64_t>(0);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto L = intStride(BO->getLHS(), V, AST, Depth + 1);
    auto R = intStride(BO->getRHS(), V, AST, Depth + 1);
    if (!L || !R)
      return std::nullopt;
    auto Const = [&](const Expr *X) -> std::optional<int64_t> {
      if (auto C = X->getIntegerConstantExpr(AST))
        return C->getExtValue();
      return std::nullopt;
    };
    switch (BO->getOpcode()) {
    case BO_Add:
      return *L + *R;
    case BO_Sub:
      return *L - *R;
    case BO_Mul:
      if (auto C = Const(BO->getRHS()))
        return *L * *C;
      if (auto C = Const(BO->getLHS()))
        return *R * *C;
      return *L == 0 && *R == 0 ? std::optional<int64_t>(0) : std::nullopt;
    case BO_Shl:
      if (auto C = Const(BO->getRHS()); C && *C >= 0 && *C < 16)
        return *L << *C;
      return std::nullopt;
    default:
      return *L == 0 && *R == 0 ? std::optional<int64_t>(0) : std::nullopt;
    }
  }
  bool Uses = findStmt(E, WalkOptions(), [&](const Stmt *S) {
    const auto *D = dyn_cast<DeclRefExpr>(S);
    return D && D->getDecl() == V;
  });
  return Uses ? std::nullopt : std::optional<int64_t>(0);
}

std::optional<int64_t> pointerStride(const Expr *E, const VarDecl *V,
                                     const ASTContext &AST, unsigned Depth = 0);

std::optional<int64_t> lvalueStride(const Expr *E, const VarDecl *V,
                                    const ASTContext &AST, unsigned Depth = 0) {
  E = E->IgnoreParenImpCasts();
  if (Depth > 16)
    return std::nullopt;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    auto I = intStride(AS->getIdx(), V, AST);
    auto B = pointerStride(AS->getBase(), V, AST, Depth + 1);
    if (!I || !B || AS->getType()->isIncompleteType() ||
        AS->getType()->isDependentType())
      return std::nullopt;
    return *B + *I * AST.getTypeSizeInChars(AS->getType()).getQuantity();
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return pointerStride(UO->getSubExpr(), V, AST, Depth + 1);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? pointerStride(ME->getBase(), V, AST, Depth + 1)
                         : lvalueStride(ME->getBase(), V, AST, Depth + 1);
  if (const auto *CE = dyn_cast<CallExpr>(E); CE && CE->getNumArgs() == 1)
    return pointerStride(CE->getArg(0), V, AST, Depth + 1);
  return std::nullopt;
}

std::optional<int64_t> pointerStride(const Expr *E, const VarDecl *V,
                                     const ASTContext &AST, unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  if (Depth > 16)
    return std::nullopt;
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
    const Expr *P = BO->getLHS(), *I = BO->getRHS();
    if (!P->getType()->isPointerType())
      std::swap(P, I);
    QualType Pointee = P->getType()->getPointeeType();
    if (!P->getType()->isPointerType() || Pointee->isIncompleteType() ||
        Pointee->isDependentType())
      return std::nullopt;
    auto PS = pointerStride(P, V, AST, Depth + 1);
    auto IS = intStride(I, V, AST);
    if (!PS || !IS)
      return std::nullopt;
    int64_t Size = AST.getTypeSizeInChars(Pointee).getQuantity();
    return *PS + (BO->getOpcode() == BO_Sub ? -1 : 1) * *IS * Size;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    return lvalueStride(UO->getSubExpr(), V, AST, Depth + 1);
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return pointerStride(CE->getSubExpr(), V, AST, Depth + 1);
  return intStride(E, V, AST);
}

} // namespace

int64_t TrafficModel::steppedShift(const MemoryAccess &A, const MemoryAccess &B,
                                   const FunctionDecl *F) {
  const VarDecl *V = addedLocal(A.E);
  if (!V || addedLocal(B.E) != V || !F->getBody())
    return 0;
  auto [It, New] = Steps.try_emplace(F);
  if (New) {
    const ASTContext &AST = Ctx.astContext();
    forEachStmt(F->getBody(), [&](const Stmt *S) {
      const VarDecl *W = nullptr;
      int64_t By = 0;
      if (const auto *UO = dyn_cast<UnaryOperator>(S);
          UO && UO->isIncrementDecrementOp()) {
        if (const auto *D =
                dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
          W = dyn_cast<VarDecl>(D->getDecl());
        By = UO->isIncrementOp() ? 1 : -1;
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        const auto *D =
            dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
        W = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
        const Expr *Amount = nullptr;
        int Sign = 1;
        if (BO->getOpcode() == BO_AddAssign ||
            BO->getOpcode() == BO_SubAssign) {
          Amount = BO->getRHS();
          Sign = BO->getOpcode() == BO_AddAssign ? 1 : -1;
        } else if (BO->getOpcode() == BO_Assign) {
          // v = v + c, v = c + v, v = v - c
          const auto *R =
              dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
          if (R && (R->getOpcode() == BO_Add || R->getOpcode() == BO_Sub)) {
            auto IsW = [&](const Expr *X) {
              const auto *XD = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
              return W && XD && XD->getDecl() == W;
            };
            if (IsW(R->getLHS()))
              Amount = R->getRHS(), Sign = R->getOpcode() == BO_Add ? 1 : -1;
            else if (R->getOpcode() == BO_Add && IsW(R->getRHS()))
              Amount = R->getLHS();
          }
        }
        std::optional<llvm::APSInt> C;
        if (Amount && !Amount->isValueDependent())
          C = Amount->getIntegerConstantExpr(AST);
        By = C ? Sign * C->getExtValue() : 0;
        if (!C)
          W = nullptr;
      }
      if (W && By)
        Steps[F][W].push_back({S->getBeginLoc(), By});
    });
    It = Steps.find(F);
  }
  auto VS = It->second.find(V);
  if (VS == It->second.end())
    return 0;
  const SourceManager &SM = Ctx.sourceManager();
  SourceLocation From = A.E->getBeginLoc(), To = B.E->getBeginLoc();
  int Sign = 1;
  if (SM.isBeforeInTranslationUnit(To, From))
    std::swap(From, To), Sign = -1;
  int64_t Sum = 0;
  for (auto [Loc, By] : VS->second)
    if (SM.isBeforeInTranslationUnit(From, Loc) &&
        SM.isBeforeInTranslationUnit(Loc, To))
      Sum += By;
  return Sign * Sum * int64_t(A.Size);
}

SiblingGroup TrafficModel::siblings(const MemoryAccess &A, const WarpPattern &P,
                                    const FunctionDecl *F,
                                    llvm::ArrayRef<CallLink> Chain) {
  SiblingGroup G;
  G.Self = A.E;
  const SourceManager &SM = Ctx.sourceManager();
  AffineAnalysis &AA = Ctx.affine();
  // The function's own accesses are found once (kernel() asks for each
  // of them); those of a call context are the reached ones.
  std::vector<MemoryAccess> Candidates;
  if (Chain.empty()) {
    Candidates = accessesOf(F);
  } else {
    for (const ReachedAccess &RA : AA.reachedIn(F)) {
      if (RA.Chain.size() != Chain.size())
        continue;
      bool Same = true;
      for (size_t I = 0; I < Chain.size() && Same; ++I)
        Same = RA.Chain[I].Call == Chain[I].Call;
      if (Same)
        Candidates.push_back(RA.Access);
    }
  }
  // The loop a statement repeats in, innermost: siblings run in the same
  // round of the same loop.
  auto LoopOf = [&](const Stmt *S) -> const Stmt * {
    llvm::ArrayRef<const Stmt *> Loops = loopsAround(S, F);
    return Loops.empty() ? nullptr : Loops.back();
  };
  const Stmt *MyLoop = LoopOf(A.E);
  const std::string &MySignature = signatureOf(A.E);
  auto Loads = [](const MemoryAccess &X) { return !X.IsStore || X.AlsoLoads; };
  auto Stores = [](const MemoryAccess &X) { return X.IsStore; };
  for (const MemoryAccess &B : Candidates) {
    bool Sibling = B.E == A.E;
    if (!Sibling && B.Addr.Space == A.Addr.Space && B.Addr.Known &&
        A.Addr.Known && B.Addr.Root == A.Addr.Root &&
        B.Addr.Offset.sameThreadPart(A.Addr.Offset) &&
        B.Addr.Offset.HasUniform == A.Addr.Offset.HasUniform &&
        ((Loads(A) && Loads(B)) || (Stores(A) && Stores(B))) &&
        std::llabs(B.Addr.Offset.Const - A.Addr.Offset.Const) < 4096)
      Sibling = LoopOf(B.E) == MyLoop && signatureOf(B.E) == MySignature;
    // A second access to the same bytes is a repeat, not a sibling: it
    // fills nothing (the optimised view decides whether it exists). Unless
    // a statement between them steps the local both index with.
    MemoryAccess Moved = B;
    if (Sibling && B.E != A.E && B.Addr.Offset.Const == A.Addr.Offset.Const) {
      int64_t Shift = steppedShift(A, B, F);
      Moved.Addr.Offset.Const += Shift;
      Sibling = Shift != 0 && std::llabs(Shift) < 4096;
    }
    if (Sibling && llvm::none_of(G.Members, [&](const MemoryAccess &M) {
          return M.E == Moved.E ||
                 (M.Addr.Offset.Const == Moved.Addr.Offset.Const &&
                  M.Size == Moved.Size);
        }))
      G.Members.push_back(Moved);
  }
  if (llvm::none_of(G.Members,
                    [&](const MemoryAccess &M) { return M.E == A.E; }))
    G.Members.push_back(A);
  // A whole struct or vector copied (force[i] = f of a float3) moves in
  // pieces of its alignment, each judged as A: the other pieces are
  // siblings at the next offsets.
  QualType Copied = A.E->getType();
  if (Copied->isRecordType() || Copied->isVectorType()) {
    uint64_t Whole = Ctx.astContext().getTypeSizeInChars(Copied).getQuantity();
    if (A.Size && Whole > A.Size && Whole % A.Size == 0 && Whole <= 64) {
      G.CopyPieces = unsigned(Whole / A.Size);
      G.CopiedType = Copied.getUnqualifiedType().getAsString(
          PrintingPolicy(Ctx.astContext().getLangOpts()));
      for (unsigned K = 1; K < G.CopyPieces; ++K) {
        MemoryAccess Piece = A;
        Piece.Addr.Offset.Const += int64_t(K) * A.Size;
        G.Members.push_back(Piece);
      }
    }
  }
  // The rounds of a loop nvcc unrolls whole (`for (int i = 0; i < 4;
  // ++i) out[id + i]` with id four elements a lane): each round moves the
  // address by less than the lanes' spacing, so the rounds fill each
  // other's sectors (bitsandbytes' sub loop, FasterTransformer's
  // ELEMENT_PER_ROUND): members at each round's offset.
  // The loop may sit outside short loops of its own (bitsandbytes' sub
  // loop around an unrolled loop over M_BLOCK rows): the rounds of the
  // innermost constant-trip loop that moves the address, past inner loops
  // of at most 16 constant trips, fill the sectors the same way.
  const ForStmt *For = nullptr;
  std::optional<uint64_t> N;
  std::optional<int64_t> PerUnit;
  if (!G.CopyPieces && P.Regular && P.LaneStride != 0) {
    llvm::ArrayRef<const Stmt *> Around = loopsAround(A.E, F);
    auto Value = [&](const Expr *E) { return AA.literalValueOf(E); };
    for (size_t I = Around.size(); I-- > 0 && Around.size() - I <= 3;) {
      const auto *Loop = dyn_cast<ForStmt>(Around[I]);
      std::optional<ForCounter> C = Loop ? forCounter(Loop) : std::nullopt;
      N = C ? constantTripCount(Loop, Ctx.astContext(), Value) : std::nullopt;
      if (!N || *N > 16)
        break;
      PerUnit = lvalueStride(A.E, C->Var, Ctx.astContext());
      if (PerUnit && *PerUnit != 0 &&
          std::llabs(*PerUnit) < std::llabs(P.LaneStride)) {
        For = Loop;
        break;
      }
    }
  }
  if (For) {
    std::optional<int64_t> Step;
    if (const auto *Inc = For->getInc()) {
      Inc = Inc->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(Inc))
        Step = U->isIncrementOp() ? 1 : -1;
      else if (const auto *B = dyn_cast<CompoundAssignOperator>(Inc))
        if (auto K = B->getRHS()->getIntegerConstantExpr(Ctx.astContext()))
          Step = B->getOpcode() == BO_AddAssign ? K->getExtValue()
                                                : -K->getExtValue();
    }
    if (*N >= 2 && Step &&
        std::llabs(*PerUnit * *Step) < std::llabs(P.LaneStride)) {
      int64_t Shift = *PerUnit * *Step;
      size_t Written = G.Members.size();
      for (uint64_t K = 1; K < *N; ++K)
        for (size_t I = 0; I < Written; ++I) {
          MemoryAccess Round = G.Members[I];
          Round.Addr.Offset.Const += int64_t(K) * Shift;
          G.Members.push_back(Round);
        }
      G.Rounds = unsigned(*N);
    }
  }
  llvm::stable_sort(G.Members, [&](const MemoryAccess &X,
                                   const MemoryAccess &Y) {
    return SM.isBeforeInTranslationUnit(X.E->getBeginLoc(), Y.E->getBeginLoc());
  });
  const ArchInfo &Target = *Ctx.arch();
  std::vector<LaneRanges> Ranges;
  std::vector<std::pair<int64_t, int64_t>> PerLane; // one lane's ranges
  for (const MemoryAccess &M : G.Members) {
    int64_t Shift = M.Addr.Offset.Const - A.Addr.Offset.Const;
    Ranges.push_back({&P, Shift, M.Size});
    LaneRanges One{&P, Shift, M.Size};
    G.SumSectors +=
        warpTraffic(One, Target.global_sector_bytes, Target.global_line_bytes)
            .Sectors;
    PerLane.push_back({Shift, Shift + M.Size});
  }
  G.Together =
      warpTraffic(Ranges, Target.global_sector_bytes, Target.global_line_bytes);
  llvm::sort(PerLane);
  int64_t End = PerLane.front().first;
  bool Contiguous = true;
  for (auto [B, E] : PerLane) {
    if (B > End)
      Contiguous = false;
    End = std::max(End, E);
  }
  if (Contiguous)
    G.ContiguousBytes = unsigned(End - PerLane.front().first);
  return G;
}

bool TrafficModel::strideMayBeUnit(llvm::StringRef SymbolName,
                                   const FunctionDecl *F,
                                   llvm::ArrayRef<CallLink> Chain) {
  llvm::StringSet<> Names;
  for (size_t I = 0; I < SymbolName.size();) {
    char C = SymbolName[I];
    if (std::isalpha(static_cast<unsigned char>(C)) || C == '_') {
      size_t J = I;
      while (J < SymbolName.size() &&
             (std::isalnum(static_cast<unsigned char>(SymbolName[J])) ||
              SymbolName[J] == '_'))
        ++J;
      llvm::StringRef Id = SymbolName.slice(I, J);
      if (Id != "sizeof")
        Names.insert(Id);
      I = J;
    } else {
      ++I;
    }
  }
  if (Names.empty())
    return false;
  auto Mentions = [&](const Expr *E) {
    bool Found = false;
    forEachStmt(E, WalkOptions().enterLambdas(), [&](const Stmt *S) {
      if (const auto *D = dyn_cast<DeclRefExpr>(S))
        Found |= Names.contains(D->getDecl()->getName());
      else if (const auto *M = dyn_cast<MemberExpr>(S))
        Found |= Names.contains(M->getMemberDecl()->getName());
    });
    return Found;
  };
  auto Compares = [&](const FunctionDecl *In) {
    if (!In || !In->hasBody())
      return false;
    bool Found = false;
    forEachStmt(In->getBody(), WalkOptions().enterLambdas(),
                [&](const Stmt *S) {
                  const auto *B = dyn_cast<BinaryOperator>(S);
                  if (Found || !B || !B->isRelationalOp())
                    return;
                  Found = Mentions(B->getLHS()) || Mentions(B->getRHS());
                });
    return Found;
  };
  if (Compares(F))
    return false;
  for (const CallLink &Link : Chain)
    if (Compares(Link.Caller))
      return false;
  return true;
}

} // namespace warplint::memory
