#include "IR/Ptx.h"
#include "IR/Pieces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include <mutex>

using namespace llvm;

namespace warplint::ir {

std::unique_ptr<TargetMachine> nvptxMachine(const Module &M, StringRef CPU,
                                            StringRef Features,
                                            bool ShortPointers) {
  static std::once_flag Once;
  static cl::opt<bool> *ShortPtr = nullptr;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // The NVPTX target machine takes its data layout from this option
    // alone (clang's -fcuda-short-ptr sets it through -mllvm).
    ShortPtr = static_cast<cl::opt<bool> *>(
        cl::getRegisteredOptions().lookup("nvptx-short-ptr"));
  });
  std::string Error;
  const Triple &TT = M.getTargetTriple();
  const Target *T = TargetRegistry::lookupTarget(TT, Error);
  if (!T)
    return nullptr;
  if (ShortPointers && !ShortPtr)
    return nullptr;
  // The option is read when a machine is made; the lock keeps the other
  // threads' machines at their own setting meanwhile.
  static std::mutex Making;
  std::lock_guard<std::mutex> Lock(Making);
  if (ShortPtr)
    ShortPtr->setValue(ShortPointers);
  return std::unique_ptr<TargetMachine>(
      T->createTargetMachine(TT, CPU, Features, TargetOptions(), std::nullopt,
                             std::nullopt, CodeGenOptLevel::Aggressive));
}

O3Pipeline::O3Pipeline(
    TargetMachine &TM,
    function_ref<void(PassBuilder &, FunctionAnalysisManager &)> Extra)
    : PB(&TM) {
  if (Extra)
    Extra(PB, FAM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
}

void O3Pipeline::run(Module &M) {
  PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3).run(M, MAM);
  // The pipeline's cached analyses are stale or unused from here on.
  MAM.clear();
  CGAM.clear();
  FAM.clear();
  LAM.clear();
}

namespace {

// Links the libdevice functions M calls, internalised, as clang's
// -mlink-builtin-bitcode does.
Error linkLibdevice(Module &M, StringRef Path) {
  bool Calls = any_of(M, [](const Function &F) {
    return F.isDeclaration() && F.getName().starts_with("__nv_");
  });
  if (!Calls || Path.empty())
    return Error::success();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read " + Path);
  // Read lazily, as clang reads the bitcode it links: the linker
  // materialises the few functions the kernels call, and the rest of the
  // library is never parsed.
  Expected<std::unique_ptr<Module>> Lib =
      getOwningLazyBitcodeModule(std::move(*Buf), M.getContext());
  if (!Lib)
    return Lib.takeError();
  // libdevice's triple is nvptx64-nvidia-gpulibs: the module's, so that the
  // linker has nothing to warn about.
  (*Lib)->setTargetTriple(M.getTargetTriple());
  (*Lib)->setDataLayout(M.getDataLayout());
  bool Failed = Linker::linkModules(
      M, std::move(*Lib), Linker::LinkOnlyNeeded,
      [](Module &Into, const StringSet<> &Linked) {
        internalizeModule(Into, [&](const GlobalValue &GV) {
          return !GV.hasName() || !Linked.count(GV.getName());
        });
      });
  if (Failed)
    return createStringError("cannot link " + Path);
  return Error::success();
}

// The CUDA name of a legacy warp intrinsic (a shuffle or a vote without
// .sync); empty for any other.
StringRef legacyWarpName(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::nvvm_shfl_down_i32:
  case Intrinsic::nvvm_shfl_down_f32:
  case Intrinsic::nvvm_shfl_down_i32p:
  case Intrinsic::nvvm_shfl_down_f32p:
    return "__shfl_down";
  case Intrinsic::nvvm_shfl_up_i32:
  case Intrinsic::nvvm_shfl_up_f32:
  case Intrinsic::nvvm_shfl_up_i32p:
  case Intrinsic::nvvm_shfl_up_f32p:
    return "__shfl_up";
  case Intrinsic::nvvm_shfl_bfly_i32:
  case Intrinsic::nvvm_shfl_bfly_f32:
  case Intrinsic::nvvm_shfl_bfly_i32p:
  case Intrinsic::nvvm_shfl_bfly_f32p:
    return "__shfl_xor";
  case Intrinsic::nvvm_shfl_idx_i32:
  case Intrinsic::nvvm_shfl_idx_f32:
  case Intrinsic::nvvm_shfl_idx_i32p:
  case Intrinsic::nvvm_shfl_idx_f32p:
    return "__shfl";
  case Intrinsic::nvvm_vote_all:
    return "__all";
  case Intrinsic::nvvm_vote_any:
    return "__any";
  case Intrinsic::nvvm_vote_uni:
    return "__uni";
  case Intrinsic::nvvm_vote_ballot:
    return "__ballot";
  default:
    return "";
  }
}

// The legacy warp intrinsic each function of M calls itself (the first,
// by its CUDA name); most modules have none. sm_70 and later have none of
// them: the code generator cannot select the shuffles and ptxas refuses
// the votes, and either stops the compile of every kernel beside the one
// that reaches it.
DenseMap<const Function *, StringRef> legacyWarpCalls(const Module &M) {
  DenseMap<const Function *, StringRef> Out;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (const auto *II = dyn_cast<IntrinsicInst>(&I))
        if (StringRef Name = legacyWarpName(II->getIntrinsicID());
            !Name.empty()) {
          Out.try_emplace(&F, Name);
          break;
        }
  return Out;
}

// The legacy warp intrinsic K's code (K and what it reaches in M) calls,
// given Calls (legacyWarpCalls of M); empty: none. The first function of M
// in module order that calls one answers.
StringRef
legacyWarpIntrinsic(const Module &M, const Function &K,
                    const DenseMap<const Function *, StringRef> &Calls) {
  if (Calls.empty())
    return "";
  Piece Reached = reachedFrom(M, {&K});
  for (const Function &F : M)
    if (auto It = Calls.find(&F); It != Calls.end() && Reached.contains(&F))
      return It->second;
  return "";
}

} // namespace

Expected<KernelsPtx>
kernelsPtx(const Module &M, ArrayRef<std::string> Kernels, StringRef CPU,
           StringRef Libdevice, unsigned InstructionBudget,
           function_ref<std::optional<unsigned>(StringRef)> KnownSize) {
  KernelsPtx Out;
  std::vector<const Function *> Roots;
  for (const std::string &Name : Kernels)
    if (const Function *F = M.getFunction(Name); F && !F->isDeclaration()) {
      std::optional<unsigned> Known =
          KnownSize && InstructionBudget ? KnownSize(Name) : std::nullopt;
      if (Known && *Known > 2 * InstructionBudget) {
        Out.TooLarge.push_back({Name, *Known});
        continue;
      }
      Roots.push_back(F);
      Out.Kernels.push_back(Name);
    }
  if (Roots.empty())
    return Out;
  // The PTX version the code generator chose instructions for is the one
  // clang gave the functions (+ptx88): the module's `.version` line must
  // say it too, or ptxas refuses the newer instructions (bmsk).
  std::string Features;
  for (const Function *F : Roots)
    if (F->hasFnAttribute("target-features")) {
      Features = F->getFnAttribute("target-features").getValueAsString().str();
      break;
    }
  // nvcc's NVVM addresses shared, constant and local memory with 32-bit
  // pointers, and clang by default with 64-bit ones: a kernel that indexes
  // shared memory in a loop keeps every address in a register pair, and
  // ptxas gives bitonicSort's bitonicSortShared1 40 registers where nvcc's
  // code needs 28 (with 32-bit pointers, 25).
  std::unique_ptr<TargetMachine> TM =
      nvptxMachine(M, CPU, Features, /*ShortPointers=*/true);
  if (!TM)
    return createStringError("LLVM has no NVPTX target");
  LLVMContext Ctx;
  std::unique_ptr<Module> Copy = copyInto(M, reachedFrom(M, Roots), Ctx);
  if (!Copy)
    return createStringError("cannot copy the kernels' code");
  // The copy's pointers take the machine's widths: a GEP's 64-bit index
  // into shared memory is then truncated to the pointer's 32, as the
  // language reference has it, and InstCombine narrows the arithmetic.
  Copy->setDataLayout(TM->createDataLayout());
  // The line tables the IR layer asked for change nothing ptxas allocates.
  StripDebugInfo(*Copy);
  for (Function &F : *Copy)
    if (!F.isDeclaration())
      F.addFnAttr("target-cpu", CPU);
  if (Error E = linkLibdevice(*Copy, Libdevice))
    return E;
  // A whole-program compile: only the kernels are seen from outside, so
  // that what is inlined everywhere is gone, as nvcc's default has it.
  StringSet<> Keep;
  for (const std::string &K : Out.Kernels)
    Keep.insert(K);
  internalizeModule(*Copy, [&](const GlobalValue &GV) {
    return Keep.count(GV.getName()) ||
           (isa<GlobalVariable>(GV) && !GV.hasLocalLinkage());
  });
  O3Pipeline O3(*TM);
  O3.run(*Copy);
  std::vector<std::string> Dropped;
  auto Drop = [&](Function &F) {
    Dropped.push_back(F.getName().str());
    F.deleteBody();
    F.setLinkage(GlobalValue::ExternalLinkage);
  };
  // sm_70 and later (sm_90a too) have no legacy warp intrinsics.
  unsigned SM = 0;
  StringRef Number = CPU;
  DenseMap<const Function *, StringRef> LegacyCalls;
  if (Number.consume_front("sm_") &&
      !Number.take_while(isDigit).getAsInteger(10, SM) && SM >= 70)
    LegacyCalls = legacyWarpCalls(*Copy);
  for (const std::string &K : Out.Kernels) {
    Function *F = Copy->getFunction(K);
    if (!F || F->isDeclaration())
      continue;
    if (InstructionBudget && F->getInstructionCount() > InstructionBudget) {
      Out.TooLarge.push_back({K, F->getInstructionCount()});
      Drop(*F);
    } else if (StringRef Legacy = legacyWarpIntrinsic(*Copy, *F, LegacyCalls);
               !Legacy.empty()) {
      Out.Unsupported.push_back({K, Legacy.str()});
      Drop(*F);
    }
  }
  if (!Dropped.empty()) {
    // What only the dropped kernels used goes with them.
    ModulePassManager MPM;
    MPM.addPass(GlobalDCEPass());
    MPM.run(*Copy, O3.MAM);
    for (const std::string &K : Dropped)
      if (Function *F = Copy->getFunction(K); F && F->use_empty())
        F->eraseFromParent();
  }
  {
    raw_string_ostream OS(Out.Text);
    buffer_ostream Buffered(OS); // flushed into Out.Text when it goes
    legacy::PassManager PM;
    if (TM->addPassesToEmitFile(PM, Buffered, nullptr,
                                CodeGenFileType::AssemblyFile))
      return createStringError("the NVPTX target cannot emit PTX");
    PM.run(*Copy);
  }
  return Out;
}

} // namespace warplint::ir
