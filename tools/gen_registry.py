#!/usr/bin/env python3
"""Bootstrap shared/data/keys.json from ../shared/deepspeed/keys.tsv.

Run once to create the registry; afterwards shared/data/keys.json is the source of truth and is
edited by hand (this script refuses to overwrite it unless --force is given).
"""
import csv, json, re, sys, os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
tsv = os.path.join(root, "..", "shared", "deepspeed", "keys.tsv")
out = os.path.join(root, "shared", "data", "keys.json")
if os.path.exists(out) and "--force" not in sys.argv:
    sys.exit(f"{out} exists; pass --force to regenerate")

STRICT_SECTIONS = ["zero_optimization", "fp16", "bf16", "bfloat16", "tensorboard", "wandb", "csv_monitor",
                   "comet", "comms_logger", "hybrid_engine", "compile", "tensor_parallel", "weight_quantization",
                   "timers.throughput"]
FREE = {"pipeline", "amp", "datastates_ckpt", "zero_optimization.zeropp_loco_param", "autotuning.arg_mappings",
        "compression_training.layer_reduction", "data_efficiency.data_routing.random_ltd",
        "optimizer.params", "scheduler.params", "tensor_parallel.partition_config",
        "weight_quantization.quantized_initialization", "weight_quantization.post_init_quant",
        "flops_profiler", "curriculum_learning"}

def conv_default(d):
    d = d.strip()
    if d in ("", "(absent)", "(required)", "required", "see leaf_module") or d.startswith("("):
        return None, d
    m = {"None": None, "True": True, "False": False, "{}": {}, "[]": [], "0.": 0.0}
    if d in m:
        return m[d], d
    try:
        return json.loads(d), d
    except Exception:
        pass
    try:
        v = float(d)
        return (int(v) if v.is_integer() and ("e" in d or "." not in d) else v), d
    except Exception:
        pass
    if d.startswith('"') and '"' in d[1:]:
        return d[1:d.index('"', 1)], d
    return None, d

def conv_type(t):
    t = t.strip()
    nullable = "null" in t or "None" in t
    base = []
    for part in re.split(r"[|]", t):
        p = part.strip().lower()
        if p.startswith("int"): base.append("int")
        elif p.startswith("float"): base.append("float")
        elif p.startswith("number"): base.append("number")
        elif p.startswith("bool"): base.append("bool")
        elif p.startswith("str") or p.startswith("path"): base.append("string")
        elif p.startswith("object") or p.startswith("dict"): base.append("object")
        elif p.startswith("list") or p.startswith("tuple"): base.append("array")
        elif p.startswith('"auto"'): base.append("auto")
        elif p == "false": base.append("bool")
        elif p in ("null",): pass
        elif p.startswith("torch.dtype"): base.append("string")
    return sorted(set(base)) or ["any"], nullable

def conv_allowed(a):
    res = {}
    a = a.strip()
    m = re.match(r"^(>=|>)\s*(-?[\d.e]+)", a)
    if m:
        res["min"] = float(m.group(2)); res["min_exclusive"] = m.group(1) == ">"
    m = re.match(r"^(-?[\d.]+)\.\.(-?[\d.]+)", a)
    if m:
        res["min"] = float(m.group(1)); res["max"] = float(m.group(2))
    m = re.match(r"^([A-Za-z0-9_.]+(\|[A-Za-z0-9_.]+)+)(\s|$|;)", a)
    if m:
        res["enum"] = m.group(1).split("|")
    return res

rows = list(csv.reader(open(tsv), delimiter="\t"))[1:]
keys = []
for path, typ, default, allowed, source, notes in rows:
    types, nullable = conv_type(typ)
    dv, dtext = conv_default(default)
    top = path.split(".")[0]
    strict = any(path == s or path.startswith(s + ".") for s in STRICT_SECTIONS) and path not in STRICT_SECTIONS
    if path.startswith("timers.") and not path.startswith("timers.throughput."):
        strict = False
    e = {"path": path, "type": types}
    if nullable: e["nullable"] = True
    if dv is not None or dtext in ("None",):
        e["default"] = dv
    if dtext: e["default_text"] = dtext
    e.update(conv_allowed(allowed))
    if allowed: e["allowed_text"] = allowed
    e["mode"] = "strict" if strict else "lax"
    if "object" in types:
        e["children"] = "free" if path in FREE else ("closed" if (path in STRICT_SECTIONS or strict) else "open")
    if "DEPRECATED" in notes:
        e["deprecated"] = True
    m = re.search(r"alias of (?:field )?([a-z0-9_]+)", notes)
    if m and "ALIAS of bf16" not in notes:
        e["alias_of"] = m.group(1)
    e["source"] = source
    if notes: e["notes"] = notes
    keys.append(e)

os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(k, ensure_ascii=False) for k in keys) + "\n]\n")
print(f"wrote {len(keys)} keys to {out}")
