//! What the Hugging Face Trainer and Accelerate do to the config before DeepSpeed sees it,
//! step by step as their code does it (transformers 5.23, accelerate 1.15):
//!
//! 1. `HfDeepSpeedConfig`: `json.load`, then the ZeRO stage and offload devices are looked up.
//! 2. Trainer only, `HfTrainerDeepSpeedConfig.trainer_config_process`: `"auto"` values filled
//!    from the TrainingArguments, explicit values compared with them (`fill_match`).
//! 3. `DeepSpeedPlugin(hf_ds_config=...)`: `gradient_accumulation_steps` 1 when absent,
//!    `zero_optimization` required, the plugin's own `"auto"` defaults, `steps_per_print` inf.
//! 4. `DeepSpeedPlugin.set_mixed_precision`: fp16/bf16 against `--mixed_precision`.
//! 5. Trainer only, `trainer_config_finalize`: hidden-size buckets, scheduler steps, and the
//!    recorded mismatches raised.
//! 6. `Accelerator._prepare_deepspeed`: the batch arithmetic, what is still `"auto"` filled
//!    from its own keyword arguments, any other `"auto"` refused.
//!
//! [`run`] returns the dict handed to `deepspeed.initialize` (which the DeepSpeed rules then
//! judge), HF's own findings, and where every filled value came from. A structural error (an
//! `AttributeError` or `TypeError` in HF's code) stops the run where HF stops; the `ValueError`s
//! HF raises for a value (a mismatch, a precision conflict, an `"auto"` it cannot fill, no
//! `zero_optimization`) are reported and the run goes on, so one pass lists them all.

use super::args::Resolved;
use super::pydict::{self as py, PyErr};
use crate::document::{Kind, Node};
use crate::i18n::Text;
use crate::vocab::{Context, Diagnostic, Launcher};

/// One value HF wrote into the config.
#[derive(Debug, Clone, PartialEq)]
pub struct Filled {
    /// Dotted key.
    pub path: String,
    pub value: serde_json::Value,
    /// The argument or rule it came from (`per_device_train_batch_size`, `hidden_size²`, ...).
    pub from: String,
}

/// The outcome of [`run`].
#[derive(Debug, Clone)]
pub struct HfRun {
    /// The dict HF hands to `deepspeed.initialize` (values HF refused are left out).
    pub dict: Node,
    pub diagnostics: Vec<Diagnostic>,
    pub filled: Vec<Filled>,
    /// HF stopped before DeepSpeed (a structural error): the DeepSpeed rules are not run.
    pub stopped: bool,
    /// Dotted keys whose "auto" HF refused (left out of `dict`: DeepSpeed's own findings about
    /// them repeat HF's and are dropped).
    pub refused: Vec<String>,
}

/// Stops the run: HF's code raised.
struct Stop;

struct Hf<'a> {
    dict: Node,
    ctx: &'a Context,
    args: Resolved,
    trainer: bool,
    diags: Vec<Diagnostic>,
    filled: Vec<Filled>,
    mismatches: Vec<(String, String, String, String, Node)>,
    refused: Vec<String>,
    /// The gradient accumulation the Accelerator uses (the script's, then DeepSpeed's).
    accelerator_gas: Node,
}

/// Runs the launcher's processing on a config (the root must be an object).
pub fn run(root: &Node, ctx: &Context) -> HfRun {
    let mut dict = root.clone();
    if has_duplicates(&dict) {
        py::dedupe(&mut dict);
    }
    let args = ctx.trainer.clone().unwrap_or_default().resolved();
    let mut hf = Hf {
        dict,
        ctx,
        accelerator_gas: py::int(int(args.gradient_accumulation_steps)),
        args,
        trainer: ctx.launcher == Launcher::HfTrainer,
        diags: Vec::new(),
        filled: Vec::new(),
        mismatches: Vec::new(),
        refused: Vec::new(),
    };
    let both = args_both_precisions(ctx);
    let stopped = if both {
        // TrainingArguments refuses the pair before it reads the config.
        hf.diags.push(Diagnostic::error(
            "launcher-error",
            "",
            Text::new(
                "the trainer arguments set both bf16 and fp16: TrainingArguments stops before it reads the config (\"ValueError: At most one of fp16 and bf16 can be True, but not both\")",
                "训练参数同时设置了 bf16 与 fp16：TrainingArguments 在读取配置前就会报错（\"ValueError: At most one of fp16 and bf16 can be True, but not both\"）",
            ),
        ));
        true
    } else if hf.trainer {
        hf.trainer_flow().is_err()
    } else {
        hf.accelerate_flow().is_err()
    };
    HfRun {
        dict: hf.dict,
        diagnostics: hf.diags,
        filled: hf.filled,
        stopped,
        refused: hf.refused,
    }
}

/// Both precisions asked for (a Trainer argument pair HF refuses).
fn args_both_precisions(ctx: &Context) -> bool {
    ctx.trainer
        .as_ref()
        .is_some_and(|a| a.bf16 == Some(true) && a.fp16 == Some(true))
}

/// The pointer of a dotted key.
/// The JSON pointer of a dotted path, cut to its longest ancestor within
/// [`crate::document::MAX_POINTER`] bytes (as every diagnostic's pointer is).
pub(crate) fn pointer(long: &str) -> String {
    let mut out = String::new();
    for part in long.split('.') {
        let token = crate::document::escape_token(part);
        if out.len() + 1 + token.len() > crate::document::MAX_POINTER {
            break;
        }
        out.push('/');
        out.push_str(&token);
    }
    out
}

impl Hf<'_> {
    fn who(&self) -> (&'static str, &'static str) {
        if self.trainer {
            ("the HF Trainer", "HF Trainer")
        } else {
            ("Accelerate", "Accelerate")
        }
    }

    fn world(&self) -> i64 {
        self.ctx.world_size.max(1) as i64
    }

    /// Records HF's exception and stops.
    fn raise(&mut self, path: &str, err: PyErr, step: &str) -> Stop {
        let (en, zh) = self.who();
        let msg = err.message();
        // `.get` on a value that is not a dict: the value to change is that section (`"optimizer":
        // "AdamW"`), not the key HF was looking for below it.
        let (at, why_en, why_zh) = match (&err, self.not_a_dict_on(path)) {
            (PyErr::Attribute(_), Some(section)) => {
                let why_en = format!(" (`{section}` must be an object)");
                let why_zh = format!("（`{section}` 必须是对象）");
                (section, why_en, why_zh)
            }
            _ => (path.to_string(), String::new(), String::new()),
        };
        self.diags.push(Diagnostic::error(
            "launcher-error",
            &pointer(&at),
            Text::new(
                format!("{en} fails in {step} before DeepSpeed starts: {msg}{why_en}"),
                format!("{zh} 在 {step} 中出错，DeepSpeed 尚未启动：{msg}{why_zh}"),
            ),
        ));
        Stop
    }

    /// The first section on the dotted `path` that is set to something other than a dict.
    fn not_a_dict_on(&self, path: &str) -> Option<String> {
        let mut node = &self.dict;
        let mut at = String::new();
        for segment in path.split('.') {
            let next = py::get(node, segment).ok().flatten()?;
            if !at.is_empty() {
                at.push('.');
            }
            at.push_str(segment);
            if !matches!(next.kind, crate::document::Kind::Object(_)) {
                return (at != path).then_some(at);
            }
            node = next;
        }
        None
    }

    fn record(&mut self, long: &str, value: &Node, from: &str) {
        self.filled.retain(|f| f.path != long);
        self.filled.push(Filled {
            path: long.to_string(),
            value: value.to_value(),
            from: from.to_string(),
        });
    }

    /// `fill_match`: `"auto"` becomes `hf_val`; with `must_match`, an explicit value that
    /// differs is recorded as a mismatch (raised in `trainer_config_finalize`).
    fn fill_match(
        &mut self,
        long: &str,
        hf_val: Node,
        hf_key: &str,
        must_match: bool,
        step: &str,
    ) -> Result<(), Stop> {
        let key = long.rsplit('.').next().unwrap_or(long);
        let current = match py::find_node(&self.dict, long) {
            Err(e) => return Err(self.raise(long, e, step)),
            Ok(None) => return Ok(()),
            Ok(Some(config)) => match py::get(config, key) {
                Err(e) => return Err(self.raise(long, e, step)),
                Ok(v) => v.cloned(),
            },
        };
        match current {
            Some(v) if v.as_str() == Some("auto") => {
                self.record(long, &hf_val, hf_key);
                py::set(&mut self.dict, long, hf_val);
            }
            Some(v) if must_match && !matches!(v.kind, Kind::Null) && !py::eq(&v, &hf_val) => {
                self.mismatches.push((
                    long.to_string(),
                    py::str_of(&v),
                    hf_key.to_string(),
                    py::str_of(&hf_val),
                    hf_val,
                ));
            }
            _ => {}
        }
        Ok(())
    }

    fn get_value(&mut self, long: &str, step: &str) -> Result<Option<Node>, Stop> {
        match py::get_value(&self.dict, long) {
            Ok(v) => Ok(v.cloned()),
            Err(e) => Err(self.raise(long, e, step)),
        }
    }

    /// `HfDeepSpeedConfig.set_stage_and_offload`: only lookups, which raise on a non-dict.
    fn set_stage_and_offload(&mut self, step: &str) -> Result<(), Stop> {
        let stage = self.get_value("zero_optimization.stage", step)?;
        let zero23 = stage
            .as_ref()
            .is_some_and(|s| py::eq(s, &py::int(2)) || py::eq(s, &py::int(3)));
        if zero23 {
            self.get_value("zero_optimization.offload_optimizer.device", step)?;
            self.get_value("zero_optimization.offload_param.device", step)?;
        }
        Ok(())
    }

    fn trainer_flow(&mut self) -> Result<(), Stop> {
        let step = "TrainingArguments(deepspeed=...)";
        self.set_stage_and_offload(step)?;
        // trainer_config_process
        let a = self.args.clone();
        let (mbs, gas) = (
            int(a.per_device_train_batch_size),
            int(a.gradient_accumulation_steps),
        );
        let tbs = self.world().saturating_mul(mbs).saturating_mul(gas);
        self.fill_match(
            "train_micro_batch_size_per_gpu",
            py::int(mbs),
            "per_device_train_batch_size",
            true,
            step,
        )?;
        self.fill_match(
            "gradient_accumulation_steps",
            py::int(gas),
            "gradient_accumulation_steps",
            true,
            step,
        )?;
        self.fill_match(
            "train_batch_size",
            py::int(tbs),
            "train_batch_size (calculated)",
            true,
            step,
        )?;
        self.fill_match(
            "gradient_clipping",
            py::float(a.max_grad_norm),
            "max_grad_norm",
            true,
            step,
        )?;
        let lr = py::float(a.learning_rate);
        self.fill_match(
            "optimizer.params.lr",
            lr.clone(),
            "learning_rate",
            true,
            step,
        )?;
        self.fill_match(
            "optimizer.params.betas",
            py::list(vec![py::float(a.adam_beta1), py::float(a.adam_beta2)]),
            "adam_beta1+adam_beta2",
            true,
            step,
        )?;
        self.fill_match(
            "optimizer.params.eps",
            py::float(a.adam_epsilon),
            "adam_epsilon",
            true,
            step,
        )?;
        self.fill_match(
            "optimizer.params.weight_decay",
            py::float(a.weight_decay),
            "weight_decay",
            true,
            step,
        )?;
        self.fill_match(
            "scheduler.params.warmup_min_lr",
            py::int(0),
            "0",
            false,
            step,
        )?;
        self.fill_match(
            "scheduler.params.warmup_max_lr",
            lr,
            "learning_rate",
            true,
            step,
        )?;
        self.fill_match(
            "fp16.enabled",
            py::boolean(a.fp16),
            "fp16|fp16_full_eval",
            true,
            step,
        )?;
        self.fill_match(
            "bf16.enabled",
            py::boolean(a.bf16),
            "bf16|bf16_full_eval",
            true,
            step,
        )?;
        self.plugin_init(step)?;
        self.set_mixed_precision("Trainer(...)")?;
        // trainer.train(): the train dataloader is prepared first (batch keys only).
        let step = "trainer.train()";
        self.prepare_deepspeed(None, None, step)?;
        self.trainer_config_finalize(step)?;
        // deepspeed_optim_sched
        let has_optimizer = py::contains(&self.dict, "optimizer");
        if !has_optimizer {
            let v = py::boolean(true);
            self.record(
                "zero_allow_untested_optimizer",
                &v,
                "the Trainer's own optimizer",
            );
            py::set(&mut self.dict, "zero_allow_untested_optimizer", v);
        }
        let optimizer = if has_optimizer {
            Optimizer::Dummy(0.001)
        } else {
            Optimizer::Torch(a.learning_rate)
        };
        let scheduler = py::contains(&self.dict, "scheduler").then_some(None);
        self.prepare_deepspeed(Some(optimizer), scheduler, step)
    }

    fn accelerate_flow(&mut self) -> Result<(), Stop> {
        let step = "DeepSpeedPlugin(hf_ds_config=...)";
        self.set_stage_and_offload(step)?;
        self.plugin_init(step)?;
        self.set_mixed_precision("Accelerator(...)")?;
        let a = self.args.clone();
        let optimizer = if py::contains(&self.dict, "optimizer") {
            Optimizer::Dummy(a.learning_rate)
        } else {
            Optimizer::Torch(a.learning_rate)
        };
        // The example script's DummyScheduler: its epochs over the per-process dataloader.
        // (Unknown without the dataset size: 1000 steps are assumed, as for the Trainer.)
        let scheduler = py::contains(&self.dict, "scheduler").then(|| {
            let per_rank = self.samples_per_rank();
            let steps = if a.max_steps > 0 {
                Some(a.max_steps as u64)
            } else {
                per_rank.map(|n| {
                    let batches = n.div_ceil(a.per_device_train_batch_size.max(1));
                    let per_epoch = batches.div_ceil(a.gradient_accumulation_steps.max(1));
                    (a.num_train_epochs.ceil() as u64).saturating_mul(per_epoch)
                })
            };
            Some(steps.unwrap_or(1000 * self.world() as u64))
        });
        self.prepare_deepspeed(Some(optimizer), scheduler, "accelerator.prepare(...)")
    }

    /// Training examples one rank sees (the dataset split over the world).
    fn samples_per_rank(&self) -> Option<u64> {
        self.args
            .train_samples
            .map(|n| n.div_ceil(self.world() as u64))
    }

    /// `DeepSpeedPlugin.__post_init__` with a config.
    fn plugin_init(&mut self, step: &str) -> Result<(), Stop> {
        if !py::contains(&self.dict, "gradient_accumulation_steps") {
            let v = py::int(1);
            self.record("gradient_accumulation_steps", &v, "accelerate (absent: 1)");
            py::set(&mut self.dict, "gradient_accumulation_steps", v);
            if py::contains(&self.dict, "train_batch_size")
                && py::contains(&self.dict, "train_micro_batch_size_per_gpu")
            {
                let (en, zh) = self.who();
                self.diags.push(Diagnostic::info(
                    "launcher-inserts-accumulation",
                    "",
                    Text::new(
                        format!("{en} adds \"gradient_accumulation_steps\": 1 when the config has none, so DeepSpeed does not derive it from train_batch_size"),
                        format!("配置中没有 gradient_accumulation_steps 时 {zh} 会写入 1，DeepSpeed 不会再由 train_batch_size 推导它"),
                    ),
                ));
            }
        }
        if !py::contains(&self.dict, "zero_optimization") {
            let (en, zh) = self.who();
            self.diags.push(
                Diagnostic::error(
                    "launcher-needs-zero",
                    "",
                    Text::new(
                        format!("{en} refuses a config without `zero_optimization`: \"Please specify the ZeRO optimization config in the DeepSpeed config.\" (accelerate's DeepSpeedPlugin; use {{\"stage\": 0}} for no ZeRO)"),
                        format!("{zh} 要求配置中有 `zero_optimization`：\"Please specify the ZeRO optimization config in the DeepSpeed config.\"（不用 ZeRO 时写 {{\"stage\": 0}}）"),
                    ),
                )
                .with_fix(serde_json::json!([{"op": "add", "path": "/zero_optimization", "value": {"stage": 0}}])),
            );
        }
        // The plugin's own defaults replace these "auto" values (gas and clipping stay "auto").
        for (long, value) in [
            ("zero_optimization.stage", py::int(2)),
            (
                "zero_optimization.offload_optimizer.device",
                py::string("none"),
            ),
            ("zero_optimization.offload_param.device", py::string("none")),
            (
                "zero_optimization.offload_param.nvme_path",
                py::string("none"),
            ),
            (
                "zero_optimization.offload_optimizer.nvme_path",
                py::string("none"),
            ),
            (
                "zero_optimization.stage3_gather_16bit_weights_on_model_save",
                py::boolean(false),
            ),
        ] {
            self.fill_match(
                long,
                value,
                "accelerate's DeepSpeedPlugin default",
                false,
                step,
            )?;
        }
        self.set_stage_and_offload(step)?;
        self.steps_per_print_overridden();
        let inf = py::float(f64::INFINITY);
        self.filled.retain(|f| f.path != "steps_per_print");
        self.filled.push(Filled {
            path: "steps_per_print".into(),
            // JSON has no infinity: shown as Python writes it.
            value: serde_json::Value::String("inf".into()),
            from: "accelerate: float('inf'), which silences DeepSpeed's own log".into(),
        });
        py::set(&mut self.dict, "steps_per_print", inf);
        Ok(())
    }

    /// `DeepSpeedPlugin.set_mixed_precision(args' mixed precision)`.
    fn set_mixed_precision(&mut self, step: &str) -> Result<(), Stop> {
        let mp = self.args.mixed_precision();
        if mp == "fp16" && !py::contains(&self.dict, "fp16") {
            py::set(
                &mut self.dict,
                "fp16",
                py::dict(vec![
                    ("enabled", py::boolean(true)),
                    ("auto_cast", py::boolean(true)),
                ]),
            );
            self.record("fp16.enabled", &py::boolean(true), "--mixed_precision fp16");
        } else if mp == "bf16" && !py::contains(&self.dict, "bf16") {
            py::set(
                &mut self.dict,
                "bf16",
                py::dict(vec![("enabled", py::boolean(true))]),
            );
            self.record("bf16.enabled", &py::boolean(true), "--mixed_precision bf16");
        }
        if mp != "no" {
            let other = if mp == "fp16" { "bf16" } else { "fp16" };
            let section = match py::get(&self.dict, other) {
                Ok(s) => s.cloned(),
                Err(e) => return Err(self.raise(other, e, step)),
            };
            if let Some(section) = section {
                let enabled = match py::get(&section, "enabled") {
                    Ok(v) => v.cloned(),
                    Err(e) => return Err(self.raise(other, e, step)),
                };
                let on = enabled.is_some_and(|v| py::str_of(&v).to_lowercase() == "true");
                if on {
                    let (en, zh) = self.who();
                    let arg = if self.trainer {
                        format!("{mp}=True")
                    } else {
                        format!("--mixed_precision {mp}")
                    };
                    self.diags.push(
                        Diagnostic::error(
                            "launcher-precision-conflict",
                            &format!("/{other}/enabled"),
                            Text::new(
                                format!("`{other}` is enabled but {en} runs with {arg}: \"`--mixed_precision` arg cannot be set to `{mp}` when `{other}` is set in the DeepSpeed config file.\""),
                                format!("配置启用了 `{other}`，而 {zh} 以 {arg} 运行：\"`--mixed_precision` arg cannot be set to `{mp}` when `{other}` is set in the DeepSpeed config file.\""),
                            ),
                        )
                        .with_fix(serde_json::json!([{"op": "replace", "path": format!("/{other}/enabled"), "value": "auto"}])),
                    );
                }
            }
        }
        for dtype in ["fp16", "bf16"] {
            if !py::contains(&self.dict, dtype) {
                py::set(
                    &mut self.dict,
                    dtype,
                    py::dict(vec![("enabled", py::boolean(false))]),
                );
            }
        }
        let from = format!("--mixed_precision {mp}");
        self.fill_match(
            "fp16.enabled",
            py::boolean(mp == "fp16"),
            &from,
            false,
            step,
        )?;
        self.fill_match(
            "bf16.enabled",
            py::boolean(mp == "bf16"),
            &from,
            false,
            step,
        )
    }

    /// The Trainer's `num_training_steps`: `max_steps`, or epochs over the per-rank dataloader.
    fn num_training_steps(&self) -> Option<u64> {
        let a = &self.args;
        if a.max_steps > 0 {
            return Some(a.max_steps as u64);
        }
        let batches = self
            .samples_per_rank()?
            .div_ceil(a.per_device_train_batch_size.max(1));
        let per_epoch = batches
            .div_ceil(a.gradient_accumulation_steps.max(1))
            .max(1);
        Some((a.num_train_epochs * per_epoch as f64).ceil() as u64)
    }

    fn trainer_config_finalize(&mut self, step: &str) -> Result<(), Stop> {
        let step_f = "trainer_config_finalize";
        self.fill_hidden_size(step_f)?;
        let steps = self.num_training_steps();
        let nts = steps.unwrap_or(1000);
        let from = if steps.is_some() {
            "num_training_steps (calculated)"
        } else {
            "num_training_steps (unknown: 1000 assumed)"
        };
        // An explicit total compared with an unknown step count cannot be judged: say so.
        let total = self.get_value("scheduler.params.total_num_steps", step_f)?;
        if steps.is_none() && total.as_ref().is_some_and(|t| t.as_str() != Some("auto")) {
            self.diags.push(Diagnostic::info(
                "launcher-steps-unknown",
                "/scheduler/params/total_num_steps",
                Text::new(
                    "the HF Trainer compares scheduler.params.total_num_steps with its num_training_steps: give max_steps, or the dataset size (train_samples), to check it",
                    "HF Trainer 会把 scheduler.params.total_num_steps 与其 num_training_steps 比较：请给出 max_steps 或数据集大小（train_samples）以便检查",
                ),
            ));
        } else {
            self.fill_match(
                "scheduler.params.total_num_steps",
                py::int(int(nts)),
                from,
                steps.is_some(),
                step_f,
            )?;
        }
        let ws = self.args.warmup_steps;
        let warmup = if ws >= 1.0 {
            ws.trunc() as i64
        } else {
            (nts as f64 * ws).ceil() as i64
        };
        self.fill_match(
            "scheduler.params.warmup_num_steps",
            py::int(warmup.max(1)),
            "warmup_steps",
            steps.is_some() || ws >= 1.0 || ws == 0.0,
            step_f,
        )?;
        let _ = step;
        self.raise_mismatches();
        self.scheduler_overridden();
        Ok(())
    }

    /// `deepspeed_optim_sched`: a config with a `scheduler` runs DeepSpeed's, and the trainer
    /// argument `lr_scheduler_type` is ignored without a word. Said when it names another shape.
    fn scheduler_overridden(&mut self) {
        let Some(asked) = self
            .ctx
            .trainer
            .as_ref()
            .and_then(|t| t.lr_scheduler_type.clone())
        else {
            return;
        };
        let Ok(Some(kind)) = py::get_value(&self.dict, "scheduler.type") else {
            return;
        };
        let kind = kind.as_str().unwrap_or("?").to_string();
        let same = matches!(
            (asked.as_str(), kind.as_str()),
            ("linear", "WarmupDecayLR")
                | ("constant_with_warmup", "WarmupLR")
                | ("cosine", "WarmupCosineLR")
        );
        if same {
            return;
        }
        let (asked, kind) = (crate::i18n::shown(&asked), crate::i18n::shown(&kind));
        self.diags.push(
            Diagnostic::warning(
                "launcher-scheduler-overridden",
                "/scheduler",
                Text::new(
                    format!("the trainer arguments ask for lr_scheduler_type={asked}, but the config's scheduler ({kind}) is the one that runs: the HF Trainer builds its own scheduler only when the config has none. Remove `scheduler` to train with {asked}, or keep it and drop lr_scheduler_type"),
                    format!("训练参数要求 lr_scheduler_type={asked}，但实际运行的是配置中的 scheduler（{kind}）：只有配置中没有 scheduler 时，HF Trainer 才会创建自己的调度器。要使用 {asked}，请删除 `scheduler`；或保留它并去掉 lr_scheduler_type"),
                ),
            )
            .with_fix(serde_json::json!([{"op": "remove", "path": "/scheduler"}])),
        );
    }

    /// `DeepSpeedPlugin.__post_init__` sets `steps_per_print` to `float("inf")` whatever the
    /// config says: a value the user wrote is not used, and DeepSpeed prints no progress lines.
    fn steps_per_print_overridden(&mut self) {
        let Ok(Some(set)) = py::get_value(&self.dict, "steps_per_print") else {
            return;
        };
        let n = py::repr(set);
        self.diags.push(
            Diagnostic::warning(
                "launcher-steps-per-print-overridden",
                "/steps_per_print",
                Text::new(
                    format!("steps_per_print {n} is not used: Accelerate (which the HF Trainer runs on) sets it to infinity, so DeepSpeed prints no progress lines of its own. How often training is reported is the Trainer's logging_steps (or your script's own logging); remove the key"),
                    format!("steps_per_print {n} 不会生效：Accelerate（HF Trainer 也基于它）会把它设为无穷大，DeepSpeed 不再打印自己的进度行。训练日志的频率由 Trainer 的 logging_steps（或你脚本自己的日志）决定；请删除此键"),
                ),
            )
            .with_fix(serde_json::json!([{"op": "remove", "path": "/steps_per_print"}])),
        );
    }

    /// The Trainer's one `ValueError` listing every mismatch, as one diagnostic per key.
    fn raise_mismatches(&mut self) {
        for (long, ds, hf_key, hf, hf_val) in std::mem::take(&mut self.mismatches) {
            // Judged on as if fixed ("auto"), so DeepSpeed's checks do not repeat it.
            py::set(&mut self.dict, &long, hf_val.clone());
            let line = format!("- ds {long}={ds} vs hf {hf_key}={hf}");
            self.diags.push(
                Diagnostic::error(
                    "launcher-mismatch",
                    &pointer(&long),
                    Text::new(
                        format!("`{long}` is {ds} but the TrainingArguments give {hf_key}={hf}: the HF Trainer stops with \"Please correct the following DeepSpeed config values that mismatch TrainingArguments values: {line}\". Set it to \"auto\" (or change the argument)"),
                        format!("`{long}` 为 {ds}，而 TrainingArguments 的 {hf_key}={hf}：HF Trainer 会报错 \"Please correct the following DeepSpeed config values that mismatch TrainingArguments values: {line}\"。请改为 \"auto\"（或修改该参数）"),
                    ),
                )
                .with_fix(serde_json::json!([{
                    "op": "replace",
                    "path": pointer(&long),
                    "value": "auto",
                    // Not RFC 6902 (appliers ignore it): what HF fills the "auto" with, so the
                    // fix's preview can say it changes a hyperparameter.
                    "becomes": {"value": hf_val.to_value(), "from": hf_key, "default": self.defaulted(&hf_key)},
                }])),
            );
        }
    }

    /// Whether the TrainingArguments value `hf_key` is a default: a plain argument name (not
    /// `train_batch_size (calculated)` or `adam_beta1+adam_beta2`) the user's arguments leave out.
    fn defaulted(&self, hf_key: &str) -> bool {
        let given = self
            .ctx
            .trainer
            .as_ref()
            .and_then(|t| serde_json::to_value(t).ok())
            .is_some_and(|v| v.get(hf_key).is_some());
        !given && hf_key.chars().all(|c| c.is_ascii_lowercase() || c == '_')
    }

    /// The hidden-size bucket keys (`trainer_config_finalize`: all of them under ZeRO-3, only
    /// `reduce_bucket_size` otherwise; `_prepare_deepspeed`: all three).
    fn fill_hidden_size(&mut self, step: &str) -> Result<(), Stop> {
        if !self.buckets_auto(step)? {
            return Ok(());
        }
        let stage3 = self
            .get_value("zero_optimization.stage", step)?
            .is_some_and(|s| py::eq(&s, &py::int(3)));
        let [reduce, rest @ ..] = self.bucket_values();
        self.fill_match(reduce.0, reduce.1, &reduce.2, false, step)?;
        if stage3 {
            for (key, value, from) in rest {
                self.fill_match(key, value, &from, false, step)?;
            }
        }
        Ok(())
    }

    /// Whether any of the hidden-size bucket keys is "auto".
    fn buckets_auto(&mut self, step: &str) -> Result<bool, Stop> {
        let mut any = false;
        for k in BUCKET_KEYS {
            any |= self
                .get_value(k, step)?
                .is_some_and(|v| v.as_str() == Some("auto"));
        }
        Ok(any)
    }

    /// The three bucket values HF derives from the model's hidden size, each with its rule.
    fn bucket_values(&self) -> [(&'static str, Node, String); 3] {
        let h = int(self.args.hidden_size);
        let h2 = h.saturating_mul(h);
        let note = if self.args.hidden_size_known {
            String::new()
        } else {
            format!(", hidden_size unknown: {h} assumed")
        };
        [
            (BUCKET_KEYS[0], py::int(h2), format!("hidden_size²{note}")),
            (
                BUCKET_KEYS[1],
                py::int((0.9 * h2 as f64) as i64),
                format!("0.9 × hidden_size²{note}"),
            ),
            (
                BUCKET_KEYS[2],
                py::int(h.saturating_mul(10)),
                format!("10 × hidden_size{note}"),
            ),
        ]
    }

    /// `Accelerator._prepare_deepspeed`: with `optimizer` (and a `DummyScheduler` when
    /// `scheduler` is given: its total steps, if known) when the model is prepared; without,
    /// the Trainer's first call with the dataloader alone.
    fn prepare_deepspeed(
        &mut self,
        optimizer: Option<Optimizer>,
        scheduler: Option<Option<u64>>,
        step: &str,
    ) -> Result<(), Stop> {
        let step = &format!("{step} → accelerator.prepare");
        // Tensor parallelism builds a device mesh over the ranks.
        let tp = match py::get(&self.dict, "tensor_parallel") {
            Err(e) => return Err(self.raise("tensor_parallel", e, step)),
            Ok(None) if !py::contains(&self.dict, "tensor_parallel") => None,
            Ok(Some(t)) => match py::get(t, "autotp_size") {
                Err(e) => return Err(self.raise("tensor_parallel", e, step)),
                Ok(v) => v.cloned(),
            },
            Ok(None) => {
                return Err(self.raise("tensor_parallel", PyErr::Attribute("NoneType"), step))
            }
        };
        if let Some(tp) = tp {
            let Some(size) = py::num(Some(&tp)) else {
                let ty = py::type_name(Some(&tp));
                return Err(self.raise(
                    "tensor_parallel.autotp_size",
                    PyErr::Type(format!(
                        "'>' not supported between instances of '{ty}' and 'int'"
                    )),
                    step,
                ));
            };
            if size > 1.0 && size > self.world() as f64 {
                let (en, zh) = self.who();
                let world = self.world();
                self.diags.push(Diagnostic::error(
                    "launcher-error",
                    "/tensor_parallel/autotp_size",
                    Text::new(
                        format!("tensor_parallel.autotp_size is {} but the world has {world} ranks: {en} builds a device mesh of that size and torch refuses (\"Mesh should not be bigger than default world size {world}\")", py::str_of(&tp)),
                        format!("tensor_parallel.autotp_size 为 {}，但只有 {world} 个进程：{zh} 按该大小建立 device mesh，torch 会拒绝（\"Mesh should not be bigger than default world size {world}\"）", py::str_of(&tp)),
                    ),
                ));
                return Err(Stop);
            }
        }
        let dataloader = !self.trainer || optimizer.is_none();
        let mbs_auto = self
            .get_value("train_micro_batch_size_per_gpu", step)?
            .is_some_and(|v| v.as_str() == Some("auto"));
        let batch = if mbs_auto && dataloader {
            Some(py::int(int(self.args.per_device_train_batch_size)))
        } else {
            self.get_value("train_micro_batch_size_per_gpu", step)?
        };
        let gas = self.accelerator_gas.clone();
        self.fill_match(
            "gradient_accumulation_steps",
            gas,
            "the Accelerator's gradient_accumulation_steps",
            false,
            step,
        )?;
        let ds_gas = self.get_value("gradient_accumulation_steps", step)?;
        self.accelerator_gas = ds_gas.clone().unwrap_or(py::dict(vec![]));
        let mut kwargs: Vec<(String, Node, String)> = vec![
            (
                "gradient_clipping".into(),
                py::float(1.0),
                "accelerate default".into(),
            ),
            (
                "zero_optimization.stage3_gather_16bit_weights_on_model_save".into(),
                py::boolean(false),
                "accelerate default".into(),
            ),
        ];
        if let Some(bpd) = batch {
            // batch_size_per_device * gradient_accumulation_steps * num_processes // sp_size
            let product = match (py::num(Some(&bpd)), py::num(ds_gas.as_ref())) {
                (Some(b), Some(g)) => b * g * self.world() as f64,
                _ => {
                    let msg = arithmetic_error(&bpd, ds_gas.as_ref());
                    return Err(self.raise(
                        "train_micro_batch_size_per_gpu",
                        PyErr::Type(msg),
                        step,
                    ));
                }
            };
            kwargs.push((
                "train_micro_batch_size_per_gpu".into(),
                bpd.clone(),
                if self.trainer {
                    "per_device_train_batch_size"
                } else {
                    "the dataloader's batch_size"
                }
                .into(),
            ));
            kwargs.push((
                "train_batch_size".into(),
                py::int(product.floor() as i64),
                "micro batch × accumulation × world size".into(),
            ));
        }
        let Some(optimizer) = optimizer else {
            return Ok(()); // the dataloader alone: nothing more is filled yet
        };
        // hidden-size buckets
        if self.buckets_auto(step)? {
            kwargs.extend(
                self.bucket_values()
                    .map(|(k, v, from)| (k.to_string(), v, from)),
            );
        }
        let max_lr = match optimizer {
            Optimizer::Dummy(lr) => {
                let wd = if self.trainer {
                    0.0
                } else {
                    self.args.weight_decay
                };
                kwargs.push((
                    "optimizer.params.lr".into(),
                    py::float(lr),
                    "DummyOptim lr".into(),
                ));
                kwargs.push((
                    "optimizer.params.weight_decay".into(),
                    py::float(wd),
                    "DummyOptim weight_decay".into(),
                ));
                lr
            }
            Optimizer::Torch(lr) => lr,
        };
        if let Some(total) = scheduler {
            kwargs.push((
                "scheduler.params.warmup_min_lr".into(),
                py::int(0),
                "DummyScheduler".into(),
            ));
            kwargs.push((
                "scheduler.params.warmup_max_lr".into(),
                py::float(max_lr),
                "the optimizer's lr".into(),
            ));
            kwargs.push((
                "scheduler.params.warmup_num_steps".into(),
                py::int(1),
                "DummyScheduler (max(1, 0))".into(),
            ));
            if let Some(total) = total {
                let per = total.div_ceil(self.world() as u64);
                kwargs.push((
                    "scheduler.params.total_num_steps".into(),
                    py::int(int(per)),
                    "the script's steps / processes".into(),
                ));
            }
        }
        self.config_process(&kwargs);
        // A torch optimizer under optimizer offload is swapped for DeepSpeedCPUAdam: the
        // lookups on the way can raise.
        if matches!(optimizer, Optimizer::Torch(_)) {
            let zero = self
                .dict
                .member("zero_optimization")
                .map(|m| m.value.clone());
            if let Some(zero) = zero {
                match py::get(&zero, "offload_optimizer") {
                    Err(e) => return Err(self.raise("zero_optimization", e, step)),
                    Ok(Some(o)) => {
                        if let Err(e) = py::get(o, "device") {
                            return Err(self.raise("zero_optimization.offload_optimizer", e, step));
                        }
                    }
                    Ok(None) if py::contains(&zero, "offload_optimizer") => {
                        return Err(self.raise(
                            "zero_optimization.offload_optimizer",
                            PyErr::Attribute("NoneType"),
                            step,
                        ))
                    }
                    Ok(None) => {}
                }
            }
        }
        Ok(())
    }

    /// `DeepSpeedPlugin.deepspeed_config_process(must_match=False, **kwargs)`: every `"auto"`
    /// left in the dict (dicts only, not lists) is filled from `kwargs` or refused.
    fn config_process(&mut self, kwargs: &[(String, Node, String)]) {
        let mut unfilled = 0usize;
        let mut autos = Vec::new();
        collect_autos(&self.dict, &mut Vec::new(), &mut autos);
        for long in autos {
            if let Some((_, v, from)) = kwargs.iter().find(|(k, _, _)| *k == long) {
                self.record(&long, v, from);
                py::set(&mut self.dict, &long, v.clone());
                continue;
            }
            // DeepSpeed never sees it: judge the rest as if the value were left out.
            self.refused.push(long.clone());
            // Said for the first ones only: each names its path, and a config of many thousand
            // "auto" values would otherwise build as many messages before the list is cut.
            unfilled += 1;
            if unfilled > MAX_UNFILLED_SAID {
                continue;
            }
            let at = pointer(&long);
            let long = &*crate::i18n::shown(&long);
            let (en, zh) = self.who();
            let fills = if self.trainer {
                "the Trainer fills only the batch sizes, gradient_clipping, fp16/bf16.enabled, the optimizer's lr/betas/eps/weight_decay, the scheduler's warmup/total steps and the three bucket sizes"
            } else {
                "plain Accelerate fills only the batch sizes, gradient_accumulation_steps, gradient_clipping, fp16/bf16.enabled, the optimizer's lr and weight_decay, the scheduler's warmup/total steps and the three bucket sizes"
            };
            let fills_zh = if self.trainer {
                "Trainer 只填充 batch 大小、gradient_clipping、fp16/bf16.enabled、优化器的 lr/betas/eps/weight_decay、调度器的 warmup/total 步数以及三个 bucket 大小"
            } else {
                "单独使用 Accelerate 时只填充 batch 大小、gradient_accumulation_steps、gradient_clipping、fp16/bf16.enabled、优化器的 lr 与 weight_decay、调度器的 warmup/total 步数以及三个 bucket 大小"
            };
            self.diags.push(Diagnostic::error(
                "launcher-auto-unfilled",
                &at,
                Text::new(
                    format!("`{long}` is \"auto\" but {en} has no value for it ({fills}): \"`{long}` not found in kwargs. Please specify `{long}` without `auto` (set to correct value) in the DeepSpeed config file or pass it in kwargs.\""),
                    format!("`{long}` 为 \"auto\"，但 {zh} 没有可填的值（{fills_zh}）：\"`{long}` not found in kwargs. Please specify `{long}` without `auto` ...\"。请写出具体的值"),
                ),
            ));
        }
        if unfilled > MAX_UNFILLED_SAID {
            let more = unfilled - MAX_UNFILLED_SAID;
            self.diags.push(Diagnostic::error(
                "launcher-auto-unfilled",
                "",
                Text::new(
                    format!("{more} more \"auto\" values the launcher has no value for (only the first {MAX_UNFILLED_SAID} are listed)"),
                    format!("另有 {more} 个 \"auto\" 值启动器无法填充（只列出前 {MAX_UNFILLED_SAID} 个）"),
                ),
            ));
        }
        // One pass for all of them (50,000 "auto" values cost one walk, not 50,000).
        let refused: std::collections::HashSet<&str> =
            self.refused.iter().map(String::as_str).collect();
        py::remove_all(&mut self.dict, &refused);
    }
}

/// Unfilled `"auto"` values said one by one (the rest in one line).
const MAX_UNFILLED_SAID: usize = 200;

/// Whether any object of the tree repeats a key (then `json.load` keeps the last one).
fn has_duplicates(node: &Node) -> bool {
    match &node.kind {
        Kind::Object(members) => {
            let dup = if members.len() < 16 {
                members
                    .iter()
                    .enumerate()
                    .any(|(i, m)| members[..i].iter().any(|n| n.key == m.key))
            } else {
                let mut seen = std::collections::HashSet::new();
                !members.iter().all(|m| seen.insert(m.key.as_str()))
            };
            dup || members.iter().any(|m| has_duplicates(&m.value))
        }
        Kind::Array(items) => items.iter().any(has_duplicates),
        _ => false,
    }
}

/// A count as a Python int: counts beyond i64 (hostile arguments) saturate, never wrap.
fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The bucket keys HF fills from the model's hidden size.
const BUCKET_KEYS: [&str; 3] = [
    "zero_optimization.reduce_bucket_size",
    "zero_optimization.stage3_prefetch_bucket_size",
    "zero_optimization.stage3_param_persistence_threshold",
];

/// Which optimizer reaches `accelerator.prepare`: accelerate's `DummyOptim` (the config has an
/// `optimizer` section) with its learning rate, or a torch optimizer.
#[derive(Clone, Copy)]
enum Optimizer {
    Dummy(f64),
    Torch(f64),
}

/// Dotted keys whose value is the string "auto", dicts only, in document order (a key is
/// spelled out only for an "auto" found).
fn collect_autos<'a>(node: &'a Node, trail: &mut Vec<&'a str>, out: &mut Vec<String>) {
    for m in node.members() {
        match &m.value.kind {
            Kind::Object(_) => {
                trail.push(&m.key);
                collect_autos(&m.value, trail, out);
                trail.pop();
            }
            Kind::String(s) if s == "auto" => {
                let mut key = trail.join(".");
                if !key.is_empty() {
                    key.push('.');
                }
                key.push_str(&m.key);
                out.push(key);
            }
            _ => {}
        }
    }
}

/// Python's `TypeError` for `micro_batch * accumulation * world // sp` on non-numbers.
fn arithmetic_error(bpd: &Node, gas: Option<&Node>) -> String {
    let (a, b) = (py::type_name(Some(bpd)), py::type_name(gas));
    let seq = |t: &str| t == "str" || t == "list";
    if seq(a) && seq(b) {
        format!("can't multiply sequence by non-int of type '{b}'")
    } else if (seq(a) && b == "float") || (seq(b) && a == "float") {
        "can't multiply sequence by non-int of type 'float'".to_string()
    } else if (seq(a) || seq(b)) && a != "NoneType" && b != "NoneType" && a != "dict" && b != "dict"
    {
        format!(
            "unsupported operand type(s) for //: '{}' and 'int'",
            if seq(a) { a } else { b }
        )
    } else {
        format!("unsupported operand type(s) for *: '{a}' and '{b}'")
    }
}
