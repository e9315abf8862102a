#include "Analysis/Launches.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include <algorithm>
#include <functional>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace warplint {

namespace {
AST_MATCHER(CallExpr, isKernelLaunch) { return isLaunch(&Node); }
} // namespace

StatementMatcher launchMatcher() {
  return callExpr(unless(isExpansionInSystemHeader()), isKernelLaunch())
      .bind("launch");
}

std::vector<const CallExpr *> userLaunches(ASTContext &AST) {
  struct Collect : MatchFinder::MatchCallback {
    std::vector<const CallExpr *> Out;
    void run(const MatchFinder::MatchResult &R) override {
      Out.push_back(R.Nodes.getNodeAs<CallExpr>("launch"));
    }
  } Callback;
  MatchFinder::MatchFinderOptions O;
  O.IgnoreSystemHeaders = true;
  MatchFinder Finder(O);
  Finder.addMatcher(launchMatcher(), &Callback);
  Finder.matchAST(AST);
  return std::move(Callback.Out);
}

const FunctionDecl *kernelNamedBy(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Addr = dyn_cast<UnaryOperator>(E))
    E = Addr->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl()))
      return F->getCanonicalDecl();
  return nullptr;
}

namespace {

enum class LaunchApi { None, Classic, Ex };

// cudaLaunchKernel / cudaLaunchCooperativeKernel(k, grid, block, args, smem,
// stream), or cudaLaunchKernelEx(&config, k, args...) (the C++ template and
// the C API, per-thread default stream spelling included).
LaunchApi launchApi(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || !F->getDeclName().isIdentifier() ||
      !F->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return LaunchApi::None;
  StringRef Name = F->getName();
  if ((Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel") &&
      Call->getNumArgs() >= 3)
    return LaunchApi::Classic;
  if ((Name == "cudaLaunchKernelEx" || Name == "cudaLaunchKernelExC" ||
       Name == "cudaLaunchKernelExC_ptsz") &&
      Call->getNumArgs() >= 2)
    return LaunchApi::Ex;
  return LaunchApi::None;
}

// The value a cudaLaunchConfig_t local's field has at the launch, when the
// function sets it once: in the variable's initialiser, or by one
// assignment `config.field = value` (nothing else writing the field).
const Expr *configField(const VarDecl *Config, StringRef Field) {
  const auto *Record = Config->getType()->getAsRecordDecl();
  if (!Record)
    return nullptr;
  const Expr *FromInit = nullptr;
  if (const auto *Init = dyn_cast_or_null<InitListExpr>(
          Config->getInit() ? Config->getInit()->IgnoreImplicit() : nullptr)) {
    unsigned Index = 0;
    for (const FieldDecl *FD : Record->fields()) {
      if (FD->getName() == Field && Index < Init->getNumInits() &&
          !isa<ImplicitValueInitExpr>(Init->getInit(Index)))
        FromInit = Init->getInit(Index);
      ++Index;
    }
  }
  const auto *Fn =
      dyn_cast_or_null<FunctionDecl>(Config->getParentFunctionOrMethod());
  if (!Fn || !Fn->getBody())
    return FromInit;
  const Expr *Assigned = nullptr;
  unsigned Writes = 0;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Op = dyn_cast<BinaryOperator>(S);
        Op && Op->isAssignmentOp()) {
      // Any write into the field: config.field = v, config.field.x = v.
      const Expr *L = Op->getLHS()->IgnoreParenImpCasts();
      bool Whole = true;
      while (const auto *M = dyn_cast<MemberExpr>(L)) {
        const auto *Base =
            dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts());
        if (Base && Base->getDecl() == Config &&
            M->getMemberDecl()->getName() == Field) {
          ++Writes;
          Assigned =
              Whole && Op->getOpcode() == BO_Assign ? Op->getRHS() : nullptr;
          break;
        }
        L = M->getBase()->IgnoreParenImpCasts();
        Whole = false;
      }
    }
    if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(S);
        Call && Call->isAssignmentOp() && Call->getNumArgs() == 2) {
      const auto *M =
          dyn_cast<MemberExpr>(Call->getArg(0)->IgnoreParenImpCasts());
      const auto *Base =
          M ? dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts())
            : nullptr;
      if (Base && Base->getDecl() == Config &&
          M->getMemberDecl()->getName() == Field) {
        ++Writes;
        Assigned = Call->getArg(1);
      }
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Fn->getBody());
  if (Writes == 0)
    return FromInit;
  return Writes == 1 ? Assigned : nullptr;
}

} // namespace

bool isLaunch(const CallExpr *Call) {
  return isa<CUDAKernelCallExpr>(Call) || launchApi(Call) != LaunchApi::None;
}

LaunchSite launchSite(const CallExpr *Call) {
  LaunchSite S;
  if (const auto *L = dyn_cast<CUDAKernelCallExpr>(Call)) {
    const CallExpr *Config = L->getConfig();
    S.Kernel = L->getDirectCallee();
    if (Config && Config->getNumArgs() >= 2) {
      S.Grid = Config->getArg(0);
      S.Block = Config->getArg(1);
      if (Config->getNumArgs() >= 3 &&
          !isa<CXXDefaultArgExpr>(Config->getArg(2)))
        S.SharedBytes = Config->getArg(2);
    }
  } else if (launchApi(Call) == LaunchApi::Ex) {
    S.Kernel = kernelNamedBy(Call->getArg(1));
    const Expr *Arg = Call->getArg(0)->IgnoreParenImpCasts();
    const auto *Addr = dyn_cast<UnaryOperator>(Arg);
    const auto *Ref =
        Addr && Addr->getOpcode() == UO_AddrOf
            ? dyn_cast<DeclRefExpr>(Addr->getSubExpr()->IgnoreParenImpCasts())
            : nullptr;
    if (const auto *Config = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        Config && Config->isLocalVarDecl()) {
      S.Grid = configField(Config, "gridDim");
      S.Block = configField(Config, "blockDim");
      S.SharedBytes = configField(Config, "dynamicSmemBytes");
    }
  } else if (launchApi(Call) == LaunchApi::Classic) {
    S.Kernel = kernelNamedBy(Call->getArg(0));
    S.Grid = Call->getArg(1);
    S.Block = Call->getArg(2);
    if (Call->getNumArgs() >= 5 && !isa<CXXDefaultArgExpr>(Call->getArg(4)))
      S.SharedBytes = Call->getArg(4);
  }
  if (S.Kernel)
    S.Kernel = S.Kernel->getCanonicalDecl();
  return S;
}

std::optional<SharedOptIn> sharedOptIn(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getDeclName().isIdentifier() ||
      Callee->getName() != "cudaFuncSetAttribute" || Call->getNumArgs() != 3)
    return std::nullopt;
  const auto *Attr =
      dyn_cast<DeclRefExpr>(Call->getArg(1)->IgnoreParenImpCasts());
  if (!Attr || Attr->getDecl()->getName() !=
                   "cudaFuncAttributeMaxDynamicSharedMemorySize")
    return std::nullopt;
  const FunctionDecl *K = kernelNamedBy(Call->getArg(0));
  if (!K)
    return std::nullopt;
  return SharedOptIn{K, Call->getArg(2)};
}

namespace {

const Expr *plain(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr();
    else if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
      E = FC->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CStyleCastExpr>(E))
      E = C->getSubExpr();
    else if (const auto *SC = dyn_cast<CXXStaticCastExpr>(E))
      E = SC->getSubExpr();
    else
      return E;
  }
}

const DeclRefExpr *refTo(const Expr *E, const VarDecl *V) {
  const auto *R = dyn_cast<DeclRefExpr>(plain(E));
  return R && R->getDecl() == V ? R : nullptr;
}

std::string calleeName(const CallExpr *C) {
  if (const FunctionDecl *F = C->getDirectCallee())
    if (const IdentifierInfo *I = F->getIdentifier())
      return I->getName().str();
  return "";
}

// How a local is written in its function beside its initialiser.
struct Writes {
  unsigned Other = 0; // assignments, ++/--, &V anywhere else
  // `V.x = e;`: a plain assignment to a field of V (counted here, not in
  // Other).
  std::vector<std::pair<const FieldDecl *, const Expr *>> Fields;
  bool SMCount = false;     // cudaDeviceGetAttribute(&V, ...MultiProcessor..)
  bool BlocksPerSM = false; // cudaOccupancyMaxActiveBlocksPerMultiprocessor(&V)
};

void scanWrites(const Stmt *S, const VarDecl *V, Writes &W,
                const ASTContext &Ctx) {
  if (!S)
    return;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    std::string Name = calleeName(C);
    if (C->getNumArgs() >= 2)
      if (const auto *Addr = dyn_cast<UnaryOperator>(plain(C->getArg(0))))
        if (Addr->getOpcode() == UO_AddrOf && refTo(Addr->getSubExpr(), V)) {
          if (Name == "cudaDeviceGetAttribute") {
            const auto *Attr = dyn_cast<DeclRefExpr>(plain(C->getArg(1)));
            if (Attr &&
                Attr->getDecl()->getName() == "cudaDevAttrMultiProcessorCount")
              W.SMCount = true;
            else
              ++W.Other;
          } else if (Name == "cudaOccupancyMaxActiveBlocksPerMultiprocessor" ||
                     Name == "cudaOccupancyMaxActiveBlocksPerMultiprocessor"
                             "WithFlags") {
            W.BlocksPerSM = true;
          } else {
            ++W.Other;
          }
          for (unsigned I = 1; I < C->getNumArgs(); ++I)
            scanWrites(C->getArg(I), V, W, Ctx);
          return;
        }
  }
  if (const auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isAssignmentOp()) {
      const Expr *L = plain(B->getLHS());
      const auto *M = dyn_cast<MemberExpr>(L);
      if (M)
        L = plain(M->getBase());
      const auto *F = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
      if (refTo(L, V)) {
        if (F && B->getOpcode() == BO_Assign)
          W.Fields.push_back({F, B->getRHS()});
        else
          ++W.Other;
      }
    }
  if (const auto *U = dyn_cast<UnaryOperator>(S))
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
        refTo(U->getSubExpr(), V))
      ++W.Other;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->isAssignmentOp() && Op->getNumArgs() >= 1 &&
        refTo(Op->getArg(0), V))
      ++W.Other;
  for (const Stmt *Child : S->children())
    scanWrites(Child, V, W, Ctx);
}

// The factors of a grid's block count: constants multiply into K; each SM
// count and each occupancy answer is counted.
struct Factors {
  uint64_t K = 1;
  unsigned SMs = 0, PerSM = 0;
  bool Unknown = false;
};

void factorsOf(const Expr *E, const ASTContext &Ctx, Factors &F,
               unsigned Depth) {
  if (!E || Depth > 6 || E->isValueDependent()) {
    F.Unknown = true;
    return;
  }
  E = plain(E);
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
    // dim3(x), dim3(x, 1), dim3(x, 1, 1), or a copy.
    if (Ctor->getNumArgs() == 0) {
      F.Unknown = true;
      return;
    }
    for (unsigned I = 1; I < Ctor->getNumArgs(); ++I) {
      const Expr *Arg = Ctor->getArg(I);
      if (isa<CXXDefaultArgExpr>(Arg))
        break;
      Expr::EvalResult R;
      if (!Arg->EvaluateAsInt(R, Ctx) || R.Val.getInt() != 1) {
        F.Unknown = true;
        return;
      }
    }
    return factorsOf(Ctor->getArg(0), Ctx, F, Depth + 1);
  }
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx)) {
    if (R.Val.getInt().isStrictlyPositive() &&
        R.Val.getInt().getActiveBits() <= 32)
      F.K *= R.Val.getInt().getZExtValue();
    else
      F.Unknown = true;
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_Mul) {
    factorsOf(B->getLHS(), Ctx, F, Depth + 1);
    factorsOf(B->getRHS(), Ctx, F, Depth + 1);
    return;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E))
    if (M->getMemberDecl()->getName() == "multiProcessorCount") {
      ++F.SMs;
      return;
    }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
        V && V->isLocalVarDecl()) {
      const auto *Fn =
          dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
      Writes W;
      if (Fn && Fn->getBody())
        scanWrites(Fn->getBody(), V, W, Ctx);
      if (W.Other == 0 && W.SMCount + W.BlocksPerSM <= 1) {
        if (W.SMCount) {
          ++F.SMs;
          return;
        }
        if (W.BlocksPerSM) {
          ++F.PerSM;
          return;
        }
        if (V->getInit())
          return factorsOf(V->getInit(), Ctx, F, Depth + 1);
      }
    }
  F.Unknown = true;
}

// The identifiers an expression is written with, through the locals it
// names (their initialisers), less the language's own words.
void namesOf(const Expr *E, const ASTContext &Ctx, std::set<std::string> &Out,
             unsigned Depth);

void namesInText(SourceRange Range, const ASTContext &Ctx,
                 std::set<std::string> &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = SM.getExpansionRange(Range);
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid)
    return;
  static const std::set<std::string> Words = {
      "auto",     "bool",       "char",   "const",  "constexpr", "dim3",
      "double",   "float",      "int",    "long",   "short",     "signed",
      "sizeof",   "size_t",     "static", "uint",   "unsigned",  "void",
      "volatile", "__shared__", "struct", "float2", "float3",    "float4",
      "int2",     "int4",       "half",   "std"};
  for (size_t I = 0; I < Text.size();) {
    char C = Text[I];
    if (isalpha(static_cast<unsigned char>(C)) || C == '_') {
      size_t J = I;
      while (J < Text.size() &&
             (isalnum(static_cast<unsigned char>(Text[J])) || Text[J] == '_'))
        ++J;
      std::string W = Text.substr(I, J - I).str();
      if (!Words.count(W))
        Out.insert(W);
      I = J;
    } else if (isdigit(static_cast<unsigned char>(C))) {
      while (I < Text.size() &&
             (isalnum(static_cast<unsigned char>(Text[I])) || Text[I] == '.'))
        ++I;
    } else {
      ++I;
    }
  }
}

void namesOf(const Expr *E, const ASTContext &Ctx, std::set<std::string> &Out,
             unsigned Depth) {
  if (!E || Depth > 2)
    return;
  namesInText(E->getSourceRange(), Ctx, Out);
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *R = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl());
          V && V->isLocalVarDecl() && V->getInit())
        namesOf(V->getInit(), Ctx, Out, Depth + 1);
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(E);
}

} // namespace

namespace {

// How local V is written after its initialiser; none for a variable that
// is not a local with one.
std::optional<Writes> writesOf(const VarDecl *V, const ASTContext &Ctx) {
  if (!V->isLocalVarDecl() || !V->getInit())
    return std::nullopt;
  const auto *Fn =
      dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!Fn || !Fn->getBody())
    return std::nullopt;
  Writes W;
  scanWrites(Fn->getBody(), V, W, Ctx);
  return W;
}

// Whether V keeps its initialiser: nothing writes it after.
bool keepsInit(const Writes &W) {
  return W.Other == 0 && W.Fields.empty() && !W.SMCount && !W.BlocksPerSM;
}

std::optional<uint64_t> foldField(const VarDecl *V, const FieldDecl *F,
                                  const ASTContext &Ctx, unsigned Depth);
std::optional<uint64_t> foldCount(const Expr *E, const ASTContext &Ctx,
                                  unsigned Depth);

// The most field F of local V (a dim3 or a struct initialised with
// constants) holds when the only writes W after its initialiser assign its
// fields constants: `dim3 grid(1, 1, 1); grid.x = (size_t)ceil(...);` is at
// most that x, wherever the launch sits. (What counts are upper bounds: the
// launch checks and the memory checks ask whether a grid is small.)
std::optional<uint64_t> foldFieldAtMost(const VarDecl *V, const FieldDecl *F,
                                        const Writes &W, const ASTContext &Ctx,
                                        unsigned Depth) {
  if (W.Other || W.SMCount || W.BlocksPerSM)
    return std::nullopt;
  std::optional<uint64_t> Most = foldField(V, F, Ctx, Depth);
  for (const auto &[Field, Value] : W.Fields) {
    if (!Most)
      return std::nullopt;
    if (Field != F)
      continue;
    std::optional<uint64_t> This = foldCount(Value, Ctx, Depth + 1);
    if (!This)
      return std::nullopt;
    Most = std::max(*Most, *This);
  }
  return Most;
}

// A non-negative quotient Num / Den written with constants in floating
// point: `(float)N / (float)block.x`, and ceil() of one, as polybench's
// `(size_t)ceil(((float)NX) / ((float)DIM_THREAD_BLOCK_X))` writes a grid.
struct Ratio {
  uint64_t Num = 0, Den = 1;
};
std::optional<Ratio> foldRatio(const Expr *E, const ASTContext &Ctx,
                               unsigned Depth) {
  if (!E || Depth > 8 || E->isValueDependent())
    return std::nullopt;
  E = plain(E);
  if (E->getType()->isIntegralOrEnumerationType()) {
    std::optional<uint64_t> V = foldCount(E, Ctx, Depth + 1);
    return V ? std::optional<Ratio>(Ratio{*V, 1}) : std::nullopt;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && (B->getOpcode() == BO_Div || B->getOpcode() == BO_Mul)) {
    std::optional<Ratio> L = foldRatio(B->getLHS(), Ctx, Depth + 1);
    std::optional<Ratio> R =
        L ? foldRatio(B->getRHS(), Ctx, Depth + 1) : std::nullopt;
    if (!L || !R || L->Num >> 31 || L->Den >> 31 || R->Num >> 31 ||
        R->Den >> 31)
      return std::nullopt;
    if (B->getOpcode() == BO_Mul)
      return Ratio{L->Num * R->Num, L->Den * R->Den};
    if (!R->Num)
      return std::nullopt;
    return Ratio{L->Num * R->Den, L->Den * R->Num};
  }
  if (const auto *C = dyn_cast<CallExpr>(E); C && C->getNumArgs() == 1) {
    std::string Callee = calleeName(C);
    llvm::StringRef Name = Callee;
    Name.consume_front("__builtin_");
    if (Name != "ceil" && Name != "ceilf")
      return std::nullopt;
    std::optional<Ratio> R = foldRatio(C->getArg(0), Ctx, Depth + 1);
    if (!R || !R->Den)
      return std::nullopt;
    return Ratio{(R->Num + R->Den - 1) / R->Den, 1};
  }
  return std::nullopt;
}

// Field I of a local initialised with constants: dim3 d(a, b, c) (x, y, z;
// 1 where left out) or a struct's braces ({1024, 0, 0}).
std::optional<uint64_t> foldField(const VarDecl *V, const FieldDecl *F,
                                  const ASTContext &Ctx, unsigned Depth) {
  const Expr *Init = plain(V->getInit());
  unsigned I = F->getFieldIndex();
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(Init)) {
    if (Ctor->getConstructor()->isCopyOrMoveConstructor() || I > 2)
      return std::nullopt;
    if (I >= Ctor->getNumArgs() || isa<CXXDefaultArgExpr>(Ctor->getArg(I)))
      return 1;
    return foldCount(Ctor->getArg(I), Ctx, Depth + 1);
  }
  if (const auto *List = dyn_cast<InitListExpr>(Init))
    if (I < List->getNumInits())
      return foldCount(List->getInit(I), Ctx, Depth + 1);
  return std::nullopt;
}

std::optional<uint64_t> foldCount(const Expr *E, const ASTContext &Ctx,
                                  unsigned Depth) {
  if (!E || Depth > 8 || E->isValueDependent())
    return std::nullopt;
  E = plain(E);
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx)) {
    if (R.Val.getInt().isNegative() || R.Val.getInt().getActiveBits() > 63)
      return std::nullopt;
    return R.Val.getInt().getZExtValue();
  }
  // A count computed in floating point and converted back (the conversion
  // truncates).
  if (E->getType()->isRealFloatingType()) {
    std::optional<Ratio> R = foldRatio(E, Ctx, Depth + 1);
    return R && R->Den ? std::optional<uint64_t>(R->Num / R->Den)
                       : std::nullopt;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    auto L = foldCount(B->getLHS(), Ctx, Depth + 1);
    auto Rt = L ? foldCount(B->getRHS(), Ctx, Depth + 1) : std::nullopt;
    if (!L || !Rt)
      return std::nullopt;
    switch (B->getOpcode()) {
    case BO_Add:
      return *L + *Rt;
    case BO_Sub:
      return *L >= *Rt ? std::optional<uint64_t>(*L - *Rt) : std::nullopt;
    case BO_Mul:
      return *L * *Rt;
    case BO_Div:
      return *Rt ? std::optional<uint64_t>(*L / *Rt) : std::nullopt;
    default:
      return std::nullopt;
    }
  }
  if (const auto *C = dyn_cast<CallExpr>(E); C && C->getNumArgs() == 2) {
    std::string Name = llvm::StringRef(calleeName(C)).lower();
    Name.erase(std::remove(Name.begin(), Name.end(), '_'), Name.end());
    auto A = foldCount(C->getArg(0), Ctx, Depth + 1);
    auto B = A ? foldCount(C->getArg(1), Ctx, Depth + 1) : std::nullopt;
    if (!A || !B)
      return std::nullopt;
    // The ceiling division helpers the samples and kernels libraries use
    // (iDivUp, divUp, ceil_div, CEIL_DIV as a function), min and max.
    if (*B && (llvm::StringRef(Name).contains("divup") ||
               llvm::StringRef(Name).contains("ceildiv") ||
               llvm::StringRef(Name).contains("divroundup")))
      return (*A + *B - 1) / *B;
    if (Name == "min")
      return std::min(*A, *B);
    if (Name == "max")
      return std::max(*A, *B);
    return std::nullopt;
  }
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
    if (Ctor->getConstructor()->isCopyOrMoveConstructor() &&
        Ctor->getNumArgs() == 1)
      return foldCount(Ctor->getArg(0), Ctx, Depth + 1);
    if (Ctor->getNumArgs() == 0 || Ctor->getNumArgs() > 3)
      return std::nullopt;
    uint64_t Product = 1;
    for (const Expr *Arg : Ctor->arguments()) {
      if (isa<CXXDefaultArgExpr>(Arg))
        break;
      auto V = foldCount(Arg, Ctx, Depth + 1);
      if (!V)
        return std::nullopt;
      Product *= *V;
    }
    return Product;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    const auto *Base = dyn_cast<DeclRefExpr>(plain(M->getBase()));
    const auto *V = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    std::optional<Writes> W = V && F ? writesOf(V, Ctx) : std::nullopt;
    if (!W)
      return std::nullopt;
    return keepsInit(*W) ? foldField(V, F, Ctx, Depth)
                         : foldFieldAtMost(V, F, *W, Ctx, Depth);
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    std::optional<Writes> W = V ? writesOf(V, Ctx) : std::nullopt;
    if (!W)
      return std::nullopt;
    if (keepsInit(*W))
      return foldCount(V->getInit(), Ctx, Depth + 1);
    // A dim3 whose fields are assigned constants after it is declared.
    const RecordDecl *RD = V->getType()->getAsRecordDecl();
    if (!RD || RD->getName() != "dim3")
      return std::nullopt;
    uint64_t Product = 1;
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      if (I++ == 3)
        break;
      std::optional<uint64_t> Most = foldFieldAtMost(V, F, *W, Ctx, Depth);
      if (!Most)
        return std::nullopt;
      Product *= *Most;
    }
    return Product;
  }
  return std::nullopt;
}

} // namespace

std::optional<uint64_t> gridBlocksOf(const Expr *Grid, const ASTContext &Ctx) {
  std::optional<uint64_t> N = foldCount(Grid, Ctx, 0);
  if (N && *N == 0)
    return std::nullopt;
  return N;
}

GridPerSM gridPerSMOf(const Expr *Grid, const ASTContext &Ctx) {
  GridPerSM Out;
  Factors F;
  factorsOf(Grid, Ctx, F, 0);
  if (F.Unknown || F.SMs != 1)
    return Out;
  if (F.PerSM == 1) {
    Out.K = GridPerSM::Resident;
    return Out;
  }
  if (F.PerSM == 0) {
    Out.K = GridPerSM::PerSM;
    Out.BlocksPerSM = F.K;
  }
  return Out;
}

std::vector<const VarDecl *> sharedArraysSizedLike(const Expr *Block,
                                                   const FunctionDecl *Kernel,
                                                   std::string &Name) {
  std::vector<const VarDecl *> Out;
  const FunctionDecl *Def = nullptr;
  if (!Block || !Kernel || !Kernel->hasBody(Def) || !Def->getBody())
    return Out;
  const ASTContext &Ctx = Def->getASTContext();
  std::set<std::string> BlockNames;
  namesOf(Block, Ctx, BlockNames, 0);
  if (BlockNames.empty())
    return Out;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || !V->hasAttr<CUDASharedAttr>() || V->hasExternalStorage() ||
            !V->getType()->isConstantArrayType())
          continue;
        std::set<std::string> Names;
        SourceRange R(V->getLocation(), V->getSourceRange().getEnd());
        namesInText(R, Ctx, Names);
        Names.erase(V->getName().str());
        for (const std::string &N : Names)
          if (BlockNames.count(N)) {
            if (Out.empty())
              Name = N;
            Out.push_back(V);
            break;
          }
      }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Def->getBody());
  return Out;
}

bool fromTemplateArgument(const Expr *E) {
  unsigned Depth = 0;
  std::function<bool(const Stmt *)> Walk = [&](const Stmt *S) -> bool {
    if (!S)
      return false;
    if (isa<SubstNonTypeTemplateParmExpr>(S))
      return true;
    if (const auto *R = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl())) {
        QualType T = V->getType().getNonReferenceType();
        if (isa<SubstTemplateTypeParmType>(T.getTypePtr()) ||
            T->getAs<SubstTemplateTypeParmType>())
          return true;
        if (V->isLocalVarDecl() && V->getInit() && Depth < 3) {
          ++Depth;
          bool Found = Walk(V->getInit());
          --Depth;
          if (Found)
            return true;
        }
      }
    for (const Stmt *C : S->children())
      if (Walk(C))
        return true;
    return false;
  };
  return Walk(E);
}

bool sizedLike(const Expr *E, const Expr *Block, const ASTContext &Ctx,
               std::string &Name) {
  if (!E || !Block)
    return false;
  std::set<std::string> A, B;
  namesOf(E, Ctx, A, 0);
  namesOf(Block, Ctx, B, 0);
  for (const std::string &N : A)
    if (B.count(N)) {
      Name = N;
      return true;
    }
  return false;
}

} // namespace warplint
