// LSP's vocabulary as the server needs it: file URIs, positions in the
// negotiated encoding (UTF-16 code units unless the client offers UTF-8),
// and incremental edits of a buffer.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace warplint::lsp {

// The server's error codes (JSON-RPC's and LSP's).
enum ErrorCode {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
};

// How deep JSON messages may nest arrays and objects: LSP's nest about ten
// deep. The parser the server used before (llvm::json's) recursed once per
// level, so that a message of a million '[' overflowed the stack; deeper
// ones are still refused unparsed.
inline constexpr unsigned MaxJSONNesting = 256;
// Whether the arrays and objects of Text (JSON, well-formed or not) nest at
// most Limit deep; brackets inside strings do not count.
bool nestingWithin(llvm::StringRef Text, unsigned Limit);

// file:///a%20b/c.cu <-> /a b/c.cu. Other schemes are not files.
llvm::Expected<std::string> uriToPath(llvm::StringRef Uri);
std::string pathToUri(llvm::StringRef Path);

enum class Encoding { UTF16, UTF8 };

struct Position {
  unsigned Line = 0;      // 0-based
  unsigned Character = 0; // 0-based, in the encoding's code units
};

// Line text: the text of one line (no newline). Byte offset in it <-> code
// units of the encoding.
unsigned unitsOfBytes(llvm::StringRef LineText, size_t Bytes, Encoding E);
size_t bytesOfUnits(llvm::StringRef LineText, unsigned Units, Encoding E);

// Byte offset of P in Text; a position past the end of its line is clamped
// to the line's end, past the last line to the text's end (as the spec asks).
size_t offsetOf(llvm::StringRef Text, Position P, Encoding E);
// The position of a byte offset.
Position positionOf(llvm::StringRef Text, size_t Offset, Encoding E);
// The byte offset of clang's 1-based line and byte column.
size_t offsetOfLineColumn(llvm::StringRef Text, unsigned Line, unsigned Column);

// Messages are nlohmann::json, not ordered_json: its objects write their
// keys sorted, as llvm::json (which the server used before) did, so every
// message keeps the field order it had.
using json = nlohmann::json;

// A message's body as JSON, or why it is not. As llvm::json read one: a
// \u escape of an unpaired UTF-16 surrogate is U+FFFD (nlohmann_json refuses
// the message), a NUL byte or a leading byte order mark is an error
// (nlohmann_json ends the input at the one and skips the other).
llvm::Expected<json> parseMessage(llvm::StringRef Body);

// A message's bytes: compact; invalid UTF-8 (text from files and buffers
// may hold some) written as U+FFFD, as llvm::json did, instead of throwing.
std::string serialize(const json &Message);

// V as an integer, as llvm::json::Value::getAsInteger read one: an integer
// within int64_t, or a floating-point number without a fraction within it.
std::optional<int64_t> asInteger(const json &V);

// The value of Key in O when O is an object holding one (null otherwise);
// the typed ones also null when it is of another type.
const json *member(const json &O, llvm::StringRef Key);
const json *objectMember(const json &O, llvm::StringRef Key);
const json *arrayMember(const json &O, llvm::StringRef Key);
std::optional<std::string> stringMember(const json &O, llvm::StringRef Key);

json toJSON(const Position &P);
// {"line": L, "character": C}, each an integer as asInteger reads one, taken
// modulo 2^32 as llvm::json's mapping to unsigned took it (-1: the line's or
// the text's end); false when V is anything else.
bool fromJSON(const json &V, Position &P);

// A contentChanges entry of didChange (an object) applied to Text: with a
// range, the range is replaced; without, the whole text.
llvm::Error applyChange(std::string &Text, const json &Change, Encoding E);

} // namespace warplint::lsp
