#!/usr/bin/env bash
# README's first command on a fresh machine, as near as one machine allows: `cargo xtask run`
# of a clean clone of each commit given, with its own HOME, CARGO_HOME, pip and npm caches and
# an empty target directory, so every crate, npm and PyPI package is downloaded and built. Each
# is timed to the server's first /healthz answer, then stopped; xtask's per-step times are
# printed beside it. Give a baseline commit and the candidate to compare them on the same
# machine (one after the other: two at once would share the cores).
#
#   tools/bench-setup/run.sh REV [REV...]      (about 12 minutes each on 2 cores; 10 GB of disk)
#
# Port 8080 must be free. The toolchain (RUSTUP_HOME) is shared: rustup's wasm32 target is
# there already, the only download a fresh machine makes that these runs do not.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ $# -ge 1 ] || { sed -n 2,12p "$0"; exit 2; }
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
rustup_bin="$(dirname "$(command -v cargo)")"
results=()
for rev in "$@"; do
  work="$(mktemp -d /tmp/ds-studio-fresh.XXXXXX)"
  git clone -q "$root" "$work/repo"
  git -C "$work/repo" checkout -q "$rev"
  log="$work/xtask-run.log"
  (
    cd "$work/repo"
    export HOME="$work/home" CARGO_HOME="$work/home/.cargo"
    export PATH="$CARGO_HOME/bin:$rustup_bin:$PATH"
    mkdir -p "$HOME"
    exec cargo xtask run >"$log" 2>&1
  ) &
  pid=$!
  start=$(date +%s.%N)
  until curl -sf http://127.0.0.1:8080/healthz >/dev/null 2>&1; do
    sleep 1
    kill -0 "$pid" 2>/dev/null || { echo "$rev: cargo xtask run exited; see $log" >&2; exit 1; }
  done
  took=$(echo "$(date +%s.%N) - $start" | bc)
  pkill -f "$work/repo/target/release/ds-studio" || true
  wait "$pid" 2>/dev/null || true
  echo "== $rev: first answer after $(printf '%.0f' "$took") s"
  grep '^set-up:' "$log" || true
  results+=("$rev $took")
  rm -rf "$work"
done
if [ ${#results[@]} -ge 2 ]; then
  read -r base_rev base_s <<<"${results[0]}"
  for r in "${results[@]:1}"; do
    read -r rev s <<<"$r"
    echo "$rev: $(echo "scale=2; $s / $base_s" | bc)x the time of $base_rev"
  done
fi
