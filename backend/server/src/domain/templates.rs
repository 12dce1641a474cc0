//! Templates' rules: what a name, a description and a message may hold, and forking a version
//! into a new template.

use super::config_check::check_config_blocking;
use super::DomainError;
use crate::state::AppState;
use crate::store::templates::NewTemplate;
use ds_studio_shared::api::Template;

/// Longest template description and version message, in characters.
pub const MAX_DESCRIPTION: usize = 4000;
pub const MAX_MESSAGE: usize = 1000;

pub fn check_length(what: &str, text: &str, max: usize) -> Result<(), DomainError> {
    if text.chars().count() > max {
        return Err(DomainError::Invalid(format!(
            "{what} is {} characters; the limit is {max}",
            text.chars().count()
        )));
    }
    Ok(())
}

pub fn check_template_name(name: &str) -> Result<(), DomainError> {
    // A long name is named by its start, not repeated in full.
    let shown = || {
        let s: String = if name.chars().count() > 40 {
            format!("{}…", name.chars().take(40).collect::<String>())
        } else {
            name.to_string()
        };
        s.escape_debug().to_string()
    };
    let why = if name.trim().is_empty() {
        "a template needs a name (not only spaces)".to_string()
    } else if name.chars().count() > 120 {
        format!(
            "template name `{}` has {} characters; at most 120",
            shown(),
            name.chars().count()
        )
    } else if name.contains('/') {
        format!(
            "template name `{}` contains `/`, which names cannot hold",
            shown()
        )
    } else if name.chars().any(char::is_control) {
        format!("template name `{}` contains a control character", shown())
    } else if let Some(c) = name
        .chars()
        .find(|c| ds_studio_shared::api::is_hidden_char(*c))
    {
        format!(
            "template name `{}` contains the invisible or bidirectional character U+{:04X}, which can make a name read differently from what it holds",
            shown(),
            c as u32
        )
    } else {
        return Ok(());
    };
    Err(DomainError::Invalid(why))
}

/// Version `n` of `t` as a new template in the caller's team (`req.team_id`, or their only
/// team), named as asked or `NAME (fork N)`, with its own history starting there and a record
/// of where it came from. Shared by `POST /templates/{id}/fork` and the share link's fork,
/// whose callers have checked they may read `t` and edit in `team_id`.
pub async fn fork_version(
    s: &AppState,
    user_id: i64,
    t: &Template,
    n: i64,
    team_id: i64,
    name: Option<String>,
) -> Result<Template, DomainError> {
    let id = t.id;
    let v = s.store.version(id, n).await?;
    let name = match name.map(|n| n.trim().to_string()) {
        Some(n) if !n.is_empty() => n,
        // No name given: the first free `NAME (fork N)` in the target team.
        _ => s.store.free_fork_name(team_id, &t.name).await?,
    };
    check_template_name(&name)?;
    let checked =
        check_config_blocking(s, None, Some(v.config_text.clone()), v.context.clone()).await?;
    let message = format!("forked from {}@{} (team {})", t.name, n, t.team_name);
    let new = s
        .store
        .create_template(NewTemplate {
            team_id,
            author_id: user_id,
            name: &name,
            description: &t.description,
            tags: &t.tags,
            message: &message,
            config: &checked,
        })
        .await?;
    Ok(s.store.set_fork_origin(new.id, t.id, n, &t.name).await?)
}
