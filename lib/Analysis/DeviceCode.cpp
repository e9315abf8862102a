#include "Analysis/DeviceCode.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace warplint {

bool isWrittenForDevice(const FunctionDecl *F) {
  if (F->hasAttr<CUDAGlobalAttr>())
    return true;
  if (const auto *A = F->getAttr<CUDADeviceAttr>(); A && !A->isImplicit())
    return true;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F);
      M && M->getParent()->isLambda())
    for (const DeclContext *DC = M->getParent()->getParent(); DC;
         DC = DC->getParent())
      if (const auto *Outer = dyn_cast<FunctionDecl>(DC))
        return isWrittenForDevice(Outer);
  return false;
}

} // namespace warplint
