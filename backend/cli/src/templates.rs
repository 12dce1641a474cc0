//! `ds-studio login` and `ds-studio templates list|show|pull|push|diff|share`: the CLI client of
//! a ds-studio server. Human output by default, `--format json` for scripts.

use crate::server_args::ServerArgs;
use ds_studio_client::{print_json, run, save_credentials, Client, ClientError, Credentials};
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::{
    Diff, Me, Page, ShareCreate, ShareCreated, Template, TemplateCreate, Version, VersionCreate,
    VersionSummary,
};
use serde_json::json;
use std::io::{BufRead, Write};

#[derive(clap::Args, Debug)]
pub struct LoginArgs {
    /// Server URL, e.g. http://studio.example:8080.
    #[arg(long)]
    pub server: String,
    /// An API token to store (check it and keep it).
    #[arg(long, conflicts_with = "username")]
    pub token: Option<String>,
    /// Sign in with this user's password (read from the first line of stdin) and create an
    /// API token for this machine.
    #[arg(long)]
    pub username: Option<String>,
}

#[derive(clap::Subcommand, Debug)]
pub enum TemplatesCommand {
    /// List templates (search by name or tag).
    List {
        #[arg(long)]
        query: Option<String>,
        #[arg(long)]
        tag: Option<String>,
        #[arg(long)]
        team_id: Option<i64>,
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Show a template and its versions.
    Show { id: i64 },
    /// Write a version's config exactly as saved (to stdout, or --output FILE).
    Pull {
        id: i64,
        /// Version number (default: the head).
        #[arg(long)]
        version: Option<i64>,
        #[arg(long, short)]
        output: Option<String>,
    },
    /// Save FILE as a new version of template --id (on --base, default the head), or create
    /// template --name with it.
    Push {
        file: String,
        #[arg(long, conflicts_with = "name", required_unless_present = "name")]
        id: Option<i64>,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        team_id: Option<i64>,
        /// The version your edit started from: if someone saved since, the push is refused.
        #[arg(long)]
        base: Option<i64>,
        #[arg(long, short, default_value = "")]
        message: String,
        /// Who launches it: deepspeed, hf-trainer or accelerate (jobs of the version run
        /// under it). Default: the base version's (a new template: deepspeed).
        #[arg(long)]
        launcher: Option<String>,
        /// The HF Trainer's (or Accelerate script's) arguments, e.g.
        /// `per_device_train_batch_size=4,learning_rate=2e-5,bf16=true`: they fill "auto".
        #[arg(long)]
        trainer_args: Option<String>,
    },
    /// Differences between two versions (also of two templates).
    Diff {
        id: i64,
        #[arg(long)]
        from: String,
        #[arg(long, default_value = "head")]
        to: String,
        #[arg(long)]
        to_template: Option<i64>,
    },
    /// Create a read-only link to a version.
    Share {
        id: i64,
        #[arg(long)]
        version: Option<i64>,
        /// RFC 3339 expiry (default: never).
        #[arg(long)]
        expires_at: Option<String>,
    },
}

#[derive(clap::Args, Debug)]
pub struct TemplatesArgs {
    #[command(subcommand)]
    pub command: TemplatesCommand,
    #[command(flatten)]
    pub server: ServerArgs,
    #[arg(long, default_value = "text", value_parser = ["text", "json"], global = true)]
    pub format: String,
}

/// Version `n` (a number or `head`) of template `id`.
pub(crate) async fn fetch_version(c: &Client, id: i64, n: &str) -> Result<Version, ClientError> {
    c.fetch(ep::GetVersion::url([&id, &n])).await
}

pub fn login(args: LoginArgs) -> i32 {
    run(async move {
        let token = match (&args.token, &args.username) {
            (Some(t), _) => t.clone(),
            (None, Some(user)) => {
                let mut line = String::new();
                std::io::stdin()
                    .lock()
                    .read_line(&mut line)
                    .map_err(|e| ClientError::Local(format!("cannot read the password: {e}")))?;
                let password = line.trim_end_matches(['\r', '\n']);
                ds_studio_client::token_from_password(&args.server, user, password).await?
            }
            (None, None) => {
                return Err(ClientError::Local(
                    "give --token T, or --username NAME with the password on stdin".into(),
                ))
            }
        };
        let client = Client::new(&args.server, Some(token.clone()));
        let me: Me = client.fetch(ep::GetMe::url([])).await?;
        let path = save_credentials(&Credentials {
            server: client.server.clone(),
            token,
        })?;
        println!(
            "signed in to {} as {}; credentials in {}",
            client.server,
            me.user.name,
            path.display()
        );
        Ok(())
    })
}

pub fn templates(args: TemplatesArgs) -> i32 {
    let json_out = args.format == "json";
    let lang = args.server.lang();
    ds_studio_client::run_as(json_out.then_some(lang), async move {
        let c = args.server.client()?;
        match args.command {
            TemplatesCommand::List {
                query,
                tag,
                team_id,
                limit,
            } => {
                let url = ep::ListTemplates::url([])
                    .query("limit", limit)
                    .query_opt("q", query)
                    .query_opt("tag", tag)
                    .query_opt("team_id", team_id);
                let page: Page<Template> = c.fetch(url).await?;
                if json_out {
                    print_json(&page, lang);
                } else {
                    println!(
                        "{:>5}  {:<32} {:<12} {:>4}  {:<9} UPDATED",
                        "ID", "NAME", "TEAM", "HEAD", "VERDICT"
                    );
                    for t in &page.items {
                        println!(
                            "{:>5}  {:<32} {:<12} {:>4}  {:<9} {}",
                            t.id,
                            t.name,
                            t.team_name,
                            t.head_version,
                            t.head_verdict.as_str(),
                            t.updated_at
                        );
                    }
                    if page.total > page.items.len() as i64 {
                        println!("({} of {}; use --limit)", page.items.len(), page.total);
                    }
                }
            }
            TemplatesCommand::Show { id } => {
                let t: Template = c.fetch(ep::GetTemplate::url([&id])).await?;
                let v: Page<VersionSummary> = c
                    .fetch(ep::ListVersions::url([&id]).query("limit", 200))
                    .await?;
                print_template(&t, &v.items, json_out, lang);
            }
            TemplatesCommand::Pull {
                id,
                version,
                output,
            } => {
                let n = version
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "head".into());
                let v = fetch_version(&c, id, &n).await?;
                match output {
                    Some(path) => {
                        std::fs::write(&path, &v.config_text)
                            .map_err(|e| ClientError::Local(format!("cannot write {path}: {e}")))?;
                        if json_out {
                            print_json(
                                &json!({"file": path, "template_id": id, "version": v.version}),
                                lang,
                            );
                        } else {
                            eprintln!("wrote {} ({}@{})", path, v.template_name, v.version);
                        }
                    }
                    None => {
                        let mut out = std::io::stdout().lock();
                        let _ = out.write_all(v.config_text.as_bytes());
                    }
                }
            }
            TemplatesCommand::Push {
                file,
                id,
                name,
                team_id,
                base,
                message,
                launcher,
                trainer_args,
            } => {
                let text = crate::input::read_input(&file)
                    .map_err(|e| ClientError::Local(format!("cannot read {file}: {e}")))?;
                let context = push_context(launcher.as_deref(), trainer_args.as_deref())
                    .map_err(ClientError::Local)?;
                let (what, saved, diags, verdict) = match (id, name) {
                    (Some(id), _) => {
                        let base = match base {
                            Some(b) => b,
                            None => {
                                let t: Template = c.fetch(ep::GetTemplate::url([&id])).await?;
                                t.head_version
                            }
                        };
                        let mut body = VersionCreate {
                            config: None,
                            config_text: Some(text),
                            message,
                            base_version: base,
                            context: None,
                        };
                        if let Some(ctx) = &context {
                            // The base version's context, with what was given changed.
                            let v: Version = c.fetch(ep::GetVersion::url([&id, &base])).await?;
                            body.context = Some(merge_context(v.context, ctx));
                        }
                        let v: Version = c
                            .call(ep::SaveVersion::url([&id]), &body)
                            .await
                            .map_err(|e| conflict_hint(e, id))?;
                        (
                            format!("{}@{}", v.template_name, v.version),
                            (id, v.template_name.clone(), v.version),
                            v.diagnostics,
                            v.verdict,
                        )
                    }
                    (None, Some(name)) => {
                        let body = TemplateCreate {
                            name,
                            description: None,
                            tags: None,
                            team_id,
                            config: None,
                            config_text: Some(text),
                            message: (!message.is_empty()).then_some(message),
                            context: context.as_ref().map(|ctx| {
                                merge_context(ds_studio_shared::Context::default(), ctx)
                            }),
                        };
                        let t: Template = c.call(ep::CreateTemplate::url([]), &body).await?;
                        let v: Version = c.fetch(ep::GetVersion::url([&t.id, &1])).await?;
                        (
                            format!("{}@1 (id {})", t.name, t.id),
                            (t.id, t.name.clone(), 1),
                            v.diagnostics,
                            v.verdict,
                        )
                    }
                    (None, None) => unreachable!("clap requires --id or --name"),
                };
                print_saved(&what, saved, &diags, verdict, json_out, lang);
            }
            TemplatesCommand::Diff {
                id,
                from,
                to,
                to_template,
            } => {
                let url = ep::DiffVersions::url([&id])
                    .query("from", from)
                    .query("to", to)
                    .query_opt("to_template", to_template);
                let d: Diff = c.fetch(url).await?;
                if json_out {
                    print_json(&d, lang);
                } else {
                    print_diff(&d, lang);
                }
            }
            TemplatesCommand::Share {
                id,
                version,
                expires_at,
            } => {
                let body = ShareCreate {
                    version,
                    expires_at,
                };
                let s: ShareCreated = c.call(ep::CreateShare::url([&id]), &body).await?;
                if json_out {
                    print_json(&s, lang);
                } else {
                    println!("{}", s.url);
                    eprintln!(
                        "read-only link to version {}{}; revoke with DELETE /api/v1/templates/{id}/shares/{}",
                        s.share.version,
                        s.share.expires_at.as_deref().map(|e| format!(", expires {e}")).unwrap_or_default(),
                        s.share.id
                    );
                }
            }
        }
        Ok(())
    })
}

/// A template and its versions, as a table or as JSON.
fn print_template(
    t: &Template,
    versions: &[VersionSummary],
    json_out: bool,
    lang: ds_studio_shared::i18n::Lang,
) {
    if json_out {
        print_json(&json!({"template": t, "versions": versions}), lang);
    } else {
        println!("{} (id {}, team {})", t.name, t.id, t.team_name);
        if !t.description.is_empty() {
            println!("  {}", t.description);
        }
        if !t.tags.is_empty() {
            println!("  tags: {}", t.tags.join(", "));
        }
        println!(
            "  {:<5} {:<9} {:>6} {:>8}  {:<25} {:<16} MESSAGE",
            "VER", "VERDICT", "ERRORS", "WARNINGS", "CREATED", "AUTHOR"
        );
        for s in versions {
            println!(
                "  {:<5} {:<9} {:>6} {:>8}  {:<25} {:<16} {}",
                s.version,
                s.verdict.as_str(),
                s.errors,
                s.warnings,
                s.created_at,
                s.author,
                s.message
            );
        }
    }
}

/// What `templates push` saved, as the user reads it or as JSON (ids as numbers, the
/// diagnostics as `ds-studio validate` prints them).
fn print_saved(
    what: &str,
    saved: (i64, String, i64),
    diags: &[ds_studio_shared::Diagnostic],
    verdict: ds_studio_shared::validate::Verdict,
    json_out: bool,
    lang: ds_studio_shared::i18n::Lang,
) {
    if json_out {
        // Ids as numbers, and the diagnostics as `ds-studio validate` prints them.
        let (template_id, name, version) = saved;
        let diagnostics: Vec<_> = diags
            .iter()
            .map(|d| super::validate::diagnostic_json(d, lang))
            .collect();
        print_json(
            &json!({
                "template_id": template_id,
                "name": name,
                "version": version,
                "verdict": verdict,
                "diagnostics": diagnostics,
            }),
            lang,
        );
    } else {
        println!(
            "saved {what}: {} ({} diagnostics)",
            verdict.as_str(),
            diags.len()
        );
        for d in diags {
            println!(
                "  {}[{}] {}: {}",
                d.severity.as_str(),
                d.code,
                d.path,
                d.message.get(lang)
            );
        }
    }
}

fn conflict_hint(e: ClientError, id: i64) -> ClientError {
    match e {
        ClientError::Api { code, message, status, details } if code == "version_conflict" => {
            ClientError::Api {
                message: format!(
                    "{message}\n  see what changed: ds-studio templates diff {id} --from <your base> --to head"
                ),
                code,
                status,
                details,
            }
        }
        other => other,
    }
}

fn print_diff(d: &Diff, lang: ds_studio_shared::i18n::Lang) {
    println!(
        "{}@{} -> {}@{}: {} change(s)",
        d.from.template_name,
        d.from.version,
        d.to.template_name,
        d.to.version,
        d.changes.len()
    );
    for c in &d.changes {
        let show =
            |v: &Option<serde_json::Value>| v.as_ref().map(|v| v.to_string()).unwrap_or_default();
        match c.op.as_str() {
            "add" => println!("  + {} = {}", c.path, show(&c.new)),
            "remove" => println!("  - {} (was {})", c.path, show(&c.old)),
            _ => println!("  ~ {}: {} -> {}", c.path, show(&c.old), show(&c.new)),
        }
    }
    for d in &d.diagnostics_introduced {
        println!(
            "  introduced {}[{}] {}: {}",
            d.severity.as_str(),
            d.code,
            d.path,
            d.message.get(lang)
        );
    }
    for d in &d.diagnostics_resolved {
        println!(
            "  resolved   {}[{}] {}: {}",
            d.severity.as_str(),
            d.code,
            d.path,
            d.message.get(lang)
        );
    }
    if !d.text_diff.is_empty() {
        println!();
        print!("{}", d.text_diff);
    }
}

/// What `templates push --launcher/--trainer-args` asks to change in a version's context.
struct PushContext {
    launcher: Option<ds_studio_shared::validate::Launcher>,
    trainer: Option<ds_studio_shared::launcher::TrainerArgs>,
}

fn push_context(
    launcher: Option<&str>,
    trainer: Option<&str>,
) -> Result<Option<PushContext>, String> {
    if launcher.is_none() && trainer.is_none() {
        return Ok(None);
    }
    let launcher = launcher.map(str::parse).transpose()?;
    let trainer = trainer
        .map(ds_studio_shared::launcher::TrainerArgs::parse_pairs)
        .transpose()
        .map_err(|e| format!("--trainer-args: {}", e.0))?;
    Ok(Some(PushContext { launcher, trainer }))
}

/// `base` with the pushed launcher and trainer arguments; trainer arguments alone imply the HF
/// Trainer when the base uses the plain launcher.
fn merge_context(
    mut base: ds_studio_shared::Context,
    push: &PushContext,
) -> ds_studio_shared::Context {
    if let Some(l) = push.launcher {
        base.launcher = l;
    } else if push.trainer.is_some() && !base.launcher.fills_auto() {
        base.launcher = ds_studio_shared::validate::Launcher::HfTrainer;
    }
    if let Some(t) = &push.trainer {
        base.trainer = Some(t.clone());
    }
    base
}
