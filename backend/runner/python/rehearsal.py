#!/usr/bin/env python3
"""A rehearsal: the user's own model, at its real shape, trained a few steps by the built-in
workloads (gpt_train.py, hf_train.py, accelerate_train.py take `--model-config` instead of
`--size`).

The model is built from its config.json with random weights (`AutoModelForCausalLM.from_config`:
nothing is downloaded), with sdpa attention (eager where transformers has no sdpa, Gemma 2),
optionally wrapped with LoRA adapters (peft: `--lora-rank R --lora-targets q_proj,v_proj`, or
every linear layer), and trained on synthetic tokens of the model's vocabulary at `--seq-len`.
The result line then also says the model's family, its trainable parameters, tokens/s and the
model's TFLOP/s (6 FLOPs per active parameter and token for full training, 4 with LoRA: the
frozen weights get no gradient).
"""
import json

import torch


def add_arguments(p):
    """The rehearsal's flags on an argparse parser (the HF scripts use their dataclass)."""
    p.add_argument("--model-config", "--model_config", dest="model_config", default=None)
    p.add_argument("--seq-len", "--seq_len", dest="seq_len", type=int, default=2048)
    p.add_argument("--lora-rank", "--lora_rank", dest="lora_rank", type=int, default=0)
    p.add_argument("--lora-targets", "--lora_targets", dest="lora_targets", default="all-linear")


def read_config(path):
    """The config.json, and the text model's part of a multimodal Gemma 3."""
    from transformers import AutoConfig

    with open(path) as f:
        cfg = json.load(f)
    if cfg.get("model_type") == "gemma3" and isinstance(cfg.get("text_config"), dict):
        cfg = {"model_type": "gemma3_text", **cfg["text_config"]}
    cfg = dict(cfg)
    kind = cfg.pop("model_type")
    return kind, AutoConfig.for_model(kind, **cfg)


def numel(p):
    """A parameter's elements, also when ZeRO-3 has partitioned it (`zero.Init`)."""
    return getattr(p, "ds_numel", None) or p.numel()


def ds_config(path):
    """The DeepSpeed config (the JSON file the runner wrote) as a dict; {} when there is none
    or it cannot be read."""
    if not path:
        return {}
    try:
        with open(path) as f:
            cfg = json.load(f)
    except (OSError, ValueError):
        return {}
    return cfg if isinstance(cfg, dict) else {}


def zero3(ds_config_path):
    """Whether the DeepSpeed config is ZeRO stage 3."""
    zero = ds_config(ds_config_path).get("zero_optimization")
    try:
        return isinstance(zero, dict) and int(zero.get("stage", 0)) == 3
    except (TypeError, ValueError):
        return False


def build(
    model_config,
    lora_rank=0,
    lora_targets="all-linear",
    gradient_checkpointing=False,
    zero3_config=None,
):
    """The model, and what the result line says of it.

    At ZeRO-3 the model is built under `deepspeed.zero.Init`, each parameter partitioned as
    it is made, so no rank holds the whole model in host memory (as the HF Trainer and
    Accelerate do by themselves; `zero3_config`, the DeepSpeed config's path, does it for the
    plain launcher's script)."""
    from transformers import AutoModelForCausalLM

    kind, config = read_config(model_config)
    attention = "eager" if kind == "gemma2" else "sdpa"
    keep = None
    if zero3_config:
        # transformers builds under zero.Init while this object lives.
        from transformers.integrations import HfDeepSpeedConfig

        keep = HfDeepSpeedConfig(zero3_config)
    model = AutoModelForCausalLM.from_config(config, attn_implementation=attention)
    del keep
    zero_init = any(hasattr(p, "ds_id") for p in model.parameters())
    params = sum(numel(p) for p in model.parameters())
    if gradient_checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if lora_rank > 0:
        from peft import LoraConfig, get_peft_model

        targets = lora_targets if lora_targets == "all-linear" else lora_targets.split(",")
        model = get_peft_model(
            model, LoraConfig(r=lora_rank, target_modules=targets, lora_dropout=0.0)
        )
        if gradient_checkpointing:
            # The frozen embeddings give no gradient for checkpointed blocks to pass on.
            model.enable_input_require_grads()
    total = sum(numel(p) for p in model.parameters())
    trainable = sum(numel(p) for p in model.parameters() if p.requires_grad)
    info = {
        "family": kind,
        # The model's own parameters (as the estimate and the catalog count them); with LoRA
        # the adapters are what it trains, and are counted there.
        "params": params,
        "with_adapters": total,
        "trainable_params": trainable,
        "vocab": config.vocab_size,
        "active_params": active_params(config, params),
        "lora": lora_rank > 0,
        "zero_init": zero_init,
    }
    return model, info


def active_params(config, params):
    """Parameters a token goes through: all but the routed experts it is not sent to."""
    total = getattr(config, "num_local_experts", None) or getattr(config, "num_experts", None)
    per_token = getattr(config, "num_experts_per_tok", None)
    if not total or not per_token:
        return params
    width = getattr(config, "moe_intermediate_size", None) or config.intermediate_size
    step = getattr(config, "decoder_sparse_step", 1) or 1
    dense = set(getattr(config, "mlp_only_layers", []) or [])
    sparse = sum(1 for i in range(config.num_hidden_layers) if i not in dense and (i + 1) % step == 0)
    return params - sparse * (total - per_token) * 3 * config.hidden_size * width


def figures(info, samples_per_sec, seq):
    """Tokens/s and the model's TFLOP/s from samples/s."""
    if not samples_per_sec:
        return {}
    tokens = samples_per_sec * seq
    flops_per_token = (4 if info["lora"] else 6) * info["active_params"]
    return {
        "tokens_per_sec": round(tokens, 1),
        "model_tflops": round(tokens * flops_per_token / 1e12, 4),
    }


def describe(info, seq):
    """The start-up line's words for the model."""
    return (
        f"model={info['family']} params={info['params']} trainable={info['trainable_params']} "
        f"seq={seq}" + (" lora" if info["lora"] else "") + (" zero.Init" if info["zero_init"] else "")
    )


class Tokens(torch.utils.data.Dataset):
    """Sequences where x[t+1] = (5 x[t] + 3) mod vocab, from a first token drawn per item."""

    def __init__(self, n, seq, vocab, seed):
        self.n, self.seq, self.vocab, self.seed = n, seq, vocab, seed

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(self.seed * 1_000_003 + i)
        first = int(torch.randint(0, self.vocab, (1,), generator=g))
        t = torch.empty(self.seq, dtype=torch.long)
        t[0] = first
        for j in range(1, self.seq):
            t[j] = (5 * t[j - 1] + 3) % self.vocab
        return {"input_ids": t, "labels": t.clone()}
