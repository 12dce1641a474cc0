//! The conflict panel of a save that met a newer head: what they changed, theirs merged into
//! the text with a choice per key both changed, or load theirs, or save mine as a fork.

use super::state::EditorState;
use crate::api;
use crate::clock::now_label;
use crate::i18n::t;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{ForkRequest, Version, VersionCreate};
use ds_studio_shared::merge::{Merge, Side};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;

#[component]
pub fn ConflictPanel(st: EditorState) -> impl IntoView {
    move || {
        st.conflict.get().map(|c| {
        let head_version = c.head.version;
        let head = c.head.clone();
        view! {
            <div id="conflict" class="card conflict" role="alert">
                <strong>{t("editor.conflict")}" (v"{head_version}")"</strong>
                <p>{t("editor.conflict_changes")}</p>
                <ul id="conflict-changes">
                    {c.diff.map(|d| d.changes.into_iter().map(|ch| view! {
                        <li><code>{ch.op}" "{ch.path}</code>" "
                            {ch.old.map(|v| v.to_string()).unwrap_or_default()}" → "
                            {ch.new.map(|v| v.to_string()).unwrap_or_default()}</li>
                    }).collect_view())}
                </ul>
                {match c.merge.clone() {
                    Err(why) => view! { <p class="muted" id="merge-unavailable">{t("merge.unavailable")}" "{why}</p> }.into_any(),
                    Ok(m) => view! { <MergeChoices st merge=m head=c.head.clone() /> }.into_any(),
                }}
                <button id="take-theirs" on:click=move |_| { st.load_version(head.clone()); st.conflict.set(None); }>{t("editor.take_theirs")}</button>
                <SaveAsFork st />
            </div>
        }
    })
    }
}

/// Theirs merged into the text: how many keys came over, a choice per key both changed, and
/// Apply (the merged text on their version: saving it makes the next version).
#[component]
fn MergeChoices(st: EditorState, merge: Merge, head: Version) -> impl IntoView {
    let choices = st.choices;
    let theirs_text = head.config_text.clone();
    let conflicts = merge.conflicts.clone();
    let n_conflicts = conflicts.len();
    let show = |v: &Option<serde_json::Value>| {
        v.as_ref()
            .map_or_else(|| t("merge.absent")().to_string(), |v| v.to_string())
    };
    let applied = merge.applied.len();
    view! {
        <div id="merge">
            <p id="merge-summary">{format!("{} {}", applied, t("merge.applied")())}
                {(n_conflicts > 0).then(|| format!(" · {}", t("merge.to_choose")().replace("{n}", &n_conflicts.to_string())))}</p>
            {(n_conflicts > 0).then(|| view! {
                <table id="merge-conflicts">
                    <thead><tr><th>{t("merge.key")}</th><th>{t("merge.base")}</th><th>{t("merge.theirs")}</th><th>{t("merge.mine")}</th></tr></thead>
                    <tbody>
                    {conflicts.iter().map(|c| {
                        let p = c.path.clone();
                        let (p1, p2, p3, p4) = (p.clone(), p.clone(), p.clone(), p.clone());
                        let pick = move |side| choices.update(|ch| { ch.retain(|(x, _)| *x != p1); ch.push((p1.clone(), side)); });
                        let pick2 = pick.clone();
                        let is = move |side| choices.with(|ch| ch.iter().any(|(x, s)| *x == p2 && *s == side));
                        view! {
                            <tr data-path=p3>
                                <td><code>{p4}</code></td>
                                <td><code>{show(&c.base)}</code></td>
                                <td><label><input type="radio" name=format!("merge-{}", c.path) class="take-theirs"
                                    prop:checked={ let is = is.clone(); move || is(Side::Theirs) }
                                    on:change=move |_| pick(Side::Theirs) />" "<code>{show(&c.theirs)}</code></label></td>
                                <td><label><input type="radio" name=format!("merge-{}", c.path) class="keep-mine"
                                    prop:checked=move || is(Side::Mine)
                                    on:change=move |_| pick2(Side::Mine) />" "<code>{show(&c.mine)}</code></label></td>
                            </tr>
                        }
                    }).collect_view()}
                    </tbody>
                </table>
            })}
            <button id="merge-apply" disabled=move || choices.with(Vec::len) < n_conflicts
                on:click=move |_| {
                    match ds_studio_shared::merge::resolve(&merge, &theirs_text, &choices.get_untracked()) {
                        Ok(merged) => {
                            // The merged text on their version: saving it makes the next version.
                            st.text.set(merged);
                            st.base.set(head.version);
                            st.saved_text.set(head.config_text.clone());
                            st.saved_context.set(head.context.clone());
                            st.conflict.set(None);
                            st.status.set(None);
                            st.merged_from.set(Some(head.version));
                        }
                        Err(e) => st.error.set(Some(e.to_string())),
                    }
                }>{t("merge.apply")}</button>
        </div>
    }
}

/// A new template from the version this text was based on, and the text saved on it: nothing
/// typed is lost, theirs stays.
#[component]
fn SaveAsFork(st: EditorState) -> impl IntoView {
    let navigate = use_navigate();
    let fork_made = t("editor.fork_made");
    view! {
        <button id="save-as-fork" on:click=move |_| {
            let tid = st.id();
            // A name of its own: a second fork of the same template must not collide.
            let name = st.template.get_untracked().map(|t| format!("{} ({})", t.name, now_label()));
            // Into this template's team, where the one saving is an editor.
            let req = ForkRequest { team_id: st.template.get_untracked().map(|t| t.team_id), name, version: Some(st.base.get_untracked()) };
            let body = st.text.get_untracked();
            let msg = st.message.get_untracked();
            let ctx = st.context.get_untracked();
            let navigate = navigate.clone();
            let error = st.error;
            spawn_local(async move {
                let fork = match api::call(ep::ForkTemplate::url([&tid]), &req).await {
                    Ok(f) => f,
                    Err(e) => return error.set(Some(e.message)),
                };
                let save = VersionCreate { config: None, config_text: Some(body), message: msg, base_version: fork.head_version, context: Some(ctx) };
                match api::call(ep::SaveVersion::url([&fork.id]), &save).await {
                    Ok(_) => navigate(&format!("/templates/{}", fork.id), Default::default()),
                    // The fork exists but holds their version: say so, the text stays here.
                    Err(e) => error.set(Some(format!("{} ({}: {})", e.message, fork_made(), fork.name))),
                }
            });
        }>{t("editor.save_as_fork")}</button>
    }
}
