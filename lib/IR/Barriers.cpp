#include "IR/Barriers.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace warplint::ir {

namespace {

std::optional<StringRef> reductionName(StringRef Op) {
  if (Op == "popc")
    return StringRef("__syncthreads_count()");
  if (Op == "and")
    return StringRef("__syncthreads_and()");
  if (Op == "or")
    return StringRef("__syncthreads_or()");
  return std::nullopt;
}

bool firstArgIsZero(const CallBase &CB) {
  if (CB.arg_size() == 0)
    return true;
  const auto *C = dyn_cast<ConstantInt>(CB.getArgOperand(0));
  return C && C->isZero();
}

// The barrier.cta.* family of LLVM 21+; N is the name after "barrier.cta.".
// The ".count" forms synchronise a given number of threads, not the block.
std::optional<StringRef> ctaBarrierName(StringRef N, const CallBase &CB) {
  if (!N.consume_back(".all"))
    return std::nullopt;
  if (N.consume_front("red.")) {
    N.consume_back(".aligned");
    return reductionName(N);
  }
  if (N == "sync.aligned")
    return firstArgIsZero(CB) ? StringRef("__syncthreads()")
                              : StringRef("bar.sync");
  if (N == "sync")
    return StringRef("__barrier_sync()");
  return std::nullopt;
}

std::optional<StringRef> intrinsicBarrierName(StringRef N, const CallBase &CB) {
  if (!N.consume_front("llvm.nvvm."))
    return std::nullopt;
  if (N == "barrier0")
    return StringRef("__syncthreads()");
  if (N.consume_front("barrier0."))
    return reductionName(N);
  if (N == "barrier.n" || N == "bar.sync" || N == "barrier.sync")
    return StringRef("__barrier_sync()");
  if (N.consume_front("barrier.cta."))
    return ctaBarrierName(N, CB);
  return std::nullopt;
}

// One PTX statement, e.g. "@p bar.sync 0" or "barrier.cta.red.popc.u32 $0,
// 0, $1": a block-wide bar.sync / bar.red (no thread-count operand)?
std::optional<StringRef> asmStatementBarrier(StringRef S) {
  S = S.trim();
  if (S.starts_with("@")) // a guard predicate
    S = S.split(' ').second.trim();
  auto [Mnemonic, Operands] = S.split(' ');
  SmallVector<StringRef, 4> Parts;
  Mnemonic.split(Parts, '.');
  if (Parts.size() < 2 || (Parts[0] != "bar" && Parts[0] != "barrier"))
    return std::nullopt;
  size_t Op = Parts[1] == "cta" ? 2 : 1;
  if (Op >= Parts.size())
    return std::nullopt;
  size_t Count = Operands.trim().empty() ? 0 : Operands.count(',') + 1;
  if (Parts[Op] == "sync" && Count == 1)
    return StringRef("bar.sync");
  if (Parts[Op] == "red" && Count == 3) // d, barrier id, predicate
    return StringRef("bar.red");
  return std::nullopt;
}

std::optional<StringRef> asmBarrierName(const InlineAsm &IA) {
  SmallVector<StringRef, 8> Statements;
  IA.getAsmString().split(Statements, ';');
  for (StringRef Statement : Statements) {
    // Braces and newlines separate statements too inside { ... } blocks.
    SmallVector<StringRef, 4> Lines;
    Statement.split(Lines, '\n');
    for (StringRef Line : Lines)
      if (auto Name = asmStatementBarrier(Line.trim(" \t{}")))
        return Name;
  }
  return std::nullopt;
}

} // namespace

std::optional<StringRef> blockBarrierName(const CallBase &CB) {
  if (const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand()))
    return asmBarrierName(*IA);
  if (const Function *F = CB.getCalledFunction())
    return intrinsicBarrierName(F->getName(), CB);
  return std::nullopt;
}

bool callsBlockBarrier(const Function &F) {
  return any_of(instructions(F), [](const Instruction &I) {
    const auto *CB = dyn_cast<CallBase>(&I);
    return CB && blockBarrierName(*CB);
  });
}

bool isBlockReduction(const Value *V) {
  const auto *CB = dyn_cast<CallBase>(V);
  if (!CB || CB->getType()->isVoidTy())
    return false;
  auto Name = blockBarrierName(*CB);
  return Name && Name->starts_with("__syncthreads_");
}

} // namespace warplint::ir
