#!/usr/bin/env python3
"""Median (and mean) microseconds for DeepSpeed's own parser (DeepSpeedConfig(path)) per corpus config.
Run with the ds-oracle venv: deepspeed_bench.py CONFIG_DIR [ITERATIONS]"""
import json, logging, os, sys, time

os.environ.setdefault("DS_ACCELERATOR", "cpu")
import deepspeed  # noqa: E402
from deepspeed.runtime.config import DeepSpeedConfig  # noqa: E402

logging.getLogger("DeepSpeed").setLevel(logging.CRITICAL)
deepspeed.utils.logger.setLevel(logging.CRITICAL)
d, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20
files = sorted(f for f in os.listdir(d) if f.endswith((".json", ".conf")))
medians = []
for f in files:
    path = os.path.join(d, f)
    samples = []
    for _ in range(n):
        s = time.perf_counter()
        try:
            DeepSpeedConfig(path)
        except Exception:
            pass
        samples.append((time.perf_counter() - s) * 1e6)
    samples.sort()
    medians.append(samples[len(samples) // 2])
# mean_us: what one file costs on average (comparable to a whole run over the corpus divided by
# its files); median_us: the typical file.
mean = sum(medians) / len(medians)
medians.sort()
print(json.dumps({"configs": len(files), "mean_us": mean, "median_us": medians[len(medians) // 2]}))
