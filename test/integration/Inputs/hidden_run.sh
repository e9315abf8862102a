#!/bin/sh
# hidden_run.sh DIR... -- COMMAND...: runs COMMAND in a mount namespace of its
# own where each DIR is an empty directory (a tmpfs mounted over it), so that
# nothing under it can be read: a package that still needs the build tree,
# clang's -dev headers or the CUDA toolkit fails. Needs root and unshare.
set -eu
exec unshare -m --propagation private sh -c '
  while [ "$1" != "--" ]; do
    if [ -e "$1" ]; then mount -t tmpfs -o ro,size=1m none "$1"; fi
    shift
  done
  shift
  exec "$@"' hidden_run "$@"
