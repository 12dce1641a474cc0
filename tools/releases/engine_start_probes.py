#!/usr/bin/env python3
"""Probes for the engine-start rules (`shared/src/validate/rules/{engine_start,zenflow}.rs`) and
DeepSpeed's engine verdict on each, in the releases where those rules change:

    ../shared/tools/ds-oracle/setup.sh 0.17.5 0.18.2 0.18.3 0.18.5 0.18.6 0.19.3 0.19.7 0.19.8
    python3 tools/releases/engine_start_probes.py > shared/tests/fixtures/releases/engine_start_probes.jsonl

Each probe goes through `../shared/tools/ds-oracle/run --deepspeed V --engine` (world size 1,
the config as a dict; about 3 minutes per release on 2 cores, most of it building DeepSpeed's CPU
ops the first time). One line per probe and release:

    {"id": "Z2", "release": "0.19.8", "config": {...}, "verdict": "rejected",
     "error": "ValueError: Zenflow must be used with cpu offload", "environment": false}

`shared/tests/conformance.rs` (`engine_start_probes_match`) checks ds-studio against every line
the oracle does not mark environmental. RELEASES="0.19.8" limits the run.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLE = os.path.join(ROOT, "..", "shared", "tools", "ds-oracle", "run")
RELEASES = os.environ.get("RELEASES", "0.17.5 0.18.2 0.18.3 0.18.5 0.18.6 0.19.3 0.19.7 0.19.8").split()

OFF = {"device": "cpu"}
ADAM = {"type": "Adam", "params": {"lr": 1e-3}}


def c(**kw):
    return dict({"train_batch_size": 1}, **kw)


FP16_MASTER = {"fp16_master_weights_and_grads": True}
BF16_MASTER = {"enabled": True, "bf16_master_weights_and_grads": True}
PROBES = {
    # ZenFlow: configure_zenflow and ZenFlowZeroOptimizer.
    "Z1": c(zero_optimization={"stage": 2, "offload_optimizer": OFF, "zenflow": {}}, optimizer=ADAM),
    "Z2": c(zero_optimization={"stage": 2, "zenflow": {}}, optimizer=ADAM),
    "Z3": c(zero_optimization={"zenflow": {"select_strategy": "step"}}),
    "Z4": c(zero_optimization={"zenflow": {"select_strategy": "step", "select_interval": 2, "update_interval": 4}}),
    "Z5": c(zero_optimization={"zenflow": {"select_strategy": "step", "select_interval": 4, "update_interval": 2}}),
    "Z6": c(zero_optimization={"zenflow": {"select_strategy": "epoch", "select_interval": 1, "update_interval": 4}}),
    "Z7": c(zero_optimization={"zenflow": {}}),
    "Z8": c(zero_optimization={"zenflow": {"select_interval": 4}}),
    "Z9": c(zero_optimization={"zenflow": {"select_strategy": "step", "select_interval": 2}}),
    "Z10": c(zero_optimization={"stage": 1, "offload_optimizer": OFF,
                                "zenflow": {"select_strategy": "step", "select_interval": 2, "update_interval": 4}},
             optimizer=ADAM),
    # Master weights need the optimizer offloaded to a DeepSpeedCPUAdam.
    "M1": c(fp16=FP16_MASTER, zero_optimization={"stage": 1, "offload_optimizer": OFF}, optimizer=ADAM),
    "M2": c(fp16=FP16_MASTER, zero_optimization={"stage": 2, "offload_optimizer": OFF}),
    "M3": c(fp16=FP16_MASTER, zero_optimization={"stage": 2, "offload_optimizer": OFF},
            optimizer={"type": "Lamb", "params": {"lr": 1e-3}}),
    "M4": c(fp16=FP16_MASTER, zero_optimization={"stage": 2, "offload_optimizer": OFF},
            optimizer={"type": "AdamW", "params": {"lr": 1e-3, "torch_adam": True}}),
    "M5": c(fp16=FP16_MASTER, zero_optimization={"stage": 3, "offload_optimizer": OFF}, optimizer=ADAM),
    "M6": c(fp16=FP16_MASTER, zero_optimization={"stage": 3}, optimizer=ADAM),
    "M7": c(fp16=FP16_MASTER, zero_optimization={"stage": 2, "cpu_offload": True}, optimizer=ADAM),
    "M8": c(fp16=FP16_MASTER, zero_optimization={"stage": 2, "offload_optimizer": OFF},
            optimizer={"type": "SGD", "params": {"lr": 1e-3}}),
    "B1": c(bf16=BF16_MASTER, zero_optimization={"stage": 1}, optimizer=ADAM),
    "B2": c(bf16=BF16_MASTER, zero_optimization={"stage": 1, "offload_optimizer": OFF}, optimizer=ADAM),
    "B3": c(bf16=dict(BF16_MASTER, bf16_optimizer_states=True), zero_optimization={"stage": 1}, optimizer=ADAM),
    "B4": c(bf16=dict(BF16_MASTER, bf16_optimizer_states=True),
            zero_optimization={"stage": 1, "offload_optimizer": OFF}, optimizer=ADAM),
    "B5": c(bf16=BF16_MASTER, zero_optimization={"stage": 3}, optimizer=ADAM),
    # compute_grad_norm false with gradient clipping.
    "C1": c(zero_optimization={"stage": 2, "compute_grad_norm": False}, gradient_clipping=0),
    "C2": c(zero_optimization={"stage": 2, "compute_grad_norm": False}, gradient_clipping=1.0),
    "C3": c(zero_optimization={"stage": 1, "compute_grad_norm": False}),
    "C4": c(zero_optimization={"stage": 1, "compute_grad_norm": False, "zenflow": {}, "offload_optimizer": OFF},
            gradient_clipping=0.5, optimizer=ADAM),
    "C5": c(zero_optimization={"stage": 2, "compute_grad_norm": False, "offload_optimizer": OFF},
            gradient_clipping=0, optimizer=ADAM),
    "C6": c(zero_optimization={"stage": 2, "compute_grad_norm": False, "zenflow": {}, "offload_optimizer": OFF},
            gradient_clipping=0, optimizer=ADAM),
    "C7": c(zero_optimization={"stage": 1, "compute_grad_norm": False}, gradient_clipping=0,
            bf16={"enabled": True}, data_types={"grad_accum_dtype": "fp32"}),
    "C8": c(zero_optimization={"stage": 2, "compute_grad_norm": False}, gradient_clipping=0,
            bf16={"enabled": True}, data_types={"grad_accum_dtype": "fp32"}),
    # tensor_parallel.autotp_size read from the raw dict.
    "T1": c(tensor_parallel={"autotp_size": "auto"}),
    "T2": c(tensor_parallel={"autotp_size": "1"}),
    "T3": c(tensor_parallel={"autotp_size": 1}),
    "T4": c(tensor_parallel={"autotp_size": ""}),
    # log_level applied when the engine starts.
    "L1": c(log_level="INFO"),
    "L2": c(log_level=None),
    "L3": c(log_level=""),
    # The checkpoint writer.
    "W1": c(checkpoint={"writer": {}}),
    "W2": c(checkpoint={"writer": None}),
}


def main():
    cases = "".join(json.dumps({"id": k, "config": v, "world_size": 1}) + "\n" for k, v in PROBES.items())
    for release in RELEASES:
        out = subprocess.run([ORACLE, "--deepspeed", release, "--engine"], input=cases, text=True,
                             capture_output=True, check=True).stdout
        for line in out.splitlines():
            v = json.loads(line)
            print(json.dumps({"id": v["id"], "release": release, "config": PROBES[v["id"]],
                              "verdict": v["verdict"], "error": v.get("error", ""),
                              "environment": bool(v.get("environment"))}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
