// LSP's vocabulary as the server needs it: file URIs, positions in the
// negotiated encoding (UTF-16 code units unless the client offers UTF-8),
// and incremental edits of a buffer.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
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
// deep. llvm::json::parse recurses once per level, so that a message of a
// million '[' overflowed the stack; deeper ones are refused unparsed.
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
size_t offsetOfLineColumn(llvm::StringRef Text, unsigned Line,
                          unsigned Column);

llvm::json::Value toJSON(const Position &P);
bool fromJSON(const llvm::json::Value &V, Position &P, llvm::json::Path Path);

// A contentChanges entry of didChange applied to Text: with a range, the
// range is replaced; without, the whole text.
llvm::Error applyChange(std::string &Text, const llvm::json::Object &Change,
                        Encoding E);

} // namespace warplint::lsp
