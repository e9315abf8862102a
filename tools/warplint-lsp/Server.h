// The language server: documents the editor holds open, analysed on a
// worker thread with warplint's runner (one device-side parse of the unsaved
// buffer per target), findings published as diagnostics, their fix-its and a
// NOLINT comment offered as code actions.
#pragma once
#include "Core/Finding.h"
#include "Driver/Preamble.h"
#include "Driver/Runner.h"
#include "Driver/Tasks.h"
#include "Protocol.h"
#include "Transport.h"
#include <chrono>
#include <condition_variable>
#include <map>
#include <set>
#include <thread>

namespace warplint::lsp {

struct ServerOptions {
  RunEnvironment Env;
  TaskSettings Settings;
  std::string CompileCommandsDir; // empty: found as clangd finds it
  // Every target of the file (compile command, .warplint.yaml), not only the
  // first: one parse each.
  bool AllTargets = false;
  // Quiet time after an edit before the buffer is analysed.
  std::chrono::milliseconds Debounce{200};
  // <url>/<check-id>.md is each diagnostic's codeDescription.href.
  std::string HelpBaseUrl;
  // Keep each buffer's #include region precompiled between edits.
  bool Preamble = true;
  // After an edit inside one function, first a pass that parses only the
  // bodies the edit may affect (Driver/Focus.h), then, once the buffer has
  // held still this long, a full analysis.
  bool Focus = true;
  std::chrono::milliseconds FullAnalysisDelay{500};
};

class Server {
public:
  Server(Transport &T, Logger &Log, ServerOptions Opts);
  ~Server();
  // Serves until exit or the end of the input; the process's exit status.
  int run();
  // A parse crashed (contained): the process must exit without running
  // LLVM's shutdown.
  bool crashed() const { return Crashed; }

private:
  struct Document {
    std::string Path;
    std::string Text;
    int64_t Version = 0;
    // Bumped by every change and save: an analysis of an older generation
    // is not published.
    uint64_t Generation = 0;
    // What the last published diagnostics were computed from.
    std::string PublishedText;
    int64_t PublishedVersion = -1;
    std::vector<Finding> Findings;
    // The diagnostics last published, to leave out a publication that would
    // change nothing.
    std::string PublishedDiagnostics;
    // The last full analysis, and the generation a full analysis is due for
    // (a focused pass published that generation's diagnostics).
    std::shared_ptr<const FullAnalysis> LastFull;
    uint64_t FullDueFor = 0;
  };

  // Params, where given, are JSON objects.
  void handle(const json &Message);
  void onRequest(llvm::StringRef Method, json Id, const json *Params);
  void onNotification(llvm::StringRef Method, const json *Params);
  void reply(json Id, llvm::Expected<json> Result);

  json initialize(const json *Params);
  void didOpen(const json &Params);
  void didChange(const json &Params);
  void didSave(const json &Params);
  void didClose(const json &Params);
  // Every open buffer, after a file or the configuration changed (Saved: the
  // buffer saved, whose own text did not change; empty: none).
  void analyseAllAgain(const std::string &Saved);
  llvm::Expected<json> codeAction(const json &Params);

  // Analysis on the worker thread.
  void schedule(const std::string &Uri, std::chrono::milliseconds Delay);
  void worker();
  void analyse(const std::string &Uri);
  void publish(const std::string &Uri, Document &D,
               std::vector<Finding> Findings,
               const std::vector<ToolError> &Errors, const std::string &Text,
               int64_t Version);
  void publishEmpty(const std::string &Uri);

  json diagnosticOf(const Finding &F, const Document &D,
                    const std::string &Text) const;
  json rangeAt(const std::string &Text, unsigned Line, unsigned Column) const;
  // The text of Path: the open buffer, else the file on disk.
  std::optional<std::string> textOf(llvm::StringRef Path);
  json workspaceEdit(const std::map<std::string, std::vector<json>> &Edits);

  Transport &T;
  Logger &Log;
  ServerOptions Opts;
  CompilationDatabaseFinder Databases;
  PreambleCache Preambles; // used by the worker only
  Encoding Enc = Encoding::UTF16;
  bool RelatedInformation = false;
  bool DocumentChanges = false;

  enum class State {
    Uninitialized,
    Running,
    ShutDown
  } Phase = State::Uninitialized;
  bool Exited = false;
  std::atomic<bool> Crashed{false};

  // Documents and the worker's queue, under one lock.
  std::mutex Lock;
  std::condition_variable Wake;
  std::map<std::string, Document> Docs; // by URI
  std::map<std::string, std::chrono::steady_clock::time_point> Due;
  bool Stopping = false;
  std::thread Worker;
};

} // namespace warplint::lsp
