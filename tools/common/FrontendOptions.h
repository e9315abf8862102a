// The command-line options warplint and warplint-lsp share, declared once:
// the checks, the targets, the compile command's extra arguments, the
// toolkit and the rule tables. Linked into those two tools only (not into
// the plugin: clang has options of these names).
#pragma once
#include "Arch/ArchTable.h"
#include "Driver/Runner.h"
#include "llvm/Support/CommandLine.h"

namespace warplint::frontend {

extern llvm::cl::OptionCategory Category;
extern llvm::cl::opt<std::string> ChecksOpt;
extern llvm::cl::list<std::string> ArchOpt;
extern llvm::cl::list<std::string> ExtraArgs;
extern llvm::cl::list<std::string> ExtraArgsBefore;
extern llvm::cl::opt<std::string> CudaPathOpt;
extern llvm::cl::opt<std::string> ArchDataOpt;

// Where the rule tables are: --arch-data, $WARPLINT_ARCH_DATA, else
// <share>/arch-data.
std::string archDataDirectory(llvm::StringRef Share);

// The rule tables of Dir; an error names an --arch they do not have.
llvm::Expected<ArchTable> loadArchTables(llvm::StringRef Dir);

// clang's resource directory: <share>/clang where the package put a copy of
// clang's headers there, else the one of the clang warplint was built with.
std::string clangResourceDirectory(llvm::StringRef Share);

// Where the parses find the toolkit (--cuda-path, else searched), the
// fallback and feature headers under <share>/include, and clang's resource
// directory.
RunEnvironment runEnvironment(const ArchTable &Tables, llvm::StringRef Share);

} // namespace warplint::frontend
