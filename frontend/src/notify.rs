//! Desktop notifications when a watched job ends: opt-in (the browser asks for permission the
//! first time), remembered in `localStorage` (`ds-studio.notify`), shown by the job page when
//! the job it follows goes from live to ended. [`ending_line`] is the text, tested natively.

use ds_studio_shared::api::{Job, RunSummary};

#[cfg(target_arch = "wasm32")]
const KEY: &str = "ds-studio.notify";

/// The notification for a job that ended: title and body (`final loss 2.3100 · 3 min 5 s`).
pub fn ending_line(job: &Job, summary: &RunSummary, duration: &str) -> (String, String) {
    let title = if job.name.is_empty() {
        format!("Job {} {}", job.id, job.state.as_str())
    } else {
        format!("Job {} “{}” {}", job.id, job.name, job.state.as_str())
    };
    let mut parts = vec![format!("{}@{}", job.template_name, job.version)];
    if let Some(l) = summary.final_loss {
        parts.push(format!("final loss {l:.4}"));
    }
    parts.push(duration.to_string());
    if let Some(m) = job
        .message
        .as_deref()
        .filter(|_| job.state.as_str() != "succeeded")
    {
        parts.push(m.chars().take(120).collect());
    }
    (title, parts.join(" · "))
}

/// Whether the user asked for notifications (and the browser still allows them).
pub fn wanted() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        let stored = web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .is_some_and(|v| v == "on");
        stored && web_sys::Notification::permission() == web_sys::NotificationPermission::Granted
    }
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// Turns notifications on (asking the browser's permission) or off; answers the outcome
/// through `done` (`Err` says why they are off).
pub fn set_wanted(on: bool, done: impl FnOnce(Result<bool, String>) + 'static) {
    #[cfg(target_arch = "wasm32")]
    {
        let store = |v: &str| {
            if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
                let _ = s.set_item(KEY, v);
            }
        };
        if !on {
            store("off");
            done(Ok(false));
            return;
        }
        leptos::task::spawn_local(async move {
            let granted = match web_sys::Notification::request_permission() {
                Ok(p) => wasm_bindgen_futures::JsFuture::from(p)
                    .await
                    .ok()
                    .and_then(|v| v.as_string())
                    .is_some_and(|v| v == "granted"),
                Err(_) => false,
            };
            if granted {
                store("on");
                done(Ok(true));
            } else {
                store("off");
                done(Err(
                    "the browser does not allow notifications for this site".into(),
                ));
            }
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = on;
        done(Err("notifications need a browser".into()));
    }
}

/// Shows a desktop notification.
pub fn show(title: &str, body: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        let opts = web_sys::NotificationOptions::new();
        opts.set_body(body);
        opts.set_tag("ds-studio-job");
        let _ = web_sys::Notification::new_with_options(title, &opts);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (title, body);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notification_says_how_it_ended() {
        let mut j: Job = serde_json::from_value(serde_json::json!({
            "id": 7, "template_id": 1, "template_name": "llama", "team_id": 1, "version": 3,
            "state": "succeeded", "workload": {"builtin": "gpt"}, "gpus": 1, "nodes": 1,
            "max_steps": 20, "created_by": "a", "created_at": "x", "last_seq": 0
        }))
        .unwrap();
        let s = RunSummary {
            final_loss: Some(2.31),
            ..Default::default()
        };
        assert_eq!(
            ending_line(&j, &s, "3 min 5 s"),
            (
                "Job 7 succeeded".into(),
                "llama@3 · final loss 2.3100 · 3 min 5 s".into()
            )
        );
        j.name = "baseline".into();
        j.state = ds_studio_shared::api::JobState::Failed;
        j.message = Some("exit code 1".into());
        let (title, body) = ending_line(&j, &RunSummary::default(), "12 s");
        assert_eq!(title, "Job 7 “baseline” failed");
        assert_eq!(body, "llama@3 · 12 s · exit code 1");
    }
}
