//! A job's failure explained: what happened, why, and a change to try, in the page's language
//! (`FailureReason::explain`, the texts `jobs show` prints too). Running out of memory has its
//! own card with the estimate and "make a version that fits" (`pages/job.rs`); this one says
//! every other reason: an NCCL timeout or error, fp16 at its smallest loss scale, a loss that
//! became NaN, a stalled job, a data loader, a missing module or DeepSpeed op.

use crate::i18n::{t, use_lang};
use ds_studio_shared::api::{FailureReason, Job, JobState};
use leptos::prelude::*;

#[component]
pub fn FailureCard(job: RwSignal<Option<Job>>) -> impl IntoView {
    let lang = use_lang();
    move || {
        let j = job.get()?;
        let r = j.reason.filter(|r| *r != FailureReason::OutOfMemory)?;
        let e = r.explain();
        // A job that ran to its end with a NaN loss is a warning, not a failure.
        let class = if j.state == JobState::Succeeded {
            "card warning"
        } else {
            "card error-card"
        };
        Some(view! {
            <div id="failure-reason" class=class role="alert" data-reason=r.code()>
                <strong>{move || e.title.get(lang.get()).to_string()}</strong>
                <p class="why">{let why = e.why.clone(); move || why.get(lang.get()).to_string()}</p>
                <p class="next">
                    <span class="label">{t("failure.try")}</span>
                    " "
                    {let next = e.next.clone(); move || next.get(lang.get()).to_string()}
                </p>
            </div>
        })
    }
}
