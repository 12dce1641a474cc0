#!/usr/bin/env python3
"""ds-studio built-in workload under Hugging Face Accelerate, launched as its users launch it:

    accelerate launch --config_file accelerate_config.yaml accelerate_train.py --size tiny \
        --max_steps 20 [--per_device_train_batch_size 8 --gradient_accumulation_steps 1 ...]

The set-up of accelerate's examples/by_feature/deepspeed_with_config_support.py (the script the
validator's Accelerate model follows): `DeepSpeedPlugin(hf_ds_config=...)` with the config as
saved (the file the accelerate config's `deepspeed_config_file` names), `Accelerator(...,
gradient_accumulation_steps=...)`, `DummyOptim`/`DummyScheduler` when the config has an optimizer
or a scheduler (torch AdamW otherwise), then `accelerator.prepare`, which fills the "auto" values
from the script's own arguments and hands the dict to `deepspeed.initialize`. The model and the
tokens are hf_train.py's (a GPT-2 of the built-in size, synthetic tokens).

Rank 0 prints `ds-studio-handed {...}` (the dict DeepSpeed received), writes the loss through
DeepSpeed's monitor, and ends with gpt_train.py's `ds-studio-result {...}` line.
"""
import argparse
import json
import math
import os
import time

import torch
from accelerate import Accelerator, DeepSpeedPlugin
from accelerate.utils import DummyOptim, DummyScheduler

import rehearsal
from gpt_train import SIZES, peak_memory_mb
from hf_train import Tokens, finish, model_of, on_a_cpu_runner, print_handed


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", default="tiny", choices=sorted(SIZES))
    p.add_argument("--max_steps", type=int, default=20)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--per_device_train_batch_size", type=int, default=8)
    p.add_argument("--gradient_accumulation_steps", type=int, default=1)
    p.add_argument("--learning_rate", type=float, default=5e-5)
    p.add_argument("--weight_decay", type=float, default=0.0)
    p.add_argument("--warmup_steps", type=float, default=0)
    p.add_argument(
        "--deepspeed_config_file",
        default=os.environ.get("ACCELERATE_DEEPSPEED_CONFIG_FILE"),
        help="default: the accelerate config's deepspeed_config_file",
    )
    rehearsal.add_arguments(p)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    cfg = dict(SIZES[args.size])
    plugin = DeepSpeedPlugin(hf_ds_config=args.deepspeed_config_file)
    accelerator = Accelerator(
        deepspeed_plugin=plugin, gradient_accumulation_steps=args.gradient_accumulation_steps
    )
    ds_cfg = accelerator.state.deepspeed_plugin.deepspeed_config
    info = None
    if args.model_config:
        model, info = rehearsal.build(args.model_config, args.lora_rank, args.lora_targets)
        cfg.update(vocab=info["vocab"], seq=args.seq_len)
        params = info["params"]
    else:
        model = model_of(args.size)
        params = sum(p.numel() for p in model.parameters())
    world = accelerator.num_processes
    micro = args.per_device_train_batch_size
    gas = args.gradient_accumulation_steps
    n = args.max_steps * micro * gas * world
    loader = torch.utils.data.DataLoader(
        Tokens(n, cfg["seq"], cfg["vocab"], args.seed), shuffle=True, batch_size=micro
    )
    opt_class = DummyOptim if "optimizer" in ds_cfg else torch.optim.AdamW
    trained = [p for p in model.parameters() if p.requires_grad]
    optimizer = opt_class(trained, lr=args.learning_rate, weight_decay=args.weight_decay)
    objs = [model, optimizer, loader]
    if "scheduler" in ds_cfg:
        warmup = args.warmup_steps if args.warmup_steps >= 1 else args.warmup_steps * args.max_steps
        objs.append(
            DummyScheduler(optimizer, total_num_steps=args.max_steps, warmup_num_steps=int(warmup))
        )
    prepared = accelerator.prepare(*objs)
    engine, optimizer, loader = prepared[0], prepared[1], prepared[2]
    scheduler = prepared[3] if len(prepared) > 3 else None
    rank0 = accelerator.is_main_process
    if rank0:
        shape = (
            rehearsal.describe(info, cfg["seq"])
            if info
            else f"size={args.size} params={params} layers={cfg['layers']} "
            f"d_model={cfg['d_model']} seq={cfg['seq']}"
        )
        print(
            f"ds-studio accelerate: {shape} micro={micro} gas={gas} world={world} "
            f"device={accelerator.device} mixed_precision={accelerator.mixed_precision}",
            flush=True,
        )
        print_handed(engine)
    engine.train()
    steps, samples, start = 0, 0, None
    loss = None
    while steps < args.max_steps:
        for batch in loader:
            with accelerator.accumulate(engine):
                loss = engine(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
                if scheduler is not None:
                    scheduler.step()
                optimizer.zero_grad()
            if not accelerator.sync_gradients:
                continue
            steps += 1
            if steps == 1:  # the first step pays for warm-up: timed from its end
                start = time.time()
            else:
                samples += micro * gas * world
            if rank0 and engine.monitor.enabled:
                engine.monitor.write_events(
                    [("Train/Samples/train_loss", loss.item(), engine.global_samples)]
                )
            if steps >= args.max_steps:
                break
    elapsed = time.time() - start if start else 0.0
    if rank0:
        result = {
            "params": params,
            "steps": steps,
            "samples_per_sec": round(samples / elapsed, 3) if elapsed > 0 else None,
            "peak_memory_mb": round(peak_memory_mb(accelerator.device), 1),
            "final_loss": round(loss.item(), 4) if loss is not None else None,
            "initial_loss_bound": round(math.log(cfg["vocab"]), 4),
        }
        if info:
            result["trainable_params"] = info["trainable_params"]
            result.update(rehearsal.figures(info, result["samples_per_sec"], cfg["seq"]))
        print("ds-studio-result " + json.dumps(result), flush=True)
    finish()


if __name__ == "__main__":
    if not torch.cuda.is_available():
        on_a_cpu_runner()
    main()
