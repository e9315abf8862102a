// libFuzzer target: compile_commands.json as warplint reads it (Clang's
// JSON compilation database, with commands inferred for files it does not
// list), and each command through the nvcc-flag translator
// (Driver/NvccFlags.h), as Driver/Tasks.cpp does for a file.
#include "Driver/NvccFlags.h"
#include "FuzzInput.h"
#include "clang/Tooling/JSONCompilationDatabase.h"

using namespace warplint;
using namespace clang::tooling;

static void translate(const CompileCommand &C) {
  CompileFlags Flags = translateCommand(C.CommandLine, C.Filename, C.Directory);
  dropUnknownDriverFlags(Flags);
  for (const std::string &A : Flags.Archs)
    (void)normaliseArch(A);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Err;
  std::unique_ptr<CompilationDatabase> DB =
      JSONCompilationDatabase::loadFromBuffer(
          fuzz::textOf(Data, Size), Err, JSONCommandLineSyntax::AutoDetect);
  if (!DB)
    return 0;
  std::vector<std::string> Files = DB->getAllFiles();
  for (const CompileCommand &C : DB->getAllCompileCommands())
    translate(C);
  // A file the database does not list borrows a neighbour's command.
  std::unique_ptr<CompilationDatabase> Inferred =
      inferMissingCompileCommands(std::move(DB));
  for (const char *F : {"/fuzz/src/unlisted.cu", "/fuzz/src/kernel.cuh"})
    for (const CompileCommand &C : Inferred->getCompileCommands(F))
      translate(C);
  return 0;
}
