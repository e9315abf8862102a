// The text of a JSON document whose strings may hold bytes that are not
// UTF-8 (a file name, a line of source): nlohmann's dump() throws on them.
// These write U+FFFD in their place instead, as the language server does.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace warplint {

inline std::string jsonText(const nlohmann::json &J, int Indent = -1) {
  return J.dump(Indent, ' ', /*ensure_ascii=*/false,
                nlohmann::json::error_handler_t::replace);
}

} // namespace warplint
