#!/usr/bin/env python3
"""DeepSpeed's engine verdict on the corpus, in every release: where a release's parser accepts
a corpus config, does `deepspeed.initialize()` accept it too?

    ../shared/tools/ds-oracle/setup.sh all
    python3 tools/releases/engine_verdicts.py > shared/tests/fixtures/releases/corpus_engine_verdicts.jsonl

For each release of `../shared/tools/ds-oracle/versions.txt`, the corpus configs that release's
parser accepts (`../shared/deepspeed/releases/corpus-verdicts.jsonl`) go through
`../shared/tools/ds-oracle/run --deepspeed V --engine` (a tiny model on CPU; the oracle marks
errors that come from the machine, not the config, with "environment": true, and an fp16 config
the CPU cannot run is retried with bf16: "retried": "bf16"). One line per
corpus file that some release's parser accepts, its engine verdicts as spans of consecutive
releases (a release whose parser rejects the file has no entry):

    {"file": ..., "world_size": 8, "by_release": [{"from": "0.14.4", "to": "0.19.5", "verdict": "accepted",
                                  "error": "", "environment": false, "retried": ""}, ...]}

`shared/tests/conformance.rs` (`corpus_engine_verdicts_match`) requires ds-studio to report an
error exactly where the engine rejects for a reason of the config, in every release.

The machine matters for what is marked environmental, not for the config's verdict: on this
2-core machine (torch 2.15, no fp16 on CPU) fp16 configs are retried with bf16 and cupy,
tensorboard and wandb are missing; the committed fixture's 0.16.9-0.18.5, 0.19.2 and 0.19.4 were
run on a 16-core machine (torch 2.11, fp16 runs on its CPU, cupy and tensorboard installed), where
fewer errors are environmental and so more verdicts are judged. 0.16.9 and 0.18.4 ran on both:
each machine judged 42 of their files the same way (42/42), and differed only on what the
machine lacks.
JOBS=N runs N releases at once (default 2); RELEASES="0.14.5 0.19.5" limits the run to those
releases (about 3 minutes each on a 2-core machine; all 43 take about two hours).

With --cases, the same for ds-studio's oracle probes and DeepSpeed's unit cases
(`shared/tests/fixtures/{oracle_probes,unit_cases_0198}.jsonl`) that a release's parser accepts
(`case_verdicts.jsonl`), at world size 1 (the oracle starts the engine on one rank; a case judged
for N ranks stays a parse-level case): one line per case id, written to
`shared/tests/fixtures/releases/case_engine_verdicts.jsonl` (`case_engine_verdicts_match`).
Two kinds of refusal there come from how the oracle starts the engine, not from the case, and the
test does not judge them (`engine_artifact`): `KeyError: 'CROSS_SIZE'` (the oracle is not started
by the `deepspeed` launcher, which sets the variables the checkpoint writer reads), and the batch
assertion for a dict whose `sequence_parallel_size` divides the world size (the oracle rewrites
`train_batch_size` as micro x accumulation for world size 1; started with the config as written,
`{"train_batch_size": 1, "sequence_parallel_size": 2}` starts in 0.17.5).

Each release's raw verdicts are kept in $ENGINE_VERDICTS_CACHE (default
~/.cache/ds-studio/engine-verdicts/V-<hash of its cases>.jsonl), so a stopped sweep resumes where
it stopped, and a sweep can be split: `RELEASES=... --raw-only` on one machine fills the cache
(copy the files across), and a final run assembles the fixture from the cache.
"""
import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("DS_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
ORACLE = os.path.join(SHARED, "tools", "ds-oracle", "run")
CORPUS = os.path.join(SHARED, "deepspeed", "corpus", "configs")
FIXTURES = os.path.join(ROOT, "shared", "tests", "fixtures")
CACHE = os.environ.get("ENGINE_VERDICTS_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "ds-studio", "engine-verdicts")


def parse_accepted(versions):
    """file -> (world size, set of releases whose parser accepts it)."""
    path = os.path.join(SHARED, "deepspeed", "releases", "corpus-verdicts.jsonl")
    sizes = {c["file"]: c.get("world_size", 1) for c in map(json.loads, open(path))}
    return {f: (sizes[f], ok) for f, ok in spans_accepted(path, "file", versions).items()}


def spans_accepted(path, key, versions):
    """id -> releases whose parser accepts it, from a per-release verdict file."""
    index = {v: i for i, v in enumerate(versions)}
    out = {}
    for line in open(path):
        case = json.loads(line)
        ok = set()
        for span in case["by_release"]:
            if span["verdict"] == "accepted":
                ok.update(versions[index[span["from"]]:index[span["to"]] + 1])
        if ok:
            out[case[key]] = ok
    return out


def probe_cases(versions):
    """id -> (case for the oracle, releases whose parser accepts it): world size 1 only."""
    ok = spans_accepted(os.path.join(FIXTURES, "releases", "case_verdicts.jsonl"), "id", versions)
    out = {}
    for name in ("unit_cases_0198.jsonl", "oracle_probes.jsonl"):
        for line in open(os.path.join(FIXTURES, name)):
            if not line.strip():
                continue
            c = json.loads(line)
            if c.get("world_size", 1) != 1 or c["id"] not in ok:
                continue
            case = {"id": c["id"], "world_size": 1}
            case["text" if "text" in c else "config"] = c["text"] if "text" in c else c["config"]
            out[c["id"]] = (case, ok[c["id"]])
    return out


def run(version, cases):
    payload = "".join(json.dumps(c, sort_keys=True) + "\n" for c in cases)
    key = hashlib.sha256(payload.encode()).hexdigest()[:16]
    cached = os.path.join(CACHE, f"{version}-{key}.jsonl")
    if os.path.exists(cached):
        print(f"{version}: {len(cases)} case(s), from {cached}", file=sys.stderr)
        return {r["id"]: r for r in map(json.loads, open(cached).read().splitlines())}
    p = subprocess.run([ORACLE, "--deepspeed", version, "--engine"], input=payload,
                       capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"ds-oracle {version} failed: {p.stderr[-2000:]}")
    os.makedirs(CACHE, exist_ok=True)
    with open(cached + ".part", "w") as out:
        out.write(p.stdout)
    os.replace(cached + ".part", cached)
    print(f"{version}: {len(cases)} case(s)", file=sys.stderr)
    return {r["id"]: r for r in map(json.loads, p.stdout.splitlines())}


def main():
    versions = [v.strip() for v in open(os.path.join(SHARED, "tools", "ds-oracle", "versions.txt"))
                if v.strip() and not v.startswith("#")]
    all_versions = list(versions)
    probes = "--cases" in sys.argv[1:]
    if probes:
        by_id = probe_cases(versions)
        accepted = {i: (1, ok) for i, (_, ok) in by_id.items()}
    else:
        accepted = parse_accepted(versions)
    if os.environ.get("RELEASES"):
        versions = [v for v in versions if v in os.environ["RELEASES"].split()]

    if probes:
        def cases_for(v):
            return [case for i, (case, ok) in sorted(by_id.items()) if v in ok]
    else:
        texts = {f: open(os.path.join(CORPUS, f), encoding="utf-8").read() for f in accepted}

        def cases_for(v):
            return [{"id": f, "text": texts[f], "world_size": ws}
                    for f, (ws, ok) in sorted(accepted.items()) if v in ok]

    with ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "2"))) as pool:
        results = dict(zip(versions, pool.map(lambda v: run(v, cases_for(v)), versions)))
    if "--raw-only" in sys.argv[1:]:
        return
    for f in sorted(accepted):
        spans = []
        for v in versions:
            r = results[v].get(f)
            if r is None:
                continue
            cur = {"verdict": r["verdict"], "error": r.get("error", "")[:300],
                   "environment": bool(r.get("environment", False)),
                   "retried": r.get("retried") or ""}
            last = spans[-1] if spans else None
            if (last and {k: last[k] for k in cur} == cur
                    and all_versions.index(last["to"]) + 1 == all_versions.index(v)):
                last["to"] = v
            else:
                spans.append({"from": v, "to": v, **cur})
        line = {"id": f} if probes else {"file": f, "world_size": accepted[f][0]}
        print(json.dumps({**line, "by_release": spans}, ensure_ascii=False))


if __name__ == "__main__":
    main()
