"""Writes a kernel whose value flows through a long chain of device helpers,
each returning the next one's result: the callee summaries recurse as deep as
the chain, and each level adds entries to the analysis' caches while the
levels above it are still being computed."""
import sys

depth = int(sys.argv[1])
out = []
out.append("__device__ int f%d(int x) { return x + (int)threadIdx.x; }" % depth)
for i in range(depth - 1, -1, -1):
    out.append("__device__ int f%d(int x) {\n"
               "  if (x > %d)\n"
               "    return f%d(x - 1) * 2;\n"
               "  return f%d(x + 1);\n"
               "}" % (i, i, i + 1, i + 1))
out.append("__global__ void k(float *a, int n) {\n"
           "  int v = f0(n);\n"
           "  if (v > 3)\n"
           "    __syncthreads();\n"
           "  a[v * 33] = 0.0f;\n"
           "}")
print("\n".join(out))
