//! What each diagnostic code means: one entry per code the validator (and the CLI reading
//! files) can emit, in English and Chinese. The book's "Diagnostic codes" page is generated
//! from it (`ds-studio reference diagnostics`), the studio links each diagnostic's code to its
//! entry, and `tests/codes_documented.rs` fails on a code emitted but missing here, or listed
//! here but emitted nowhere.

/// One code's entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeDoc {
    /// The stable kebab-case code (`unknown-key`).
    pub code: &'static str,
    /// `error`, `warning`, `info`, or `varies` (the entry says when it is which).
    pub severity: &'static str,
    /// What it means and what to do, in English.
    pub en: &'static str,
    /// The same in Simplified Chinese.
    pub zh: &'static str,
}

/// The entry of `code`, if it has one.
pub fn lookup(code: &str) -> Option<&'static CodeDoc> {
    CODES.iter().find(|c| c.code == code)
}

/// Every code, sorted.
pub const CODES: &[CodeDoc] = &[
    CodeDoc {
        code: "alias-conflict",
        severity: "error",
        en: "A pydantic field and its alias are both set in the same section (for example `prefetch_bucket_size` and `stage3_prefetch_bucket_size` in `zero_optimization`). DeepSpeed takes the alias and rejects the field as an extra input (\"Extra inputs are not permitted\"), so the config does not parse. Keep one spelling; the fix removes the field.",
        zh: "同一段中同时设置了 pydantic 字段及其别名（例如 `zero_optimization` 中的 `prefetch_bucket_size` 与 `stage3_prefetch_bucket_size`）。DeepSpeed 采用别名，并把字段本身当作多余输入拒绝（“Extra inputs are not permitted”），配置无法解析。请只保留一种写法；修复会删除该字段。",
    },
    CodeDoc {
        code: "auto-unresolved",
        severity: "varies",
        en: "A value is `\"auto\"` but the launcher is plain `deepspeed`, and only the HF Trainer or Accelerate fill `\"auto\"` in. For `train_batch_size`, `train_micro_batch_size_per_gpu` or `gradient_accumulation_steps` it is an error (DeepSpeed compares the string with 0 and raises `TypeError`); elsewhere it is a warning: pydantic sections silently drop it and use the default, other keys keep the string and fail when used. Write a real value, or choose the `hf-trainer`/`accelerate` launcher if that is how you run.",
        zh: "某个值为 `\"auto\"`，但启动器是普通的 `deepspeed`，而只有 HF Trainer 或 Accelerate 才会替换 `\"auto\"`。若是 `train_batch_size`、`train_micro_batch_size_per_gpu` 或 `gradient_accumulation_steps`，这是错误（DeepSpeed 会把字符串与 0 比较并报 `TypeError`）；其他键则是警告：pydantic 段会静默丢弃它并使用默认值，其余键保留字符串，使用时出错。请写出具体的值；如果实际用 HF 启动，请选择 `hf-trainer`/`accelerate` 启动器。",
    },
    CodeDoc {
        code: "autotp-size-string",
        severity: "error",
        en: "From DeepSpeed 0.18.6, `deepspeed.initialize` compares `tensor_parallel.autotp_size` with 0 before it parses the config, so a string there (`\"auto\"` or a quoted number) fails with `TypeError: '>' not supported between instances of 'str' and 'int'`. Write a number (0 or no key turns AutoTP off); the fix converts a quoted number or removes `\"auto\"`.",
        zh: "自 DeepSpeed 0.18.6 起，`deepspeed.initialize` 会在解析配置之前把 `tensor_parallel.autotp_size` 与 0 比较，因此这里写字符串（`\"auto\"` 或加了引号的数字）会报 `TypeError: '>' not supported between instances of 'str' and 'int'`。请写数字（0 或不写表示不启用 AutoTP）；修复会把带引号的数字改成数字，或删除 `\"auto\"`。",
    },
    CodeDoc {
        code: "batch-mismatch",
        severity: "error",
        en: "`train_batch_size` is not equal to `train_micro_batch_size_per_gpu` × `gradient_accumulation_steps` × world size (data-parallel ranks), the assertion DeepSpeed makes when it parses the config (with elasticity before 0.19.8, the elastic batch it computes). When all three keys are given, the fix changes `gradient_accumulation_steps` where that keeps the global batch, otherwise `train_batch_size`; check the world size first: the editor's context bar (nodes × GPUs per node), `--world-size` of the CLI (which says when it assumed 1 GPU); a config written for another GPU count can be fitted to a job's GPUs (the Run dialog's \"Fit the batch sizes to these GPUs\", `jobs submit --fit`).",
        zh: "`train_batch_size` 不等于 `train_micro_batch_size_per_gpu` × `gradient_accumulation_steps` × world size（数据并行进程数），DeepSpeed 解析配置时会对此断言（0.19.8 之前启用弹性训练时，检查的是它计算出的弹性批大小）。三个键都给出时，修复会在能保持全局批大小时修改 `gradient_accumulation_steps`，否则修改 `train_batch_size`；请先确认 world size：编辑器上下文栏中的节点数 × 每节点 GPU 数，或 CLI 的 `--world-size`（CLI 按 1 个 GPU 判断时会注明）；为其他 GPU 数写的配置可以按任务的 GPU 调整（运行对话框中的“按这些 GPU 调整 batch 大小”，或 `jobs submit --fit`）。",
    },
    CodeDoc {
        code: "batch-size",
        severity: "error",
        en: "DeepSpeed cannot derive the batch triple: neither `train_batch_size` nor `train_micro_batch_size_per_gpu` is given, a batch value is not a number (`TypeError`, or `ZeroDivisionError` when a divisor is 0), or a given or derived value is not greater than 0. Set the batch keys to positive integers; the fix adds `\"train_micro_batch_size_per_gpu\": 1` when both are missing, or unquotes a number written as a string.",
        zh: "DeepSpeed 无法推导出批大小三元组：`train_batch_size` 与 `train_micro_batch_size_per_gpu` 都没有给出、某个批大小的值不是数字（报 `TypeError`，除数为 0 时报 `ZeroDivisionError`），或者给出或推导出的值不大于 0。请把这些键设为正整数；两者都缺时修复会添加 `\"train_micro_batch_size_per_gpu\": 1`，数字写成字符串时修复会去掉引号。",
    },
    CodeDoc {
        code: "bfloat16-ignored",
        severity: "warning",
        en: "`bfloat16` is the old spelling of `bf16`; when both are present DeepSpeed reads only `bf16` and silently ignores the `bfloat16` block. Merge what you need into `bf16`; the fix removes `bfloat16`.",
        zh: "`bfloat16` 是 `bf16` 的旧写法；两者同时存在时 DeepSpeed 只读取 `bf16`，静默忽略 `bfloat16` 段。请把需要的设置合并到 `bf16` 中；修复会删除 `bfloat16`。",
    },
    CodeDoc {
        code: "bool-as-string",
        severity: "warning",
        en: "A boolean key holds a string such as `\"true\"` or `\"false\"`. In a pydantic section DeepSpeed converts it, but where DeepSpeed tests the value with Python's `if`, any non-empty string (even `\"false\"`) counts as true. Write the JSON boolean; the fix does.",
        zh: "布尔类型的键写成了字符串，如 `\"true\"` 或 `\"false\"`。在 pydantic 段中 DeepSpeed 会转换它，但在 DeepSpeed 用 Python 的 `if` 判断的地方，任何非空字符串（包括 `\"false\"`）都会被当作 true。请直接写 JSON 布尔值；修复即如此。",
    },
    CodeDoc {
        code: "bucket-alignment",
        severity: "error",
        en: "With ZeRO stage 1 or 2, `zero_optimization.allgather_bucket_size` must be a multiple of `nccl_start_alignment_factor` (2), which DeepSpeed asserts when the engine starts; the legacy form `\"zero_optimization\": true` checks the top-level `allgather_size` the same way. Use an even number.",
        zh: "ZeRO stage 1 或 2 下，`zero_optimization.allgather_bucket_size` 必须是 `nccl_start_alignment_factor`（2）的倍数，DeepSpeed 启动引擎时会断言；旧写法 `\"zero_optimization\": true` 对顶层的 `allgather_size` 做同样的检查。请使用偶数。",
    },
    CodeDoc {
        code: "bucket-too-large",
        severity: "info",
        en: "Tuning hint, given only when the context states the GPU memory: `zero_optimization.reduce_bucket_size` or `allgather_bucket_size` needs more than 10% of that memory per bucket (about 4 bytes per element for fp32 staging). Lower it (for example to 2e8) if you run out of memory.",
        zh: "调优提示，仅在上下文给出 GPU 显存时出现：`zero_optimization.reduce_bucket_size` 或 `allgather_bucket_size` 每个桶所需内存超过显存的 10%（fp32 暂存约每个元素 4 字节）。如果显存不足，请调小（例如 2e8）。",
    },
    CodeDoc {
        code: "checkpoint-writer-unit",
        severity: "error",
        en: "`checkpoint.writer` without `data_parallel` fails when the engine starts below ZeRO-3 (`AttributeError: 'UniversalParallelInfo' object has no attribute 'dp_rank'`), unless the training script passes a model-parallel unit as Megatron-DeepSpeed does. Set `checkpoint.writer.data_parallel` to `\"replica\"`, `\"socket\"` or `\"machine\"`; the fix sets `\"replica\"`.",
        zh: "ZeRO-3 以下，未设置 `data_parallel` 的 `checkpoint.writer` 会在启动引擎时失败（`AttributeError: 'UniversalParallelInfo' object has no attribute 'dp_rank'`），除非训练脚本像 Megatron-DeepSpeed 那样传入模型并行单元（mpu）。请把 `checkpoint.writer.data_parallel` 设为 `\"replica\"`、`\"socket\"` 或 `\"machine\"`；修复会设为 `\"replica\"`。",
    },
    CodeDoc {
        code: "coerced-value",
        severity: "warning",
        en: "In a pydantic section a number is written as a string or a boolean (for example `\"reduce_bucket_size\": \"500000000\"`); DeepSpeed's pydantic check silently converts it. Write the number itself; the fix does.",
        zh: "pydantic 段中的数字写成了字符串或布尔值（例如 `\"reduce_bucket_size\": \"500000000\"`）；DeepSpeed 的 pydantic 校验会静默地把它转换为数字。请直接写数字；修复即如此。",
    },
    CodeDoc {
        code: "compute-grad-norm-clipping",
        severity: "error",
        en: "`zero_optimization.compute_grad_norm: false` (ZeRO-1/2) skips the gradient norm that clipping needs, so the engine refuses it when `gradient_clipping` is above 0, and the default `gradient_clipping` is 1.0 from DeepSpeed 0.19.3. Set `\"gradient_clipping\": 0` (the fix) or drop `compute_grad_norm`.",
        zh: "`zero_optimization.compute_grad_norm: false`（ZeRO-1/2）会跳过梯度裁剪所需的梯度范数，因此 `gradient_clipping` 大于 0 时引擎启动会拒绝；而自 DeepSpeed 0.19.3 起 `gradient_clipping` 默认为 1.0。请设置 `\"gradient_clipping\": 0`（即修复），或删除 `compute_grad_norm`。",
    },
    CodeDoc {
        code: "compute-grad-norm-unsupported",
        severity: "error",
        en: "`zero_optimization.compute_grad_norm: false` is refused when the engine starts together with ZenFlow, with the optimizer offloaded, or (ZeRO-1) with bf16 parameters and fp32 gradient accumulation (`data_types.grad_accum_dtype`). Drop `compute_grad_norm` (the fix), or remove the feature it conflicts with.",
        zh: "`zero_optimization.compute_grad_norm: false` 与 ZenFlow、优化器 offload，或（ZeRO-1 下）bf16 参数加 fp32 梯度累积（`data_types.grad_accum_dtype`）同时使用时，引擎启动会拒绝。请删除 `compute_grad_norm`（即修复），或去掉与之冲突的功能。",
    },
    CodeDoc {
        code: "context",
        severity: "warning",
        en: "Said only by the language server (`ds-studio lsp`), not by `ds-studio validate`: a key of the nearest `ds-studio.toml` (`deepspeed`, `launcher`, `world_size`, `trainer_args`, ...) could not be used. That key keeps its default and the rest of the file still counts; correct it in `ds-studio.toml`.",
        zh: "仅由语言服务器（`ds-studio lsp`）给出，`ds-studio validate` 不会报告：最近的 `ds-studio.toml` 中某个键（`deepspeed`、`launcher`、`world_size`、`trainer_args` 等）无法使用。该键按默认值处理，文件中其余设置仍然有效；请在 `ds-studio.toml` 中修正它。",
    },
    CodeDoc {
        code: "contiguous-gradients-off",
        severity: "info",
        en: "Tuning hint: with ZeRO enabled, `zero_optimization.contiguous_gradients` is false, so gradients are not copied into one contiguous buffer and memory fragments during the backward pass. The fix turns it on.",
        zh: "调优提示：启用 ZeRO 时 `zero_optimization.contiguous_gradients` 为 false，梯度不会放入连续缓冲区，反向传播时容易产生显存碎片。修复会将其开启。",
    },
    CodeDoc {
        code: "deprecated-conflict",
        severity: "error",
        en: "A deprecated `zero_optimization` key is given together with the key that replaces it (`cpu_offload` with `offload_optimizer`, `cpu_offload_param` with `offload_param`, `stage3_gather_fp16_weights_on_model_save` with `gather_16bit_weights_on_model_save`); DeepSpeed refuses both together (\"Cannot provide deprecated parameter ... and replacing parameter ... together\"). Keep the new key; the fix removes the old one.",
        zh: "已弃用的 `zero_optimization` 键与替代它的新键同时给出（`cpu_offload` 与 `offload_optimizer`、`cpu_offload_param` 与 `offload_param`、`stage3_gather_fp16_weights_on_model_save` 与 `gather_16bit_weights_on_model_save`）；DeepSpeed 不允许二者并存（“Cannot provide deprecated parameter ... and replacing parameter ... together”）。请保留新键；修复会删除旧键。",
    },
    CodeDoc {
        code: "deprecated-key",
        severity: "warning",
        en: "The key is deprecated: it still works but has a replacement (for example `cpu_offload` → `offload_optimizer`, `bfloat16` → `bf16`) or no effect any more; also the legacy `\"zero_optimization\": true/false` form and ZeRO-3 `elastic_checkpoint`, which is no longer supported. Use the replacement; a fix moves or rewrites the key where there is one.",
        zh: "该键已弃用：仍可使用但已有替代（例如 `cpu_offload` → `offload_optimizer`、`bfloat16` → `bf16`），或已不再生效；旧写法 `\"zero_optimization\": true/false` 以及已不再支持的 ZeRO-3 `elastic_checkpoint` 也会报告此项。请改用替代写法；有替代时修复会移动或改写该键。",
    },
    CodeDoc {
        code: "dtype-conflict",
        severity: "error",
        en: "`data_types.param_dtype` names a precision other than the one the `fp16`/`bf16` flags select, or, without ZeRO (stage 0), `data_types.grad_accum_dtype` differs from the model's precision, a mix DeepSpeed refuses with `NotImplementedError` at engine start. Make the data types agree with the `fp16`/`bf16` settings.",
        zh: "`data_types.param_dtype` 指定的精度与 `fp16`/`bf16` 开关决定的精度不一致；或者在不使用 ZeRO（stage 0）时，`data_types.grad_accum_dtype` 与模型精度不同，这种组合 DeepSpeed 启动引擎时会报 `NotImplementedError`。请让数据类型与 `fp16`/`bf16` 设置保持一致。",
    },
    CodeDoc {
        code: "duplicate-key",
        severity: "varies",
        en: "The same key appears twice in one object. Under the `deepspeed` launcher it is an error (DeepSpeed raises \"Duplicate keys in DeepSpeed config\"); under the HF Trainer or Accelerate it is a warning, because `json.load` silently keeps the last value and DeepSpeed never sees the earlier one. Remove the copy you do not mean.",
        zh: "同一对象中同一个键出现了两次。在 `deepspeed` 启动器下这是错误（DeepSpeed 会报 “Duplicate keys in DeepSpeed config”）；在 HF Trainer 或 Accelerate 下是警告，因为 `json.load` 会静默保留最后一个值，DeepSpeed 看不到前面的值。请删除不需要的那一份。",
    },
    CodeDoc {
        code: "elasticity",
        severity: "error",
        en: "Releases before 0.19.8 compute the elastic batch when they parse a config with `elasticity.enabled`, and this one fails there: an invalid `micro_batch_sizes`, `min_gpus`/`max_gpus`, `version` or `model_parallel_size`, a world size the elastic GPU counts do not allow, or batch keys (`train_batch_size`, ...) given without `\"ignore_non_elastic_batch_info\": true`. Fix the `elasticity` section as the message says (0.19.8 removed elasticity: there it is `removed-key`).",
        zh: "0.19.8 之前的版本在解析启用了 `elasticity.enabled` 的配置时会计算弹性批大小，而此配置在这一步失败：`micro_batch_sizes`、`min_gpus`/`max_gpus`、`version` 或 `model_parallel_size` 无效，world size 不在允许的弹性 GPU 数之中，或者给出了批大小键（`train_batch_size` 等）却没有设置 `\"ignore_non_elastic_batch_info\": true`。请按提示修改 `elasticity` 段（0.19.8 已移除弹性训练，在该版本中报告为 `removed-key`）。",
    },
    CodeDoc {
        code: "encoding",
        severity: "error",
        en: "Said by the CLI (`ds-studio validate` and `fmt`): the file is not UTF-8; the message gives the first bad byte with its offset, line and column. DeepSpeed and Python's `json` read config files as UTF-8 and stop with `UnicodeDecodeError`; re-save the file as UTF-8.",
        zh: "由 CLI（`ds-studio validate` 和 `fmt`）给出：文件不是 UTF-8 编码；消息会给出第一个非法字节及其偏移、行号和列号。DeepSpeed 和 Python 的 `json` 都以 UTF-8 读取配置文件，会报 `UnicodeDecodeError`；请以 UTF-8 重新保存文件。",
    },
    CodeDoc {
        code: "environment",
        severity: "error",
        en: "The config asks for something the target machine cannot do: `aio.use_gds` is on but the context's accelerator is not `cuda`, and DeepSpeed supports GDS only on CUDA. Turn `aio.use_gds` off, or validate for a CUDA accelerator.",
        zh: "配置要求了目标机器做不到的功能：`aio.use_gds` 已开启，但上下文中的加速器不是 `cuda`，而 DeepSpeed 仅在 CUDA 上支持 GDS。请关闭 `aio.use_gds`，或按 CUDA 加速器进行校验。",
    },
    CodeDoc {
        code: "fp16-and-bf16",
        severity: "error",
        en: "`fp16` and `bf16` are both enabled (\"bfloat16 and fp16 modes cannot be simultaneously enabled\"), or, in releases that still read apex `amp`, an enabled `amp` block is combined with DeepSpeed's `fp16`/`bf16` mode (`NotImplementedError` at engine start). Keep one precision mode.",
        zh: "`fp16` 与 `bf16` 同时启用（“bfloat16 and fp16 modes cannot be simultaneously enabled”）；或者在仍读取 apex `amp` 的版本中，启用的 `amp` 段与 DeepSpeed 的 `fp16`/`bf16` 模式同时使用（引擎启动时报 `NotImplementedError`）。请只保留一种精度模式。",
    },
    CodeDoc {
        code: "invalid-type",
        severity: "error",
        en: "A value has a type DeepSpeed cannot use: in a pydantic section the parse fails (including `null` where it is not allowed); for a lax key the parse passes but DeepSpeed fails later, when the engine starts or at the first training step; or a key DeepSpeed computes with while parsing (`optimizer.type`, `wall_clock_breakdown`, `vocabulary_size`, `optimizer.params.max_grad_norm`, ...) has the wrong type. Write a value of the type the message names.",
        zh: "值的类型 DeepSpeed 无法使用：在 pydantic 段中会导致解析失败（包括不允许为 `null` 的地方写了 `null`）；对宽松读取的键，解析能通过，但 DeepSpeed 会在启动引擎时或训练第一步时失败；或者 DeepSpeed 在解析时就要参与运算的键（`optimizer.type`、`wall_clock_breakdown`、`vocabulary_size`、`optimizer.params.max_grad_norm` 等）类型不对。请写成消息中所示的类型。",
    },
    CodeDoc {
        code: "invalid-value",
        severity: "varies",
        en: "A value is not one DeepSpeed accepts: not a member of the key's enumeration (`zero_optimization.offload_optimizer.device`, `log_level`, `gradient_allreduce_op`, `communication_data_type`, `checkpoint.tag_validation`, ...), or refused by a specific check (`fp16.loss_scale`, a scheduler's `warmup_num_steps`, `gradient_allreduce_op: \"sum\"` with ZeRO-3, ...). It is an error where the parse or the engine start fails (pydantic sections and the rule checks), and a warning for a value in a lax section that DeepSpeed only reads later. Use one of the allowed values the message lists.",
        zh: "值不是 DeepSpeed 接受的取值：不在该键的枚举范围内（`zero_optimization.offload_optimizer.device`、`log_level`、`gradient_allreduce_op`、`communication_data_type`、`checkpoint.tag_validation` 等），或被某项专门检查拒绝（`fp16.loss_scale`、调度器的 `warmup_num_steps`、ZeRO-3 下的 `gradient_allreduce_op: \"sum\"` 等）。在解析或启动引擎会失败的地方（pydantic 段及各项规则检查）是错误；对宽松段中 DeepSpeed 稍后才读取的值是警告。请使用消息中列出的允许取值。",
    },
    CodeDoc {
        code: "launcher-args-assumed",
        severity: "info",
        en: "Under the HF Trainer or Accelerate, some trainer arguments were not given, so the config was checked against their defaults (the Trainer's micro batch 8, accumulation 1, learning rate 5e-5, ...); the message lists the ones the config's keys were actually compared with. Give your real arguments (`--trainer-args`, `--trainer-args-file`, or the editor's context bar) for an exact check.",
        zh: "在 HF Trainer 或 Accelerate 下，部分训练参数没有给出，因此按其默认值检查配置（Trainer 的 micro batch 8、梯度累积 1、学习率 5e-5 等）；消息列出了实际与配置中的键比较过的那些参数。请给出真实的参数（`--trainer-args`、`--trainer-args-file` 或编辑器的上下文栏），以便准确检查。",
    },
    CodeDoc {
        code: "launcher-auto-unfilled",
        severity: "error",
        en: "A key is `\"auto\"` but the launcher has no value to fill it with: the HF Trainer fills only the batch sizes, `gradient_clipping`, `fp16`/`bf16.enabled`, the optimizer's `lr`/`betas`/`eps`/`weight_decay`, the scheduler's warmup and total steps and the three bucket sizes (plain Accelerate fewer: no `betas` or `eps`). HF stops with \"... not found in kwargs. Please specify ... without `auto`\"; write the value.",
        zh: "某个键为 `\"auto\"`，但启动器没有可填的值：HF Trainer 只填充批大小、`gradient_clipping`、`fp16`/`bf16.enabled`、优化器的 `lr`/`betas`/`eps`/`weight_decay`、调度器的 warmup 与总步数以及三个 bucket 大小（单独使用 Accelerate 时更少：不填 `betas` 和 `eps`）。HF 会报错 “... not found in kwargs. Please specify ... without `auto`”；请写出具体的值。",
    },
    CodeDoc {
        code: "launcher-env",
        severity: "info",
        en: "`checkpoint.writer` makes DeepSpeed read the `CROSS_SIZE` and `CROSS_RANK` environment variables when the engine starts; the `deepspeed` launcher and ds-studio's runner set them, but torchrun, `accelerate launch` or plain `python` do not, and DeepSpeed then fails with `KeyError: 'CROSS_SIZE'`. A note (info): under the `deepspeed` launcher they are set; under torchrun or `accelerate launch` set them yourself (number of nodes, this node's index).",
        zh: "`checkpoint.writer` 会让 DeepSpeed 在启动引擎时读取环境变量 `CROSS_SIZE` 和 `CROSS_RANK`；`deepspeed` 启动器和 ds-studio 的 runner 会设置它们，但 torchrun、`accelerate launch` 或直接用 `python` 启动时不会，DeepSpeed 随即报 `KeyError: 'CROSS_SIZE'`。这是提示（info）：`deepspeed` 启动器会设置它们；用 torchrun 或 `accelerate launch` 启动时请自行设置（节点数、本节点序号）。",
    },
    CodeDoc {
        code: "launcher-error",
        severity: "error",
        en: "The HF Trainer or Accelerate itself fails before DeepSpeed starts: the trainer arguments set both `bf16` and `fp16`, HF's code hits an `AttributeError`/`TypeError` on the config (a section it reads with `.get` is not an object, `tensor_parallel.autotp_size` is not a number), or `tensor_parallel.autotp_size` is larger than the world size (torch refuses the device mesh). Nothing after that point is judged; fix what the message names.",
        zh: "HF Trainer 或 Accelerate 在 DeepSpeed 启动之前自身就出错：训练参数同时设置了 `bf16` 和 `fp16`；HF 代码处理配置时遇到 `AttributeError`/`TypeError`（用 `.get` 读取的段不是对象、`tensor_parallel.autotp_size` 不是数字）；或 `tensor_parallel.autotp_size` 大于 world size（torch 拒绝建立该 device mesh）。此后的内容不再检查；请修正消息所指的问题。",
    },
    CodeDoc {
        code: "launcher-inserts-accumulation",
        severity: "info",
        en: "The config sets `train_batch_size` and `train_micro_batch_size_per_gpu` but no `gradient_accumulation_steps`; the HF Trainer and Accelerate then add `\"gradient_accumulation_steps\": 1`, so DeepSpeed does not derive it from `train_batch_size`. Set `gradient_accumulation_steps` (or `\"auto\"`) explicitly if you meant another value.",
        zh: "配置设置了 `train_batch_size` 和 `train_micro_batch_size_per_gpu`，但没有 `gradient_accumulation_steps`；此时 HF Trainer 和 Accelerate 会写入 `\"gradient_accumulation_steps\": 1`，DeepSpeed 不会再由 `train_batch_size` 推导它。如果想要别的值，请显式设置 `gradient_accumulation_steps`（或 `\"auto\"`）。",
    },
    CodeDoc {
        code: "launcher-mismatch",
        severity: "error",
        en: "HF Trainer only: an explicit config value differs from the TrainingArguments value it must match (for example `optimizer.params.lr` vs `learning_rate`, `gradient_clipping` vs `max_grad_norm`, the batch sizes vs `per_device_train_batch_size`), and the Trainer stops with \"Please correct the following DeepSpeed config values that mismatch TrainingArguments values\". Set the key to `\"auto\"` (the fix, which says what `\"auto\"` will become) or change the argument.",
        zh: "仅限 HF Trainer：配置中显式写出的值与必须一致的 TrainingArguments 值不同（例如 `optimizer.params.lr` 与 `learning_rate`、`gradient_clipping` 与 `max_grad_norm`、批大小与 `per_device_train_batch_size`），Trainer 会报错 “Please correct the following DeepSpeed config values that mismatch TrainingArguments values”。请把该键改为 `\"auto\"`（即修复，并注明 `\"auto\"` 会被替换成什么），或修改对应参数。",
    },
    CodeDoc {
        code: "launcher-needs-zero",
        severity: "error",
        en: "Under the HF Trainer or Accelerate the config has no `zero_optimization` section, and accelerate's `DeepSpeedPlugin` refuses it (\"Please specify the ZeRO optimization config in the DeepSpeed config.\"). Add one; the fix adds `{\"stage\": 0}` for no ZeRO.",
        zh: "在 HF Trainer 或 Accelerate 下，配置中没有 `zero_optimization` 段，accelerate 的 `DeepSpeedPlugin` 会拒绝（“Please specify the ZeRO optimization config in the DeepSpeed config.”）。请添加该段；修复会添加表示不使用 ZeRO 的 `{\"stage\": 0}`。",
    },
    CodeDoc {
        code: "launcher-precision-conflict",
        severity: "error",
        en: "The config enables `fp16` while the launcher runs with bf16 (or enables `bf16` while it runs with fp16), from the trainer arguments or `--mixed_precision`; accelerate refuses it (\"`--mixed_precision` arg cannot be set to ... when ... is set in the DeepSpeed config file\"). Make them agree; the fix sets the config's `enabled` to `\"auto\"`.",
        zh: "配置启用了 `fp16`，而启动器按训练参数或 `--mixed_precision` 以 bf16 运行（或反之启用了 `bf16` 而以 fp16 运行）；accelerate 会拒绝（“`--mixed_precision` arg cannot be set to ... when ... is set in the DeepSpeed config file”）。请让二者一致；修复会把配置中的 `enabled` 改为 `\"auto\"`。",
    },
    CodeDoc {
        code: "launcher-scheduler-overridden",
        severity: "warning",
        en: "HF Trainer: the trainer arguments ask for an `lr_scheduler_type` (for example `cosine`) but the config has a `scheduler` of another kind, and the Trainer then runs the config's scheduler and ignores the argument without a word. Remove `scheduler` to train with the argument's schedule (the fix), or keep it and drop `lr_scheduler_type`.",
        zh: "HF Trainer：训练参数要求某个 `lr_scheduler_type`（例如 `cosine`），但配置中的 `scheduler` 是另一种，Trainer 会运行配置中的调度器并静默忽略该参数。要使用参数指定的调度方式，请删除 `scheduler`（即修复）；或保留它并去掉 `lr_scheduler_type`。",
    },
    CodeDoc {
        code: "launcher-steps-per-print-overridden",
        severity: "warning",
        en: "Under the HF Trainer or Accelerate, `steps_per_print` is not used: accelerate's `DeepSpeedPlugin` sets it to infinity, so DeepSpeed prints no progress lines of its own. How often training is reported is the Trainer's `logging_steps` (or your script's own logging); the fix removes the key.",
        zh: "在 HF Trainer 或 Accelerate 下，`steps_per_print` 不会生效：accelerate 的 `DeepSpeedPlugin` 会把它设为无穷大，DeepSpeed 不再打印自己的进度行。训练日志的频率由 Trainer 的 `logging_steps`（或你脚本自己的日志）决定；修复会删除此键。",
    },
    CodeDoc {
        code: "launcher-steps-unknown",
        severity: "info",
        en: "HF Trainer: the config sets an explicit `scheduler.params.total_num_steps`, which the Trainer compares with its own number of training steps, but that number is unknown without `max_steps` or the dataset size. Give `max_steps` or `train_samples` in the trainer arguments to have it checked, or use `\"auto\"`.",
        zh: "HF Trainer：配置显式设置了 `scheduler.params.total_num_steps`，Trainer 会把它与自己的训练总步数比较，但没有 `max_steps` 或数据集大小时无法得知该步数。请在训练参数中给出 `max_steps` 或 `train_samples` 以便检查，或改用 `\"auto\"`。",
    },
    CodeDoc {
        code: "legacy-stage1",
        severity: "error",
        en: "`zero_optimization.legacy_stage1` is true, but the old ZeRO stage 1 implementation is not supported in DeepSpeed >= 0.5.9, and the engine refuses it when it starts. Remove the key (or set it to false).",
        zh: "`zero_optimization.legacy_stage1` 为 true，但 DeepSpeed >= 0.5.9 已不再支持旧版 ZeRO stage 1 实现，启动引擎时会拒绝。请删除该键（或设为 false）。",
    },
    CodeDoc {
        code: "loss-scale",
        severity: "error",
        en: "With `fp16` enabled and dynamic loss scaling (`fp16.loss_scale` 0), releases that validate it require `fp16.loss_scale_window` and `fp16.min_loss_scale` to be greater than 0. Use positive values (defaults: window 1000, minimum 1).",
        zh: "启用 `fp16` 且使用动态 loss scaling（`fp16.loss_scale` 为 0）时，带有该校验的版本要求 `fp16.loss_scale_window` 与 `fp16.min_loss_scale` 大于 0。请使用正数（默认值：window 1000，最小值 1）。",
    },
    CodeDoc {
        code: "master-weights-optimizer",
        severity: "varies",
        en: "Master weights in fp16/bf16 (`fp16.fp16_master_weights_and_grads` or `bf16.bf16_master_weights_and_grads`) need the optimizer state offloaded (`zero_optimization.offload_optimizer.device: \"cpu\"`) to a DeepSpeedCPUAdam, which DeepSpeed builds only for `Adam`/`AdamW` without `torch_adam`; otherwise the engine asserts at start. An error, except with no `optimizer` section, where it is a warning: the script's own optimizer may be a DeepSpeedCPUAdam (under the HF launchers, Accelerate swaps the Trainer's AdamW for one when the optimizer is offloaded, and the engine starts). Offload the optimizer (the fix) and use Adam/AdamW.",
        zh: "fp16/bf16 主权重（`fp16.fp16_master_weights_and_grads` 或 `bf16.bf16_master_weights_and_grads`）要求把优化器状态 offload（`zero_optimization.offload_optimizer.device: \"cpu\"`）到 DeepSpeedCPUAdam，而 DeepSpeed 只为不带 `torch_adam` 的 `Adam`/`AdamW` 构建它；否则引擎启动时断言失败。这通常是错误；没有 `optimizer` 段时是警告：脚本自带的优化器可能正是 DeepSpeedCPUAdam（在 HF 启动器下，优化器被 offload 时 Accelerate 会把 Trainer 的 AdamW 换成 DeepSpeedCPUAdam，引擎可以启动）。请 offload 优化器（即修复）并使用 Adam/AdamW。",
    },
    CodeDoc {
        code: "master-weights-stage",
        severity: "error",
        en: "Master-weight options need a ZeRO stage the release supports: `fp16.fp16_master_weights_and_grads` needs ZeRO stage 2 before 0.18.3 and stage 1, 2 or 3 from 0.18.3; `bf16_master_weights_and_grads` and `bf16_optimizer_states` need stage 1–3, and `bf16_optimizer_states` also needs `bf16_master_weights_and_grads`. Change `zero_optimization.stage` or turn the option off.",
        zh: "主权重相关选项需要该版本支持的 ZeRO stage：`fp16.fp16_master_weights_and_grads` 在 0.18.3 之前只支持 stage 2，自 0.18.3 起支持 stage 1、2、3；`bf16_master_weights_and_grads` 与 `bf16_optimizer_states` 需要 stage 1–3，且 `bf16_optimizer_states` 还需要同时启用 `bf16_master_weights_and_grads`。请修改 `zero_optimization.stage` 或关闭该选项。",
    },
    CodeDoc {
        code: "max-grad-norm",
        severity: "error",
        en: "`optimizer.params.max_grad_norm` is refused when the engine starts (\"'max_grad_norm' is not supported as an optimizer parameter, please switch to using the deepspeed parameter 'gradient_clipping'\"). Move the value to the top-level `gradient_clipping`; the fix does.",
        zh: "`optimizer.params.max_grad_norm` 会在启动引擎时被拒绝（“'max_grad_norm' is not supported as an optimizer parameter, please switch to using the deepspeed parameter 'gradient_clipping'”）。请把该值移到顶层的 `gradient_clipping`；修复即如此。",
    },
    CodeDoc {
        code: "misplaced-key",
        severity: "warning",
        en: "A top-level key belongs elsewhere: a `zero_optimization` key (such as `stage` or `offload_optimizer`) written at the top level, or an `accelerate config` YAML key (`zero_stage`, `offload_optimizer_device`, `mixed_precision`, ...) pasted into a DeepSpeed config. DeepSpeed silently ignores it there; move it into `zero_optimization` (the fix, where possible) or write the DeepSpeed key the message names.",
        zh: "某个顶层键应放在别处：本属于 `zero_optimization` 的键（如 `stage`、`offload_optimizer`）写在了顶层，或者把 `accelerate config` YAML 的键（`zero_stage`、`offload_optimizer_device`、`mixed_precision` 等）粘贴进了 DeepSpeed 配置。DeepSpeed 在该位置会静默忽略它；请把它移入 `zero_optimization`（可行时修复即如此），或改写成消息中给出的 DeepSpeed 键。",
    },
    CodeDoc {
        code: "missing-key",
        severity: "error",
        en: "A key that DeepSpeed needs is missing: a scheduler's required parameter (`total_num_steps` for `WarmupDecayLR`/`WarmupCosineLR`, `cycle_min_lr` and `cycle_max_lr` for `OneCycle`; `TypeError` at engine start), `curriculum_metrics` when data-efficiency curriculum learning is enabled, `max_tokens` when dynamic batching is enabled, or `enabled` in the legacy `curriculum_learning` section (`KeyError`). Add the key the message names.",
        zh: "缺少 DeepSpeed 需要的键：调度器的必需参数（`WarmupDecayLR`/`WarmupCosineLR` 需要 `total_num_steps`，`OneCycle` 需要 `cycle_min_lr` 和 `cycle_max_lr`；启动引擎时报 `TypeError`），启用 data efficiency 的 curriculum learning 时缺少 `curriculum_metrics`，启用 dynamic batching 时缺少 `max_tokens`，或旧版 `curriculum_learning` 段缺少 `enabled`（报 `KeyError`）。请添加消息中指出的键。",
    },
    CodeDoc {
        code: "moq-needs-fp16",
        severity: "error",
        en: "MoQ weight quantization in the optimizer step (`compression_training.weight_quantization.shared_parameters.enabled` without `quantize_weight_in_forward`, releases before 0.19.7) is supported only with fp16, and the engine asserts it when it starts. Enable `fp16`, or set `quantize_weight_in_forward`.",
        zh: "在优化步中进行的 MoQ 权重量化（启用了 `compression_training.weight_quantization.shared_parameters.enabled` 但未设置 `quantize_weight_in_forward`，适用于 0.19.7 之前的版本）只支持 fp16，引擎启动时会断言。请启用 `fp16`，或设置 `quantize_weight_in_forward`。",
    },
    CodeDoc {
        code: "more-diagnostics",
        severity: "varies",
        en: "The document has more than 500 findings: the first 499 are listed and this last one counts the rest (\"at least\" when the walk stopped early). Its severity is the most severe among those not listed, so an error after the cut still rejects the config. Fix the listed problems first and validate again.",
        zh: "文档中的问题超过 500 个：只列出前 499 个，最后这一条统计其余问题的数量（提前停止检查时会写“至少”）。它的严重级别取未列出问题中最严重的一个，因此截断之后的错误仍会使配置被拒绝。请先修正已列出的问题，再重新校验。",
    },
    CodeDoc {
        code: "not-an-object",
        severity: "error",
        en: "The document parses, but its root is not a JSON object (an array, a string, a number, ...); a DeepSpeed config must be an object of keys. Wrap the settings in `{ ... }`.",
        zh: "文档可以解析，但根不是 JSON 对象（而是数组、字符串、数字等）；DeepSpeed 配置必须是由键组成的对象。请把设置放进 `{ ... }` 中。",
    },
    CodeDoc {
        code: "not-in-release",
        severity: "varies",
        en: "The key exists in other DeepSpeed releases but not in the chosen one: it arrived later, or was dropped. In a pydantic section it is an error (\"Extra inputs are not permitted\"); elsewhere a warning, since DeepSpeed silently ignores it. Remove it (the fix) or validate for a release that reads it (`--deepspeed`).",
        zh: "该键存在于其他 DeepSpeed 版本，但所选版本没有：它是后来才加入的，或已被去掉。在 pydantic 段中这是错误（“Extra inputs are not permitted”）；在其他位置是警告，因为 DeepSpeed 会静默忽略它。请删除它（即修复），或按支持它的版本校验（`--deepspeed`）。",
    },
    CodeDoc {
        code: "not-json",
        severity: "error",
        en: "Under the HF Trainer or Accelerate the file is read with Python's `json.load`, not DeepSpeed's hjson reader, so each hjson-only construct (a comment, a trailing comma, a missing comma, an unquoted key, a single-quoted, quoteless or ''' string, a byte order mark, a root without braces) stops the load with a `JSONDecodeError`. A text fix rewrites it as strict JSON where that keeps the meaning (not for ''' strings).",
        zh: "在 HF Trainer 或 Accelerate 下，文件由 Python 的 `json.load` 读取，而不是 DeepSpeed 的 hjson 读取器，因此每个 hjson 特有的写法（注释、右括号前的逗号、缺少逗号、未加引号的键、单引号/无引号/''' 字符串、字节顺序标记、省略花括号的根对象）都会使读取因 `JSONDecodeError` 而中止。在不改变含义时，文本修复会将其改写为严格的 JSON（''' 字符串除外）。",
    },
    CodeDoc {
        code: "offload-unpinned",
        severity: "info",
        en: "Tuning hint: `zero_optimization.offload_optimizer` or `offload_param` goes to the CPU with `pin_memory` false, so host–device copies are slower. Set `pin_memory: true` if the host has RAM to spare.",
        zh: "调优提示：`zero_optimization.offload_optimizer` 或 `offload_param` offload 到 CPU，但 `pin_memory` 为 false，主机与设备之间的拷贝更慢。主机内存充足时建议设置 `pin_memory: true`。",
    },
    CodeDoc {
        code: "optimizer-not-in-release",
        severity: "error",
        en: "`optimizer.type` names a DeepSpeed optimizer that the chosen release does not have: it arrived in a later release, or was removed (the 1-bit family: `OneBitAdam`, `ZeroOneAdam`, `OneBitLamb`), and the engine fails at start (\"... is not a supported DeepSpeed Optimizer\"). Choose a release that has it, or, for a removed one, take the fix: its plain counterpart (`Adam`, or `Lamb` for 1-bit Lamb) without the parameters only the removed one read.",
        zh: "`optimizer.type` 指定的 DeepSpeed 优化器在所选版本中不存在：它在更新的版本中才加入，或已被移除（1-bit 系列：`OneBitAdam`、`ZeroOneAdam`、`OneBitLamb`），引擎启动时会报错（“... is not a supported DeepSpeed Optimizer”）。请选择包含它的版本；若是已移除的优化器，可采用修复：改为对应的普通优化器（`Adam`，1-bit Lamb 则为 `Lamb`），并删除只有被移除的优化器才读取的参数。",
    },
    CodeDoc {
        code: "out-of-range",
        severity: "varies",
        en: "A number is outside the bounds the chosen release puts on the key (for example a negative bucket size, or `NaN`). An error in a pydantic section, where the parse fails; a warning for a lax key, which DeepSpeed reads later. Use a value within the bounds the message gives.",
        zh: "数值超出了所选版本对该键规定的范围（例如负的 bucket 大小，或 `NaN`）。在 pydantic 段中是错误，解析会失败；对宽松读取的键是警告，DeepSpeed 稍后才读取它。请使用消息中给出的范围内的值。",
    },
    CodeDoc {
        code: "overlap-comm-off",
        severity: "info",
        en: "Tuning hint: with ZeRO enabled, `zero_optimization.overlap_comm` is false, so gradient reduction waits for the backward pass instead of overlapping with it. Turning it on (the fix) usually raises throughput at the cost of some memory.",
        zh: "调优提示：启用 ZeRO 时 `zero_optimization.overlap_comm` 为 false，梯度规约要等反向计算结束，无法与之重叠。开启它（即修复）通常能提升吞吐，代价是多占一些显存。",
    },
    CodeDoc {
        code: "partial-offload-stage",
        severity: "error",
        en: "`zero_optimization.offload_optimizer.ratio` below 1 (partial offloading) is supported only with ZeRO stage 3, and DeepSpeed rejects it at parse otherwise (\"Partial offloading only supported for ZeRO Stage 3.\"; not checked by 0.14.x). Use stage 3, or a ratio of 1.",
        zh: "`zero_optimization.offload_optimizer.ratio` 小于 1（部分 offload）仅支持 ZeRO stage 3，否则 DeepSpeed 解析时会拒绝（“Partial offloading only supported for ZeRO Stage 3.”；0.14.x 不检查）。请使用 stage 3，或把 ratio 设为 1。",
    },
    CodeDoc {
        code: "progress-hidden",
        severity: "info",
        en: "Tuning hint: `steps_per_print` is set, but DeepSpeed logs at WARNING by default, so its progress lines never appear. Add `\"log_level\": \"info\"` (the fix).",
        zh: "调优提示：设置了 `steps_per_print`，但 DeepSpeed 默认日志级别为 WARNING，进度行不会出现。请添加 `\"log_level\": \"info\"`（即修复）。",
    },
    CodeDoc {
        code: "removed-key",
        severity: "error",
        en: "The chosen DeepSpeed release removed this feature (for example `amp`, `elasticity` and `curriculum_learning` in 0.19.8, `sparse_attention` and `compression_training` in 0.19.7) and fails with `DeepSpeedConfigError` when the key is present; the message names the last release that reads it. Remove the key (the fix; for an enabled `amp` block it turns on DeepSpeed's `fp16` instead) or validate for an older release.",
        zh: "所选 DeepSpeed 版本已移除该功能（例如 0.19.8 移除了 `amp`、`elasticity`、`curriculum_learning`，0.19.7 移除了 `sparse_attention`、`compression_training`），配置中出现该键就会报 `DeepSpeedConfigError`；消息会给出最后支持它的版本。请删除该键（即修复；对启用的 `amp` 段，修复会改为开启 DeepSpeed 的 `fp16`），或按更早的版本校验。",
    },
    CodeDoc {
        code: "renamed-key",
        severity: "warning",
        en: "The key was renamed in the chosen release (for example `seq_parallel_comm_data_type` became `seq_parallel_communication_data_type` in 0.16.5), and DeepSpeed silently ignores the old name. Use the new name; the fix renames it.",
        zh: "该键在所选版本中已改名（例如 `seq_parallel_comm_data_type` 在 0.16.5 中改为 `seq_parallel_communication_data_type`），DeepSpeed 会静默忽略旧名。请使用新名字；修复会将其改名。",
    },
    CodeDoc {
        code: "scheduler-params",
        severity: "error",
        en: "`scheduler` names a scheduler but has no `params` object (missing, `null` or not an object); DeepSpeed builds it as `Scheduler(optimizer, **params)` and fails with `TypeError` (\"argument after ** must be a mapping\") when the engine starts. Add a `params` object with the scheduler's settings.",
        zh: "`scheduler` 指定了调度器，但没有 `params` 对象（缺失、为 `null` 或不是对象）；DeepSpeed 以 `Scheduler(optimizer, **params)` 的方式构建它，启动引擎时会报 `TypeError`（“argument after ** must be a mapping”）。请添加包含调度器设置的 `params` 对象。",
    },
    CodeDoc {
        code: "section-not-object",
        severity: "error",
        en: "A section DeepSpeed unpacks with `**` or reads with `.get()` (`fp16`, `bf16`, `zero_optimization`, `optimizer`, `scheduler`, `checkpoint`, `tensorboard`, ...) is not an object, and the parse fails. Write an object; for `\"optimizer\": \"AdamW\"` (or a scheduler name) the fix writes `{\"type\": \"AdamW\"}`.",
        zh: "DeepSpeed 用 `**` 解包或用 `.get()` 读取的段（`fp16`、`bf16`、`zero_optimization`、`optimizer`、`scheduler`、`checkpoint`、`tensorboard` 等）不是对象，解析会失败。请写成对象；对 `\"optimizer\": \"AdamW\"`（或直接写调度器名）修复会改为 `{\"type\": \"AdamW\"}`。",
    },
    CodeDoc {
        code: "sp-not-dividing",
        severity: "warning",
        en: "When the config reaches DeepSpeed as a dict (as under the HF launchers), DeepSpeed divides the world size by the config's `sequence_parallel_size`; here that value does not divide the number of ranks, so the batch triple only holds by accident of the arithmetic (a fractional world size). Use a `sequence_parallel_size` that divides the number of ranks.",
        zh: "当配置以 dict 形式交给 DeepSpeed 时（如在 HF 启动器下），DeepSpeed 会用配置中的 `sequence_parallel_size` 去除 world size；这里该值不能整除进程数，批大小三元组只是因算术巧合（world size 成了小数）才成立。请使用能整除进程数的 `sequence_parallel_size`。",
    },
    CodeDoc {
        code: "sparse-progress",
        severity: "info",
        en: "Tuning hint: `steps_per_print` is above 1000, so progress is printed so rarely that a stalled run looks the same as a healthy one; 10–100 is typical. The fix sets 100.",
        zh: "调优提示：`steps_per_print` 大于 1000，进度打印间隔过大，训练卡住与正常运行看起来一样；一般取 10–100。修复会设为 100。",
    },
    CodeDoc {
        code: "stage3-only",
        severity: "warning",
        en: "A `zero_optimization` key that only takes effect at ZeRO stage 3 (`offload_param`, `stage3_prefetch_bucket_size`, `stage3_max_live_parameters`, ...) is set while the stage is below 3, and DeepSpeed silently ignores it. Remove it (the fix) or switch to stage 3.",
        zh: "只在 ZeRO stage 3 生效的 `zero_optimization` 键（`offload_param`、`stage3_prefetch_bucket_size`、`stage3_max_live_parameters` 等）在 stage 低于 3 时被设置，DeepSpeed 会静默忽略它。请删除它（即修复），或改用 stage 3。",
    },
    CodeDoc {
        code: "syntax",
        severity: "error",
        en: "The text cannot be read as a config: under the `deepspeed` launcher it is not valid JSON or hjson (DeepSpeed reads files with hjson); under the HF Trainer or Accelerate it is not valid JSON for Python's `json.load`. The message gives the problem at its line and column (an unterminated string, a missing `:`, an empty document, ...); fix the text there.",
        zh: "文本无法作为配置读取：在 `deepspeed` 启动器下，它不是合法的 JSON 或 hjson（DeepSpeed 用 hjson 读取文件）；在 HF Trainer 或 Accelerate 下，它不是 Python `json.load` 能读取的合法 JSON。消息会给出问题所在的行和列（字符串缺少结束引号、缺少 `:`、文档为空等）；请在该处修正文本。",
    },
    CodeDoc {
        code: "unknown-key",
        severity: "varies",
        en: "The key is not one DeepSpeed knows in this place. In a pydantic section it is an error (\"Extra inputs are not permitted\"); elsewhere, including close misspellings in sections DeepSpeed reads loosely, a warning, since DeepSpeed silently ignores it. The message suggests the key you probably meant (\"did you mean\") or the section it belongs in, and the fix renames or moves it.",
        zh: "该键在此位置不是 DeepSpeed 认识的键。在 pydantic 段中是错误（“Extra inputs are not permitted”）；在其他位置（包括在 DeepSpeed 宽松读取的段中与已知键相近的拼写错误）是警告，因为 DeepSpeed 会静默忽略它。消息会给出你可能想写的键（“是否想写”）或它应属的段，修复会将其改名或移动。",
    },
    CodeDoc {
        code: "unknown-optimizer",
        severity: "error",
        en: "`optimizer.type` is neither a DeepSpeed optimizer nor a `torch.optim` class, and the engine fails at start (\"... is not a supported DeepSpeed Optimizer\"). The fix replaces it with the closest known name; check that it is the one you meant.",
        zh: "`optimizer.type` 既不是 DeepSpeed 的优化器，也不是 `torch.optim` 中的类，引擎启动时会报错（“... is not a supported DeepSpeed Optimizer”）。修复会替换为最接近的已知名称；请确认这正是你想要的。",
    },
    CodeDoc {
        code: "unknown-optimizer-param",
        severity: "error",
        en: "A key in `optimizer.params` is not a parameter of the optimizer class DeepSpeed builds, and building it raises `TypeError`. Remove it, or rename it as the message suggests (for example `learning_rate` → `lr`, `epsilon` → `eps`); the fix renames it where the right name is not set already.",
        zh: "`optimizer.params` 中的某个键不是 DeepSpeed 所构建的优化器类的参数，构建时会报 `TypeError`。请删除它，或按消息建议改名（例如 `learning_rate` → `lr`、`epsilon` → `eps`）；在正确的名字尚未设置时，修复会将其改名。",
    },
    CodeDoc {
        code: "unknown-release",
        severity: "error",
        en: "The context names a DeepSpeed release outside the supported range (0.14.4 – 0.19.8), so nothing else is judged. Choose a supported release. The CLI (`--deepspeed`), the REST API (`context.deepspeed_version`) and the language server (`ds-studio.toml`) refuse an unknown release before validating, so this mostly reaches code that calls the shared library's `validate` directly.",
        zh: "上下文指定的 DeepSpeed 版本不在支持范围（0.14.4 – 0.19.8）之内，因此不做其他任何检查。请选择受支持的版本。CLI（`--deepspeed`）、REST API（`context.deepspeed_version`）和语言服务器（`ds-studio.toml`）都会在校验之前拒绝未知版本，因此此项主要出现在直接调用共享库 `validate` 的代码中。",
    },
    CodeDoc {
        code: "unknown-scheduler",
        severity: "error",
        en: "`scheduler.type` is neither one of DeepSpeed's schedulers (`WarmupLR`, `WarmupDecayLR`, `WarmupCosineLR`, `OneCycle`, `LRRangeTest`) nor a `torch.optim.lr_scheduler` class, and the engine fails at start. Use one of those names (they are case-sensitive).",
        zh: "`scheduler.type` 既不是 DeepSpeed 的调度器（`WarmupLR`、`WarmupDecayLR`、`WarmupCosineLR`、`OneCycle`、`LRRangeTest`），也不是 `torch.optim.lr_scheduler` 中的类，引擎启动时会报错。请使用这些名字之一（区分大小写）。",
    },
    CodeDoc {
        code: "unknown-scheduler-param",
        severity: "error",
        en: "A key in `scheduler.params` is not a parameter of the scheduler, and building it raises `TypeError`. Remove it or rename it as suggested (the fix renames a close misspelling); for `WarmupCosineLR`, a peak such as `warmup_max_lr` belongs in `optimizer.params.lr` instead.",
        zh: "`scheduler.params` 中的某个键不是该调度器的参数，构建时会报 `TypeError`。请删除它或按建议改名（对相近的拼写错误修复会将其改名）；对 `WarmupCosineLR`，`warmup_max_lr` 之类的峰值学习率应改写到 `optimizer.params.lr`。",
    },
    CodeDoc {
        code: "unreadable",
        severity: "error",
        en: "Said by the CLI: `ds-studio validate` could not read a file (missing, a directory, no permission). It appears as a diagnostic only in `--format github` annotations; otherwise the CLI prints \"cannot read ...\" on stderr (with `--format json`, a line whose verdict is `unreadable`), and the exit status is 2. Check the path and permissions.",
        zh: "由 CLI 给出：`ds-studio validate` 无法读取某个文件（不存在、是目录或没有权限）。它只在 `--format github` 的注释中作为诊断出现；其他格式下 CLI 会在 stderr 打印 “cannot read ...”（`--format json` 时输出一行 verdict 为 `unreadable` 的记录），退出码为 2。请检查路径和权限。",
    },
    CodeDoc {
        code: "vocab-alignment",
        severity: "warning",
        en: "`vocabulary_size` is not a multiple of 8, which may hurt tensor core utilization. Pad the vocabulary to a multiple of 8 (or 64) if the model allows it.",
        zh: "`vocabulary_size` 不是 8 的倍数，可能降低 Tensor Core 利用率。如果模型允许，请把词表填充到 8（或 64）的倍数。",
    },
    CodeDoc {
        code: "wall-clock-breakdown",
        severity: "info",
        en: "Tuning hint: `wall_clock_breakdown` synchronizes the device on every step to time it, which slows training. Keep it on for profiling runs only.",
        zh: "调优提示：`wall_clock_breakdown` 会在每一步同步设备以计时，会拖慢训练。仅在性能分析时开启。",
    },
    CodeDoc {
        code: "workload-needs-optimizer",
        severity: "error",
        en: "Said when a job or sweep is submitted to the server, not by `ds-studio validate`: the built-in workload passes no optimizer of its own, and with ZeRO stage 1 or 2 and no `optimizer` section DeepSpeed stops at start with \"zero stage N requires an optimizer\" (under the `deepspeed` launcher only). Add an `optimizer` section; the fix adds AdamW.",
        zh: "在向服务器提交任务或参数扫描时给出，`ds-studio validate` 不会报告：内置工作负载不自带优化器，在 ZeRO stage 1 或 2 且配置中没有 `optimizer` 段时，DeepSpeed 启动即报错 “zero stage N requires an optimizer”（仅限 `deepspeed` 启动器）。请添加 `optimizer` 段；修复会添加 AdamW。",
    },
    CodeDoc {
        code: "wrong-type",
        severity: "warning",
        en: "A key DeepSpeed reads loosely has the wrong type (for example a string where a number belongs), or an optimizer/scheduler parameter that is a number is written as a string (`\"lr\": \"3e-4\"`), which the class receives as is and fails on when it uses it. DeepSpeed accepts it when it parses the config; write the right type (the fix converts a quoted number). Dropped where an error already names the same key.",
        zh: "DeepSpeed 宽松读取的键类型不对（例如该写数字的地方写了字符串），或者优化器/调度器中本应是数字的参数写成了字符串（`\"lr\": \"3e-4\"`），类会原样收到字符串并在使用时出错。DeepSpeed 解析配置时会接受它；请写成正确的类型（对带引号的数字，修复会转换）。如果同一键已有错误，则不再报告此项。",
    },
    CodeDoc {
        code: "zenflow-needs-offload",
        severity: "error",
        en: "ZenFlow (`zero_optimization.zenflow`) with ZeRO stage 1 or 2 must be used with CPU offload, and the engine raises `ValueError` at start when `zero_optimization.offload_optimizer.device` is not set. Offload the optimizer to `\"cpu\"`; the fix does.",
        zh: "ZeRO stage 1 或 2 下，ZenFlow（`zero_optimization.zenflow`）必须与 CPU offload 一起使用；未设置 `zero_optimization.offload_optimizer.device` 时引擎启动会报 `ValueError`。请把优化器 offload 到 `\"cpu\"`；修复即如此。",
    },
    CodeDoc {
        code: "zenflow-select",
        severity: "error",
        en: "`zero_optimization.zenflow`'s `select_strategy` and `select_interval` disagree, and the engine refuses them at start: a numeric `select_interval` with the default `\"auto\"` strategy (the fix removes it), `\"step\"`/`\"epoch\"` without a numeric `select_interval`, or, with `\"step\"`, a `select_interval` smaller than `update_interval`. Make the pair consistent as the message says.",
        zh: "`zero_optimization.zenflow` 的 `select_strategy` 与 `select_interval` 不匹配，引擎启动时会拒绝：策略为默认的 `\"auto\"` 却给了数字 `select_interval`（修复会删除它），策略为 `\"step\"`/`\"epoch\"` 却没有数字 `select_interval`，或策略为 `\"step\"` 时 `select_interval` 小于 `update_interval`。请按消息所述使二者一致。",
    },
    CodeDoc {
        code: "zero-incompatible",
        severity: "error",
        en: "A setting DeepSpeed does not support with this ZeRO setup: `prescale_gradients` or `gradient_predivide_factor` ≠ 1 with ZeRO-2 reduce-scatter or ZeRO-3, `compute_grad_norm: false` outside stages 1–2, ZeRO-2/3 with pipeline parallelism, a 1-bit optimizer with ZeRO, Lamb with a static `fp16.loss_scale`, or apex `amp` with ZeRO. Remove or change the conflicting setting the message names.",
        zh: "该 ZeRO 配置下 DeepSpeed 不支持的设置：ZeRO-2 reduce-scatter 或 ZeRO-3 下使用 `prescale_gradients` 或 `gradient_predivide_factor` ≠ 1，在 stage 1–2 以外使用 `compute_grad_norm: false`，ZeRO-2/3 与流水线并行同时使用，1-bit 优化器与 ZeRO 同时使用，Lamb 使用静态 `fp16.loss_scale`，或 apex `amp` 与 ZeRO 同时使用。请删除或修改消息中指出的冲突设置。",
    },
    CodeDoc {
        code: "zero-untested-optimizer",
        severity: "error",
        en: "With ZeRO enabled, `optimizer.type` is not on ZeRO's tested list (Adam, AdamW, Adagrad, Lion, Muon), or is the ZenFlowCPUAdam that releases before 0.19.3 do not list, and the engine refuses it at start unless `zero_allow_untested_optimizer` is true. Switch to a tested optimizer, or add `\"zero_allow_untested_optimizer\": true` (the fix).",
        zh: "启用 ZeRO 时，`optimizer.type` 不在 ZeRO 测试过的优化器列表中（Adam、AdamW、Adagrad、Lion、Muon），或者是 0.19.3 之前的版本未列入的 ZenFlowCPUAdam；除非 `zero_allow_untested_optimizer` 为 true，否则引擎启动时会拒绝。请改用测试过的优化器，或添加 `\"zero_allow_untested_optimizer\": true`（即修复）。",
    },
    CodeDoc {
        code: "zero3-save-weights",
        severity: "warning",
        en: "ZeRO-3 without `stage3_gather_16bit_weights_on_model_save: true` while the model is saved as a Hugging Face checkpoint (the default under the HF launchers): `save_pretrained`/`save_model` writes only this rank's empty shards, a tiny, useless model file. The fix adds `\"stage3_gather_16bit_weights_on_model_save\": true`.",
        zh: "使用 ZeRO-3 却未设置 `stage3_gather_16bit_weights_on_model_save: true`，而模型以 Hugging Face 格式保存（HF 启动器下默认如此）：`save_pretrained`/`save_model` 只会保存本 rank 的空分片，得到一个很小且不可用的模型文件。修复会添加 `\"stage3_gather_16bit_weights_on_model_save\": true`。",
    },
];
