// The second parse of a file whose first parse has errors that nvcc's build
// would not have (ParseRecovery.h): finding those errors, and the plan.
#include "Driver/ParseRecovery.h"
#include "Driver/Focus.h"
#include "Driver/ParseInputs.h"
#include "clang/Basic/DiagnosticAST.h"
#include "clang/Basic/DiagnosticSema.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include <functional>
#include <map>

using namespace clang;

namespace warplint {

namespace {

// Error Info, an invalid `%` escape in an inline assembly string of a file
// of the user's, as an AsmEscape; nothing for any other error.
std::optional<FirstParseErrors::AsmEscape> asmEscape(const Diagnostic &Info) {
  if (Info.getID() != diag::err_asm_invalid_escape ||
      !Info.hasSourceManager() || !Info.getLocation().isValid())
    return std::nullopt;
  const SourceManager &SM = Info.getSourceManager();
  SourceLocation L = Info.getLocation();
  if (!L.isFileID() || SM.isInSystemHeader(L))
    return std::nullopt;
  FileID Id = SM.getFileID(L);
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(Id);
  if (!Entry)
    return std::nullopt;
  // The error points at the escape's second or third character.
  llvm::StringRef Text = SM.getBufferData(Id);
  unsigned At = SM.getFileOffset(L);
  unsigned Percent = At;
  while (Percent > 0 && At - Percent < 3 && Text[Percent] != '%')
    --Percent;
  if (Text[Percent] != '%' || Percent + 1 >= Text.size() ||
      !llvm::isAlpha(Text[Percent + 1]))
    return std::nullopt;
  size_t End = Percent + 1;
  while (End < Text.size() && (llvm::isAlnum(Text[End]) || Text[End] == '_'))
    ++End;
  std::string Name = Text.slice(Percent, End).str();
  PresumedLoc P = SM.getPresumedLoc(SM.getComposedLoc(Id, Percent));
  return FirstParseErrors::AsmEscape{
      Entry->getName().str(), Percent,
      std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ":" +
          std::to_string(P.getColumn()) + ": clang rejects '" + Name +
          "' in inline assembly (invalid % escape), which nvcc passes to "
          "ptxas as written; analysed as '%" +
          Name + "'"};
}

} // namespace

void ErrorCollector::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                      const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level < DiagnosticsEngine::Error)
    return;
  llvm::SmallString<256> Text;
  Info.FormatDiagnostic(Text);
  ToolError E;
  E.Message = Text.str().str();
  E.FromCompiler = true;
  E.Loc.File = File;
  std::optional<unsigned> InMainFile; // the offset there
  if (Info.hasSourceManager() && Info.getLocation().isValid()) {
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation L = SM.getFileLoc(Info.getLocation());
    PresumedLoc P = SM.getPresumedLoc(L);
    if (P.isValid()) {
      E.Loc.File = P.getFilename();
      E.Loc.Line = P.getLine();
      E.Loc.Column = P.getColumn();
    }
    if (SM.isInMainFile(L))
      InMainFile = SM.getFileOffset(L);
  }
  if (FirstErrors) {
    FirstErrors->Errors.push_back(
        {InMainFile, std::to_string(E.Loc.Line) + ":" +
                         std::to_string(E.Loc.Column) + ": " + E.Message});
    if (auto A = asmEscape(Info))
      FirstErrors->AsmEscapes.push_back(std::move(*A));
    else if (Info.getID() == diag::err_cuda_device_kernel_launch_require_rdc)
      FirstErrors->NeedsRdc = E.Loc.File + ":" + std::to_string(E.Loc.Line) +
                              ":" + std::to_string(E.Loc.Column);
    else
      FirstErrors->OtherErrors = true;
  }
  Sink.reportError(std::move(E));
}

// The host bodies of the main file that hold all of the parse's errors, each
// with the warning that names it; nothing if any error lies elsewhere (in
// device code, a header, between functions) or in a body the parser cannot
// skip.
std::vector<std::pair<unsigned, std::string>>
brokenHostBodies(const FirstParseErrors &E, ASTContext &AST,
                 llvm::StringRef File) {
  Decl *TU = AST.getTranslationUnitDecl();
  std::vector<BodySpan> Bodies = mainFileBodies(TU, AST);
  const SourceManager &SM = AST.getSourceManager();
  llvm::StringRef Text = SM.getBufferData(SM.getMainFileID());
  std::vector<std::pair<unsigned, std::string>> Out;
  for (const auto &[At, Message] : E.Errors) {
    if (!At)
      return {};
    // The outermost body around the error; every body around it host code
    // (not a __device__ lambda in a host function).
    const BodySpan *Outer = nullptr;
    for (const BodySpan &B : Bodies)
      if (B.Begin <= *At && *At < B.End) {
        if (!B.HostOnly)
          return {};
        if (!Outer || B.Begin < Outer->Begin)
          Outer = &B;
      }
    if (!Outer || Outer->AlwaysParsed)
      return {};
    if (llvm::any_of(Out,
                     [&](const auto &B) { return B.first == Outer->Name; }))
      continue;
    size_t End = Outer->Name;
    while (End < Text.size() && (llvm::isAlnum(Text[End]) || Text[End] == '_'))
      ++End;
    PresumedLoc P =
        SM.getPresumedLoc(SM.getComposedLoc(SM.getMainFileID(), Outer->Name));
    std::string Name = Text.slice(Outer->Name, End).str();
    Out.push_back(
        {Outer->Name,
         File.str() + ":" + std::to_string(P.getLine()) + ":" +
             std::to_string(P.getColumn()) +
             ": clang's device-side parse rejects the body of host function '" +
             Name + "' (" + Message +
             "); the rest of the file was analysed without that body, its "
             "device code in full"});
  }
  return Out;
}

std::unique_ptr<DiagnosticConsumer> createErrorCollector(DiagSink &Sink,
                                                         llvm::StringRef File) {
  return std::make_unique<ErrorCollector>(Sink, File);
}

std::optional<SecondParse>
secondParse(const FirstParseErrors &Errors, const FileTask &T,
            llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS) {
  SecondParse Again{T, nullptr, {}, true};
  switch (Errors.recovery()) {
  case FirstParseErrors::Recovery::None:
    return std::nullopt;
  case FirstParseErrors::Recovery::Rdc:
    // The compile command lacks the flag its build must have. The errors
    // stand, as nvcc's would; the findings are those of the code as that
    // build compiles it.
    Again.Warnings.push_back(
        Errors.NeedsRdc +
        ": a kernel launched from device code needs relocatable device "
        "code (nvcc -rdc=true, clang -fgpu-rdc), which the compile command "
        "does not ask for; the file was analysed as with -fgpu-rdc");
    Again.Task.Flags.Args.push_back("-fgpu-rdc");
    return Again;
  case FirstParseErrors::Recovery::AsmEscapes: {
    // Each `%name` written `%%name`, which is what ptxas receives; the
    // errors become warnings.
    std::map<std::string, std::vector<unsigned>> Percents;
    for (const FirstParseErrors::AsmEscape &A : Errors.AsmEscapes)
      Percents[A.Path].push_back(A.Percent);
    std::map<std::string, std::string> Escaped;
    for (auto &[Path, At] : Percents) {
      auto Buffer = FS->getBufferForFile(Path);
      if (!Buffer)
        return std::nullopt; // the errors stand
      std::string Text = (*Buffer)->getBuffer().str();
      llvm::sort(At, std::greater<unsigned>());
      for (unsigned P : llvm::make_range(At.begin(), llvm::unique(At)))
        Text.insert(P, 1, '%');
      Escaped[Path] = std::move(Text);
    }
    for (const FirstParseErrors::AsmEscape &A : Errors.AsmEscapes)
      Again.Warnings.push_back(A.Warning);
    Again.Files = llvm::makeIntrusiveRefCnt<FileManager>(
        FileSystemOptions(), withFilesInMemory(FS, Escaped));
    Again.KeepErrors = false;
    return Again;
  }
  case FirstParseErrors::Recovery::SkipHostBodies: {
    llvm::DenseSet<unsigned> Skipped;
    for (const auto &[Name, Warning] : Errors.Broken) {
      Skipped.insert(Name);
      Again.Warnings.push_back(Warning);
    }
    Again.Task.SkipBody = [Skipped](unsigned Name) {
      return Skipped.contains(Name);
    };
    // The errors stand (the TU does not compile as clang reads it: exit
    // 2); the findings come from the parse without them.
    return Again;
  }
  }
  return std::nullopt;
}

} // namespace warplint
