#!/usr/bin/env python3
"""ds-studio preflight: DeepSpeed's own parser on the job's config, before any GPU time is spent.

    python preflight.py CONFIG_PATH WORLD_SIZE [LAUNCHER]

Prints one JSON line: {"ok", "message", "python", "torch_version", "deepspeed_version",
"transformers_version", "accelerate_version", "accelerator", "device_count", "report"}.
Under an HF launcher (LAUNCHER `hf-trainer` or `accelerate`) the config as saved still holds
"auto" values the launcher fills in the job itself, so DeepSpeed's parser is not run here: the
launcher's packages must import, and DeepSpeed parses the dict it is handed when the job starts. The world size patches deepspeed.comm so the batch
arithmetic is checked for the job's ranks (as ../shared/tools/ds-oracle does). The exit code is
0 when the config is accepted, 1 when DeepSpeed rejects it, 2 when DeepSpeed cannot be imported.
"""
import json
import logging
import platform
import re
import sys


def main():
    path, world = sys.argv[1], int(sys.argv[2])
    launcher = sys.argv[3] if len(sys.argv) > 3 else "deepspeed"
    out = {"ok": False, "message": None, "python": platform.python_version()}
    try:
        import torch

        out["torch_version"] = torch.__version__
        import deepspeed
        import deepspeed.comm as dist
        from deepspeed.accelerator import get_accelerator
        from deepspeed.runtime.config import DeepSpeedConfig
    except Exception as e:  # a missing or broken install
        out["message"] = f"cannot import DeepSpeed: {type(e).__name__}: {e}"
        print(json.dumps(out), flush=True)
        return 2
    out["deepspeed_version"] = deepspeed.__version__
    hf = launcher in ("hf-trainer", "accelerate")
    try:
        import accelerate
        import transformers

        out["transformers_version"] = transformers.__version__
        out["accelerate_version"] = accelerate.__version__
    except Exception as e:
        if hf:
            out["message"] = (
                f"the {launcher} launcher needs transformers and accelerate: {type(e).__name__}: {e}"
                " (run `ds-studio engine setup`)"
            )
            print(json.dumps(out), flush=True)
            return 2
    try:
        acc = get_accelerator()
        out["accelerator"] = acc.device_name()
        out["device_count"] = int(acc.device_count())
    except Exception as e:
        out["accelerator"] = f"unknown ({type(e).__name__})"
        out["device_count"] = 0
    cuda = torch.version.cuda or "none"
    gpus = []
    if torch.cuda.is_available():
        gpus = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    out["report"] = (
        f"torch {torch.__version__} (cuda {cuda}), deepspeed {deepspeed.__version__}, "
        + (
            f"transformers {out['transformers_version']}, accelerate {out['accelerate_version']}, "
            if "transformers_version" in out
            else ""
        )
        + 
        f"accelerator {out['accelerator']} x{out['device_count']}"
        + (f", {', '.join(gpus)}" if gpus else "")
    )
    if hf:
        out["ok"] = True
        print(json.dumps(out), flush=True)
        return 0
    logging.getLogger("DeepSpeed").setLevel(logging.CRITICAL)
    deepspeed.utils.logger.setLevel(logging.CRITICAL)
    dist.get_world_size = lambda *a, **k: world
    dist.get_rank = lambda *a, **k: 0
    try:
        DeepSpeedConfig(path)
        out["ok"] = True
    except Exception as e:  # assertion, value, type and pydantic errors alike
        out["message"] = re.sub(r"\s+", " ", f"{type(e).__name__}: {e}")[:2000]
    print(json.dumps(out), flush=True)
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
