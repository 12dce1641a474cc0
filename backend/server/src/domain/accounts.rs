//! Accounts' rules: how many password checks a user name may take, from one client address and
//! from all of them (sign-in and a password change count alike).

use super::DomainError;
use crate::limits::{LOGIN_NAME_WINDOW, LOGIN_PER_NAME, LOGIN_PER_NAME_AND_IP, LOGIN_WINDOW};
use crate::state::AppState;

/// The attempt-window scopes of password checks: per user name and client address, and per
/// user name across every address.
const SIGNIN_SCOPE: &str = "signin";
const SIGNIN_NAME_SCOPE: &str = "signin-name";

/// Counts a password check for user `name` (lowercase) from `ip`: at most
/// [`LOGIN_PER_NAME_AND_IP`] per name and address in [`LOGIN_WINDOW`], so guesses from one
/// address cannot lock the owner out from another, and at most [`LOGIN_PER_NAME`] per name
/// across all addresses in [`LOGIN_NAME_WINDOW`], the slower, larger budget that bounds a
/// guesser with many addresses. Each is counted in this replica's window first (bounded memory,
/// no database write for a flood), then in the database, where every replica counts the same.
pub async fn count_name_attempt(state: &AppState, name: &str, ip: &str) -> Result<(), DomainError> {
    let pair = format!("{name}\u{1f}{ip}");
    let limits = &state.limits;
    limits
        .login_name_ips
        .hit(&pair)
        .map_err(DomainError::TooManyAttempts)?;
    limits
        .login_names
        .hit(name)
        .map_err(DomainError::TooManyAttempts)?;
    state
        .store
        .count_attempt(
            SIGNIN_SCOPE,
            &pair,
            LOGIN_PER_NAME_AND_IP,
            LOGIN_WINDOW.as_millis() as i64,
        )
        .await?
        .map_err(DomainError::TooManyAttempts)?;
    state
        .store
        .count_attempt(
            SIGNIN_NAME_SCOPE,
            name,
            LOGIN_PER_NAME,
            LOGIN_NAME_WINDOW.as_millis() as i64,
        )
        .await?
        .map_err(DomainError::TooManyAttempts)
}

/// Forgets user `name`'s password checks from `ip` (the password was right there). The count
/// across addresses is kept: a guesser with many addresses cannot reset it.
pub async fn forget_name_attempts(state: &AppState, name: &str, ip: &str) {
    let pair = format!("{name}\u{1f}{ip}");
    state.limits.login_name_ips.reset(&pair);
    if let Err(e) = state.store.reset_attempts(SIGNIN_SCOPE, &pair).await {
        tracing::warn!(error = %e, "could not reset the sign-in attempts of a user");
    }
}
