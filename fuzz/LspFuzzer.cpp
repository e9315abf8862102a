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

static void onMessage(const json::Object &M, std::string &Doc) {
  const json::Object *Params = M.getObject("params");
  if (!Params)
    return;
  if (const json::Object *TD = Params->getObject("textDocument")) {
    if (std::optional<StringRef> Uri = TD->getString("uri")) {
      auto Path = uriToPath(*Uri);
      if (Path)
        (void)pathToUri(*Path);
      else
        consumeError(Path.takeError());
    }
    if (std::optional<StringRef> Text = TD->getString("text"))
      Doc = Text->str();
  }
  if (const json::Array *Changes = Params->getArray("contentChanges"))
    for (const json::Value &C : *Changes)
      if (const json::Object *Change = C.getAsObject())
        for (Encoding E : {Encoding::UTF16, Encoding::UTF8}) {
          std::string Copy = Doc;
          if (Error Err = applyChange(Copy, *Change, E))
            consumeError(std::move(Err));
          else if (E == Encoding::UTF16)
            Doc = std::move(Copy);
        }
  if (const json::Value *Pos = Params->get("position")) {
    Position P;
    json::Path::Root Root("position");
    if (fromJSON(*Pos, P, Root))
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
    Expected<json::Value> Message = json::parse(*Body);
    if (!Message) {
      consumeError(Message.takeError());
      continue;
    }
    if (const json::Object *M = Message->getAsObject())
      onMessage(*M, Doc);
    T.send(std::move(*Message));
  }
  std::fclose(In);
  std::fclose(Out);
  return 0;
}
