#!/usr/bin/env bash
# The "run" step of the warplint GitHub action (action.yml at the repository
# root), usable on its own too: run it from the root of a checkout.
#
#   1. Pick the files: those of INPUT_FILES, else on a pull request the CUDA
#      files it adds or changes, else every tracked *.cu and *.cuh file.
#   2. Analyse them once for code scanning: the SARIF log, every finding.
#   3. Gate: the same analysis (a hit in the shared result cache) as GitHub
#      annotations, leaving out the findings recorded in the baseline file;
#      its exit status is this script's: 0 nothing new at error level,
#      1 a new error-level finding, 2 warplint could not run.
#
# Inputs, as the action passes them (all optional):
#   INPUT_FILES             paths, globs (** too) or directories, separated by
#                           blanks; quote a name with blanks ('my dir/k.cu')
#   INPUT_COMPILE_DATABASE  directory of compile_commands.json (warplint -p)
#   INPUT_BASELINE          baseline file, used when it exists
#                           (default warplint-baseline.json)
#   INPUT_ARCH              --arch, e.g. sm_80,sm_90
#   INPUT_CHECKS            --checks, e.g. -*,warp-*
#   INPUT_ARGS              more warplint options, quoted as in a shell;
#                           compiler flags after a '--'
#   INPUT_SARIF_CATEGORY    code scanning's category (default warplint)
#   INPUT_CACHE_DIR         --cache-dir (default: under RUNNER_TEMP)
#   WARPLINT_ACTION_REPOSITORY, WARPLINT_ACTION_REF
#                           the action's own repository and ref: the SARIF
#                           rules' help links point at its docs/checks
# and GitHub's: GITHUB_EVENT_NAME, GITHUB_BASE_REF, RUNNER_TEMP,
# GITHUB_OUTPUT (outputs sarif-file, new-findings, exit-code),
# GITHUB_STEP_SUMMARY, GITHUB_SERVER_URL.
set -euo pipefail

files_input=${INPUT_FILES:-}
compile_database=${INPUT_COMPILE_DATABASE:-}
baseline=${INPUT_BASELINE-warplint-baseline.json}
arch=${INPUT_ARCH:-}
checks=${INPUT_CHECKS:-}
args_input=${INPUT_ARGS:-}
category=${INPUT_SARIF_CATEGORY:-warplint}
cache_dir=${INPUT_CACHE_DIR:-}

# --- Small helpers ----------------------------------------------------------

say() { printf 'warplint action: %s\n' "$*"; }

# A workflow command (an annotation): LEVEL MESSAGE, the message escaped as
# GitHub reads it back (%, CR, LF).
annotate() {
  local message=$2
  message=${message//'%'/%25}
  message=${message//$'\r'/%0D}
  message=${message//$'\n'/%0A}
  printf '::%s title=warplint::%s\n' "$1" "$message"
}

# An error for the log and the run's annotations; exit 2 (could not run).
fail() {
  annotate error "$*"
  exit 2
}

# One step output (for the action's outputs), when GitHub collects them.
output() {
  if [[ -n ${GITHUB_OUTPUT:-} ]]; then
    printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
  fi
}

scratch=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/warplint-action.XXXXXX")

# Whatever ends the script: its status is the exit-code output, and the
# scratch directory goes.
# shellcheck disable=SC2317 # called by the trap
finish() {
  local status=$?
  output exit-code "$status"
  rm -rf "$scratch"
  exit "$status"
}
trap finish EXIT

# Splits $2 into the array named $1 as a shell splits words (blanks, quotes,
# backslashes), without evaluating anything: xargs does the splitting.
# shellcheck disable=SC2034 # into is the caller's array
split_words() {
  local -n into=$1
  into=()
  if [[ -z ${2//[[:space:]]/} ]]; then
    return 0
  fi
  if ! printf '%s\n' "$2" | xargs printf '%s\0' >"$scratch/words" 2>"$scratch/words.err"; then
    fail "cannot split '$2' into words: $(cat "$scratch/words.err")"
  fi
  mapfile -d '' -t into <"$scratch/words"
}

# Appends the CUDA files under a directory, sorted, to the array `files`.
add_directory() {
  local found
  mapfile -d '' -t found < <(find "$1" -type f \( -name '*.cu' -o -name '*.cuh' \) -print0 | sort -z)
  files+=("${found[@]}")
}

# Appends the NUL-separated paths in a file to `files`, those that are
# regular files here (a path git lists may be a submodule or deleted).
add_listed() {
  local path listed
  mapfile -d '' -t listed <"$1"
  for path in "${listed[@]}"; do
    if [[ -f $path ]]; then
      files+=("$path")
    fi
  done
}

# The SARIF log, one per category. A log at that name is always this run's:
# an older one goes now.
if [[ -n ${RUNNER_TEMP:-} ]]; then
  sarif_file="$RUNNER_TEMP/warplint-${category//[^A-Za-z0-9._-]/_}.sarif"
else
  sarif_file="$PWD/warplint.sarif"
fi
rm -f "$sarif_file"

# --- 1. The files -------------------------------------------------------------

files=()
if [[ -n ${files_input//[[:space:]]/} ]]; then
  # Given: each word a path, a directory or a glob, relative to here.
  patterns=()
  split_words patterns "$files_input"
  shopt -s globstar nullglob
  for pattern in "${patterns[@]}"; do
    if [[ $pattern == *[*?[]* ]]; then
      # Expanded unquoted with IFS empty: globbed, never split on blanks.
      IFS=
      # shellcheck disable=SC2206 # globbing is the point
      matches=($pattern)
      IFS=$' \t\n'
      matched=0
      for m in "${matches[@]}"; do
        if [[ -f $m ]]; then
          files+=("$m")
          matched=1
        fi
      done
      if ((!matched)); then
        annotate warning "files: '$pattern' matches no file"
      fi
    elif [[ -d $pattern ]]; then
      add_directory "$pattern"
    else
      # A plain path, there or not: warplint says if it cannot read it.
      files+=("$pattern")
    fi
  done
  shopt -u globstar nullglob
  if ((${#files[@]} == 0)); then
    fail "files: '$files_input' names no file"
  fi
  say "${#files[@]} file(s) from the files input"
elif [[ ${GITHUB_EVENT_NAME:-} == pull_request* && -n ${GITHUB_BASE_REF:-} ]]; then
  # A pull request: the CUDA files it adds, copies, modifies or renames,
  # against the merge base with the base branch (three dots).
  base="origin/$GITHUB_BASE_REF"
  if ! git rev-parse --verify -q "$base^{commit}" >/dev/null; then
    # actions/checkout fetches only the merge commit unless fetch-depth: 0.
    git fetch -q --no-tags origin "+refs/heads/$GITHUB_BASE_REF:refs/remotes/$base" >/dev/null 2>&1 ||
      true # missing is handled below
  fi
  if git rev-parse --verify -q "$base^{commit}" >/dev/null &&
    git merge-base "$base" HEAD >/dev/null 2>&1; then
    git diff --name-only -z --relative --diff-filter=ACMR "$base...HEAD" -- '*.cu' '*.cuh' >"$scratch/changed" ||
      fail "git diff against $base failed"
    add_listed "$scratch/changed"
    say "${#files[@]} CUDA file(s) changed against $base"
  else
    annotate warning "no merge base with $base (check out with fetch-depth: 0): checking every tracked CUDA file"
    git ls-files -z -- '*.cu' '*.cuh' >"$scratch/tracked" || fail "git ls-files failed: is this a git checkout?"
    add_listed "$scratch/tracked"
    say "${#files[@]} tracked CUDA file(s)"
  fi
else
  git ls-files -z -- '*.cu' '*.cuh' >"$scratch/tracked" ||
    fail "git ls-files failed: not a git checkout? (give the files input)"
  add_listed "$scratch/tracked"
  say "${#files[@]} tracked CUDA file(s)"
fi

# The same file named twice is analysed once; a name that starts with '-'
# is not an option.
declare -A seen=()
unique=()
for f in "${files[@]}"; do
  if [[ $f == -* ]]; then
    f="./$f"
  fi
  if [[ -z ${seen[$f]+x} ]]; then
    seen[$f]=1
    unique+=("$f")
  fi
done
files=("${unique[@]}")

# JSON string contents (quotes, backslashes, control characters).
json_escape() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\t'/\\t}
  s=${s//$'\n'/\\n}
  s=${s//$'\r'/\\r}
  printf '%s' "$s"
}

# A path as a file: URI, its bytes outside [A-Za-z0-9/._~-] percent-encoded.
file_uri() {
  local LC_ALL=C s=$1 out='' c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in
    [A-Za-z0-9/._~-]) out+=$c ;;
    *) out+=$(printf '%%%02X' "'$c") ;;
    esac
  done
  printf 'file://%s' "$out"
}

if ((${#files[@]} == 0)); then
  # Nothing to analyse: a log without results, so that code scanning still
  # has this category's analysis for the pull request.
  say "no CUDA file to check: passing"
  version=$(warplint --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1 || true)
  mkdir -p "$(dirname "$sarif_file")"
  tmp=$(mktemp "$sarif_file.XXXXXX")
  cat >"$tmp" <<EOF
{
  "\$schema": "https://json.schemastore.org/sarif-2.1.0.json",
  "version": "2.1.0",
  "runs": [
    {
      "tool": {"driver": {"name": "warplint", "version": "${version:-unknown}", "rules": []}},
      "automationDetails": {"id": "$(json_escape "$category")/"},
      "columnKind": "utf16CodeUnits",
      "originalUriBaseIds": {"%SRCROOT%": {"uri": "$(json_escape "$(file_uri "$PWD/")")"}},
      "results": []
    }
  ]
}
EOF
  mv -f "$tmp" "$sarif_file"
  output sarif-file "$sarif_file"
  output new-findings 0
  exit 0
fi

printf '::group::warplint action: the files (%d)\n' "${#files[@]}"
printf '%s\n' "${files[@]}"
printf '::endgroup::\n'

# --- The command line ---------------------------------------------------------
# warplint [options] <files...> [-- <compiler flags>]: the options first,
# then the files; with a compile database the flags come from it, without
# one an empty '--' says so (no database looked for).

extra=()
split_words extra "$args_input"
own=() flags=() have_flags=0
for ((i = 0; i < ${#extra[@]}; i++)); do
  if [[ ${extra[i]} == -- ]]; then
    have_flags=1
    flags=("${extra[@]:i+1}")
    break
  fi
  own+=("${extra[i]}")
done

if [[ -z $cache_dir ]]; then
  if [[ -n ${RUNNER_TEMP:-} ]]; then
    cache_dir="$RUNNER_TEMP/warplint-cache"
  else
    cache_dir="$scratch/cache"
  fi
fi

options=("--cache-dir=$cache_dir")
if [[ -n $compile_database ]]; then
  options+=(-p "$compile_database")
fi
if [[ -n ${arch//[[:space:]]/} ]]; then
  options+=("--arch=${arch//[[:space:]]/}")
fi
if [[ -n ${checks//[[:space:]]/} ]]; then
  options+=("--checks=${checks//[[:space:]]/}")
fi
options+=("${own[@]}")

tail=("${files[@]}")
if ((have_flags)); then
  tail+=(-- "${flags[@]}")
elif [[ -z $compile_database ]]; then
  tail+=(--)
fi

# Exit 2 from warplint: its messages, then one line that says so.
could_not_run() {
  local err=$1 first
  cat "$err" >&2
  first=$(grep -m1 '^warplint: error: ' "$err" | sed 's/^warplint: error: //' || true)
  fail "warplint could not analyse the files (exit 2)${first:+: $first}"
}

# --- 2. The SARIF log ---------------------------------------------------------

sarif_options=(--format=sarif --quiet "--sarif-category=$category")
if [[ -n ${WARPLINT_ACTION_REPOSITORY:-} && -n ${WARPLINT_ACTION_REF:-} ]]; then
  sarif_options+=("--help-base-url=${GITHUB_SERVER_URL:-https://github.com}/$WARPLINT_ACTION_REPOSITORY/blob/$WARPLINT_ACTION_REF/docs/checks")
fi

mkdir -p "$(dirname "$sarif_file")"
tmp=$(mktemp "$sarif_file.XXXXXX")
sarif_status=0
warplint "${sarif_options[@]}" "${options[@]}" "${tail[@]}" >"$tmp" 2>"$scratch/sarif.err" || sarif_status=$?
if ((sarif_status > 1)); then
  # Could not run: no log, so nothing is uploaded (the gate below still
  # annotates the errors it can place, a compiler error at its line).
  rm -f "$tmp"
else
  # Whole or not at all: the log appears under its name once written.
  mv -f "$tmp" "$sarif_file"
  output sarif-file "$sarif_file"
  say "SARIF log: $sarif_file"
fi

# --- 3. The gate --------------------------------------------------------------

gate_options=(--format=github)
if [[ -n $baseline && -f $baseline ]]; then
  gate_options+=("--baseline=$baseline")
  say "gating the findings not recorded in $baseline"
else
  say "no baseline file${baseline:+ $baseline}: every finding is new"
fi

status=0
warplint "${gate_options[@]}" "${options[@]}" "${tail[@]}" >"$scratch/gate.out" 2>"$scratch/gate.err" || status=$?
# The annotations, on the step's output where the runner reads them.
cat "$scratch/gate.out"
if ((sarif_status > 1)); then
  could_not_run "$scratch/sarif.err"
elif ((status > 1)); then
  could_not_run "$scratch/gate.err"
fi
cat "$scratch/gate.err" >&2

# A finding is an annotation whose title is a check; warplint's own errors
# are titled warplint or clang-diagnostic-error.
new=$(awk '/^::(error|warning|notice)[ :]/ && !/[ ,]title=(warplint|clang-diagnostic-error)::/ { n++ } END { print n + 0 }' "$scratch/gate.out")
output new-findings "$new"

if ((status == 1)); then
  verdict="failed: $new new finding(s), at least one at error level"
else
  verdict="passed: $new new finding(s), none at error level"
fi
say "$verdict"
if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  printf '**warplint** %s (%d file(s) checked).\n' "$verdict" "${#files[@]}" >>"$GITHUB_STEP_SUMMARY"
fi
exit "$status"
