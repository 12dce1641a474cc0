//! Which team a new template (or a fork) goes to: the teams where the signed-in user may create
//! templates (editor or administrator; every team for a server administrator). With one such
//! team nothing is shown and that team is used; with several, a select, so that someone in two
//! teams is not refused with "give team_id". Also [`role_in`], the caller's role in a team, which
//! the editor and the template details ask to show only what the role allows, and
//! [`may_write`], which every page with write buttons asks.

use crate::i18n::t;
use crate::session::Session;
use ds_studio_shared::api::{Me, Role, Team};
use leptos::prelude::*;

/// `me`'s role in team `team_id` (a server administrator acts as every team's admin).
pub fn role_in(me: &Me, team_id: i64) -> Option<Role> {
    if me.user.is_admin {
        return Some(Role::Admin);
    }
    me.teams
        .iter()
        .find(|t| t.id == team_id)
        .and_then(|t| t.role)
}

/// Whether the signed-in user may write (editor or administrator) in the team `team` names:
/// what decides whether a page offers its write buttons at all (Run again, Cancel, Start sweep,
/// Save the best, a job's labels). The server refuses them anyway; a viewer is not offered
/// what only fails after the click.
pub fn may_write(team: impl Fn() -> Option<i64> + Send + Sync + 'static) -> Signal<bool> {
    let session = expect_context::<Session>();
    Signal::derive(move || {
        let Some(team) = team() else {
            return false;
        };
        session
            .0
            .with(|m| m.as_ref().and_then(|m| role_in(m, team)))
            .is_some_and(|r| r >= Role::Editor)
    })
}

/// The teams `me` may create templates in.
pub fn writable_teams(me: &Me) -> Vec<Team> {
    me.teams
        .iter()
        .filter(|t| me.user.is_admin || t.role.is_some_and(|r| r >= Role::Editor))
        .cloned()
        .collect()
}

/// A select of the writable teams, writing `chosen` (kept on the first one until changed);
/// nothing at all with one team or none.
#[component]
pub fn TeamPick(chosen: RwSignal<Option<i64>>, id: &'static str) -> impl IntoView {
    let session = expect_context::<Session>();
    let teams = Memo::new(move |_| {
        session
            .0
            .with(|m| m.as_ref().map(writable_teams).unwrap_or_default())
    });
    Effect::new(move |_| {
        let list = teams.get();
        let current = chosen.get_untracked();
        if current.is_none_or(|c| !list.iter().any(|t| t.id == c)) {
            chosen.set(list.first().map(|t| t.id));
        }
    });
    move || {
        let list = teams.get();
        (list.len() > 1).then(|| {
            view! {
                <label class="inline">{t("templates.in_team")}
                    <select id=id on:change=move |ev| chosen.set(event_target_value(&ev).parse().ok())>
                        {list.into_iter().map(|tm| {
                            let selected = chosen.get_untracked() == Some(tm.id);
                            view! { <option value=tm.id.to_string() selected=selected>{tm.name}</option> }
                        }).collect_view()}
                    </select>
                </label>
            }
        })
    }
}
