"""Writes a compile_commands.json with nvcc command lines, as CMake makes them."""
import json
import sys

root = sys.argv[1]
print(json.dumps([
    {"directory": root + "/build",
     "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
                "-O3 -DNDEBUG -std=c++17 -arch=sm_60 --expt-relaxed-constexpr "
                "--extended-lambda -Xcompiler=-fPIC,-Wall -x cu -c "
                + root + "/src/legacy.cu -o legacy.o",
     "file": root + "/src/legacy.cu"},
    {"directory": root + "/build",
     "arguments": ["/usr/local/cuda/bin/nvcc", "-I" + root + "/include",
                   "--generate-code=arch=compute_70,code=[compute_70,sm_70]",
                   "-gencode", "arch=compute_90,code=sm_90", "-Xptxas", "-v",
                   "--a-future-nvcc-flag", "-lineinfo", "-rdc=true", "-c",
                   root + "/src/uses_include.cu", "-o", "uses_include.o"],
     "file": root + "/src/uses_include.cu"},
], indent=1))
