#!/usr/bin/env bash
# Installs what is missing (Debian bookworm, as root or with sudo), then
# configures and builds warplint in build/. Safe to run again: it installs
# nothing that is there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

# libomp-22-dev: omp.h in clang's resource directory, where warplint's parse
# finds it (nvcc finds GCC's; a CUDA file with OpenMP host code includes it).
# dpkg-dev: dpkg-shlibdeps, which the Debian package's dependencies come from
# (cmake/Packaging.cmake; test/integration/deb-package.test builds it).
packages=(cmake ninja-build g++ ccache llvm-22-dev libclang-22-dev clang-22
          llvm-22-tools libclang-cpp22-dev nlohmann-json3-dev libgtest-dev
          python3 python3-jsonschema pre-commit libomp-22-dev clang-format-22
          dpkg-dev)
missing=()
installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi
# Neovim: the editor test (test/lsp/neovim.test) runs its LSP client. Only
# that test needs it, so a machine that cannot install it still builds and
# tests; the test is then skipped, and this says why.
if ! command -v nvim >/dev/null && ! installed neovim; then
  echo "setup: installing neovim (for the editor test)"
  { [ ${#missing[@]} -gt 0 ] || $sudo apt-get update -qq; } &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
      --no-install-recommends neovim >/dev/null ||
    echo "setup: neovim cannot be installed: the editor test will be skipped"
fi

[ -f build/build.ninja ] ||
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
