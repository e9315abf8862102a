// The file that #includes a .cu fragment: a kernel file that does not compile
// on its own, because another .cu file of its directory includes it into its
// own context (the types, macros and headers it defines first) to launch its
// kernels. As clangd gives a header the compile command of a file that
// includes it, warplint analyses such a fragment through its includer.
#pragma once
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace warplint {

// The absolute path of a .cu file in Fragment's directory, other than
// Fragment, with a quoted #include directive that names Fragment (by its
// file name, or a path relative to the includer's directory that resolves
// to it); nothing when there is none. The first such file in name order.
// Directives are read with clang's dependency-directives scanner, so
// comments, strings and #if-disabled text are no directives, but a
// directive under #if counts.
std::optional<std::string> findIncluder(llvm::StringRef Fragment);

} // namespace warplint
