#include "Protocol.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

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
      Path.push_back(static_cast<char>(hexFromNibbles(Rest[I + 1], Rest[I + 2])));
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
  P.Character = unitsOfBytes(Text.slice(LineStart, Offset), Offset - LineStart, E);
  return P;
}

size_t offsetOfLineColumn(StringRef Text, unsigned Line, unsigned Column) {
  if (Line == 0)
    return 0;
  auto [Start, End] = lineBounds(Text, Line - 1);
  return std::min<size_t>(Start + (Column ? Column - 1 : 0), End);
}

json::Value toJSON(const Position &P) {
  return json::Object{{"line", P.Line}, {"character", P.Character}};
}

bool fromJSON(const json::Value &V, Position &P, json::Path Path) {
  json::ObjectMapper O(V, Path);
  return O && O.map("line", P.Line) && O.map("character", P.Character);
}

Error applyChange(std::string &Text, const json::Object &Change, Encoding E) {
  std::optional<StringRef> NewText = Change.getString("text");
  if (!NewText)
    return createStringError("a content change without 'text'");
  const json::Value *Range = Change.get("range");
  if (!Range) {
    Text = NewText->str();
    return Error::success();
  }
  Position Start, End;
  json::Path::Root Root("range");
  const json::Object *R = Range->getAsObject();
  if (!R || !R->get("start") || !R->get("end") ||
      !fromJSON(*R->get("start"), Start, Root) ||
      !fromJSON(*R->get("end"), End, Root))
    return createStringError("a content change with a malformed range");
  size_t From = offsetOf(Text, Start, E), To = offsetOf(Text, End, E);
  if (To < From)
    return createStringError("a content change whose range ends before it "
                             "starts");
  Text.replace(From, To - From, NewText->str());
  return Error::success();
}

} // namespace warplint::lsp
