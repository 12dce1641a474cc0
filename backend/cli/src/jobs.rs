//! `ds-studio jobs submit|list|show|watch|cancel|logs`: jobs on a ds-studio server.
//! `watch` follows the job's SSE stream (reconnecting with `Last-Event-ID` when the server goes
//! away) and shows one live progress line, or JSON lines with `--format json`; it exits 0 when
//! the job succeeds and 1 otherwise.

use crate::server_args::ServerArgs;
use ds_studio_client::{localized, print_json, Client, ClientError, SseDecoder};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{Job, JobCreate, JobState, LogLine, MetricPoint, Page, Workload};
use ds_studio_shared::i18n::Lang;
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

// Parsed once per process: the size of `Submit`'s flags costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(clap::Subcommand, Debug)]
pub enum JobsCommand {
    /// Run a template version: the built-in GPT workload (default), a rehearsal of your own
    /// model (--model NAME or --model-config FILE: its real shape, random weights, synthetic
    /// tokens) or --entrypoint SCRIPT.
    Submit {
        /// Template id.
        #[arg(long)]
        template: i64,
        /// Version to pin (default: the head).
        #[arg(long)]
        version: Option<i64>,
        /// Size of the built-in GPT workload: tiny, small, medium, large, xl.
        #[arg(long, conflicts_with_all = ["entrypoint", "model", "model_config"])]
        size: Option<String>,
        /// Rehearse a model of the catalog (`ds-studio models`) at its real shape.
        #[arg(long, conflicts_with_all = ["entrypoint", "model_config"])]
        model: Option<String>,
        /// Rehearse the model of this Hugging Face config.json (`-`: stdin; a directory: its
        /// config.json).
        #[arg(long, conflicts_with = "entrypoint")]
        model_config: Option<String>,
        /// Tokens per sample of a rehearsal (default 2048).
        #[arg(long)]
        seq_len: Option<u64>,
        /// LoRA adapters of this rank on the rehearsed model (peft): the base frozen.
        #[arg(long)]
        lora_rank: Option<u64>,
        /// The modules the adapters go on, comma-separated; default all-linear.
        #[arg(long, requires = "lora_rank")]
        lora_targets: Option<String>,
        /// A training script on the runner host instead of the built-in workload.
        #[arg(long)]
        entrypoint: Option<String>,
        /// Arguments of the entrypoint (after `--`).
        #[arg(last = true)]
        args: Vec<String>,
        #[arg(long, default_value_t = 1)]
        gpus: u32,
        #[arg(long, default_value_t = 1)]
        nodes: u32,
        /// Only this runner.
        #[arg(long)]
        runner: Option<String>,
        /// Optimizer steps of the built-in workload (default 20).
        #[arg(long)]
        max_steps: Option<u32>,
        /// Environment variable for the job, `NAME=VALUE` (repeat it).
        #[arg(long = "env")]
        env: Vec<String>,
        /// A secret variable for the job, taken from this command's own environment variable
        /// of the same name (so its value is never on a command line); repeat it. Its value is
        /// never shown in answers or logs.
        #[arg(long = "secret-env", value_name = "NAME")]
        secret_env: Vec<String>,
        /// Stop the job after this many seconds.
        #[arg(long)]
        time_limit: Option<u64>,
        /// Stop the job when it reports no new metric for this many seconds (30 to 86400):
        /// a hung rank ends as `stalled` instead of holding its GPUs.
        #[arg(long, value_name = "SECONDS")]
        stall_timeout: Option<u64>,
        /// Fit the batch sizes to --gpus × --nodes (keep the global batch by changing the
        /// gradient accumulation); the job runs the fitted config, the version is untouched.
        #[arg(long)]
        fit: bool,
        /// Run it even when the memory estimate says it does not fit the runner's memory.
        #[arg(long)]
        force: bool,
        /// Follow the job after submitting it (as `jobs watch`).
        #[arg(long)]
        watch: bool,
        /// A name for the run.
        #[arg(long)]
        name: Option<String>,
        /// A tag for the run (repeat it).
        #[arg(long = "tag")]
        tags: Vec<String>,
    },
    /// List jobs (the runs table), newest first unless --sort says otherwise.
    List {
        #[arg(long)]
        template: Option<i64>,
        /// queued, running, succeeded, failed, cancelled or lost (comma-separated for several).
        #[arg(long)]
        state: Option<String>,
        /// A filter of the runs table as NAME=VALUE (repeat it): world, zero_stage, precision,
        /// offload, micro_batch, runner, launcher, deepspeed, tag, q.
        #[arg(long = "where", value_name = "NAME=VALUE")]
        filters: Vec<String>,
        /// Sort by a column (`final_loss`, `-duration`, ...; `-` for descending).
        #[arg(long, allow_hyphen_values = true)]
        sort: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Run a job's version again with the same settings (its secret variables are taken from
    /// this command's environment, as --secret-env does).
    Again {
        id: i64,
        /// Follow the new job (as `jobs watch`).
        #[arg(long)]
        watch: bool,
    },
    /// Set a run's name, note or tags.
    Label {
        id: i64,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        note: Option<String>,
        /// Replace the run's tags with these (repeat it; `--tag ''` clears them).
        #[arg(long = "tag")]
        tags: Option<Vec<String>>,
    },
    /// Show a job.
    Show { id: i64 },
    /// Follow a job live until it ends.
    Watch { id: i64 },
    /// Cancel a job.
    Cancel { id: i64 },
    /// Print a job's log.
    Logs { id: i64 },
}

#[derive(clap::Args, Debug)]
pub struct JobsArgs {
    #[command(subcommand)]
    pub command: JobsCommand,
    #[command(flatten)]
    pub server: ServerArgs,
    #[arg(long, default_value = "text", value_parser = ["text", "json"], global = true)]
    pub format: String,
}

/// One run as a row of the runs table.
/// The columns of `jobs list`, and of the line `jobs cancel` / `jobs show` print for one job.
const COLUMNS: [&str; 10] = [
    "ID",
    "STATE",
    "VERSION",
    "WORKLOAD",
    "LAUNCHER",
    "NODESxGPUS",
    "RUNNER",
    "ZERO",
    "PRECISION",
    "LOSS",
];

/// One job as the cells of [`COLUMNS`], then its name and tags (free text, last).
fn cells(j: &Job) -> (Vec<String>, String) {
    let stage = j
        .facts
        .zero_stage
        .map_or_else(|| "-".to_string(), |z| format!("zero{z}"));
    let loss = j
        .summary
        .as_ref()
        .and_then(|s| s.final_loss)
        .map_or_else(|| "-".to_string(), |l| format!("{l:.4}"));
    let precision = if j.facts.precision.is_empty() {
        "-".to_string()
    } else {
        j.facts.precision.clone()
    };
    let mut rest = String::new();
    if !j.name.is_empty() {
        rest.push_str(&format!("\"{}\"", j.name));
    }
    if !j.tags.is_empty() {
        if !rest.is_empty() {
            rest.push_str("  ");
        }
        rest.push_str(&format!("[{}]", j.tags.join(", ")));
    }
    (
        vec![
            j.id.to_string(),
            j.state.as_str().to_string(),
            format!("{}@{}", j.template_name, j.version),
            j.workload.label(),
            if j.facts.launcher.is_empty() {
                "-".to_string()
            } else {
                j.facts.launcher.clone()
            },
            format!("{}x{}", j.nodes, j.gpus),
            j.runner.clone().unwrap_or_else(|| "-".into()),
            stage,
            precision,
            loss,
        ],
        rest,
    )
}

/// Jobs as a table: a header row, then one row per job, columns padded to their widest cell.
fn table(jobs: &[Job]) -> String {
    let rows: Vec<(Vec<String>, String)> = jobs.iter().map(cells).collect();
    let mut widths: Vec<usize> = COLUMNS.iter().map(|c| c.len()).collect();
    for (cells, _) in &rows {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(c.chars().count());
        }
    }
    let header: Vec<String> = COLUMNS.iter().map(|c| c.to_string()).collect();
    let mut out = String::new();
    for (cells, rest) in std::iter::once((header, "NAME [TAGS]".to_string())).chain(rows) {
        let mut line = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i == 0 {
                line.push_str(&format!("{c:>w$}"));
            } else {
                line.push_str(&format!("  {c:<w$}"));
            }
        }
        if !rest.is_empty() {
            line.push_str("  ");
            line.push_str(&rest);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn describe(j: &Job, lang: Lang) -> String {
    let mut s = format!(
        "job {}: {}\n  template {} ({}) version {}\n  workload {}  {} node(s) x {} GPU(s)  max_steps {}\n  runner {}\n  created {} by {}",
        j.id,
        j.state.as_str(),
        j.template_name,
        j.template_id,
        j.version,
        j.workload.label(),
        j.nodes,
        j.gpus,
        j.max_steps,
        j.runner.as_deref().unwrap_or("-"),
        j.created_at,
        j.created_by
    );
    if !j.facts.launcher.is_empty() && j.facts.launcher != "deepspeed" {
        s.push_str(&format!("\n  launcher {}", j.facts.launcher));
        for f in &j.filled {
            let got = j
                .handed_config
                .as_ref()
                .and_then(|h| f.received(h))
                .filter(|g| **g != f.value)
                .map(|g| format!("; DeepSpeed received {g}"))
                .unwrap_or_default();
            s.push_str(&format!(
                "\n    filled {} = {} (from {}){got}",
                f.path, f.value, f.from
            ));
        }
        if let Some(h) = &j.handed_config {
            let same = j
                .filled
                .iter()
                .filter(|f| f.received(h) == Some(&f.value))
                .count();
            s.push_str(&format!(
                "\n    DeepSpeed received the dict with {same} of the {} filled values as above (--format json: handed_config)",
                j.filled.len()
            ));
        } else if !j.state.is_terminal() {
            s.push_str("\n    what DeepSpeed receives is stored when the job ends");
        }
    }
    if let Some(t) = &j.started_at {
        s.push_str(&format!("\n  started {t}"));
    }
    if let Some(t) = &j.finished_at {
        s.push_str(&format!("\n  finished {t}"));
    }
    if let Some(c) = j.exit_code {
        s.push_str(&format!("\n  exit code {c}"));
    }
    if let Some(p) = &j.preflight {
        s.push_str(&format!(
            "\n  preflight {}{}",
            if p.ok { "passed" } else { "failed" },
            p.report
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        ));
    }
    if let Some(m) = &j.message {
        s.push_str(&format!("\n  {m}"));
    }
    if let Some(r) = j.reason {
        let e = r.explain();
        s.push_str(&format!(
            "\n  reason: {} ({})\n    {}\n    {}: {}",
            e.title.get(lang),
            r.code(),
            e.why.get(lang),
            if lang == Lang::Zh {
                "可以尝试"
            } else {
                "try"
            },
            e.next.get(lang)
        ));
    }
    s
}

/// `jobs show --format json`: the job as the API answers it, the lines the text adds (the
/// model, the measured figures, the estimate) under `report`, and its reason explained.
fn show_json(j: &Job, report: Vec<String>, lang: Lang) -> serde_json::Value {
    let mut v = serde_json::to_value(j).unwrap_or_default();
    if !report.is_empty() {
        v["report"] = report.into();
    }
    if let Some(e) = explanation_json(j, lang) {
        v["explanation"] = e;
    }
    v
}

/// A job's reason explained, for `--format json` (`{code, title, why, next}` in `lang`).
fn explanation_json(j: &Job, lang: Lang) -> Option<serde_json::Value> {
    let r = j.reason?;
    let e = r.explain();
    Some(serde_json::json!({
        "code": r.code(),
        "title": e.title.get(lang),
        "why": e.why.get(lang),
        "next": e.next.get(lang),
    }))
}

/// A refused submission said on stderr as the user can act on it (a `config_rejected`'s
/// diagnostics and the hint that fits, a `does_not_fit`'s suggestions), and the error the
/// command ends with (the diagnostics in it for `--format json`).
fn explain_refusal(e: ClientError, lang: Lang, fit: bool, json_out: bool) -> ClientError {
    match e {
        ClientError::Api {
            status,
            code,
            message,
            details: Some(d),
        } if code == "config_rejected" => {
            eprintln!("{message}");
            let batch = d["diagnostics"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|diag| {
                    diag["path"].as_str().is_some_and(|p| {
                        [
                            "/train_batch_size",
                            "/train_micro_batch_size_per_gpu",
                            "/gradient_accumulation_steps",
                        ]
                        .contains(&p)
                    })
                });
            for diag in d["diagnostics"].as_array().into_iter().flatten() {
                eprintln!(
                    "  {} {}: {}",
                    diag["code"].as_str().unwrap_or(""),
                    diag["path"].as_str().unwrap_or(""),
                    diag["message"][if lang == Lang::Zh { "zh" } else { "en" }]
                        .as_str()
                        .unwrap_or("")
                );
            }
            // Under an HF launcher the batch is the trainer arguments': --fit
            // cannot change it.
            let hf = d["diagnostics"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|diag| {
                    diag["code"]
                        .as_str()
                        .is_some_and(|c| c.starts_with("launcher-"))
                });
            if hf {
                eprintln!("hint: under the HF Trainer or Accelerate the batch sizes come from the trainer arguments: change them (templates push FILE --id ID --trainer-args ...), or set the config's values to \"auto\"");
            } else if batch && !fit {
                eprintln!("hint: --fit fits the batch sizes to the runner's GPUs, keeping the global batch where it can (the version stays as saved)");
            }
            // A script gets the server's diagnostics in the JSON error.
            ClientError::Api {
                status,
                code,
                message: "the job was not submitted".into(),
                details: json_out.then_some(d),
            }
        }
        ClientError::Api {
            status,
            code,
            message,
            details: Some(d),
        } if code == "does_not_fit" => {
            eprintln!("{message}");
            print_does_not_fit(&d, lang);
            ClientError::Api {
                status,
                code,
                message: "the job was not submitted".into(),
                details: json_out.then_some(d),
            }
        }
        e => e,
    }
}

pub fn jobs(args: JobsArgs) -> i32 {
    let json_out = args.format == "json";
    let lang = args.server.lang();
    let mut code = 0;
    let code_ref = &mut code;
    let rc = ds_studio_client::run_as(json_out.then_some(lang), async move {
        let client = args.server.client()?;
        match args.command {
            JobsCommand::Submit {
                template,
                version,
                size,
                model,
                model_config,
                seq_len,
                lora_rank,
                lora_targets,
                entrypoint,
                args: script_args,
                gpus,
                nodes,
                runner,
                max_steps,
                env,
                secret_env,
                time_limit,
                stall_timeout,
                fit,
                force,
                watch,
                name,
                tags,
            } => {
                let flags = crate::model_args::ModelFlags {
                    model: model.as_deref(),
                    model_config: model_config.as_deref(),
                    seq_len,
                    attention: "sdpa",
                    lora_rank,
                    lora_targets: lora_targets.as_deref(),
                };
                let rehearsed = flags.user_model().map_err(ClientError::Local)?;
                // Read here first, so that a mistake is said with the flag that made it.
                if let Some(m) = &rehearsed {
                    m.resolve().map_err(|e| {
                        ClientError::Local(crate::model_args::said(&e, &flags, lang))
                    })?;
                }
                let workload = match (entrypoint, rehearsed) {
                    (Some(e), _) => Workload {
                        entrypoint: Some(e),
                        args: script_args,
                        ..Workload::default()
                    },
                    (None, Some(m)) => Workload::rehearsal(m),
                    (None, None) => Workload::builtin_gpt(size.as_deref().unwrap_or("tiny")),
                };
                let mut envs = BTreeMap::new();
                for kv in env {
                    let (k, v) = kv.split_once('=').ok_or_else(|| {
                        ClientError::Local(format!("--env {kv}: write it as NAME=VALUE"))
                    })?;
                    envs.insert(k.to_string(), v.to_string());
                }
                let mut secrets = BTreeMap::new();
                for name in secret_env {
                    let value = std::env::var(&name).map_err(|_| {
                        ClientError::Local(format!(
                            "--secret-env {name}: set the environment variable {name} to its value"
                        ))
                    })?;
                    secrets.insert(name, value);
                }
                let req = JobCreate {
                    template_id: template,
                    version,
                    workload,
                    gpus: Some(gpus),
                    nodes: Some(nodes),
                    runner,
                    max_steps,
                    env: (!envs.is_empty()).then_some(envs),
                    secret_env: (!secrets.is_empty()).then_some(secrets),
                    time_limit_s: time_limit,
                    stall_timeout_s: stall_timeout,
                    fit_to_runner: fit.then_some(true),
                    force: force.then_some(true),
                    name,
                    note: None,
                    tags: (!tags.is_empty()).then_some(tags),
                };
                let job: Job = client
                    .call(ep::SubmitJob::url([]), &req)
                    .await
                    .map_err(|e| explain_refusal(e, lang, fit, json_out))?;
                if json_out && !watch {
                    print_json(&job, lang);
                } else if !json_out {
                    eprintln!("submitted job {} ({})", job.id, job.state.as_str());
                }
                if watch {
                    *code_ref = follow(&client, job.id, json_out, lang).await?;
                } else if !json_out {
                    println!("{}", job.id);
                }
            }
            JobsCommand::List {
                template,
                state,
                filters,
                sort,
                limit,
            } => {
                let mut pairs: Vec<(String, String)> = vec![("limit".into(), limit.to_string())];
                if let Some(t) = template {
                    pairs.push(("template_id".into(), t.to_string()));
                }
                if let Some(s) = state {
                    pairs.push(("state".into(), s));
                }
                if let Some(s) = sort {
                    pairs.push(("sort".into(), s));
                }
                for f in filters {
                    let (k, v) = f.split_once('=').ok_or_else(|| {
                        ClientError::Local(format!("--where {f}: write it as NAME=VALUE"))
                    })?;
                    pairs.push((k.trim().to_string(), v.trim().to_string()));
                }
                // Checked here as the server would, so a typo is named before any request.
                let query = ds_studio_shared::api::RunsQuery::parse(
                    pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
                )
                .map_err(ClientError::Local)?;
                let qs = query.to_query_string();
                let page: Page<Job> = client
                    .fetch(ep::ListJobs::url([]).encoded_query(&qs))
                    .await?;
                if json_out {
                    print_json(&page, lang);
                } else if page.items.is_empty() {
                    eprintln!("no jobs match");
                } else {
                    print!("{}", table(&page.items));
                }
            }
            JobsCommand::Show { id } => {
                let j: Job = client.fetch(ep::GetJob::url([&id])).await?;
                let report = crate::rehearsal_report::lines(&client, &j).await?;
                if json_out {
                    print_json(&show_json(&j, report, lang), lang);
                } else {
                    println!("{}", describe(&j, lang));
                    for line in report {
                        println!("  {line}");
                    }
                }
            }
            JobsCommand::Watch { id } => *code_ref = follow(&client, id, json_out, lang).await?,
            JobsCommand::Again { id, watch } => {
                let old: Job = client.fetch(ep::GetJob::url([&id])).await?;
                let (mut req, secrets) = ds_studio_shared::api::run_again(&old);
                let mut values = BTreeMap::new();
                for name in secrets {
                    let value = std::env::var(&name).map_err(|_| {
                        ClientError::Local(format!(
                            "job {id} had the secret variable {name}, whose value the server no longer keeps: set the environment variable {name} to run it again"
                        ))
                    })?;
                    values.insert(name, value);
                }
                req.secret_env = (!values.is_empty()).then_some(values);
                let job: Job = client.call(ep::SubmitJob::url([]), &req).await?;
                if json_out && !watch {
                    print_json(&job, lang);
                } else if !json_out {
                    println!("{}", job.id);
                }
                if watch {
                    *code_ref = follow(&client, job.id, json_out, lang).await?;
                }
            }
            JobsCommand::Label {
                id,
                name,
                note,
                tags,
            } => {
                let labels = ds_studio_shared::api::RunLabels {
                    name,
                    note,
                    tags: tags.map(|t| t.into_iter().filter(|x| !x.is_empty()).collect()),
                };
                let j: Job = client.call(ep::LabelJob::url([&id]), &labels).await?;
                if json_out {
                    print_json(&j, lang);
                } else {
                    print!("{}", table(std::slice::from_ref(&j)));
                }
            }
            JobsCommand::Cancel { id } => {
                let j: Job = client.fetch(ep::CancelJob::url([&id])).await?;
                if json_out {
                    print_json(&j, lang);
                } else if j.state == JobState::Cancelled {
                    println!("job {id} cancelled");
                } else {
                    println!("job {id}: cancel requested; the runner is stopping it");
                }
            }
            JobsCommand::Logs { id } => {
                let mut after = 0;
                loop {
                    let lines: Vec<LogLine> = client
                        .fetch(
                            ep::JobLogs::url([&id])
                                .query("after", after)
                                .query("limit", 5000),
                        )
                        .await?;
                    for l in &lines {
                        if json_out {
                            println!("{}", serde_json::to_string(l).unwrap_or_default());
                        } else {
                            println!("{}", l.text);
                        }
                        after = l.seq;
                    }
                    if lines.len() < 5000 {
                        break;
                    }
                }
            }
        }
        Ok(())
    });
    if rc != 0 {
        rc
    } else {
        code
    }
}

/// The live progress line: state, step, the latest value of the main series.
#[derive(Default)]
struct Progress {
    state: String,
    values: BTreeMap<String, (i64, f64)>,
    max_steps: u32,
    /// For the closing line: every point of the series `run_summary` reads.
    summary_series: BTreeMap<String, Vec<(i64, f64)>>,
}

impl Progress {
    fn render(&self) -> String {
        let short = |n: &str| match n {
            "Train/Samples/train_loss" => Some("loss"),
            "Train/Samples/lr" => Some("lr"),
            "samples_per_sec" => Some("samples/s"),
            "max_mem_allocated_gb" => Some("mem GB"),
            "process/rss_mb" => Some("rss MB"),
            _ => None,
        };
        let mut parts = vec![self.state.clone()];
        if let Some((s, _)) = self.values.get("samples_per_sec") {
            parts.push(format!("step {s}/{}", self.max_steps));
        }
        // Latest values only: the x axis differs per series (samples, steps, seconds).
        for (name, (_, v)) in &self.values {
            if let Some(label) = short(name) {
                parts.push(format!("{label} {}", fmt_value(*v)));
            }
        }
        parts.join("  ")
    }

    /// Takes one metric point in.
    fn add(&mut self, name: String, step: i64, value: f64) {
        if ds_studio_shared::api::SUMMARY_SERIES.contains(&name.as_str()) {
            self.summary_series
                .entry(name.clone())
                .or_default()
                .push((step, value));
        }
        self.values.insert(name, (step, value));
    }

    /// The one line `jobs watch` ends with: how it went, in figures.
    fn closing_line(&self, job: &Job) -> String {
        let mut parts = vec![format!("job {} {}", job.id, job.state.as_str())];
        if let (Some(a), Some(b)) = (
            job.started_at.as_deref().and_then(seconds),
            job.finished_at.as_deref().and_then(seconds),
        ) {
            let took = ds_studio_shared::api::human_duration((b - a).round() as i64);
            parts[0].push_str(&format!(" in {took}"));
        }
        let figures = ds_studio_shared::api::run_summary(&self.summary_series);
        if job.reason == Some(ds_studio_shared::api::FailureReason::NonFiniteLoss) {
            // The last finite loss streamed is not how it ended.
            parts.push("final loss NaN".into());
        } else if let Some(l) = figures.final_loss {
            let best = figures
                .best_loss
                .filter(|b| *b < l)
                .map(|b| format!(" (best {})", fmt_value(b)))
                .unwrap_or_default();
            parts.push(format!("final loss {}{best}", fmt_value(l)));
        }
        if let Some(m) = figures.median_samples_per_sec {
            parts.push(format!("{m:.1} samples/s (median)"));
        }
        if let Some(p) = figures.peak_memory_mb {
            parts.push(format!("peak memory {p:.1} MB"));
        }
        if let Some(f) = &job.fit {
            parts.push(f.summary.en.clone());
        }
        parts.join(" · ")
    }
}

/// Seconds since the epoch of an RFC 3339 UTC time as the server writes it.
fn seconds(t: &str) -> Option<f64> {
    let t = time::OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339).ok()?;
    Some(t.unix_timestamp_nanos() as f64 / 1e9)
}

fn fmt_value(v: f64) -> String {
    if v != 0.0 && (v.abs() < 1e-3 || v.abs() >= 1e5) {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
}

/// Follows the SSE stream to the end; reconnects after the last event seen when the
/// connection drops. Returns the exit code: 0 succeeded, 1 any other end.
async fn follow(client: &Client, id: i64, json_out: bool, lang: Lang) -> Result<i32, ClientError> {
    let mut last_id: Option<String> = None;
    let mut progress = Progress::default();
    let mut backoff = Duration::from_millis(250);
    let mut stderr = std::io::stderr();
    // On a terminal one line is redrawn (at most 10 times a second); in a log file a line is
    // written when the state changes and every 10 s.
    let tty = std::io::IsTerminal::is_terminal(&stderr);
    let mut drawn = std::time::Instant::now() - Duration::from_secs(60);
    let mut last_state = String::new();
    loop {
        let resp = match client
            .open_stream(ep::JobEvents::url([&id]), last_id.as_deref())
            .await
        {
            Ok(r) => r,
            Err(e @ ClientError::Api { .. }) => return Err(e),
            Err(e) => {
                if !json_out {
                    let _ = writeln!(stderr, "{e}; retrying");
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
                continue;
            }
        };
        backoff = Duration::from_millis(250);
        let mut resp = resp;
        let mut dec = SseDecoder::default();
        loop {
            let chunk = match resp.chunk().await {
                Ok(Some(c)) => c,
                Ok(None) | Err(_) => break,
            };
            for ev in dec.feed(&chunk) {
                if ev.id.is_some() {
                    last_id = ev.id.clone();
                }
                if json_out {
                    let data: serde_json::Value =
                        serde_json::from_str(&ev.data).unwrap_or(serde_json::Value::Null);
                    println!(
                        "{}",
                        serde_json::json!({"event": ev.event, "id": ev.id, "data": localized(data, client.lang())})
                    );
                }
                match ev.event.as_str() {
                    "state" => {
                        let Ok(job) = serde_json::from_str::<Job>(&ev.data) else {
                            continue;
                        };
                        progress.state = job.state.as_str().into();
                        progress.max_steps = job.max_steps;
                        if job.state.is_terminal() {
                            if !json_out {
                                if tty {
                                    let _ = write!(stderr, "\r\x1b[2K");
                                }
                                let _ = writeln!(stderr, "job {id}  {}", progress.render());
                                println!("{}", describe(&job, lang));
                                println!("{}", progress.closing_line(&job));
                            }
                            return Ok(if job.state == JobState::Succeeded {
                                0
                            } else {
                                1
                            });
                        }
                    }
                    "metric" => {
                        if let Ok(m) = serde_json::from_str::<MetricPoint>(&ev.data) {
                            progress.add(m.name, m.step, m.value);
                        }
                    }
                    _ => {}
                }
                if !json_out && ev.event != "log" {
                    let changed = progress.state != last_state;
                    let every = if tty { 100 } else { 10_000 };
                    if changed || drawn.elapsed() >= Duration::from_millis(every) {
                        if tty {
                            let _ = write!(stderr, "\r\x1b[2Kjob {id}  {}", progress.render());
                        } else {
                            let _ = writeln!(stderr, "job {id}  {}", progress.render());
                        }
                        drawn = std::time::Instant::now();
                        last_state = progress.state.clone();
                    }
                }
            }
        }
        // The stream ended without a final state: the server went away. Resume.
        tokio::time::sleep(backoff).await;
    }
}

/// The estimate's parts and what would fit, from a `does_not_fit` refusal's details.
fn print_does_not_fit(d: &serde_json::Value, lang: Lang) {
    use ds_studio_shared::memory::{human_bytes, DoesNotFit};
    let Ok(d) = serde_json::from_value::<DoesNotFit>(d.clone()) else {
        return;
    };
    let zh = lang == Lang::Zh;
    if zh {
        eprintln!(
            "  峰值出现在{}：每{} {}",
            d.estimate.phase.label().zh,
            if d.capacity.host {
                "个进程"
            } else {
                "张 GPU"
            },
            human_bytes(d.need_bytes)
        );
    } else {
        eprintln!(
            "  peak at {}: {} per {}",
            d.estimate.phase.label().en,
            human_bytes(d.need_bytes),
            if d.capacity.host { "rank" } else { "GPU" }
        );
    }
    // On a CPU runner the rank's share of the host side counts too.
    let host_side = d.capacity.host.then_some(&d.estimate.cpu_parts);
    for p in d
        .estimate
        .gpu_parts
        .iter()
        .chain(host_side.into_iter().flatten())
    {
        eprintln!(
            "  {:>10}  {}",
            human_bytes(p.bytes),
            p.part.label().get(lang)
        );
    }
    if d.suggestions.is_empty() {
        eprintln!(
            "{}",
            if zh {
                "hint: 更小的微批、更高的 ZeRO 阶段或卸载都放不下：请使用更多 GPU，或加 --force 仍然运行"
            } else {
                "hint: no smaller micro batch, stage or offload fits: use more GPUs, or --force to run it anyway"
            }
        );
    }
    for s in &d.suggestions {
        eprintln!(
            "{}{}",
            if zh {
                "hint: 可改为"
            } else {
                "hint: would fit: "
            },
            s.summary.get(lang)
        );
    }
    if !d.suggestions.is_empty() {
        eprintln!(
            "{}",
            if zh {
                "hint: 将其保存为新版本（templates push FILE --id ID），或加 --force 仍然运行；ds-studio estimate --config FILE --size SIZE --gpu-memory-gib G --format json 含每个建议的完整配置"
            } else {
                "hint: save one as a new version (templates push FILE --id ID), or --force to run this one anyway; ds-studio estimate --config FILE --size SIZE --gpu-memory-gib G --format json has the whole config of each"
            }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_has_a_launcher_column() {
        let job: Job = serde_json::from_value(serde_json::json!({
            "id": 7, "template_id": 1, "template_name": "t", "team_id": 1, "version": 2,
            "state": "succeeded", "workload": {"builtin": "gpt", "size": "tiny"}, "gpus": 1,
            "nodes": 2, "max_steps": 20, "created_by": "a", "created_at": "x", "last_seq": 0,
            "facts": {"launcher": "hf-trainer", "zero_stage": 2, "precision": "bf16"}
        }))
        .unwrap();
        let text = table(&[job]);
        let lines: Vec<Vec<&str>> = text
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            lines[0][..10],
            [
                "ID",
                "STATE",
                "VERSION",
                "WORKLOAD",
                "LAUNCHER",
                "NODESxGPUS",
                "RUNNER",
                "ZERO",
                "PRECISION",
                "LOSS"
            ]
        );
        assert_eq!(
            lines[1][..6],
            ["7", "succeeded", "t@2", "gpt/tiny", "hf-trainer", "2x1"]
        );
    }

    #[test]
    fn the_closing_line_says_how_it_went() {
        let job: Job = serde_json::from_value(serde_json::json!({
            "id": 7, "template_id": 1, "template_name": "t", "team_id": 1, "version": 1,
            "state": "succeeded", "workload": {"builtin": "gpt", "size": "tiny"}, "gpus": 1,
            "nodes": 1, "max_steps": 20, "created_by": "a", "created_at": "x", "last_seq": 0,
            "started_at": "2026-11-24T10:00:00Z", "finished_at": "2026-11-24T10:04:03.5Z"
        }))
        .unwrap();
        let mut p = Progress::default();
        for (step, loss) in [(8, 6.2), (16, 5.1), (24, 5.4)] {
            p.add("Train/Samples/train_loss".into(), step, loss);
        }
        for v in [900.0, 1000.0, 950.0] {
            p.add("samples_per_sec".into(), 5, v);
        }
        p.add("result/peak_memory_mb".into(), 20, 667.4);
        assert_eq!(
            p.closing_line(&job),
            "job 7 succeeded in 4 min 4 s · final loss 5.4000 (best 5.1000) · 950.0 samples/s (median) · peak memory 667.4 MB"
        );
        assert_eq!(
            Progress::default().closing_line(&job),
            "job 7 succeeded in 4 min 4 s"
        );
    }
}
