// One device parse judged for several targets (--arch=sm_60,sm_80,sm_90).
//
// What a device parse sees differs between targets only through the macros
// clang and warplint define per target (__CUDA_ARCH__, __CUDA_ARCH_LIST__,
// __CUDA_ARCH_FEAT_*, __warplint_lacks_*). When the user's code (the main
// file and its non-system headers) does not look at them, one parse, made for
// the target that lacks every feature the others lack (the oldest), serves
// every target: the CUDA headers declare the least for it, and the feature
// header declares the rest with the rule table's feature field named in
// annotate("warplint-requires:<field>"), which arch-unsupported-feature
// judges per target from the tables. Whatever this file cannot rule out
// (the user's code tests one of those macros, or a macro the system headers
// define under such a test; a compiler error; a user declaration of a name
// the feature header supplies; the IR layer's code generation failing) means
// a parse per target, as before. A use of a target macro in the user's code
// that gives the same code for every target (#if __CUDA_ARCH__ >= 600 with
// every target newer; an assert the CUDA headers' <assert.h> redefines the
// same under such a test) is ruled out by preprocessing the file for each
// target and comparing what the user's files give (preprocessedUserCode).
#pragma once
#include "Arch/ArchTable.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MD5.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm::vfs {
class FileSystem;
} // namespace llvm::vfs

namespace clang {
class ASTContext;
class LangOptions;
class SourceManager;
} // namespace clang

namespace warplint {

// Whether Name is a macro whose definition differs between device parses for
// different targets; ByValue: only its value differs (it is defined for every
// target, so #ifdef and defined() give the same answer everywhere).
bool isTargetMacro(llvm::StringRef Name, bool &ByValue);

// The target one parse for all of Archs is made for: the oldest one that
// lacks every feature any of the others lacks. Null when no target does
// (the parse's feature declarations would not cover the others).
const ArchInfo *oneParseTarget(llvm::ArrayRef<const ArchInfo *> Archs);

// What the preprocessor callbacks found: the first place the user's code
// depends on the target, in words (empty: nowhere).
struct TargetDependence {
  std::string Where;
  // The macros the parse expanded or tested anywhere, system headers'
  // code included (preprocessedUserCode reads only their directives).
  llvm::StringSet<> Read;
};

// Preprocessor callbacks that fill Out with the first use, in a file that is
// not a system header, of a target macro, or of a macro a system header
// defines (or undefines) inside a conditional that tests one, in the branch
// this parse takes or in one it skips.
std::unique_ptr<clang::PPCallbacks>
watchTargetMacros(const clang::SourceManager &SM,
                  const clang::LangOptions &LangOpts, TargetDependence &Out);

// The first user declaration (outside the system headers) of a name the
// feature header declares for targets that lack a feature: the newer
// targets' headers declare the real one, which the user's may collide with.
// Empty: none.
std::string userDeclaresFeatureName(clang::ASTContext &AST);

// The preprocessor directives of the system headers, scanned once for all
// the targets' preprocessedUserCode of a file.
class SystemDirectives;
std::shared_ptr<SystemDirectives> makeSystemDirectives();

// What the user's own files are after preprocessing with the compiler
// arguments Args (one target's parse): a digest of the tokens they give
// after macro expansion (annotations aside), of the files they include, of
// the macros they define or undefine and something reads (the user's code,
// a directive, or the parse's Read) and of their #pragma lines; a
// comparison of __CUDA_ARCH__'s number with a constant that stands whole
// (`(__CUDA_ARCH__ >= 200) ? 32 : 16`) goes in as its answer. Two targets
// whose digests agree give the user's code the same meaning. Of the system
// headers the preprocessor reads only the directives (clang's dependency
// scanner's, cached in Directives): their code is not the user's, and
// lexing it was most of the time. None when the preprocessor fails (an
// error, a missing header): the caller must assume they differ.
std::optional<llvm::MD5::MD5Result>
preprocessedUserCode(const std::vector<std::string> &Args,
                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                     const llvm::StringSet<> &Read,
                     SystemDirectives &Directives);

} // namespace warplint
