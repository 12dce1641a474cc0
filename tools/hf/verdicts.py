#!/usr/bin/env python3
"""What the Hugging Face Trainer and Accelerate do with our configs: HF's own verdicts, recorded.

    ../shared/tools/hf-oracle/setup.sh
    python3 tools/hf/verdicts.py > shared/tests/fixtures/hf/verdicts.jsonl

Cases: every config of the corpus (`../shared/deepspeed/corpus/configs`, read by path, as the
Trainer reads it) and our own probes (`shared/tests/fixtures/hf/probes.jsonl`: a config or a file
text, optional `world_sizes`, optional `training_args` instead of the ready variants). Each corpus
config runs at world sizes 1 and 8; a probe at its own world sizes (default 1).

Launchers: `../shared/tools/hf-oracle/run` (the HF Trainer, variants defaults, bf16-mbs1 and
matched) and `run --accelerate` (Accelerate without the Trainer, variants defaults and bf16-mbs1).
Parse level: HF's processing and DeepSpeed's `DeepSpeedConfig` on the dict HF hands over.

One line per case, launcher, world size and variant, sorted, with what the Rust side needs to judge
the same run (`shared/tests/hf_conformance.rs`): the arguments the variant used and HF's verdict.

    {"id", "source": "corpus"|"probe", "launcher", "world_size", "args", "training_args"|"script_args",
     "verdict", "stage", "error"}
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("DS_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
CORPUS = os.path.join(SHARED, "deepspeed", "corpus", "configs")
PROBES = os.path.join(ROOT, "shared", "tests", "fixtures", "hf", "probes.jsonl")
ORACLE = os.path.join(SHARED, "tools", "hf-oracle", "run")
KEEP = ("id", "launcher", "world_size", "args", "training_args", "script_args", "verdict", "stage",
        "error")


def cases():
    out = []
    only = os.environ.get("ONLY")  # "corpus" or "probe": regenerate one part, keep the other
    if only != "probe":
        for name in sorted(os.listdir(CORPUS)):
            for world in (1, 8):
                out.append({"id": name, "source": "corpus", "path": os.path.join(CORPUS, name),
                            "world_size": world})
    if only != "corpus" and os.path.exists(PROBES):
        for line in open(PROBES, encoding="utf-8"):
            if not line.strip():
                continue
            p = json.loads(line)
            for world in p.get("world_sizes", [1]):
                case = {"id": p["id"], "source": "probe", "world_size": world}
                for k in ("config", "text", "training_args", "args", "launchers"):
                    if k in p:
                        case[k] = p[k]
                out.append(case)
    return out


def run(cases, accelerate):
    launcher = "accelerate" if accelerate else "hf-trainer"
    cases = [c for c in cases if launcher in c.get("launchers", ["hf-trainer", "accelerate"])]
    if accelerate:
        # a probe's own arguments are TrainingArguments; Accelerate gets its variants instead
        cases = [{k: v for k, v in c.items() if k not in ("training_args", "args")} if
                 isinstance(c.get("training_args"), dict) else c for c in cases]
    payload = "".join(json.dumps(c) + "\n" for c in cases)
    cmd = [ORACLE] + (["--accelerate"] if accelerate else [])
    p = subprocess.run(cmd, input=payload, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"hf-oracle ({launcher}) failed: {p.stderr[-2000:]}")
    source = {c["id"]: c["source"] for c in cases}
    rows = []
    # Only result lines: a C++ extension build may print to the real stdout too.
    for r in map(json.loads, (l for l in p.stdout.splitlines() if l.startswith("{"))):
        row = {k: r[k] for k in KEEP if k in r}
        row["source"] = source[r["id"]]
        if r.get("environment"):
            row["environment"] = True
        rows.append(row)
    return rows


def main():
    all_cases = cases()
    keep = []
    only = os.environ.get("ONLY")
    old = os.path.join(ROOT, "shared", "tests", "fixtures", "hf", "verdicts.jsonl")
    if only and os.path.exists(old):  # the other part stays as recorded
        keep = [r for r in map(json.loads, open(old, encoding="utf-8")) if r["source"] != only]
    with ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "1"))) as pool:
        parts = list(pool.map(lambda acc: run(all_cases, acc), (False, True)))
    rows = keep + [r for part in parts for r in part]
    rows.sort(key=lambda r: (r["source"], r["id"], r["launcher"], r["world_size"], r["args"]))
    for r in rows:
        print(json.dumps(finite(r), ensure_ascii=False, sort_keys=True))


def finite(v):
    """JSON has no NaN or Infinity: a non-finite argument is written as the string Python prints."""
    if isinstance(v, float) and v != v or v in (float("inf"), float("-inf")):
        return repr(v)
    if isinstance(v, dict):
        return {k: finite(x) for k, x in v.items()}
    if isinstance(v, list):
        return [finite(x) for x in v]
    return v


if __name__ == "__main__":
    main()
