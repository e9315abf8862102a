# lit configuration: the checks' tests (test/checks), the command line
# (test/cli), the language server (test/lsp), the plugin (test/plugin), the
# IR layer (test/ir: .ll files through opt's printer, .cu files through the
# CLI), the build and CI integrations (test/integration: pre-commit,
# CMake with nvcc and clang) and the suite's own lint (test/lint: no RUN line
# that lets a test pass whatever the tool does).
import os
import shutil
import sys
import lit.formats

config.name = "warplint"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cu", ".test", ".ll"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.warplint_bin), "..", "test")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])
# Tests never depend on the user's environment for the toolkit.
for var in ("CUDA_PATH", "CUDA_HOME", "WARPLINT_ARCH_DATA", "WARPLINT_CACHE_DIR"):
    config.environment.pop(var, None)
# launch-occupancy caches ptxas's answers in the user's cache directory by
# default: the tests' go to the build tree.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root, "xdg-cache")

# Before %warplint, which is its prefix.
config.substitutions.append(("%warplint-lsp", config.warplint_lsp))
config.substitutions.append(("%lsp-client", "%s %s" % (sys.executable, os.path.join(
    config.test_source_root, "lsp", "Inputs", "lsp_client.py"))))
config.substitutions.append(("%warplint", config.warplint_bin))
config.substitutions.append(("%plugin", config.warplint_plugin))
# The IR layer's opt plugin (LLVM only: opt cannot load libclang-cpp).
config.substitutions.append(("%irplugin", os.path.join(
    os.path.dirname(config.warplint_plugin), "WarpLintIRPlugin.so")))
# clang and opt loading warplint's plugins. In a sanitizer build the plugins
# need the sanitizer runtime, which the uninstrumented clang and opt lack:
# it is preloaded (and clang's deliberate leaks at exit are not reported).
plugin_host = ""
if getattr(config, "asan_runtime", ""):
    plugin_host = "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 " % config.asan_runtime
config.substitutions.append(("%opt", plugin_host + os.path.join(config.llvm_tools_dir, "opt")))
config.substitutions.append(("%clangxx-plugin", plugin_host + config.clangxx))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%src", config.warplint_src))
config.substitutions.append(("%share", config.warplint_share))
config.substitutions.append(("%python", sys.executable))
# A test file without its own CHECK/FIXED/RUN comments, for FileCheck on a
# copy of the test that --fix rewrote: with them left in, every pattern would
# match its own comment (test/utils/strip_checks.py; test/lint checks that no
# test forgets it).
config.substitutions.append(("%strip-checks", "%s %s" % (sys.executable, os.path.join(
    config.test_source_root, "utils", "strip_checks.py"))))
config.substitutions.append(("%cudapath", config.cuda_path))
config.substitutions.append(("%builddir", config.build_dir))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%cpack", config.cpack))

if os.path.exists(os.path.join(config.cuda_path, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
import shutil
if shutil.which("script"):
    config.available_features.add("script")  # util-linux: runs under a pty
try:
    import jsonschema  # noqa: F401
    config.available_features.add("jsonschema")
except ImportError:
    pass
# The GitHub action's test reads action.yml and a workflow (Debian:
# python3-yaml, which pre-commit depends on).
try:
    import yaml  # noqa: F401
    config.available_features.add("pyyaml")
except ImportError:
    pass
# The pre-commit hook's test runs the real pre-commit (Debian: pre-commit).
if shutil.which("pre-commit") and shutil.which("git"):
    config.available_features.add("pre-commit")
# The editor test drives Neovim's LSP client (Debian: neovim, which
# scripts/setup.sh installs); without it, say why it is skipped.
if shutil.which("nvim") and shutil.which("timeout"):
    config.available_features.add("nvim")
else:
    lit_config.note("neovim not installed: skipping the editor test "
                    "(test/lsp/neovim.test)")
# The CMake integration tests configure a project with the toolkit's nvcc, or
# with clang as the CUDA compiler, with the Ninja and Makefile generators.
if os.access(os.path.join(config.cuda_path, "bin", "nvcc"), os.X_OK):
    config.available_features.add("nvcc")
for tool in ("ninja", "make"):
    if shutil.which(tool):
        config.available_features.add(tool)
# OpenMP's omp.h in clang's resource directory (libomp-22-dev, which
# scripts/setup.sh installs): a CUDA file with OpenMP host code includes it.
import subprocess
try:
    _resource = subprocess.run([config.clangxx, "-print-resource-dir"],
                               capture_output=True, text=True).stdout.strip()
    if os.path.exists(os.path.join(_resource, "include", "omp.h")):
        config.available_features.add("omp-header")
except OSError:
    pass
# The Debian package's tests (test/integration/deb-*.test) unpack it with
# dpkg-deb; the one that hides the build's clang headers and the CUDA
# toolkit from the unpacked tree needs a mount namespace (root, and a kernel
# or container that allows one).
if shutil.which("dpkg-deb"):
    config.available_features.add("dpkg-deb")
if shutil.which("unshare") and os.geteuid() == 0:
    try:
        if subprocess.run(["unshare", "-m", "true"], capture_output=True,
                          timeout=10).returncode == 0:
            config.available_features.add("mount-namespace")
    except (OSError, subprocess.TimeoutExpired):
        pass
