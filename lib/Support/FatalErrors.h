// LLVM's fatal errors (report_fatal_error, "LLVM ERROR: ..."), which clang's
// code generator and LLVM's passes raise on some inputs, inside the
// CrashRecoveryContext of one file's parse or of the IR layer.
//
// Without a handler LLVM writes "LLVM ERROR: <reason>" to stderr and aborts
// (or, when the error asks for no crash report, calls exit(1), which ends
// the whole run, every other file's parse with it). The recorder, installed
// once before any parse starts and never removed (installing and removing a
// handler per file would race with the other parses of -j: LLVM keeps one
// handler per process), keeps the reason for the thread that raised it and
// leaves through the thread's recovery context as a crash does, so the code
// that ran it can say what failed. Outside a recovery context it writes the
// message as LLVM would.
#pragma once
#include <string>

namespace warplint {

// Installs the recorder; call once, before any thread starts.
void installFatalErrorRecorder();

// The reason of the last fatal error raised on this thread ("" if none),
// forgotten once taken.
std::string takeFatalError();

} // namespace warplint
