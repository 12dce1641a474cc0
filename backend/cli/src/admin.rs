//! Offline administration, straight on the database (no server needed): `migrate`,
//! `user add|passwd`, `token create`, `runner-token create|list|revoke`.

use super::db_args::DbArgs;
use ds_studio_client::runtime;
use ds_studio_server::secrets::hash_password;
use ds_studio_server::store::accounts::CredentialKind;
use ds_studio_server::store::{parse_rfc3339, Store};
use ds_studio_shared::api::Role;
use std::io::BufRead;

#[derive(clap::Args, Debug)]
pub struct MigrateArgs {
    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(clap::Subcommand, Debug)]
pub enum UserCommand {
    /// Create a user (and add them to a team).
    Add {
        name: String,
        #[arg(long)]
        display_name: Option<String>,
        /// Make the user a server administrator.
        #[arg(long)]
        admin: bool,
        /// Read the password from the first line of stdin (otherwise the user has none and
        /// signs in with a token until one is set).
        #[arg(long)]
        password_stdin: bool,
        /// Team to join (created when missing).
        #[arg(long, default_value = ds_studio_server::bootstrap::DEFAULT_TEAM)]
        team: String,
        #[arg(long, default_value = "editor", value_parser = ["viewer", "editor", "admin"])]
        role: String,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Set a user's password (read from the first line of stdin).
    Passwd {
        name: String,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Enable a user a server administrator disabled in the browser.
    Enable {
        name: String,
        #[command(flatten)]
        db: DbArgs,
    },
}

#[derive(clap::Subcommand, Debug)]
pub enum TokenCommand {
    /// Create a personal API token for a user and print it (shown once).
    Create {
        #[arg(long)]
        user: String,
        #[arg(long, default_value = "cli")]
        name: String,
        /// RFC 3339 expiry (default: never).
        #[arg(long)]
        expires_at: Option<String>,
        #[command(flatten)]
        db: DbArgs,
    },
}

#[derive(clap::Subcommand, Debug)]
pub enum RunnerTokenCommand {
    /// Create a runner token and print it (shown once). It works only on the runner routes,
    /// as the runner `--name`; with `--team` that runner takes only that team's jobs.
    Create {
        /// The runner name it registers as.
        #[arg(long)]
        name: String,
        /// Only this team's jobs (default: every team's).
        #[arg(long)]
        team: Option<String>,
        #[command(flatten)]
        db: DbArgs,
    },
    /// List runner tokens.
    List {
        #[command(flatten)]
        db: DbArgs,
    },
    /// Revoke a runner token by id.
    Revoke {
        id: i64,
        #[command(flatten)]
        db: DbArgs,
    },
}

fn read_password() -> Result<String, String> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| format!("cannot read the password from stdin: {e}"))?;
    let p = line.trim_end_matches(['\r', '\n']).to_string();
    if p.chars().count() < 8 {
        return Err("a password needs at least 8 characters".into());
    }
    Ok(p)
}

fn block<F: std::future::Future<Output = Result<(), String>>>(
    db: &DbArgs,
    f: impl FnOnce(Store) -> F,
) -> i32 {
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ds-studio: {e}");
            return 2;
        }
    };
    rt.block_on(async {
        let store = match db.open().await {
            Ok(s) => s,
            Err(e) => {
                eprintln!("ds-studio: {e}");
                return 2;
            }
        };
        let r = f(store.clone()).await;
        store.close().await;
        match r {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("ds-studio: {e}");
                1
            }
        }
    })
}

pub fn migrate(args: MigrateArgs) -> i32 {
    block(&args.db, |_| async {
        println!("migrations applied");
        Ok(())
    })
}

pub fn user(cmd: UserCommand) -> i32 {
    match cmd {
        UserCommand::Add {
            name,
            display_name,
            admin,
            password_stdin,
            team,
            role,
            db,
        } => {
            let password = if password_stdin {
                match read_password() {
                    Ok(p) => Some(p),
                    Err(e) => {
                        eprintln!("ds-studio: {e}");
                        return 2;
                    }
                }
            } else {
                None
            };
            block(&db, move |store| async move {
                let hash = password.map(|p| hash_password(&p));
                let display = display_name.unwrap_or_else(|| name.clone());
                let user = store
                    .create_user(&name, &display, hash.as_deref(), admin)
                    .await
                    .map_err(|e| e.to_string())?;
                let t = match store.team_by_name(&team).await {
                    Ok(t) => t,
                    Err(_) => store.create_team(&team).await.map_err(|e| e.to_string())?,
                };
                let role = Role::parse(&role).unwrap_or(Role::Editor);
                store
                    .put_member(t.id, user.id, role)
                    .await
                    .map_err(|e| e.to_string())?;
                println!(
                    "created user `{}` (id {}) as {} of team `{}`",
                    user.name,
                    user.id,
                    role.as_str(),
                    t.name
                );
                Ok(())
            })
        }
        UserCommand::Passwd { name, db } => {
            let password = match read_password() {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("ds-studio: {e}");
                    return 2;
                }
            };
            block(&db, move |store| async move {
                let (user, _) = store
                    .user_by_name(&name)
                    .await
                    .map_err(|_| format!("no user named `{name}`"))?;
                store
                    .update_user(user.id, None, Some(&hash_password(&password)), None)
                    .await
                    .map_err(|e| e.to_string())?;
                println!("password of `{name}` set");
                Ok(())
            })
        }
        UserCommand::Enable { name, db } => block(&db, move |store| async move {
            let (user, _) = store
                .user_by_name(&name)
                .await
                .map_err(|_| format!("no user named `{name}`"))?;
            store
                .set_disabled(user.id, false)
                .await
                .map_err(|e| e.to_string())?;
            println!("`{name}` is enabled");
            Ok(())
        }),
    }
}

pub fn token(cmd: TokenCommand) -> i32 {
    let TokenCommand::Create {
        user,
        name,
        expires_at,
        db,
    } = cmd;
    let expires = match expires_at.as_deref().map(parse_rfc3339) {
        Some(None) => {
            eprintln!("ds-studio: --expires-at is not an RFC 3339 time");
            return 2;
        }
        Some(Some(ms)) => Some(ms),
        None => None,
    };
    block(&db, move |store| async move {
        let (u, _) = store
            .user_by_name(&user)
            .await
            .map_err(|_| format!("no user named `{user}`"))?;
        let (token, _) = store
            .create_credential(u.id, CredentialKind::ApiToken, &name, expires)
            .await
            .map_err(|e| e.to_string())?;
        println!("{token}");
        Ok(())
    })
}

pub fn runner_token(cmd: RunnerTokenCommand) -> i32 {
    match cmd {
        RunnerTokenCommand::Create { name, team, db } => {
            if let Err(e) = ds_studio_shared::api::check_runner_name(&name) {
                eprintln!("ds-studio: --name: {e}");
                return 2;
            }
            if name == "local" {
                eprintln!("ds-studio: --name: `local` is the server's own runner; choose another");
                return 2;
            }
            block(&db, move |store| async move {
                let team_id = match &team {
                    Some(t) => Some(
                        store
                            .team_by_name(t)
                            .await
                            .map_err(|_| format!("no team named `{t}`"))?
                            .id,
                    ),
                    None => None,
                };
                let (token, _) = store
                    .create_runner_token(&name, team_id)
                    .await
                    .map_err(|e| e.to_string())?;
                println!("{token}");
                Ok(())
            })
        }
        RunnerTokenCommand::List { db } => block(&db, |store| async move {
            for t in store.runner_tokens().await.map_err(|e| e.to_string())? {
                println!(
                    "{}\t{}\t{}\t{}\t{}",
                    t.id,
                    t.runner,
                    t.team_id
                        .map(|t| t.to_string())
                        .unwrap_or_else(|| "all teams".into()),
                    t.prefix,
                    if t.revoked { "revoked" } else { "live" }
                );
            }
            Ok(())
        }),
        RunnerTokenCommand::Revoke { id, db } => block(&db, move |store| async move {
            store
                .revoke_runner_token(id)
                .await
                .map_err(|e| e.to_string())?;
            println!("runner token {id} revoked");
            Ok(())
        }),
    }
}
