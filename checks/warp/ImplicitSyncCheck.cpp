#include "checks/warp/ImplicitSyncCheck.h"
#include "Analysis/SyncPrimitives.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/bit.h"

using namespace clang;

namespace warplint::warp {

namespace {

bool inLoop(const Stmt *S, FunctionDependence &FD) {
  for (const Stmt *P = FD.parent(S); P; P = FD.parent(P))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return true;
  return false;
}

// The statement of the function body that E belongs to: the child of the
// nearest compound statement, or a branch's body.
const Stmt *statementOf(const Stmt *E, FunctionDependence &FD) {
  const Stmt *Cur = E;
  for (const Stmt *P = FD.parent(Cur); P; Cur = P, P = FD.parent(P)) {
    if (isa<CompoundStmt>(P))
      return Cur;
    if (const auto *If = dyn_cast<IfStmt>(P))
      if (Cur == If->getThen() || Cur == If->getElse())
        return Cur;
  }
  return Cur;
}

// Whether A and B lie on different sides of one if/else.
bool exclusive(const Stmt *A, const Stmt *B, FunctionDependence &FD) {
  llvm::DenseMap<const Stmt *, const Stmt *> SideOfA;
  for (const Stmt *C = A, *P = FD.parent(A); P; C = P, P = FD.parent(P))
    if (isa<IfStmt>(P))
      SideOfA[P] = C;
  for (const Stmt *C = B, *P = FD.parent(B); P; C = P, P = FD.parent(P))
    if (isa<IfStmt>(P)) {
      auto It = SideOfA.find(P);
      if (It != SideOfA.end() && It->second != C &&
          It->second != cast<IfStmt>(P)->getCond() &&
          C != cast<IfStmt>(P)->getCond())
        return true;
    }
  return false;
}

// The byte offset of an access in one thread, when the form is exact.
std::optional<int64_t> offsetIn(const AffineForm &F, const ThreadId &T,
                                unsigned WarpSize) {
  if (!F.Known || F.HasUniform)
    return std::nullopt;
  int64_t V[NumThreadTerms] = {T.X, T.Y, T.Z, T.X % int64_t(WarpSize)};
  int64_t Sum = F.Const;
  for (int I = 0; I < NumThreadTerms; ++I) {
    if (F.C[I].isZero())
      continue;
    if (F.C[I].Symbolic)
      return std::nullopt;
    Sum += F.C[I].Value * V[I];
  }
  return Sum;
}

} // namespace

std::vector<ImplicitSyncCheck::Event>
ImplicitSyncCheck::collect(const FunctionDecl *Fn, FunctionDependence &FD) {
  // Number the statements in the order they run (pre-order).
  llvm::DenseMap<const Stmt *, unsigned> Order;
  std::vector<Event> Events;
  forEachStmt(Fn->getBody(), [&](const Stmt *S) {
    Order.try_emplace(S, Order.size());
    SyncSite Sync = classifySync(S);
    if (Sync.Kind != SyncKind::None && Sync.Kind != SyncKind::WarpCollective) {
      if (Sync.Kind != SyncKind::TileCollective ||
          llvm::StringRef(Sync.Name).ends_with(".sync")) {
        Event E;
        E.IsBarrier = true;
        E.Site = S;
        Events.push_back(E);
      }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // A helper that takes the shared array: its accesses as if inlined.
      const FunctionDecl *Callee = Call->getDirectCallee();
      const FunctionDecl *Def = userCallee(Call);
      if (Callee && Barriers.barrierIn(Callee)) {
        Event E; // library code that synchronises (cub, cooperative groups)
        E.IsBarrier = true;
        E.Site = S;
        Events.push_back(E);
      } else if (Def && !isa<CXXMethodDecl>(Def)) {
        FunctionDependence &Inner =
            context().threadDependence().forFunction(Def);
        // A lambda written in the helper counts as its code.
        WalkOptions WithLambdas = WalkOptions().enterLambdas();
        bool HasBarrier =
            findStmt(Def->getBody(), WithLambdas, [](const Stmt *X) {
              SyncSite K = classifySync(X);
              return K.Kind != SyncKind::None &&
                     K.Kind != SyncKind::WarpCollective;
            });
        if (HasBarrier) {
          Event E;
          E.IsBarrier = true;
          E.Site = S;
          Events.push_back(E);
        } else {
          llvm::DenseMap<const Stmt *, unsigned> InnerOrder;
          forEachStmt(Def->getBody(), WithLambdas, [&](const Stmt *X) {
            InnerOrder.try_emplace(X, InnerOrder.size());
          });
          for (MemoryAccess &A : context().affine().accessesInCall(Call, Fn)) {
            if (A.Addr.Space != MemorySpace::Shared || inLoop(A.E, Inner))
              continue;
            // Only what every lane the call reaches runs.
            bool Guarded = false;
            for (const auto &G : Inner.guardSites(A.E))
              Guarded |= G.D != Dependence::Uniform;
            if (Guarded)
              continue;
            Event E;
            E.Access = A;
            E.Site = S;
            E.Via = Call;
            E.Sub = 2 * (1 + InnerOrder.lookup(statementOf(A.E, Inner))) +
                    (A.IsStore ? 1 : 0);
            Events.push_back(E);
            if (A.IsStore && A.AlsoLoads) {
              E.Access.IsStore = false;
              E.Sub -= 1;
              Events.push_back(E);
            }
          }
        }
      }
    }
  });
  for (MemoryAccess &A : context().affine().accesses(Fn)) {
    if (A.Addr.Space != MemorySpace::Shared || inLoop(A.E, FD))
      continue;
    Event E;
    E.Access = A;
    E.Site = A.E;
    E.Sub = A.IsStore ? 1 : 0;
    Events.push_back(E);
    if (A.IsStore && A.AlsoLoads) { // x += ...: a load, then the store
      Event L = E;
      L.Access.IsStore = false;
      L.Sub = 0;
      Events.push_back(L);
    }
  }
  for (Event &E : Events) {
    if (E.IsBarrier) {
      E.Order = Order.lookup(E.Site);
      continue;
    }
    E.Order = Order.lookup(statementOf(E.Site, FD));
  }
  std::stable_sort(Events.begin(), Events.end(),
                   [](const Event &A, const Event &B) {
                     return std::tie(A.Order, A.Sub) < std::tie(B.Order, B.Sub);
                   });
  return Events;
}

void ImplicitSyncCheck::checkFunction(const FunctionDecl *Fn) {
  FunctionDependence &FD = context().threadDependence().forFunction(Fn);
  BlockShape Shape;
  if (Fn->hasAttr<CUDAGlobalAttr>())
    Shape = context().affine().blockShape(Fn);
  else
    return; // helpers are judged at their call sites, with their arguments
  LaneEvaluator LE(Fn, Shape, arch().warp_size);
  std::vector<Event> Events = collect(Fn, FD);
  llvm::DenseSet<const clang::ValueDecl *> ReportedRoots;
  unsigned WS = LE.warpSize();

  for (size_t R = 0; R < Events.size(); ++R) {
    const Event &Load = Events[R];
    if (Load.IsBarrier || Load.Access.IsStore)
      continue;
    if (ReportedRoots.count(Load.Access.Addr.Root))
      continue;
    const Stmt *LoadSite = Load.Via ? (const Stmt *)Load.Via : Load.Site;
    // Earlier stores to the same array with no barrier in between.
    for (size_t W = 0; W < Events.size(); ++W) {
      const Event &Store = Events[W];
      if (Store.IsBarrier || !Store.Access.IsStore ||
          Store.Access.Addr.Root != Load.Access.Addr.Root ||
          Store.Order > Load.Order)
        continue;
      bool Barrier = false;
      for (const Event &B : Events)
        if (B.IsBarrier && B.Order > Store.Order && B.Order < Load.Order)
          Barrier = true;
      if (Barrier)
        continue;
      const Stmt *StoreSite = Store.Via ? (const Stmt *)Store.Via : Store.Site;
      if (exclusive(StoreSite, LoadSite, FD))
        continue;
      // Lanes of one warp: does one read what another wrote?
      for (unsigned Warp = 0; Warp < LE.warpCount(); ++Warp) {
        auto ActiveR = LE.activeLanes(LoadSite, FD, Warp);
        auto ActiveW = LE.activeLanes(StoreSite, FD, Warp);
        if (!ActiveR || !ActiveW || !*ActiveR || !*ActiveW)
          continue;
        uint64_t Readers = 0, Writers = 0;
        for (unsigned L = 0; L < WS; ++L) {
          if (!(*ActiveR >> L & 1))
            continue;
          auto RO = offsetIn(Load.Access.Addr.Offset, *LE.thread(Warp, L), WS);
          if (!RO)
            break;
          for (unsigned M = 0; M < WS; ++M) {
            if (M == L || !(*ActiveW >> M & 1))
              continue;
            auto WO =
                offsetIn(Store.Access.Addr.Offset, *LE.thread(Warp, M), WS);
            if (!WO)
              break;
            if (*RO < *WO + int64_t(Store.Access.Size) &&
                *WO < *RO + int64_t(Load.Access.Size)) {
              Readers |= uint64_t(1) << L;
              Writers |= uint64_t(1) << M;
            }
          }
        }
        if (!Readers)
          continue;
        bool Same = Store.Order == Load.Order && Store.Sub / 2 == Load.Sub / 2;
        bool Its = arch().independent_thread_scheduling;
        std::string Where =
            Same
                ? "in this same statement"
                : "at line " + std::to_string(
                                   context()
                                       .sourceManager()
                                       .getPresumedLoc(
                                           context().sourceManager().getFileLoc(
                                               Store.Access.E->getBeginLoc()))
                                       .getLine());
        FindingBuilder B = diag(
            Load.Access.E->getBeginLoc(),
            "{0} of warp {1} read '{2}', which {3} of the same warp write {4}, "
            "with no __syncwarp() between: this assumes the warp runs in "
            "lockstep (warp-synchronous code), which {5} (Volta tuning guide "
            "1.4.1.2)",
            Its ? Severity::Error : Severity::Warning);
        B << describeLanes(Readers, WS) << int64_t(Warp)
          << context().sourceText(Load.Access.E) << describeLanes(Writers, WS)
          << Where
          << (Its ? "independent thread scheduling on " + arch().Name +
                        " does not guarantee"
                  : arch().Name + " happens to do, but sm_70 and later do not "
                                  "guarantee");
        if (!Same)
          B.note(Store.Access.E->getBeginLoc(), "written here");
        if (Load.Via)
          B.note(Load.Via->getBeginLoc(), "through this call");
        B.note(Load.Access.E->getBeginLoc(),
               "synchronise the lanes between the write and the read with "
               "__syncwarp(), or exchange the values with __shfl_down_sync / "
               "cooperative_groups::reduce; 'volatile' does not order lanes");
        ReportedRoots.insert(Load.Access.Addr.Root);
        break;
      }
      if (ReportedRoots.count(Load.Access.Addr.Root))
        break;
    }
  }
}

WARPLINT_CHECK_FACTORY(ImplicitSyncCheck)

} // namespace warplint::warp
