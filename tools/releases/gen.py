#!/usr/bin/env python3
"""Generates shared/data/releases.json: what every DeepSpeed release 0.14.4 -> 0.19.8 knows.

    python3 tools/releases/gen.py            # write shared/data/releases.json
    python3 tools/releases/gen.py --check    # exit 1 if the committed file differs
    python3 tools/releases/gen.py --check --full   # re-read every release even when nothing changed
    python3 tools/releases/gen.py --unregistered   # names old releases read that keys.json lacks

The releases are `../shared/tools/ds-oracle/versions.txt`; each is read from its own source by
`source.py` (its PyPI sdist, parsed with `ast`). The registry (`shared/data/keys.json`, the keys
of every release, documented) says which keys exist at all; this file says, per key, in which
releases it holds and what its default is in each, so nobody hand-maintains 43 copies:

    {"releases": [...],
     "keys": {"zero_optimization.zenflow": {"since": "0.17.5"},
              "amp": {"removed_in": "0.19.6", "removed": "<that release's message>"},
              "gradient_clipping": {"defaults": [["0.14.4", 0.0], ["0.19.3", 1.0]]},
              "zero_optimization.reduce_bucket_size": {"bounds": [["0.14.4", {}], ["0.19.6", {"gt": 0}]]}},
     "closed_since": {"fp16": "0.17.1"},          # sections pydantic checks from that release on
     "plain_until": {"comms_logger": "0.15.0"},   # before closed_since, a plain pydantic model:
                                                  # types checked, extras ignored, "auto" kept
     "optimizers": {"onebitadam": {"until": "0.19.6"}},
     "schedulers": {},
     "checks": {"warmup-num-steps-positive": {"since": "0.19.3"}}}  # engine-start checks

How a key's presence in a release is decided:
- in a section some release checks with a pydantic model (the model is found by its fields, in
  0.19.8): the key is a field or an alias of that model in that release;
- elsewhere (sections DeepSpeed reads with `dict.get`): the section is present and the key's name
  is a string literal somewhere in the release's source;
- keys under `<name>` placeholders and free sections follow their parent.
"""
import hashlib
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import source  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(here))
SHARED = os.environ.get("DS_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
OUT = os.path.join(ROOT, "shared", "data", "releases.json")
KEYS = os.path.join(ROOT, "shared", "data", "keys.json")
# Section aliases the registry resolves to another path.
SECTION_ALIAS = {"bfloat16": "bf16", "tensor_parallel.tp": "tensor_parallel.tp"}


def versions():
    path = os.path.join(SHARED, "tools", "ds-oracle", "versions.txt")
    return [line.strip() for line in open(path) if line.strip() and not line.startswith("#")]


def names_of(model):
    out = {}
    for name, info in model["fields"].items():
        out[name] = info
        if info.get("alias"):
            out[info["alias"]] = info
    return out


def section_models(keys, newest):
    """Registry section path -> model class name, matched on the newest release's fields."""
    by_parent = {}
    for k in keys:
        if k.get("mode") == "strict":
            parent, _, name = k["path"].rpartition(".")
            by_parent.setdefault(parent, set()).add(name)
    out = {}
    for parent, names in by_parent.items():
        best, score = None, 0
        for cls, model in newest["models"].items():
            s = len(names & set(names_of(model)))
            if s > score:
                best, score = cls, s
        if best and score * 2 >= len(names):
            out[parent] = best
    return out


def ancestor_presence(present, parent, n):
    """Presence of the nearest registered ancestor (top level: every release)."""
    while parent:
        parent = SECTION_ALIAS.get(parent, parent)
        if parent in present:
            return present[parent]
        parent = parent.rpartition(".")[0]
    return [True] * n


def bounds_of(key, facts, model_cls):
    """The pydantic bounds (gt/ge/lt/le) of a strict key in one release ({} when none)."""
    if not model_cls:
        return None
    info = names_of(facts["models"][model_cls]).get(key["path"].rpartition(".")[2])
    return (info or {}).get("bounds", {})


def default_of(key, facts, model_cls):
    """The key's default in one release, or `...` when the source does not say it plainly."""
    parent, _, name = key["path"].rpartition(".")
    if model_cls:
        info = names_of(facts["models"][model_cls]).get(name)
        if info and info["has_default"] and not isinstance(info["default"], dict):
            return info["default"]
        return ...
    src = (key.get("source") or "").split(":")[0].split(" ")[0]
    files = [src] if src in facts["constants"] else []
    for rel in files or facts["constants"]:
        consts = facts["constants"][rel]
        hits = [c for c, v in consts.items() if v == name and c + "_DEFAULT" in consts]
        if len(hits) == 1:
            return consts[hits[0] + "_DEFAULT"]
        if files:
            break
    return ...


def spans(values, releases):
    """[(first release, value)] at each change."""
    out, last = [], object()
    for r, v in zip(releases, values):
        if v != last:
            out.append([r, v])
            last = v
    return out


def generate():
    releases = versions()
    facts = {v: source.read(v) for v in releases}
    newest = facts[releases[-1]]
    keys = json.load(open(KEYS))
    models = section_models(keys, newest)
    present = {}  # path -> [bool per release]
    result = {"releases": releases, "keys": {}, "closed_since": {}, "plain_until": {}, "optimizers": {},
              "schedulers": {}, "checks": {}}
    for section, cls in sorted(models.items()):
        has = [cls in facts[r]["models"] for r in releases]
        if not all(has):
            if has[-1] and has.index(True) > 0 and all(has[has.index(True):]):
                first = has.index(True)
                result["closed_since"][section] = releases[first]
                plain = [cls in facts[r].get("plain_models", []) for r in releases[:first]]
                if all(plain):
                    result["plain_until"][section] = releases[first]
                elif any(plain):
                    raise SystemExit(f"{section}: plain model {cls} in some releases only: {plain}")
            else:
                raise SystemExit(f"{section}: model {cls} comes and goes: {has}")
    for key in keys:
        path = key["path"]
        parent, _, name = path.rpartition(".")
        parent_present = ancestor_presence(present, parent, len(releases))
        row, defaults, removed, bounds = [], [], [], []
        for i, r in enumerate(releases):
            f = facts[r]
            cls = models.get(parent) if models.get(parent) in f["models"] else None
            if not parent_present[i]:
                here_ = False
            elif name.startswith("<"):
                here_ = True
            elif cls:
                here_ = name in names_of(f["models"][cls])
            else:
                here_ = name in f["strings"]
            gone = (f["removed"].get("top_level", {}) if not parent else
                    f["removed"].get("zero", {}) if parent == "zero_optimization" else {}).get(name)
            removed.append(gone)
            row.append(here_ and gone is None)
            defaults.append(default_of(key, f, cls) if here_ else None)
            bounds.append(bounds_of(key, f, cls) if here_ else None)
        present[path] = row
        entry = {}
        if not row[0] and any(row):
            entry["since"] = releases[row.index(True)]
        last = max((i for i, p in enumerate(row) if p), default=None)
        if last is not None and last < len(releases) - 1:
            entry["until"] = releases[last + 1]
        if any(removed):
            first = next(i for i, m in enumerate(removed) if m)
            entry["removed_in"] = releases[first]
            entry["removed"] = removed[-1]
            entry.pop("until", None)
        known = [(r, d) for r, d, p in zip(releases, defaults, row) if p and d is not ...]
        if len({json.dumps(d) for _, d in known}) > 1 and len(known) == sum(row):
            entry["defaults"] = spans([d for _, d in known], [r for r, _ in known])
        known_bounds = [(r, b) for r, b, p in zip(releases, bounds, row) if p and b is not None]
        if len({json.dumps(b, sort_keys=True) for _, b in known_bounds}) > 1:
            entry["bounds"] = spans([b for _, b in known_bounds], [r for r, _ in known_bounds])
        if entry:
            result["keys"][path] = entry
    names = {o for r in releases for o in facts[r]["optimizers"]}
    for o in sorted(names):
        row = [o in facts[r]["optimizers"] for r in releases]
        if not all(row):
            result["optimizers"][o] = span_entry(row, releases)
    names = {s for r in releases for s in facts[r]["schedulers"]}
    for s in sorted(names):
        row = [s in facts[r]["schedulers"] for r in releases]
        if not all(row):
            result["schedulers"][s] = span_entry(row, releases)
    for name in sorted(source.CHECKS):
        row = [name in facts[r]["checks"] for r in releases]
        if not any(row):
            raise SystemExit(f"check {name}: no release has it (did its message change?)")
        result["checks"][name] = span_entry(row, releases)
    return result, facts, keys, models


def span_entry(row, releases):
    entry = {}
    if not row[0]:
        entry["since"] = releases[row.index(True)]
    last = max(i for i, p in enumerate(row) if p)
    if last < len(releases) - 1:
        entry["until"] = releases[last + 1]
    return entry


def render(result):
    lines = ["{", f' "releases": {json.dumps(result["releases"])},', ' "keys": {']
    items = sorted(result["keys"].items())
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{',' if i < len(items) - 1 else ''}"
              for i, (k, v) in enumerate(items)]
    lines.append(" },")
    for part in ("closed_since", "plain_until", "optimizers", "schedulers", "checks"):
        end = "," if part != "checks" else ""
        lines.append(f' "{part}": {json.dumps(result[part], sort_keys=True)}{end}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def unregistered(facts, keys, models):
    """Fields and top-level constants of some release that the registry does not list."""
    known = {k["path"] for k in keys}
    out = set()
    for r, f in facts.items():
        for section, cls in models.items():
            for name in names_of(f["models"].get(cls, {"fields": {}})):
                if f"{section}.{name}" not in known:
                    out.add((f"{section}.{name}", r))
        consts = f["constants"].get("deepspeed/runtime/constants.py", {})
        for c, v in consts.items():
            if isinstance(v, str) and c + "_DEFAULT" in consts and v not in known and source.IDENT.match(v):
                out.add((v, r))
    first = {}
    for path, r in sorted(out, key=lambda t: [int(x) for x in t[1].split(".")]):
        first.setdefault(path, []).append(r)
    for path, rs in sorted(first.items()):
        print(f"{path}\t{rs[0]}..{rs[-1]} ({len(rs)} releases)")


# What the file was generated from and what it holds: the generator, its reader of the
# sources, the registry and the release list (the sdists of pinned releases never change), and
# the file itself. `--check` re-reads the 43 sdists (minutes on a fresh machine) only when one
# of them changed since the file was written; `--full` always does.
STAMP = os.path.join(here, "releases.json.sha256")


def stamp():
    h = hashlib.sha256()
    for path in [os.path.abspath(__file__), source.__file__, KEYS,
                 os.path.join(SHARED, "tools", "ds-oracle", "versions.txt")]:
        with open(path, "rb") as f:
            h.update(f.read())
    inputs = h.hexdigest()
    output = hashlib.sha256(open(OUT, "rb").read()).hexdigest() if os.path.exists(OUT) else ""
    return f"inputs {inputs}\noutput {output}\n"


def main():
    if "--check" in sys.argv and "--full" not in sys.argv and os.path.exists(STAMP):
        if open(STAMP).read() == stamp():
            print("shared/data/releases.json is up to date (its inputs and the file are those it "
                  "was generated from; --full re-reads the releases)")
            return
    result, facts, keys, models = generate()
    if "--unregistered" in sys.argv:
        unregistered(facts, keys, models)
        return
    text = render(result)
    if "--check" in sys.argv:
        current = open(OUT).read() if os.path.exists(OUT) else ""
        if current != text:
            sys.exit("shared/data/releases.json is out of date: run python3 tools/releases/gen.py")
        print("shared/data/releases.json is up to date")
        with open(STAMP, "w") as f:
            f.write(stamp())
        return
    with open(OUT, "w") as f:
        f.write(text)
    with open(STAMP, "w") as f:
        f.write(stamp())
    print(f"wrote {OUT}: {len(result['keys'])} keys with release facts")


if __name__ == "__main__":
    main()
