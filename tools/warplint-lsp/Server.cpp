#include "Server.h"
#include "Driver/Overlay.h"
#include "SourceText.h"
#include "Support/Paths.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace llvm;

namespace warplint::lsp {

namespace {

json errorObject(int Code, const Twine &Message) {
  return json::object({{"code", Code}, {"message", Message.str()}});
}

} // namespace

Server::Server(Transport &T, Logger &Log, ServerOptions O)
    : T(T), Log(Log), Opts(std::move(O)), Databases(Opts.CompileCommandsDir) {
  Worker = std::thread([this] { worker(); });
}

Server::~Server() {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    Stopping = true;
  }
  Wake.notify_all();
  Worker.join();
}

int Server::run() {
  while (!Exited) {
    std::optional<std::string> Body = T.read();
    if (!Body) {
      Log.info("input closed");
      return Phase == State::ShutDown ? 0 : 1;
    }
    Log.verbose(">>> " + *Body);
    if (!nestingWithin(*Body, MaxJSONNesting)) {
      Log.error("a message nested more than " + Twine(MaxJSONNesting) +
                " deep; ignored");
      continue;
    }
    Expected<json> Message = parseMessage(*Body);
    if (!Message) {
      // As clangd: said in the log, and the next message is served.
      Log.error("malformed JSON: " + toString(Message.takeError()));
      continue;
    }
    // nlohmann_json throws where a value is not what it is taken for: the
    // handlers check first, and whatever slips through costs one message,
    // not the session.
    try {
      handle(*Message);
    } catch (const json::exception &E) {
      Log.error("internal error while handling a message: " + Twine(E.what()));
    }
  }
  return Phase == State::ShutDown ? 0 : 1;
}

void Server::handle(const json &Message) {
  if (!Message.is_object()) {
    Log.error("a message that is not a JSON object; ignored");
    return;
  }
  std::optional<std::string> Method = stringMember(Message, "method");
  const json *Id = member(Message, "id");
  const json *Params = objectMember(Message, "params");
  if (!Method) {
    if (Id) // a response: the server sends no requests
      return;
    Log.error("a message with neither method nor id; ignored");
    return;
  }
  if (Id)
    onRequest(*Method, *Id, Params);
  else
    onNotification(*Method, Params);
}

void Server::reply(json Id, Expected<json> Result) {
  json Reply = json::object({{"jsonrpc", "2.0"}, {"id", std::move(Id)}});
  if (Result) {
    Reply["result"] = std::move(*Result);
  } else {
    Reply["error"] = errorObject(InvalidParams, toString(Result.takeError()));
  }
  T.send(std::move(Reply));
}

void Server::onRequest(StringRef Method, json Id, const json *Params) {
  auto Fail = [&](int Code, const Twine &Message) {
    Log.info(Method + ": " + Message);
    T.send(json::object({{"jsonrpc", "2.0"},
                         {"id", std::move(Id)},
                         {"error", errorObject(Code, Message)}}));
  };
  if (Method == "initialize") {
    if (Phase != State::Uninitialized)
      return Fail(InvalidRequest, "initialize was already received");
    Phase = State::Running;
    return reply(std::move(Id), initialize(Params));
  }
  if (Phase == State::Uninitialized)
    return Fail(ServerNotInitialized, "the server is not initialized");
  if (Phase == State::ShutDown)
    return Fail(InvalidRequest, "the server is shut down");
  if (Method == "shutdown") {
    Phase = State::ShutDown;
    return reply(std::move(Id), json(nullptr));
  }
  if (Method == "textDocument/codeAction") {
    if (!Params)
      return Fail(InvalidParams, "codeAction without params");
    return reply(std::move(Id), codeAction(*Params));
  }
  Fail(MethodNotFound, "method not found: " + Method);
}

void Server::onNotification(StringRef Method, const json *Params) {
  if (Method == "exit") {
    Exited = true;
    return;
  }
  if (Phase != State::Running) {
    Log.info("notification " + Method +
             " before initialize or after "
             "shutdown; dropped");
    return;
  }
  if (Method == "initialized" || Method.starts_with("$/"))
    return;
  if (Method == "workspace/didChangeConfiguration" ||
      Method == "workspace/didChangeWatchedFiles") {
    Databases.clear(); // a compile database may have been (re)written
    analyseAllAgain("");
    return;
  }
  using Handler = void (Server::*)(const json &);
  static const std::pair<StringRef, Handler> Handlers[] = {
      {"textDocument/didOpen", &Server::didOpen},
      {"textDocument/didChange", &Server::didChange},
      {"textDocument/didSave", &Server::didSave},
      {"textDocument/didClose", &Server::didClose},
  };
  for (const auto &[Name, Fn] : Handlers) {
    if (Method != Name)
      continue;
    if (!Params)
      Log.error(Method + " without params; ignored");
    else
      (this->*Fn)(*Params);
    return;
  }
  Log.verbose("notification " + Method + " ignored");
}

json Server::initialize(const json *Params) {
  const json *Caps = Params ? objectMember(*Params, "capabilities") : nullptr;
  auto Path = [&](std::initializer_list<StringRef> Keys) -> const json * {
    const json *V = Caps;
    for (StringRef K : Keys)
      if (!V || !(V = member(*V, K)))
        return nullptr;
    return V;
  };
  if (const json *Encodings = Path({"general", "positionEncodings"}))
    if (Encodings->is_array())
      for (const json &E : *Encodings)
        if (E.is_string() && E.get<std::string>() == "utf-8")
          Enc = Encoding::UTF8;
  auto Boolean = [](const json *V) {
    return V && V->is_boolean() && V->get<bool>();
  };
  if (const json *V =
          Path({"textDocument", "publishDiagnostics", "relatedInformation"}))
    RelatedInformation = Boolean(V);
  if (const json *V = Path({"workspace", "workspaceEdit", "documentChanges"}))
    DocumentChanges = Boolean(V);
  Log.info("initialized: positions in " +
           Twine(Enc == Encoding::UTF8 ? "utf-8" : "utf-16"));
  return json::object({
      {"capabilities",
       json::object({
           {"positionEncoding", Enc == Encoding::UTF8 ? "utf-8" : "utf-16"},
           {"textDocumentSync",
            json::object({{"openClose", true},
                          {"change", 2}, // incremental
                          {"save", json::object({{"includeText", false}})}})},
           {"codeActionProvider",
            json::object({{"codeActionKinds", json::array({"quickfix"})}})},
       })},
      {"serverInfo",
       json::object({{"name", "warplint-lsp"}, {"version", WARPLINT_VERSION}})},
  });
}

void Server::didOpen(const json &Params) {
  const json *Doc = objectMember(Params, "textDocument");
  std::optional<std::string> Uri = uriOf(Params);
  std::optional<std::string> Text =
      Doc ? stringMember(*Doc, "text") : std::nullopt;
  if (!Uri || !Text) {
    Log.error("didOpen without textDocument.uri or text; ignored");
    return;
  }
  Expected<std::string> Path = uriToPath(*Uri);
  if (!Path) {
    Log.info(toString(Path.takeError()) + "; not analysed");
    return;
  }
  {
    std::lock_guard<std::mutex> Hold(Lock);
    Document &D = Docs[*Uri];
    D = Document();
    D.Path = absolutePath(*Path);
    D.Text = std::move(*Text);
    const json *Version = member(*Doc, "version");
    D.Version = (Version ? asInteger(*Version) : std::nullopt).value_or(0);
    D.Generation = 1;
  }
  schedule(*Uri, std::chrono::milliseconds(0)); // opened: at once
}

void Server::didChange(const json &Params) {
  std::optional<std::string> Uri = uriOf(Params);
  const json *Changes = arrayMember(Params, "contentChanges");
  if (!Uri || !Changes) {
    Log.error("didChange without textDocument.uri or contentChanges; ignored");
    return;
  }
  {
    std::lock_guard<std::mutex> Hold(Lock);
    auto It = Docs.find(*Uri);
    if (It == Docs.end()) {
      Log.error("didChange of a document that is not open: " + *Uri);
      return;
    }
    Document &D = It->second;
    for (const json &Change : *Changes) {
      Error E = Change.is_object()
                    ? applyChange(D.Text, Change, Enc)
                    : createStringError("a content change that is not an "
                                        "object");
      if (E) {
        // The buffer no longer matches the editor's: better no findings
        // than findings at the wrong places.
        Log.error("didChange of " + *Uri + ": " + toString(std::move(E)) +
                  "; the document is closed until it is opened again");
        Docs.erase(It);
        Due.erase(*Uri);
        publishEmpty(*Uri);
        return;
      }
    }
    const json *Version =
        member(*objectMember(Params, "textDocument"), "version");
    if (auto V = Version ? asInteger(*Version) : std::nullopt)
      D.Version = *V;
    ++D.Generation;
  }
  schedule(*Uri, Opts.Debounce);
}

void Server::didSave(const json &Params) {
  std::optional<std::string> Uri = uriOf(Params);
  if (!Uri)
    return;
  // The saved file may be a header of any open buffer, or .warplint.yaml:
  // all are analysed again (their preambles are rebuilt only where a header
  // changed).
  analyseAllAgain(*Uri);
}

void Server::analyseAllAgain(const std::string &Saved) {
  std::vector<std::string> Again;
  {
    std::lock_guard<std::mutex> Hold(Lock);
    for (auto &[U, D] : Docs) {
      ++D.Generation;
      // What another file holds may have changed: no focused pass on the
      // last full analysis (the saved buffer's own text is what it was).
      if (U != Saved)
        D.LastFull.reset();
      Again.push_back(U);
    }
  }
  for (const std::string &U : Again)
    schedule(U, Opts.Debounce);
}

void Server::didClose(const json &Params) {
  std::optional<std::string> Uri = uriOf(Params);
  if (!Uri)
    return;
  {
    std::lock_guard<std::mutex> Hold(Lock);
    auto It = Docs.find(*Uri);
    if (It != Docs.end()) {
      Preambles.drop(It->second.Path);
      Docs.erase(It);
    }
    Due.erase(*Uri);
  }
  publishEmpty(*Uri);
}

void Server::schedule(const std::string &Uri, std::chrono::milliseconds Delay) {
  {
    std::lock_guard<std::mutex> Hold(Lock);
    Due[Uri] = std::chrono::steady_clock::now() + Delay;
  }
  Wake.notify_all();
}

void Server::worker() {
  std::unique_lock<std::mutex> Hold(Lock);
  while (!Stopping) {
    if (Due.empty()) {
      Wake.wait(Hold);
      continue;
    }
    auto Next = std::min_element(
        Due.begin(), Due.end(),
        [](const auto &A, const auto &B) { return A.second < B.second; });
    if (std::chrono::steady_clock::now() < Next->second) {
      Wake.wait_until(Hold, Next->second);
      continue;
    }
    std::string Uri = Next->first;
    Due.erase(Next);
    Hold.unlock();
    analyse(Uri);
    Hold.lock();
  }
}

void Server::analyse(const std::string &Uri) {
  // A snapshot of the buffer, and of every open buffer for the overlay (an
  // unsaved header is read as the editor has it).
  std::string Path, Text;
  int64_t Version;
  uint64_t Generation;
  std::shared_ptr<const FullAnalysis> Last;
  bool FullDue;
  std::map<std::string, std::string> Open;
  {
    std::lock_guard<std::mutex> Hold(Lock);
    auto It = Docs.find(Uri);
    if (It == Docs.end())
      return;
    Path = It->second.Path;
    Text = It->second.Text;
    Version = It->second.Version;
    Generation = It->second.Generation;
    Last = It->second.LastFull;
    FullDue = It->second.FullDueFor == Generation;
    for (const auto &[U, D] : Docs)
      Open[D.Path] = D.Text;
  }
  auto Current = [&] {
    std::lock_guard<std::mutex> Hold(Lock);
    auto It = Docs.find(Uri);
    return !Stopping && It != Docs.end() && It->second.Generation == Generation;
  };

  // Built per analysis: .warplint.yaml is read afresh each time.
  TaskBuilder Builder(*Opts.Env.Tables, Opts.Settings);
  Expected<FileTask> Task = Builder.build(Path, Path, Databases.find(Path));
  FileResult R;
  std::optional<Focus> Focused;
  if (!Task) {
    ToolError E;
    E.Message = toString(Task.takeError());
    E.Loc.File = Path;
    R.Sink.reportError(std::move(E));
  } else {
    if (!Opts.AllTargets && Task->Archs.size() > 1)
      Task->Archs.resize(1);
    Task->NoPtxas = "warplint-lsp does not run ptxas";
    Task->Cancelled = [&] { return !Current(); };
    Task->MainFileOnly = true; // only the main file's findings are published
    // A focused pass needs the preamble: without it the headers' parse is
    // the cost, whatever the main file's bodies.
    if (Opts.Focus && Opts.Preamble && Last && !FullDue &&
        Task->Archs.size() == 1)
      Focused = Focus::plan(*Last, Text);
    if (Focused)
      Task->SkipBody = [&](unsigned Offset) {
        return Focused->skipsBodyNamedAt(Offset);
      };
    for (const std::string &W : Task->Flags.IgnoredNvcc)
      Log.info(Path + ": nvcc option '" + W +
               "' has no clang counterpart; "
               "ignored");
    auto Overlay =
        withFilesInMemory(IntrusiveRefCntPtr<vfs::FileSystem>(
                              vfs::createPhysicalFileSystem().release()),
                          Open);
    auto Start = std::chrono::steady_clock::now();
    R = runFile(*Task, Opts.Env, Overlay, Opts.Preamble ? &Preambles : nullptr);
    static const char *const PreambleUse[] = {
        "no preamble", "preamble building", "preamble awaited",
        "preamble reused"};
    Log.info(formatv(
        "analysed {0} version {1} for {2} in {3} ms ({4}, {5})", Path, Version,
        Task->Archs.empty() ? "c++" : Task->Archs[0]->Name,
        std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - Start)
            .count(),
        Opts.Preamble ? PreambleUse[static_cast<int>(Preambles.lastUse())]
                      : "preamble off",
        Focused
            ? formatv("focused: {0} bodies skipped", Focused->skippedBodies())
                  .str()
            : std::string("full")));
    for (const std::string &W : R.Warnings)
      Log.info(W);
  }
  for (const ToolError &E : R.Sink.errors())
    if (E.Crashed) {
      Crashed = true;
      Log.error(Path + ": " + E.Message);
    }

  // The main file's findings and errors; findings in headers belong to the
  // header's own document, errors there are shown at the top.
  std::vector<Finding> Findings;
  for (Finding &F : R.Sink.findings())
    if (absolutePath(F.Loc.File) == Path)
      Findings.push_back(std::move(F));
  std::vector<ToolError> Errors, Elsewhere;
  for (const ToolError &E : R.Sink.errors())
    (E.Loc.Line && absolutePath(E.Loc.File) == Path ? Errors : Elsewhere)
        .push_back(E);
  std::shared_ptr<FullAnalysis> Full;
  if (Focused)
    Focused->merge(*Last, Text, Findings, Errors);
  else if (Task && !R.Bodies.empty())
    Full = std::make_shared<FullAnalysis>(
        FullAnalysis{Text, Findings, Errors, std::move(R.Bodies)});
  Errors.insert(Errors.end(), Elsewhere.begin(), Elsewhere.end());

  std::lock_guard<std::mutex> Hold(Lock);
  auto It = Docs.find(Uri);
  if (Stopping || It == Docs.end() || It->second.Generation != Generation) {
    Log.info("dropped the analysis of " + Path + " version " + Twine(Version) +
             ": the buffer changed meanwhile");
    return;
  }
  Document &D = It->second;
  if (Full)
    D.LastFull = std::move(Full);
  if (Focused) {
    // What the skipped bodies' findings were before the edit is settled by
    // a full analysis once the buffer holds still.
    D.FullDueFor = Generation;
    Due[Uri] = std::chrono::steady_clock::now() + Opts.FullAnalysisDelay;
    Wake.notify_all();
  }
  publish(Uri, D, std::move(Findings), Errors, Text, Version);
}

} // namespace warplint::lsp
