// What the language server needs to know of a buffer's text beyond the
// parse: token lengths for ranges, comments at a line's end for NOLINT, and
// the pieces of a request every handler reads.
#pragma once
#include "Protocol.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace warplint::lsp {

// Length of the token at Offset of Text (0 at the end or on whitespace).
unsigned tokenLength(const std::string &Text, size_t Offset);
// Whether the line [Start, End) of Text ends in a comment (a NOLINT appended
// there would become part of it).
bool lineEndsInComment(const std::string &Text, size_t Start, size_t End);
// S on one line, at most 40 characters, for a code action's title.
std::string shorten(llvm::StringRef S);
// textDocument.uri of a request's parameters.
std::optional<std::string> uriOf(const json &Params);

} // namespace warplint::lsp
