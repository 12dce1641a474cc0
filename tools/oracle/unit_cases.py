#!/usr/bin/env python3
"""Turns the parser-level cases of ../shared/deepspeed/unit-cases.json into whole configs and
prints them as ds-oracle input (JSON Lines).

    python3 tools/oracle/unit_cases.py | ../shared/tools/ds-oracle/run > /tmp/out.jsonl
    python3 tools/oracle/unit_cases.py --merge /tmp/out.jsonl > shared/tests/fixtures/unit_cases_0198.jsonl

Targets that test one pydantic model (ZERO, OFFOPT, FP16, BF16GET) are wrapped into a minimal
config around that section; ELASTIC cases become whole configs; MODEL (a test-local class) and
the engine-level targets (INIT, SCHED, ENGINE_FN) are skipped.
"""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
src = os.path.join(here, "..", "..", "..", "shared", "deepspeed", "unit-cases.json")

def cases():
    for c in json.load(open(src)):
        t, cfg, kw = c["target"], c["config"], c.get("kw") or {}
        ws = int(kw.get("world_size", kw.get("env_world_size", 1)))
        base = {"id": c["id"], "target": t, "expected_0196": c["expected"], "world_size": ws}
        if t in ("DSC", "DSC_FILE_JSON", "json"):
            yield {**base, "config": cfg}
        elif t == "DSC_FILE_TEXT":
            yield {**base, "text": cfg}
        elif t == "ZERO":
            for i, one in enumerate(cfg if isinstance(cfg, list) else [cfg]):
                yield {**base, "id": f"{c['id']}#{i}" if isinstance(cfg, list) else c["id"], "config": {"train_batch_size": 1, "zero_optimization": one}}
        elif t == "OFFOPT":
            yield {**base, "config": {"train_batch_size": 1, "zero_optimization": {"offload_optimizer": cfg}}}
        elif t == "FP16":
            yield {**base, "config": {"train_batch_size": 1, "fp16": cfg}}
        elif t == "BF16GET":
            yield {**base, "config": {"train_batch_size": 1, **cfg}}
        elif t == "ELASTIC":
            yield {**base, "config": {"train_batch_size": 1, **cfg}}

if len(sys.argv) > 2 and sys.argv[1] == "--merge":
    got = {}
    for line in open(sys.argv[2]):
        r = json.loads(line)
        got[r["id"]] = r
    for c in cases():
        r = got[c["id"]]
        c["verdict"], c["error"] = r["verdict"], r["error"]
        print(json.dumps(c, ensure_ascii=False, allow_nan=True))
else:
    for c in cases():
        print(json.dumps(c, ensure_ascii=False, allow_nan=True))
