//! The chess5d web GUI: an HTTP server with a JSON API, WebSocket live updates, games stored
//! in SQLite, and a browser page that draws the multiverse in SVG.
//!
//! [`serve_main`] is the `chess5d serve` command line. It prints
//! `listening on http://127.0.0.1:PORT` once the socket is bound, serves the page (embedded in
//! the binary) and the API (see `API.md` in this crate), and stops cleanly on SIGINT/SIGTERM.
//!
//! Engines are configured only on the command line or in a config file (`--engine NAME=CMD`,
//! `--config FILE`); a request can only pick one of those names. Each engine player of each
//! game gets its own process, started with `sh -c CMD` and driven over 5DUCI by
//! [`chess5d_protocol::EngineProcess`]. The command `@internal` runs the in-process
//! [`chess5d_engine::Engine`] on a blocking thread instead (no process; used by the tests).
//! Without any `--engine`, one engine named `chess5d` runs `<this executable> engine`.
//!
//! ```no_run
//! // Serve on a free port with a fresh database; blocks until SIGINT/SIGTERM.
//! let args: Vec<String> = ["--addr", "127.0.0.1:0", "--db", "/tmp/games.db"]
//!     .iter().map(|s| s.to_string()).collect();
//! chess5d_server::serve_main(&args).unwrap();
//! ```
#![deny(missing_docs)]

mod api;
mod clocks;
mod db;
mod driver;
mod engine;
mod puzzles;
mod session;
mod state;

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

pub use api::router;
pub use puzzles::forced_mate_in;
pub use state::AppState;

/// The usage of [`serve_main`].
pub const SERVE_USAGE: &str = "\
usage: chess5d serve [--addr 127.0.0.1:0] [--db PATH] [--engine NAME=CMD]... [--config FILE]

Starts the web GUI and prints 'listening on http://ADDR'. --db is the SQLite file of saved
games (default chess5d-games.db). --engine adds an engine players can choose, run with sh -c CMD
(the command @internal runs the built-in engine in the server process). --config reads lines
'addr = ...', 'db = ...', 'engine NAME = CMD' (# starts a comment).";

/// An error of the server: a bad request, a missing game, a conflict with the game's state, or
/// a failure inside the server. Every API error is answered as `{"error": "..."}` with the
/// matching status code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerError {
    /// 400: the request is malformed or asks for something illegal.
    BadRequest(String),
    /// 404: no such game, puzzle or page.
    NotFound(String),
    /// 409: the request does not fit the game's state (game over, engine's turn...).
    Conflict(String),
    /// 413: the request body is too large.
    TooLarge(String),
    /// 500: storage or engine failure.
    Internal(String),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::BadRequest(m)
            | ServerError::NotFound(m)
            | ServerError::Conflict(m)
            | ServerError::TooLarge(m)
            | ServerError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ServerError {}

impl From<rusqlite::Error> for ServerError {
    fn from(e: rusqlite::Error) -> Self {
        ServerError::Internal(format!("database error: {e}"))
    }
}

/// A configured engine: the name players pick and the command that starts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The name shown to users.
    pub name: String,
    /// The shell command (`sh -c`), or `@internal` for the in-process engine.
    pub command: String,
}

/// The server's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The SQLite database file.
    pub db: PathBuf,
    /// The engines players may choose, in order (the first is the default).
    pub engines: Vec<EngineConfig>,
}

impl Config {
    /// Reads the command line (the arguments after `serve`).
    pub fn from_args(args: &[String]) -> Result<Config, String> {
        let mut addr: Option<String> = None;
        let mut db: Option<String> = None;
        let mut engines = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let value = || {
                args.get(i + 1)
                    .cloned()
                    .ok_or_else(|| format!("{} needs a value\n{SERVE_USAGE}", args[i]))
            };
            match args[i].as_str() {
                "--addr" => addr = Some(value()?),
                "--db" => db = Some(value()?),
                "--engine" => engines.push(parse_engine(&value()?)?),
                "--config" => {
                    let path = value()?;
                    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
                    for (n, line) in text.lines().enumerate() {
                        let line = line.split('#').next().unwrap_or("").trim();
                        if line.is_empty() {
                            continue;
                        }
                        let err = || {
                            format!(
                                "{path}:{}: expected 'addr = ...', 'db = ...' or 'engine NAME = CMD'",
                                n + 1
                            )
                        };
                        let (key, val) = line.split_once('=').ok_or_else(err)?;
                        let (key, val) = (key.trim(), val.trim().to_string());
                        if key == "addr" {
                            addr.get_or_insert(val);
                        } else if key == "db" {
                            db.get_or_insert(val);
                        } else if let Some(name) = key.strip_prefix("engine ") {
                            engines.push(parse_engine(&format!("{}={val}", name.trim()))?);
                        } else {
                            return Err(err());
                        }
                    }
                }
                "-h" | "--help" => return Err(SERVE_USAGE.to_string()),
                other => return Err(format!("unknown argument '{other}'\n{SERVE_USAGE}")),
            }
            i += 2;
        }
        let addr = addr.unwrap_or_else(|| "127.0.0.1:8080".to_string());
        let addr: SocketAddr = addr
            .parse()
            .map_err(|_| format!("--addr: '{addr}' is not an address like 127.0.0.1:8080"))?;
        if engines.is_empty() {
            let exe = std::env::current_exe().map_err(|e| format!("cannot find the current executable: {e}"))?;
            engines.push(EngineConfig {
                name: "chess5d".to_string(),
                command: format!("'{}' engine", exe.display().to_string().replace('\'', "'\\''")),
            });
        }
        Ok(Config {
            addr,
            db: PathBuf::from(db.unwrap_or_else(|| "chess5d-games.db".to_string())),
            engines,
        })
    }
}

fn parse_engine(s: &str) -> Result<EngineConfig, String> {
    let (name, command) = s
        .split_once('=')
        .ok_or_else(|| format!("--engine wants NAME=CMD, got '{s}'"))?;
    let (name, command) = (name.trim(), command.trim());
    if name.is_empty() || command.is_empty() {
        return Err(format!("--engine wants NAME=CMD, got '{s}'"));
    }
    Ok(EngineConfig {
        name: name.to_string(),
        command: command.to_string(),
    })
}

/// The `chess5d serve ...` command line: reads the arguments, opens the database, serves until
/// SIGINT or SIGTERM, then closes the database.
pub fn serve_main(args: &[String]) -> Result<(), String> {
    let config = Config::from_args(args)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async move {
        let state = AppState::open(config.clone()).map_err(|e| e.to_string())?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        println!("listening on http://{addr}");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let app = router(state.clone());
        let stopper = state.clone();
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                shutdown_signal().await;
                stopper.begin_stop();
            })
            .await
            .map_err(|e| format!("server error: {e}"))?;
        state.shutdown();
        eprintln!("server stopped, database closed");
        Ok::<(), String>(())
    })?;
    rt.shutdown_timeout(std::time::Duration::from_secs(2));
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
