#!/usr/bin/env python3
"""Parameters of transformers' own model for each config.json in a directory, built on the meta
device (no weights, nothing downloaded): the ground truth `shared/src/architecture` is tested
against (issue 51).

    count_params.py CONFIG_DIR            print {"transformers": VERSION, "params": {name: count}}
    count_params.py CONFIG_DIR --check F  exit 1 when the counts differ from the JSON file F
    count_params.py CATALOG --write       fill each entry's "params" of the model catalog
                                          (shared/data/models.json) with transformers' count
    count_params.py CATALOG --check       exit 1 when an entry's "params" differs
    count_params.py CONFIG_DIR --lora [--check F]
                                          the adapter parameters peft adds (LoRA, each config
                                          with the target sets of LORA_CASES)

Run it with the engine environment's Python (`~/.cache/ds-studio/engine/bin/python`, made by
`ds-studio engine setup`), which has the transformers the runner trains with. A `gemma3` config
(Gemma 3 with its vision tower) is counted as its text model, as ds-studio reads it.
"""
import json
import os
import sys

import torch
import transformers
from transformers import AutoConfig, AutoModelForCausalLM


# (rank, targets) tried on every config: every linear layer, and the attention's own names
# where the family has them (GPT-2 and GPT-NeoX name theirs differently).
LORA_CASES = [(8, "all-linear"), (16, "q_proj,v_proj"), (4, "c_attn"), (4, "query_key_value"),
              (2, "qkv_proj,down_proj"), (2, "gate_proj,up_proj,down_proj,shared_expert_gate"),
              (4, "gate,experts"), (2, "lm_head,v_proj")]


def lora_count(path, rank, targets):
    """Adapter parameters peft adds, or None when the targets name no module of the model."""
    from peft import LoraConfig, get_peft_model
    with open(path) as f:
        cfg = json.load(f)
    if cfg.get("model_type") == "gemma3":
        cfg = cfg["text_config"]
    kind = cfg.pop("model_type")
    config = AutoConfig.for_model(kind, **cfg)
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(config)
        wanted = targets if targets == "all-linear" else targets.split(",")
        try:
            peft = get_peft_model(model, LoraConfig(r=rank, target_modules=wanted, lora_dropout=0.0))
        except ValueError:
            return None
    return sum(p.numel() for p in peft.parameters() if p.requires_grad)


def lora(folder):
    import peft
    names = sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json"))
    rows = []
    for n in names:
        for rank, targets in LORA_CASES:
            got = lora_count(os.path.join(folder, n + ".json"), rank, targets)
            if got is not None:
                rows.append({"model": n, "rank": rank, "targets": targets, "params": got})
    got = {"peft": peft.__version__, "transformers": transformers.__version__, "cases": rows}
    if "--check" in sys.argv:
        with open(sys.argv[sys.argv.index("--check") + 1]) as f:
            want = json.load(f)
        if want != got:
            print(f"LoRA parameter counts differ from peft {peft.__version__}'s", file=sys.stderr)
            sys.exit(1)
        print(f"LoRA parameter counts: {len(rows)} cases agree with peft {peft.__version__}")
    else:
        print(json.dumps(got, indent=1))


def count(path):
    with open(path) as f:
        return count_config(json.load(f))


def count_config(cfg):
    if cfg.get("model_type") == "gemma3":
        cfg = dict(cfg["text_config"])
        cfg.setdefault("model_type", "gemma3_text")
    cfg = dict(cfg)
    kind = cfg.pop("model_type")
    config = AutoConfig.for_model(kind, **cfg)
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(config)
    return sum(p.numel() for p in model.parameters())


def catalog(path):
    with open(path) as f:
        cat = json.load(f)
    got = {m["name"]: count_config(m["config"]) for m in cat["models"]}
    if "--write" in sys.argv:
        for m in cat["models"]:
            m["params"] = got[m["name"]]
        cat["transformers"] = transformers.__version__
        with open(path, "w") as f:
            json.dump(cat, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(f"{path}: {len(got)} models counted by transformers {transformers.__version__}")
        return
    wrong = [(m["name"], m.get("params"), got[m["name"]]) for m in cat["models"] if m.get("params") != got[m["name"]]]
    for name, a, b in wrong:
        print(f"  {name}: catalog {a}, transformers {b}", file=sys.stderr)
    if wrong:
        print(f"{path}: {len(wrong)} parameter counts differ from transformers {transformers.__version__}'s", file=sys.stderr)
        sys.exit(1)
    print(f"model catalog: {len(got)} models agree with transformers {transformers.__version__}")


def main():
    folder = sys.argv[1]
    if "--lora" in sys.argv:
        return lora(folder)
    if folder.endswith(".json"):
        return catalog(folder)
    names = sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json"))
    got = {
        "transformers": transformers.__version__,
        "params": {n: count(os.path.join(folder, n + ".json")) for n in names},
    }
    if "--check" in sys.argv:
        with open(sys.argv[sys.argv.index("--check") + 1]) as f:
            want = json.load(f)
        if want != got:
            print("model parameter counts differ from transformers':", file=sys.stderr)
            for n in sorted(set(want["params"]) | set(got["params"])):
                a, b = want["params"].get(n), got["params"].get(n)
                if a != b:
                    print(f"  {n}: fixture {a}, transformers {b}", file=sys.stderr)
            if want.get("transformers") != got["transformers"]:
                print(f"  transformers {want.get('transformers')} in the fixture, {got['transformers']} here", file=sys.stderr)
            sys.exit(1)
        print(f"model parameter counts: {len(names)} configs agree with transformers {got['transformers']}")
    else:
        print(json.dumps(got, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
