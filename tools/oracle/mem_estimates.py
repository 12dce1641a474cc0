#!/usr/bin/env python3
"""Ground truth for the ZeRO model-states memory estimator.

Calls DeepSpeed's own count-based estimators on a fixed table of cases and prints JSON:

    deepspeed.runtime.zero.stage_1_and_2.estimate_zero2_model_states_mem_needs(
        total_params, num_gpus_per_node, num_nodes, cpu_offload, additional_buffer_factor) -> (cpu, gpu)
    deepspeed.runtime.zero.stage3.estimate_zero3_model_states_mem_needs(
        total_params, largest_layer_params, num_gpus_per_node, num_nodes,
        cpu_offload, cpu_offload_params, zero_init, additional_buffer_factor) -> (cpu, gpu, largest_layer_memory)

Output: a JSON list of {"fn": "zero2"|"zero3", "inputs": {...}, "cpu_mem_bytes": N, "gpu_mem_bytes": N}.
Every input is passed explicitly (no reliance on defaults), so the fixture is self-describing.

Run with the oracle's virtual environment (../shared/tools/ds-oracle/setup.sh), from the repo root:
    DS_ACCELERATOR=cpu ~/.cache/ds-oracle-venv/bin/python tools/oracle/mem_estimates.py \
        > shared/tests/fixtures/zero_mem_estimates.json
"""
import json
import os
import sys

os.environ.setdefault("DS_ACCELERATOR", "cpu")

import deepspeed  # noqa: E402
from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs  # noqa: E402
from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs  # noqa: E402

# (label, total_params, largest_layer_params). Largest layer = the biggest single module,
# in practice the token embedding / LM head (vocab x hidden).
MODELS = [
    ("round-125m", 125_000_000, 50_000 * 768),
    ("gpt2-125m", 124_439_808, 50_257 * 768),
    ("opt-350m", 331_196_416, 50_272 * 1024),
    ("gpt-1.3b", 1_315_758_080, 50_257 * 2048),
    ("gpt-2.7b", 2_651_307_520, 50_257 * 2560),
    ("llama-7b", 6_738_415_616, 32_000 * 4096),
    ("llama-13b", 13_015_864_320, 32_000 * 5120),
    ("llama-30b", 32_528_943_616, 32_000 * 6656),
    ("llama-70b", 68_976_648_192, 32_000 * 8192),
    ("round-70b", 70_000_000_000, 128_256 * 8192),
]

# (num_gpus_per_node, num_nodes)
HARDWARE = [(1, 1), (4, 1), (8, 1), (8, 2), (4, 4), (8, 4)]

# ZeRO-3 offload combinations: (cpu_offload [optimizer], cpu_offload_params).
# (False, True) is not listed by DeepSpeed's own *_all_cold printer; the function then
# ignores cpu_offload_params. One such case per model documents that.
Z3_COMBOS = [(True, True), (True, False), (False, False)]

DEFAULT_BUFFER_FACTOR = 1.5


def zero2_case(total_params, gpus, nodes, cpu_offload, factor=DEFAULT_BUFFER_FACTOR):
    inputs = dict(total_params=total_params, num_gpus_per_node=gpus, num_nodes=nodes, cpu_offload=cpu_offload,
                  additional_buffer_factor=factor)
    cpu, gpu = estimate_zero2_model_states_mem_needs(**inputs)
    return {"fn": "zero2", "inputs": inputs, "cpu_mem_bytes": int(cpu), "gpu_mem_bytes": int(gpu)}


def zero3_case(total_params, largest, gpus, nodes, cpu_offload, cpu_offload_params, zero_init,
               factor=DEFAULT_BUFFER_FACTOR):
    inputs = dict(total_params=total_params, largest_layer_params=largest, num_gpus_per_node=gpus, num_nodes=nodes,
                  cpu_offload=cpu_offload, cpu_offload_params=cpu_offload_params, zero_init=zero_init,
                  additional_buffer_factor=factor)
    cpu, gpu, largest_layer_memory = estimate_zero3_model_states_mem_needs(**inputs)
    assert largest_layer_memory == 4 * largest
    return {"fn": "zero3", "inputs": inputs, "cpu_mem_bytes": int(cpu), "gpu_mem_bytes": int(gpu)}


def cases():
    out = []
    for i, (_label, total, largest) in enumerate(MODELS):
        # Three hardware setups per model, rotating through the table so every
        # gpus-per-node (1, 4, 8) and node count (1, 2, 4) appears with small and large models.
        hw = [HARDWARE[(i + k) % len(HARDWARE)] for k in (0, 2, 4)]
        for gpus, nodes in hw:
            for cpu_offload in (True, False):
                out.append(zero2_case(total, gpus, nodes, cpu_offload))
            for cpu_offload, cpu_offload_params in Z3_COMBOS:
                for zero_init in (True, False):
                    out.append(zero3_case(total, largest, gpus, nodes, cpu_offload, cpu_offload_params, zero_init))
        gpus, nodes = hw[0]
        out.append(zero3_case(total, largest, gpus, nodes, False, True, True))
    # Non-default additional_buffer_factor.
    for factor in (1.0, 2.0):
        out.append(zero2_case(6_738_415_616, 8, 2, True, factor))
        out.append(zero2_case(6_738_415_616, 8, 2, False, factor))
        out.append(zero3_case(68_976_648_192, 32_000 * 8192, 8, 4, True, True, False, factor))
        out.append(zero3_case(68_976_648_192, 32_000 * 8192, 8, 4, True, False, True, factor))
    return out


def main():
    result = cases()
    # One case per line: easy to diff and to read in a test failure.
    sys.stdout.write("[\n" + ",\n".join(json.dumps(case) for case in result) + "\n]\n")
    print(f"mem_estimates: {len(result)} cases from DeepSpeed {deepspeed.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
