#include "IR/PartialReach.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"

using namespace llvm;

namespace warplint::ir {

namespace {

bool isBranch(const BasicBlock &BB) {
  const Instruction *T = BB.getTerminator();
  return T && T->getNumSuccessors() > 1;
}

} // namespace

PartialReach::PartialReach(Function &F, const PostDominatorTree &PDT,
                           UniformityInfo &UI) {
  SmallPtrSet<const BasicBlock *, 16> Divergent;
  // (block whose branch splits the threads, the divergent branch to blame)
  SmallVector<std::pair<BasicBlock *, const Instruction *>, 16> Stack;
  for (BasicBlock &BB : F)
    if (isBranch(BB) && UI.hasDivergentTerminator(BB)) {
      Divergent.insert(&BB);
      Stack.push_back({&BB, BB.getTerminator()});
    }
  // The stack pops later branches first, so that a block inside nested
  // divergent ifs is blamed on the nearest one.
  SmallPtrSet<const BasicBlock *, 32> Expanded;
  while (!Stack.empty()) {
    auto [B, Why] = Stack.pop_back_val();
    if (!Expanded.insert(B).second)
      continue;
    const DomTreeNode *BNode = PDT.getNode(B);
    const DomTreeNode *Stop = BNode ? BNode->getIDom() : nullptr;
    SmallPtrSet<const BasicBlock *, 4> Seen;
    for (BasicBlock *S : successors(B)) {
      if (!Seen.insert(S).second)
        continue;
      for (const DomTreeNode *N = PDT.getNode(S); N && N != Stop;
           N = N->getIDom()) {
        BasicBlock *Y = N->getBlock();
        if (!Y) // the virtual root of a function with several exits
          break;
        if (!Origin.try_emplace(Y, Why).second || !isBranch(*Y))
          continue;
        Stack.push_back({Y, Divergent.count(Y) ? Y->getTerminator() : Why});
      }
    }
  }
}

} // namespace warplint::ir
