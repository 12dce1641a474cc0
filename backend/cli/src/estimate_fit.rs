//! What `ds-studio estimate --gpu-memory-gib G` says when the config does not fit: the
//! figures, the configs that would (`memory::suggest`), and, where none is offered, why: the
//! config has errors for this many GPUs (a batch written for another count: nothing is
//! suggested from a config that would not start), or activation checkpointing is what would
//! make it fit.

use ds_studio_shared::i18n::{Lang, Text};
use ds_studio_shared::memory::{estimate, human_bytes, Estimate, ModelSpec, Setup, Suggestion};
use ds_studio_shared::validate::{validate_text, Context, Severity};

/// What else is known about a config that does not fit.
pub struct FitHints {
    /// The first error the config has in this context, and how many there are.
    pub config_error: Option<(Text, usize)>,
    /// The peak with activation checkpointing, when the config does not checkpoint yet.
    pub checkpointed: Option<u64>,
    pub world: u32,
}

impl FitHints {
    pub fn of(text: &str, ctx: &Context, model: &ModelSpec, setup: &Setup) -> FitHints {
        let (_, diagnostics) = validate_text(text, ctx);
        let errors: Vec<_> = diagnostics
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        let checkpointed = (!setup.activation_checkpointing).then(|| {
            let with = Setup {
                activation_checkpointing: true,
                ..setup.clone()
            };
            estimate(model, &with).gpu_peak_bytes
        });
        FitHints {
            config_error: errors.first().map(|d| (d.message.clone(), errors.len())),
            checkpointed,
            world: ctx.world_size,
        }
    }
}

pub fn print_fit(
    e: &Estimate,
    capacity: u64,
    suggestions: &[Suggestion],
    hints: &FitHints,
    lang: Lang,
) {
    let zh = lang == Lang::Zh;
    let say = |en: String, cn: String| println!("{}", if zh { cn } else { en });
    if e.gpu_peak_bytes <= capacity {
        say(
            format!("Fits in {} of GPU memory.", human_bytes(capacity)),
            format!("可放入 {} 显存。", human_bytes(capacity)),
        );
        return;
    }
    say(
        format!(
            "Does not fit: it needs {}, the GPU has {}.",
            human_bytes(e.gpu_peak_bytes),
            human_bytes(capacity)
        ),
        format!(
            "放不下：需要 {}，显存只有 {}。",
            human_bytes(e.gpu_peak_bytes),
            human_bytes(capacity)
        ),
    );
    for s in suggestions {
        say(
            format!("  would fit: {}", s.summary.en),
            format!("  可改为{}", s.summary.zh),
        );
    }
    if let Some((first, n)) = &hints.config_error {
        let w = hints.world;
        say(
            format!("The config has {n} error(s) on {w} GPU(s), so no other config is made from it (first: {}). A batch written for another number of GPUs is the usual cause: give that count (--gpus-per-node, --nodes), or see `ds-studio validate --world-size {w} FILE`.", first.en),
            format!("该配置在 {w} 个 GPU 上有 {n} 个错误，因此不会据此生成其他配置（第一个：{}）。常见原因是批大小按另一 GPU 数写成：请给出该 GPU 数（--gpus-per-node、--nodes），或运行 `ds-studio validate --world-size {w} FILE` 查看。", first.zh),
        );
    } else if suggestions.is_empty() {
        say(
            "No smaller micro batch, stage or offload fits.".into(),
            "更小的微批或更高的 ZeRO 阶段/卸载都放不下。".into(),
        );
    }
    if let Some(peak) = hints.checkpointed {
        let fits = peak <= capacity;
        say(
            format!(
                "With activation checkpointing it needs {}{} (the HF Trainer's --gradient_checkpointing; with DeepSpeed's launcher an activation_checkpointing section and deepspeed.checkpointing in your script; here --gradient-checkpointing).",
                human_bytes(peak),
                if fits { ": that fits" } else { ": still too much" }
            ),
            format!(
                "启用激活检查点后需要 {}{}（HF Trainer 的 --gradient_checkpointing；DeepSpeed 启动器下为配置中的 activation_checkpointing 段并在脚本中使用 deepspeed.checkpointing；此处为 --gradient-checkpointing）。",
                human_bytes(peak),
                if fits { "，可以放下" } else { "，仍然放不下" }
            ),
        );
    }
    if hints.config_error.is_none()
        && suggestions.is_empty()
        && hints.checkpointed.is_none_or(|p| p > capacity)
    {
        say(
            "Use more GPUs (ZeRO partitions over them), or a GPU with more memory.".into(),
            "请使用更多 GPU（ZeRO 会在它们之间切分），或显存更大的 GPU。".into(),
        );
    }
}
