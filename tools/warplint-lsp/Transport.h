// JSON-RPC over stdio with LSP's base protocol framing: a Content-Length
// header, a blank line, then that many bytes of JSON. And the server's log,
// on stderr (stdout carries the protocol only).
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace warplint::lsp {

enum class LogLevel { Error, Info, Verbose };

class Logger {
public:
  explicit Logger(LogLevel Level) : Level(Level) {}
  void log(LogLevel L, const llvm::Twine &Message);
  void error(const llvm::Twine &M) { log(LogLevel::Error, M); }
  void info(const llvm::Twine &M) { log(LogLevel::Info, M); }
  void verbose(const llvm::Twine &M) { log(LogLevel::Verbose, M); }

private:
  LogLevel Level;
  std::mutex Lock;
};

class Transport {
public:
  Transport(std::FILE *In, std::FILE *Out, Logger &Log)
      : In(In), Out(Out), Log(Log) {}

  // The next message's body; nothing at the end of the input. A message
  // without a usable Content-Length is skipped (and logged).
  std::optional<std::string> read();
  // Sends one message; callable from any thread.
  void send(const nlohmann::json &Message);

private:
  bool readLine(std::string &Line);
  std::FILE *In;
  std::FILE *Out;
  Logger &Log;
  std::mutex WriteLock;
};

} // namespace warplint::lsp
