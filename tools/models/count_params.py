#!/usr/bin/env python3
"""Parameters of transformers' own model for each config.json in a directory, built on the meta
device (no weights, nothing downloaded): the ground truth `shared/src/architecture` is tested
against (issue 51).

    count_params.py CONFIG_DIR            print {"transformers": VERSION, "params": {name: count}}
    count_params.py CONFIG_DIR --check F  exit 1 when the counts differ from the JSON file F

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


def count(path):
    with open(path) as f:
        cfg = json.load(f)
    if cfg.get("model_type") == "gemma3":
        cfg = cfg["text_config"]
    kind = cfg.pop("model_type")
    config = AutoConfig.for_model(kind, **cfg)
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(config)
    return sum(p.numel() for p in model.parameters())


def main():
    folder = sys.argv[1]
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
