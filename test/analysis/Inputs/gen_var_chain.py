"""Writes a kernel with a long chain of locals, each redefined in a loop from
the next one, the last from the thread index: the thread-dependence fixed
point needs about as many rounds as the chain is long when it visits the
variables in the wrong order. The barrier's condition is a uniform local
(solving it solves the chain too), so a divergence-barrier finding would be a
false positive."""
import sys

n = int(sys.argv[1])
out = ["__global__ void k(float *a, int n) {", "  int t = threadIdx.x;", "  int u = n * 2;"]
for i in range(n):
    out.append("  int v%d = n + %d;" % (i, i % 7))
out.append("  for (int i = 0; i < n; ++i) {")
out.append("    v%d = t;" % (n - 1))
for i in range(n - 1, 0, -1):
    out.append("    v%d = v%d * 3;" % (i - 1, i))
out.append("  }")
out.append("  if (u > 3)")
out.append("    __syncthreads();")
out.append("  a[t] = (float)v0;")
out.append("}")
print("\n".join(out))
