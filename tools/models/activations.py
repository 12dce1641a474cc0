#!/usr/bin/env python3
"""Bytes of activations transformers' own model keeps for the backward pass, per token and layer,
for each family (issue 51), measured on CPU with torch's saved-tensor hooks: every tensor
autograd saves is recorded by its storage (each storage counted once, parameters excluded).
A model of one and of two layers is run on the same tokens; the difference is one layer's cost.

    activations.py [--attention sdpa|eager] [--checkpointing] [--seq N]
    activations.py --grid [--lora R --lora-targets all-linear]   the fixture's rows

With --lora the model is wrapped by peft (adapters of rank R, no dropout) and cast to 16-bit
as DeepSpeed's engine casts it: the base frozen, its linear layers' inputs kept only where an
adapter needs them.

Prints one JSON line per family: hidden, intermediate, heads, kv heads, head dim, experts, and
the bytes per token and layer. Run with the engine environment's Python.
"""
import argparse
import json
import sys

import torch
from transformers import AutoConfig, AutoModelForCausalLM

BASE = dict(hidden_size=256, intermediate_size=704, num_attention_heads=4, num_key_value_heads=2,
            vocab_size=512, head_dim=64)
FAMILIES = {
    "llama": {},
    "mistral": {},
    "qwen2": {},
    "qwen3": {},
    "gemma": {},
    "gemma2": {},
    "gemma3_text": {},
    "phi3": {"pad_token_id": 0},
    "mixtral": {"num_local_experts": 4, "num_experts_per_tok": 2},
    "qwen2_moe": {"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 192,
                  "shared_expert_intermediate_size": 512},
    "qwen3_moe": {"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 192},
    # Attention dropout off: on a GPU, sdpa's flash kernel applies it without keeping the
    # score matrix, which the CPU kernel would keep.
    "gpt2": {"n_embd": 256, "n_head": 4, "n_positions": 1024, "vocab_size": 512, "attn_pdrop": 0.0},
    "gpt_neox": {"num_key_value_heads": None, "head_dim": None},
}


def saved_bytes(model, ids):
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen = {}

    def pack(t):
        try:
            s = t.untyped_storage()
            ptr = s.data_ptr()
            if ptr not in params and ptr != 0:
                seen[ptr] = max(seen.get(ptr, 0), s.nbytes())
        except (RuntimeError, NotImplementedError):
            pass
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(input_ids=ids, labels=ids)
    total = sum(seen.values())
    del out
    return total


def build(kind, layers, args, overrides):
    extra = dict(FAMILIES[kind], **overrides)
    if kind == "gpt2":
        cfg = dict(extra, n_layer=layers)
    else:
        cfg = {k: v for k, v in dict(BASE, **extra).items() if v is not None}
        if kind == "gpt_neox":
            cfg.pop("num_key_value_heads", None)
            cfg.pop("head_dim", None)
        cfg["num_hidden_layers"] = layers
    config = AutoConfig.for_model(kind, **cfg)
    torch.manual_seed(0)
    try:
        model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16,
                                                 attn_implementation=args.attention)
    except ValueError:
        # Gemma 2 has no sdpa (its logit soft-capping): transformers runs it eager.
        model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16,
                                                 attn_implementation="eager")
    model.train()
    if getattr(args, "lora", 0):
        from peft import LoraConfig, get_peft_model
        targets = args.lora_targets if args.lora_targets == "all-linear" else args.lora_targets.split(",")
        model = get_peft_model(model, LoraConfig(r=args.lora, target_modules=targets, lora_dropout=0.0))
        # peft keeps the adapters in fp32; DeepSpeed's engine casts the whole module to the
        # 16-bit type it trains in (`module.bfloat16()`), adapters included.
        model.to(torch.bfloat16)
        model.train()
    if args.checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    return model, config


MOE_KEYS = {
    "mixtral": {"num_local_experts": 6, "num_experts_per_tok": 3},
    "qwen2_moe": {"num_experts": 6, "num_experts_per_tok": 3, "moe_intermediate_size": 160,
                  "shared_expert_intermediate_size": 384},
    "qwen3_moe": {"num_experts": 6, "num_experts_per_tok": 3, "moe_intermediate_size": 160},
}
# One size changed at a time, then all of them at once (the check that the sizes add up).
DELTAS = [
    {},
    {"hidden_size": 384},
    {"intermediate_size": 1152},
    {"num_attention_heads": 8},
    {"num_key_value_heads": 4},
    {"head_dim": 48},
]
TOGETHER = {"hidden_size": 384, "intermediate_size": 1152, "num_attention_heads": 6,
            "num_key_value_heads": 3, "head_dim": 48}


def grid_rows(kind):
    """The shapes measured for one family: (attention, overrides, seq, tag). `together` rows
    change every size at once: the fit leaves them out, the tests check them."""
    gpt2 = {"hidden_size": "n_embd", "num_attention_heads": "n_head", "intermediate_size": "n_inner"}
    moe = MOE_KEYS.get(kind, {})
    shapes = [(d, "fit") for d in DELTAS + [{k: v} for k, v in moe.items()]]
    shapes.append((dict(TOGETHER, **moe), "together"))
    rows = []
    for attention in ("sdpa", "eager"):
        for d, tag in shapes:
            if kind == "gpt2":
                d = {gpt2[k]: v for k, v in d.items() if k in gpt2}
                if tag == "together":
                    d = {"n_embd": 384, "n_head": 6, "n_inner": 1152}
            if kind == "gpt_neox":
                d = {k: v for k, v in d.items() if k not in ("num_key_value_heads", "head_dim")}
            for seq in (256, 192) if not d or tag == "together" else (256,):
                row = (attention, d, seq, tag)
                if row not in rows:
                    rows.append(row)
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--attention", default="sdpa")
    p.add_argument("--checkpointing", action="store_true")
    p.add_argument("--seq", type=int, default=256)
    p.add_argument("--lora", type=int, default=0, help="LoRA rank (peft): the base frozen")
    p.add_argument("--lora-targets", default="all-linear")
    p.add_argument("--families", default=",".join(FAMILIES))
    p.add_argument("--set", action="append", default=[], help="KEY=VALUE over the base shape")
    p.add_argument("--grid", action="store_true",
                   help="every family at each shape of the grid, sdpa and eager (the fixture)")
    args = p.parse_args()
    for kv in args.set:
        k, v = kv.split("=", 1)
        BASE[k] = int(v)
    if args.grid:
        for kind in args.families.split(","):
            for attention, overrides, seq, tag in grid_rows(kind):
                measure(kind, argparse.Namespace(attention=attention, checkpointing=False, seq=seq,
                                                 lora=args.lora, lora_targets=args.lora_targets),
                        overrides, tag)
        return
    for kind in args.families.split(","):
        measure(kind, args, {}, "one")


def measure(kind, args, overrides, tag):
    ids = torch.randint(0, 512, (1, args.seq), generator=torch.Generator().manual_seed(0))
    if True:
        one, config = build(kind, 1, args, overrides)
        two, _ = build(kind, 2, args, overrides)
        a, b = saved_bytes(one, ids), saved_bytes(two, ids)
        h = getattr(config, "hidden_size", None) or config.n_embd
        row = {
            "family": kind,
            "shape": tag,
            "attention": one.config._attn_implementation,
            "checkpointing": args.checkpointing,
            "lora": getattr(args, "lora", 0) and f"{args.lora}:{args.lora_targets}",
            "seq": args.seq,
            "hidden": h,
            "intermediate": getattr(config, "intermediate_size", None) or getattr(config, "n_inner", None),
            "heads": getattr(config, "num_attention_heads", None) or config.n_head,
            "kv_heads": getattr(config, "num_key_value_heads", None),
            "head_dim": getattr(config, "head_dim", None),
            "experts": getattr(config, "num_local_experts", None) or getattr(config, "num_experts", None),
            "experts_per_token": getattr(config, "num_experts_per_tok", None),
            "expert_intermediate": getattr(config, "moe_intermediate_size", None),
            "shared_intermediate": getattr(config, "shared_expert_intermediate_size", None),
            "layer_bytes_per_token": (b - a) / args.seq,
            "rest_bytes_per_token": (2 * a - b) / args.seq,
        }
        row["factor"] = row["layer_bytes_per_token"] / h
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    sys.exit(main())
