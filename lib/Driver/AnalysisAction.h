// The frontend action of one parse (runFile, Runner.cpp): the checks of each
// target it is judged for over its AST, and the IR layer on the same parse.
// Internal to the driver.
#pragma once
#include "Arch/ArchTable.h"
#include "Core/Services.h"
#include "Driver/BuildObject.h"
#include "Driver/Focus.h"
#include "Driver/IRLayer.h"
#include "Driver/OneParse.h"
#include "Driver/ResourceUsage.h"
#include "Driver/Runner.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warplint {

struct FirstParseErrors;

// A target a parse is judged for, and where its findings go.
struct Judged {
  const ArchInfo *Arch;
  DiagSink *Sink;
};

// One parse judged for several targets: what decides whether it may be, and
// whether it was.
struct SharedParse {
  std::vector<Judged> Others; // judged on the parse of another target
  TargetDependence Watched;   // the preprocessor's answer
  // Which of Others preprocess the user's code to the same code as this
  // parse's target (preprocessedUserCode), asked only when Watched found a
  // use of a target macro and nothing else rules the one parse out.
  std::function<std::vector<bool>(const TargetDependence &)> UserCodeAlike;
  // Which of Others the parse was judged for, when not all (then
  // OwnParsesBecause says why the rest were not).
  std::vector<bool> JudgedHere;
  // Empty once the others were judged on the parse; else why they need
  // parses of their own.
  std::string OwnParsesBecause = "the parse did not finish";
  bool IRAnalysed = false;

  bool judges(size_t Other) const {
    return OwnParsesBecause.empty() ||
           (Other < JudgedHere.size() && JudgedHere[Other]);
  }
};

// What the checks get beyond the AST: ptxas's registers from nvcc running
// beside the parse, and the IR layer's optimised view.
class DriverServices : public RunServices {
public:
  // Own: the target the parse is made for.
  DriverServices(ResourceUsageJob *Resources, const FileTask &T,
                 const ArchInfo *Own)
      : Resources(Resources), T(T), Own(Own) {}
  void setIRLayer(IRLayerConsumer *L) { IR = L; }

  const ir::OptimisedAccesses *optimisedAccesses(const ArchInfo &A) override {
    // The layer may run for the registers alone (--ir-layer=false).
    if (!IR || !T.IRLayer)
      return nullptr;
    // The targets of one parse share its view where the NVPTX passes treat
    // them alike: they differ from sm_100 on, whose load/store vectoriser
    // merges 256-bit global accesses.
    const ArchInfo &View = Own && Own->SM < 100 && A.SM < 100 ? *Own : A;
    return IR->optimisedAccesses(View.Name);
  }
  std::optional<KernelResources> kernelResources(const ArchInfo &A,
                                                 llvm::StringRef Mangled,
                                                 std::string &Why) override {
    std::optional<KernelResources> R = resources(A, Mangled, Why);
    if (T.PrintRegisters) {
      std::string Line =
          "warplint: " + T.File + ": " + A.Name + " " + Mangled.str() + ": ";
      if (R)
        Line += std::to_string(R->Registers) + " registers, " +
                std::to_string(R->SharedBytes) + " bytes smem, " +
                std::to_string(R->SpillBytes) + " bytes spilled\n";
      else
        Line += "not known: " + (Why.empty() ? "not compiled" : Why) + "\n";
      llvm::errs() << Line;
    }
    return R;
  }
  bool countsRegisters(const ArchInfo &A) override {
    if (!T.BuildOutput.empty()) {
      if (!Build && BuildWhy.empty())
        Build = BuildObject::read(T.BuildOutput, T.File, BuildWhy);
      if (Build && Build->covers(A.Name))
        return true;
    }
    if (!T.Ptxas.empty())
      return IR && llvm::is_contained(nvccTargets(T.Nvcc), A.Name);
    return Resources && Resources->covers(A.Name);
  }
  void expectKernelResources(const ArchInfo &A,
                             llvm::StringRef Mangled) override {
    if (fromBuild(A, Mangled))
      return; // nothing to compile
    if (IR && !T.Ptxas.empty())
      IR->expectKernel(Mangled);
  }
  std::optional<unsigned> maxRegisterCount() const override {
    return T.Flags.MaxRegCount;
  }

private:
  // What the user's own build compiled, if it has the kernel for A.
  std::optional<KernelResources> fromBuild(const ArchInfo &A,
                                           llvm::StringRef Mangled) {
    if (T.BuildOutput.empty())
      return std::nullopt;
    if (!Build && BuildWhy.empty())
      Build = BuildObject::read(T.BuildOutput, T.File, BuildWhy);

    std::string Missed;
    if (!Build || !Build->covers(A.Name))
      return std::nullopt;
    return Build->lookup(A, Mangled, Missed);
  }
  std::optional<KernelResources>
  resources(const ArchInfo &A, llvm::StringRef Mangled, std::string &Why) {
    // The user's own build first: exact, and no compile.
    if (std::optional<KernelResources> R = fromBuild(A, Mangled))
      return R;
    if (!T.Ptxas.empty()) {
      if (!llvm::is_contained(nvccTargets(T.Nvcc), A.Name)) {
        Why = "the installed nvcc does not compile for " + A.Name;
        return std::nullopt;
      }
      if (IR)
        return IR->kernelResources(A.Name, Mangled, Why);
      Why = "the device code is not generated for this parse";
      return std::nullopt;
    }
    if (!Resources) {
      Why = T.NoPtxas.empty() ? "ptxas was not run" : T.NoPtxas;
      return std::nullopt;
    }
    if (!Resources->covers(A.Name)) {
      Why = "the installed nvcc does not compile for " + A.Name;
      return std::nullopt;
    }
    return Resources->lookup(A.Name, Mangled, Why);
  }

  ResourceUsageJob *Resources;
  const FileTask &T;
  std::optional<BuildObject> Build; // read on the first question
  std::string BuildWhy;             // why it could not be
  const ArchInfo *Own;
  IRLayerConsumer *IR = nullptr;
};

// A parse that had errors is not what the program is: a header it did not
// find, a template it did not instantiate, a body it cut short may be the
// very barrier, __syncwarp() or cooperative-groups sync the checks that
// judge synchronisation would see. Their findings (divergence-barrier,
// warp-mask-divergent, warp-implicit-sync) are taken out of Sinks and
// counted by check into Withheld; the errors stay, and so does exit 2.
void withholdBrokenParseFindings(const std::vector<DiagSink *> &Sinks,
                                 std::map<std::string, unsigned> &Withheld);

// One line for the user: how many findings were withheld, of which checks.
std::string withheldWarning(const std::map<std::string, unsigned> &Withheld);

class AnalysisAction : public clang::ASTFrontendAction {
public:
  AnalysisAction(const FileTask &T, const ArchTable &Tables, Judged Own,
                 SharedParse *Shared, std::string *Dump,
                 ResourceUsageJob *Resources)
      : T(T), Tables(Tables), Own(Own), Shared(Shared), Dump(Dump),
        Services(Resources, T, Own.Arch) {}

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override;

  // The main file's function definitions go to Out (the language server's
  // full pass).
  void collectBodies(std::vector<BodySpan> *Out) { Bodies = Out; }
  // Whether the errors lie only in host bodies go to Out.
  void collectFirstParseErrors(FirstParseErrors *Out) { FirstErrors = Out; }
  // The kernels the TU launches go to Out (FileResult::Launched).
  void collectLaunches(std::vector<std::pair<std::string, std::string>> *Out) {
    Launched = Out;
  }
  // Why the IR layer failed (code generation or its passes), if it did.
  void collectIRFailure(std::string *Out) { IRFailure = Out; }
  // The correctness findings withheld because the parse had errors, by
  // check (withholdBrokenParseFindings).
  void collectWithheld(std::map<std::string, unsigned> *Out) { Withheld = Out; }

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    // The parser asks the consumer which bodies to skip: the host-only ones
    // of system headers, and those the focused pass leaves out.
    CI.getFrontendOpts().SkipFunctionBodies = true;
    return true;
  }

private:
  // The IR layer's findings, or the registers from its PTX.
  bool wantsIRLayer(const clang::CompilerInstance &CI) const {
    return Own.Arch && !Dump && CI.getLangOpts().CUDAIsDevice &&
           (T.IRLayer || (T.ResourceUsage && !T.Ptxas.empty()));
  }

  const FileTask &T;
  const ArchTable &Tables;
  Judged Own;
  SharedParse *Shared;
  std::string *Dump;
  DriverServices Services;
  std::vector<BodySpan> *Bodies = nullptr;
  FirstParseErrors *FirstErrors = nullptr;
  std::vector<std::pair<std::string, std::string>> *Launched = nullptr;
  std::string *IRFailure = nullptr;
  std::map<std::string, unsigned> *Withheld = nullptr;
};

} // namespace warplint
