//! What a job page says at a glance, from its metric series (the figures are
//! `shared::api::run_summary`'s, as compare and `jobs watch` say them); and why a chart is empty (a setting the config lacks, a run
//! shorter than DeepSpeed's print interval) instead of a bare "—". Plain functions, tested
//! natively.

use ds_studio_shared::api::{Job, JobState};
use std::collections::BTreeMap;

type Series = BTreeMap<String, Vec<(i64, f64)>>;

/// The figures of the summary panel ([`ds_studio_shared::api::run_summary`]).
pub use ds_studio_shared::api::RunSummary as Summary;

/// The summary of the series so far.
pub fn summary(series: &Series) -> Summary {
    ds_studio_shared::api::run_summary(series)
}

/// Why the chart `key` has no points, in English and Chinese, from the config as run and the
/// job; `None` while there is nothing to explain (it is running and may still fill).
pub fn empty_reason(key: &str, config: &serde_json::Value, job: &Job) -> Option<(String, String)> {
    let ended = job.state.is_terminal();
    let steps = job.max_steps as i64;
    match key {
        "job.timings" if config["wall_clock_breakdown"] != serde_json::json!(true) => Some((
            "per-step timings need \"wall_clock_breakdown\": true in the config".into(),
            "每步耗时需要在配置中设置 \"wall_clock_breakdown\": true".into(),
        )),
        "job.throughput" => {
            let every = config["steps_per_print"].as_i64().unwrap_or(10);
            if matches!(job.facts.launcher.as_str(), "hf-trainer" | "accelerate") {
                Some((
                    "under the HF Trainer and Accelerate DeepSpeed prints no samples/s (Accelerate sets steps_per_print to inf): the summary's samples/s is the workload's own".into(),
                    "在 HF Trainer 与 Accelerate 下 DeepSpeed 不打印 samples/s（Accelerate 把 steps_per_print 设为 inf）：摘要中的 samples/s 由工作负载自己测得".into(),
                ))
            } else if job.workload.runs_our_scripts() && every > steps {
                Some((
                    format!("DeepSpeed reports samples/s every steps_per_print = {every} steps; this run has {steps}"),
                    format!("DeepSpeed 每 steps_per_print = {every} 步报告一次 samples/s；本次运行只有 {steps} 步"),
                ))
            } else if ended {
                Some((
                    "DeepSpeed reported no samples/s (it prints them at log level info, every steps_per_print steps)".into(),
                    "DeepSpeed 没有报告 samples/s（它在 info 日志级别下每 steps_per_print 步打印一次）".into(),
                ))
            } else {
                None
            }
        }
        _ if ended && job.state != JobState::Succeeded => Some((
            "the job ended before this metric was reported".into(),
            "任务在报告这一指标之前就结束了".into(),
        )),
        _ if ended => Some((
            "the run did not report this metric".into(),
            "本次运行没有报告这一指标".into(),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn job(state: &str, steps: u32) -> Job {
        serde_json::from_value(json!({
            "id": 1, "template_id": 1, "template_name": "t", "team_id": 1, "version": 1,
            "state": state, "workload": {"builtin": "gpt", "size": "tiny"}, "gpus": 1,
            "nodes": 1, "max_steps": steps, "created_by": "a", "created_at": "x", "last_seq": 0
        }))
        .unwrap()
    }

    #[test]
    fn the_summary_reads_the_series() {
        let mut s = Series::new();
        assert_eq!(summary(&s), Summary::default());
        s.insert(
            "Train/Samples/train_loss".into(),
            vec![(8, 6.2), (16, 5.1), (24, 5.4)],
        );
        s.insert(
            "samples_per_sec".into(),
            vec![(5, 900.0), (10, 1000.0), (15, f64::NAN), (20, 950.0)],
        );
        let sum = summary(&s);
        assert_eq!(sum.final_loss, Some(5.4));
        assert_eq!(sum.best_loss, Some(5.1));
        assert_eq!(sum.median_samples_per_sec, Some(950.0));
    }

    #[test]
    fn empty_charts_say_why() {
        let cfg = json!({"steps_per_print": 50});
        let (en, zh) = empty_reason("job.throughput", &cfg, &job("running", 20)).unwrap();
        assert!(
            en.contains("steps_per_print = 50") && en.contains("has 20"),
            "{en}"
        );
        assert!(zh.contains("20 步"));
        assert!(empty_reason("job.timings", &cfg, &job("running", 20))
            .unwrap()
            .0
            .contains("wall_clock_breakdown"));
        assert!(empty_reason(
            "job.timings",
            &json!({"wall_clock_breakdown": true}),
            &job("running", 20)
        )
        .is_none());
        // Under an HF launcher DeepSpeed prints none at all.
        let mut hf = job("succeeded", 20);
        hf.facts.launcher = "accelerate".into();
        let (en, zh) =
            empty_reason("job.throughput", &json!({"steps_per_print": "inf"}), &hf).unwrap();
        assert!(
            en.contains("steps_per_print to inf") && zh.contains("inf"),
            "{en}"
        );
        // While it runs the loss may still come; once it failed, say so.
        assert!(empty_reason("job.loss", &cfg, &job("running", 20)).is_none());
        assert!(empty_reason("job.loss", &cfg, &job("failed", 20))
            .unwrap()
            .0
            .contains("ended before"));
    }
}
