#include "IR/Pieces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace warplint::ir {

namespace {

// The globals C refers to, through constant expressions and aggregates,
// each constant walked once for all the calls that share Seen.
void globalsIn(const Constant *C, SmallPtrSetImpl<const Constant *> &Seen,
               SmallVectorImpl<const GlobalValue *> &Out) {
  SmallVector<const Constant *, 16> Work;
  if (Seen.insert(C).second)
    Work.push_back(C);
  while (!Work.empty()) {
    const Constant *C = Work.pop_back_val();
    if (const auto *GV = dyn_cast<GlobalValue>(C)) {
      Out.push_back(GV);
      continue;
    }
    for (const Value *Op : C->operands())
      if (const auto *Sub = dyn_cast<Constant>(Op))
        if (Seen.insert(Sub).second)
          Work.push_back(Sub);
  }
}

// The defined functions and the internal variables an instruction of F
// refers to, directly or through constant expressions.
void referencesOf(const Function &F,
                  SmallVectorImpl<const GlobalValue *> &Out) {
  SmallPtrSet<const Constant *, 16> Seen;
  SmallVector<const GlobalValue *, 16> Globals;
  for (const Instruction &I : instructions(F))
    for (const Value *Op : I.operands())
      if (const auto *C = dyn_cast<Constant>(Op))
        globalsIn(C, Seen, Globals);
  for (const GlobalValue *GV : Globals) {
    const auto *Fn = dyn_cast<Function>(GV);
    if ((Fn && !Fn->isDeclaration()) ||
        (isa<GlobalVariable>(GV) && GV->hasLocalLinkage()))
      Out.push_back(GV);
  }
}

// A function this small is inlined at every call: its cost is below -O3's
// threshold whatever the call.
constexpr unsigned SurelyInlined = 20;

// Whether two functions that reach GV must be optimised together: GV is an
// internal variable (IPSCCP follows its stores) or an internal function
// that is not inlined wherever it is called (the inliner's bonus for the last
// call of a static function, IPSCCP's constant arguments). A function as
// small as CUDA's and cooperative_groups' static helpers is inlined at every
// call whatever its callers, and then optimised where it landed.
bool binds(const GlobalValue &GV) {
  if (!GV.hasLocalLinkage())
    return false;
  if (const auto *V = dyn_cast<GlobalVariable>(&GV))
    return !V->isConstant();
  const auto &F = cast<Function>(GV);
  if (F.hasFnAttribute(Attribute::AlwaysInline))
    return false;
  return F.hasFnAttribute(Attribute::NoInline) ||
         F.getInstructionCount() > SurelyInlined;
}

} // namespace

std::vector<Piece> pieces(const Module &M, size_t Instructions) {
  std::vector<const Function *> Fns;
  DenseMap<const GlobalValue *, SmallVector<const GlobalValue *, 8>> Refs;
  DenseSet<const Function *> Called;
  for (const Function &F : M)
    if (!F.isDeclaration()) {
      Fns.push_back(&F);
      SmallVector<const GlobalValue *, 8> &R = Refs[&F];
      referencesOf(F, R);
      for (const GlobalValue *GV : R)
        if (GV != &F)
          if (const auto *G = dyn_cast<Function>(GV))
            Called.insert(G);
    }
  // A variable whose initializer refers to a function (a table of function
  // pointers, a vtable): all together.
  for (const GlobalVariable &GV : M.globals()) {
    if (!GV.hasInitializer() || GV.getName().starts_with("llvm."))
      continue;
    SmallPtrSet<const Constant *, 16> Seen;
    SmallVector<const GlobalValue *, 8> Globals;
    globalsIn(GV.getInitializer(), Seen, Globals);
    if (llvm::any_of(Globals,
                     [](const GlobalValue *G) { return isa<Function>(G); })) {
      Piece All;
      All.Functions.insert(Fns.begin(), Fns.end());
      return {std::move(All)};
    }
  }

  // Roots: what no other function refers to (the kernels, functions nothing
  // calls), then any function still unreached (a cycle only itself calls).
  std::vector<const Function *> Roots;
  for (const Function *F : Fns)
    if (!Called.count(F))
      Roots.push_back(F);
  DenseMap<const Function *, SmallPtrSet<const GlobalValue *, 16>> Reach;
  DenseSet<const Function *> Covered;
  auto Walk = [&](const Function *Root) {
    SmallPtrSet<const GlobalValue *, 16> &Set = Reach[Root];
    SmallVector<const GlobalValue *, 16> Work{Root};
    Set.insert(Root);
    while (!Work.empty()) {
      const GlobalValue *GV = Work.pop_back_val();
      if (const auto *F = dyn_cast<Function>(GV))
        Covered.insert(F);
      auto It = Refs.find(GV);
      if (It != Refs.end())
        for (const GlobalValue *R : It->second)
          if (Set.insert(R).second)
            Work.push_back(R);
    }
  };
  for (const Function *R : Roots)
    Walk(R);
  for (const Function *F : Fns)
    if (!Covered.count(F)) {
      Roots.push_back(F);
      Walk(F);
    }

  // Roots that reach the same internal function or variable go together.
  EquivalenceClasses<const GlobalValue *> Together;
  for (const Function *R : Roots) {
    Together.insert(R);
    for (const GlobalValue *GV : Reach[R])
      if (binds(*GV))
        Together.unionSets(R, GV);
  }
  MapVector<const GlobalValue *, std::vector<const Function *>> Groups;
  for (const Function *R : Roots)
    Groups[Together.getLeaderValue(R)].push_back(R);

  std::vector<Piece> Out;
  size_t Size = 0;
  for (auto &[Leader, Members] : Groups) {
    if (Out.empty() || Size >= Instructions) {
      Out.emplace_back();
      Size = 0;
    }
    for (const Function *R : Members)
      for (const GlobalValue *GV : Reach[R])
        if (const auto *F = dyn_cast<Function>(GV))
          if (Out.back().Functions.insert(F).second)
            Size += F->getInstructionCount();
  }
  return Out;
}

Piece reachedFrom(const Module &M, ArrayRef<const Function *> Roots) {
  Piece Out;
  SmallPtrSet<const Constant *, 32> Seen;
  SmallVector<const Function *, 16> Work;
  for (const Function *F : Roots)
    if (!F->isDeclaration() && Out.Functions.insert(F).second)
      Work.push_back(F);
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    SmallVector<const GlobalValue *, 16> Globals;
    for (const Instruction &I : instructions(*F))
      for (const Value *Op : I.operands())
        if (const auto *C = dyn_cast<Constant>(Op))
          globalsIn(C, Seen, Globals);
    for (size_t I = 0; I < Globals.size(); ++I) {
      const GlobalValue *GV = Globals[I];
      if (const auto *V = dyn_cast<GlobalVariable>(GV)) {
        if (V->hasInitializer())
          globalsIn(V->getInitializer(), Seen, Globals);
        continue;
      }
      const auto *G = dyn_cast<Function>(GV);
      if (G && !G->isDeclaration() && Out.Functions.insert(G).second)
        Work.push_back(G);
    }
  }
  return Out;
}

namespace {

// A piece is copied through bitcode: a context of its own is dropped with
// all that the analyses made in it (the debug locations of inlined code,
// constants), which the module's would keep until the file is done.
SmallVector<char, 0> bitcodeOf(const Module &Src, const Piece &P) {
  SmallVector<char, 0> Bitcode;
  ValueToValueMapTy Map;
  std::unique_ptr<Module> Copy =
      CloneModule(Src, Map, [&](const GlobalValue *GV) {
        const auto *F = dyn_cast<Function>(GV);
        return !F || P.contains(F);
      });
  // What nothing of the piece refers to (the declarations of the other
  // pieces' functions) only costs the copies' time.
  for (Function &F : llvm::make_early_inc_range(*Copy))
    if (F.isDeclaration() && F.use_empty())
      F.eraseFromParent();
  raw_svector_ostream OS(Bitcode);
  WriteBitcodeToFile(*Copy, OS);
  return Bitcode;
}

std::unique_ptr<Module> parsed(const SmallVector<char, 0> &Bitcode,
                               LLVMContext &Ctx) {
  Expected<std::unique_ptr<Module>> M = parseBitcodeFile(
      MemoryBufferRef(StringRef(Bitcode.data(), Bitcode.size()), "piece"), Ctx);
  if (!M) {
    consumeError(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}

} // namespace

std::unique_ptr<Module> copyInto(const Module &Src, const Piece &P,
                                 LLVMContext &Ctx) {
  return parsed(bitcodeOf(Src, P), Ctx);
}

PieceCopies::PieceCopies(const Module &M, size_t Instructions)
    : M(M), All(pieces(M, Instructions)), Bitcode(All.size()) {}

void PieceCopies::forEach(function_ref<void(Module &)> Work,
                          function_ref<bool(const Piece &)> Wanted) {
  for (size_t I = 0; I < All.size(); ++I)
    if (!Wanted || Wanted(All[I]))
      copy(I, Work);
}

void PieceCopies::copy(size_t I, function_ref<void(Module &)> Work) {
  if (Bitcode[I].empty())
    Bitcode[I] = bitcodeOf(M, All[I]);
  LLVMContext Ctx;
  if (std::unique_ptr<Module> Copy = parsed(Bitcode[I], Ctx))
    Work(*Copy);
}

void forEachPiece(const Module &M, function_ref<void(Module &)> Work,
                  function_ref<bool(const Piece &)> Wanted) {
  PieceCopies(M).forEach(Work, Wanted);
}

} // namespace warplint::ir
