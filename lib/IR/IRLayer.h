// The IR layer of one device parse: clang's code generator run on the same
// AST the checks saw, then divergence-barrier findings from the device IR,
// mapped back to source through debug locations and reported through the
// checks' CheckContext (so NOLINT, system headers, --checks and the output
// formats apply as to any finding).
//
// The code generator is fed at the end of the translation unit, from a record
// of what the parser handed the consumers, after the checks have run: a TU
// with errors never reaches it, and what it would diagnose (it is not the
// compiler the user asked for) is kept out of the user's diagnostics.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <memory>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace warplint {
class CheckContext;
class DiagSink;

// The check the IR layer reports for.
inline constexpr llvm::StringLiteral IRLayerCheckId = "divergence-barrier";

// --ir-layer (CLI) and ir-layer= (plugin): the IR layer with the AST checks,
// not at all, or alone (the AST check off, to test the IR layer).
enum class IRLayerMode { On, Off, Only };

// The consumer to put after the checks' one in a MultiplexConsumer. Findings
// at a line where the AST layer already reported divergence-barrier are
// dropped. Any failure of the IR layer means no IR findings, never an error.
std::unique_ptr<clang::ASTConsumer>
createIRLayerConsumer(clang::CompilerInstance &CI, CheckContext &Ctx,
                      const DiagSink &Sink);

} // namespace warplint
