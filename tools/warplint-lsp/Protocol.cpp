#include "Protocol.h"
#include "Support/JsonText.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include <cmath>
#include <limits>

using namespace llvm;

namespace warplint::lsp {

bool nestingWithin(StringRef Text, unsigned Limit) {
  unsigned Depth = 0;
  bool InString = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I; // the escaped character
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"')
      InString = true;
    else if ((C == '[' || C == '{') && ++Depth > Limit)
      return false;
    else if ((C == ']' || C == '}') && Depth)
      --Depth;
  }
  return true;
}

Expected<std::string> uriToPath(StringRef Uri) {
  StringRef Rest = Uri;
  if (!Rest.consume_front_insensitive("file://"))
    return createStringError("not a file URI: " + Uri);
  // file://host/path: only the local host.
  if (!Rest.starts_with("/")) {
    size_t Slash = Rest.find('/');
    StringRef Host = Rest.substr(0, Slash);
    if (!Host.equals_insensitive("localhost"))
      return createStringError("file URI of another host: " + Uri);
    Rest = Rest.substr(Slash == StringRef::npos ? Rest.size() : Slash);
  }
  std::string Path;
  for (size_t I = 0; I < Rest.size(); ++I) {
    if (Rest[I] == '%' && I + 2 < Rest.size() && isHexDigit(Rest[I + 1]) &&
        isHexDigit(Rest[I + 2])) {
      Path.push_back(
          static_cast<char>(hexFromNibbles(Rest[I + 1], Rest[I + 2])));
      I += 2;
      continue;
    }
    Path.push_back(Rest[I]);
  }
  return Path;
}

std::string pathToUri(StringRef Path) {
  std::string Uri = "file://";
  for (unsigned char C : Path) {
    // RFC 3986 unreserved characters and the path separator stay as they are.
    if (isAlnum(C) || StringRef("-._~/").contains(C)) {
      Uri.push_back(C);
      continue;
    }
    Uri.push_back('%');
    Uri.push_back(hexdigit(C >> 4));
    Uri.push_back(hexdigit(C & 15));
  }
  return Uri;
}

// Bytes of the UTF-8 sequence that starts with Lead (1 for a stray byte).
static size_t sequenceLength(unsigned char Lead) {
  if (Lead < 0xC0)
    return 1;
  if (Lead < 0xE0)
    return 2;
  if (Lead < 0xF0)
    return 3;
  return 4;
}

unsigned unitsOfBytes(StringRef LineText, size_t Bytes, Encoding E) {
  Bytes = std::min(Bytes, LineText.size());
  if (E == Encoding::UTF8)
    return Bytes;
  unsigned Units = 0;
  for (size_t I = 0; I < Bytes;) {
    size_t N = sequenceLength(LineText[I]);
    Units += N == 4 ? 2 : 1; // outside the BMP: a surrogate pair
    I += N;
  }
  return Units;
}

size_t bytesOfUnits(StringRef LineText, unsigned Units, Encoding E) {
  if (E == Encoding::UTF8)
    return std::min<size_t>(Units, LineText.size());
  size_t I = 0;
  for (unsigned U = 0; I < LineText.size() && U < Units;) {
    size_t N = sequenceLength(LineText[I]);
    U += N == 4 ? 2 : 1;
    I += N;
  }
  return std::min(I, LineText.size());
}

// The byte range of line Line (0-based), without its line break.
static std::pair<size_t, size_t> lineBounds(StringRef Text, unsigned Line) {
  size_t Start = 0;
  for (unsigned L = 0; L < Line; ++L) {
    size_t NL = Text.find('\n', Start);
    if (NL == StringRef::npos)
      return {Text.size(), Text.size()};
    Start = NL + 1;
  }
  size_t End = std::min(Text.find('\n', Start), Text.size());
  if (End > Start && Text[End - 1] == '\r')
    --End;
  return {Start, End};
}

size_t offsetOf(StringRef Text, Position P, Encoding E) {
  auto [Start, End] = lineBounds(Text, P.Line);
  return Start + bytesOfUnits(Text.slice(Start, End), P.Character, E);
}

Position positionOf(StringRef Text, size_t Offset, Encoding E) {
  Offset = std::min(Offset, Text.size());
  StringRef Before = Text.take_front(Offset);
  Position P;
  P.Line = Before.count('\n');
  size_t LineStart = Before.rfind('\n');
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  P.Character =
      unitsOfBytes(Text.slice(LineStart, Offset), Offset - LineStart, E);
  return P;
}

size_t offsetOfLineColumn(StringRef Text, unsigned Line, unsigned Column) {
  if (Line == 0)
    return 0;
  auto [Start, End] = lineBounds(Text, Line - 1);
  return std::min<size_t>(Start + (Column ? Column - 1 : 0), End);
}

// Body with each \u escape of an unpaired surrogate made \ufffd (of the
// same length), as llvm::json's parser took them.
static std::string withoutUnpairedSurrogates(StringRef Body) {
  std::string Text = Body.str();
  // The code unit of the \uXXXX escape at At.
  auto Unit = [&](size_t At) -> std::optional<unsigned> {
    if (At + 6 > Text.size() || Text[At] != '\\' || Text[At + 1] != 'u')
      return std::nullopt;
    unsigned U = 0;
    for (size_t I = At + 2; I < At + 6; ++I) {
      if (!isHexDigit(Text[I]))
        return std::nullopt;
      U = U * 16 + hexDigitValue(Text[I]);
    }
    return U;
  };
  auto Leading = [](unsigned U) { return U >= 0xD800 && U < 0xDC00; };
  auto Trailing = [](unsigned U) { return U >= 0xDC00 && U < 0xE000; };
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '\\')
      continue;
    std::optional<unsigned> U = Unit(I);
    if (!U) {
      ++I; // another escape: its character is no escape's start
      continue;
    }
    if (Leading(*U)) {
      std::optional<unsigned> Next = Unit(I + 6);
      if (Next && Trailing(*Next)) {
        I += 11; // a pair
        continue;
      }
      Text.replace(I, 6, "\\ufffd");
    } else if (Trailing(*U)) {
      Text.replace(I, 6, "\\ufffd");
    }
    I += 5;
  }
  return Text;
}

Expected<json> parseMessage(StringRef Body) {
  if (Body.contains('\0'))
    return createStringError("a NUL byte at offset " + Twine(Body.find('\0')));
  if (Body.starts_with("\xEF\xBB\xBF"))
    return createStringError("a byte order mark before the message");
  try {
    return json::parse(withoutUnpairedSurrogates(Body));
  } catch (const json::exception &E) { // a parse error, a number too large
    return createStringError(E.what());
  }
}

std::string serialize(const json &Message) { return jsonText(Message); }

std::optional<int64_t> asInteger(const json &V) {
  if (V.is_number_integer() && !V.is_number_unsigned())
    return V.get<int64_t>();
  if (V.is_number_unsigned()) {
    uint64_t U = V.get<uint64_t>();
    if (U <= uint64_t(std::numeric_limits<int64_t>::max()))
      return int64_t(U);
    return std::nullopt;
  }
  if (V.is_number_float()) {
    double D = V.get<double>(), Whole;
    // 2^63 itself is out of int64_t's range.
    if (std::modf(D, &Whole) == 0.0 &&
        D >= double(std::numeric_limits<int64_t>::min()) &&
        D < double(std::numeric_limits<int64_t>::max()))
      return int64_t(D);
  }
  return std::nullopt;
}

const json *member(const json &O, StringRef Key) {
  if (!O.is_object())
    return nullptr;
  auto It = O.find(Key.str());
  return It == O.end() ? nullptr : &*It;
}

const json *objectMember(const json &O, StringRef Key) {
  const json *V = member(O, Key);
  return V && V->is_object() ? V : nullptr;
}

const json *arrayMember(const json &O, StringRef Key) {
  const json *V = member(O, Key);
  return V && V->is_array() ? V : nullptr;
}

std::optional<std::string> stringMember(const json &O, StringRef Key) {
  const json *V = member(O, Key);
  if (!V || !V->is_string())
    return std::nullopt;
  return V->get<std::string>();
}

json toJSON(const Position &P) {
  return json::object({{"line", P.Line}, {"character", P.Character}});
}

bool fromJSON(const json &V, Position &P) {
  auto Unsigned = [&](StringRef Key, unsigned &Out) {
    const json *F = member(V, Key);
    std::optional<int64_t> N = F ? asInteger(*F) : std::nullopt;
    if (!N)
      return false;
    Out = static_cast<unsigned>(*N);
    return true;
  };
  return V.is_object() && Unsigned("line", P.Line) &&
         Unsigned("character", P.Character);
}

Error applyChange(std::string &Text, const json &Change, Encoding E) {
  std::optional<std::string> NewText = stringMember(Change, "text");
  if (!NewText)
    return createStringError("a content change without 'text'");
  const json *Range = member(Change, "range");
  if (!Range) {
    Text = std::move(*NewText);
    return Error::success();
  }
  Position Start, End;
  const json *From = member(*Range, "start"), *To = member(*Range, "end");
  if (!From || !To || !fromJSON(*From, Start) || !fromJSON(*To, End))
    return createStringError("a content change with a malformed range");
  size_t Lo = offsetOf(Text, Start, E), Hi = offsetOf(Text, End, E);
  if (Hi < Lo)
    return createStringError("a content change whose range ends before it "
                             "starts");
  Text.replace(Lo, Hi - Lo, *NewText);
  return Error::success();
}

} // namespace warplint::lsp
