#include "Support/FatalErrors.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace warplint {

namespace {

thread_local std::string LastFatalError;

void recordFatalError(void *, const char *Reason, bool) {
  LastFatalError = Reason ? Reason : "";
  // Inside a recovery context: leave through it, as from a crash.
  if (llvm::CrashRecoveryContext::GetCurrent())
    llvm::sys::Process::Exit(1);
  llvm::errs() << "LLVM ERROR: " << LastFatalError << "\n";
}

} // namespace

void installFatalErrorRecorder() {
  llvm::install_fatal_error_handler(recordFatalError);
}

std::string takeFatalError() {
  std::string Out;
  Out.swap(LastFatalError);
  return Out;
}

} // namespace warplint
