//! Sweeps as the API shows them: a grid over config keys run as one labelled job per point
//! (`POST /api/v1/sweeps`), ranked by throughput as the points finish. The planning itself
//! (expanding the grid, pruning by the validator and the memory model) is
//! [`crate::sweep::expand`]; this module holds the request and answer shapes and what every
//! client computes the same way from an answer: the ranking, the best point, the early stop.

use super::Workload;
use crate::i18n::Text;
use crate::sweep::Axis;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// A point still running is stopped early when its median samples/s, over at least
/// [`EARLY_STOP_READINGS`] readings, is under this share of the best finished point's.
pub const EARLY_STOP_SHARE: f64 = 0.5;
/// Readings of samples/s a running point needs before it can be stopped early.
pub const EARLY_STOP_READINGS: usize = 3;

/// Most bytes of config text a sweep may store: each runnable point's job keeps the config it
/// runs (the base version with the point's keys edited, comments included), so a sweep costs
/// about the base's size times its points. A request over it is refused with the figure.
pub const MAX_SWEEP_CONFIG_BYTES: usize = 16 << 20;

/// `POST /api/v1/sweeps`: run a grid of configs over a pinned template version.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SweepCreate {
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub template_id: i64,
    /// The base version; default the head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub version: Option<i64>,
    /// What each point trains (the built-in workload's model is what the memory model prunes
    /// with; a script of one's own is pruned by the validator only).
    pub workload: Workload,
    /// The keys to vary and their values (1 to 8 keys, at most 256 points in all), e.g.
    /// `[{"key": "train_micro_batch_size_per_gpu", "values": [4, 8, 16]},
    ///   {"key": "zero_optimization.stage", "values": [0, 2, 3]}]`.
    pub grid: Vec<Axis>,
    /// A point that changes the micro batch changes the gradient accumulation too, so every
    /// point trains on the base's samples per step (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_global_batch: Option<bool>,
    /// Optimizer steps per point (default 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10000000))]
    pub max_steps: Option<u32>,
    /// GPUs (ranks) per node of every point; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 64))]
    pub gpus: Option<u32>,
    /// Nodes of every point; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1024))]
    pub nodes: Option<u32>,
    /// The runners (by name) the points are spread over, each point to one that fits it;
    /// default any runner (pruned against the online runners' memory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runners: Option<Vec<String>>,
    /// Stop a running point early when it is far slower than the best finished one (default
    /// true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub early_stop: Option<bool>,
    /// A name for the sweep (at most 120 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `POST /api/v1/sweeps/{id}/save-best`: what to write on the new version (the body may be
/// left out).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SweepSaveBest {
    /// The version's message (default: the point and its throughput).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Where a point stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PointState {
    /// Its job waits for a runner.
    Queued,
    Running,
    Succeeded,
    /// Its job failed or was lost (out of memory, a DeepSpeed error, a runner gone).
    Failed,
    /// Never run: the validator or the memory model ruled it out (see `reason`).
    Pruned,
    /// Cancelled with the sweep, or stopped early.
    Cancelled,
}

impl PointState {
    pub fn as_str(self) -> &'static str {
        match self {
            PointState::Queued => "queued",
            PointState::Running => "running",
            PointState::Succeeded => "succeeded",
            PointState::Failed => "failed",
            PointState::Pruned => "pruned",
            PointState::Cancelled => "cancelled",
        }
    }

    pub fn is_terminal(self) -> bool {
        !matches!(self, PointState::Queued | PointState::Running)
    }

    /// The state of a point whose job is in `job`.
    pub fn of_job(job: super::JobState) -> PointState {
        use super::JobState as J;
        match job {
            J::Queued => PointState::Queued,
            J::Running => PointState::Running,
            J::Succeeded => PointState::Succeeded,
            J::Failed | J::Lost => PointState::Failed,
            J::Cancelled => PointState::Cancelled,
        }
    }
}

/// One point of a sweep.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct SweepPoint {
    /// Its place in the grid (0-based, the last key varying fastest).
    pub index: u32,
    /// The grid's value of each key (dotted key → value).
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub values: serde_json::Map<String, Value>,
    pub state: PointState,
    /// Its job (absent for a pruned point).
    #[serde(default)]
    pub job: Option<i64>,
    /// The runner it was given to (absent: any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<String>,
    /// The memory model's peak per GPU, where the model is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate_bytes: Option<u64>,
    /// Median samples/s of its run (while running: so far).
    #[serde(default)]
    pub samples_per_sec: Option<f64>,
    /// Samples/s × sequence length, where the model is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_per_sec: Option<f64>,
    /// Model TFLOP/s per GPU (6 × parameters × tokens/s over the GPUs), where the model is
    /// known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_tflops: Option<f64>,
    /// The peak memory its run measured, in MB (on a GPU DeepSpeed's max allocated; on a CPU
    /// the process's resident memory).
    #[serde(default)]
    pub peak_memory_mb: Option<f64>,
    /// The measured peak against the estimate, in % (+: the run used more); only for a point
    /// measured on a GPU, where both count the same bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate_error_pct: Option<f64>,
    /// Why it was pruned, failed, cancelled or stopped early, in both languages.
    #[serde(default)]
    pub reason: Option<Text>,
    /// The config the point runs (the base version with the point's keys edited): given for
    /// the best point only, so a sweep stays small to fetch; any point's is its job's
    /// (`GET /api/v1/jobs/{job}`, `fit.config_text`). A point itself stores only its values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_text: Option<String>,
}

impl SweepPoint {
    /// The point in a few words: `train_micro_batch_size_per_gpu=16 zero_optimization.stage=2`.
    pub fn label(&self) -> String {
        self.values
            .iter()
            .map(|(k, v)| format!("{k}={}", value_word(v)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The measured peak against the estimate, in % (+: the run used more).
pub fn estimate_error_pct(estimate_bytes: u64, measured_mb: f64) -> Option<f64> {
    let est = estimate_bytes as f64;
    (est > 0.0 && measured_mb > 0.0).then(|| (measured_mb * 1048576.0 - est) / est * 100.0)
}

/// A grid value as a word: `16`, `true`, `cpu` (strings without their quotes).
pub fn value_word(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Where a sweep stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SweepState {
    /// Some points are queued or running.
    Running,
    /// Every point has ended.
    Finished,
    /// Cancelled: its points that had not ended were cancelled.
    Cancelled,
}

impl SweepState {
    pub fn as_str(self) -> &'static str {
        match self {
            SweepState::Running => "running",
            SweepState::Finished => "finished",
            SweepState::Cancelled => "cancelled",
        }
    }
}

/// A sweep as the API shows it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Sweep {
    pub id: i64,
    pub name: String,
    pub template_id: i64,
    pub template_name: String,
    pub team_id: i64,
    /// The base version.
    pub version: i64,
    pub state: SweepState,
    pub workload: Workload,
    pub gpus: u32,
    pub nodes: u32,
    pub max_steps: u32,
    pub grid: Vec<Axis>,
    pub keep_global_batch: bool,
    pub early_stop: bool,
    /// The runners the points were spread over (empty: any).
    #[serde(default)]
    pub runners: Vec<String>,
    pub created_by: String,
    pub created_at: String,
    pub points: Vec<SweepPoint>,
    /// Indices of the succeeded points, fastest first.
    pub ranking: Vec<u32>,
    /// Index of the fastest succeeded point.
    #[serde(default)]
    pub best: Option<u32>,
}

impl Sweep {
    /// The fastest succeeded point.
    pub fn best_point(&self) -> Option<&SweepPoint> {
        self.best.and_then(|i| self.points.get(i as usize))
    }
}

/// The succeeded points' indices, by samples/s (fastest first; ties: the lower index).
pub fn ranking(points: &[SweepPoint]) -> Vec<u32> {
    let mut done: Vec<&SweepPoint> = points
        .iter()
        .filter(|p| p.state == PointState::Succeeded)
        .filter(|p| p.samples_per_sec.is_some_and(f64::is_finite))
        .collect();
    done.sort_by(|a, b| {
        b.samples_per_sec
            .unwrap_or(0.0)
            .total_cmp(&a.samples_per_sec.unwrap_or(0.0))
            .then(a.index.cmp(&b.index))
    });
    done.into_iter().map(|p| p.index).collect()
}

/// The sweep's state from its points' (a cancelled sweep stays cancelled).
pub fn sweep_state(cancelled: bool, points: &[SweepPoint]) -> SweepState {
    if cancelled {
        SweepState::Cancelled
    } else if points.iter().all(|p| p.state.is_terminal()) {
        SweepState::Finished
    } else {
        SweepState::Running
    }
}

/// Whether a running point whose samples/s readings so far are `readings` should be stopped,
/// the best finished point running at `best`: the reason, in both languages.
pub fn early_stop(readings: &[f64], best: f64) -> Option<Text> {
    let mut r: Vec<f64> = readings.iter().copied().filter(|v| v.is_finite()).collect();
    if r.len() < EARLY_STOP_READINGS || !(best.is_finite() && best > 0.0) {
        return None;
    }
    r.sort_by(f64::total_cmp);
    let median = r[r.len() / 2];
    (median < best * EARLY_STOP_SHARE).then(|| {
        Text::new(
            format!("stopped early: {median:.1} samples/s, under half the best so far ({best:.1})"),
            format!("提前停止：{median:.1} 样本/秒，不到目前最佳（{best:.1}）的一半"),
        )
    })
}

/// Throughput figures for a built-in model: tokens/s and model TFLOP/s per GPU.
pub fn throughput(samples_per_sec: f64, seq_len: u64, params: u64, gpus: u32) -> (f64, f64) {
    let tokens = samples_per_sec * seq_len as f64;
    let tflops = 6.0 * params as f64 * tokens / f64::from(gpus.max(1)) / 1e12;
    (tokens, tflops)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(index: u32, state: PointState, sps: Option<f64>) -> SweepPoint {
        SweepPoint {
            index,
            values: serde_json::Map::new(),
            state,
            job: Some(i64::from(index) + 1),
            runner: None,
            estimate_bytes: None,
            samples_per_sec: sps,
            tokens_per_sec: None,
            model_tflops: None,
            peak_memory_mb: None,
            estimate_error_pct: None,
            reason: None,
            config_text: None,
        }
    }

    #[test]
    fn the_ranking_is_the_succeeded_points_fastest_first() {
        let points = [
            point(0, PointState::Succeeded, Some(10.0)),
            point(1, PointState::Failed, None),
            point(2, PointState::Succeeded, Some(30.0)),
            point(3, PointState::Running, Some(99.0)),
            point(4, PointState::Succeeded, Some(30.0)),
            point(5, PointState::Pruned, None),
        ];
        assert_eq!(ranking(&points), vec![2, 4, 0]);
        assert_eq!(sweep_state(false, &points), SweepState::Running);
        assert_eq!(sweep_state(false, &points[..3]), SweepState::Finished);
        assert_eq!(sweep_state(true, &points), SweepState::Cancelled);
    }

    #[test]
    fn a_point_is_stopped_early_only_when_clearly_slower() {
        assert!(early_stop(&[1.0, 1.0], 10.0).is_none(), "too few readings");
        assert!(early_stop(&[6.0, 5.5, 7.0], 10.0).is_none());
        let why = early_stop(&[2.0, 3.0, 40.0, 2.5], 10.0).unwrap();
        assert!(why.en.contains("3.0 samples/s"), "{}", why.en);
        assert!(early_stop(&[1.0, 1.0, 1.0], 0.0).is_none(), "no best yet");
    }

    #[test]
    fn throughput_counts_tokens_and_model_flops_per_gpu() {
        let (tokens, tflops) = throughput(50.0, 1024, 1_557_000_000, 1);
        assert_eq!(tokens, 51_200.0);
        assert!((tflops - 478.3).abs() < 0.1, "{tflops}");
        assert!((throughput(50.0, 1024, 1_557_000_000, 4).1 - tflops / 4.0).abs() < 1e-9);
    }
}
