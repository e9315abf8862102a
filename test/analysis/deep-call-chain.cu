// A chain of 300 device helpers: the thread-dependence summaries recurse
// through all of them, growing the analysis' caches while callers up the
// chain still use their entries (this crashed, depending on the heap layout).
// RUN: %python %S/Inputs/gen_call_chain.py 300 > %t.cu
// RUN: %warplint --dump-analysis --arch=sm_80 %t.cu -- -std=c++17 | FileCheck %s
// CHECK-LABEL: function 'k'
// CHECK-NEXT: 1504:7 branch thread-dependent
