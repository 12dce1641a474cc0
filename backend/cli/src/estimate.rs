//! `ds-studio estimate`: the predicted peak memory per GPU (and CPU memory per node) of a
//! config, from `shared::memory` (the model every figure of the studio comes from).
//!
//! - `--config FILE --size SIZE`: that config (its stage, offload, precision, micro batch) on the
//!   built-in workload of that size; `--params/--hidden-size/--layers/--heads/--seq-len/--vocab
//!   [--attention eager]` describe any other model instead of `--size`.
//!   `--model NAME` picks a model of the catalog (`ds-studio models`) and `--model-config FILE`
//!   reads one from its Hugging Face config.json (llama, qwen2, mixtral, ...:
//!   `shared::architecture`), at `--seq-len` (default 2048), fully fine-tuned or with LoRA
//!   (`--lora-rank`, `--lora-targets`): `shared::memory::UserModel` reads both.
//! - without `--config`: a table of ZeRO 0-3 and offload for `--params` (and the shape if given),
//!   at `--micro-batch` (default 1), bf16, torch's AdamW.
//!
//! With `--gpu-memory-gib G` it also says whether the config fits and what would (exit 1 when
//! it does not fit).

use crate::input::read_input;
use crate::model_args::ModelFlags;
use ds_studio_shared::architecture::Architecture;
use ds_studio_shared::i18n::{Lang, Text};
use ds_studio_shared::memory::{
    estimate, human_bytes, setup_from_config, suggest, Attention, Estimate, ModelSpec,
    OptimizerKind, Precision, Setup,
};
use ds_studio_shared::validate::{Context, Launcher};
use ds_studio_shared::Document;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A DeepSpeed config (`-`: stdin): estimate it as it will run.
    #[arg(long)]
    pub config: Option<String>,
    /// A size of the built-in workload (tiny, small, medium, large, xl).
    #[arg(long)]
    pub size: Option<String>,
    /// Who launches it (deepspeed, hf-trainer, accelerate): the HF launchers run transformers'
    /// GPT-2 for the built-in sizes, and fill the config's "auto" values.
    #[arg(long, default_value = "deepspeed")]
    pub launcher: String,
    /// Model parameters (e.g. 7e9, 7B, 350M).
    #[arg(long)]
    pub params: Option<String>,
    /// The model's Hugging Face config.json (`-`: stdin): its architecture (llama, mistral,
    /// qwen2, qwen3, gemma, gemma2, gemma3, phi3, mixtral, qwen2_moe, qwen3_moe, gpt2,
    /// gpt_neox) instead of --size or --params. Sequence from --seq-len (default 2048).
    #[arg(long)]
    pub model_config: Option<String>,
    /// A model of the catalog by name (`ds-studio models` lists them: llama-3.1-8b,
    /// qwen2.5-7b, mixtral-8x7b, ...) or its Hub repository (Qwen/Qwen2.5-7B).
    #[arg(long)]
    pub model: Option<String>,
    /// LoRA (peft) of this rank on --model or --model-config: the base frozen, only the
    /// adapters trained.
    #[arg(long)]
    pub lora_rank: Option<u64>,
    /// The modules the adapters go on, comma-separated (q_proj,v_proj); default all-linear.
    #[arg(long, requires = "lora_rank")]
    pub lora_targets: Option<String>,
    #[arg(long, default_value_t = 1)]
    pub gpus_per_node: u64,
    #[arg(long, default_value_t = 1)]
    pub nodes: u64,
    #[arg(long)]
    pub hidden_size: Option<u64>,
    #[arg(long)]
    pub layers: Option<u64>,
    #[arg(long)]
    pub heads: Option<u64>,
    #[arg(long)]
    pub seq_len: Option<u64>,
    #[arg(long)]
    pub vocab: Option<u64>,
    /// How attention keeps what backward needs: sdpa (flash / memory-efficient) or eager.
    #[arg(long, default_value = "sdpa", value_parser = ["sdpa", "eager"])]
    pub attention: String,
    /// The micro batch (overrides the config's).
    #[arg(long)]
    pub micro_batch: Option<u64>,
    /// The HF Trainer's arguments for --launcher hf-trainer or accelerate, e.g.
    /// `per_device_train_batch_size=1,gradient_accumulation_steps=8,bf16=true`: they fill the
    /// config's "auto" values (and its batch sizes must agree with them), as when the job runs.
    #[arg(long, value_name = "KEY=VALUE,...")]
    pub trainer_args: Option<String>,
    /// Activation checkpointing (with --config: the config's `activation_checkpointing` section;
    /// --gradient-checkpointing, the HF Trainer's name for it, is the same).
    #[arg(long, visible_alias = "gradient-checkpointing")]
    pub activation_checkpointing: bool,
    /// GPU memory in GiB: say whether it fits, and what would.
    #[arg(long, allow_negative_numbers = true)]
    pub gpu_memory_gib: Option<f64>,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    /// The language of the text output.
    #[arg(long, default_value = "en", value_parser = ["en", "zh"])]
    pub lang: String,
}

fn fail(message: &str) -> i32 {
    eprintln!("ds-studio: {message}");
    2
}

/// The model the flags describe: `--size`, `--model-config`, else the shape flags (defaults
/// for what is left out come from the parameter count: a GPT-like shape of that size); with
/// `--model-config`, the architecture read from it as well.
fn model(a: &Args, hf: bool, lang: Lang) -> Result<(ModelSpec, Option<Architecture>), String> {
    let chosen = [
        ("--size", a.size.is_some()),
        ("--model", a.model.is_some()),
        ("--model-config", a.model_config.is_some()),
        ("--params", a.params.is_some()),
    ];
    let given: Vec<&str> = chosen.iter().filter(|c| c.1).map(|c| c.0).collect();
    if given.len() > 1 {
        return Err(format!(
            "{} each describe the model; give one of them",
            given.join(" and ")
        ));
    }
    let flag = if a.model.is_some() {
        "--model"
    } else {
        "--model-config"
    };
    if a.model.is_some() || a.model_config.is_some() {
        return user_model(a, flag, lang);
    }
    if a.lora_rank.is_some() {
        return Err(
            "--lora-rank needs the model's architecture: give --model NAME or --model-config FILE"
                .into(),
        );
    }
    let mut m = match &a.size {
        Some(size) => ModelSpec::builtin(size, hf).ok_or_else(|| {
            format!("--size {size}: not a size of the built-in workload (tiny, small, medium, large, xl)")
        })?,
        None => {
            let text = a.params.as_deref().ok_or(
                "give the model: --model NAME (ds-studio models lists them), --model-config FILE (a Hugging Face config.json), --size SIZE (the built-in workload) or --params N (and the shape)",
            )?;
            let params = ds_studio_shared::estimate::parse_count(text)
                .ok_or_else(|| format!("--params {text}: not a parameter count (7e9, 7B, 350M)"))?;
            ModelSpec::gpt_like(params, a.layers, a.hidden_size, a.heads, a.seq_len, a.vocab)
        }
    };
    if a.size.is_some() {
        for (flag, set) in [
            ("--hidden-size", a.hidden_size.is_some()),
            ("--layers", a.layers.is_some()),
        ] {
            if set {
                return Err(format!(
                    "{flag} describes another model than --size; give one or the other"
                ));
            }
        }
    }
    if let Some(h) = a.heads.filter(|_| a.size.is_none()) {
        m.heads = h;
    }
    if let Some(s) = a.seq_len {
        m.seq_len = s;
    }
    if let Some(v) = a.vocab {
        m.vocab = v;
    }
    if a.attention == "eager" {
        m.attention = Attention::Eager;
    }
    if m.params == 0 || m.hidden_size == 0 || m.layers == 0 || m.seq_len == 0 || m.vocab == 0 {
        return Err(
            "the model's parameters, width, layers, sequence and vocabulary must be at least 1"
                .into(),
        );
    }
    Ok((m, None))
}

/// The model `--model` or `--model-config` names (with LoRA when asked), read by
/// `UserModel` as the API reads it.
fn user_model(
    a: &Args,
    flag: &str,
    lang: Lang,
) -> Result<(ModelSpec, Option<Architecture>), String> {
    for (shape, set) in [
        ("--hidden-size", a.hidden_size.is_some()),
        ("--layers", a.layers.is_some()),
        ("--heads", a.heads.is_some()),
        ("--vocab", a.vocab.is_some()),
    ] {
        if set {
            return Err(format!(
                "{shape}: {flag} gives the model's shape; leave {shape} out"
            ));
        }
    }
    let flags = ModelFlags {
        model: a.model.as_deref(),
        model_config: a.model_config.as_deref(),
        seq_len: a.seq_len,
        attention: &a.attention,
        lora_rank: a.lora_rank,
        lora_targets: a.lora_targets.as_deref(),
    };
    let request = flags
        .user_model()?
        .ok_or("give --model NAME or --model-config FILE")?;
    let resolved = request
        .resolve()
        .map_err(|e| crate::model_args::said(&e, &flags, lang))?;
    Ok((resolved.spec, Some(resolved.architecture)))
}

/// The model as `--format json` prints it: the spec the estimate used, its parameters (all
/// trainable: full fine-tuning), and with `--model-config` the architecture and each part's
/// parameters.
fn model_json(model: &ModelSpec, arch: Option<&Architecture>) -> serde_json::Value {
    let mut v = serde_json::to_value(model).unwrap_or_default();
    v["trainable_params"] = model.trainable().into();
    if let Some(arch) = arch {
        // The model's own parameters; LoRA's adapters are what it trains.
        v["params"] = arch.params().total().into();
        v["adapter_params"] = (model.params - arch.params().total()).into();
        v["architecture"] = serde_json::to_value(arch).unwrap_or_default();
        v["parts"] = serde_json::to_value(arch.params()).unwrap_or_default();
        v["active_params"] = arch.active_params().into();
    }
    v
}

/// One line on the model read from a config.json: its family and parameters, part by part.
fn print_architecture(arch: &Architecture, model: &ModelSpec, lang: Lang) {
    let p = arch.params();
    let count = ds_studio_shared::estimate::format_count;
    let parts = [
        (p.embeddings, "embeddings", "嵌入"),
        (p.attention, "attention", "注意力"),
        (p.mlp, "MLP", "MLP"),
        (p.experts, "experts", "专家"),
        (p.norms, "norms", "归一化"),
        (p.lm_head, "output layer", "输出层"),
    ];
    let zh = lang == Lang::Zh;
    let list: Vec<String> = parts
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, en, cn)| format!("{} {}", if zh { cn } else { en }, count(*n)))
        .collect();
    let active = (arch.active_params() != p.total())
        .then(|| count(arch.active_params()))
        .map(|a| {
            if zh {
                format!("，每个 token 用到 {a}")
            } else {
                format!(", {a} used per token")
            }
        })
        .unwrap_or_default();
    let attention = match model.attention {
        Attention::Sdpa => "sdpa",
        Attention::Eager => "eager",
    };
    let (family, total) = (arch.family.model_type(), count(p.total()));
    let a = arch;
    let lines = Text::new(
        format!(
            "Model ({family}): {total} parameters{active} ({})\n  width {}, {} layers, {} attention heads ({} key/value), head {}, MLP {}, vocabulary {}; sequence {}, {attention} attention",
            list.join(", "), a.hidden, a.layers, a.heads, a.kv_heads, a.head_dim, a.intermediate, a.vocab, model.seq_len
        ),
        format!(
            "模型（{family}）：{total} 参数{active}（{}）\n  宽度 {}，{} 层，{} 个注意力头（{} 个键值头），每头 {}，MLP {}，词表 {}；序列长度 {}，注意力 {attention}",
            list.join("，"), a.hidden, a.layers, a.heads, a.kv_heads, a.head_dim, a.intermediate, a.vocab, model.seq_len
        ),
    );
    println!("{}", lines.get(lang));
    if model.trainable() < model.params {
        let (t, base) = (model.trainable(), model.params - model.trainable());
        let share = 100.0 * t as f64 / model.params.max(1) as f64;
        let lora = Text::new(
            format!(
                "  LoRA: {} adapter parameters trained ({share:.2}%), the {} of the base frozen in 16-bit",
                count(t),
                count(base)
            ),
            format!(
                "  LoRA：训练 {} 个适配器参数（{share:.2}%），基座的 {} 参数以 16 位冻结",
                count(t),
                count(base)
            ),
        );
        println!("{}", lora.get(lang));
    }
}

pub fn run(a: Args) -> i32 {
    let lang: Lang = a.lang.parse().unwrap_or_default();
    if a.gpus_per_node == 0 || a.nodes == 0 || a.gpus_per_node > 1024 || a.nodes > 100_000 {
        return fail("--gpus-per-node and --nodes must be at least 1");
    }
    if a.micro_batch == Some(0) {
        return fail("--micro-batch must be at least 1");
    }
    if a.gpu_memory_gib.is_some_and(|g| !g.is_finite() || g <= 0.0) {
        return fail("--gpu-memory-gib must be a positive number of GiB");
    }
    let launcher: Launcher = match a.launcher.parse() {
        Ok(l) => l,
        Err(_) => {
            return fail(&format!(
                "--launcher {}: one of deepspeed, hf-trainer, accelerate",
                a.launcher
            ))
        }
    };
    let (model, arch) = match model(&a, launcher.fills_auto(), lang) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let trainer = match &a.trainer_args {
        None => None,
        Some(pairs) if launcher.fills_auto() => {
            match ds_studio_shared::launcher::TrainerArgs::parse_pairs(pairs) {
                Ok(t) => Some(t),
                Err(e) => return fail(&format!("--trainer-args: {e}")),
            }
        }
        Some(_) => {
            return fail("--trainer-args is read only with --launcher hf-trainer or accelerate")
        }
    };
    let world = (a.gpus_per_node * a.nodes).min(u32::MAX as u64) as u32;
    let ctx = Context {
        world_size: world,
        launcher,
        trainer,
        ..Context::default()
    };
    match &a.config {
        Some(path) => {
            let text = match read_input(path) {
                Ok(t) => t,
                Err(e) => return fail(&format!("{path}: {e}")),
            };
            let doc = Document::parse(&text);
            if !doc.is_ok() {
                return fail(&format!(
                    "{path}: the config does not parse ({}); `ds-studio validate {path}` says where",
                    doc.errors()
                        .first()
                        .map(|e| e.message.clone())
                        .unwrap_or_default()
                ));
            }
            let mut setup = match setup_from_config(&doc, &ctx, a.nodes as u32) {
                Ok(s) => s,
                Err(e) => return fail(&format!("{path}: {}", e.0.get(lang))),
            };
            if let Some(m) = a.micro_batch {
                setup.micro_batch = m;
            }
            setup.activation_checkpointing |= a.activation_checkpointing;
            let e = estimate(&model, &setup);
            let capacity = a.gpu_memory_gib.map(|g| (g * (1u64 << 30) as f64) as u64);
            let suggestions = capacity
                .map(|c| {
                    let cap = ds_studio_shared::memory::Capacity::device_only(c);
                    suggest(&text, &ctx, a.nodes as u32, &model, &cap)
                })
                .unwrap_or_default();
            let hints = crate::estimate_fit::FitHints::of(&text, &ctx, &model, &setup);
            if a.format == "json" {
                let mut v = serde_json::to_value(&e).unwrap_or_default();
                v["model"] = model_json(&model, arch.as_ref());
                v["setup"] = serde_json::to_value(&setup).unwrap_or_default();
                if let Some(c) = capacity {
                    v["gpu_memory_bytes"] = c.into();
                    v["fits"] = (e.gpu_peak_bytes <= c).into();
                    v["suggestions"] = serde_json::to_value(&suggestions).unwrap_or_default();
                }
                println!("{v}");
            } else {
                if let Some(arch) = &arch {
                    print_architecture(arch, &model, lang);
                }
                print_one(&e, &setup, lang);
                if let Some(c) = capacity {
                    crate::estimate_fit::print_fit(&e, c, &suggestions, &hints, lang);
                }
            }
            // With a GPU size given, scripts can branch on whether it fits.
            i32::from(capacity.is_some_and(|c| e.gpu_peak_bytes > c))
        }
        None => {
            let base = Setup {
                stage: 0,
                offload_optimizer: false,
                offload_params: false,
                precision: Precision::Bf16,
                micro_batch: a.micro_batch.unwrap_or(1),
                gradient_accumulation: 1,
                gpus_per_node: a.gpus_per_node,
                nodes: a.nodes,
                tensor_parallel: 1,
                pipeline_parallel: 1,
                reduce_bucket: 500_000_000,
                prefetch_bucket: 50_000_000,
                overlap_comm: false,
                optimizer: OptimizerKind::TorchAdam,
                activation_checkpointing: a.activation_checkpointing,
            };
            let lines: Vec<(String, Estimate)> = [
                (0, false, false),
                (1, false, false),
                (2, false, false),
                (2, true, false),
                (3, false, false),
                (3, true, false),
                (3, true, true),
            ]
            .into_iter()
            .map(|(stage, opt, par)| {
                let s = Setup {
                    stage,
                    offload_optimizer: opt,
                    offload_params: par,
                    overlap_comm: stage >= 2,
                    optimizer: if opt {
                        OptimizerKind::FusedAdam
                    } else {
                        OptimizerKind::TorchAdam
                    },
                    ..base.clone()
                };
                let offload = match (opt, par) {
                    (false, _) => "none",
                    (true, false) => "optimizer",
                    (true, true) => "optimizer+params",
                };
                (format!("{stage}\t{offload}"), estimate(&model, &s))
            })
            .collect();
            if a.format == "json" {
                let rows: Vec<serde_json::Value> = lines
                    .iter()
                    .map(|(k, e)| {
                        let (stage, offload) = k.split_once('\t').unwrap_or_default();
                        let mut v = serde_json::to_value(e).unwrap_or_default();
                        v["stage"] = stage.parse::<u8>().unwrap_or(0).into();
                        v["offload"] = offload.into();
                        if let Some(g) = a.gpu_memory_gib {
                            v["fits"] = (e.gpu_peak_bytes as f64 <= g * (1u64 << 30) as f64).into();
                        }
                        v
                    })
                    .collect();
                println!(
                    "{}",
                    serde_json::json!({"model": model_json(&model, arch.as_ref()), "micro_batch": base.micro_batch, "lines": rows})
                );
                return 0;
            }
            let zh = lang == Lang::Zh;
            if let Some(arch) = &arch {
                print_architecture(arch, &model, lang);
            }
            // The model's own parameters (LoRA's adapters are said above, as what it trains).
            let shown_params = arch.as_ref().map_or(model.params, |a| a.params().total());
            let capacity = a.gpu_memory_gib.map(|g| (g * (1u64 << 30) as f64) as u64);
            println!(
                "{}",
                if zh {
                    format!(
                        "每卡峰值显存：{} 参数，{} 节点 × {} GPU，微批 {}，bf16，torch AdamW",
                        ds_studio_shared::estimate::format_count(shown_params),
                        a.nodes,
                        a.gpus_per_node,
                        base.micro_batch
                    )
                } else {
                    format!("Peak memory per GPU: {} parameters on {} node(s) x {} GPU(s), micro batch {}, bf16, torch AdamW", ds_studio_shared::estimate::format_count(shown_params), a.nodes, a.gpus_per_node, base.micro_batch)
                }
            );
            println!(
                "{:<6} {:<18} {:>12} {:>14}{}",
                if zh { "阶段" } else { "stage" },
                if zh { "卸载" } else { "offload" },
                if zh { "GPU/每卡" } else { "GPU / device" },
                if zh { "CPU/每节点" } else { "CPU / node" },
                match (capacity, zh) {
                    (Some(c), false) => format!("  fits {}", human_bytes(c)),
                    (Some(c), true) => format!("  可放入 {}", human_bytes(c)),
                    (None, _) => String::new(),
                }
            );
            for (k, e) in &lines {
                let (stage, offload) = k.split_once('\t').unwrap_or_default();
                let fits = match capacity {
                    Some(c) if e.gpu_peak_bytes <= c => {
                        if zh {
                            "  是"
                        } else {
                            "  yes"
                        }
                    }
                    Some(_) => {
                        if zh {
                            "  否"
                        } else {
                            "  no"
                        }
                    }
                    None => "",
                };
                println!(
                    "{stage:<6} {offload:<18} {:>12} {:>14}{fits}",
                    human_bytes(e.gpu_peak_bytes),
                    human_bytes(e.cpu_peak_bytes)
                );
            }
            // With a GPU size given, scripts can branch on whether any line fits.
            i32::from(capacity.is_some_and(|c| lines.iter().all(|(_, e)| e.gpu_peak_bytes > c)))
        }
    }
}

fn print_one(e: &Estimate, setup: &Setup, lang: Lang) {
    let zh = lang == Lang::Zh;
    if zh {
        println!(
            "每卡峰值显存 {}（出现在{}）：ZeRO-{}，微批 {}，{} 个 GPU",
            human_bytes(e.gpu_peak_bytes),
            e.phase.label().get(lang),
            setup.stage,
            setup.micro_batch,
            setup.gpus_per_node * setup.nodes
        );
    } else {
        println!(
            "Peak GPU memory {} per GPU (at {}): ZeRO-{}, micro batch {}, {} GPU(s)",
            human_bytes(e.gpu_peak_bytes),
            e.phase.label().get(lang),
            setup.stage,
            setup.micro_batch,
            setup.gpus_per_node * setup.nodes
        );
    }
    for p in &e.gpu_parts {
        println!(
            "  {:>10}  {}",
            human_bytes(p.bytes),
            p.part.label().get(lang)
        );
    }
    println!(
        "{} {}",
        if zh {
            "每节点 CPU 内存峰值"
        } else {
            "Peak CPU memory per node"
        },
        human_bytes(e.cpu_peak_bytes)
    );
    if e.cpu_parts.len() > 1 {
        // The model is built before the offloaded states exist, and freed once it is on the
        // GPUs: the peak is the larger of the two, not their sum.
        println!(
            "  {}",
            if zh {
                "（取下面两项中较大者：先构建模型，模型移到 GPU 后才有卸载的状态）"
            } else {
                "(the larger of the two below: the model is built, and moved to the GPUs, before the offloaded states exist)"
            }
        );
    }
    for p in &e.cpu_parts {
        println!(
            "  {:>10}  {}",
            human_bytes(p.bytes),
            p.part.label().get(lang)
        );
    }
    if !e.measured_basis {
        println!(
            "{}",
            if zh {
                "注：此类配置尚未在 GPU 上实测；各项按 DeepSpeed 的切分方式由实测项推算。"
            } else {
                "Note: configs like this were not measured on a GPU yet; the parts are measured ones partitioned the way DeepSpeed partitions them."
            }
        );
    }
}
