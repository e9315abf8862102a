#!/usr/bin/env bash
# The package as a new user meets it: a fresh Debian bookworm root with no
# compiler, no LLVM and no CUDA toolkit (debootstrap --variant=minbase), the
# Dockerfile's RUN line run in it as `docker build` would (this machine has
# no Docker engine), then warplint over examples/ inside it, compared with a
# source build's findings on the same files.
#
#   bash bench/install/fresh-debian.sh [--keep DIR] build/warplint_<v>_amd64.deb
#
# Needs root, debootstrap and the network to Debian's archive. Prints the
# installed size, what apt installed, the findings of both and their diff;
# exits non-zero when the install fails or the findings differ (apart from
# the note on the missing toolkit, which the source build may not print).
set -euo pipefail
cd "$(dirname "$0")/../.."
keep=""
if [ "${1:-}" = "--keep" ]; then keep="$2"; shift 2; fi
deb="$(realpath "${1:?usage: fresh-debian.sh [--keep DIR] warplint_<v>_amd64.deb}")"
root="${keep:-$(mktemp -d /tmp/warplint-fresh.XXXXXX)}"
cleanup() {
  umount "$root/proc" 2>/dev/null || true
  [ -n "$keep" ] || rm -rf "$root"
}
trap cleanup EXIT

# The archive is this machine's own (its Debian sources: the release, its
# updates and security, as debian:bookworm-slim has them).
host_sources=/etc/apt/sources.list.d/debian.sources
[ -f "$host_sources" ] || { echo "fresh-debian: no $host_sources here" >&2; exit 1; }
mirror="$(awk '/^URIs:/ {print $2; exit}' "$host_sources")"
if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "== debootstrap bookworm (minbase) into $root"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
fi
rm -f "$root/etc/apt/sources.list"
cp "$host_sources" "$root/etc/apt/sources.list.d/debian.sources"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
for tool in cc gcc g++ clang clang++ nvcc; do
  if chroot "$root" sh -c "command -v $tool" >/dev/null; then
    echo "fresh-debian: the fresh root already has $tool" >&2; exit 1
  fi
done

mkdir -p "$root/build" "$root/src"
cp "$deb" "$root/build/"
cp -r examples "$root/src/"
# The Dockerfile's RUN instruction (its continuation lines joined), as is.
run="$(sed -n '/^RUN /,/[^\\]$/p' Dockerfile | sed -e 's/^RUN //' -e 's/\\$//' | tr '\n' ' ')"
# COPY build/warplint_*_amd64.deb /tmp/
cp "$deb" "$root/tmp/"
echo "== RUN $run"
chroot "$root" sh -c "$run" > /tmp/warplint-fresh-apt.log 2>&1 || {
  tail -30 /tmp/warplint-fresh-apt.log; exit 1; }
grep -E '^(Setting up|Unpacking) ' /tmp/warplint-fresh-apt.log | sed 's/^/  /' | grep '^  Setting up' || true
echo "== installed: $(chroot "$root" dpkg-query -W -f='${Installed-Size} KiB\n' warplint)"
chroot "$root" warplint --version

echo "== warplint examples/*.cu -- (fresh root, no toolkit)"
status=0
chroot "$root" sh -c 'cd /src && warplint examples/*.cu --' > /tmp/warplint-fresh.out 2>&1 || status=$?
cat /tmp/warplint-fresh.out; echo "exit $status"

echo "== the source build, the toolkit hidden (CUDA_PATH unset, no nvcc)"
src_status=0
env -u CUDA_PATH -u CUDA_HOME PATH=/usr/bin:/bin build/bin/warplint --cuda-path=/nonexistent examples/*.cu -- \
  > /tmp/warplint-source.out 2>&1 || src_status=$?
echo "exit $src_status"
if diff <(grep -v 'no CUDA toolkit' /tmp/warplint-source.out) \
        <(grep -v 'no CUDA toolkit' /tmp/warplint-fresh.out) &&
   [ "$status" = "$src_status" ]; then
  echo "== same findings and exit status as the source build"
else
  echo "== the findings differ"; exit 1
fi
