//! `--server`, `--token` and `--lang`: the flags every client command shares (clap lives here,
//! in the command line, not in the client crate), turned into the client's [`Connection`].

use ds_studio_client::{Client, ClientError, Connection};
use ds_studio_shared::i18n::Lang;

/// `--server` / `--token` (or their environment variables), else the stored login.
#[derive(clap::Args, Debug, Clone)]
pub struct ServerArgs {
    /// Server URL (default: the one stored by `ds-studio login`).
    #[arg(long, env = "DS_STUDIO_SERVER", global = true)]
    pub server: Option<String>,
    /// API token (default: the one stored by `ds-studio login`).
    #[arg(long, env = "DS_STUDIO_TOKEN", global = true, hide_env_values = true)]
    pub token: Option<String>,
    /// Language of messages: the server's errors are asked for in it, and `--format json`
    /// prints every message in it, as one string.
    #[arg(long, default_value = "en", value_parser = ["en", "zh"], global = true)]
    pub lang: String,
}

impl ServerArgs {
    /// `--lang` as a [`Lang`].
    pub fn lang(&self) -> Lang {
        self.lang.parse().unwrap_or(Lang::En)
    }

    /// A client for the server and token given, else the stored login's (the client's one
    /// error type, as every client command returns it).
    #[allow(clippy::result_large_err)]
    pub fn client(&self) -> Result<Client, ClientError> {
        Client::connect(&Connection {
            server: self.server.clone(),
            token: self.token.clone(),
            lang: self.lang(),
        })
    }
}
