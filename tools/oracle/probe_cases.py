#!/usr/bin/env python3
"""Probe cases for DeepSpeed's own config parser (the ds-oracle).

Generates JSON Lines cases, one per line, for ../shared/tools/ds-oracle/run:
    {"id": ..., "config": {...} | "text": "<file text>", "world_size": N}

"config" cases are handed to DeepSpeedConfig as a dict (what json.loads gives:
16.0 stays a float); "text" cases are written to a file and parsed with hjson,
exactly like `deepspeed --deepspeed_config file.json` (hjson turns 16.0 and 5e8
into ints, see oracle_probes.md).

Regenerate the fixture (from the repo root, /work/main):
    python3 tools/oracle/probe_cases.py > /tmp/probe_cases.jsonl
    ../shared/tools/ds-oracle/run < /tmp/probe_cases.jsonl > /tmp/probe_verdicts.jsonl
    python3 tools/oracle/probe_cases.py --merge /tmp/probe_verdicts.jsonl \
        > shared/tests/fixtures/oracle_probes.jsonl
or in one go:
    python3 tools/oracle/probe_cases.py --regen ../shared/tools/ds-oracle/run \
        > shared/tests/fixtures/oracle_probes.jsonl

--merge joins the cases with the oracle's verdicts by id and writes one line per
case: {"id", "config"|"text", "world_size", "verdict", "error"}.
"""
import argparse
import json
import subprocess
import sys

CASES = []
_IDS = set()


def _add(case):
    if case["id"] in _IDS:
        raise SystemExit(f"duplicate id {case['id']}")
    _IDS.add(case["id"])
    CASES.append(case)


def nest(path, value):
    """'a.b.c', v -> {'a': {'b': {'c': v}}}"""
    out = value
    for part in reversed(path.split(".")):
        out = {part: out}
    return out


def merge(dst, src):
    for k, v in src.items():
        if k in dst and isinstance(dst[k], dict) and isinstance(v, dict):
            merge(dst[k], v)
        else:
            dst[k] = v
    return dst


def C(id, *parts, ws=1, tbs=True):
    """A dict case: train_batch_size 1 (unless tbs=False) plus the merged parts."""
    cfg = {"train_batch_size": 1} if tbs else {}
    for p in parts:
        merge(cfg, json.loads(json.dumps(p)))
    _add({"id": id, "config": cfg, "world_size": ws})


def T(id, text, ws=1):
    """A file case: text parsed with hjson by DeepSpeedConfig(path)."""
    _add({"id": id, "text": text, "world_size": ws})


def F(id, path, raw, extra="", ws=1):
    """A file case with `path` (dotted) set to the raw text `raw` on its own line."""
    parts = path.split(".")
    opening = "".join(f'"{p}": {{\n' for p in parts[:-1])
    closing = "}\n" * (len(parts) - 1)
    text = '{\n"train_batch_size": 1,\n' + extra + opening + f'"{parts[-1]}": {raw}\n' + closing + "}\n"
    T(id, text, ws=ws)


# --------------------------------------------------------------------------------------------
# 1. pydantic lax coercion in strict sections
# --------------------------------------------------------------------------------------------

INT_VALUES = [
    ("16", 16), ("16-0", 16.0), ("16-5", 16.5), ("str-16", "16"), ("str-16-0", "16.0"),
    ("str-5e8", "5e8"), ("5e8", 5e8), ("true", True), ("false", False), ("null", None),
    ("str-abc", "abc"), ("list", []), ("obj", {}), ("neg1", -1), ("zero", 0), ("1e20", 1e20),
    ("int-1e20", 10**20), ("auto", "auto"), ("str-AUTO", "AUTO"), ("str-padded", " 16 "),
    ("str-underscore", "1_000"), ("str-empty", ""), ("neg1-0", -1.0), ("str-hex", "0x10"),
    ("str-16-5", "16.5"), ("str-plus-16", "+16"), ("str-neg-16", "-16"),
]
INT_TEXT = [("5e8", "5e8"), ("16-0", "16.0"), ("16-5", "16.5"), ("1e10", "1e10"), ("1e20", "1e20"),
            ("1e999", "1e999"), ("str-16", '"16"')]

# full matrix: reduce_bucket_size (gt=0); sub_group_size (ge=0) where the bound matters
for label, v in INT_VALUES + [("9e18", 9e18), ("9-3e18", 9.3e18), ("int-2e64", 2**64)]:
    C(f"int-reduce-bucket-size-{label}", nest("zero_optimization.reduce_bucket_size", v))
for label, raw in INT_TEXT + [("1e19", "1e19"), ("int-1e20", "100000000000000000000"),
                              ("9999999999-0", "9999999999.0"), ("quoteless-16-padded", "16  ")]:
    F(f"int-reduce-bucket-size-text-{label}", "zero_optimization.reduce_bucket_size", raw)
for label, v in [("false", False), ("zero", 0), ("neg1", -1), ("neg1-0", -1.0), ("1e20", 1e20)]:
    C(f"int-sub-group-size-{label}", nest("zero_optimization.sub_group_size", v))

# subsets for other int fields
INT_SUBSET = [("16-5", 16.5), ("str-16", "16"), ("true", True), ("null", None), ("neg1", -1), ("zero", 0)]
for field in ("zero_optimization.allgather_bucket_size", "zero_optimization.stage3_max_live_parameters",
              "hybrid_engine.max_out_tokens", "fp16.initial_scale_power",
              "zero_optimization.offload_param.buffer_count"):
    short = "-".join(p.replace("_", "-") for p in field.split(".")[-2:])
    for label, v in INT_SUBSET:
        C(f"int-{short}-{label}", nest(field, v))
F("int-fp16-initial-scale-power-text-16-0", "fp16.initial_scale_power", "16.0")
F("int-hybrid-max-out-tokens-text-5e2", "hybrid_engine.max_out_tokens", "5e2")

BOOL_VALUES = [
    ("true", True), ("false", False), ("1", 1), ("0", 0), ("2", 2), ("neg1", -1), ("1-0", 1.0), ("0-0", 0.0),
    ("0-5", 0.5), ("str-true", "true"), ("str-True", "True"), ("str-TRUE", "TRUE"), ("str-yes", "yes"),
    ("str-on", "on"), ("str-1", "1"), ("str-t", "t"), ("str-y", "y"), ("str-off", "off"), ("str-no", "no"),
    ("str-f", "f"), ("str-n", "n"), ("str-0", "0"), ("str-false", "false"), ("str-empty", ""),
    ("null", None), ("auto", "auto"), ("str-abc", "abc"), ("list", []), ("str-2", "2"), ("str-padded", " true "),
    ("2-0", 2.0), ("str-Auto", "Auto"), ("str-1-0", "1.0"), ("str-YES", "YES"), ("str-Off", "Off"),
]
for label, v in BOOL_VALUES:
    C(f"bool-fp16-enabled-{label}", nest("fp16.enabled", v))
BOOL_SUBSET = [("2", 2), ("0-5", 0.5), ("str-yes", "yes"), ("str-empty", ""), ("null", None)]
for field in ("zero_optimization.overlap_comm", "zero_optimization.contiguous_gradients", "csv_monitor.enabled",
              "zero_optimization.offload_optimizer.pin_memory", "bf16.enabled"):
    short = "-".join(p.replace("_", "-") for p in field.split(".")[-2:])
    for label, v in BOOL_SUBSET:
        C(f"bool-{short}-{label}", nest(field, v))
# bool written in a file the Python way (quoteless -> string "True")
F("bool-fp16-enabled-text-python-True", "fp16.enabled", "True")
F("bool-fp16-enabled-text-yes", "fp16.enabled", "yes")
T("bool-fp16-enabled-text-python-True-one-line", '{"train_batch_size": 1, "fp16": {"enabled": True}}')

# float fields
OFFLOAD_S3 = {"zero_optimization": {"stage": 3}}
for label, v in [("1", 1), ("0-5", 0.5), ("str-0-5", "0.5"), ("str-1-5", "1.5"), ("1-5", 1.5), ("true", True),
                 ("false", False), ("str-abc", "abc"), ("null", None), ("str-inf", "inf"), ("str-nan", "nan"),
                 ("auto", "auto"), ("neg0-1", -0.1), ("str-1e-1", "1e-1"), ("str-padded", " 0.5 ")]:
    C(f"float-offload-ratio-{label}", OFFLOAD_S3, nest("zero_optimization.offload_optimizer.ratio", v))
C("float-offload-ratio-0-5-stage2", nest("zero_optimization", {"stage": 2, "offload_optimizer": {"ratio": 0.5}}))
T("float-offload-ratio-text-1e400", '{"train_batch_size": 1, "zero_optimization": {"stage": 3, '
  '"offload_optimizer": {"ratio": 1e400}}}')
T("float-offload-ratio-text-1-0", '{"train_batch_size": 1, "zero_optimization": {"offload_optimizer": {"ratio": 1.0}}}')
for label, v in [("1", 1), ("0", 0), ("str-1-5", "1.5"), ("true", True), ("false", False), ("str-abc", "abc"),
                 ("null", None), ("str-inf", "inf"), ("str-neg-inf", "-inf"), ("str-nan", "nan"), ("neg1", -1),
                 ("auto", "auto"), ("list", []), ("str-padded", " 2 "), ("str-underscore", "1_0"),
                 ("str-infinity", "Infinity"), ("1e300", 1e300)]:
    C(f"float-fp16-loss-scale-{label}", nest("fp16.loss_scale", v))
F("float-fp16-loss-scale-text-1e400", "fp16.loss_scale", "1e400")
F("float-fp16-loss-scale-text-NaN", "fp16.loss_scale", "NaN")
F("float-fp16-loss-scale-text-128-0", "fp16.loss_scale", "128.0")

# str fields
for field in ("csv_monitor.output_path", "tensorboard.job_name", "wandb.project"):
    short = "-".join(p.replace("_", "-") for p in field.split("."))
    for label, v in [("int-5", 5), ("true", True), ("null", None), ("5-5", 5.5), ("list", [])]:
        C(f"str-{short}-{label}", nest(field, v))
C("str-wandb-team-null", nest("wandb.team", None))
C("str-wandb-team-int", nest("wandb.team", 5))
C("str-offload-nvme-path-int", nest("zero_optimization.offload_optimizer.nvme_path", 5))
C("str-offload-nvme-path-null", nest("zero_optimization.offload_optimizer.nvme_path", None))
C("str-offload-nvme-path-empty", nest("zero_optimization.offload_optimizer.nvme_path", ""))
C("str-csv-monitor-output-path-auto", nest("csv_monitor.output_path", "auto"))

# enums
for label, v in [("2", 2), ("2-0", 2.0), ("2-5", 2.5), ("str-2", "2"), ("str-2-0", "2.0"), ("true", True),
                 ("false", False), ("4", 4), ("neg1", -1), ("auto", "auto"), ("str-AUTO", "AUTO"),
                 ("list-2", [2]), ("null", None), ("str-two", "two"), ("3", 3), ("str-padded", " 2 "),
                 ("str-2-5", "2.5")]:
    C(f"enum-zero-stage-{label}", nest("zero_optimization.stage", v))
F("enum-zero-stage-text-2-0", "zero_optimization.stage", "2.0")
F("enum-zero-stage-text-quoteless-2-trailing-comma", "zero_optimization.stage", "2,")
for sect in ("offload_optimizer", "offload_param"):
    s = sect.replace("_", "-")
    for label, v in [("cpu", "cpu"), ("CPU", "CPU"), ("Cpu", "Cpu"), ("none", "none"), ("None", "None"),
                     ("null", None), ("int-1", 1), ("nvme", "nvme"), ("auto", "auto"), ("empty", ""),
                     ("cpu-padded", " cpu")]:
        if sect == "offload_param" and label not in ("CPU", "null", "auto", "nvme"):
            continue
        C(f"enum-{s}-device-{label}", nest(f"zero_optimization.{sect}.device", v))
F("enum-offload-optimizer-device-text-quoteless-cpu", "zero_optimization.offload_optimizer.device", "cpu")
T("enum-offload-optimizer-device-text-quoteless-cpu-comma",
  '{\n"train_batch_size": 1,\n"zero_optimization": {"offload_optimizer": {\n"device": cpu,\n"pin_memory": true\n}}\n}')
C("enum-compile-passes-z1", nest("compile.passes", ["z1"]))
C("enum-compile-passes-bogus", nest("compile.passes", ["bogus"]))
C("enum-compile-passes-str", nest("compile.passes", "z1"))

# fp16.loss_scale_window / min_loss_scale custom validators
for field in ("loss_scale_window", "min_loss_scale"):
    short = field.replace("_", "-")
    for label, v in [("0-5", 0.5), ("str-3", "3"), ("true", True), ("false", False), ("zero", 0), ("neg1", -1),
                     ("str-abc", "abc"), ("2-0", 2.0), ("str-2-0", "2.0"), ("str-2-5", "2.5"), ("null", None),
                     ("str-inf", "inf"), ("1e-10", 1e-10), ("auto", "auto")]:
        C(f"fp16-{short}-{label}-enabled", {"fp16": {"enabled": True, field: v}})
    for label, v in [("zero", 0), ("neg1", -1), ("0-5", 0.5), ("true", True)]:
        C(f"fp16-{short}-{label}-disabled", {"fp16": {"enabled": False, field: v}})
    C(f"fp16-{short}-zero-enabled-static-scale", {"fp16": {"enabled": True, "loss_scale": 128, field: 0}})
    C(f"fp16-{short}-zero-enabled-str-auto", {"fp16": {"enabled": "auto", field: 0}})
    C(f"fp16-{short}-zero-enabled-str-yes", {"fp16": {"enabled": "yes", field: 0}})
    C(f"fp16-{short}-zero-enabled-loss-scale-str-0", {"fp16": {"enabled": True, "loss_scale": "0", field: 0}})
    T(f"fp16-{short}-text-0-5-enabled", '{"train_batch_size": 1, "fp16": {"enabled": true, "%s": 0.5}}' % field)
    T(f"fp16-{short}-text-1-0-enabled", '{"train_batch_size": 1, "fp16": {"enabled": true, "%s": 1.0}}' % field)
    T(f"fp16-{short}-text-1e999-enabled", '{"train_batch_size": 1, "fp16": {"enabled": true, "%s": 1e999}}' % field)
F("fp16-min-loss-scale-text-1e-10-disabled", "fp16.min_loss_scale", "1e-10")

# extra keys / misc strict-section checks
C("extra-zero-bogus-key", nest("zero_optimization.bogus", 1))
C("extra-offload-optimizer-buffer-size", nest("zero_optimization.offload_optimizer.buffer_size", 1))
C("extra-bf16-check-overflow", nest("bf16.check_overflow", True))
C("extra-fp16-nested-fp16", nest("fp16.fp16", True))
C("extra-compile-disable", nest("compile.disable", False))
C("zero-compute-grad-norm-false-stage0", nest("zero_optimization.compute_grad_norm", False))
C("zero-compute-grad-norm-false-stage1", {"zero_optimization": {"stage": 1, "compute_grad_norm": False}})
C("leaf-module-classes-str", nest("zero_optimization.leaf_module.classes", "a.B"))
C("leaf-module-null", nest("zero_optimization.leaf_module", None))
C("leaf-module-classes-int", nest("zero_optimization.leaf_module.classes", 5))
C("zenflow-topk-ratio-1", nest("zero_optimization.zenflow.topk_ratio", 1.0))
C("zenflow-topk-ratio-auto", nest("zero_optimization.zenflow.topk_ratio", "auto"))
C("zenflow-update-interval-0", nest("zero_optimization.zenflow.update_interval", 0))

# --------------------------------------------------------------------------------------------
# 2. lax (top-level) keys
# --------------------------------------------------------------------------------------------
for label, v in [("str-16", "16"), ("16-0", 16.0), ("16-5", 16.5), ("true", True), ("false", False),
                 ("auto", "auto"), ("list", [16])]:
    C(f"lax-tbs-{label}", {"train_batch_size": v})
T("lax-tbs-text-16-0", '{"train_batch_size": 16.0}')
T("lax-tbs-text-16-5", '{"train_batch_size": 16.5}')
T("lax-tbs-text-1e999", '{"train_batch_size": 1e999}')
C("lax-gas-str-2", {"train_batch_size": 2, "gradient_accumulation_steps": "2"})
C("lax-gas-auto-with-tbs-mbs", {"train_batch_size": 2, "train_micro_batch_size_per_gpu": 2,
                                "gradient_accumulation_steps": "auto"})
C("lax-mbs-auto-with-tbs", {"train_batch_size": 2, "train_micro_batch_size_per_gpu": "auto"})
C("lax-all-auto", {"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto",
                   "gradient_accumulation_steps": "auto"}, tbs=False)
for label, v in [("auto", "auto"), ("str-x", "x"), ("null", None), ("neg1", -1), ("true", True)]:
    C(f"lax-gradient-clipping-{label}", {"gradient_clipping": v})
for label, v in [("str-x", "x"), ("null", None), ("neg1", -1)]:
    C(f"lax-steps-per-print-{label}", {"steps_per_print": v})
for label, v in [("FP16", "FP16"), ("fp16", "fp16"), ("Bf16", "Bf16"), ("int-5", 5), ("fp8", "fp8"),
                 ("null", None), ("auto", "auto"), ("true", True), ("float32", "float32")]:
    C(f"lax-communication-data-type-{label}", {"communication_data_type": v})
C("lax-seq-parallel-comm-dtype-bogus", {"seq_parallel_communication_data_type": "x"})
C("lax-seq-parallel-comm-dtype-null", {"seq_parallel_communication_data_type": None})
for label, v in [("Mean", "Mean"), ("SUM", "SUM"), ("int-5", 5), ("max", "max"), ("null", None),
                 ("auto", "auto")]:
    C(f"lax-gradient-allreduce-op-{label}", {"gradient_allreduce_op": v})
C("lax-gradient-allreduce-op-sum-stage3", {"gradient_allreduce_op": "sum", "zero_optimization": {"stage": 3}})
C("lax-gradient-allreduce-op-sum-stage2", {"gradient_allreduce_op": "sum", "zero_optimization": {"stage": 2}})
for label, v in [("warn", "warn"), ("Ignore", "Ignore"), ("int-5", 5), ("bogus", "bogus"), ("null", None),
                 ("auto", "auto")]:
    C(f"lax-checkpoint-tag-validation-{label}", nest("checkpoint.tag_validation", v))
for label, v in [("null", None), ("true", True), ("str", "x"), ("list", [])]:
    C(f"lax-checkpoint-section-{label}", {"checkpoint": v})
for label, v in [("int-1", 1), ("int-0", 0), ("str-true", "true"), ("null", None), ("1-0", 1.0)]:
    C(f"lax-checkpoint-pipeline-stage-{label}", nest("checkpoint.parallel_write.pipeline_stage", v))
C("lax-checkpoint-writer-type-mock", nest("checkpoint.writer.type", "mock"))
C("lax-checkpoint-writer-type-bogus", nest("checkpoint.writer.type", "bogus"))
C("lax-checkpoint-writer-data-parallel-bogus", nest("checkpoint.writer.data_parallel", "x"))
for label, v in [("bogus", "bogus"), ("INFO", "INFO"), ("int-5", 5), ("null", None)]:
    C(f"lax-log-level-{label}", {"log_level": v})
for label, v in [("true", True), ("false", False), ("str-yes", "yes"), ("int-1", 1), ("int-0", 0),
                 ("null", None), ("list", []), ("auto", "auto"), ("obj", {})]:
    C(f"section-zero-optimization-{label}", {"zero_optimization": v})
C("section-zero-optimization-true-allgather-size-str", {"zero_optimization": True, "allgather_size": "x"})
C("section-zero-optimization-true-allgather-size-odd", {"zero_optimization": True, "allgather_size": 3})
C("section-zero-optimization-true-fp16-master", {"zero_optimization": True,
                                                 "fp16": {"fp16_master_weights_and_grads": True}})
for label, v in [("true", True), ("false", False), ("null", None), ("auto", "auto"), ("int-1", 1), ("list", []),
                 ("str-yes", "yes")]:
    C(f"section-fp16-{label}", {"fp16": v})
for label, v in [("null", None), ("true", True), ("auto", "auto")]:
    C(f"section-bf16-{label}", {"bf16": v})
C("section-bfloat16-null", {"bfloat16": None})
for label, v in [("null", None), ("str-adam", "adam"), ("list", []), ("obj", {}), ("type-null", {"type": None}),
                 ("type-int", {"type": 5}), ("type-bogus", {"type": "Bogus"}),
                 ("params-null", {"type": "adam", "params": None}), ("params-list", {"type": "adam", "params": []}),
                 ("max-grad-norm-str", {"type": "adam", "params": {"max_grad_norm": "x"}}),
                 ("max-grad-norm-null", {"type": "adam", "params": {"max_grad_norm": None}}),
                 ("max-grad-norm-1", {"type": "adam", "params": {"max_grad_norm": 1.0}}),
                 ("params-without-type", {"params": []})]:
    C(f"section-optimizer-{label}", {"optimizer": v})
for label, v in [("null", None), ("str", "x"), ("type-int", {"type": 5})]:
    C(f"section-scheduler-{label}", {"scheduler": v})
# null at top level
C("null-mbs-with-tbs", {"train_micro_batch_size_per_gpu": None})
C("null-gas-with-tbs", {"gradient_accumulation_steps": None})
C("null-tbs-with-mbs", {"train_batch_size": None, "train_micro_batch_size_per_gpu": 1}, tbs=False)
C("null-all-batch", {"train_batch_size": None, "train_micro_batch_size_per_gpu": None,
                     "gradient_accumulation_steps": None}, tbs=False)
for key in ("wall_clock_breakdown", "memory_breakdown", "prescale_gradients", "gradient_predivide_factor",
            "dump_state", "vocabulary_size", "dataloader_drop_last", "unknown_key_xyz"):
    C(f"null-{key.replace('_', '-')}", {key: None})
C("lax-wall-clock-breakdown-str", {"wall_clock_breakdown": "x"})
C("lax-wall-clock-breakdown-int-1", {"wall_clock_breakdown": 1})
C("lax-vocabulary-size-str", {"vocabulary_size": "x"})
C("lax-vocabulary-size-unaligned", {"vocabulary_size": 50257})
for key in ("tensorboard", "csv_monitor", "wandb", "comet", "comms_logger", "hybrid_engine", "compile", "timers",
            "tensor_parallel", "activation_checkpointing", "flops_profiler", "autotuning", "aio",
            "data_efficiency", "data_types", "pipeline", "datastates_ckpt", "weight_quantization",
            "torch_autocast", "expert_parallel"):
    C(f"null-section-{key.replace('_', '-')}", {key: None})
for key in ("tensorboard", "comms_logger", "hybrid_engine", "compile", "timers", "activation_checkpointing",
            "flops_profiler"):
    C(f"section-{key.replace('_', '-')}-true", {key: True})
    C(f"section-{key.replace('_', '-')}-auto", {key: "auto"})
C("section-timers-throughput-null", nest("timers.throughput", None))
C("null-offload-optimizer", nest("zero_optimization.offload_optimizer", None))
C("null-offload-param", nest("zero_optimization.offload_param", None))
C("auto-offload-optimizer", nest("zero_optimization.offload_optimizer", "auto"))
C("null-zenflow", nest("zero_optimization.zenflow", None))
C("lax-keep-in-fp32-modules-str", nest("data_types.keep_in_fp32_modules", "x"))
C("lax-keep-in-fp32-modules-list", nest("data_types.keep_in_fp32_modules", ["a"]))
C("lax-torch-autocast-dtype-bogus", nest("torch_autocast.dtype", "bogus"))
C("lax-torch-autocast-dtype-bfloat16", nest("torch_autocast.dtype", "bfloat16"))
C("lax-sequence-parallel-size-2-ws2", {"sequence_parallel_size": 2}, ws=2)
C("lax-sequence-parallel-size-2-ws1", {"sequence_parallel_size": 2}, ws=1)
C("lax-sequence-parallel-size-0", {"sequence_parallel_size": 0})
C("lax-sequence-parallel-size-str", {"sequence_parallel_size": "x"})
T("lax-sequence-parallel-size-0-text", '{"train_batch_size": 1, "sequence_parallel_size": 0}')
# keys removed in 0.19.8 (rejected whatever their value)
for label, key, v in [("mode-dense", "sparse_attention", {"mode": "dense"}),
                      ("mode-bogus", "sparse_attention", {"mode": "bogus"}),
                      ("null", "sparse_attention", None), ("disabled", "elasticity", {"enabled": False}),
                      ("disabled", "amp", {"enabled": False}), ("false", "sparse_gradients", False),
                      ("false", "graph_harvesting", False), ("empty", "curriculum_learning", {}),
                      ("disabled", "progressive_layer_drop", {"enabled": False}), ("empty", "eigenvalue", {}),
                      ("empty", "quantize_training", {}), ("empty", "compression_training", {}),
                      ("disabled", "nebula", {"enabled": False})]:
    C(f"removed-{key.replace('_', '-')}-{label}", {key: v})
for key, v in [("mics_shard_size", -1), ("mics_hierarchical_params_gather", False), ("zeropp_loco_param", None)]:
    C(f"removed-zero-{key.replace('_', '-')}", nest(f"zero_optimization.{key}", v))

# other sections read at parse time
C("lax-flops-profiler-enabled-str", nest("flops_profiler.enabled", "x"))
C("lax-flops-profiler-enabled-int-1", nest("flops_profiler.enabled", 1))
C("lax-autotuning-results-dir-empty", nest("autotuning.results_dir", ""))
C("lax-torch-autocast-enabled-str", nest("torch_autocast.enabled", "x"))
C("lax-torch-autocast-safe-modules-str", nest("torch_autocast.lower_precision_safe_modules", "x"))
C("lax-data-types-grad-accum-dtype-bogus", nest("data_types.grad_accum_dtype", "bogus"))
C("lax-pipeline-pipe-partitioned-str", nest("pipeline.pipe_partitioned", "x"))
C("lax-activation-checkpointing-partition-str", nest("activation_checkpointing.partition_activations", "x"))
C("lax-scheduler-type-bogus", {"scheduler": {"type": "Bogus", "params": {"x": 1}}})
C("lax-timers-other-key", nest("timers.other", 1))
C("strict-timers-throughput-extra", nest("timers.throughput.bogus", 1))
C("strict-tensor-parallel-autotp-size-str", nest("tensor_parallel.autotp_size", "x"))
C("strict-tensor-parallel-extra", nest("tensor_parallel.bogus", 1))
C("strict-comms-logger-prof-ops-str", nest("comms_logger.prof_ops", "x"))
C("strict-comms-logger-prof-ops-auto-in-list", nest("comms_logger.prof_ops", ["auto"]))
C("strict-weight-quantization-empty", {"weight_quantization": {}})
C("strict-offload-optimizer-empty", nest("zero_optimization.offload_optimizer", {}))
C("strict-offload-optimizer-list", nest("zero_optimization.offload_optimizer", []))
C("strict-offload-param-nvme-without-path", {"zero_optimization": {"stage": 3, "offload_param": {"device": "nvme"}}})
C("lax-checkpoint-tag-validation-padded", nest("checkpoint.tag_validation", "Warn "))
C("lax-checkpoint-writer-null", nest("checkpoint.writer", None))
C("lax-checkpoint-empty", {"checkpoint": {}})
C("lax-gas-1-5-with-mbs2", {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1.5}, tbs=False)

# --------------------------------------------------------------------------------------------
# 3. deprecated fields and aliases, "auto"
# --------------------------------------------------------------------------------------------
Z = "zero_optimization"
C("dep-cpu-offload-true-alone", nest(Z, {"cpu_offload": True}))
C("dep-cpu-offload-true-with-offload-optimizer", nest(Z, {"cpu_offload": True, "offload_optimizer": {"device": "cpu"}}))
C("dep-cpu-offload-false-with-offload-optimizer", nest(Z, {"cpu_offload": False, "offload_optimizer": {"device": "cpu"}}))
C("dep-cpu-offload-null-with-offload-optimizer", nest(Z, {"cpu_offload": None, "offload_optimizer": {"device": "cpu"}}))
C("dep-cpu-offload-auto-with-offload-optimizer", nest(Z, {"cpu_offload": "auto", "offload_optimizer": {"device": "cpu"}}))
C("dep-cpu-offload-true-with-offload-optimizer-null", nest(Z, {"cpu_offload": True, "offload_optimizer": None}))
C("dep-cpu-offload-str-yes", nest(Z, {"cpu_offload": "yes"}))
C("dep-cpu-offload-param-with-offload-param", nest(Z, {"cpu_offload_param": True, "offload_param": {"device": "cpu"}}))
C("dep-cpu-offload-use-pin-memory-with-offload-param",
  nest(Z, {"cpu_offload_use_pin_memory": True, "offload_param": {"device": "cpu"}}))
C("dep-gather-fp16-with-gather-16bit", nest(Z, {"stage3_gather_fp16_weights_on_model_save": True,
                                               "gather_16bit_weights_on_model_save": True}))
C("dep-gather-fp16-with-stage3-gather-16bit-alias", nest(Z, {"stage3_gather_fp16_weights_on_model_save": True,
                                                            "stage3_gather_16bit_weights_on_model_save": True}))
C("dep-gather-fp16-alone", nest(Z, {"stage3_gather_fp16_weights_on_model_save": True}))
C("alias-prefetch-both-same", nest(Z, {"stage3_prefetch_bucket_size": 100, "prefetch_bucket_size": 100}))
C("alias-prefetch-both-different", nest(Z, {"stage3_prefetch_bucket_size": 100, "prefetch_bucket_size": 200}))
C("alias-prefetch-alias-bad-name-good", nest(Z, {"stage3_prefetch_bucket_size": "x", "prefetch_bucket_size": 200}))
C("alias-prefetch-alias-good-name-bad", nest(Z, {"stage3_prefetch_bucket_size": 200, "prefetch_bucket_size": "x"}))
C("alias-prefetch-name-only", nest(Z, {"prefetch_bucket_size": 5e7}))
C("alias-prefetch-alias-auto-name-bad", nest(Z, {"stage3_prefetch_bucket_size": "auto", "prefetch_bucket_size": "x"}))
C("bf16-and-bfloat16-conflicting", {"bf16": {"enabled": False}, "bfloat16": {"enabled": True, "bogus": 1}})
C("bf16-null-bfloat16-enabled-fp16-enabled", {"bf16": None, "bfloat16": {"enabled": True},
                                               "fp16": {"enabled": True}})
C("bfloat16-enabled-with-fp16-enabled", {"bfloat16": {"enabled": True}, "fp16": {"enabled": True}})
C("bfloat16-bad-key-alone", {"bfloat16": {"bogus": 1}})
C("bf16-empty-bfloat16-enabled-fp16-enabled", {"bf16": {}, "bfloat16": {"enabled": True},
                                                "fp16": {"enabled": True}})
C("fp16-and-bf16-both-enabled", {"bf16": {"enabled": True}, "fp16": {"enabled": True}})
C("fp16-and-bf16-both-auto", {"bf16": {"enabled": "auto"}, "fp16": {"enabled": "auto"}})
C("fp16-master-weights-stage0", {"fp16": {"fp16_master_weights_and_grads": True}})
C("fp16-master-weights-stage1", {"fp16": {"fp16_master_weights_and_grads": True}, Z: {"stage": 1}})
C("bf16-optimizer-states-without-master", {"bf16": {"bf16_optimizer_states": True}, Z: {"stage": 2}})
# "auto" inside nested strict models (not dropped there)
for label, path in [("offload-optimizer-device", "zero_optimization.offload_optimizer.device"),
                    ("offload-optimizer-pin-memory", "zero_optimization.offload_optimizer.pin_memory"),
                    ("offload-param-buffer-count", "zero_optimization.offload_param.buffer_count"),
                    ("tensorboard-output-path", "tensorboard.output_path"),
                    ("wandb-team", "wandb.team"),
                    ("comms-logger-prof-ops", "comms_logger.prof_ops"),
                    ("hybrid-engine-enabled", "hybrid_engine.enabled"),
                    ("compile-passes", "compile.passes"),
                    ("timers-throughput-synchronized", "timers.throughput.synchronized"),
                    ("tensor-parallel-autotp-size", "tensor_parallel.autotp_size"),
                    ("tensor-parallel-tp-tp-size", "tensor_parallel.tp.tp_size"),
                    ("zero-overlap-comm", "zero_optimization.overlap_comm"),
                    ("zero-leaf-module-classes", "zero_optimization.leaf_module.classes"),
                    ("weight-quantization", "weight_quantization.quantized_initialization"),
                    ("tensorboard-section", "tensorboard")]:
    C(f"auto-{label}", nest(path, "auto"))

# --------------------------------------------------------------------------------------------
# 4. file text: duplicates, hjson features, non-object roots
# --------------------------------------------------------------------------------------------
T("text-dup-top-level", '{"train_batch_size": 1, "train_batch_size": 1}')
T("text-dup-in-zero", '{"train_batch_size": 1, "zero_optimization": {"stage": 1, "stage": 2}}')
T("text-dup-in-offload-optimizer", '{"train_batch_size": 1, "zero_optimization": {"offload_optimizer": '
  '{"device": "cpu", "device": "cpu"}}}')
T("text-dup-in-optimizer-params", '{"train_batch_size": 1, "optimizer": {"type": "adam", "params": '
  '{"lr": 1, "lr": 2}}}')
T("text-dup-in-unknown-key-list", '{"train_batch_size": 1, "my_list": [{"a": 1, "a": 2}]}')
T("text-dup-via-escape", '{"train_batch_size": 1, "tr\\u0061in_batch_size": 1}')
T("text-dup-case-differs", '{"train_batch_size": 1, "Train_batch_size": 1}')
T("text-dup-alias-and-name", '{"train_batch_size": 1, "zero_optimization": {"stage3_max_live_parameters": 1, '
  '"max_live_parameters": 1}}')
T("text-hjson-comments", '# hash\n// slash\n/* block */\n{\n  "train_batch_size": 1, # trailing\n'
  '  "fp16": {"enabled": true} // x\n  /* y */\n}\n')
T("text-hjson-trailing-commas", '{"train_batch_size": 1, "zero_optimization": {"stage": 2,}, '
  '"comms_logger": {"prof_ops": ["a",],},}')
T("text-hjson-unquoted-keys-newlines", '{\n  train_batch_size: 1\n  zero_optimization: {\n    stage: 2\n'
  '    offload_optimizer: {\n      device: cpu\n    }\n  }\n}\n')
T("text-hjson-braceless-root", 'train_batch_size: 1\nfp16: {\n  enabled: true\n}\n')
T("text-hjson-quoteless-string-value", '{\n"train_batch_size": 1\n"csv_monitor": {\n"output_path": /tmp/x y\n}\n}')
T("text-hjson-multiline-string", "{\n\"train_batch_size\": 1\n\"csv_monitor\": {\n\"output_path\": '''\n"
  "  line1\n  line2\n  '''\n}\n}")
T("text-hjson-multiline-tag-validation", "{\n\"train_batch_size\": 1\n\"checkpoint\": {\n\"tag_validation\":\n"
  "  '''\n  warn\n  '''\n}\n}")
T("text-hjson-single-quotes", "{'train_batch_size': 1, 'fp16': {'enabled': true}}")
T("text-hjson-quoteless-one-line-eats-rest", '{"train_batch_size": 1, "zero_optimization": {"offload_optimizer": '
  '{"device": cpu}}}')
T("text-hjson-quoteless-stage-text", '{\n"train_batch_size": 1\n"zero_optimization": {\n"stage": two\n}\n}')
T("text-hjson-number-then-word", '{\n"train_batch_size": 1 x\n}')
T("text-hjson-number-space-comma", '{"train_batch_size": 1 , "steps_per_print": 10 }')
T("text-hjson-crlf", '{\r\n  train_batch_size: 1\r\n  fp16: {\r\n    enabled: true\r\n  }\r\n}\r\n')
T("text-hjson-bom", '\ufeff{"train_batch_size": 1}')
T("text-hjson-double-comma", '{"train_batch_size": 1,, "steps_per_print": 1}')
T("text-top-level-array", '[{"train_batch_size": 1}]')
T("text-empty-file", '')
T("text-whitespace-only", ' \n\t\n')
T("text-only-comment", '// nothing here\n')
T("text-top-level-int", '5')
T("text-top-level-string", '"abc"')
T("text-top-level-string-containing-amp", '"example"')
T("text-top-level-null", 'null')
T("text-top-level-true", 'true')
T("text-python-True-one-line", '{"train_batch_size": 1, "wall_clock_breakdown": True}')
T("text-python-True-own-line-lax", '{\n"train_batch_size": 1\n"wall_clock_breakdown": True\n}')
T("text-python-None-own-line-optional", '{\n"train_batch_size": 1\n"zero_optimization": {\n"offload_optimizer": None\n}\n}')
T("text-python-None-one-line", '{"train_batch_size": 1, "steps_per_print": None}')
T("text-python-NaN-one-line", '{"train_batch_size": 1, "gradient_clipping": NaN}')
T("text-python-NaN-own-line-lax", '{\n"train_batch_size": 1\n"gradient_clipping": NaN\n}')
T("text-json-1e999-unknown-key", '{"train_batch_size": 1, "my_number": 1e999}')
T("text-json-1e999-gradient-clipping", '{"train_batch_size": 1, "gradient_clipping": 1e999}')
T("text-json-neg-1e999", '{"train_batch_size": 1, "my_number": -1e999}')
T("text-json-infinity-literal", '{"train_batch_size": 1, "gradient_clipping": Infinity}')
T("text-json-leading-plus", '{"train_batch_size": +1}')
T("text-json-leading-zero", '{"train_batch_size": 01}')
T("text-json-hex", '{"train_batch_size": 0x1}')
T("text-trailing-garbage", '{"train_batch_size": 1} x')
T("text-two-objects", '{"train_batch_size": 1}{"steps_per_print": 1}')
T("text-trailing-comment", '{"train_batch_size": 1}\n// end\n')
T("text-unterminated", '{"train_batch_size": 1')
T("text-key-with-space", '{"train_batch_size": 1, "my key": 1}')
T("text-ws2-tbs-16-0", '{"train_batch_size": 16.0}', ws=2)
T("text-ws2-tbs-mbs-floats", '{"train_batch_size": 16.0, "train_micro_batch_size_per_gpu": 8.0}', ws=2)

# --------------------------------------------------------------------------------------------
# 5. batch arithmetic
# --------------------------------------------------------------------------------------------
def B(id, ws, tbs=None, mbs=None, gas=None):
    cfg = {}
    for k, v in (("train_batch_size", tbs), ("train_micro_batch_size_per_gpu", mbs),
                 ("gradient_accumulation_steps", gas)):
        if v is not None:
            cfg[k] = v
    _add({"id": id, "config": cfg, "world_size": ws})


B("batch-ws2-tbs16", 2, tbs=16)
B("batch-ws2-tbs15", 2, tbs=15)
B("batch-ws2-tbs1", 2, tbs=1)
B("batch-ws2-tbs16-mbs4", 2, tbs=16, mbs=4)
B("batch-ws2-tbs16-mbs3", 2, tbs=16, mbs=3)
B("batch-ws2-tbs16-mbs16", 2, tbs=16, mbs=16)
B("batch-ws2-tbs16-gas2", 2, tbs=16, gas=2)
B("batch-ws2-tbs16-gas3", 2, tbs=16, gas=3)
B("batch-ws2-mbs4-gas2", 2, mbs=4, gas=2)
B("batch-ws2-gas-only", 2, gas=2)
B("batch-ws2-none", 2)
B("batch-ws2-mbs-only", 2, mbs=4)
B("batch-ws2-all-consistent", 2, tbs=16, mbs=4, gas=2)
B("batch-ws2-all-inconsistent", 2, tbs=16, mbs=4, gas=1)
B("batch-ws3-tbs9", 3, tbs=9)
B("batch-ws3-tbs10", 3, tbs=10)
B("batch-ws4-tbs32-mbs4", 4, tbs=32, mbs=4)
B("batch-ws4-tbs30-mbs4", 4, tbs=30, mbs=4)
B("batch-ws4-tbs8-gas4", 4, tbs=8, gas=4)
B("batch-ws4-tbs24-gas3", 4, tbs=24, gas=3)
B("batch-ws4-tbs25-gas3", 4, tbs=25, gas=3)
B("batch-ws4-mbs2-gas3", 4, mbs=2, gas=3)
B("batch-ws4-tbs12", 4, tbs=12)
B("batch-ws4-tbs6", 4, tbs=6)
B("batch-ws8-tbs64-mbs8-gas1", 8, tbs=64, mbs=8, gas=1)
B("batch-ws8-tbs64", 8, tbs=64)
B("batch-ws8-tbs4", 8, tbs=4)
B("batch-ws8-tbs100-mbs4", 8, tbs=100, mbs=4)
B("batch-ws8-mbs1", 8, mbs=1)
B("batch-ws8-gas8-only", 8, gas=8)
B("batch-ws1-tbs0", 1, tbs=0)
B("batch-ws2-tbs-neg4", 2, tbs=-4)
B("batch-ws1-mbs0-only", 1, mbs=0)
B("batch-ws1-mbs-neg1-only", 1, mbs=-1)
B("batch-ws1-tbs4-gas0", 1, tbs=4, gas=0)
B("batch-ws1-tbs4-mbs0", 1, tbs=4, mbs=0)
B("batch-ws1-tbs4-mbs4-gas0", 1, tbs=4, mbs=4, gas=0)
B("batch-ws1-mbs2-gas0", 1, mbs=2, gas=0)
B("batch-ws2-mbs-neg2-gas-neg2", 2, mbs=-2, gas=-2)
B("batch-ws2-tbs-neg8-mbs-neg4", 2, tbs=-8, mbs=-4)
B("batch-ws1-tbs4-mbs8", 1, tbs=4, mbs=8)
B("batch-ws1-all-zero", 1, tbs=0, mbs=0, gas=0)
B("batch-ws1-tbs4-gas-neg1", 1, tbs=4, gas=-1)
B("batch-ws2-tbs16-0", 2, tbs=16.0)
B("batch-ws1-tbs16-5", 1, tbs=16.5)
B("batch-ws1-all-16-5", 1, tbs=16.5, mbs=16.5, gas=1)
B("batch-ws1-mbs0-5-gas2", 1, mbs=0.5, gas=2)
B("batch-ws1-tbs2-0-mbs1-0-gas2-0", 1, tbs=2.0, mbs=1.0, gas=2.0)
B("batch-ws1-tbs-true", 1, tbs=True)
B("batch-ws2-tbs-true", 2, tbs=True)
B("batch-ws1-mbs-true", 1, mbs=True)
B("batch-ws1-tbs1-gas-true", 1, tbs=1, gas=True)
B("batch-ws1-tbs-false", 1, tbs=False)
B("batch-ws1-tbs-str", 1, tbs="16")
B("batch-ws1-all-given-tbs-str", 1, tbs="16", mbs=16, gas=1)
B("batch-ws1-mbs-str-only", 1, mbs="4")
B("batch-ws2-tbs-null-mbs2", 2, mbs=2)
B("batch-ws8-tbs-huge", 8, tbs=8 * 10**18)
C("batch-ws2-tbs-null-explicit-mbs2", {"train_batch_size": None, "train_micro_batch_size_per_gpu": 2}, ws=2,
  tbs=False)


# --------------------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--merge", metavar="VERDICTS", help="join cases with oracle verdicts (JSONL file, - = stdin)")
    ap.add_argument("--regen", metavar="ORACLE_RUN", help="run the oracle command and print the merged fixture")
    args = ap.parse_args()
    cases_text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in CASES)
    if not args.merge and not args.regen:
        sys.stdout.write(cases_text)
        return
    if args.regen:
        out = subprocess.run([args.regen], input=cases_text, capture_output=True, text=True, check=True).stdout
        lines = out.splitlines()
    else:
        fh = sys.stdin if args.merge == "-" else open(args.merge)
        lines = fh.read().splitlines()
    verdicts = {}
    for line in lines:
        if line.strip():
            v = json.loads(line)
            verdicts[v["id"]] = v
    missing = [c["id"] for c in CASES if c["id"] not in verdicts]
    if missing:
        raise SystemExit(f"no verdict for {len(missing)} cases, e.g. {missing[:5]}")
    for c in CASES:
        v = verdicts[c["id"]]
        row = dict(c)
        row["verdict"] = v["verdict"]
        row["error"] = v["error"]
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
