#!/usr/bin/env python3
"""DeepSpeed's parser verdict on our probes and DeepSpeed's unit cases, in every release.

    ../shared/tools/ds-oracle/setup.sh all
    python3 tools/releases/verdicts.py > shared/tests/fixtures/releases/case_verdicts.jsonl

Reads the cases of `shared/tests/fixtures/oracle_probes.jsonl` and
`shared/tests/fixtures/unit_cases_0198.jsonl` (each a config or a file text, and a world size),
runs `../shared/tools/ds-oracle/run --deepspeed V` on them for every release of
`../shared/tools/ds-oracle/versions.txt` (parse level: `DeepSpeedConfig`), and writes one line per
case with its verdict as spans of consecutive releases, the format of
`../shared/deepspeed/releases/corpus-verdicts.jsonl`:

    {"id": ..., "by_release": [{"from": "0.14.4", "to": "0.17.0", "verdict": "accepted", "error": ""}, ...]}

The case itself stays in its 0.19.8 fixture (one copy); `shared/tests/conformance.rs` judges each
case in every release against these spans.
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("DS_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
FIXTURES = os.path.join(ROOT, "shared", "tests", "fixtures")
ORACLE = os.path.join(SHARED, "tools", "ds-oracle", "run")


def cases():
    out = []
    for name in ("unit_cases_0198.jsonl", "oracle_probes.jsonl"):
        for line in open(os.path.join(FIXTURES, name)):
            if not line.strip():
                continue
            c = json.loads(line)
            case = {"id": c["id"], "world_size": c.get("world_size", 1)}
            if "text" in c:
                case["text"] = c["text"]
            else:
                case["config"] = c["config"]
            out.append(case)
    return out


def run(version, payload):
    p = subprocess.run([ORACLE, "--deepspeed", version], input=payload, capture_output=True,
                       text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"ds-oracle {version} failed: {p.stderr[-2000:]}")
    return {r["id"]: r for r in map(json.loads, p.stdout.splitlines())}


def main():
    versions = [v.strip() for v in open(os.path.join(SHARED, "tools", "ds-oracle", "versions.txt"))
                if v.strip() and not v.startswith("#")]
    all_cases = cases()
    payload = "".join(json.dumps(c) + "\n" for c in all_cases)
    with ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "2"))) as pool:
        results = dict(zip(versions, pool.map(lambda v: run(v, payload), versions)))
    for c in all_cases:
        spans = []
        for v in versions:
            r = results[v][c["id"]]
            cur = {"verdict": r["verdict"], "error": r.get("error", "")}
            if spans and spans[-1]["verdict"] == cur["verdict"] and spans[-1]["error"] == cur["error"]:
                spans[-1]["to"] = v
            else:
                spans.append({"from": v, "to": v, **cur})
        print(json.dumps({"id": c["id"], "by_release": spans}, ensure_ascii=False))
        print(f"{len(spans)} span(s) {c['id']}", file=sys.stderr) if len(spans) > 1 else None


if __name__ == "__main__":
    main()
