#!/usr/bin/env bash
# The device call of issue 51's GPU rows: the wheels, then jail_diag.py (what of the job jail
# keeps CUDA from starting, if anything) and the real jail's answer (`ds-studio confine`, the
# driver's cuInit through ctypes), then run.sh: with the jail as it is where a confined child
# starts CUDA, else with --unconfined-jobs (the rows measure memory, not the jail).
set -u
OUT=${OUT:-/tmp/gpu-models-out}; mkdir -p "$OUT"
PY=${PY:-$(command -v python3)}
"$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir .whl/*.whl || { echo "wheel install failed"; exit 1; }
chmod +x .gpu/ds-studio
PYTHONUNBUFFERED=1 timeout 120 "$PY" tools/gpu-models/jail_diag.py 2>&1 | tee "$OUT/diag.txt"
CU='import ctypes; c=ctypes.CDLL("libcuda.so.1"); print("confined cuInit", c.cuInit(0))'
.gpu/ds-studio confine --write /tmp -- "$PY" -c "$CU" 2>&1 | tail -n 1 | tee -a "$OUT/diag.txt"
.gpu/ds-studio confine --write /tmp --write /proc/driver -- "$PY" -c "$CU" 2>&1 | tail -n 1 | sed 's/^/with \/proc\/driver: /' | tee -a "$OUT/diag.txt"
if grep -q '^confined cuInit 0' "$OUT/diag.txt"; then SERVE_ARGS=""; else SERVE_ARGS="--unconfined-jobs"; fi
echo "serve with: ${SERVE_ARGS:-the jail as it is}" | tee -a "$OUT/diag.txt"
SERVE_ARGS="$SERVE_ARGS" PY="$PY" PYTHONUNBUFFERED=1 BIN="$PWD/.gpu/ds-studio" bash tools/gpu-models/run.sh 2>&1 | grep -v '^job [0-9]*  running'
