#include "Analysis/LaneEngine.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include <optional>

using namespace clang;

namespace warplint {

LaneEngine::LaneEngine(ASTContext &Ctx, unsigned WarpSize)
    : Ctx(Ctx), WarpSize(WarpSize),
      Affine(std::make_unique<AffineAnalysis>(Ctx, TDA, WarpSize)) {}

const CallGraphView &LaneEngine::callGraph() {
  if (!Calls)
    Calls = std::make_unique<CallGraphView>(Ctx);
  return *Calls;
}

// Two launches' shapes joined: the same x, y, z (the run-time z choices
// united), or nothing.
static std::optional<BlockShape> agree(std::optional<BlockShape> A,
                                       const BlockShape &B) {
  if (!A)
    return B;
  if (B.X != A->X || B.Y != A->Y || B.Z != A->Z || B.RuntimeZ != A->RuntimeZ)
    return std::nullopt;
  A->joinZChoices(B.ZChoices);
  return A;
}

BlockShape LaneEngine::kernelShape(const FunctionDecl *Kernel) {
  const FunctionTemplateDecl *T = Kernel->getDescribedFunctionTemplate();
  if (!T)
    return Affine->blockShape(Kernel);
  std::optional<BlockShape> Out;
  for (const FunctionDecl *Spec : T->specializations()) {
    BlockShape S = Affine->blockShape(Spec);
    if (!S.pinned())
      return {};
    Out = agree(Out, S);
    if (!Out)
      return {};
  }
  return Out ? *Out : BlockShape();
}

BlockShape LaneEngine::shape(const FunctionDecl *F) {
  F = F->getCanonicalDecl();
  auto It = Shapes.find(F);
  if (It != Shapes.end())
    return It->second;
  BlockShape Result;
  if (F->hasAttr<CUDAGlobalAttr>()) {
    Result = kernelShape(F);
  } else {
    llvm::SmallVector<const FunctionDecl *, 4> Kernels;
    std::optional<BlockShape> Out;
    if (kernelsReaching(F, Kernels)) {
      for (const FunctionDecl *K : Kernels) {
        BlockShape S = kernelShape(K);
        Out = S.pinned() ? agree(Out, S) : std::nullopt;
        if (!Out)
          break;
      }
    }
    if (Out)
      Result = *Out;
  }
  Shapes[F] = Result;
  return Result;
}

bool LaneEngine::kernelsReaching(
    const FunctionDecl *F, llvm::SmallVectorImpl<const FunctionDecl *> &Out,
    unsigned Depth) {
  if (F->hasAttr<CUDAGlobalAttr>()) {
    if (!llvm::is_contained(Out, F))
      Out.push_back(F);
    return true;
  }
  if (Depth > MaxDeviceCallDepth)
    return false;
  bool Any = false;
  for (const CallSite &Site : callGraph().callers(F)) {
    if (Site.Caller->isDependentContext())
      continue; // its instantiations call it too
    if (!kernelsReaching(Site.Caller, Out, Depth + 1))
      return false;
    Any = true;
  }
  return Any;
}

std::vector<WarpExchange> LaneEngine::exchanges(const FunctionDecl *Kernel) {
  return findWarpExchanges(Kernel, shape(Kernel), WarpSize);
}

} // namespace warplint
