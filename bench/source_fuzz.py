#!/usr/bin/env python3
"""Source fuzzing: odd but valid CUDA, and broken copies of real CUDA, through
every check of warplint (best an AddressSanitizer build, bench/sanitize.sh)
on three targets, for a fixed time.

    python3 bench/source_fuzz.py --warplint build-asan/bin/warplint --time 600

Each input is one of
  - generated: a random mix of what is legal but rare in a kernel (deep
    template nesting, recursive device functions, kernels made by macros,
    lambdas in kernels, a switch of hundreds of cases, goto, empty bodies,
    variadic templates, cooperative groups, __restrict__ everywhere, odd
    launch shapes, operators and destructors called by name);
  - truncated: an example or a lit input of test/checks cut at a random byte;
  - flipped: the same with a few bytes changed, removed or repeated.
The last two must give compiler errors, never a crash. A crash is an exit
status other than 0, 1 or 2 (a signal, a timeout), or a sanitizer report,
"internal error" or a stack dump in the output. Each crashing input is kept,
with warplint's output, under --out (reduce it, make it a regression test
of the default suite, fix it).
"""
import argparse
import glob
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHS = "sm_50,sm_80,sm_90"
CRASH_MARKERS = ("AddressSanitizer", "LeakSanitizer", "runtime error:",
                 "internal error", "Stack dump", "stack dump",
                 "PLEASE submit a bug report")


# --- Generated programs: each feature writes some device code and the lines
# of a kernel body or host code that use it. ------------------------------

def deep_templates(r, n):
    depth = r.randint(2, 200)
    return (f"""
template <int N> struct Deep{n} {{
  static __device__ __forceinline__ int f(int x) {{ return Deep{n}<N - 1>::f(x ^ N) + 1; }}
}};
template <> struct Deep{n}<0> {{
  static __device__ __forceinline__ int f(int x) {{ return x; }}
}};
template <typename T, int N> struct Wrap{n} {{ using type = typename Wrap{n}<T *, N - 1>::type; }};
template <typename T> struct Wrap{n}<T, 0> {{ using type = T; }};
""", [f"v += Deep{n}<{depth}>::f(t);",
      f"typename Wrap{n}<float, {r.randint(1, 60)}>::type w{n} = nullptr; (void)w{n};"])


def recursion(r, n):
    barrier = r.choice(["", "__syncthreads();"])
    return (f"""
__device__ int rec{n}(int x) {{
  if (x <= 1) return 1;
  {barrier}
  return x * rec{n}(x - 1) + rec{n}(x - 2);
}}
__device__ int even{n}(int x);
__device__ int odd{n}(int x) {{ return x == 0 ? 0 : even{n}(x - 1); }}
__device__ int even{n}(int x) {{ return x == 0 ? 1 : odd{n}(x - 1); }}
""", [f"v += rec{n}(t % {r.randint(1, 9)}) + even{n}(t);"])


def macro_kernels(r, n):
    ops = [r.choice(["+= 1", "*= 2.0f", "= __shfl_down_sync(0xffffffff, a[i], 1)",
                     "= a[i * 32]", "= sqrt(a[i])"]) for _ in range(3)]
    return (f"""
#define MK{n}(name, op) \\
  __global__ void name(float *__restrict__ a, int n) {{ \\
    int i = blockIdx.x * blockDim.x + threadIdx.x; \\
    if (i < n) a[i] op; \\
  }}
#define CAT{n}(a, b) a##b
MK{n}(CAT{n}(mk{n}_, 0), {ops[0]})
MK{n}(CAT{n}(mk{n}_, 1), {ops[1]})
MK{n}(mk{n}_2, {ops[2]})
#define EMPTY{n}
EMPTY{n} __global__ void EMPTY{n} mk{n}_3(EMPTY{n}) EMPTY{n} {{ EMPTY{n} }}
""", [], [f"mk{n}_0<<<{r.choice(['1', 'n / 100', '(n + 255) / 256'])}, {r.choice([32, 100, 1024, 2048, 0])}>>>(d, n);",
          f"mk{n}_3<<<1, {r.choice([1, 33, 96])}>>>();"])


def lambdas(r, n):
    return ("", [
        f"auto l{n} = [=] __device__ (int x) {{ return x * {r.randint(1, 5)} + t; }};",
        f"auto g{n} = [&](auto x) {{ return x + v; }};",
        f"v += l{n}(t) + g{n}(2);",
        f"[&] {{ if (t < {r.randint(1, 64)}) {r.choice(['__syncthreads();', 'v++;', '__syncwarp();'])} }}();",
        f"auto rl{n} = [](auto self, int k) -> int {{ return k ? self(self, k - 1) : 0; }}; v += rl{n}(rl{n}, 3);",
    ])


def huge_switch(r, n):
    cases = r.randint(50, 1500)
    body = []
    for c in range(cases):
        stmt = r.choice(["v += %d;" % c, "v ^= t;", "__syncthreads();", "a[t] = v;",
                         "break;", "", "{ int z = v * %d; v = z; }" % c,
                         "v = __shfl_sync(0xffffffff, v, %d);" % (c % 32)])
        body.append(f"case {c}: {stmt}")
    return ("", [f"switch ((t * {r.randint(1, 7)}) % {cases}) {{", *body,
                 "default: break;", "}"])


def gotos(r, n):
    return ("", [
        f"int cnt{n} = 0;",
        f"again{n}:",
        f"if (cnt{n}++ < t % {r.randint(2, 8)}) goto again{n};",
        f"if (t & 1) goto skip{n};",
        r.choice(["__syncthreads();", "v += 1;", "a[t * 32] = v;"]),
        f"skip{n}: ;",
    ])


def empty_bodies(r, n):
    return (f"""
__global__ void empty{n}() {{}}
__device__ void nothing{n}() {{ ; ; }}
struct Empty{n} {{}};
""", ["if (t) ; else ;", "while (0) ;", "for (;;) break;", "do {} while (0);",
      f"nothing{n}();", f"{{ {{ {{ }} }} }}", f"Empty{n} e{n}; (void)e{n};"],
        [f"empty{n}<<<{r.choice([1, 0, 65536])}, {r.choice([1, 31, 1025])}>>>();"])


def variadic(r, n):
    k = r.randint(1, 40)
    args = ", ".join(["t"] * k)
    return (f"""
template <typename... Ts> __device__ int sum{n}(Ts... xs) {{ return (0 + ... + xs); }}
template <typename T> __device__ T first{n}(T x) {{ return x; }}
template <typename T, typename... Ts> __device__ T first{n}(T x, Ts... rest) {{
  return x + first{n}(rest...);
}}
template <int... Is> struct Seq{n} {{ static constexpr int size = sizeof...(Is); }};
template <typename... Args> __global__ void vk{n}(Args... args) {{
  int t = threadIdx.x;
  if (sum{n}(args...) > t) __syncthreads();
}}
""", [f"v += sum{n}({args}) + first{n}({args}) + Seq{n}<{', '.join(map(str, range(k)))}>::size;"],
        [f"vk{n}<<<1, 128>>>({', '.join(['1'] * r.randint(0, 12))});"])


def coop_groups(r, n):
    return ("", [
        "auto blk = cg::this_thread_block();",
        f"auto tile{n} = cg::tiled_partition<{r.choice([1, 2, 4, 8, 16, 32])}>(blk);",
        f"v += tile{n}.shfl_down(v, 1);",
        f"if (tile{n}.thread_rank() == 0) {r.choice(['blk.sync();', 'v++;', 'tile' + str(n) + '.sync();'])}",
        "auto act = cg::coalesced_threads(); v += act.size();",
    ])


def restrict_everywhere(r, n):
    return (f"""
__device__ float *__restrict__ rp{n}(float *__restrict__ const p, const int *__restrict__ q) {{
  float *__restrict__ r = p + *q;
  return r;
}}
__global__ void rk{n}(float *__restrict__ *__restrict__ pp, const float *__restrict__ const in,
                      float *__restrict__ out, int n) {{
  const float *__restrict__ src = in + threadIdx.x;
  float *__restrict__ dst = out + threadIdx.x * {r.choice([1, 2, 32, 33])};
  if (threadIdx.x < n) *dst = *src + (*pp)[0];
}}
""", [], [f"rk{n}<<<1, 256>>>(nullptr, d, d, n);"])


def shared_and_shapes(r, n):
    size = r.choice([0, 1, 33, 1024, 12289, 49153, 1 << 20])
    return (f"""
template <int S> __global__ void sh{n}(float *a) {{
  __shared__ float s[S > 0 ? S : 1];
  extern __shared__ double dyn{n}[];
  s[threadIdx.x % (S > 0 ? S : 1)] = a[threadIdx.x];
  dyn{n}[threadIdx.x * {r.choice([1, 2, 32])}] = s[0];
  __syncthreads();
  a[threadIdx.x] = s[(threadIdx.x * {r.choice([1, 16, 32, 33])}) % (S > 0 ? S : 1)];
}}
""", [], [f"sh{n}<{size}><<<dim3({r.choice([1, 0, 2147483647])}, 2, 1), dim3(32, {r.choice([1, 32, 33])}), {r.choice([0, 1 << 16, 1 << 30])}>>>(d);",
          f"cudaFuncSetAttribute(sh{n}<{size}>, cudaFuncAttributeMaxDynamicSharedMemorySize, {r.choice([0, 65536, 1 << 30])});"])


def deep_expression(r, n):
    k = r.randint(100, 5000)
    op = r.choice([" + ", " * ", " - ", " ^ ", " && ", " ? 1 : "])
    expr = op.join(["t"] * k)
    parens = "(" * 200 + "t" + ")" * 200
    return ("", [f"int de{n} = {expr};", f"int dp{n} = {parens};", f"if (de{n} + dp{n} > 3) __syncthreads();"])


def operators(r, n):
    return (f"""
struct Op{n} {{
  float x;
  __device__ Op{n} operator+(const Op{n} &o) const {{ return {{x + o.x}}; }}
  __device__ float operator()(int i) const {{ return x * i; }}
  __device__ operator float() const {{ return x; }}
  __device__ float operator[](int i) const {{ return x + i; }}
  __device__ ~Op{n}() {{}}
}};
__device__ Op{n} operator""_op{n}(long double d) {{ return {{float(d)}}; }}
""", [f"Op{n} o{n}{{float(t)}}, p{n}{{1}};",
      f"v += (o{n} + p{n})(t) + o{n}[{r.randint(0, 9)}] + float(o{n}) + (2.0_op{n}).x;",
      f"if (o{n}(t) > {r.randint(0, 9)}) {r.choice(['__syncthreads();', 'v++;'])}",
      f"o{n}.~Op{n}();",
      "{ auto gb = cg::this_thread_block(); gb.~thread_block(); }"])


FEATURES = [operators, deep_templates, recursion, macro_kernels, lambdas, huge_switch, gotos,
            empty_bodies, variadic, coop_groups, restrict_everywhere,
            shared_and_shapes, deep_expression]


def generate(r):
    decls, body, host = [], [], []
    for n, feature in enumerate(r.sample(FEATURES, r.randint(1, min(5, len(FEATURES))))):
        out = feature(r, n)
        decls.append(out[0])
        body.extend(out[1])
        if len(out) > 2:
            host.extend(out[2])
    attrs = r.choice(["", "__launch_bounds__(256)", "__launch_bounds__(1024, 2)",
                      "__launch_bounds__(33)"])
    kernel = "\n  ".join(body)
    launches = "\n  ".join(host)
    return f"""// generated by bench/source_fuzz.py
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
{''.join(decls)}
__global__ void {attrs} fuzz_kernel(float *__restrict__ a, int n) {{
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  int v = 0;
  {kernel}
  a[t] = v;
}}

int main() {{
  int n = 1 << 20;
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  fuzz_kernel<<<(n + 255) / 256, {r.choice([256, 100, 2048])}>>>(d, n);
  {launches}
  cudaDeviceSynchronize();
  return 0;
}}
"""


# --- Broken copies of real CUDA. -------------------------------------------

def real_inputs():
    files = sorted(glob.glob(os.path.join(ROOT, "examples", "*.cu")) +
                   glob.glob(os.path.join(ROOT, "test", "checks", "*.cu")) +
                   glob.glob(os.path.join(ROOT, "test", "checks", "Inputs", "*.cu")))
    return [open(f, "rb").read() for f in files]


def truncate(r, data):
    return data[:r.randint(0, len(data))]


def flip(r, data):
    b = bytearray(data)
    for _ in range(r.randint(1, 8)):
        if not b:
            break
        i = r.randrange(len(b))
        what = r.randrange(4)
        if what == 0:
            b[i] ^= 1 << r.randrange(8)
        elif what == 1:
            b[i] = r.choice(b"{}()[]<>;,#\\\"'/*\n\0\xff")
        elif what == 2:
            del b[i:i + r.randint(1, 40)]
        else:
            j = r.randrange(len(b))
            b[i:i] = b[j:j + r.randint(1, 200)]
    return bytes(b)


def run_one(warplint, path, timeout):
    cmd = [warplint, "--checks=*", "--arch=" + ARCHS, path, "--"]
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        return "timeout", (e.output or b"").decode("utf-8", "replace")
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode not in (0, 1, 2):
        return "exit %d" % p.returncode, out
    for m in CRASH_MARKERS:
        if m in out:
            return m, out
    return None, out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--warplint", default=os.path.join(ROOT, "build-asan", "bin", "warplint"))
    ap.add_argument("--time", type=float, default=600, help="seconds in all")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per file")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "source-fuzz-out"))
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int(time.time())
    r = random.Random(seed)
    reals = real_inputs()
    work = os.path.join(args.out, "work")
    crashes = os.path.join(args.out, "crashes")
    os.makedirs(work, exist_ok=True)
    os.makedirs(crashes, exist_ok=True)
    print(f"seed {seed}; {args.warplint}; {args.time:.0f} s", flush=True)
    counts = {"generated": 0, "truncated": 0, "flipped": 0}
    verdicts = {"clean": 0, "findings": 0, "errors": 0}
    found = []
    end = time.time() + args.time
    i = 0
    while time.time() < end:
        kind = ["generated", "truncated", "flipped"][i % 3]
        if kind == "generated":
            data = generate(r).encode()
        elif kind == "truncated":
            data = truncate(r, r.choice(reals))
        else:
            data = flip(r, r.choice(reals))
        path = os.path.join(work, f"{kind}-{i}.cu")
        with open(path, "wb") as f:
            f.write(data)
        why, out = run_one(args.warplint, path, args.timeout)
        counts[kind] += 1
        if why:
            keep = os.path.join(crashes, os.path.basename(path))
            os.replace(path, keep)
            with open(keep + ".log", "w") as f:
                f.write(out)
            found.append((keep, why))
            print(f"CRASH ({why}): {keep}", flush=True)
        else:
            verdicts["errors" if ": error: " in out and kind != "generated" else
                     "findings" if out.strip() else "clean"] += 1
            os.remove(path)
        i += 1
    total = sum(counts.values())
    print(f"{total} files ({counts['generated']} generated, {counts['truncated']} "
          f"truncated, {counts['flipped']} flipped) on {ARCHS}, all checks; "
          f"{len(found)} crashes; seed {seed}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
