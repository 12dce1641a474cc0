//! What `jobs show` adds for a job whose model the studio knows (a rehearsal of the user's
//! model, or the built-in workload): the model, the figures the workload measured (peak
//! memory per rank, samples/s, tokens/s, the model's TFLOP/s) and the memory estimate of the
//! config as it ran beside the measured peak.

use ds_studio_client::{Client, ClientError};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{Job, MetricSeries};
use ds_studio_shared::estimate::format_count;
use ds_studio_shared::memory::{estimate, human_bytes, setup_from_config};

/// The lines, or none for a script of the user's own.
pub async fn lines(client: &Client, j: &Job) -> Result<Vec<String>, ClientError> {
    let hf = j
        .facts
        .launcher
        .parse::<ds_studio_shared::validate::Launcher>()
        .is_ok_and(|l| l.fills_auto());
    let Some(model) = j.workload.model_spec(hf) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    if let Some(r) = j.workload.model.as_ref().and_then(|m| m.resolve().ok()) {
        let own = r.architecture.params().total();
        let trained = if model.trainable() < model.params {
            format!(
                ", {} trained (LoRA adapters)",
                format_count(model.trainable())
            )
        } else {
            String::new()
        };
        out.push(format!(
            "model {}: {} parameters{trained}, sequence {}",
            j.workload.label(),
            format_count(own),
            model.seq_len
        ));
    }
    let series: Vec<MetricSeries> = client
        .fetch(ep::JobMetrics::url([&j.id]).query("max_points", 3))
        .await?;
    let last = |name: &str| {
        series
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.points.last())
            .map(|p| p.1)
    };
    // The workload's own figures for the run (samples/s is the watch's closing line's).
    let mut measured = Vec::new();
    if let Some(v) = last("result/tokens_per_sec") {
        measured.push(format!("{v:.0} tokens/s"));
    }
    if let Some(v) = last("result/model_tflops") {
        measured.push(format!("{v:.3} model TFLOP/s"));
    }
    let peak_mb = last("result/peak_memory_mb");
    if let Some(v) = peak_mb {
        measured.push(format!(
            "peak {} per rank",
            human_bytes((v * 1048576.0) as u64)
        ));
    }
    if !measured.is_empty() {
        out.push(format!("measured {}", measured.join(", ")));
    }
    // The config as it ran: the fitted one where it was fitted, else the version's.
    let Ok(version) = client
        .fetch(ep::GetVersion::url([&j.template_id, &j.version]))
        .await
    else {
        return Ok(out);
    };
    let text = j
        .fit
        .as_ref()
        .map_or(version.config_text.clone(), |f| f.config_text.clone());
    let version_context = version.context;
    let ctx = j.context(&version_context);
    let doc = ds_studio_shared::Document::parse(&text);
    if let Ok(setup) = setup_from_config(&doc, &ctx, j.nodes) {
        let e = estimate(&model, &setup);
        let error = peak_mb
            .filter(|m| *m > 0.0)
            .map(|m| {
                let ratio = e.gpu_peak_bytes as f64 / 1048576.0 / m - 1.0;
                format!(
                    " ({:+.0}% of the measured peak{})",
                    ratio * 100.0,
                    if j.preflight.as_ref().is_some_and(|p| {
                        p.report
                            .as_deref()
                            .is_some_and(|r| r.contains("accelerator cpu"))
                    }) {
                        "; on a CPU runner the peak is the process's resident memory, which \
                         holds torch and Python besides the training"
                    } else {
                        ""
                    }
                )
            })
            .unwrap_or_default();
        out.push(format!(
            "estimate {} per rank at {}{error}",
            human_bytes(e.gpu_peak_bytes),
            e.phase.label().en
        ));
    }
    Ok(out)
}
