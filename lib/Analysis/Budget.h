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
