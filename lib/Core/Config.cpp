#include "Core/Config.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace warplint {

namespace {

// Collects the YAML parser's first message as "file:line:col: message".
struct YamlErrors {
  std::string First;
  static void handler(const SMDiagnostic &D, void *Ctx) {
    auto *Self = static_cast<YamlErrors *>(Ctx);
    if (Self->First.empty())
      Self->First = (D.getFilename() + ":" + Twine(D.getLineNo()) + ":" +
                     Twine(D.getColumnNo() + 1) + ": " + D.getMessage())
                        .str();
  }
};

class ConfigParser {
public:
  ConfigParser(StringRef Text, StringRef Path)
      : Path(Path.str()), Buffer(MemoryBuffer::getMemBuffer(Text, Path)) {
    SM.setDiagHandler(&YamlErrors::handler, &Errors);
  }

  Expected<Config> parse() {
    Config C;
    C.Path = Path;
    yaml::Stream S(Buffer->getMemBufferRef(), SM);
    auto DocIt = S.begin();
    if (DocIt == S.end())
      return C;
    yaml::Node *Root = DocIt->getRoot();
    if (failed())
      return error();
    if (!Root || isa<yaml::NullNode>(Root))
      return C;
    auto *Map = dyn_cast<yaml::MappingNode>(Root);
    if (!Map)
      return fail(Root, "expected a mapping of keys (Checks, WarningsAsErrors, "
                        "Arch, CheckOptions)");
    for (yaml::KeyValueNode &KV : *Map) {
      std::optional<std::string> Key = scalar(KV.getKey());
      if (failed() || !Key)
        return error();
      yaml::Node *Value = KV.getValue();
      if (failed())
        return error();
      if (*Key == "Checks") {
        if (auto V = listOrScalar(Value))
          C.Checks = *V;
      } else if (*Key == "WarningsAsErrors") {
        if (auto V = listOrScalar(Value))
          C.WarningsAsErrors = *V;
      } else if (*Key == "Arch") {
        if (auto V = listOrScalar(Value))
          appendArchList(*V, C.Arch);
      } else if (*Key == "CheckOptions") {
        readCheckOptions(Value, C.CheckOptions);
      } else {
        report(KV.getKey(), "unknown key '" + *Key + "'");
      }
      if (failed())
        return error();
    }
    if (failed())
      return error();
    return C;
  }

private:
  bool failed() const { return !Errors.First.empty(); }
  Error error() const {
    return createStringError(inconvertibleErrorCode(), Errors.First);
  }
  void report(yaml::Node *N, const Twine &Msg) {
    SM.PrintMessage(N ? N->getSourceRange().Start : SMLoc(),
                    SourceMgr::DK_Error, Msg);
  }
  Error fail(yaml::Node *N, const Twine &Msg) {
    report(N, Msg);
    return error();
  }

  std::optional<std::string> scalar(yaml::Node *N) {
    auto *S = dyn_cast_or_null<yaml::ScalarNode>(N);
    if (!S) {
      report(N, "expected a string");
      return std::nullopt;
    }
    SmallString<64> Storage;
    return S->getValue(Storage).str();
  }

  // "a,b" or [a, b] or a block list: all become "a,b".
  std::optional<std::string> listOrScalar(yaml::Node *N) {
    if (auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(N)) {
      std::string Out;
      for (yaml::Node &Item : *Seq) {
        auto V = scalar(&Item);
        if (!V)
          return std::nullopt;
        if (!Out.empty())
          Out += ",";
        Out += *V;
      }
      return Out;
    }
    return scalar(N);
  }

  // clang-tidy accepts both a mapping and a list of {key, value} pairs.
  void readCheckOptions(yaml::Node *N,
                        std::map<std::string, std::string> &Out) {
    if (auto *Map = dyn_cast_or_null<yaml::MappingNode>(N)) {
      for (yaml::KeyValueNode &KV : *Map) {
        auto K = scalar(KV.getKey());
        auto V = K ? scalar(KV.getValue()) : std::nullopt;
        if (!K || !V)
          return;
        Out[*K] = *V;
      }
      return;
    }
    auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(N);
    if (!Seq) {
      report(N, "CheckOptions must be a mapping or a list of {key, value}");
      return;
    }
    for (yaml::Node &Item : *Seq) {
      auto *Pair = dyn_cast<yaml::MappingNode>(&Item);
      if (!Pair) {
        report(&Item, "expected {key: ..., value: ...}");
        return;
      }
      std::optional<std::string> K, V;
      for (yaml::KeyValueNode &KV : *Pair) {
        auto Name = scalar(KV.getKey());
        if (!Name)
          return;
        if (*Name == "key")
          K = scalar(KV.getValue());
        else if (*Name == "value")
          V = scalar(KV.getValue());
        else {
          report(KV.getKey(), "unknown key '" + *Name + "' in CheckOptions");
          return;
        }
      }
      if (!K || !V) {
        report(&Item, "CheckOptions entry needs both 'key' and 'value'");
        return;
      }
      Out[*K] = *V;
    }
  }

  std::string Path;
  std::unique_ptr<MemoryBuffer> Buffer;
  SourceMgr SM;
  YamlErrors Errors;
};

} // namespace

void appendArchList(StringRef Text, std::vector<std::string> &Out) {
  SmallVector<StringRef, 4> Parts;
  Text.split(Parts, ',', -1, false);
  for (StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim().str());
}

Expected<Config> parseConfig(StringRef Text, StringRef Path) {
  return ConfigParser(Text, Path).parse();
}

Expected<Config> loadConfigFile(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError(Buf.getError(), "%s: cannot read: %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  return parseConfig((*Buf)->getBuffer(), Path);
}

std::optional<std::string> findConfigFile(StringRef File) {
  SmallString<256> Dir(File);
  sys::fs::make_absolute(Dir);
  sys::path::remove_filename(Dir);
  while (!Dir.empty()) {
    SmallString<256> Candidate(Dir);
    sys::path::append(Candidate, ".warplint.yaml");
    if (sys::fs::exists(Candidate))
      return std::string(Candidate);
    std::string Parent = sys::path::parent_path(Dir).str();
    if (Parent == Dir.str())
      break;
    Dir = Parent;
  }
  return std::nullopt;
}

} // namespace warplint

namespace warplint {

EffectiveSettings combineSettings(const Config *FromFile, StringRef CliChecks,
                                  StringRef CliWarningsAsErrors) {
  EffectiveSettings S;
  // Every check is on unless a glob turns it off.
  S.ChecksText = "*";
  auto Append = [](std::string &To, StringRef More) {
    if (More.trim().empty())
      return;
    if (!To.empty())
      To += ",";
    To += More.str();
  };
  if (FromFile) {
    if (FromFile->Checks)
      Append(S.ChecksText, *FromFile->Checks);
    if (FromFile->WarningsAsErrors)
      Append(S.WarningsAsErrorsText, *FromFile->WarningsAsErrors);
    S.ConfigArchs = FromFile->Arch;
    S.CheckOptions = FromFile->CheckOptions;
  }
  Append(S.ChecksText, CliChecks);
  Append(S.WarningsAsErrorsText, CliWarningsAsErrors);
  return S;
}

} // namespace warplint
