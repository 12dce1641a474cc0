//! Sweeps: the sweep row (what its points share), one row per point, and the jobs that run
//! them. A sweep and all its points' jobs are stored in one transaction, so a sweep is never
//! half queued. Its state, ranking and figures are read from its jobs each time (nothing to
//! keep in step); a point's own row only holds what no job says: its values, its config, its
//! estimate, and why it was pruned or stopped early.

use super::jobs::{insert_job, job_of, NewJob, JOB_SELECT};
use super::{now_ms, rfc3339, Result, Store, StoreError};
use ds_studio_shared::api::{
    estimate_error_pct, ranking, sweep_state, throughput, FailureReason, Job, JobState, PointState,
    Sweep, SweepPoint, Workload,
};
use ds_studio_shared::i18n::Text;
use ds_studio_shared::sweep::Axis;
use serde::{Deserialize, Serialize};
use sqlx::{AssertSqlSafe, Row};
use std::collections::HashMap;

/// What a sweep's points share (the `spec` column).
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct SweepSpec {
    pub workload: Workload,
    pub gpus: u32,
    pub nodes: u32,
    pub max_steps: u32,
    pub grid: Vec<Axis>,
    pub keep_global_batch: bool,
    pub early_stop: bool,
    #[serde(default)]
    pub runners: Vec<String>,
}

/// A sweep to store (checked by the API layer).
#[derive(Debug, Clone)]
pub struct NewSweep {
    pub template_id: i64,
    pub version: i64,
    pub created_by: i64,
    pub name: String,
    pub spec: SweepSpec,
    pub points: Vec<NewPoint>,
}

/// One point to store: its grid values (the changes from the base version), and a job to
/// queue (which holds the config it runs) or the reason it will not run. The point keeps no
/// copy of the config text (`sweep_points.config_text` is left empty; sweeps stored before
/// held one there).
#[derive(Debug, Clone)]
pub struct NewPoint {
    pub values: serde_json::Map<String, serde_json::Value>,
    pub estimate_bytes: Option<u64>,
    pub runner: Option<String>,
    pub reason: Option<Text>,
    pub job: Option<NewJob>,
}

/// Where a running point belongs, for the early stop.
#[derive(Debug, Clone)]
pub struct PointOfJob {
    pub sweep_id: i64,
    pub index: i64,
    pub early_stop: bool,
    pub cancelled: bool,
}

/// The series a point's throughput is read from while it runs.
const SAMPLES_SERIES: &str = "samples_per_sec";

impl Store {
    /// Stores a sweep, its points and their jobs, all or nothing; the sweep's id.
    pub async fn create_sweep(&self, new: &NewSweep) -> Result<i64> {
        let mut tx = self.pool.begin().await?;
        let spec = serde_json::to_string(&new.spec).unwrap_or_default();
        let id: i64 = sqlx::query(
            "INSERT INTO sweeps (template_id, version, created_by, name, spec, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(new.template_id)
        .bind(new.version)
        .bind(new.created_by)
        .bind(new.name.clone())
        .bind(spec)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?
        .try_get("id")?;
        for (idx, p) in new.points.iter().enumerate() {
            // Each point's job is tagged with the sweep (`sweep:ID`) and named after it.
            let job_id = match &p.job {
                Some(job) => {
                    let mut job = job.clone();
                    let mut tags = job.labels.tags.take().unwrap_or_default();
                    tags.push(format!("sweep:{id}"));
                    job.labels.tags = Some(tags);
                    job.labels.name = Some(format!(
                        "sweep {id} · {}",
                        job.labels.name.as_deref().unwrap_or_default()
                    ));
                    Some(insert_job(&mut *tx, &job).await?)
                }
                None => None,
            };
            sqlx::query(
                "INSERT INTO sweep_points (sweep_id, idx, point_values, \
                 estimate_bytes, job_id, runner, reason) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(id)
            .bind(idx as i64)
            .bind(serde_json::Value::Object(p.values.clone()).to_string())
            .bind(p.estimate_bytes.map(|b| b.min(i64::MAX as u64) as i64))
            .bind(job_id)
            .bind(p.runner.clone())
            .bind(
                p.reason
                    .as_ref()
                    .map(|r| serde_json::to_string(r).unwrap_or_default()),
            )
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    /// The sweep with its points as they stand now.
    pub async fn sweep(&self, id: i64) -> Result<Sweep> {
        let row = sqlx::query(
            "SELECT s.id, s.name, s.template_id, t.name AS template_name, t.team_id, s.version, \
             s.spec, s.created_at, s.cancelled_at, u.name AS created_by_name \
             FROM sweeps s JOIN templates t ON t.id = s.template_id \
             JOIN users u ON u.id = s.created_by WHERE s.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound("sweep"))?;
        let spec: SweepSpec =
            serde_json::from_str(&row.try_get::<String, _>("spec")?).unwrap_or_default();
        let cancelled = row.try_get::<Option<i64>, _>("cancelled_at")?.is_some();
        let jobs: HashMap<i64, Job> = sqlx::query(AssertSqlSafe(format!(
            "{JOB_SELECT} WHERE j.id IN (SELECT job_id FROM sweep_points WHERE sweep_id = $1)"
        )))
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(job_of)
        .map(|j| j.map(|j| (j.id, j)))
        .collect::<Result<_>>()?;
        let running: Vec<i64> = jobs
            .values()
            .filter(|j| j.state == JobState::Running)
            .map(|j| j.id)
            .collect();
        let mut readings: HashMap<i64, Vec<f64>> = HashMap::new();
        for job in running {
            readings.insert(job, self.samples_readings(job).await?);
        }
        let model = spec.workload.model_spec(false);
        let rows = sqlx::query(
            "SELECT idx, point_values, estimate_bytes, job_id, runner, reason \
             FROM sweep_points WHERE sweep_id = $1 ORDER BY idx",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let mut points = Vec::with_capacity(rows.len());
        for r in &rows {
            let job_id: Option<i64> = r.try_get("job_id")?;
            let job = job_id.and_then(|j| jobs.get(&j));
            let stored_reason: Option<Text> = r
                .try_get::<Option<String>, _>("reason")?
                .and_then(|s| serde_json::from_str(&s).ok());
            let state = match (job, job_id) {
                (Some(j), _) => PointState::of_job(j.state),
                // Its job was deleted (with its template's jobs): nothing ran to report.
                (None, Some(_)) => PointState::Cancelled,
                (None, None) if stored_reason.is_some() => PointState::Pruned,
                (None, None) => PointState::Cancelled,
            };
            let samples_per_sec = job.and_then(|j| match j.state {
                JobState::Running => readings.get(&j.id).and_then(|r| median(r)),
                _ => j.summary.as_ref()?.median_samples_per_sec,
            });
            let (tokens_per_sec, model_tflops) = match (samples_per_sec, &model) {
                (Some(sps), Some(m)) => {
                    let (t, f) = throughput(sps, m.seq_len, m.params, spec.gpus * spec.nodes);
                    (Some(t), Some(f))
                }
                _ => (None, None),
            };
            points.push(SweepPoint {
                index: r.try_get::<i64, _>("idx")? as u32,
                values: serde_json::from_str(&r.try_get::<String, _>("point_values")?)
                    .unwrap_or_default(),
                state,
                job: job_id,
                runner: job.and_then(|j| j.runner.clone()).or(r.try_get("runner")?),
                estimate_bytes: r
                    .try_get::<Option<i64>, _>("estimate_bytes")?
                    .map(|b| b.max(0) as u64),
                samples_per_sec,
                tokens_per_sec,
                model_tflops,
                peak_memory_mb: job.and_then(|j| j.summary.as_ref()?.peak_memory_mb),
                estimate_error_pct: job.filter(|j| measured_on_gpu(j)).and_then(|j| {
                    estimate_error_pct(
                        r.try_get::<Option<i64>, _>("estimate_bytes").ok()??.max(0) as u64,
                        j.summary.as_ref()?.peak_memory_mb?,
                    )
                }),
                reason: stored_reason.or_else(|| job.and_then(|j| job_reason(j, cancelled))),
                config_text: None,
            });
        }
        let ranking = ranking(&points);
        // The best point's config (what saving the best writes), from its job: the one text a
        // sweep carries; every other point's is its job's.
        if let Some(best) = ranking.first().and_then(|&i| points.get_mut(i as usize)) {
            best.config_text = best
                .job
                .and_then(|j| jobs.get(&j))
                .and_then(|j| j.fit.as_ref())
                .map(|f| f.config_text.clone());
        }
        Ok(Sweep {
            id,
            name: row.try_get("name")?,
            template_id: row.try_get("template_id")?,
            template_name: row.try_get("template_name")?,
            team_id: row.try_get("team_id")?,
            version: row.try_get("version")?,
            state: sweep_state(cancelled, &points),
            workload: spec.workload,
            gpus: spec.gpus,
            nodes: spec.nodes,
            max_steps: spec.max_steps,
            grid: spec.grid,
            keep_global_batch: spec.keep_global_batch,
            early_stop: spec.early_stop,
            runners: spec.runners,
            created_by: row.try_get("created_by_name")?,
            created_at: rfc3339(row.try_get("created_at")?),
            best: ranking.first().copied(),
            ranking,
            points,
        })
    }

    /// The newest sweeps (at most `limit`) of one template, or of every template the user
    /// `visible_to` can see (`None`: all); their ids, newest first.
    pub async fn sweep_ids(
        &self,
        template_id: Option<i64>,
        visible_to: Option<i64>,
        limit: i64,
    ) -> Result<Vec<i64>> {
        // Portable across both databases: the conditions are written only when they apply.
        let mut sql = String::from(
            "SELECT s.id FROM sweeps s JOIN templates t ON t.id = s.template_id WHERE 1 = 1",
        );
        let mut n = 0;
        let mut next = || {
            n += 1;
            format!("${n}")
        };
        if template_id.is_some() {
            sql += &format!(" AND s.template_id = {}", next());
        }
        if visible_to.is_some() {
            sql += &format!(
                " AND t.team_id IN (SELECT team_id FROM memberships WHERE user_id = {})",
                next()
            );
        }
        sql += &format!(" ORDER BY s.id DESC LIMIT {}", next());
        let mut q = sqlx::query(AssertSqlSafe(sql));
        for v in [template_id, visible_to].into_iter().flatten() {
            q = q.bind(v);
        }
        let rows = q.bind(limit).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| r.try_get("id").map_err(StoreError::from))
            .collect()
    }

    /// Marks a sweep cancelled (its jobs are cancelled by the caller, one by one); false when
    /// it already was.
    pub async fn mark_sweep_cancelled(&self, id: i64) -> Result<bool> {
        let n = sqlx::query(
            "UPDATE sweeps SET cancelled_at = $1 WHERE id = $2 AND cancelled_at IS NULL",
        )
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// The sweep point a job runs, if it runs one.
    pub async fn point_of_job(&self, job_id: i64) -> Result<Option<PointOfJob>> {
        let Some(row) = sqlx::query(
            "SELECT p.sweep_id, p.idx, s.spec, s.cancelled_at FROM sweep_points p \
             JOIN sweeps s ON s.id = p.sweep_id WHERE p.job_id = $1",
        )
        .bind(job_id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let spec: SweepSpec =
            serde_json::from_str(&row.try_get::<String, _>("spec")?).unwrap_or_default();
        Ok(Some(PointOfJob {
            sweep_id: row.try_get("sweep_id")?,
            index: row.try_get("idx")?,
            early_stop: spec.early_stop,
            cancelled: row.try_get::<Option<i64>, _>("cancelled_at")?.is_some(),
        }))
    }

    /// The best median samples/s among a sweep's succeeded points.
    pub async fn best_finished_throughput(&self, sweep_id: i64) -> Result<Option<f64>> {
        let row = sqlx::query(
            "SELECT MAX(j.samples_per_sec) AS best FROM sweep_points p JOIN jobs j \
             ON j.id = p.job_id WHERE p.sweep_id = $1 AND j.state = 'succeeded'",
        )
        .bind(sweep_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<Option<f64>, _>("best")?)
    }

    /// The samples/s readings a job has reported so far, in order.
    pub async fn samples_readings(&self, job_id: i64) -> Result<Vec<f64>> {
        let rows = sqlx::query(
            "SELECT value FROM job_events WHERE job_id = $1 AND kind = 'metric' AND name = $2 \
             ORDER BY seq",
        )
        .bind(job_id)
        .bind(SAMPLES_SERIES)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get::<f64, _>("value").map_err(StoreError::from))
            .collect()
    }

    /// Records why a point was stopped early (the first reason stays).
    pub async fn set_point_reason(&self, sweep_id: i64, index: i64, reason: &Text) -> Result<()> {
        sqlx::query(
            "UPDATE sweep_points SET reason = $1 WHERE sweep_id = $2 AND idx = $3 \
             AND reason IS NULL",
        )
        .bind(serde_json::to_string(reason).unwrap_or_default())
        .bind(sweep_id)
        .bind(index)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

/// Whether a job ran on a GPU (its preflight says so): only there is its measured peak
/// DeepSpeed's max allocated, the bytes the estimate counts (on a CPU it is the process's
/// resident memory, interpreter and libraries included).
fn measured_on_gpu(job: &Job) -> bool {
    job.preflight
        .as_ref()
        .and_then(|p| p.accelerator.as_deref())
        .is_some_and(|a| a == "cuda")
}

fn median(r: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = r.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

/// Why a point's job did not succeed, in both languages.
fn job_reason(job: &Job, sweep_cancelled: bool) -> Option<Text> {
    let message = job.message.clone().unwrap_or_default();
    match job.state {
        JobState::Failed | JobState::Lost if job.reason == Some(FailureReason::OutOfMemory) => {
            Some(Text::new(
                format!("out of memory: {message}"),
                format!("内存不足：{message}"),
            ))
        }
        JobState::Failed => Some(Text::new(
            format!("failed: {message}"),
            format!("失败：{message}"),
        )),
        JobState::Lost => Some(Text::new(
            format!("lost: {message}"),
            format!("丢失：{message}"),
        )),
        JobState::Cancelled if sweep_cancelled => {
            Some(Text::new("cancelled with the sweep", "随扫描一起取消"))
        }
        JobState::Cancelled => Some(Text::new(
            format!("cancelled: {message}"),
            format!("已取消：{message}"),
        )),
        _ => None,
    }
}
