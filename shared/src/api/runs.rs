//! The runs table (`GET /api/v1/jobs` and the `/jobs` page): what a run ran ([`RunFacts`]),
//! what people write on it ([`RunLabels`]), and the list's filters and sort order
//! ([`RunsQuery`]), whose query string is the same in the page's URL and in the API call, so a
//! view can be shared as a link.

use crate::validate::Context;
use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// What a run ran, read from the config as run (the fitted one where it was fitted) in the
/// job's context.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct RunFacts {
    /// Who launched DeepSpeed: `deepspeed`, `hf-trainer` or `accelerate` (the version's
    /// context's launcher).
    #[serde(default = "default_launcher")]
    pub launcher: String,
    /// The DeepSpeed release: the claiming runner's, else the one it was validated for.
    #[serde(default)]
    pub deepspeed: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zero_stage: Option<u8>,
    /// `bf16`, `fp16` or `fp32`.
    #[serde(default)]
    pub precision: String,
    /// `none`, or what is offloaded where (`optimizer:cpu`, `optimizer:cpu param:nvme`).
    #[serde(default)]
    pub offload: String,
    /// Micro batch per GPU as DeepSpeed derives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub micro_batch: Option<i64>,
}

fn default_launcher() -> String {
    "deepspeed".into()
}

impl RunFacts {
    /// The facts of `config_text` run in `ctx` (the effective config: defaults and the derived
    /// batch triple included).
    pub fn of(config_text: &str, ctx: &Context) -> RunFacts {
        let doc = crate::document::Document::parse(config_text);
        let entries = match doc.root() {
            Some(root) => crate::effective::effective(root, ctx),
            None => Vec::new(),
        };
        let get = |path: &str| entries.iter().find(|e| e.path == path).map(|e| &e.value);
        let truthy = |path: &str| {
            get(path).is_some_and(|v| v.as_bool() == Some(true) || v.as_str() == Some("true"))
        };
        let int = |path: &str| {
            get(path).and_then(|v| {
                v.as_i64()
                    .or_else(|| v.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64))
                    .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            })
        };
        let precision = if truthy("bf16.enabled") || truthy("bfloat16.enabled") {
            "bf16"
        } else if truthy("fp16.enabled") {
            "fp16"
        } else {
            "fp32"
        };
        let offload: Vec<String> = [
            ("optimizer", "zero_optimization.offload_optimizer.device"),
            ("param", "zero_optimization.offload_param.device"),
        ]
        .iter()
        .filter_map(|(what, path)| {
            get(path)
                .and_then(|v| v.as_str())
                .filter(|d| matches!(*d, "cpu" | "nvme"))
                .map(|d| format!("{what}:{d}"))
        })
        .collect();
        RunFacts {
            launcher: ctx.launcher.as_str().into(),
            deepspeed: ctx.release().map(|r| r.to_string()).unwrap_or_default(),
            // No `zero_optimization` section: DeepSpeed runs stage 0.
            zero_stage: int("zero_optimization.stage")
                .or((!entries.is_empty()).then_some(0))
                .and_then(|s| u8::try_from(s).ok()),
            precision: precision.into(),
            offload: if offload.is_empty() {
                "none".into()
            } else {
                offload.join(" ")
            },
            micro_batch: int("train_micro_batch_size_per_gpu"),
        }
    }
}

/// "Run again": the request that runs `job`'s version once more with its settings (workload,
/// world, runner, steps, time limit, variables, fit, tags; the name marked `(again)`). Secret variables are not
/// kept once a job ends: their names are answered, and the caller must supply their values.
pub fn run_again(job: &super::Job) -> (super::JobCreate, Vec<String>) {
    let req = super::JobCreate {
        template_id: job.template_id,
        version: Some(job.version),
        workload: job.workload.clone(),
        gpus: Some(job.gpus),
        nodes: Some(job.nodes),
        runner: job.runner_requested.clone(),
        max_steps: Some(job.max_steps),
        env: (!job.env.is_empty()).then(|| job.env.clone()),
        secret_env: None,
        time_limit_s: job.time_limit_s,
        stall_timeout_s: job.stall_timeout_s,
        fit_to_runner: job.fit.is_some().then_some(true),
        force: None,
        // Told apart from the run it repeats (and not `(again) (again)`).
        name: (!job.name.is_empty()).then(|| {
            if job.name.ends_with(" (again)") {
                job.name.clone()
            } else {
                format!("{} (again)", job.name)
            }
        }),
        note: None,
        tags: (!job.tags.is_empty()).then(|| job.tags.clone()),
    };
    (req, job.secret_env_names.clone())
}

/// `PATCH /api/v1/jobs/{id}`: what people write on a run. Each field left out stays as it is.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RunLabels {
    /// A short name (at most 120 characters; empty clears it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = "baseline, lr 3e-4"))]
    pub name: Option<String>,
    /// A note (at most 4,000 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = "loss spikes at step 40"))]
    pub note: Option<String>,
    /// Tags (at most 16, each 1-32 letters, digits, `-`, `_`, `.`, `:` or `/`); replaces the
    /// run's tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = json!(["baseline", "zero3"])))]
    pub tags: Option<Vec<String>>,
}

pub const MAX_RUN_NAME: usize = 120;
pub const MAX_RUN_NOTE: usize = 4000;
pub const MAX_TAGS: usize = 16;
/// Most tag entries a request may carry before duplicates are removed.
pub const MAX_TAG_ENTRIES: usize = 100;

/// A tag: 1-32 letters, digits, `-`, `_`, `.`, `:` or `/`.
pub fn check_tag(tag: &str) -> Result<(), String> {
    let ok = (1..=32).contains(&tag.len())
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '/'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "tag `{}` must be 1-32 letters, digits, `-`, `_`, `.`, `:` or `/`",
            tag.chars().take(40).collect::<String>().escape_debug()
        ))
    }
}

impl RunLabels {
    /// The labels with the name and note trimmed and the tags deduplicated, or what is wrong.
    pub fn checked(&self) -> Result<RunLabels, String> {
        let text = |v: &Option<String>, what: &str, max: usize| -> Result<Option<String>, String> {
            match v {
                None => Ok(None),
                Some(s) if s.chars().count() > max => Err(format!(
                    "{what} has {} characters; at most {max}",
                    s.chars().count()
                )),
                // A note may have lines and tabs; a name is one line.
                Some(s)
                    if s.chars().any(|c| {
                        c.is_control() && (what == "name" || (c != '\n' && c != '\t'))
                    }) =>
                {
                    Err(format!("{what} must not hold control characters"))
                }
                Some(s) if what == "name" && s.chars().any(super::is_hidden_char) => Err(format!(
                    "the run's name contains the invisible or bidirectional character U+{:04X}, which can make a name read differently from what it holds",
                    s.chars().find(|c| super::is_hidden_char(*c)).map_or(0, |c| c as u32)
                )),
                Some(s) => Ok(Some(s.trim().to_string())),
            }
        };
        let tags = match &self.tags {
            None => None,
            // The list's length is checked before any per-tag work; duplicates by a set.
            Some(list) if list.len() > MAX_TAG_ENTRIES => {
                return Err(format!(
                    "{} tags given; a run may have at most {MAX_TAGS}",
                    list.len()
                ))
            }
            Some(list) => {
                let mut seen = std::collections::HashSet::new();
                let mut out: Vec<String> = Vec::new();
                for t in list {
                    check_tag(t.trim())?;
                    if seen.insert(t.trim()) {
                        out.push(t.trim().to_string());
                    }
                }
                if out.len() > MAX_TAGS {
                    return Err(format!(
                        "{} tags given; a run may have at most {MAX_TAGS}",
                        out.len()
                    ));
                }
                Some(out)
            }
        };
        Ok(RunLabels {
            name: text(&self.name, "name", MAX_RUN_NAME)?,
            note: text(&self.note, "note", MAX_RUN_NOTE)?,
            tags,
        })
    }
}

/// The tags column: `,a,b,` (one tag matches as the substring `,a,`).
pub fn tags_column(tags: &[String]) -> String {
    format!(
        ",{}",
        tags.iter().map(|t| format!("{t},")).collect::<String>()
    )
}

/// The tags of a tags column.
pub fn tags_of_column(col: &str) -> Vec<String> {
    col.split(',')
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Columns the runs table sorts by (`sort=final_loss`, `sort=-duration`).
pub const SORT_KEYS: &[&str] = &[
    "id",
    "name",
    "state",
    "template",
    "runner",
    "launcher",
    "deepspeed",
    "world",
    "zero_stage",
    "precision",
    "offload",
    "micro_batch",
    "duration",
    "final_loss",
    "samples_per_sec",
    "peak_memory_mb",
];

/// Precisions a filter may name.
pub const PRECISIONS: &[&str] = &["bf16", "fp16", "fp32"];

/// The runs table's filters, sort order and page: the query string of `GET /api/v1/jobs` and
/// of the `/jobs` page alike. Every field is optional; [`RunsQuery::parse`] checks them and
/// names what is wrong.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunsQuery {
    /// States (any of them).
    pub states: Vec<super::JobState>,
    pub template_id: Option<i64>,
    pub runner: Option<String>,
    /// `deepspeed`, `hf-trainer` or `accelerate`.
    pub launcher: Option<String>,
    pub deepspeed: Option<String>,
    /// World size (nodes × GPUs).
    pub world: Option<i64>,
    pub zero_stage: Option<u8>,
    pub precision: Option<String>,
    /// `none`, `any`, `cpu` or `nvme`.
    pub offload: Option<String>,
    pub micro_batch: Option<i64>,
    pub tag: Option<String>,
    /// Words in the name, the note or the template's name.
    pub q: Option<String>,
    /// A [`SORT_KEYS`] entry, `-` in front for descending; default newest first.
    pub sort: Option<String>,
    pub offset: Option<i64>,
    pub limit: Option<i64>,
}

/// Longest search text.
pub const MAX_QUERY_TEXT: usize = 200;

impl RunsQuery {
    /// Reads the query's pairs (unknown names are refused: a typo must not silently list
    /// everything).
    pub fn parse<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<RunsQuery, String> {
        let mut q = RunsQuery::default();
        let int = |name: &str, v: &str| -> Result<i64, String> {
            v.trim()
                .parse::<i64>()
                .map_err(|_| format!("{name} `{}` must be a whole number", v.escape_debug()))
        };
        for (k, v) in pairs {
            let v = v.trim();
            if v.is_empty() {
                continue;
            }
            match k {
                "state" => {
                    for s in v.split(',').filter(|s| !s.is_empty()) {
                        q.states.push(super::JobState::parse(s).ok_or_else(|| {
                            format!(
                                "state `{}` is unknown; use queued, running, succeeded, failed, cancelled or lost",
                                s.escape_debug()
                            )
                        })?);
                    }
                }
                "template_id" => q.template_id = Some(int(k, v)?),
                "runner" => q.runner = Some(v.to_string()),
                "launcher" => {
                    let l: crate::validate::Launcher = v.parse()?;
                    q.launcher = Some(l.as_str().to_string());
                }
                "deepspeed" => q.deepspeed = Some(v.to_string()),
                "world" => q.world = Some(int(k, v)?),
                "zero_stage" => {
                    q.zero_stage = Some(
                        int(k, v)
                            .ok()
                            .and_then(|s| u8::try_from(s).ok())
                            .filter(|s| *s <= 3)
                            .ok_or_else(|| format!("zero_stage `{}` must be 0, 1, 2 or 3", v.escape_debug()))?,
                    )
                }
                "precision" => {
                    if !PRECISIONS.contains(&v) {
                        return Err(format!(
                            "precision `{}` is unknown; use bf16, fp16 or fp32",
                            v.escape_debug()
                        ));
                    }
                    q.precision = Some(v.to_string());
                }
                "offload" => {
                    if !["none", "any", "cpu", "nvme"].contains(&v) {
                        return Err(format!(
                            "offload `{}` is unknown; use none, any, cpu or nvme",
                            v.escape_debug()
                        ));
                    }
                    q.offload = Some(v.to_string());
                }
                "micro_batch" => q.micro_batch = Some(int(k, v)?),
                "tag" => {
                    check_tag(v)?;
                    q.tag = Some(v.to_string());
                }
                "q" => {
                    if v.chars().count() > MAX_QUERY_TEXT {
                        return Err(format!("q must be at most {MAX_QUERY_TEXT} characters"));
                    }
                    q.q = Some(v.to_string());
                }
                "sort" => {
                    let key = v.strip_prefix('-').unwrap_or(v);
                    if !SORT_KEYS.contains(&key) {
                        return Err(format!(
                            "sort `{}` is unknown; use one of {} (a leading `-` sorts descending)",
                            v.escape_debug(),
                            SORT_KEYS.join(", ")
                        ));
                    }
                    q.sort = Some(v.to_string());
                }
                "offset" => q.offset = Some(int(k, v)?),
                "limit" => q.limit = Some(int(k, v)?),
                // The language of the server's messages (read by the server, not a filter).
                "lang" => {}
                other => {
                    return Err(format!(
                        "`{}` is not a filter of the runs table; use state, template_id, runner, launcher, deepspeed, world, zero_stage, precision, offload, micro_batch, tag, q, sort, offset or limit",
                        other.chars().take(40).collect::<String>().escape_debug()
                    ))
                }
            }
        }
        Ok(q)
    }

    /// The query's pairs, in a stable order (what [`RunsQuery::parse`] reads back).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut out: Vec<(&'static str, String)> = Vec::new();
        if !self.states.is_empty() {
            let s: Vec<&str> = self.states.iter().map(|s| s.as_str()).collect();
            out.push(("state", s.join(",")));
        }
        let mut put = |k: &'static str, v: Option<String>| {
            if let Some(v) = v.filter(|v| !v.is_empty()) {
                out.push((k, v));
            }
        };
        put("template_id", self.template_id.map(|v| v.to_string()));
        put("runner", self.runner.clone());
        put("launcher", self.launcher.clone());
        put("deepspeed", self.deepspeed.clone());
        put("world", self.world.map(|v| v.to_string()));
        put("zero_stage", self.zero_stage.map(|v| v.to_string()));
        put("precision", self.precision.clone());
        put("offload", self.offload.clone());
        put("micro_batch", self.micro_batch.map(|v| v.to_string()));
        put("tag", self.tag.clone());
        put("q", self.q.clone());
        put("sort", self.sort.clone());
        put(
            "offset",
            self.offset.filter(|o| *o > 0).map(|v| v.to_string()),
        );
        put("limit", self.limit.map(|v| v.to_string()));
        out
    }

    /// The query string (without `?`), percent-encoded.
    pub fn to_query_string(&self) -> String {
        self.pairs()
            .into_iter()
            .map(|(k, v)| format!("{k}={}", super::encode_query_value(&v)))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// The sort key and whether it is descending (default: `id`, descending).
    pub fn sort_order(&self) -> (&str, bool) {
        match self.sort.as_deref() {
            None => ("id", true),
            Some(s) => match s.strip_prefix('-') {
                Some(k) => (k, true),
                None => (s, false),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::Context;

    #[test]
    fn facts_come_from_the_effective_config() {
        let ctx = Context {
            world_size: 4,
            ..Context::default()
        };
        let f = RunFacts::of(
            r#"{"train_batch_size": 32, "gradient_accumulation_steps": 2,
                "bf16": {"enabled": true},
                "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                                      "offload_param": {"device": "nvme"}}}"#,
            &ctx,
        );
        assert_eq!(f.zero_stage, Some(3));
        assert_eq!(f.precision, "bf16");
        assert_eq!(f.offload, "optimizer:cpu param:nvme");
        // 32 = micro × 2 × 4: DeepSpeed derives 4.
        assert_eq!(f.micro_batch, Some(4));
        assert!(!f.deepspeed.is_empty());
        let plain = RunFacts::of(r#"{"train_micro_batch_size_per_gpu": 2}"#, &ctx);
        assert_eq!(plain.zero_stage, Some(0));
        assert_eq!(plain.precision, "fp32");
        assert_eq!(plain.offload, "none");
        assert_eq!(plain.micro_batch, Some(2));
        let broken = RunFacts::of("{not json", &ctx);
        assert_eq!(broken.zero_stage, None);
        assert_eq!(broken.micro_batch, None);
    }

    #[test]
    fn run_again_repeats_the_settings_and_asks_for_the_secrets() {
        let mut job: crate::api::Job = serde_json::from_value(serde_json::json!({
            "id": 4, "template_id": 2, "template_name": "t", "team_id": 1, "version": 3,
            "state": "succeeded", "workload": {"builtin": "gpt", "size": "small"}, "gpus": 2,
            "nodes": 1, "max_steps": 50, "created_by": "a", "created_at": "x", "last_seq": 0,
            "env": {"NCCL_DEBUG": "INFO"}, "secret_env_names": ["HF_TOKEN"],
            "runner_requested": "gpu-a", "time_limit_s": 600, "name": "base", "tags": ["lr"]
        }))
        .unwrap();
        let (req, secrets) = run_again(&job);
        assert_eq!(
            (req.template_id, req.version, req.gpus, req.nodes),
            (2, Some(3), Some(2), Some(1))
        );
        assert_eq!(req.max_steps, Some(50));
        assert_eq!(req.workload.size.as_deref(), Some("small"));
        assert_eq!(req.runner.as_deref(), Some("gpu-a"));
        assert_eq!(req.time_limit_s, Some(600));
        assert_eq!(req.env.unwrap()["NCCL_DEBUG"], "INFO");
        assert_eq!(req.secret_env, None);
        assert_eq!(secrets, vec!["HF_TOKEN"]);
        assert_eq!(req.name.as_deref(), Some("base (again)"));
        assert_eq!(req.tags, Some(vec!["lr".to_string()]));
        assert_eq!(req.fit_to_runner, None);
        job.name = "base (again)".into();
        assert_eq!(run_again(&job).0.name.as_deref(), Some("base (again)"));
    }

    #[test]
    fn labels_are_checked_and_tidied() {
        let l = RunLabels {
            name: Some("  base  ".into()),
            note: None,
            tags: Some(vec!["a".into(), "b:c".into(), "a".into()]),
        }
        .checked()
        .unwrap();
        assert_eq!(l.name.as_deref(), Some("base"));
        assert_eq!(l.tags, Some(vec!["a".to_string(), "b:c".to_string()]));
        assert_eq!(tags_column(l.tags.as_ref().unwrap()), ",a,b:c,");
        assert_eq!(tags_of_column(",a,b:c,"), vec!["a", "b:c"]);
        assert_eq!(tags_of_column(","), Vec::<String>::new());
        let bad = |l: RunLabels| l.checked().unwrap_err();
        assert!(bad(RunLabels {
            tags: Some(vec!["a,b".into()]),
            ..Default::default()
        })
        .contains("tag `a,b`"));
        assert!(bad(RunLabels {
            name: Some("x".repeat(121)),
            ..Default::default()
        })
        .contains("at most 120"));
        assert!(bad(RunLabels {
            note: Some("a\u{7}b".into()),
            ..Default::default()
        })
        .contains("control"));
        assert!(bad(RunLabels {
            tags: Some((0..17).map(|i| format!("t{i}")).collect()),
            ..Default::default()
        })
        .contains("at most 16"));
    }

    #[test]
    fn queries_read_back_what_they_write_and_name_mistakes() {
        let q = RunsQuery::parse([
            ("state", "succeeded,failed"),
            ("zero_stage", "3"),
            ("precision", "bf16"),
            ("tag", "base"),
            ("q", "lr 3e-4 & more"),
            ("sort", "-final_loss"),
            ("offset", "50"),
        ])
        .unwrap();
        assert_eq!(q.sort_order(), ("final_loss", true));
        let s = q.to_query_string();
        assert_eq!(
            s,
            "state=succeeded%2Cfailed&zero_stage=3&precision=bf16&tag=base&q=lr%203e-4%20%26%20more&sort=-final_loss&offset=50"
        );
        let pairs: Vec<(String, String)> = s
            .split('&')
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap();
                (
                    k.to_string(),
                    v.replace("%20", " ")
                        .replace("%26", "&")
                        .replace("%2C", ","),
                )
            })
            .collect();
        let back = RunsQuery::parse(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
        assert_eq!(back, q);
        assert_eq!(RunsQuery::default().sort_order(), ("id", true));
        for (k, v, says) in [
            ("state", "done", "state `done` is unknown"),
            ("zero_stage", "4", "0, 1, 2 or 3"),
            ("precision", "fp8", "precision `fp8`"),
            ("offload", "gpu", "offload `gpu`"),
            ("sort", "-loss", "sort `-loss` is unknown"),
            ("world", "eight", "world `eight` must be a whole number"),
            ("stage", "3", "`stage` is not a filter"),
            ("tag", "a b", "tag `a b`"),
        ] {
            let e = RunsQuery::parse([(k, v)]).unwrap_err();
            assert!(e.contains(says), "{k}={v}: {e}");
        }
    }
}
