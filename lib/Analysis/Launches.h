// Kernel launches in host code, in their four spellings: k<<<g, b, s>>>(...),
// cudaLaunchKernel(k, g, b, args, s, stream), cudaLaunchCooperativeKernel
// with the same arguments, and cudaLaunchKernelEx(&config, k, args...) whose
// shape is the fields of a local cudaLaunchConfig_t set once in the function.
#pragma once
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <optional>
#include <string>
#include <vector>

namespace warplint {

struct LaunchSite {
  const clang::FunctionDecl *Kernel = nullptr; // canonical; null if unknown
  const clang::Expr *Grid = nullptr;
  const clang::Expr *Block = nullptr;
  const clang::Expr *SharedBytes = nullptr; // null: none given (0)
};

// Matches every launch outside system headers, bound to "launch".
clang::ast_matchers::StatementMatcher launchMatcher();

// The launches launchMatcher() matches in the TU, in one traversal that
// skips the declarations of system headers (as the checks' own does): no
// launch there is the user's, and a CUDA TU's are most of its nodes.
std::vector<const clang::CallExpr *> userLaunches(clang::ASTContext &AST);

// The kernel a function argument names: k, &k, (void *)k; null otherwise.
const clang::FunctionDecl *kernelNamedBy(const clang::Expr *E);

// Whether Call is a launch in one of the three spellings.
bool isLaunch(const clang::CallExpr *Call);

// The parts of a call matched by launchMatcher().
LaunchSite launchSite(const clang::CallExpr *Call);

// cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n):
// the kernel it opts in (canonical) and n; nullopt for any other call.
struct SharedOptIn {
  const clang::FunctionDecl *Kernel;
  const clang::Expr *Bytes;
};
std::optional<SharedOptIn> sharedOptIn(const clang::CallExpr *Call);

// How many blocks a launch's grid has, where it says so in terms of the GPU
// it runs on: `prop.multiProcessorCount * 2`, a local set by
// cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, d), or such a
// count times the blocks per SM that
// cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, ...) returned (a grid
// sized to be resident). Constant grids are the caller's (literalShapeOf).
struct GridPerSM {
  enum Kind {
    Unknown,
    PerSM,    // BlocksPerSM blocks for every SM of the GPU
    Resident, // sized by the occupancy API to what fits at once
  } K = Unknown;
  uint64_t BlocksPerSM = 0;
};
GridPerSM gridPerSMOf(const clang::Expr *Grid, const clang::ASTContext &Ctx);

// The blocks of a grid written with constants, through what the constant
// evaluator does not fold: locals (dim3 or struct) initialised with
// constants and never written again, their fields, + - * /, min and max,
// and the ceiling-division helpers (iDivUp, divUp, ceil_div):
// `dim3 grid(iDivUp(extent.width, block.x))` with `cudaExtent extent =
// {1024, 0, 0}` is 32 blocks of 32 threads.
std::optional<uint64_t> gridBlocksOf(const clang::Expr *Grid,
                                     const clang::ASTContext &Ctx);

// The non-extern __shared__ arrays declared in Kernel's body whose size is
// written with a name (a macro, a constant) that the launch's block-size
// expression Block also uses, directly or through the local it names: the
// block size is the algorithm's tile (a BLOCK_SIZE x BLOCK_SIZE tile for
// BLOCK_SIZE threads). The shared name comes back in Name.
std::vector<const clang::VarDecl *>
sharedArraysSizedLike(const clang::Expr *Block,
                      const clang::FunctionDecl *Kernel, std::string &Name);
// Whether E's value comes from a template argument of the function it is
// in (a non-type parameter, a generic lambda's `auto` parameter such as
// std::integral_constant), directly or through a local's initialiser: a
// value the instantiating code chooses, often a run-time size dispatched
// to constants.
bool fromTemplateArgument(const clang::Expr *E);
// Whether the expression E (a launch's dynamic shared bytes) uses a name
// that Block's expression uses too: dynamic memory sized by the block.
bool sizedLike(const clang::Expr *E, const clang::Expr *Block,
               const clang::ASTContext &Ctx, std::string &Name);

} // namespace warplint
