#!/usr/bin/env bash
# The incremental rebuild of the backend's tests after an edit of one server file and of one
# runner file, in this checkout and in a baseline commit (default: the last commit before the
# crate split), measured in the same run on the same machine and target directory.
#
#   tools/bench-rebuild/run.sh [BASELINE_REV] [ROUNDS]
#
# Each round appends a comment to the file (new content, as an edit makes), times
# `cargo test --no-run` of every backend crate, and the file is restored at the end. The
# baseline must be a commit of the one-crate layout (backend/src/...), as the paths below say.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
base_rev="${1:-f283e7d}"
rounds="${2:-3}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
base_dir="$(mktemp -d /tmp/ds-studio-rebuild-base.XXXXXX)"
git -C "$root" worktree add --detach "$base_dir" "$base_rev" >/dev/null
trap 'git -C "$root" worktree remove --force "$base_dir"' EXIT

# measure DIR FILE PACKAGES...: median seconds of `rounds` edit+rebuilds.
measure() {
  local dir="$1" file="$2"; shift 2
  local pkgs=() p
  for p in "$@"; do pkgs+=(-p "$p"); done
  (cd "$dir" && cargo test "${pkgs[@]}" --no-run >/dev/null 2>&1)
  cp "$dir/$file" "$dir/$file.orig"
  local times=() i s e
  for i in $(seq 1 "$rounds"); do
    echo "// rebuild benchmark edit $i" >>"$dir/$file"
    s=$(date +%s.%N)
    (cd "$dir" && cargo test "${pkgs[@]}" --no-run >/dev/null 2>&1)
    e=$(date +%s.%N)
    times+=("$(echo "$e - $s" | bc)")
  done
  mv "$dir/$file.orig" "$dir/$file"
  (cd "$dir" && cargo test "${pkgs[@]}" --no-run >/dev/null 2>&1)
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (rounds + 1) / 2 ))p"
}

new_pkgs=(ds-studio-server ds-studio-runner ds-studio-client ds-studio-lsp ds-studio)
b_server=$(measure "$base_dir" backend/src/api/templates.rs ds-studio)
b_runner=$(measure "$base_dir" backend/src/runner/monitor.rs ds-studio)
n_server=$(measure "$root" backend/server/src/api/templates.rs "${new_pkgs[@]}")
n_runner=$(measure "$root" backend/runner/src/monitor.rs "${new_pkgs[@]}")
printf '%-34s %10s %10s %8s\n' "edit, then rebuild backend tests" "baseline" "now" "ratio"
printf '%-34s %9.1fs %9.1fs %7.2fx\n' "one server file (api/templates.rs)" "$b_server" "$n_server" "$(echo "$b_server / $n_server" | bc -l)"
printf '%-34s %9.1fs %9.1fs %7.2fx\n' "one runner file (monitor.rs)" "$b_runner" "$n_runner" "$(echo "$b_runner / $n_runner" | bc -l)"
