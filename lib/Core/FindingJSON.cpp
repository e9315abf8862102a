#include "Core/FindingJSON.h"
#include <limits>

using json = nlohmann::ordered_json;

namespace warplint {

namespace {

json locationJson(const Location &L) {
  return {{"file", L.File}, {"line", L.Line}, {"column", L.Column}};
}

// A finding's metrics as an object, in their order (the names of one
// finding's metrics are distinct).
json metricsJson(const std::vector<std::pair<std::string, double>> &Metrics) {
  json J = json::object();
  for (const auto &[Name, Value] : Metrics)
    J[Name] = Value;
  return J;
}

} // namespace

json findingToJson(const Finding &F, FindingJSONForm Form) {
  bool Complete = Form == FindingJSONForm::Complete;
  json J = {{"check", F.Check},
            {"severity", severityName(F.effectiveLevel()).str()},
            {"file", F.Loc.File},
            {"line", F.Loc.Line},
            {"column", F.Loc.Column},
            {"message", F.Message},
            {"arch", F.Archs}};
  json Notes = json::array();
  for (const FindingNote &N : F.Notes) {
    json NJ = locationJson(N.Loc);
    NJ["message"] = N.Message;
    Notes.push_back(NJ);
  }
  J["notes"] = Notes;
  json Fixes = json::array();
  for (const FixEdit &E : F.Fixes) {
    json EJ = {{"file", E.File},
               {"offset", E.Offset},
               {"length", E.Length},
               {"replacement", E.Replacement}};
    if (Complete)
      EJ["file_hash"] = E.FileHash;
    Fixes.push_back(EJ);
  }
  J["fixes"] = Fixes;
  J["metrics"] = metricsJson(F.Metrics);
  // A finding merged across targets whose numbers differ: each target's.
  if (!F.MetricsByArch.empty()) {
    json ByArch = json::object();
    for (const auto &[Arch, Ms] : F.MetricsByArch)
      if (Complete || !Ms.empty()) // a report names targets with numbers
        ByArch[Arch] = metricsJson(Ms);
    J["metrics_by_arch"] = ByArch;
  }
  if (Complete) {
    J["function"] = F.Function;
    J["level"] = severityName(F.Level).str();
    J["promoted"] = F.PromotedToError;
  }
  return J;
}

namespace {

// Reads fields without exceptions: each read that fails records why (the
// first failure is the one reported) and returns false.
class Reader {
public:
  std::string Problem;

  bool fail(const std::string &Where, const std::string &What) {
    if (Problem.empty())
      Problem = Where + ": " + What;
    return false;
  }

  // The field Key of object O; null when absent (a failure if Required).
  const json *field(const json &O, const char *Key, const std::string &Where,
                    bool Required = true) {
    if (!O.is_object()) {
      fail(Where, "not an object");
      return nullptr;
    }
    auto It = O.find(Key);
    if (It == O.end()) {
      if (Required)
        fail(Where, std::string("no \"") + Key + "\"");
      return nullptr;
    }
    return &*It;
  }

  bool read(const json &O, const char *Key, const std::string &Where,
            std::string &Out, bool Required = true) {
    const json *V = field(O, Key, Where, Required);
    if (!V)
      return !Required && Problem.empty();
    if (!V->is_string())
      return fail(Where, std::string("\"") + Key + "\" is not a string");
    Out = V->get<std::string>();
    return true;
  }

  bool read(const json &O, const char *Key, const std::string &Where,
            unsigned &Out) {
    const json *V = field(O, Key, Where);
    if (!V)
      return false;
    if (!V->is_number_unsigned() ||
        V->get<uint64_t>() > std::numeric_limits<unsigned>::max())
      return fail(Where,
                  std::string("\"") + Key + "\" is not an unsigned integer");
    Out = static_cast<unsigned>(V->get<uint64_t>());
    return true;
  }

  bool read(const json &O, const char *Key, const std::string &Where, bool &Out,
            bool Required = true) {
    const json *V = field(O, Key, Where, Required);
    if (!V)
      return !Required && Problem.empty();
    if (!V->is_boolean())
      return fail(Where, std::string("\"") + Key + "\" is not a boolean");
    Out = V->get<bool>();
    return true;
  }

  bool severity(const json &O, const char *Key, const std::string &Where,
                Severity &Out) {
    std::string Name;
    if (!read(O, Key, Where, Name))
      return false;
    for (Severity S : {Severity::Note, Severity::Warning, Severity::Error})
      if (severityName(S) == Name) {
        Out = S;
        return true;
      }
    return fail(Where, std::string("\"") + Key + "\" is not a severity");
  }

  bool location(const json &O, const std::string &Where, Location &L) {
    return read(O, "file", Where, L.File) && read(O, "line", Where, L.Line) &&
           read(O, "column", Where, L.Column);
  }

  const json *array(const json &O, const char *Key, const std::string &Where) {
    const json *V = field(O, Key, Where);
    if (V && !V->is_array()) {
      fail(Where, std::string("\"") + Key + "\" is not an array");
      return nullptr;
    }
    return V;
  }

  bool metrics(const json &V, const std::string &Where,
               std::vector<std::pair<std::string, double>> &Out) {
    if (!V.is_object())
      return fail(Where, "not an object");
    for (const auto &[Name, Value] : V.items()) {
      if (!Value.is_number())
        return fail(Where, "\"" + Name + "\" is not a number");
      Out.emplace_back(Name, Value.get<double>());
    }
    return true;
  }
};

} // namespace

llvm::Expected<Finding> findingFromJson(const json &J) {
  Reader R;
  Finding F;
  auto Fail = [&] {
    return llvm::createStringError("a finding that does not read back: " +
                                   R.Problem);
  };
  const std::string Where = "finding";
  if (!R.read(J, "check", Where, F.Check) ||
      !R.severity(J, "severity", Where, F.Level) ||
      !R.location(J, Where, F.Loc) || !R.read(J, "message", Where, F.Message))
    return Fail();
  const json *Archs = R.array(J, "arch", Where);
  if (!Archs)
    return Fail();
  for (const json &A : *Archs) {
    if (!A.is_string()) {
      R.fail(Where, "\"arch\" holds a non-string");
      return Fail();
    }
    F.Archs.push_back(A.get<std::string>());
  }
  const json *Notes = R.array(J, "notes", Where);
  if (!Notes)
    return Fail();
  for (const json &NJ : *Notes) {
    FindingNote N;
    if (!R.location(NJ, "note", N.Loc) ||
        !R.read(NJ, "message", "note", N.Message))
      return Fail();
    F.Notes.push_back(std::move(N));
  }
  const json *Fixes = R.array(J, "fixes", Where);
  if (!Fixes)
    return Fail();
  for (const json &EJ : *Fixes) {
    FixEdit E;
    if (!R.read(EJ, "file", "fix", E.File) ||
        !R.read(EJ, "offset", "fix", E.Offset) ||
        !R.read(EJ, "length", "fix", E.Length) ||
        !R.read(EJ, "replacement", "fix", E.Replacement) ||
        !R.read(EJ, "file_hash", "fix", E.FileHash, /*Required=*/false))
      return Fail();
    F.Fixes.push_back(std::move(E));
  }
  const json *Metrics = R.field(J, "metrics", Where);
  if (!Metrics || !R.metrics(*Metrics, "metrics", F.Metrics))
    return Fail();
  if (const json *ByArch = R.field(J, "metrics_by_arch", Where, false)) {
    if (!ByArch->is_object()) {
      R.fail("metrics_by_arch", "not an object");
      return Fail();
    }
    for (const auto &[Arch, Ms] : ByArch->items())
      if (!R.metrics(Ms, "metrics_by_arch", F.MetricsByArch[Arch]))
        return Fail();
  }
  // The Complete form's fields; a report's finding has none of them.
  if (!R.read(J, "function", Where, F.Function, /*Required=*/false) ||
      !R.read(J, "promoted", Where, F.PromotedToError, /*Required=*/false))
    return Fail();
  if (J.contains("level") && !R.severity(J, "level", Where, F.Level))
    return Fail();
  return F;
}

} // namespace warplint
