#!/usr/bin/env bash
# A real sweep on a lent GPU (issue 34): `ds-studio serve` with its local runner, the preset-like
# xl config pushed as a template, and `ds-studio sweep run` over micro batch 4-32 × ZeRO 0-3
# (the global batch kept), followed to the end; then, with AUTOTUNER=1, DeepSpeed's own autotuner
# on the same workload and micro batches, under a time limit (it hangs or fails in known ways:
# DeepSpeed #4100, #4759), so both can be written side by side in BENCHMARKS.md.
# Writes $OUT/sweep.json (the CLI's one JSON object), $OUT/summary.txt and, with AUTOTUNER=1,
# $OUT/autotuner.log and $OUT/autotuning_results/.
#
# From the root of the tree the device tool sends, the binary in .gpu/ and the wheels in .whl/
# (see ../../../shared/tools/gpu/README.md; AUTOTUNER=1 also needs `tabulate`, deepspeed[autotuning], among
# the wheels). base.json is the preset-like xl config the issue started from (38 samples/s). Env: BIN, PY, SIZE (xl), STEPS (30), MICRO
# (4,8,16,32), STAGES (0,1,2,3), AUTOTUNER (0), AT_LIMIT (s, 300), WHEELS=1.
# Rehearse on CPU: PY=~/.cache/ds-studio/engine/bin/python BIN=target/release/ds-studio SIZE=tiny STEPS=3 MICRO=2,4 STAGES=0,2 bash tools/gpu-sweep/run.sh
set -u
ROOT=$(pwd)
OUT=${OUT:-/tmp/gpu-sweep-out}; mkdir -p "$OUT"
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$ROOT/.gpu/ds-studio}
PY=${PY:-$(command -v python3)}
SIZE=${SIZE:-xl}
STEPS=${STEPS:-30}
MICRO=${MICRO:-4,8,16,32}
STAGES=${STAGES:-0,1,2,3}
exec > >(tee -a "$OUT/log.txt") 2>&1
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
chmod +x "$BIN" 2>/dev/null
if [ "${WHEELS:-0}" = 1 ]; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir .whl/*.whl || { echo "wheel install failed"; exit 1; }
fi
stamp "start"
nvidia-smi --query-gpu=name,memory.total --format=csv 2>&1 | head -3
TOKEN="gpu-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
DATA=$(mktemp -d); PORT=${PORT:-18082}
export DS_STUDIO_SERVER="http://127.0.0.1:$PORT" DS_STUDIO_TOKEN="$TOKEN" DS_STUDIO_CREDENTIALS="$DATA/creds.json"
"$BIN" serve --addr "127.0.0.1:$PORT" --data "$DATA" --admin-token "$TOKEN" --python "$PY" --static-dir "$DATA" > "$OUT/server.log" 2>&1 &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null' EXIT
for _ in $(seq 1 100); do curl -fs "$DS_STUDIO_SERVER/healthz" >/dev/null && break; sleep 0.1; done
# The local runner reports its devices once it has registered.
for _ in $(seq 1 100); do "$BIN" runners --format json 2>/dev/null | grep -q '"devices"' && break; sleep 0.2; done
"$BIN" runners | tee "$OUT/runners.txt"
tid=$("$BIN" templates push "$HERE/base.json" --name "sweep-base-$SIZE" --format json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["template_id"])')
stamp "== template $tid; sweep micro $MICRO × stage $STAGES, $STEPS steps"
"$BIN" sweep run --template "$tid" --size "$SIZE" --grid "train_micro_batch_size_per_gpu=$MICRO" \
  --grid "zero_optimization.stage=$STAGES" --keep-global-batch --max-steps "$STEPS" --watch --format json > "$OUT/sweep.json"
stamp "== sweep done (exit $?)"
"$PY" - "$OUT/sweep.json" <<'PY' | tee "$OUT/summary.txt"
import json, sys
s = json.load(open(sys.argv[1]))
print(f"sweep {s['id']}: {s['state']}")
for p in sorted(s["points"], key=lambda p: -(p.get("samples_per_sec") or -1)):
    v = " ".join(f"{k.split('.')[-1]}={x}" for k, x in p["values"].items())
    est = p.get("estimate_bytes"); meas = p.get("peak_memory_mb")
    print(f"{v:24} {p['state']:10} {p.get('samples_per_sec') or 0:8.1f} samples/s  "
          f"est {est / 2**30 if est else 0:6.1f} GiB  measured {meas / 1024 if meas else 0:6.1f} GiB  "
          f"err {p.get('estimate_error_pct') if p.get('estimate_error_pct') is not None else '-'}  {p.get('reason') or ''}")
b = s.get("best")
print("best:", b and {k: b[k] for k in ("values", "samples_per_sec", "peak_memory_mb", "job")})
PY
if [ "${AUTOTUNER:-0}" = 1 ]; then
  stamp "== DeepSpeed autotuner (limit ${AT_LIMIT:-300}s)"
  mkdir -p "$OUT/at" && cd "$OUT/at"
  "$PY" - "$HERE/base.json" "$MICRO" > at.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("train_batch_size", None)
c["autotuning"] = {"enabled": True, "fast": True, "metric": "throughput", "start_profile_step": 3,
                   "end_profile_step": 5, "max_train_batch_size": 128,
                   "micro_batch_sizes": [int(m) for m in sys.argv[2].split(",")],
                   "results_dir": "autotuning_results", "exps_dir": "autotuning_exps"}
print(json.dumps(c, indent=1))
PY
  cp "$ROOT/backend/runner/python/gpt_train.py" .
  # The autotuner starts each experiment with the `deepspeed` command.
  PATH="$(dirname "$PY"):$PATH" timeout "${AT_LIMIT:-300}" "$PY" -m deepspeed.launcher.runner --autotuning run --num_gpus 1 \
    gpt_train.py --size "$SIZE" --max-steps "$STEPS" --deepspeed_config at.json > "$OUT/autotuner.log" 2>&1
  stamp "== autotuner exit $?"
  tail -n 40 "$OUT/autotuner.log"
  cp -r autotuning_results "$OUT/" 2>/dev/null
  cd "$ROOT"
fi
stamp "end"
