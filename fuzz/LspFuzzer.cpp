// libFuzzer target: warplint-lsp's message reader. The input is the byte
// stream a client sends: the Transport's framing (Content-Length headers),
// then each body as the Server takes it (the nesting guard, JSON-RPC
// parsing), and the protocol code the notifications reach without an
// analysis: file URIs, positions in both encodings, incremental edits of the
// open document.
#include "FuzzInput.h"
#include "Protocol.h"
#include "Transport.h"
#include <cstdio>

using namespace warplint;
using namespace warplint::lsp;
using namespace llvm;

static void onMessage(const json &M, std::string &Doc) {
  const json *Params = objectMember(M, "params");
  if (!Params)
    return;
  if (const json *TD = objectMember(*Params, "textDocument")) {
    if (std::optional<std::string> Uri = stringMember(*TD, "uri")) {
      auto Path = uriToPath(*Uri);
      if (Path)
        (void)pathToUri(*Path);
      else
        consumeError(Path.takeError());
    }
    if (std::optional<std::string> Text = stringMember(*TD, "text"))
      Doc = std::move(*Text);
  }
  if (const json *Changes = arrayMember(*Params, "contentChanges"))
    for (const json &Change : *Changes)
      if (Change.is_object())
        for (Encoding E : {Encoding::UTF16, Encoding::UTF8}) {
          std::string Copy = Doc;
          if (Error Err = applyChange(Copy, Change, E)) {
            consumeError(std::move(Err));
            continue;
          }
          // A UTF-8 column inside a character leaves invalid UTF-8, which
          // the server may send back (a quick fix's title): serialized
          // without throwing.
          (void)serialize(json::object({{"text", Copy}}));
          if (E == Encoding::UTF16)
            Doc = std::move(Copy);
        }
  if (const json *Pos = member(*Params, "position")) {
    Position P;
    if (fromJSON(*Pos, P))
      for (Encoding E : {Encoding::UTF16, Encoding::UTF8}) {
        size_t Offset = offsetOf(Doc, P, E);
        (void)positionOf(Doc, Offset, E);
        (void)offsetOfLineColumn(Doc, P.Line, P.Character);
      }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // fmemopen of no bytes fails; an empty stream is /dev/null's.
  std::FILE *In = Size ? fmemopen(const_cast<uint8_t *>(Data), Size, "r")
                       : std::fopen("/dev/null", "r");
  std::FILE *Out = std::fopen("/dev/null", "w");
  Logger Log(LogLevel::Error);
  Transport T(In, Out, Log);
  std::string Doc;
  while (std::optional<std::string> Body = T.read()) {
    if (!nestingWithin(*Body, MaxJSONNesting))
      continue;
    Expected<json> Message = parseMessage(*Body);
    if (!Message) {
      consumeError(Message.takeError());
      continue;
    }
    onMessage(*Message, Doc);
    T.send(*Message);
  }
  std::fclose(In);
  std::fclose(Out);
  return 0;
}
