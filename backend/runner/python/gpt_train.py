#!/usr/bin/env python3
"""ds-studio built-in workload: a GPT-style causal language model on synthetic tokens.

    deepspeed --num_gpus N gpt_train.py --deepspeed_config ds_config.json --size tiny --max-steps 20

It honours the DeepSpeed config (batch sizes, optimizer, scheduler, precision, ZeRO, offload):
the engine is built from it with `deepspeed.initialize`. The tokens follow a simple learnable
rule (each token is an affine function of the one before), so the loss falls from log(vocab).
Rank 0 writes `Train/Samples/train_loss` through `engine.monitor.write_events` (the plain engine
never writes the loss itself) and prints, at the end, one line

    ds-studio-result {"params": ..., "samples_per_sec": ..., "peak_memory_mb": ..., "steps": ...}

Sizes: tiny (CPU tests, ~0.2M parameters) up to xl (~1.3B, for a real GPU). With
`--model-config config.json [--seq-len N] [--lora-rank R]` it rehearses the user's own model
instead (rehearsal.py: transformers' model of that config, random weights, LoRA if asked).

A config with an `activation_checkpointing` section gets DeepSpeed's activation checkpointing
(`deepspeed.checkpointing`, configured from that section) on every block: each block keeps only
its input and recomputes the rest in the backward pass, as the memory model assumes.
"""
import argparse
import json
import math
import os
import resource
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

import deepspeed

import rehearsal

# Keep in step with `GptSize` in shared/src/api/jobs.rs (the memory estimate uses it).
SIZES = {
    "tiny": dict(layers=2, d_model=64, heads=4, vocab=512, seq=64),
    "small": dict(layers=6, d_model=512, heads=8, vocab=8192, seq=256),
    "medium": dict(layers=12, d_model=768, heads=12, vocab=32000, seq=512),
    "large": dict(layers=24, d_model=1024, heads=16, vocab=32000, seq=1024),
    "xl": dict(layers=24, d_model=2048, heads=16, vocab=32000, seq=1024),
}


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.out = nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, layers, d_model, heads, vocab, seq):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(seq, d_model)
        self.blocks = nn.ModuleList(Block(d_model, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)
        self.head.weight = self.tok.weight  # tied, as in GPT-2
        self.checkpoint = None  # deepspeed.checkpointing.checkpoint when the config asks
        for m in self.modules():  # GPT-2's initialisation keeps the first logits small
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, mean=0.0, std=0.02)
            if isinstance(m, nn.Linear) and m.bias is not None:
                nn.init.zeros_(m.bias)

    def forward(self, idx):
        pos = torch.arange(idx.shape[1], device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        for b in self.blocks:
            x = self.checkpoint(b, x) if self.checkpoint and self.training else b(x)
        return self.head(self.ln(x))


def batch(micro, seq, vocab, device, gen):
    """Tokens where each follows from the one before: x[t+1] = (5 x[t] + 3) mod vocab."""
    x = torch.empty(micro, seq + 1, dtype=torch.long)
    x[:, 0] = torch.randint(0, vocab, (micro,), generator=gen)
    for t in range(seq):
        x[:, t + 1] = (5 * x[:, t] + 3) % vocab
    return x.to(device)


def wants_checkpointing(config_path):
    """Whether the DeepSpeed config (the JSON file the runner wrote) has an
    `activation_checkpointing` section."""
    return "activation_checkpointing" in rehearsal.ds_config(config_path)


def peak_memory_mb(device):
    if device.type == "cuda":
        return torch.cuda.max_memory_allocated(device) / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", default="tiny", choices=sorted(SIZES))
    p.add_argument("--max-steps", type=int, default=20)
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--local_rank", type=int, default=int(os.environ.get("LOCAL_RANK", 0)))
    rehearsal.add_arguments(p)
    p = deepspeed.add_config_arguments(p)
    args = p.parse_args()
    cfg = dict(SIZES[args.size])
    torch.manual_seed(args.seed)
    deepspeed.init_distributed()
    checkpointing = wants_checkpointing(getattr(args, "deepspeed_config", None))
    info = None
    if args.model_config:
        config_path = getattr(args, "deepspeed_config", None)
        model, info = rehearsal.build(
            args.model_config,
            args.lora_rank,
            args.lora_targets,
            checkpointing,
            config_path if rehearsal.zero3(config_path) else None,
        )
        cfg.update(vocab=info["vocab"], seq=args.seq_len)
        params = info["params"]
    else:
        model = GPT(**cfg)
        params = sum(p.numel() for p in model.parameters())
    engine, _, _, _ = deepspeed.initialize(
        args=args, model=model, model_parameters=[p for p in model.parameters() if p.requires_grad]
    )
    if checkpointing and info is None:
        deepspeed.checkpointing.configure(None, deepspeed_config=args.deepspeed_config)
        model.checkpoint = deepspeed.checkpointing.checkpoint
    rank = engine.global_rank
    micro = engine.train_micro_batch_size_per_gpu()
    gas = engine.gradient_accumulation_steps()
    gen = torch.Generator().manual_seed(args.seed + rank)
    if rank == 0:
        shape = (
            rehearsal.describe(info, cfg["seq"])
            if info
            else f"size={args.size} params={params} layers={cfg['layers']} "
            f"d_model={cfg['d_model']} seq={cfg['seq']}"
        )
        print(
            f"ds-studio gpt: {shape} micro={micro} gas={gas} "
            f"world={engine.world_size} device={engine.device} "
            f"activation_checkpointing={'on' if checkpointing else 'off'}",
            flush=True,
        )
    samples = 0
    start = None
    for step in range(1, args.max_steps + 1):
        if step == 2:  # the first step pays for warm-up (op compile, allocation)
            start, samples = time.time(), 0
        for _ in range(gas):
            x = batch(micro, cfg["seq"], cfg["vocab"], engine.device, gen)
            if info:
                # transformers shifts the labels itself, and upcasts the logits for the loss.
                loss = engine(input_ids=x[:, :-1], labels=x[:, :-1]).loss
            else:
                logits = engine(x[:, :-1])
                loss = F.cross_entropy(
                    logits.float().reshape(-1, cfg["vocab"]), x[:, 1:].reshape(-1)
                )
            engine.backward(loss)
            engine.step()
        samples += micro * gas * engine.world_size
        if rank == 0 and engine.monitor.enabled:
            engine.monitor.write_events(
                [("Train/Samples/train_loss", loss.item(), engine.global_samples)]
            )
    elapsed = time.time() - start if start else 0.0
    if rank == 0:
        result = {
            "params": params,
            "steps": args.max_steps,
            "samples_per_sec": round(samples / elapsed, 3) if elapsed > 0 else None,
            "peak_memory_mb": round(peak_memory_mb(engine.device), 1),
            "final_loss": round(loss.item(), 4),
            "initial_loss_bound": round(math.log(cfg["vocab"]), 4),
        }
        if info:
            result["trainable_params"] = info["trainable_params"]
            result.update(rehearsal.figures(info, result["samples_per_sec"], cfg["seq"]))
        print("ds-studio-result " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
