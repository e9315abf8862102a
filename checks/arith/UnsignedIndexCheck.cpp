#include "checks/arith/UnsignedIndexCheck.h"
#include "Analysis/AffineIndex.h"
#include "Analysis/CallGraph.h"
#include "Analysis/DeviceCode.h"
#include "Analysis/LocalWrites.h"
#include "Analysis/Loops.h"
#include "Analysis/ThreadDependence.h"
#include "checks/arith/UnsignedIndexParts.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include <cmath>
#include <functional>
#include <set>

using namespace clang;

namespace warplint::arith {

using namespace unsigned_index;

UnsignedIndexCheck::UnsignedIndexCheck(llvm::StringRef Name, CheckContext &Ctx)
    : FunctionCheck(Name, Ctx),
      MinSavingPct(Options.get("MinSavingPct", int64_t(10))) {}

void UnsignedIndexCheck::storeOptions(CheckOptionMap &Opts) const {
  Opts[Name + ".MinSavingPct"] = std::to_string(MinSavingPct);
}

void UnsignedIndexCheck::checkFunction(const FunctionDecl *F) {
  if (!isWrittenForDevice(F))
    return;
  LocalWrites Writes(F->getBody());
  const ASTContext &Ctx = F->getASTContext();
  std::vector<SlowLoop> Slow; // in the order the loops are met
  // Lambdas are functions of their own; sizeof's operand is not indexed.
  WalkOptions Code = WalkOptions().skipSizeof();
  forEachStmt(
      F->getBody(), Code,
      [&](const Stmt *S, llvm::ArrayRef<const Stmt *> Path) {
        if (const auto *E = dyn_cast<Expr>(S); E && E->isValueDependent())
          return WalkStep::SkipChildren;
        std::vector<Loop> Loops; // the counted loops around, outermost first
        for (const Stmt *P : Path)
          if (const auto *FS = dyn_cast<ForStmt>(P))
            if (std::optional<Loop> L = loopOf(FS, Ctx))
              Loops.push_back(*L);
        if (const auto *FS = dyn_cast<ForStmt>(S)) {
          if (std::optional<Loop> L = loopOf(FS, Ctx))
            checkLoopStart(*L, Loops, Path, Writes);
          return WalkStep::Continue;
        }
        std::optional<Access> A;
        if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
          A = Access{ASE, ASE->getBase(), ASE->getIdx()};
        else if (const auto *BO = dyn_cast<BinaryOperator>(S);
                 BO && BO->getOpcode() == BO_Add) {
          if (BO->getLHS()->getType()->isPointerType() &&
              BO->getRHS()->getType()->isIntegerType())
            A = Access{BO, BO->getLHS(), BO->getRHS()};
          else if (BO->getRHS()->getType()->isPointerType() &&
                   BO->getLHS()->getType()->isIntegerType())
            A = Access{BO, BO->getRHS(), BO->getLHS()};
        }
        if (!A || !isUnsigned32(A->Index->IgnoreParens()->getType(), Ctx))
          return WalkStep::Continue;
        collectSlowAccess(*A, Loops, Writes, F, Slow);
        checkWrap(*A, Loops, Path, Writes);
        return WalkStep::Continue;
      });
  reportSlowLoops(Slow);
}

void UnsignedIndexCheck::collectSlowAccess(const Access &A,
                                           llvm::ArrayRef<Loop> Loops,
                                           const LocalWrites &Writes,
                                           const FunctionDecl *F,
                                           std::vector<SlowLoop> &Slow) {
  if (isArrayBase(A.Base))
    return;
  const ASTContext &Ctx = context().astContext();
  llvm::SmallVector<IndexLeaf, 8> Leaves;
  collectAllLeaves(A.Index, Writes, Leaves);
  // The innermost loop whose counter the index follows.
  const Loop *L = nullptr;
  for (const Loop &Candidate : llvm::reverse(Loops))
    if (llvm::any_of(Leaves, [&](const IndexLeaf &X) {
          return X.V == Candidate.Counter;
        })) {
      L = &Candidate;
      break;
    }
  if (!L || isCounterPlusConstant(A.Index, *L, Ctx))
    return;
  // A loop with an exit of its own (a break, a return: ggml's "protect i0
  // from overflow" guard, a search that stops at a match) has no trip count
  // the compiler can compute, and nvcc -O3 compiles an int counter as it
  // does an unsigned one: the same widening each iteration, no stepped
  // pointer (13 against 13 instructions an iteration, unit step or grid
  // stride, break or return).
  if (leavesLoopEarly(L->For->getBody()))
    return;
  // An address computed once an iteration of a loop that runs another loop
  // each iteration (a grid-stride loop over paths, a time-step loop inside):
  // the widening is spread over the inner loop's work (MC_SingleAsianOptionP:
  // 351 against 355 instructions for the kernel, the inner loop unchanged).
  if (findStmt(L->For->getBody(), Everything, [&](const Stmt *S) {
        return isa<ForStmt, WhileStmt, DoStmt>(S) && !contains(S, A.E);
      }))
    return;
  // Locals computed from the counter are part of the index arithmetic; the
  // others are loop-invariant values whose own type is what counts.
  auto FollowsCounter = [&](const VarDecl *V) {
    llvm::SmallVector<IndexLeaf, 8> Inner;
    collectAllLeaves(V->getInit(), Writes, Inner);
    return llvm::any_of(Inner,
                        [&](const IndexLeaf &X) { return X.V == L->Counter; });
  };
  Leaves.clear();
  collectLeaves(A.Index, Writes, FollowsCounter, Leaves);
  if (L->Step)
    collectLeaves(L->Step, Writes, FollowsCounter, Leaves);
  // With a step other than 1, an unsigned exit test (i < n with an unsigned
  // n) alone keeps the compiler from stepping a pointer, the counter and
  // the step int or not (nvcc -O3: 11 instructions an iteration against
  // 7): the bound's declarations are part of the fix.
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      L->For->getCond() ? L->For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!L->UnitStep && L->Bound && Cond &&
      isUnsigned32(Cond->getLHS()->getType(), Ctx))
    collectLeaves(
        L->Bound, Writes, [](const VarDecl *) { return false; }, Leaves);
  // The variables whose unsigned type makes the arithmetic unsigned; a
  // built-in or an opaque unsigned value would need a cast instead of a
  // declaration: not reported.
  std::vector<const VarDecl *> Vars;
  for (const IndexLeaf &X : Leaves) {
    QualType T = X.E->getType();
    if (!isUnsigned32(T, Ctx))
      continue;
    if (X.K != IndexLeaf::Var)
      return;
    if (!llvm::is_contained(Vars, X.V))
      Vars.push_back(X.V);
  }
  // An index whose range the compiler knows stays below 2^32 cannot wrap
  // (a constant trip count times a constant stride, a lane id): the PTX is
  // the same as for int.
  Bounds Range = RangeFinder(Loops, Writes, Ctx)(A.Index);
  if (Range.Hi && *Range.Hi <= UINT32_MAX)
    return;
  // Shared memory and local arrays are addressed with 32 bits: there is
  // nothing to widen (nvcc -O3 PTX is the same for int and unsigned).
  // So is a helper's pointer parameter that every caller passes a
  // __shared__ array for (sgemm's processFromSmem(As, Bs): ld.shared with
  // a 32-bit register and immediate offsets, after inlining).
  if (Vars.empty() ||
      context().affine().pointer(A.Base, F).Space == MemorySpace::Shared)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(A.Base->IgnoreParenImpCasts()))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
        P && passedShared(P, F, 0))
      return;
  auto It =
      llvm::find_if(Slow, [&](const SlowLoop &S) { return S.For == L->For; });
  if (It == Slow.end()) {
    Slow.push_back({L->For,
                    L->Counter,
                    L->ConstantTrip && L->Bound && constantOf(L->Bound, Ctx),
                    F,
                    {},
                    {}});
    It = std::prev(Slow.end());
  }
  It->Accesses.push_back({A.E, A.Index, A.Base, Vars});
  for (const VarDecl *V : Vars)
    if (!llvm::is_contained(It->Vars, V))
      It->Vars.push_back(V);
}

bool UnsignedIndexCheck::passedShared(const ParmVarDecl *P,
                                      const FunctionDecl *F, unsigned Depth) {
  if (Depth > 3 || P->getDeclContext() != F)
    return false;
  unsigned Index = P->getFunctionScopeIndex();
  // The calls of F, of the template it instantiates, and, for a template
  // as written, of its instantiations (the calls written in a template
  // caller are dependent; its instantiations' calls say what is passed).
  std::vector<const FunctionDecl *> Forms{F};
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    Forms.push_back(Pattern);
  if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate())
    for (const FunctionDecl *Spec : T->specializations())
      Forms.push_back(Spec);
  bool Any = false;
  for (const FunctionDecl *Form : Forms)
    for (const CallSite &C : context().callGraph().callers(Form)) {
      if (!C.Caller || isa<CXXOperatorCallExpr>(C.Call) ||
          Index >= C.Call->getNumArgs())
        return false;
      const Expr *Arg = C.Call->getArg(Index);
      if (Arg->isTypeDependent() || Arg->isValueDependent())
        continue;
      if (context().affine().pointer(Arg, C.Caller).Space ==
          MemorySpace::Shared) {
        Any = true;
        continue;
      }
      const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
      const auto *Q = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
      if (!Q || !passedShared(Q, C.Caller, Depth + 1))
        return false;
      Any = true;
    }
  return Any;
}

void UnsignedIndexCheck::reportSlowLoops(std::vector<SlowLoop> &Slow) {
  // Loops whose accesses need the same declaration changed are one fix:
  // changing the declarations one loop names leaves the other loop's
  // arithmetic unsigned, and changing a shared one alone saves nothing
  // where the counter stays unsigned. One finding for them, the other
  // loops as notes.
  // So are unrolled loops that compute the same index, each on its own
  // counter (dct8x8's two 'for (unsigned i = 0; i < 8; i++)' loops over
  // 'i * ImgStride'): nvcc computes the unrolled offsets once for both, and
  // changing one counter alone adds an instruction (223 against 222) where
  // changing both saves 12.
  const ASTContext &Ctx = context().astContext();
  auto SameIndex = [&](const SlowLoop &A, const SlowLoop &B) {
    return A.Unrolled && B.Unrolled &&
           llvm::any_of(A.Accesses, [&](const SlowAccess &X) {
             return llvm::any_of(B.Accesses, [&](const SlowAccess &Y) {
               return sameIndex(X.Index, A.Counter, Y.Index, B.Counter, Ctx);
             });
           });
  };
  std::vector<size_t> Group(Slow.size());
  for (size_t I = 0; I < Slow.size(); ++I) {
    Group[I] = I;
    for (size_t J = 0; J < I; ++J)
      if (llvm::any_of(Slow[I].Vars,
                       [&](const VarDecl *V) {
                         return llvm::is_contained(Slow[J].Vars, V);
                       }) ||
          SameIndex(Slow[I], Slow[J])) {
        size_t A = findGroup(Group, I), B = findGroup(Group, J);
        Group[std::max(A, B)] = std::min(A, B); // the first loop leads
      }
  }
  for (size_t Root = 0; Root < Slow.size(); ++Root) {
    if (findGroup(Group, Root) != Root)
      continue;
    std::vector<const SlowLoop *> Loops;
    for (size_t I = Root; I < Slow.size(); ++I)
      if (findGroup(Group, I) == Root)
        Loops.push_back(&Slow[I]);
    reportGroup(Loops);
  }
}

namespace {

// "run 64 times a thread", "run once a thread".
std::string formatRuns(double Runs) {
  if (Runs <= 1)
    return "run once a thread";
  if (Runs < 1e6)
    return "run " + std::to_string(int64_t(std::llround(Runs))) +
           " times a thread";
  return "run about " + std::to_string(int64_t(std::llround(Runs / 1e6))) +
         " million times a thread";
}

// The edit that declares V int, or nothing where the fix-it could change
// what the user did not ask for: V is a parameter (its type is the callers'
// interface), lies in a template instantiation or a macro, is const or
// volatile, or shares its declaration with a variable not in Fixed.
std::optional<FixItHint> intDeclaration(const VarDecl *V,
                                        llvm::ArrayRef<const VarDecl *> Fixed,
                                        ASTContext &Ctx) {
  if (isa<ParmVarDecl>(V) || !V->isLocalVarDecl() ||
      V->getType().hasLocalQualifiers())
    return std::nullopt;
  if (const auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
      !F || F->isTemplateInstantiation() || F->isDependentContext())
    return std::nullopt;
  const TypeSourceInfo *TSI = V->getTypeSourceInfo();
  if (!TSI)
    return std::nullopt;
  TypeLoc TL = TSI->getTypeLoc();
  if (!TL.getAs<BuiltinTypeLoc>() && !TL.getAs<TypedefTypeLoc>())
    return std::nullopt;
  SourceRange R = TL.getSourceRange();
  if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return std::nullopt;
  for (const DynTypedNode &P : Ctx.getParents(*V))
    if (const auto *DS = P.get<DeclStmt>())
      for (const Decl *D : DS->decls())
        if (!llvm::is_contained(Fixed, D))
          return std::nullopt;
  return FixItHint::CreateReplacement(CharSourceRange::getTokenRange(R), "int");
}

} // namespace

void UnsignedIndexCheck::reportGroup(llvm::ArrayRef<const SlowLoop *> Loops) {
  const SlowLoop &First = *Loops.front();
  const SlowAccess &A = First.Accesses.front();
  std::vector<const VarDecl *> All;
  size_t Count = 0;
  for (const SlowLoop *L : Loops) {
    Count += L->Accesses.size();
    for (const VarDecl *V : L->Vars)
      if (!llvm::is_contained(All, V))
        All.push_back(V);
  }
  std::vector<std::string> Names; // two loops' counters may share a name
  for (const VarDecl *V : All)
    if (!llvm::is_contained(Names, V->getName().str()))
      Names.push_back(V->getName().str());
  std::vector<std::string> Counters;
  for (const SlowLoop *L : Loops)
    if (!llvm::is_contained(Counters, L->Counter->getName().str()))
      Counters.push_back(L->Counter->getName().str());
  std::string Where = Loops.size() == 1
                          ? "the loop over '" + Counters.front() + "'"
                          : "the " + std::to_string(Loops.size()) +
                                " loops over " + quotedList(Counters);
  // What the fix saves: about one instruction (the widening multiply; the
  // 64-bit add stays, as a pointer step or an address with an immediate)
  // each time a thread runs one of the addresses, against every operation
  // the function runs (within a factor of 2 of the instructions Nsight
  // Compute counted saved for 9 of 10 kernels, bench/gpu/index_savings.cu).
  // Only a loop nvcc unrolls whole turns that into time: in a rolled loop
  // int saved 3.75 instructions an iteration and no time on the device,
  // where a fully unrolled one saved 28% of the kernel's instructions and
  // 10% of its time.
  const ThreadWork &W = Work.of(First.F);
  double Runs = 0, AccessRuns = 0;
  bool Unrolled = true;
  for (const SlowLoop *L : Loops) {
    Unrolled &= L->Unrolled;
    for (const SlowAccess &S : L->Accesses) {
      auto It = W.Runs.find(S.E);
      double R = It != W.Runs.end() ? It->second : 1;
      Runs = std::max(Runs, R);
      AccessRuns += R;
    }
  }
  double SavingPct =
      W.Total > 0 ? std::min(100.0, 100.0 * AccessRuns / W.Total) : 0;
  // And only a function that runs enough operations per memory access
  // not to be bound by memory (IssueBoundOps).
  double OpsPerAccess =
      W.PointerAccesses > 0 ? W.Total / W.PointerAccesses : W.Total;
  bool IssueBound = OpsPerAccess >= IssueBoundOps;
  Severity Level = Unrolled && IssueBound && SavingPct >= double(MinSavingPct)
                       ? Severity::Warning
                       : Severity::Note;
  std::string Cost =
      "; that is about " + std::to_string(int(std::lround(SavingPct))) +
      "% of the operations a thread runs in '" + First.F->getNameAsString() +
      "' (" + std::to_string(Count) + (Count == 1 ? " address" : " addresses") +
      ", an instruction each, " + formatRuns(Runs) +
      (W.UnknownLoops ? ", loops of unknown length taken as " +
                            std::to_string(AssumedTrips) + " rounds"
                      : "") +
      ")";
  if (!Unrolled)
    Cost += ", in a loop whose trip count is not written with constants, "
            "taken as rolled, where int saves an instruction or two an "
            "iteration that the loop's memory accesses hide";
  else if (!IssueBound)
    Cost += ", but '" + First.F->getNameAsString() + "' runs about " +
            std::to_string(int(std::lround(OpsPerAccess))) +
            " operations per memory access, too few to be bound by "
            "instructions rather than memory";
  FindingBuilder B =
      diag(A.Index->getBeginLoc(),
           "'{0}' indexes '{1}' with unsigned 32-bit arithmetic in {2}: "
           "unsigned overflow wraps, so the compiler cannot turn the address "
           "into a pointer stepped each iteration and recomputes it with a "
           "64-bit widening multiply (mul.wide.u32) instead; declare {3} int "
           "(CUDA C++ Best Practices Guide, 'Loop Counters Signed vs. "
           "Unsigned'){4}",
           Level);
  B << context().sourceText(A.Index) << context().sourceText(A.Base) << Where
    << quotedList(Names) << Cost;
  B.metric("accesses", double(Count));
  B.metric("runs_per_thread", Runs);
  B.metric("saving_pct", std::round(SavingPct * 10) / 10);
  B.metric("ops_per_access", std::round(OpsPerAccess * 10) / 10);
  // The fix-it: every declaration to change written as int, or none.
  std::vector<FixItHint> Fixes;
  std::set<unsigned> Edited; // declarations sharing one type specifier
  for (const VarDecl *V : All) {
    std::optional<FixItHint> H = intDeclaration(V, All, context().astContext());
    if (!H) {
      Fixes.clear();
      break;
    }
    if (Edited.insert(H->RemoveRange.getBegin().getRawEncoding()).second)
      Fixes.push_back(*H);
  }
  for (const FixItHint &H : Fixes)
    B << H;
  // Notes: each access that brings a declaration of its own into the fix,
  // and the first access of each other loop.
  std::vector<const VarDecl *> Named = First.Accesses.front().Vars;
  for (const SlowLoop *L : Loops) {
    for (size_t I = 0; I < L->Accesses.size(); ++I) {
      const SlowAccess &S = L->Accesses[I];
      if (L == &First && I == 0)
        continue;
      std::vector<std::string> New;
      for (const VarDecl *V : S.Vars)
        if (!llvm::is_contained(Named, V))
          New.push_back(V->getName().str());
      bool OtherLoop = L != &First && I == 0;
      if (New.empty() && !OtherLoop)
        continue;
      for (const VarDecl *V : S.Vars)
        if (!llvm::is_contained(Named, V))
          Named.push_back(V);
      std::string Loop = L == &First ? "in the same loop"
                                     : "in the loop over '" +
                                           L->Counter->getName().str() + "'";
      std::vector<std::string> AllOfIt;
      for (const VarDecl *V : S.Vars)
        AllOfIt.push_back(V->getName().str());
      std::string Why =
          OtherLoop ? Loop + ", which needs " + quotedList(AllOfIt)
                    : Loop + ", which needs " + quotedList(New) + " too";
      B.note(S.Index->getBeginLoc(), "'{0}' indexes '{1}' the same way {2}")
          << context().sourceText(S.Index) << context().sourceText(S.Base)
          << Why;
    }
  }
}

void UnsignedIndexCheck::checkLoopStart(const Loop &L,
                                        llvm::ArrayRef<Loop> Outer,
                                        llvm::ArrayRef<const Stmt *> Path,
                                        const LocalWrites &Writes) {
  const ASTContext &Ctx = context().astContext();
  if (!L.Increasing || !L.Bound || !isUnsigned32(L.Counter->getType(), Ctx))
    return;
  // for (unsigned j = i - w; j <= i + w; j++), or through a local that
  // keeps its value.
  const Expr *Start = L.Start->IgnoreParenImpCasts();
  if (const VarDecl *V = varOf(Start); V && Writes.keepsInitialValue(V))
    Start = V->getInit()->IgnoreParenImpCasts();
  const auto *Sub = dyn_cast<BinaryOperator>(Start);
  if (!Sub || Sub->getOpcode() != BO_Sub || !Sub->getType()->isIntegerType() ||
      Ctx.getIntWidth(Sub->getType()) != 32 || constantOf(Sub, Ctx))
    return;
  Bounds Range = RangeFinder(Outer, Writes, Ctx)(Sub->getLHS());
  if (!Range.Lo || Range.Why == 0)
    return;
  std::optional<int64_t> C = constantOf(Sub->getRHS(), Ctx);
  if (C && (*C <= 0 || uint64_t(*C) <= *Range.Lo))
    return;
  if (!C && *Range.Lo != 0)
    return; // below the smallest value the analysis knows of: unknown
  // A guard on the minuend (if (i >= w), a loop from w) keeps it up.
  GuardKeys Keys(Sub->getLHS(), Writes);
  if (isGuarded(Path, L.For, Keys))
    return;
  if (!ReportedWraps.insert(Sub->getExprLoc().getRawEncoding()).second)
    return;
  std::string X = context().sourceText(Sub->getLHS());
  std::string Y = context().sourceText(Sub->getRHS());
  std::string Text = context().sourceText(Sub);
  std::string Value =
      C ? "to " + std::to_string((uint64_t(1) << 32) + *Range.Lo - *C) +
              " when '" + X + "' is " + std::to_string(*Range.Lo) + " (" +
              describe(Range.Why) + ")"
        : "to a value near 2^32 when '" + X + "' is below '" + Y + "' (it is " +
              std::to_string(*Range.Lo) + " " + describe(Range.Why) + ")";
  diag(Sub->getBeginLoc(),
       "'{0}' wraps around {1}: the loop over '{2}' then starts above its "
       "bound '{3}' and is skipped without a word, so those threads do none "
       "of its work; start it at '{4} < {5} ? 0 : {0}' to clip the range at "
       "0, or guard the loop with '{4} >= {5}'")
      << Text << Value << L.Counter->getName() << context().sourceText(L.Bound)
      << X << Y;
}

void UnsignedIndexCheck::checkWrap(const Access &A, llvm::ArrayRef<Loop> Loops,
                                   llvm::ArrayRef<const Stmt *> Path,
                                   const LocalWrites &Writes) {
  const ASTContext &Ctx = context().astContext();
  const BinaryOperator *Sub = subtractionIn(A.Index, Writes, Ctx);
  if (!Sub)
    return;
  uint64_t C = uint64_t(*constantOf(Sub->getRHS(), Ctx));
  Bounds Range = RangeFinder(Loops, Writes, Ctx)(Sub->getLHS());
  if (!Range.Lo || *Range.Lo >= C || Range.Why == 0)
    return;
  GuardKeys Keys(Sub->getLHS(), Writes);
  if (isGuarded(Path, A.E, Keys))
    return;
  if (!ReportedWraps.insert(Sub->getExprLoc().getRawEncoding()).second)
    return;
  uint64_t Wrapped = (uint64_t(1) << 32) + *Range.Lo - C;
  std::string X = context().sourceText(Sub->getLHS());
  diag(Sub->getBeginLoc(),
       "'{0}' wraps around to {1} when '{2}' is {3} ({4}): the subtraction is "
       "unsigned 32-bit, so '{5}' is out of bounds; guard it with '{2} >= {6}'")
      << context().sourceText(Sub) << int64_t(Wrapped) << X
      << int64_t(*Range.Lo) << describe(Range.Why) << context().sourceText(A.E)
      << int64_t(C);
}

WARPLINT_CHECK_FACTORY(UnsignedIndexCheck)

} // namespace warplint::arith
