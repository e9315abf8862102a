#include "Arch/ArchTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <nlohmann/json.hpp>

using namespace llvm;
using json = nlohmann::json;

namespace warplint {

namespace {

Error tableError(StringRef Path, const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), (Path + ": " + Msg).str());
}

bool readValue(const json &V, unsigned &Out) {
  if (!V.is_number_unsigned())
    return false;
  Out = V.get<unsigned>();
  return true;
}
bool readValue(const json &V, bool &Out) {
  if (!V.is_boolean())
    return false;
  Out = V.get<bool>();
  return true;
}
bool readValue(const json &V, double &Out) {
  if (!V.is_number())
    return false;
  Out = V.get<double>();
  return true;
}
bool readValue(const json &V, std::vector<unsigned> &Out) {
  if (!V.is_array())
    return false;
  Out.clear();
  for (const json &E : V) {
    if (!E.is_number_unsigned())
      return false;
    Out.push_back(E.get<unsigned>());
  }
  return true;
}

const char *kindName(StringRef Kind) {
  if (Kind == "Unsigned")
    return "a non-negative integer";
  if (Kind == "Bool" || Kind == "Feature")
    return "a boolean";
  if (Kind == "Number")
    return "a number";
  return "an array of non-negative integers";
}

Error readString(const json &Doc, const char *Key, StringRef Path,
                 std::string &Out) {
  auto It = Doc.find(Key);
  if (It == Doc.end() || !It->is_string())
    return tableError(Path,
                      Twine("field '") + Key + "' is missing or not a string");
  Out = It->get<std::string>();
  return Error::success();
}

} // namespace

Expected<ArchInfo> ArchTable::parseTable(StringRef Text, StringRef Path) {
  json Doc = json::parse(Text.begin(), Text.end(), nullptr,
                         /*allow_exceptions=*/false);
  if (Doc.is_discarded())
    return tableError(Path, "not valid JSON");
  if (!Doc.is_object())
    return tableError(Path, "expected a JSON object");

  ArchInfo A;
  if (Error E = readString(Doc, "arch", Path, A.Name))
    return Expected<ArchInfo>(std::move(E));
  StringRef Digits = A.Name;
  if (!Digits.consume_front("sm_") || Digits.getAsInteger(10, A.SM))
    return tableError(Path, "field 'arch' must look like sm_80, not '" +
                                A.Name + "'");
  if (Error E =
          readString(Doc, "compute_capability", Path, A.ComputeCapability))
    return Expected<ArchInfo>(std::move(E));
  if (Error E = readString(Doc, "family", Path, A.Family))
    return Expected<ArchInfo>(std::move(E));

  auto FieldsIt = Doc.find("fields");
  if (FieldsIt == Doc.end() || !FieldsIt->is_object())
    return tableError(Path, "field 'fields' is missing or not an object");
  const json &Fields = *FieldsIt;

  static const char *const Known[] = {
#define ARCH_FIELD(NAME, TYPE, KIND) #NAME,
#include "Arch/ArchFields.def"
  };
  for (auto It = Fields.begin(); It != Fields.end(); ++It)
    if (std::find_if(std::begin(Known), std::end(Known), [&](const char *K) {
          return It.key() == K;
        }) == std::end(Known))
      return tableError(Path, "unknown field 'fields." + It.key() + "'");

#define ARCH_FIELD(NAME, TYPE, KIND)                                           \
  {                                                                            \
    auto F = Fields.find(#NAME);                                               \
    if (F == Fields.end() || !F->is_object())                                  \
      return tableError(Path, "field 'fields." #NAME "' is missing");          \
    auto V = F->find("value");                                                 \
    if (V == F->end() || !readValue(*V, A.NAME))                               \
      return tableError(Path,                                                  \
                        Twine("field 'fields." #NAME ".value' must be ") +     \
                            kindName(#KIND));                                  \
    auto S = F->find("source");                                                \
    if (S == F->end() || !S->is_string() || S->get<std::string>().empty())     \
      return tableError(Path,                                                  \
                        "field 'fields." #NAME                                 \
                        ".source' must cite where the value comes from");      \
    A.Sources[#NAME] = S->get<std::string>();                                  \
  }
#include "Arch/ArchFields.def"

  if (A.warp_size == 0 || A.shared_memory_banks == 0 ||
      A.shared_memory_bank_width == 0 || A.global_sector_bytes == 0)
    return tableError(Path, "warp_size, shared_memory_banks, "
                            "shared_memory_bank_width and global_sector_bytes "
                            "must be positive");
  return A;
}

Expected<ArchTable> ArchTable::loadDirectory(StringRef Dir) {
  ArchTable T;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.starts_with("sm_") || !Name.ends_with(".json"))
      continue;
    auto Buf = MemoryBuffer::getFile(It->path());
    if (!Buf)
      return tableError(It->path(), "cannot read: " + Buf.getError().message());
    auto Info = parseTable((*Buf)->getBuffer(), It->path());
    if (!Info)
      return Info.takeError();
    if (Name.drop_back(5) != Info->Name)
      return tableError(It->path(), "field 'arch' says " + Info->Name +
                                        " but the file is named " + Name);
    T.Archs.push_back(std::move(*Info));
  }
  if (EC)
    return tableError(Dir,
                      "cannot read the rule-table directory: " + EC.message());
  if (T.Archs.empty())
    return tableError(Dir, "no rule tables (sm_*.json) found");
  std::sort(T.Archs.begin(), T.Archs.end(),
            [](const ArchInfo &A, const ArchInfo &B) { return A.SM < B.SM; });
  return T;
}

std::string shareDirectoryFor(StringRef BinaryPath) {
  SmallString<256> P(
      sys::path::parent_path(sys::path::parent_path(BinaryPath)));
  sys::path::append(P, "share", "warplint");
  return std::string(P);
}

const ArchInfo *ArchTable::find(StringRef Name) const {
  StringRef N = Name.trim();
  unsigned SM = 0;
  if (N.consume_front("sm_") || N.consume_front("compute_")) {
    if (N.consume_back("a") || N.consume_back("f")) {
      // sm_90a, sm_100f: feature-specific variants judged as their base.
    }
    if (N.getAsInteger(10, SM))
      return nullptr;
  } else if (N.contains('.')) {
    auto [Major, Minor] = N.split('.');
    unsigned Ma, Mi;
    if (Major.getAsInteger(10, Ma) || Minor.getAsInteger(10, Mi))
      return nullptr;
    SM = Ma * 10 + Mi;
  } else if (N.getAsInteger(10, SM)) {
    return nullptr;
  }
  for (const ArchInfo &A : Archs)
    if (A.SM == SM)
      return &A;
  return nullptr;
}

std::string ArchTable::knownNames() const {
  std::string Out;
  for (const ArchInfo &A : Archs) {
    if (!Out.empty())
      Out += ", ";
    Out += A.Name;
  }
  return Out;
}

std::vector<std::pair<StringRef, bool>> ArchInfo::features() const {
  std::vector<std::pair<StringRef, bool>> Out;
#define WARPLINT_FEATURE_Feature(NAME) Out.push_back({#NAME, NAME});
#define WARPLINT_FEATURE_Bool(NAME)
#define WARPLINT_FEATURE_Unsigned(NAME)
#define WARPLINT_FEATURE_Number(NAME)
#define WARPLINT_FEATURE_UnsignedList(NAME)
#define ARCH_FIELD(NAME, TYPE, KIND) WARPLINT_FEATURE_##KIND(NAME)
#include "Arch/ArchFields.def"
#undef WARPLINT_FEATURE_Feature
#undef WARPLINT_FEATURE_Bool
#undef WARPLINT_FEATURE_Unsigned
#undef WARPLINT_FEATURE_Number
#undef WARPLINT_FEATURE_UnsignedList
  return Out;
}

std::optional<bool> ArchInfo::hasFeature(StringRef Name) const {
  for (auto [Feature, Has] : features())
    if (Feature == Name)
      return Has;
  return std::nullopt;
}

const ArchInfo *
ArchTable::firstWhere(function_ref<bool(const ArchInfo &)> Pred) const {
  for (const ArchInfo &A : Archs)
    if (Pred(A))
      return &A;
  return nullptr;
}

} // namespace warplint
