#!/usr/bin/env bash
# The "install" step of the warplint GitHub action (action.yml at the
# repository root): makes `warplint` of the action's version the one on PATH.
#
#   - warplint already on PATH at the action's version (its ref's, v0.1.0,
#     else project(warplint VERSION ...) in its CMakeLists.txt; x.y.z
#     compared): nothing to do;
#   - else the .deb of INPUT_DEB (a path or an http(s) URL), or the release
#     asset warplint_*_amd64.deb of the action's own release, downloaded with
#     the GitHub CLI (gh; GH_TOKEN), installed by apt-get, through sudo
#     unless running as root.
#
# Environment: INPUT_DEB, GH_TOKEN, WARPLINT_ACTION_REPOSITORY and
# WARPLINT_ACTION_REF (the action's owner/name and ref; composite actions
# see them only through their steps' env:, else they are read from
# GITHUB_ACTION_PATH, .../_actions/OWNER/NAME/REF), GITHUB_SERVER_URL.
set -euo pipefail

say() { printf 'warplint install: %s\n' "$*"; }
fail() {
  printf '::error title=warplint install::%s\n' "$*"
  exit 1
}

action_path=${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

# The first x.y.z of a `--version` text, on the line naming warplint if
# there is one (the line may also name LLVM's version): "warplint 0.1.0
# (LLVM 22.1.0)" gives 0.1.0.
version_in() {
  local text=$1 line
  line=$(grep -m1 -i 'warplint' <<<"$text" || true)
  grep -oE '[0-9]+\.[0-9]+\.[0-9]+' <<<"${line:-$text}" | head -n1 || true
}

# The action's repository and ref (a tag such as v0.1.0, a branch, a commit).
repo=${WARPLINT_ACTION_REPOSITORY:-}
ref=${WARPLINT_ACTION_REF:-}
if [[ -z $repo || -z $ref ]] && [[ $action_path =~ /_actions/([^/]+)/([^/]+)/([^/]+)/?$ ]]; then
  repo=${repo:-${BASH_REMATCH[1]}/${BASH_REMATCH[2]}}
  ref=${ref:-${BASH_REMATCH[3]}}
fi

# The version this checkout of the action is for: a release tag's (the
# release is built with the tag's version), else that of its CMakeLists.txt.
wanted=''
if [[ $ref =~ ^v?([0-9]+\.[0-9]+\.[0-9]+) ]]; then
  wanted=${BASH_REMATCH[1]}
elif [[ -f $action_path/CMakeLists.txt ]]; then
  wanted=$(sed -nE 's/^[[:space:]]*project\(warplint[[:space:]]+VERSION[[:space:]]+([0-9]+\.[0-9]+\.[0-9]+).*/\1/p' \
    "$action_path/CMakeLists.txt" | head -n1)
fi

installed_version() {
  local out
  command -v warplint >/dev/null 2>&1 || return 0
  out=$(warplint --version 2>&1) || return 0
  version_in "$out"
}

have=$(installed_version)
if [[ -n $have && ( -z $wanted || $have == "$wanted" ) ]]; then
  say "warplint $have is already installed ($(command -v warplint))"
  exit 0
fi
if [[ -n $have ]]; then
  say "warplint $have is on PATH, the action wants $wanted: installing"
fi

scratch=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/warplint-install.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

deb=${INPUT_DEB:-}
if [[ $deb =~ ^https?:// ]]; then
  say "downloading $deb"
  curl -fsSL --retry 3 -o "$scratch/warplint.deb" "$deb" || fail "cannot download $deb"
  deb="$scratch/warplint.deb"
elif [[ -n $deb ]]; then
  [[ -f $deb ]] || fail "deb: no such file: $deb"
else
  # The release of the action's own ref.
  if [[ -z $repo ]]; then
    fail "cannot tell which repository the action comes from (a local action?): give the deb input or put warplint on PATH"
  fi
  arch=$(dpkg --print-architecture 2>/dev/null || true)
  if [[ $arch != amd64 ]]; then
    fail "the releases have an amd64 package only (this runner: ${arch:-not Debian-based}): give the deb input or put warplint on PATH"
  fi
  command -v gh >/dev/null 2>&1 || fail "the GitHub CLI (gh) is needed to download the release: give the deb input instead"
  host=${GITHUB_SERVER_URL:-https://github.com}
  host=${host#*://}
  # The ref (a tag, v0.1.0) first; for a branch or a commit, the release
  # of the version it is at.
  tags=()
  [[ -n $ref ]] && tags+=("$ref")
  [[ -n $wanted && $ref != "v$wanted" ]] && tags+=("v$wanted")
  ((${#tags[@]})) || fail "cannot tell which release to install: give the deb input"
  for tag in "${tags[@]}"; do
    say "downloading warplint_*_amd64.deb of $repo release $tag"
    if gh release download "$tag" --repo "$host/$repo" --pattern 'warplint_*_amd64.deb' \
      --dir "$scratch" 2>"$scratch/gh.err"; then
      break
    fi
    sed 's/^/  gh: /' "$scratch/gh.err"
  done
  shopt -s nullglob
  debs=("$scratch"/warplint_*_amd64.deb)
  shopt -u nullglob
  if ((${#debs[@]} != 1)); then
    fail "release ${tags[*]} of $repo: expected one warplint_*_amd64.deb, found ${#debs[@]}: give the deb input"
  fi
  deb=${debs[0]}
fi

# apt-get installs a local package (and its dependencies) given a path with
# a slash in it.
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
sudo=()
if [[ $(id -u) != 0 ]]; then
  command -v sudo >/dev/null 2>&1 || fail "not root and no sudo: cannot run apt-get to install $deb"
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
say "installing $deb"
if ! "${sudo[@]}" apt-get install -y --no-install-recommends "$deb"; then
  # A dependency the runner's stale package lists do not know.
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y --no-install-recommends "$deb" ||
    fail "apt-get could not install $deb: it needs LLVM 22's runtime libraries (libllvm22, libclang-cpp22); where the distribution has none, add apt.llvm.org's LLVM 22 repository first (docs/integration/ci.md)"
fi

hash -r
have=$(installed_version)
[[ -n $have ]] || fail "installed $deb, but no warplint runs from PATH"
# A package given by the deb input may be another version on purpose.
if [[ -z ${INPUT_DEB:-} && -n $wanted && $have != "$wanted" ]]; then
  fail "installed $deb, but $(command -v warplint) is warplint $have, not $wanted"
fi
say "warplint $have installed ($(command -v warplint))"
