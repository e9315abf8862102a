// One report from the results of several files: fragments through their
// includers, inputs #included by other inputs, the header filter, dedupe.
#include "Merge.h"
#include "Driver/Includer.h"
#include "Options.h"
#include "Support/Paths.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace warplint::cli {

namespace {

// The given files that another given file #includes: a kernel file and the
// file that #includes it to launch its kernels (a.cu, and b.cu with
// `#include "a.cu"`). Such a file is reported through its includer only:
// that parse sees all of it, and the launches too (the block shapes the
// memory checks model warps with), where its own parse would judge the
// kernels with the default shape and report the same lines again with
// other numbers. Two files that include each other, or an includer whose
// parse crashed, keep the file's own results.
std::vector<bool>
includedByAnotherInput(const std::vector<FileTask> &Tasks,
                       const std::vector<FileResult> &Results) {
  std::vector<bool> Covered(Tasks.size(), false);
  if (Tasks.size() < 2)
    return Covered;
  std::vector<std::string> Real;
  for (const FileTask &T : Tasks)
    Real.push_back(realPath(T.File));
  auto Includes = [&](size_t By, size_t Of) {
    const std::vector<std::string> &Read = Results[By].Dependencies;
    // (A parse that crashed lists nothing.)
    return Real[By] != Real[Of] &&
           std::binary_search(Read.begin(), Read.end(), Real[Of]);
  };
  for (size_t Of = 0; Of < Tasks.size(); ++Of)
    for (size_t By = 0; By < Tasks.size() && !Covered[Of]; ++By)
      Covered[Of] = Includes(By, Of) && !Includes(Of, By);
  return Covered;
}

// Fragment's results from the parse of Includer, a file that #includes it:
// the findings at Fragment's lines, spelled as the user named it. Nothing
// when that parse has errors too (Fragment's own errors are then the
// better report).
std::optional<FileResult> analyseThroughIncluder(StringRef Fragment,
                                                 const FileTask &Includer,
                                                 const RunEnvironment &Env) {
  FileResult Through = runFile(Includer, Env);
  if (!Through.Sink.errors().empty())
    return std::nullopt;
  std::string Real = realPath(Fragment);
  FileResult R;
  R.Warnings = std::move(Through.Warnings);
  R.Warnings.push_back("'" + Fragment.str() +
                       "' does not compile on its own; analysed through '" +
                       Includer.File + "', which #includes it");
  for (Finding &F : Through.Sink.findings()) {
    if (realPath(absolutePath(F.Loc.File)) != Real)
      continue;
    for (FindingNote &N : F.Notes)
      if (realPath(absolutePath(N.Loc.File)) == Real)
        N.Loc.File = Fragment.str();
    F.Loc.File = Fragment.str();
    R.Sink.report(std::move(F));
  }
  return R;
}

// Where a kernel file is read by several inputs (a header of kernels that
// two files include, a .cu compiled on its own and #included by another),
// each parse judges its kernels: the one that launches them with the block
// shapes of the launch, the others with the default shape, which gives
// other numbers, or findings the launch rules out. Of a finding in a
// function that a shown input's launches run (the kernel, and the
// functions it calls), only the inputs that run it are kept; of a finding
// elsewhere in a file that such an input reads (code no launch reaches, or
// that the IR layer names otherwise), the other inputs' only where none
// that runs the file's code reports the same place and check. Drop[I][J]:
// the J-th finding of Results[I] goes.
std::vector<std::vector<bool>>
fromLaunchingInputs(const std::vector<FileResult> &Results,
                    const std::vector<bool> &Covered) {
  std::vector<std::vector<bool>> Drop(Results.size());
  for (size_t I = 0; I < Results.size(); ++I)
    Drop[I].assign(Results[I].Sink.findings().size(), false);
  if (Results.size() < 2)
    return Drop;
  // Function (name, file) and file: the inputs whose launches run it, or
  // run code of the file.
  std::map<std::pair<std::string, std::string>, std::set<size_t>> ByFunction;
  std::map<std::string, std::set<size_t>> ByFile;
  for (size_t I = 0; I < Results.size(); ++I) {
    if (Covered[I])
      continue; // shown through its includer, which sees the same launches
    for (const auto &[Name, File] : Results[I].Launched) {
      std::string Real = realPath(absolutePath(File));
      ByFunction[{Name, Real}].insert(I);
      ByFile[Real].insert(I);
    }
  }
  if (ByFile.empty())
    return Drop;
  using Place = std::tuple<std::string, unsigned, unsigned, std::string>;
  auto PlaceOf = [](const Finding &F, const std::string &Real) {
    return Place{Real, F.Loc.Line, F.Loc.Column, F.Check};
  };
  // The places an input that launches kernels of the file reports.
  std::set<Place> FromLauncher;
  for (size_t I = 0; I < Results.size(); ++I) {
    if (Covered[I])
      continue;
    for (const Finding &F : Results[I].Sink.findings()) {
      std::string Real = realPath(absolutePath(F.Loc.File));
      auto It = ByFile.find(Real);
      if (It != ByFile.end() && It->second.count(I))
        FromLauncher.insert(PlaceOf(F, Real));
    }
  }
  for (size_t I = 0; I < Results.size(); ++I) {
    const std::vector<Finding> &Found = Results[I].Sink.findings();
    for (size_t J = 0; J < Found.size(); ++J) {
      const Finding &F = Found[J];
      std::string Real = realPath(absolutePath(F.Loc.File));
      auto Kernel = ByFunction.find({F.Function, Real});
      if (Kernel != ByFunction.end()) {
        Drop[I][J] = !Kernel->second.count(I);
        continue;
      }
      auto File = ByFile.find(Real);
      if (File != ByFile.end() && !File->second.count(I))
        Drop[I][J] = FromLauncher.count(PlaceOf(F, Real)) > 0;
    }
  }
  return Drop;
}

} // namespace

void recordIncludes(std::vector<FileTask> &Tasks) {
  if (Tasks.size() > 1)
    for (FileTask &T : Tasks)
      T.RecordDependencies = true;
}

void analyseFragmentsThroughIncluders(
    const std::vector<FileTask> &Tasks, std::vector<FileResult> &Results,
    TaskBuilder &Builder, const clang::tooling::CompilationDatabase *Database,
    const RunEnvironment &Env) {
  for (size_t I = 0; I < Tasks.size(); ++I) {
    if (Results[I].Sink.errors().empty() ||
        sys::path::extension(Tasks[I].File) != ".cu")
      continue;
    std::optional<std::string> Includer =
        findIncluder(absolutePath(Tasks[I].File));
    if (!Includer || llvm::any_of(Tasks, [&](const FileTask &T) {
          return realPath(T.File) == realPath(*Includer);
        }))
      continue;
    auto T = Builder.build(*Includer, *Includer, Database);
    if (!T) {
      consumeError(T.takeError());
      continue;
    }
    T->Nvcc = Tasks[I].Nvcc;
    T->Ptxas = Tasks[I].Ptxas;
    T->Libdevice = Tasks[I].Libdevice;
    T->NoPtxas = Tasks[I].NoPtxas;
    T->PrintRegisters = Tasks[I].PrintRegisters;
    T->ResourceCacheDir = Tasks[I].ResourceCacheDir;
    if (auto Through = analyseThroughIncluder(Tasks[I].File, *T, Env))
      Results[I] = std::move(*Through);
  }
}

void mergeResults(const std::vector<FileTask> &Tasks,
                  std::vector<FileResult> &Results,
                  const std::optional<Regex> &HeaderFilter, DiagSink &All) {
  std::vector<bool> Covered = includedByAnotherInput(Tasks, Results);
  std::vector<std::vector<bool>> Drop = fromLaunchingInputs(Results, Covered);
  std::set<std::string> CoveredFiles;
  for (size_t I = 0; I < Tasks.size(); ++I)
    if (Covered[I])
      CoveredFiles.insert(realPath(Tasks[I].File));
  // Output in input order, whatever order the jobs finished in. A header's
  // findings are shown once, from the first file that includes it.
  std::set<std::tuple<std::string, unsigned, unsigned, std::string, std::string,
                      std::string>>
      Shown;
  for (size_t I = 0; I < Results.size(); ++I) {
    FileResult &R = Results[I];
    if (!Quiet)
      for (const std::string &W : R.Warnings)
        errs() << "warplint: warning: " << W << "\n";
    if (PrintParsesOpt && !R.Parses.empty())
      errs() << "warplint: " << Tasks[I].File << ": " << R.Parses << "\n";
    if (Covered[I])
      continue; // reported through the file that includes it
    std::string Main = absolutePath(Tasks[I].File);
    auto &Found = R.Sink.findings();
    // An input that launches the kernel shows it.
    size_t Kept = 0;
    for (size_t J = 0; J < Found.size(); ++J)
      if (!Drop[I][J] && Kept++ != J)
        Found[Kept - 1] = std::move(Found[J]);
    Found.resize(Kept);
    Found.erase(
        std::remove_if(
            Found.begin(), Found.end(),
            [&](const Finding &F) {
              std::string File = absolutePath(F.Loc.File);
              if (File != Main && HeaderFilter && !HeaderFilter->match(File) &&
                  (CoveredFiles.empty() || !CoveredFiles.count(realPath(File))))
                return true;
              return !Shown
                          .insert({File, F.Loc.Line, F.Loc.Column, F.Check,
                                   F.Message, F.archList()})
                          .second;
            }),
        Found.end());
    std::stable_sort(Found.begin(), Found.end(),
                     [](const Finding &A, const Finding &B) {
                       return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column) <
                              std::tie(B.Loc.File, B.Loc.Line, B.Loc.Column);
                     });
    All.append(std::move(R.Sink));
  }
}

} // namespace warplint::cli
