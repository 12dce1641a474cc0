#!/usr/bin/env bash
# More rows for the memory model (issue 33), measured through the studio as a user runs jobs:
# `ds-studio serve` with its local runner, each config of configs/ pushed as a template and run
# on the built-in workload with `jobs submit --force --watch` (force: the out-of-memory config is
# meant to run and fail with reason out_of_memory), beside `ds-studio estimate --config --size`.
# Writes $OUT/rows.jsonl (the fixture's format: shared/tests/fixtures/gpu_peaks.jsonl, plus
# estimate_mib, reason and message) and $OUT/summary.txt (measured vs estimated).
#
# From the root of the tree the device tool sends, with this folder copied to gpu-check-memory/
# and the binary in .gpu/ (see ../../../shared/tools/gpu/README.md for .gpu and .whl).
# Env: BIN, PY, SIZE (xl), STEPS (10), LIMIT (s per job), ONLY (config names), WHEELS=1.
# Rehearse on CPU: PY=~/.cache/ds-studio/engine/bin/python SIZE=tiny STEPS=3 ONLY="z2-gas4 z2-ckpt-mb16" bash tools/gpu-memory/run.sh
set -u
ROOT=$(pwd)
OUT=${OUT:-/tmp/gpu-memory-out}; mkdir -p "$OUT"
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$ROOT/.gpu/ds-studio}
PY=${PY:-$(command -v python3)}
SIZE=${SIZE:-xl}
STEPS=${STEPS:-10}
LIMIT=${LIMIT:-300}
ONLY=${ONLY:-$(cd "$HERE/configs" && ls *.json | sed 's/\.json$//' | tr '\n' ' ')}
exec > >(tee -a "$OUT/log.txt") 2>&1
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
chmod +x "$BIN" 2>/dev/null
if [ "${WHEELS:-0}" = 1 ]; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir .whl/*.whl || { echo "wheel install failed"; exit 1; }
fi
stamp "start"
nvidia-smi --query-gpu=name,memory.total --format=csv 2>&1 | head -3
TOKEN="gpu-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
DATA=$(mktemp -d); PORT=${PORT:-18081}
export DS_STUDIO_SERVER="http://127.0.0.1:$PORT" DS_STUDIO_TOKEN="$TOKEN" DS_STUDIO_CREDENTIALS="$DATA/creds.json"
"$BIN" serve --addr "127.0.0.1:$PORT" --data "$DATA" --admin-token "$TOKEN" --python "$PY" --static-dir "$DATA" > "$OUT/server.log" 2>&1 &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null' EXIT
for _ in $(seq 1 100); do curl -fs "$DS_STUDIO_SERVER/healthz" >/dev/null && break; sleep 0.1; done
sleep 2
"$BIN" runners | tee "$OUT/runners.txt"
DEVICE=$("$BIN" runners --format json | "$PY" -c 'import json,sys; r=json.load(sys.stdin); r=r[0] if r else {}; g=(r.get("devices") or {}).get("gpus") or []; print(f"{g[0][\"name\"]} ({g[0][\"memory_bytes\"]/2**30:.1f} GiB)" if g else "CPU")')
: > "$OUT/rows.jsonl"
for name in $ONLY; do
  cfg="$HERE/configs/$name.json"
  est=$("$BIN" estimate --config "$cfg" --size "$SIZE" --format json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["gpu_peak_bytes"]/2**20)')
  tid=$("$BIN" templates push "$cfg" --name "mem-$name-$SIZE" --format json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["template_id"])')
  stamp "== $name: template $tid, estimate $est MiB"
  "$BIN" jobs submit --template "$tid" --size "$SIZE" --gpus 1 --max-steps "$STEPS" --time-limit "$LIMIT" --name "$name" --force --watch | tail -n 2
  jid=$("$BIN" jobs list --format json --limit 1 | "$PY" -c 'import json,sys; d=json.load(sys.stdin); d=d.get("items", d); print(d[0]["id"])')
  "$BIN" jobs show "$jid" --format json > "$DATA/job-$name.json"
  "$BIN" jobs logs "$jid" > "$OUT/log-$name.txt" 2>&1
  "$PY" - "$cfg" "$DATA/job-$name.json" "$name" "$SIZE" "$est" "$DEVICE" >> "$OUT/rows.jsonl" <<'PY'
import json, sys
cfg, job, name, size, est, device = sys.argv[1:]
j = json.load(open(job))
j = j.get("job", j)
s = j.get("summary") or {}
print(json.dumps({"id": f"{name}@{size}", "size": size, "gpus": 1, "launcher": "deepspeed",
    "config": json.load(open(cfg)), "state": j["state"], "peak_mib": s.get("peak_memory_mb") if j["state"] == "succeeded" else None,
    "samples_per_sec": s.get("median_samples_per_sec"), "device": device, "estimate_mib": round(float(est), 1),
    "reason": j.get("reason"), "message": (j.get("message") or "")[:300]}))
PY
  stamp "== $name done (job $jid)"
done
"$PY" - "$OUT/rows.jsonl" <<'PY' | tee "$OUT/summary.txt"
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    m, e = r["peak_mib"], r["estimate_mib"]
    ratio = f"{e / m:.3f}" if m else "-"
    print(f"{r['id']:24} {r['state']:10} measured {m or 0:9.0f} MiB  estimated {e:9.0f} MiB  ratio {ratio:6} {r['reason'] or ''}")
PY
