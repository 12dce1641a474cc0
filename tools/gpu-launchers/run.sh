#!/usr/bin/env bash
# Jobs under their launchers on a GPU machine, through the studio as a user runs them: `ds-studio
# serve` with its local runner (which must find the card through NVML), `ds-studio runners`,
# then the same ZeRO-2 bf16 training (built-in workload, micro batch 8) as a template for the
# plain `deepspeed` launcher (../shared/tools/gpu/configs/z2.json) and, with "auto" values
# (hf-auto.json here), for the HF Trainer and for Accelerate, each pushed with the CLI and run
# with `jobs submit --watch`. Saves every job's answer, log and metrics and a summary under $OUT.
#
# From the root of the tree the device tool sends, this folder copied to gpu-check/ beside
# ../shared/tools/gpu's configs (gpu-check/configs/): see ../shared/tools/gpu/README.md.
# Env: BIN, PY, SIZE (xl), STEPS (12), LIMIT (s per job), LAUNCHERS, WHEELS=1 installs .whl/*.whl.
# Rehearse on CPU: PY=~/.cache/ds-studio/engine/bin/python SIZE=tiny STEPS=4 bash gpu-check/run.sh
set -u
ROOT=$(pwd)
OUT=${OUT:-/tmp/gpu-out}; mkdir -p "$OUT"
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$ROOT/.gpu/ds-studio}
PY=${PY:-$(command -v python3)}
SIZE=${SIZE:-xl}
STEPS=${STEPS:-12}
LIMIT=${LIMIT:-240}
LAUNCHERS=${LAUNCHERS:-"deepspeed hf-trainer accelerate"}
ARGS=${ARGS:-per_device_train_batch_size=8,gradient_accumulation_steps=1,learning_rate=0.0003,weight_decay=0.1,adam_beta2=0.95,bf16=true}
exec > >(tee -a "$OUT/log.txt") 2>&1
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
chmod +x "$BIN" 2>/dev/null
if [ "${WHEELS:-0}" = 1 ]; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir .whl/*.whl || { echo "wheel install failed"; exit 1; }
fi
stamp "start"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | head -3
"$PY" -c 'import torch, deepspeed, transformers, accelerate; print("torch", torch.__version__, "deepspeed", deepspeed.__version__, "transformers", transformers.__version__, "accelerate", accelerate.__version__, "cuda", torch.cuda.is_available())' 2>&1 | tail -1
TOKEN="gpu-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
DATA=$(mktemp -d); PORT=${PORT:-18080}
export DS_STUDIO_SERVER="http://127.0.0.1:$PORT" DS_STUDIO_TOKEN="$TOKEN" DS_STUDIO_CREDENTIALS="$DATA/creds.json"
"$BIN" serve --addr "127.0.0.1:$PORT" --data "$DATA" --admin-token "$TOKEN" --python "$PY" --static-dir "$DATA" > "$OUT/server.log" 2>&1 &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null' EXIT
for _ in $(seq 1 100); do curl -fs "$DS_STUDIO_SERVER/healthz" >/dev/null && break; sleep 0.1; done
sleep 2
stamp "server up"
"$BIN" runners | tee "$OUT/runners.txt"
"$BIN" runners --format json > "$OUT/runners.json"
mkdir -p "$DATA/out"
for l in $LAUNCHERS; do
  if [ "$l" = deepspeed ]; then cfg="$HERE/configs/z2.json"; extra=(); else cfg="$HERE/hf-auto.json"; extra=(--launcher "$l" --trainer-args "$ARGS"); fi
  tid=$("$BIN" templates push "$cfg" --name "gpu-$l" "${extra[@]}" --format json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["template_id"])')
  stamp "== $l: template $tid, submit $SIZE"
  "$BIN" jobs submit --template "$tid" --size "$SIZE" --gpus 1 --max-steps "$STEPS" --time-limit "$LIMIT" --name "$l-$SIZE" --watch | tail -n 3
  jid=$("$BIN" jobs list --format json --limit 1 | "$PY" -c 'import json,sys; d=json.load(sys.stdin); d=d.get("items", d); print(d[0]["id"])')
  "$BIN" jobs show "$jid" --format json > "$DATA/out/job-$l.json"
  "$BIN" jobs show "$jid"
  "$BIN" jobs logs "$jid" > "$DATA/out/log-$l.txt" 2>&1
  curl -fs -H "Authorization: Bearer $TOKEN" "$DS_STUDIO_SERVER/api/v1/jobs/$jid/metrics" > "$DATA/out/metrics-$l.json"
  grep -E "ds-studio-result|Error" "$DATA/out/log-$l.txt" | tail -n 3
  tar -czf "$OUT/jobs.tgz" -C "$DATA/out" .
  stamp "== $l done (job $jid)"
done
"$PY" - "$DATA/out" <<'PY' | tee "$OUT/summary.txt"
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "job-*.json"))):
    j = json.load(open(f))
    res = {}
    for line in open(f.replace("job-", "log-").replace(".json", ".txt"), errors="replace"):
        if "ds-studio-result " in line:
            res = json.loads(line.split("ds-studio-result ", 1)[1])
    h = j.get("handed_config") or {}
    print(f"{j['facts'].get('launcher'):11} {j['state']:9} samples/s {res.get('samples_per_sec')} "
          f"peak {res.get('peak_memory_mb')} MiB loss {res.get('final_loss')} "
          f"micro {h.get('train_micro_batch_size_per_gpu')} bucket {h.get('zero_optimization', {}).get('reduce_bucket_size')} "
          f"filled {len(j.get('filled', []))}")
PY
stamp "end"
