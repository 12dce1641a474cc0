//! Runners, the job queue and job events.
//!
//! - Claiming is atomic: one `UPDATE ... WHERE id = (SELECT ...) AND state = 'queued'
//!   RETURNING id`; on PostgreSQL the inner select takes the row `FOR UPDATE SKIP LOCKED`, on
//!   SQLite the single writer makes the compare-and-set enough. A job goes to one runner only.
//! - Events (metric points, log lines) are numbered per job by the runner; a resent batch is
//!   dropped row by row (`ON CONFLICT (job_id, seq) DO NOTHING`), and only the rows stored now
//!   come back to be broadcast.
//! - The reaper marks `lost` the running jobs of runners silent for longer than a cutoff; a
//!   heartbeat marks `lost` the jobs its runner no longer reports (`reconcile`).
//! - The runs table sorts and filters on columns of `jobs`, never on `job_events` (a job's facts
//!   written when it is submitted, its figures when it ends; `backfill_runs` for older rows).
//!   Only listed sort keys and fixed words reach the SQL text; every value is bound.

use super::{now_ms, opt_time, page, rfc3339, Dialect, Result, Store, StoreError};
use ds_studio_shared::api::{
    tags_column, tags_of_column, FailureReason, FilledValue, Heartbeat, Job, JobState,
    JobStateUpdate, LogLine, MetricPoint, Page, Preflight, RunFacts, RunLabels, RunSummary, Runner,
    RunnerEvent, RunnerRegister, RunsQuery, Workload,
};
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};
use std::collections::BTreeMap;

/// A runner counts as online when its last heartbeat is younger than this.
pub const ONLINE_MS: i64 = 30_000;
/// A job claimed this recently is not marked lost for missing from its runner's heartbeat (the
/// heartbeat may have left before the claim's answer arrived).
pub const CLAIM_GRACE_MS: i64 = 10_000;

/// What a heartbeat changed.
#[derive(Debug, Default)]
pub struct HeartbeatOutcome {
    /// Jobs the runner reported that it must stop.
    pub cancel: Vec<i64>,
    /// Jobs the runner did not report that were running on it: now `lost`.
    pub lost: Vec<i64>,
}

/// What a new job needs (checked by the API layer).
#[derive(Debug, Clone)]
pub struct NewJob {
    pub template_id: i64,
    pub version: i64,
    pub created_by: i64,
    pub workload: Workload,
    pub gpus: u32,
    pub nodes: u32,
    pub max_steps: u32,
    pub env: BTreeMap<String, String>,
    /// Secret variables: handed to the runner, never shown, cleared when the job ends.
    pub secret_env: BTreeMap<String, String>,
    pub time_limit_s: Option<u64>,
    pub stall_timeout_s: Option<u64>,
    pub runner_requested: Option<String>,
    /// The fitted config the job runs instead of the version's.
    pub fit: Option<ds_studio_shared::fit::Fitted>,
    /// The trainer arguments it runs with under an HF launcher (the launcher is in `facts`).
    pub trainer: Option<ds_studio_shared::launcher::TrainerArgs>,
    /// What that launcher fills in the config (predicted).
    pub filled: Vec<FilledValue>,
    /// What it runs, for the runs table (`RunFacts::of` the config as run).
    pub facts: RunFacts,
    /// Name, note and tags given at submission (checked).
    pub labels: RunLabels,
}

/// Filters of the job list: who may see it, and the runs table's query.
#[derive(Debug, Clone, Default)]
pub struct JobFilter {
    /// Only jobs of templates in teams this user belongs to (`None`: all).
    pub visible_to: Option<i64>,
    pub query: RunsQuery,
}

/// A stored event, as streamed.
#[derive(Debug, Clone, PartialEq)]
pub enum JobEvent {
    Metric(MetricPoint),
    Log(LogLine),
}

impl JobEvent {
    pub fn seq(&self) -> i64 {
        match self {
            JobEvent::Metric(m) => m.seq,
            JobEvent::Log(l) => l.seq,
        }
    }
}

impl From<&RunnerEvent> for JobEvent {
    fn from(e: &RunnerEvent) -> JobEvent {
        match e {
            RunnerEvent::Metric {
                seq,
                ts,
                name,
                step,
                value,
            } => JobEvent::Metric(MetricPoint {
                seq: *seq,
                name: name.clone(),
                step: *step,
                value: *value,
                ts: rfc3339(*ts),
            }),
            RunnerEvent::Log {
                seq,
                ts,
                stream,
                text,
            } => JobEvent::Log(LogLine {
                seq: *seq,
                stream: stream.clone(),
                text: text.clone(),
                ts: rfc3339(*ts),
            }),
        }
    }
}

/// The spec column: what is not a column of its own.
#[derive(serde::Serialize, serde::Deserialize, Default)]
struct Spec {
    workload: Workload,
    #[serde(default)]
    env: BTreeMap<String, String>,
    /// Given to the runner with the job, never in an answer; cleared when the job ends.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    secret_env: BTreeMap<String, String>,
    /// The config as fitted to the job's GPUs, when it was (`JobCreate::fit_to_runner`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fit: Option<ds_studio_shared::fit::Fitted>,
    /// The trainer arguments under an HF launcher.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trainer: Option<ds_studio_shared::launcher::TrainerArgs>,
    /// What the launcher fills, predicted at submission.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    filled: Vec<FilledValue>,
    /// The runner stops the job after this long without a new metric.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stall_timeout_s: Option<u64>,
}

/// The tables a job row is read from (a macro so [`JOB_SELECT`] can `concat!` it).
macro_rules! job_from {
    () => {
        "FROM jobs j JOIN templates t ON t.id = j.template_id \
         JOIN users u ON u.id = j.created_by LEFT JOIN runners r ON r.id = j.runner_id"
    };
}
const JOB_FROM: &str = job_from!();

pub(super) const JOB_SELECT: &str = concat!(
    "SELECT j.id, j.template_id, t.name AS template_name, t.team_id, \
    j.version, j.state, j.spec, j.gpus, j.nodes, j.max_steps, j.time_limit_s, \
    j.runner_requested, r.name AS runner_name, u.name AS created_by_name, j.created_at, \
    j.started_at, j.finished_at, j.exit_code, j.message, j.preflight, j.cancel_requested, \
    j.last_seq, j.name, j.note, j.tags, j.deepspeed, j.zero_stage, j.run_precision, j.offload, \
    j.micro_batch, j.final_loss, j.best_loss, j.samples_per_sec, j.peak_memory_mb, j.summarized, \
    j.launcher, j.handed_config ",
    job_from!()
);

pub(super) fn job_of(row: &AnyRow) -> Result<Job> {
    let spec: Spec = serde_json::from_str(&row.try_get::<String, _>("spec")?).unwrap_or_default();
    let state: String = row.try_get("state")?;
    let state = JobState::parse(&state).unwrap_or(JobState::Lost);
    let exit_code: Option<i64> = row.try_get("exit_code")?;
    let message: Option<String> = row.try_get("message")?;
    Ok(Job {
        id: row.try_get("id")?,
        template_id: row.try_get("template_id")?,
        template_name: row.try_get("template_name")?,
        team_id: row.try_get("team_id")?,
        version: row.try_get("version")?,
        state,
        workload: spec.workload,
        gpus: row.try_get::<i64, _>("gpus")? as u32,
        nodes: row.try_get::<i64, _>("nodes")? as u32,
        max_steps: row.try_get::<i64, _>("max_steps")? as u32,
        env: spec.env,
        secret_env_names: spec.secret_env.into_keys().collect(),
        time_limit_s: row
            .try_get::<Option<i64>, _>("time_limit_s")?
            .map(|s| s as u64),
        stall_timeout_s: spec.stall_timeout_s,
        runner_requested: row.try_get("runner_requested")?,
        runner: row.try_get("runner_name")?,
        created_by: row.try_get("created_by_name")?,
        created_at: rfc3339(row.try_get("created_at")?),
        started_at: opt_time(row, "started_at"),
        finished_at: opt_time(row, "finished_at"),
        reason: FailureReason::of(state, exit_code, message.as_deref()),
        exit_code,
        message,
        fit: spec.fit,
        preflight: row
            .try_get::<Option<String>, _>("preflight")?
            .and_then(|p| serde_json::from_str::<Preflight>(&p).ok()),
        cancel_requested: row.try_get::<i64, _>("cancel_requested")? != 0,
        last_seq: row.try_get("last_seq")?,
        name: row.try_get("name")?,
        note: row.try_get("note")?,
        tags: tags_of_column(&row.try_get::<String, _>("tags")?),
        facts: RunFacts {
            launcher: row.try_get("launcher")?,
            deepspeed: row.try_get("deepspeed")?,
            zero_stage: row
                .try_get::<Option<i64>, _>("zero_stage")?
                .and_then(|s| u8::try_from(s).ok()),
            precision: row.try_get("run_precision")?,
            offload: row.try_get("offload")?,
            micro_batch: row.try_get("micro_batch")?,
        },
        summary: (row.try_get::<i64, _>("summarized")? != 0).then(|| RunSummary {
            final_loss: row.try_get("final_loss").ok().flatten(),
            best_loss: row.try_get("best_loss").ok().flatten(),
            median_samples_per_sec: row.try_get("samples_per_sec").ok().flatten(),
            peak_memory_mb: row.try_get("peak_memory_mb").ok().flatten(),
        }),
        trainer: spec.trainer,
        filled: spec.filled,
        handed_config: row
            .try_get::<Option<String>, _>("handed_config")?
            .and_then(|c| serde_json::from_str(&c).ok()),
    })
}

fn event_of(row: &AnyRow) -> Result<JobEvent> {
    let kind: String = row.try_get("kind")?;
    let seq = row.try_get("seq")?;
    let ts = rfc3339(row.try_get("ts")?);
    Ok(if kind == "metric" {
        JobEvent::Metric(MetricPoint {
            seq,
            name: row.try_get("name")?,
            step: row.try_get("step")?,
            value: row.try_get("value")?,
            ts,
        })
    } else {
        JobEvent::Log(LogLine {
            seq,
            stream: row.try_get("name")?,
            text: row.try_get("text")?,
            ts,
        })
    })
}

fn runner_of(row: &AnyRow, running: Vec<i64>, now: i64) -> Result<Runner> {
    let last_seen: i64 = row.try_get("last_seen")?;
    Ok(Runner {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        hostname: row.try_get("hostname")?,
        backend: row.try_get("backend")?,
        gpus: serde_json::from_str(&row.try_get::<String, _>("gpus")?).unwrap_or_default(),
        python: row.try_get("python")?,
        version: row.try_get("version")?,
        online: now - last_seen < ONLINE_MS,
        last_seen: rfc3339(last_seen),
        running,
        team_id: row.try_get("team_id")?,
        deepspeed: row.try_get("deepspeed")?,
        devices: row
            .try_get::<Option<String>, _>("devices")?
            .and_then(|d| serde_json::from_str(&d).ok()),
    })
}

impl Store {
    pub async fn create_job(&self, new: &NewJob) -> Result<Job> {
        let id = insert_job(&self.pool, new).await?;
        self.job(id).await
    }

    pub async fn job(&self, id: i64) -> Result<Job> {
        let row = sqlx::query(AssertSqlSafe(format!("{JOB_SELECT} WHERE j.id = $1")))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("job"))?;
        job_of(&row)
    }

    /// Jobs matching `filter`, in its sort order (default newest first), one page.
    pub async fn jobs(&self, filter: &JobFilter, offset: i64, limit: i64) -> Result<Page<Job>> {
        enum Arg {
            Int(i64),
            Text(String),
        }
        let q = &filter.query;
        let mut conds: Vec<String> = Vec::new();
        let mut args: Vec<Arg> = Vec::new();
        // Pushes an argument and answers its placeholder.
        let mut arg = |a: Arg| {
            args.push(a);
            format!("${}", args.len())
        };
        if let Some(u) = filter.visible_to {
            let p = arg(Arg::Int(u));
            conds.push(format!(
                "t.team_id IN (SELECT team_id FROM memberships WHERE user_id = {p})"
            ));
        }
        if !q.states.is_empty() {
            let ps: Vec<String> = q
                .states
                .iter()
                .map(|s| arg(Arg::Text(s.as_str().into())))
                .collect();
            conds.push(format!("j.state IN ({})", ps.join(", ")));
        }
        if let Some(t) = q.template_id {
            conds.push(format!("j.template_id = {}", arg(Arg::Int(t))));
        }
        if let Some(r) = &q.runner {
            conds.push(format!("r.name = {}", arg(Arg::Text(r.clone()))));
        }
        if let Some(d) = &q.deepspeed {
            conds.push(format!("j.deepspeed = {}", arg(Arg::Text(d.clone()))));
        }
        if let Some(l) = &q.launcher {
            conds.push(format!("j.launcher = {}", arg(Arg::Text(l.clone()))));
        }
        if let Some(w) = q.world {
            conds.push(format!("j.gpus * j.nodes = {}", arg(Arg::Int(w))));
        }
        if let Some(z) = q.zero_stage {
            conds.push(format!("j.zero_stage = {}", arg(Arg::Int(z.into()))));
        }
        if let Some(p) = &q.precision {
            conds.push(format!("j.run_precision = {}", arg(Arg::Text(p.clone()))));
        }
        // Only the fixed words RunsQuery allows reach here.
        match q.offload.as_deref() {
            Some("none") => conds.push("j.offload = 'none'".into()),
            Some("any") => conds.push("j.offload NOT IN ('none', '')".into()),
            Some("cpu") => conds.push("j.offload LIKE '%:cpu%'".into()),
            Some("nvme") => conds.push("j.offload LIKE '%:nvme%'".into()),
            _ => {}
        }
        if let Some(m) = q.micro_batch {
            conds.push(format!("j.micro_batch = {}", arg(Arg::Int(m))));
        }
        if let Some(tag) = &q.tag {
            let p = arg(Arg::Text(format!(",{tag},")));
            conds.push(match self.dialect {
                Dialect::Sqlite => format!("instr(j.tags, {p}) > 0"),
                Dialect::Postgres => format!("strpos(j.tags, {p}) > 0"),
            });
        }
        if let Some(text) = &q.q {
            let escaped: String = text
                .to_lowercase()
                .chars()
                .flat_map(|c| match c {
                    '%' | '_' | '\\' => vec!['\\', c],
                    c => vec![c],
                })
                .collect();
            let p = arg(Arg::Text(format!("%{escaped}%")));
            conds.push(format!(
                "(LOWER(j.name) LIKE {p} ESCAPE '\\' OR LOWER(j.note) LIKE {p} ESCAPE '\\' \
                 OR LOWER(t.name) LIKE {p} ESCAPE '\\')"
            ));
        }
        let wher = if conds.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", conds.join(" AND "))
        };
        let (key, desc) = q.sort_order();
        let now = now_ms();
        // Only SORT_KEYS reach here (RunsQuery::parse); empty texts sort like missing values.
        let expr = match key {
            "name" => "LOWER(NULLIF(j.name, ''))".to_string(),
            "state" => "j.state".into(),
            "template" => "LOWER(t.name)".into(),
            "runner" => "r.name".into(),
            "launcher" => "j.launcher".into(),
            "deepspeed" => "NULLIF(j.deepspeed, '')".into(),
            "world" => "j.gpus * j.nodes".into(),
            "zero_stage" => "j.zero_stage".into(),
            "precision" => "NULLIF(j.run_precision, '')".into(),
            "offload" => "NULLIF(j.offload, '')".into(),
            "micro_batch" => "j.micro_batch".into(),
            "duration" => format!("(COALESCE(j.finished_at, {now}) - j.started_at)"),
            "final_loss" => "j.final_loss".into(),
            "samples_per_sec" => "j.samples_per_sec".into(),
            "peak_memory_mb" => "j.peak_memory_mb".into(),
            _ => "j.id".into(),
        };
        let dir = if desc { "DESC" } else { "ASC" };
        // Missing values last in both directions; ties newest first.
        let order = format!(" ORDER BY ({expr}) IS NULL, {expr} {dir}, j.id DESC");
        let bind = |sql: String| {
            let mut qr = sqlx::query(AssertSqlSafe(sql));
            for a in &args {
                qr = match a {
                    Arg::Int(i) => qr.bind(*i),
                    Arg::Text(t) => qr.bind(t.clone()),
                };
            }
            qr
        };
        let total: i64 = bind(format!("SELECT COUNT(*) AS n {JOB_FROM}{wher}"))
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?;
        let n = args.len();
        let rows = bind(format!(
            "{JOB_SELECT}{wher}{order} LIMIT ${} OFFSET ${}",
            n + 1,
            n + 2
        ))
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        let items = rows.iter().map(job_of).collect::<Result<_>>()?;
        Ok(page(items, total, offset, limit))
    }

    /// Sets what people write on a run (each field given replaces the stored one).
    pub async fn label_job(&self, job_id: i64, labels: &RunLabels) -> Result<Job> {
        let n = sqlx::query(
            "UPDATE jobs SET name = COALESCE($1, name), note = COALESCE($2, note), \
             tags = COALESCE($3, tags) WHERE id = $4",
        )
        .bind(labels.name.clone())
        .bind(labels.note.clone())
        .bind(labels.tags.as_deref().map(tags_column))
        .bind(job_id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if n == 0 {
            return Err(StoreError::NotFound("job"));
        }
        self.job(job_id).await
    }

    /// Writes how an ended job went (from its metric series) into its row, for the runs table.
    pub async fn summarize_job(&self, job_id: i64) -> Result<()> {
        let mut series = BTreeMap::new();
        for name in ds_studio_shared::api::SUMMARY_SERIES {
            let points: Vec<(i64, f64)> = self
                .metric_points(job_id, Some(name), None)
                .await?
                .into_iter()
                .map(|(_, step, value, _)| (step, value))
                .collect();
            series.insert(name.to_string(), points);
        }
        let s = ds_studio_shared::api::run_summary(&series);
        let finite = |v: Option<f64>| v.filter(|v| v.is_finite());
        // A run whose loss became NaN has no final loss (its last finite one would rank it
        // among the good runs); its best loss stays.
        let diverged = self.job(job_id).await?.reason == Some(FailureReason::NonFiniteLoss);
        let final_loss = if diverged { None } else { finite(s.final_loss) };
        sqlx::query(
            "UPDATE jobs SET final_loss = $1, best_loss = $2, samples_per_sec = $3, \
             peak_memory_mb = $4, summarized = 1 WHERE id = $5",
        )
        .bind(final_loss)
        .bind(finite(s.best_loss))
        .bind(finite(s.median_samples_per_sec))
        .bind(finite(s.peak_memory_mb))
        .bind(job_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Jobs that ended without a summary (they ended before the runs table existed, or the
    /// server stopped in between): at most `limit` of their ids.
    pub async fn unsummarized_jobs(&self, limit: i64) -> Result<Vec<i64>> {
        let rows = sqlx::query(
            "SELECT id FROM jobs WHERE summarized = 0 \
             AND state IN ('succeeded', 'failed', 'cancelled', 'lost') ORDER BY id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("id").map_err(Into::into))
            .collect()
    }

    /// Jobs whose facts were never read (submitted before the runs table existed): at most
    /// `limit` of them.
    pub async fn jobs_without_facts(&self, limit: i64) -> Result<Vec<Job>> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "{JOB_SELECT} WHERE j.run_precision = '' ORDER BY j.id LIMIT $1"
        )))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(job_of).collect()
    }

    /// Fills in the runs table's columns of jobs stored before it existed: their facts (from
    /// the version's config, or the fitted one, in the job's context) and, for ended jobs,
    /// their figures. Returns how many jobs it touched.
    pub async fn backfill_runs(&self) -> Result<usize> {
        let mut touched = 0;
        loop {
            let jobs = self.jobs_without_facts(100).await?;
            if jobs.is_empty() {
                break;
            }
            for job in &jobs {
                let facts = match self.version_shared(job.template_id, job.version).await {
                    Ok(v) => {
                        let ctx = job.context(&v.version.context);
                        let text = job
                            .fit
                            .as_ref()
                            .map_or(v.version.config_text.as_str(), |f| f.config_text.as_str());
                        RunFacts::of(text, &ctx)
                    }
                    // Its version is gone: the facts stay unknown ("?"), and are not looked for again.
                    Err(_) => RunFacts {
                        precision: "?".into(),
                        ..RunFacts::default()
                    },
                };
                self.set_job_facts(job.id, &facts).await?;
                touched += 1;
            }
        }
        loop {
            let ids = self.unsummarized_jobs(100).await?;
            if ids.is_empty() {
                break;
            }
            for id in ids {
                self.summarize_job(id).await?;
                touched += 1;
            }
        }
        Ok(touched)
    }

    /// Stores the facts read for a job (see [`Store::jobs_without_facts`]).
    pub async fn set_job_facts(&self, job_id: i64, facts: &RunFacts) -> Result<()> {
        sqlx::query(
            "UPDATE jobs SET deepspeed = CASE WHEN deepspeed = '' THEN $1 ELSE deepspeed END, \
             zero_stage = $2, run_precision = $3, offload = $4, micro_batch = $5 WHERE id = $6",
        )
        .bind(facts.deepspeed.clone())
        .bind(facts.zero_stage.map(i64::from))
        .bind(facts.precision.clone())
        .bind(facts.offload.clone())
        .bind(facts.micro_batch)
        .bind(job_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Registers a runner, or refreshes the one with the same name.
    /// Registers (or re-registers) the runner `reg.name` for `team_id`'s jobs (none: every
    /// team's).
    pub async fn register_runner(
        &self,
        reg: &RunnerRegister,
        team_id: Option<i64>,
    ) -> Result<Runner> {
        let now = now_ms();
        let gpus = serde_json::to_string(&reg.gpus).unwrap_or_else(|_| "[]".into());
        let devices = reg
            .devices
            .as_ref()
            .and_then(|d| serde_json::to_string(d).ok());
        let row = sqlx::query(
            "INSERT INTO runners (name, hostname, backend, gpus, python, version, registered_at, \
             last_seen, team_id, deepspeed, devices) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10) \
             ON CONFLICT (name) DO UPDATE SET hostname = $2, backend = $3, gpus = $4, \
             python = $5, version = $6, last_seen = $7, team_id = $8, deepspeed = $9, \
             devices = $10 RETURNING id",
        )
        .bind(reg.name.as_str())
        .bind(reg.hostname.as_str())
        .bind(reg.backend.as_str())
        .bind(gpus)
        .bind(reg.python.as_str())
        .bind(reg.version.as_str())
        .bind(now)
        .bind(team_id)
        .bind(reg.deepspeed.as_str())
        .bind(devices)
        .fetch_one(&self.pool)
        .await?;
        self.runner(row.try_get("id")?).await
    }

    pub async fn runner(&self, id: i64) -> Result<Runner> {
        let now = now_ms();
        let row = sqlx::query("SELECT * FROM runners WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("runner"))?;
        runner_of(&row, self.running_on(id).await?, now)
    }

    pub async fn runners(&self) -> Result<Vec<Runner>> {
        let now = now_ms();
        let rows = sqlx::query("SELECT * FROM runners ORDER BY name")
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: i64 = r.try_get("id")?;
            out.push(runner_of(r, self.running_on(id).await?, now)?);
        }
        Ok(out)
    }

    async fn running_on(&self, runner_id: i64) -> Result<Vec<i64>> {
        let rows = sqlx::query(
            "SELECT id FROM jobs WHERE runner_id = $1 AND state = 'running' ORDER BY id",
        )
        .bind(runner_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("id").map_err(Into::into))
            .collect()
    }

    /// Records a heartbeat; answers the jobs among `hb.running` the runner must stop (those a
    /// user cancelled, and those no longer running on it: marked lost, or finished) and the
    /// jobs it no longer runs that were marked lost now ([`Store::reconcile`]).
    pub async fn heartbeat(&self, runner_id: i64, hb: &Heartbeat) -> Result<HeartbeatOutcome> {
        let n = sqlx::query("UPDATE runners SET last_seen = $1 WHERE id = $2")
            .bind(now_ms())
            .bind(runner_id)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if n == 0 {
            return Err(StoreError::NotFound("runner"));
        }
        let mut cancel = Vec::new();
        let lost = self.reconcile(runner_id, &hb.running).await?;
        for &id in &hb.running {
            let row =
                sqlx::query("SELECT state, runner_id, cancel_requested FROM jobs WHERE id = $1")
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await?;
            let stop = match row {
                None => true,
                Some(r) => {
                    r.try_get::<String, _>("state")? != "running"
                        || r.try_get::<Option<i64>, _>("runner_id")? != Some(runner_id)
                        || r.try_get::<i64, _>("cancel_requested")? != 0
                }
            };
            if stop {
                cancel.push(id);
            }
        }
        Ok(HeartbeatOutcome { cancel, lost })
    }

    /// Marks `lost` the jobs the database has running on the runner that it did not report
    /// (it restarted, or the server restarted while the runner's processes died with it), once
    /// they were claimed [`CLAIM_GRACE_MS`] ago or more (a heartbeat in flight while a job was
    /// being claimed does not name it yet). Returns them.
    async fn reconcile(&self, runner_id: i64, reported: &[i64]) -> Result<Vec<i64>> {
        let now = now_ms();
        let rows = sqlx::query(
            "SELECT j.id, r.name FROM jobs j JOIN runners r ON r.id = j.runner_id \
             WHERE j.runner_id = $1 AND j.state = 'running' AND j.started_at < $2",
        )
        .bind(runner_id)
        .bind(now - CLAIM_GRACE_MS)
        .fetch_all(&self.pool)
        .await?;
        let mut lost = Vec::new();
        for r in &rows {
            let id: i64 = r.try_get("id")?;
            if reported.contains(&id) {
                continue;
            }
            let name: String = r.try_get("name")?;
            let n = sqlx::query(
                "UPDATE jobs SET state = 'lost', finished_at = $1, message = $2 \
                 WHERE id = $3 AND runner_id = $4 AND state = 'running'",
            )
            .bind(now)
            .bind(format!(
                "its runner `{name}` no longer runs it: the runner (or the server, for the local runner) restarted while the job ran, and the training process did not survive"
            ))
            .bind(id)
            .bind(runner_id)
            .execute(&self.pool)
            .await?
            .rows_affected();
            if n == 1 {
                let job = self.job(id).await?;
                self.forget_secrets(&job).await?;
                self.summarize_job(id).await?;
                lost.push(id);
            }
        }
        Ok(lost)
    }

    /// Gives the oldest queued job this runner can run to it, or `None`. Atomic: of runners
    /// claiming at once, each job goes to exactly one.
    pub async fn claim_job(&self, runner: &Runner) -> Result<Option<Job>> {
        let lock = match self.dialect {
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
            Dialect::Sqlite => "",
        };
        // A team's runner takes only that team's jobs.
        let team = if runner.team_id.is_some() {
            " AND template_id IN (SELECT id FROM templates WHERE team_id = $6)"
        } else {
            ""
        };
        let sql = format!(
            "UPDATE jobs SET state = 'running', runner_id = $1, started_at = $2, \
             deepspeed = CASE WHEN $5 = '' THEN deepspeed ELSE $5 END \
             WHERE id = (SELECT id FROM jobs WHERE state = 'queued' \
               AND (runner_requested IS NULL OR runner_requested = $3) \
               AND (nodes = 1 OR $4 = 'slurm'){team} ORDER BY id LIMIT 1{lock}) \
             AND state = 'queued' RETURNING id"
        );
        let mut q = sqlx::query(AssertSqlSafe(sql))
            .bind(runner.id)
            .bind(now_ms())
            .bind(runner.name.as_str())
            .bind(runner.backend.as_str())
            .bind(runner.deepspeed.as_str());
        if let Some(t) = runner.team_id {
            q = q.bind(t);
        }
        let row = q.fetch_optional(&self.pool).await?;
        match row {
            Some(r) => Ok(Some(self.job(r.try_get("id")?).await?)),
            None => Ok(None),
        }
    }

    /// A runner reports how its job went. Only the runner that claimed it may, only while it
    /// runs; a job already ended (cancelled before start, marked lost) answers a conflict.
    pub async fn update_job_state(
        &self,
        job_id: i64,
        runner_id: i64,
        upd: &JobStateUpdate,
    ) -> Result<Job> {
        let job = self.job(job_id).await?;
        let preflight = upd
            .preflight
            .as_ref()
            .map(|p| serde_json::to_string(p).unwrap_or_default());
        let finished = upd.state.is_terminal().then(now_ms);
        let handed = upd
            .handed_config
            .as_ref()
            .map(|c| serde_json::to_string(c).unwrap_or_default());
        let n = sqlx::query(
            "UPDATE jobs SET state = $1, exit_code = COALESCE($2, exit_code), \
             message = COALESCE($3, message), preflight = COALESCE($4, preflight), \
             finished_at = COALESCE($5, finished_at), handed_config = COALESCE($8, handed_config) \
             WHERE id = $6 AND runner_id = $7 AND state = 'running'",
        )
        .bind(upd.state.as_str())
        .bind(upd.exit_code)
        .bind(upd.message.clone())
        .bind(preflight)
        .bind(finished)
        .bind(job_id)
        .bind(runner_id)
        .bind(handed)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if n == 0 {
            return Err(StoreError::Conflict(format!(
                "job {job_id} is {} and not running on this runner",
                job.state.as_str()
            )));
        }
        if upd.state.is_terminal() {
            self.forget_secrets(&job).await?;
            self.summarize_job(job_id).await?;
        }
        self.job(job_id).await
    }

    /// The secret variables of a job (for the runner that claims it).
    pub async fn job_secrets(&self, job_id: i64) -> Result<BTreeMap<String, String>> {
        let row = sqlx::query("SELECT spec FROM jobs WHERE id = $1")
            .bind(job_id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NotFound("job"))?;
        let spec: Spec =
            serde_json::from_str(&row.try_get::<String, _>("spec")?).unwrap_or_default();
        Ok(spec
            .secret_env
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .collect())
    }

    /// Drops the values of a job's secret variables (it ended: nobody needs them any more);
    /// their names stay, so the job still shows what it was given. On SQLite the write-ahead
    /// log is checkpointed and truncated at once, and deleted content is zeroed
    /// (`secure_delete`), so the old value does not linger in the files.
    async fn forget_secrets(&self, job: &Job) -> Result<()> {
        if job.secret_env_names.is_empty() {
            return Ok(());
        }
        let spec = serde_json::to_string(&Spec {
            workload: job.workload.clone(),
            env: job.env.clone(),
            secret_env: job
                .secret_env_names
                .iter()
                .map(|n| (n.clone(), String::new()))
                .collect(),
            fit: job.fit.clone(),
            trainer: job.trainer.clone(),
            filled: job.filled.clone(),
            stall_timeout_s: job.stall_timeout_s,
        })
        .unwrap_or_default();
        sqlx::query("UPDATE jobs SET spec = $1 WHERE id = $2")
            .bind(spec)
            .bind(job.id)
            .execute(&self.pool)
            .await?;
        if self.dialect == Dialect::Sqlite {
            // Best effort: a reader holding an old snapshot delays it to the next checkpoint.
            let _ = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(&self.pool)
                .await;
        }
        Ok(())
    }

    /// Cancels a job: a queued one at once, a running one by asking its runner (the runner
    /// confirms with the final state), or at once when its runner has been silent for
    /// `silent_ms` (it is gone: nothing would confirm). A job that already ended answers a
    /// conflict.
    pub async fn cancel_job(&self, job_id: i64, silent_ms: i64) -> Result<Job> {
        let now = now_ms();
        let queued = sqlx::query(
            "UPDATE jobs SET state = 'cancelled', finished_at = $1, cancel_requested = 1, \
             message = 'cancelled before it started' WHERE id = $2 AND state = 'queued'",
        )
        .bind(now)
        .bind(job_id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if queued == 0 {
            let running = sqlx::query(
                "UPDATE jobs SET cancel_requested = 1 WHERE id = $1 AND state = 'running'",
            )
            .bind(job_id)
            .execute(&self.pool)
            .await?
            .rows_affected();
            if running == 1 {
                // A runner that is gone (silent past `silent_ms`, or deleted) cannot confirm
                // the cancel: it ends here.
                sqlx::query(
                    "UPDATE jobs SET state = 'cancelled', finished_at = $1, \
                     message = 'cancelled; its runner had stopped sending heartbeats, so nothing was left to stop' \
                     WHERE id = $2 AND state = 'running' AND (runner_id IS NULL OR NOT EXISTS \
                     (SELECT 1 FROM runners r WHERE r.id = jobs.runner_id AND r.last_seen >= $3))",
                )
                .bind(now)
                .bind(job_id)
                .bind(now - silent_ms)
                .execute(&self.pool)
                .await?;
            }
            if running == 0 {
                let job = self.job(job_id).await?;
                return Err(StoreError::Conflict(format!(
                    "job {job_id} has already ended: it is {}",
                    job.state.as_str()
                )));
            }
        }
        let job = self.job(job_id).await?;
        if job.state.is_terminal() {
            self.forget_secrets(&job).await?;
            self.summarize_job(job_id).await?;
            return self.job(job_id).await;
        }
        Ok(job)
    }

    /// Marks `lost` the running jobs whose runner was last seen before `cutoff_ms`; returns them.
    pub async fn reap_lost(&self, cutoff_ms: i64) -> Result<Vec<i64>> {
        let rows = sqlx::query(
            "UPDATE jobs SET state = 'lost', finished_at = $1, \
             message = 'its runner stopped sending heartbeats' \
             WHERE state = 'running' AND runner_id IN \
             (SELECT id FROM runners WHERE last_seen < $2) RETURNING id",
        )
        .bind(now_ms())
        .bind(cutoff_ms)
        .fetch_all(&self.pool)
        .await?;
        let ids: Vec<i64> = rows
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<std::result::Result<_, _>>()?;
        for id in &ids {
            let job = self.job(*id).await?;
            self.forget_secrets(&job).await?;
            self.summarize_job(*id).await?;
        }
        Ok(ids)
    }

    /// The id and name of the runner that claimed the job and the job's team, if a runner
    /// claimed it (one cheap query: the hot path of metric ingest checks ownership with it).
    pub async fn job_runner(&self, job_id: i64) -> Result<Option<(i64, String, i64)>> {
        let row = sqlx::query(
            "SELECT j.runner_id, r.name, t.team_id FROM jobs j \
             LEFT JOIN runners r ON r.id = j.runner_id JOIN templates t ON t.id = j.template_id \
             WHERE j.id = $1",
        )
        .bind(job_id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound("job"))?;
        let id: Option<i64> = row.try_get("runner_id")?;
        let name: Option<String> = row.try_get("name")?;
        let team: i64 = row.try_get("team_id")?;
        Ok(id.zip(name).map(|(i, n)| (i, n, team)))
    }

    /// Stores a batch of events; returns those stored now (not seen before), by seq, and the
    /// job's highest sequence number. The batch travels as one JSON parameter that the database
    /// unpacks (`json_each` / `jsonb_array_elements`): one statement, whatever its size.
    pub async fn insert_events(
        &self,
        job_id: i64,
        events: &[RunnerEvent],
    ) -> Result<(Vec<JobEvent>, i64)> {
        let rows: Vec<serde_json::Value> = events
            .iter()
            .map(|e| match e {
                RunnerEvent::Metric {
                    seq,
                    ts,
                    name,
                    step,
                    value,
                } => serde_json::json!([seq, "metric", name, step, value, "", ts]),
                RunnerEvent::Log {
                    seq,
                    ts,
                    stream,
                    text,
                } => serde_json::json!([seq, "log", stream, 0, 0.0, text, ts]),
            })
            .collect();
        let payload = serde_json::Value::Array(rows).to_string();
        let sql = match self.dialect {
            // SQLite: `WHERE true` keeps the upsert clause from being read as a join constraint.
            Dialect::Sqlite => {
                "INSERT INTO job_events (job_id, seq, kind, name, step, value, text, ts) \
                 SELECT $1, json_extract(e.value, '$[0]'), json_extract(e.value, '$[1]'), \
                 json_extract(e.value, '$[2]'), json_extract(e.value, '$[3]'), \
                 json_extract(e.value, '$[4]'), json_extract(e.value, '$[5]'), \
                 json_extract(e.value, '$[6]') FROM json_each($2) e WHERE true \
                 ON CONFLICT (job_id, seq) DO NOTHING RETURNING seq"
            }
            Dialect::Postgres => {
                "INSERT INTO job_events (job_id, seq, kind, name, step, value, text, ts) \
                 SELECT $1, (e->>0)::bigint, e->>1, e->>2, (e->>3)::bigint, \
                 (e->>4)::double precision, e->>5, (e->>6)::bigint \
                 FROM jsonb_array_elements($2::jsonb) e \
                 ON CONFLICT (job_id, seq) DO NOTHING RETURNING seq"
            }
        };
        let max = events.iter().map(RunnerEvent::seq).max().unwrap_or(0);
        let _one_writer = match self.dialect {
            Dialect::Sqlite => Some(self.event_writer.lock().await),
            Dialect::Postgres => None,
        };
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(sql)
            .bind(job_id)
            .bind(payload)
            .fetch_all(&mut *tx)
            .await?;
        let row = sqlx::query(
            "UPDATE jobs SET last_seq = CASE WHEN last_seq < $1 THEN $1 ELSE last_seq END \
             WHERE id = $2 RETURNING last_seq, summarized",
        )
        .bind(max)
        .bind(job_id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound("job"))?;
        let last_seq: i64 = row.try_get("last_seq")?;
        let summarized = row.try_get::<i64, _>("summarized")? != 0;
        tx.commit().await?;
        drop(_one_writer);
        // Points that arrive after the job ended (a runner's resent batch) still count.
        if summarized && !inserted.is_empty() {
            self.summarize_job(job_id).await?;
        }
        let mut new: std::collections::HashSet<i64> = inserted
            .iter()
            .filter_map(|r| r.try_get::<i64, _>("seq").ok())
            .collect();
        // The first event of a sequence number is the one stored: a batch repeating a number
        // reports (and publishes) it once.
        let mut stored: Vec<JobEvent> = events
            .iter()
            .filter(|e| new.remove(&e.seq()))
            .map(JobEvent::from)
            .collect();
        stored.sort_by_key(JobEvent::seq);
        Ok((stored, last_seq))
    }

    /// The last `limit` log lines stored up to sequence number `until`, in order.
    pub async fn log_tail(&self, job_id: i64, until: i64, limit: i64) -> Result<Vec<JobEvent>> {
        let rows = sqlx::query(
            "SELECT * FROM (SELECT * FROM job_events WHERE job_id = $1 AND kind = 'log' \
             AND seq <= $2 ORDER BY seq DESC LIMIT $3) tail ORDER BY seq",
        )
        .bind(job_id)
        .bind(until)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_of).collect()
    }

    /// Events after `after_seq`, in order, at most `limit`; `kind` narrows to metrics or logs.
    pub async fn events_after(
        &self,
        job_id: i64,
        after_seq: i64,
        kind: Option<&str>,
        limit: i64,
    ) -> Result<Vec<JobEvent>> {
        let rows = match kind {
            Some(k) => sqlx::query(
                "SELECT * FROM job_events WHERE job_id = $1 AND seq > $2 AND kind = $3 \
                 ORDER BY seq LIMIT $4",
            )
            .bind(job_id)
            .bind(after_seq)
            .bind(k)
            .bind(limit),
            None => sqlx::query(
                "SELECT * FROM job_events WHERE job_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
            )
            .bind(job_id)
            .bind(after_seq)
            .bind(limit),
        }
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_of).collect()
    }

    /// A job's metric points as (name, step, value, series total), ordered by name and step.
    /// With `max_points`, each longer series is downsampled in the database (first and last
    /// point kept, the inner points averaged in `max_points - 2` buckets), so only what is
    /// answered is ever loaded.
    pub async fn metric_points(
        &self,
        job_id: i64,
        name: Option<&str>,
        max_points: Option<i64>,
    ) -> Result<Vec<(String, i64, f64, i64)>> {
        self.metric_points_until(job_id, name, max_points, None)
            .await
    }

    /// As [`Store::metric_points`], of the points stored up to sequence number `until`.
    pub async fn metric_points_until(
        &self,
        job_id: i64,
        name: Option<&str>,
        max_points: Option<i64>,
        until: Option<i64>,
    ) -> Result<Vec<(String, i64, f64, i64)>> {
        let filter = if name.is_some() {
            " AND seq <= $3 AND name = $4"
        } else {
            " AND seq <= $3"
        };
        let sql = format!(
            "WITH numbered AS ( \
               SELECT name, step, value, \
                 ROW_NUMBER() OVER (PARTITION BY name ORDER BY step, seq) AS rn, \
                 COUNT(*) OVER (PARTITION BY name) AS total \
               FROM job_events WHERE job_id = $1 AND kind = 'metric'{filter}), \
             bucketed AS ( \
               SELECT name, step, value, total, \
                 CASE WHEN $2 <= 2 OR total <= $2 THEN rn \
                      WHEN rn = 1 THEN 0 \
                      WHEN rn = total THEN $2 \
                      ELSE 1 + ((rn - 2) * ($2 - 2)) / (total - 2) END AS bucket \
               FROM numbered) \
             SELECT name, MAX(step) AS step, AVG(value) AS value, MIN(total) AS total \
             FROM bucketed GROUP BY name, bucket ORDER BY name, bucket"
        );
        let mut q = sqlx::query(AssertSqlSafe(sql))
            .bind(job_id)
            .bind(max_points.unwrap_or(i64::MAX))
            .bind(until.unwrap_or(i64::MAX));
        if let Some(n) = name {
            q = q.bind(n);
        }
        let rows = q.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("name")?,
                    r.try_get("step")?,
                    r.try_get("value")?,
                    r.try_get("total")?,
                ))
            })
            .collect()
    }
}

/// Inserts a queued job through `executor` (the pool, or a transaction that stores more with
/// it: a sweep's points); its id.
pub(crate) async fn insert_job<'c, E>(executor: E, new: &NewJob) -> Result<i64>
where
    E: sqlx::Executor<'c, Database = sqlx::Any>,
{
    let spec = serde_json::to_string(&Spec {
        workload: new.workload.clone(),
        env: new.env.clone(),
        secret_env: new.secret_env.clone(),
        fit: new.fit.clone(),
        trainer: new.trainer.clone(),
        filled: new.filled.clone(),
        stall_timeout_s: new.stall_timeout_s,
    })
    .unwrap_or_default();
    let tags = tags_column(new.labels.tags.as_deref().unwrap_or_default());
    let row = sqlx::query(
        "INSERT INTO jobs (template_id, version, created_by, spec, gpus, nodes, max_steps, \
             time_limit_s, runner_requested, state, created_at, name, note, tags, deepspeed, \
             zero_stage, run_precision, offload, micro_batch, launcher) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', $10, $11, $12, $13, $14, $15, \
             $16, $17, $18, $19) RETURNING id",
    )
    .bind(new.template_id)
    .bind(new.version)
    .bind(new.created_by)
    .bind(spec)
    .bind(new.gpus as i64)
    .bind(new.nodes as i64)
    .bind(new.max_steps as i64)
    .bind(new.time_limit_s.map(|s| s as i64))
    .bind(new.runner_requested.clone())
    .bind(now_ms())
    .bind(new.labels.name.clone().unwrap_or_default())
    .bind(new.labels.note.clone().unwrap_or_default())
    .bind(tags)
    .bind(new.facts.deepspeed.clone())
    .bind(new.facts.zero_stage.map(i64::from))
    .bind(new.facts.precision.clone())
    .bind(new.facts.offload.clone())
    .bind(new.facts.micro_batch)
    .bind(if new.facts.launcher.is_empty() {
        "deepspeed".to_string()
    } else {
        new.facts.launcher.clone()
    })
    .fetch_one(executor)
    .await?;
    Ok(row.try_get("id")?)
}
