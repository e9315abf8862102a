#include "Transport.h"
#include "Protocol.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>

using namespace llvm;

namespace warplint::lsp {

void Logger::log(LogLevel L, const Twine &Message) {
  if (L > Level)
    return;
  static const char Letter[] = {'E', 'I', 'V'};
  std::lock_guard<std::mutex> Hold(Lock);
  errs() << Letter[static_cast<int>(L)]
         << formatv("[{0:%H:%M:%S.%L}] ", std::chrono::system_clock::now())
         << Message << "\n";
  errs().flush();
}

bool Transport::readLine(std::string &Line) {
  Line.clear();
  for (int C; (C = std::fgetc(In)) != EOF;) {
    if (C == '\n') {
      if (!Line.empty() && Line.back() == '\r')
        Line.pop_back();
      return true;
    }
    Line.push_back(static_cast<char>(C));
  }
  return false;
}

std::optional<std::string> Transport::read() {
  while (true) {
    // Headers up to a blank line; only Content-Length matters.
    std::optional<size_t> Length;
    std::string Line;
    bool Any = false;
    while (true) {
      if (!readLine(Line))
        return std::nullopt;
      if (Line.empty()) {
        if (Any)
          break;
        continue; // blank lines between messages
      }
      Any = true;
      StringRef L(Line);
      if (L.consume_front_insensitive("Content-Length:")) {
        size_t N;
        if (!L.trim().getAsInteger(10, N))
          Length = N;
      }
    }
    if (!Length) {
      Log.error("message without a valid Content-Length header; skipped");
      continue;
    }
    // Read as it arrives: the header's number is not trusted with an
    // allocation of its size (Content-Length: 99999999999999 would abort).
    std::string Body;
    char Chunk[1 << 16];
    while (Body.size() < *Length) {
      size_t Want = std::min(sizeof(Chunk), *Length - Body.size());
      size_t Got = std::fread(Chunk, 1, Want, In);
      Body.append(Chunk, Got);
      if (Got != Want) {
        Log.error("input ended inside a message (" + Twine(Body.size()) +
                  " of " + Twine(*Length) + " bytes)");
        return std::nullopt;
      }
    }
    return Body;
  }
}

void Transport::send(const nlohmann::json &Message) {
  std::string Body = serialize(Message);
  std::lock_guard<std::mutex> Hold(WriteLock);
  std::string Header =
      "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n";
  std::fwrite(Header.data(), 1, Header.size(), Out);
  std::fwrite(Body.data(), 1, Body.size(), Out);
  std::fflush(Out);
  Log.verbose("<<< " + Body);
}

} // namespace warplint::lsp
