#!/usr/bin/env python3
"""ds-studio built-in workload under the Hugging Face Trainer, launched as its users launch it:

    torchrun --nproc_per_node N hf_train.py --size tiny --deepspeed ds_config.json \
        --output_dir out --max_steps 20 [any TrainingArguments flag ...]

A randomly initialised GPT-2 causal LM (`GPT2LMHeadModel` from a `GPT2Config`, the built-in sizes
of gpt_train.py: layers, width, heads, vocabulary, sequence; nothing is downloaded) trained by a
`transformers.Trainer` on synthetic tokens (each token an affine function of the one before, so the
loss falls from log(vocab)). `TrainingArguments(deepspeed=...)` receives the config as saved:
the Trainer and Accelerate fill its "auto" values exactly as they do for every HF user.

Rank 0 writes the loss through DeepSpeed's monitor (`Train/Samples/train_loss`), prints the dict
the Trainer handed to `deepspeed.initialize` once training starts (and writes it to the file
$DS_STUDIO_HANDED names, where the runner reads it)

    ds-studio-handed {...}

and at the end the same result line as gpt_train.py

    ds-studio-result {"params": ..., "samples_per_sec": ..., "peak_memory_mb": ..., "steps": ...}
"""
import json
import math
import os
import time
from dataclasses import dataclass, field

import torch
import transformers
from transformers import (
    GPT2Config,
    GPT2LMHeadModel,
    HfArgumentParser,
    Trainer,
    TrainerCallback,
    TrainingArguments,
)

import rehearsal
from gpt_train import SIZES, peak_memory_mb


@dataclass
class WorkloadArgs:
    size: str = field(default="tiny", metadata={"help": "built-in size", "choices": sorted(SIZES)})
    train_samples: int = field(
        default=0, metadata={"help": "dataset length (0: enough for max_steps)"}
    )
    model_config: str = field(
        default="", metadata={"help": "rehearse this config.json's model instead of --size"}
    )
    seq_len: int = field(default=2048, metadata={"help": "tokens per sample of a rehearsal"})
    lora_rank: int = field(default=0, metadata={"help": "LoRA adapters of this rank (peft)"})
    lora_targets: str = field(default="all-linear", metadata={"help": "modules the adapters go on"})


# The synthetic tokens (x[t+1] = (5 x[t] + 3) mod vocab) are rehearsal.py's, for both models.
Tokens = rehearsal.Tokens


def model_of(size):
    c = SIZES[size]
    config = GPT2Config(
        n_layer=c["layers"],
        n_embd=c["d_model"],
        n_head=c["heads"],
        vocab_size=c["vocab"],
        n_positions=c["seq"],
        resid_pdrop=0.0,
        embd_pdrop=0.0,
        attn_pdrop=0.0,
    )
    return GPT2LMHeadModel(config)


def plain(v):
    """JSON for a config dict: Python's float("inf") (HF sets `steps_per_print` to it) as the
    string "inf", anything else JSON cannot hold as its string."""
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


def print_handed(engine):
    """Prints the dict handed to deepspeed.initialize (the engine keeps it as `config`), and
    writes it where the runner reads it ($DS_STUDIO_HANDED)."""
    cfg = getattr(engine, "config", None)
    if not isinstance(cfg, dict):
        return
    text = json.dumps(plain(cfg))
    print("ds-studio-handed " + text, flush=True)
    path = os.environ.get("DS_STUDIO_HANDED")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


class Report(TrainerCallback):
    """The loss to DeepSpeed's monitor, the handed dict, and samples/s from the second step on
    (the first pays for warm-up)."""

    def __init__(self):
        self.trainer = None
        self.start = None
        self.steps_timed = 0

    def on_train_begin(self, args, state, control, **kw):
        if state.is_world_process_zero:
            print_handed(self.trainer.model_wrapped)

    def on_step_end(self, args, state, control, **kw):
        if state.global_step == 1:
            self.start = time.time()
        elif self.start is not None:
            self.steps_timed += 1

    def on_log(self, args, state, control, logs=None, **kw):
        engine = self.trainer.model_wrapped
        monitor = getattr(engine, "monitor", None)
        if state.is_world_process_zero and logs and "loss" in logs and monitor and monitor.enabled:
            monitor.write_events([("Train/Samples/train_loss", float(logs["loss"]), engine.global_samples)])


def main():
    parser = HfArgumentParser((WorkloadArgs, TrainingArguments))
    work, args = parser.parse_args_into_dataclasses()
    torch.manual_seed(args.seed)
    cfg = dict(SIZES[work.size])
    info = None
    if work.model_config:
        model, info = rehearsal.build(
            work.model_config, work.lora_rank, work.lora_targets, args.gradient_checkpointing
        )
        cfg.update(vocab=info["vocab"], seq=work.seq_len)
        params = info["params"]
    else:
        model = model_of(work.size)
        params = sum(p.numel() for p in model.parameters())
    world = max(args.world_size, 1)
    global_batch = args.per_device_train_batch_size * args.gradient_accumulation_steps * world
    n = work.train_samples or max(args.max_steps, 1) * global_batch
    report = Report()
    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=Tokens(n, cfg["seq"], cfg["vocab"], args.seed),
        callbacks=[report],
    )
    report.trainer = trainer
    if args.process_index == 0:
        shape = (
            rehearsal.describe(info, cfg["seq"])
            if info
            else f"size={work.size} params={params} layers={cfg['layers']} "
            f"d_model={cfg['d_model']} seq={cfg['seq']}"
        )
        print(
            f"ds-studio hf-trainer: transformers {transformers.__version__} {shape} "
            f"micro={args.per_device_train_batch_size} gas={args.gradient_accumulation_steps} "
            f"world={world} device={args.device}",
            flush=True,
        )
    out = trainer.train()
    engine = trainer.model_wrapped
    if args.process_index == 0:
        elapsed = time.time() - report.start if report.start else 0.0
        batch = engine.train_batch_size() if hasattr(engine, "train_batch_size") else global_batch
        device = getattr(engine, "device", args.device)
        result = {
            "params": params,
            "steps": trainer.state.global_step,
            "samples_per_sec": round(report.steps_timed * batch / elapsed, 3) if elapsed > 0 else None,
            "peak_memory_mb": round(peak_memory_mb(torch.device(device)), 1),
            "final_loss": round(trainer.state.log_history[-2]["loss"], 4)
            if len(trainer.state.log_history) > 1 and "loss" in trainer.state.log_history[-2]
            else round(out.training_loss, 4),
            "initial_loss_bound": round(math.log(cfg["vocab"]), 4),
        }
        if info:
            result["trainable_params"] = info["trainable_params"]
            result.update(rehearsal.figures(info, result["samples_per_sec"], cfg["seq"]))
        print("ds-studio-result " + json.dumps(result), flush=True)
    finish()


def finish():
    """Ends the process group before Python exits: left to the interpreter's shutdown, a gloo
    rank at times aborts ("terminate called without an active exception") after training has
    succeeded, failing a two-node job that trained to the end."""
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        torch.distributed.barrier()
        torch.distributed.destroy_process_group()


def on_a_cpu_runner():
    """Without a GPU, two things in HF's device set-up assume one, and are told otherwise (as
    ../shared/tools/hf-oracle does for the first; nothing else of HF's is changed): its bf16
    check asks for a GPU (use_cpu would turn DeepSpeed off; this CPU trains in bf16, see
    ../shared/design/deepspeed-on-cpu.md), and Accelerate's state, finding no GPU backend,
    counts one process although DeepSpeed has initialised torchrun's world: it is given that
    world's size and ranks, so the Trainer's "auto" batch and Accelerate's gathers count every
    rank."""
    import accelerate.state as state
    import transformers.training_args as ta

    ta.is_torch_bf16_gpu_available = lambda *a, **k: True
    init = state.PartialState.__init__

    def counted(self, *a, **k):
        init(self, *a, **k)
        if torch.distributed.is_available() and torch.distributed.is_initialized():
            self.num_processes = torch.distributed.get_world_size()
            self.process_index = torch.distributed.get_rank()
            self.local_process_index = int(os.environ.get("LOCAL_RANK", "0"))

    state.PartialState.__init__ = counted


if __name__ == "__main__":
    if not torch.cuda.is_available():
        on_a_cpu_runner()
    main()
