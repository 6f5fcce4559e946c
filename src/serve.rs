//! `chess5d serve`: the web GUI (the server is `chess5d-server`).

use crate::values::name_value;
use anyhow::Result;
use chess5d_server::{Config, ServeOptions};
use clap::Args;
use std::path::PathBuf;

const SERVE_AFTER_HELP: &str = "\
Prints 'listening on http://ADDR' once the socket is bound; stops cleanly on SIGINT/SIGTERM.
The request log goes to standard error (RUST_LOG sets its filter, default info). Without
--engine, one engine named chess5d runs `chess5d engine`. A config file holds lines
'addr = ...', 'db = ...', 'engine NAME = CMD', 'public = true', 'allowed-host = NAME',
'behind-proxy = true', 'rate-limit = N', 'limit NAME = N' (# starts a comment); flags win
over it. The limits (--limit NAME=N) and their defaults are listed in the server's API.md.";

/// `chess5d serve`.
#[derive(Debug, Args)]
#[command(after_help = SERVE_AFTER_HELP)]
pub struct ServeArgs {
    /// Where to listen [default: 127.0.0.1:8080, or 0.0.0.0:8080 with --public]; port 0 picks a
    /// free one.
    #[arg(long, value_name = "ADDR", value_parser = socket_addr)]
    pub addr: Option<String>,
    /// The SQLite file of saved games [default: chess5d-games.db].
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// An engine players can choose, run with `sh -c CMD` (`@internal`: the built-in engine in
    /// the server process); repeatable, the first is the default.
    #[arg(long = "engine", value_name = "NAME=CMD", value_parser = engine)]
    pub engines: Vec<String>,
    /// Read settings from this file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Serve beyond loopback: every game needs seats (games without seats become read-only).
    #[arg(long)]
    pub public: bool,
    /// A host name the server answers to (localhost and IP addresses always are); repeatable.
    #[arg(long = "allowed-host", value_name = "NAME")]
    pub allowed_hosts: Vec<String>,
    /// Behind a reverse proxy: trust its X-Forwarded-For/-Host/-Proto.
    #[arg(long)]
    pub behind_proxy: bool,
    /// State-changing requests per second per client address, or `off` [default: 20].
    #[arg(long, value_name = "N|off")]
    pub rate_limit: Option<String>,
    /// A limit of what one client, or all, may take (proof-budget, import-actions...; see
    /// the server's API.md); repeatable.
    #[arg(long = "limit", value_name = "NAME=N")]
    pub limits: Vec<String>,
}

/// `--addr`: a socket address (a bad one is a usage error, exit 2).
fn socket_addr(s: &str) -> Result<String, String> {
    s.parse::<std::net::SocketAddr>()
        .map(|_| s.to_string())
        .map_err(|_| format!("'{s}' is not an address like 127.0.0.1:8080"))
}

fn engine(s: &str) -> Result<String, String> {
    name_value(s)
        .map(|_| s.to_string())
        .map_err(|_| format!("expected NAME=CMD, got '{s}'"))
}

pub fn run(a: &ServeArgs) -> Result<()> {
    let options = ServeOptions {
        addr: a.addr.clone(),
        db: a.db.clone(),
        engines: a.engines.clone(),
        config: a.config.clone(),
        public: a.public,
        allowed_hosts: a.allowed_hosts.clone(),
        behind_proxy: a.behind_proxy,
        rate_limit: a.rate_limit.clone(),
        limits: a.limits.clone(),
    };
    let config = Config::from_options(&options).map_err(anyhow::Error::msg)?;
    chess5d_server::run(config).map_err(anyhow::Error::msg)
}
