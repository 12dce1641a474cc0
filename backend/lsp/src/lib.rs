//! `ds-studio-lsp`, what `ds-studio lsp` runs: a language server (LSP 3.17 over stdio, `lsp-server`) for DeepSpeed configs
//! in any editor. For a JSON/hjson file that looks like a DeepSpeed config it publishes the
//! diagnostics `ds-studio validate` prints (cross-key rules, batch arithmetic, release and
//! launcher), offers their fixes as code actions, and answers hover and completion from the key
//! registry, in the user's language. The context comes from the nearest `ds-studio.toml` upward
//! from the file ([`context`]).
//!
//! One thread handles the messages in order; a check takes well under a millisecond on a
//! 300-line config, so each change is checked at once (no debounce, no stale results).
//!
//! No database, server, network or async runtime: it reads files and speaks stdio (`cargo
//! xtask test` bans sqlx, axum, reqwest, hyper and tokio from its tree).

pub mod bounded_read;
pub mod context;
mod features;
mod text;
pub mod transport;

use ds_studio_shared::document::Document;
use ds_studio_shared::i18n::Lang;
use ds_studio_shared::validate::validate_text;
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use std::collections::HashMap;
use std::path::PathBuf;

/// The language server's error: the protocol or the transport failed.
#[derive(Debug, thiserror::Error)]
pub enum LspError {
    #[error("LSP protocol: {0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    #[error("LSP transport: {0}")]
    Io(#[from] std::io::Error),
    #[error("LSP: the client went away")]
    Closed,
}

/// Serves on stdin/stdout until the client says `exit`.
pub fn run_stdio() -> Result<(), LspError> {
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!("ds-studio lsp: a language server speaking LSP on stdin/stdout, started by an editor (see the book, \"In your editor\": docs/src/using/editors.md); waiting for a client");
    }
    let (connection, io) = transport::stdio();
    let served = serve(connection);
    // A refused frame ends the reader first: its error says why, not the closed channel.
    io.join()?;
    served
}

/// The open documents.
#[derive(Default)]
struct Server {
    docs: HashMap<lsp::Uri, String>,
    /// The editor's language (`initialize`'s `locale`), unless `ds-studio.toml` says.
    locale: Lang,
}

pub fn serve(connection: Connection) -> Result<(), LspError> {
    let capabilities = lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(
            lsp::TextDocumentSyncKind::FULL,
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), ":".into()]),
            ..Default::default()
        }),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Simple(true)),
        ..Default::default()
    };
    let (id, init) = connection.initialize_start()?;
    connection.initialize_finish(
        id,
        serde_json::json!({
            "capabilities": capabilities,
            "serverInfo": {"name": "ds-studio", "version": env!("CARGO_PKG_VERSION")},
        }),
    )?;
    let locale = init
        .get("locale")
        .and_then(|l| l.as_str())
        .filter(|l| l.to_ascii_lowercase().starts_with("zh"))
        .map_or(Lang::En, |_| Lang::Zh);
    let mut server = Server {
        docs: HashMap::new(),
        locale,
    };
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                if connection.handle_shutdown(&req)? {
                    return Ok(());
                }
                let resp = server.request(req);
                connection
                    .sender
                    .send(Message::Response(resp))
                    .map_err(|_| LspError::Closed)?;
            }
            Message::Notification(n) => {
                for out in server.notification(n) {
                    connection
                        .sender
                        .send(Message::Notification(out))
                        .map_err(|_| LspError::Closed)?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// A `file://` URI's path (percent-decoded); none for other schemes.
fn file_path(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&rest[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// What a check of one document needs: its context, language, and whether it is a config.
struct Checked {
    doc: Document,
    diagnostics: Vec<ds_studio_shared::Diagnostic>,
    context: ds_studio_shared::Context,
    /// "DeepSpeed 0.18.4 · hf-trainer · 8 GPUs (from /repo/ds-studio.toml)", for the hover.
    judged: String,
    lang: Lang,
    is_config: bool,
}

impl Server {
    fn check(&self, uri: &lsp::Uri) -> Option<Checked> {
        let text = self.docs.get(uri)?;
        let path = file_path(uri);
        let found = context::find(path.as_deref());
        let lang = found.lang.unwrap_or(self.locale);
        let (doc, mut diagnostics) = validate_text(text, &found.context);
        let is_config = features::looks_like_config(uri.as_str(), &doc);
        // The context's problems first (one splice, not an insert at 0 per problem).
        let context_problems = found.problems.iter().map(|problem| {
            ds_studio_shared::Diagnostic::warning(
                "context",
                "",
                ds_studio_shared::i18n::Text::new(
                    format!("{problem}; that key keeps its default (the rest of the file counts)"),
                    format!("{problem}；该项按默认值处理（文件中其余设置仍然有效）"),
                ),
            )
        });
        diagnostics.splice(0..0, context_problems);
        let ctx = &found.context;
        let from = match &found.from {
            Some(f) => f.display().to_string(),
            None => match lang {
                Lang::Zh => format!("默认设置；可在上级目录放一个 {}", context::FILE_NAME),
                Lang::En => format!("defaults; put a {} above the file", context::FILE_NAME),
            },
        };
        let judged = format!(
            "DeepSpeed {} · {} · {} GPU ({from})",
            features::release_of(ctx),
            ctx.launcher.as_str(),
            ctx.world_size
        );
        Some(Checked {
            doc,
            diagnostics,
            context: found.context,
            judged,
            lang,
            is_config,
        })
    }

    fn publish(&self, uri: &lsp::Uri) -> Notification {
        let diagnostics = match self.check(uri) {
            Some(c) if c.is_config => features::diagnostics(&c.doc, &c.diagnostics, c.lang),
            _ => Vec::new(),
        };
        Notification::new(
            lsp::notification::PublishDiagnostics::METHOD.into(),
            lsp::PublishDiagnosticsParams {
                uri: uri.clone(),
                diagnostics,
                version: None,
            },
        )
    }

    fn notification(&mut self, n: Notification) -> Vec<Notification> {
        use lsp::notification::{
            DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
        };
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(n.params)
                else {
                    return Vec::new();
                };
                let uri = p.text_document.uri;
                self.docs.insert(uri.clone(), p.text_document.text);
                vec![self.publish(&uri)]
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(n.params)
                else {
                    return Vec::new();
                };
                let uri = p.text_document.uri;
                // Full sync: the last change holds the whole text.
                if let Some(change) = p.content_changes.into_iter().next_back() {
                    self.docs.insert(uri.clone(), change.text);
                }
                vec![self.publish(&uri)]
            }
            DidSaveTextDocument::METHOD => {
                // A saved ds-studio.toml changes the context of every open config.
                let saved = serde_json::from_value::<lsp::DidSaveTextDocumentParams>(n.params)
                    .map(|p| p.text_document.uri.as_str().ends_with(context::FILE_NAME))
                    .unwrap_or(false);
                if saved {
                    let uris: Vec<lsp::Uri> = self.docs.keys().cloned().collect();
                    uris.iter().map(|u| self.publish(u)).collect()
                } else {
                    Vec::new()
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(n.params) {
                    self.docs.remove(&p.text_document.uri);
                    // Its problems leave with it.
                    return vec![Notification::new(
                        lsp::notification::PublishDiagnostics::METHOD.into(),
                        lsp::PublishDiagnosticsParams {
                            uri: p.text_document.uri,
                            diagnostics: Vec::new(),
                            version: None,
                        },
                    )];
                }
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn request(&mut self, req: Request) -> Response {
        use lsp::request::{CodeActionRequest, Completion, HoverRequest};
        let id = req.id.clone();
        let result = match req.method.as_str() {
            HoverRequest::METHOD => serde_json::from_value::<lsp::HoverParams>(req.params)
                .map_err(|e| e.to_string())
                .map(|p| {
                    let pos = p.text_document_position_params;
                    self.check(&pos.text_document.uri)
                        .filter(|c| c.is_config)
                        .and_then(|c| {
                            let mut h = features::hover(&c.doc, pos.position, &c.context, c.lang)?;
                            if let lsp::HoverContents::Markup(m) = &mut h.contents {
                                m.value.push_str(&format!("\n\n---\n_{}_", c.judged));
                            }
                            Some(h)
                        })
                })
                .map(|h| serde_json::to_value(h).unwrap_or_default()),
            Completion::METHOD => serde_json::from_value::<lsp::CompletionParams>(req.params)
                .map_err(|e| e.to_string())
                .map(|p| {
                    let pos = p.text_document_position;
                    let items = self
                        .check(&pos.text_document.uri)
                        .filter(|c| c.is_config)
                        .map(|c| features::completion(&c.doc, pos.position, &c.context, c.lang))
                        .unwrap_or_default();
                    serde_json::to_value(items).unwrap_or_default()
                }),
            CodeActionRequest::METHOD => {
                serde_json::from_value::<lsp::CodeActionParams>(req.params)
                    .map_err(|e| e.to_string())
                    .map(|p| {
                        let actions = self
                            .check(&p.text_document.uri)
                            .filter(|c| c.is_config)
                            .map(|c| {
                                features::code_actions(
                                    &p.text_document.uri,
                                    &c.doc,
                                    &c.diagnostics,
                                    p.range,
                                    c.lang,
                                )
                            })
                            .unwrap_or_default();
                        serde_json::to_value(actions).unwrap_or_default()
                    })
            }
            other => {
                return Response::new_err(
                    id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("ds-studio lsp does not answer {other}"),
                )
            }
        };
        match result {
            Ok(v) => Response::new_ok(id, v),
            Err(e) => Response::new_err(
                id,
                lsp_server::ErrorCode::InvalidParams as i32,
                format!("{}: {e}", req.method),
            ),
        }
    }
}
