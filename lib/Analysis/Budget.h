// The analyses' budgets: a pathological function (an expression thousands
// of operators deep, a call chain thousands of helpers long, a fixed point
// that needs thousands of rounds) degrades to "unknown", which makes no
// finding, never to a stack overflow, a hang or a guess.
#pragma once

namespace warplint {

// Recursive queries of one analysis under way at once. Each takes at most a
// few hundred bytes of the parse thread's stack.
constexpr unsigned MaxAnalysisNesting = 2000;

// The stack of the thread a file is parsed and analysed on. clang's cc1
// parses on 8 MiB and grows it on demand where Sema recurses
// (clang::runWithSufficientStackSpace), so it accepts an expression of
// 30000 operators; warplint's own walks of such a tree (one frame of a few
// hundred bytes per operator, more under AddressSanitizer) need more. The
// pages are only reserved: a normal file touches a few hundred KiB of them.
constexpr unsigned AnalysisStackSize = 256u << 20;

// Definitions one function's thread-dependence fixed point evaluates.
constexpr unsigned MaxFixedPointWork = 1u << 20;

// How many calls deep the checks follow helpers. Past the limit they stop
// following and judge with what they have: warp-mask-divergent and
// host-transfer-in-loop see nothing there, divergence-barrier reports the
// deepest call it followed. Each level costs an analysis of the callee (for
// the device checks, in the context of the call) and, in a finding, one
// more "reached through this call" note. test/unit/CallDepthTest.cpp pins
// how each check counts.

// Device helpers followed down from a kernel to the barrier or warp
// collective they reach, the helper the kernel calls at depth 0 (so up to
// MaxDeviceCallDepth + 1 helpers deep), and callers followed up from a
// helper to the kernels that call it (warp-mask-divergent,
// divergence-barrier). Device code nests a few levels (a kernel, a
// block-wide routine, a warp-wide one, a lane helper); six leaves room for
// wrappers around each.
constexpr unsigned MaxDeviceCallDepth = 6;

// Host functions of the file followed down from a loop to the launches and
// blocking runtime calls they make (host-transfer-in-loop, whose
// documentation promises three), the loop's own function at depth 0. Each
// function is summarised once per depth, and a host chain soon leaves the
// file's own code for a framework's (whose calls are not followed); three
// covers a loop calling a step() that calls the wrapper which copies or
// launches.
constexpr unsigned MaxHostCallDepth = 3;

// Not calls but operators: how many casts, operators and locals'
// initialisers the arithmetic checks follow into one index or one
// floating-point expression (arith-unsigned-index, arith-fp64-promotion)
// before they treat what is below as an opaque value. Index and
// floating-point expressions are short; a deeper one is generated code.
constexpr unsigned MaxExprDepth = 8;

// Counts a recursive query in Depth while it runs; exhausted() when the
// budget was spent before it (the query must then answer "unknown").
class NestingScope {
public:
  explicit NestingScope(unsigned &Depth)
      : Depth(Depth), Within(Depth < MaxAnalysisNesting) {
    if (Within)
      ++Depth;
  }
  ~NestingScope() {
    if (Within)
      --Depth;
  }
  NestingScope(const NestingScope &) = delete;
  NestingScope &operator=(const NestingScope &) = delete;
  bool exhausted() const { return !Within; }

private:
  unsigned &Depth;
  bool Within;
};

} // namespace warplint
