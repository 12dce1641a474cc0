#!/usr/bin/env bash
# Rehearsals of users' models at their real shapes on a GPU (issue 51), through the studio as a
# user runs them: `ds-studio serve` with its local runner, each row of rows.txt pushed as a
# template and run with `jobs submit --model NAME|--model-config FILE --seq-len N [--lora-rank R]
# --force --watch`, beside `jobs show` (the estimate of the config as it ran, and its error
# against the measured peak). Rows run in order until DEADLINE seconds have passed since the
# start; each finished row is appended to $OUT/rows.jsonl at once (the job as `jobs show
# --format json` gives it, its result line, the estimate's line), so a run cut short keeps what
# it measured.
#
# From the root of the tree the device tool sends, with the binary in .gpu/ and the wheels in
# .whl/ (see ../../../shared/tools/gpu/README.md).
# Env: BIN, PY, STEPS (5), LIMIT (s per job), DEADLINE (s, no new row after), ONLY (row ids),
# WHEELS=1 (pip-install .whl/*.whl first), SERVE_ARGS (more flags for `serve`).
# Rehearse on CPU: PY=~/.cache/ds-studio/engine/bin/python ROWS=tools/gpu-models/rows-cpu.txt STEPS=2 bash tools/gpu-models/run.sh
set -u
ROOT=$(pwd)
OUT=${OUT:-/tmp/gpu-models-out}; mkdir -p "$OUT"
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$ROOT/.gpu/ds-studio}
PY=${PY:-$(command -v python3)}
STEPS=${STEPS:-5}
LIMIT=${LIMIT:-240}
DEADLINE=${DEADLINE:-480}
ROWS=${ROWS:-$HERE/rows.txt}
ONLY=${ONLY:-}
exec > >(tee -a "$OUT/log.txt") 2>&1
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
chmod +x "$BIN" 2>/dev/null
if [ "${WHEELS:-0}" = 1 ]; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir .whl/*.whl || { echo "wheel install failed"; exit 1; }
fi
stamp "start"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | head -3
"$PY" -c 'import torch, deepspeed, transformers, peft; print("torch", torch.__version__, "deepspeed", deepspeed.__version__, "transformers", transformers.__version__, "peft", peft.__version__, "cuda", torch.cuda.is_available())' 2>&1 | tail -1
TOKEN="gpu-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
DATA=$(mktemp -d); PORT=${PORT:-18082}
export DS_STUDIO_SERVER="http://127.0.0.1:$PORT" DS_STUDIO_TOKEN="$TOKEN" DS_STUDIO_CREDENTIALS="$DATA/creds.json"
"$BIN" serve --addr "127.0.0.1:$PORT" --data "$DATA" --admin-token "$TOKEN" --python "$PY" --static-dir "$DATA" ${SERVE_ARGS:-} > "$OUT/server.log" 2>&1 &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null' EXIT
for _ in $(seq 1 300); do curl -fs "$DS_STUDIO_SERVER/healthz" >/dev/null && break; sleep 0.1; done
sleep 1
"$BIN" runners | tee "$OUT/runners.txt"
: > "$OUT/rows.jsonl"
grep -v '^#' "$ROWS" | while read -r id launcher cfg model seq lora targs; do
  [ -z "$id" ] && continue
  if [ -n "$ONLY" ] && ! grep -qw "$id" <<<"$ONLY"; then continue; fi
  if [ $(( $(date +%s) - t0 )) -ge "$DEADLINE" ]; then stamp "== $id skipped: past the deadline"; continue; fi
  push=(templates push "$HERE/configs/$cfg" --name "model-$id" --format json)
  [ "$launcher" != deepspeed ] && push+=(--launcher "$launcher" --trainer-args "$targs")
  tid=$("$BIN" "${push[@]}" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["template_id"])') || { stamp "== $id: push failed"; continue; }
  if [ -f "$ROOT/$model" ]; then mflag=(--model-config "$ROOT/$model"); else mflag=(--model "$model"); fi
  lflag=(); [ "$lora" != 0 ] && lflag=(--lora-rank "$lora")
  stamp "== $id: template $tid, $launcher $cfg ${mflag[*]} seq $seq lora $lora"
  "$BIN" jobs submit --template "$tid" "${mflag[@]}" --seq-len "$seq" "${lflag[@]}" --gpus 1 \
    --max-steps "$STEPS" --time-limit "$LIMIT" --name "$id" --force --watch < /dev/null | tail -n 2
  jid=$("$BIN" jobs list --format json --limit 1 | "$PY" -c 'import json,sys; d=json.load(sys.stdin); d=d.get("items", d); print(d[0]["id"])')
  "$BIN" jobs show "$jid" > "$DATA/show-$id.txt" 2>&1
  "$BIN" jobs show "$jid" --format json > "$DATA/job-$id.json"
  "$BIN" jobs logs "$jid" > "$DATA/log-$id.txt" 2>&1
  grep -E '^ *(model|measured|estimate) ' "$DATA/show-$id.txt"
  grep -E 'ds-studio-result|Error|error:' "$DATA/log-$id.txt" | tail -n 3
  "$PY" - "$DATA/job-$id.json" "$DATA/log-$id.txt" "$DATA/show-$id.txt" "$id" "$HERE/configs/$cfg" "$launcher" "$targs" >> "$OUT/rows.jsonl" <<'PY'
import json, sys
job, log, show, rid, cfg, launcher, targs = sys.argv[1:]
j = json.load(open(job))
j = j.get("job", j)
res = {}
for line in open(log, errors="replace"):
    if "ds-studio-result " in line:
        res = json.loads(line.split("ds-studio-result ", 1)[1])
est = [l.strip() for l in open(show, errors="replace") if l.strip().startswith(("estimate ", "measured ", "model "))]
print(json.dumps({"id": rid, "launcher": launcher, "trainer_args": targs, "config": json.load(open(cfg)),
                  "result": res, "report": est, "job": j}))
PY
  tar -czf "$OUT/logs.tgz" -C "$DATA" $(cd "$DATA" && ls log-*.txt job-*.json show-*.txt)
  stamp "== $id done (job $jid)"
done
stamp "end"
