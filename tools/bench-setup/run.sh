#!/usr/bin/env bash
# README's first command on a fresh machine, as near as one machine allows: `cargo xtask run`
# of a clean clone of each commit given (committed history only: uncommitted edits are not
# measured), with its own HOME, CARGO_HOME, pip and npm caches and an empty target directory,
# so every crate, npm and PyPI package is downloaded and built. Each is timed to the server's
# first /healthz answer, then stopped; xtask's per-step times are printed beside it.
#
#   tools/bench-setup/run.sh REV [REV...]      (about 12 minutes each on 2 cores; 10 GB of disk)
#
# Port 8080 must be free. The toolchain (RUSTUP_HOME) is shared: add rustup's wasm32 target
# first (`rustup target add wasm32-unknown-unknown`, 2 s on a fresh machine), the only download
# a fresh machine makes that these runs do not. Runs go one after the other (two at once would
# share the cores); each is bracketed by a calibration, a fixed single-core Python loop
# (seconds, lower is faster), and reports the CPU-seconds the machine was busy and those the
# hypervisor stole meanwhile (/proc/stat). A shared machine's speed can change by 2x within an
# hour: compare runs of one call, and prefer the busy CPU-seconds, which do not depend on how
# the steps overlap.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ $# -ge 1 ] || { sed -n 2,15p "$0"; exit 2; }
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
rustup_bin="$(dirname "$(command -v cargo)")"
calibrate() {
  python3 -c 'import time; t = time.perf_counter(); sum(i * i for i in range(20_000_000)); print(f"{time.perf_counter() - t:.2f}")'
}
# The machine-wide CPU counters of /proc/stat: user+nice+system, and steal (time the hypervisor
# gave to someone else), in ticks.
cpu_ticks() { awk '/^cpu /{print $2+$3+$4, $9}' /proc/stat; }
work=""
trap '[ -n "$work" ] && rm -rf "$work"' EXIT
for rev in "$@"; do
  if curl -sf http://127.0.0.1:8080/healthz >/dev/null 2>&1; then
    echo "something already answers on 127.0.0.1:8080: stop it first" >&2
    exit 1
  fi
  work="$(mktemp -d /tmp/ds-studio-fresh.XXXXXX)"
  git clone -q "$root" "$work/repo"
  git -C "$work/repo" checkout -q "$rev"
  # Only the toolchain's own commands: nothing installed beside them in ~/.cargo/bin.
  mkdir -p "$work/toolchain"
  for t in cargo rustc rustup rustdoc rustfmt cargo-fmt cargo-clippy clippy-driver; do
    if [ -e "$rustup_bin/$t" ]; then ln -s "$rustup_bin/$t" "$work/toolchain/$t"; fi
  done
  log="$work/xtask-run.log"
  before=$(calibrate)
  read -r busy0 steal0 < <(cpu_ticks)
  start=$(date +%s%N)
  (
    cd "$work/repo"
    export HOME="$work/home" CARGO_HOME="$work/home/.cargo"
    export PATH="$CARGO_HOME/bin:$work/toolchain:$(echo "$PATH" | tr ':' '\n' | grep -vxF "$rustup_bin" | paste -sd:)"
    mkdir -p "$HOME"
    exec cargo xtask run >"$log" 2>&1
  ) &
  pid=$!
  until curl -sf http://127.0.0.1:8080/healthz >/dev/null 2>&1; do
    sleep 1
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$rev: cargo xtask run exited before serving; its log:" >&2
      tail -30 "$log" >&2
      exit 1
    fi
  done
  took=$(( ($(date +%s%N) - start) / 1000000000 ))
  read -r busy1 steal1 < <(cpu_ticks)
  hz=$(getconf CLK_TCK)
  pkill -f "$work/repo/target/release/ds-studio" || true
  wait "$pid" 2>/dev/null || true
  after=$(calibrate)
  scaled=$(python3 -c "print(f'{$took / (($before + $after) / 2):.0f}')")
  echo "== $rev: first answer after $took s (calibration $before s before, $after s after; scaled $scaled;" \
    "CPU busy $(( (busy1 - busy0) / hz )) s, stolen $(( (steal1 - steal0) / hz )) s)"
  grep '^set-up:' "$log" || true
  rm -rf "$work"
  work=""
done
