// The text of a JSON document whose strings may hold bytes that are not
// UTF-8 (a file name, a line of source): nlohmann's dump() throws on them.
// These write U+FFFD in their place instead, as the language server does.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace warplint {

// Any nlohmann document type: an ordered_json keeps its keys' order (a
// conversion to json would sort them).
template <class Json> std::string jsonText(const Json &J, int Indent = -1) {
  return J.dump(Indent, ' ', /*ensure_ascii=*/false,
                Json::error_handler_t::replace);
}

} // namespace warplint
