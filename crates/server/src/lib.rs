//! The chess5d web GUI: an HTTP server with a JSON API, WebSocket live updates, games stored
//! in SQLite, and a browser page that draws the multiverse in SVG.
//!
//! [`run`] is what `chess5d serve` runs once [`ServeOptions`] become a [`Config`]. It prints
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
//! The modules are layers that import only downward (each one's doc comment names its layer):
//! **storage** (`db`: the SQLite file, its schema steps, the group-commit writer) at the bottom;
//! the game **domain** above it (`session`, `seats`, `clocks`, `engine`, `driver`, `create`,
//! `puzzles`, `analysis`, and `state`, the server's state), which knows nothing of HTTP; the
//! **HTTP** layer on top (`extract`, `security`, `analysis_api`, `puzzle_maker`, `api`). `sync`
//! (a lock, blocking work) serves them all.
//!
//! ```no_run
//! // Serve on a free port with a fresh database; blocks until SIGINT/SIGTERM.
//! use chess5d_server::{Config, ServeOptions};
//! let options = ServeOptions {
//!     addr: Some("127.0.0.1:0".into()),
//!     db: Some("/tmp/games.db".into()),
//!     ..ServeOptions::default()
//! };
//! chess5d_server::run(Config::from_options(&options).unwrap()).unwrap();
//! ```
#![deny(missing_docs)]

mod analysis;
mod analysis_api;
mod api;
mod clocks;
mod create;
mod db;
mod driver;
mod engine;
mod extract;
mod puzzle_maker;
mod puzzles;
mod seats;
mod security;
mod session;
mod state;
mod sync;

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

pub use api::router;

pub use puzzles::forced_mate_in;
pub use seats::TOKEN_HEADER;
pub use state::AppState;

/// An error of the server: a bad request, a missing game, a conflict with the game's state, or
/// a failure inside the server. Every API error is answered as `{"error": "..."}` with the
/// matching status code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerError {
    /// 400: the request is malformed or asks for something illegal.
    BadRequest(String),
    /// 403: the request lacks the seat (or the right) for this change.
    Forbidden(String),
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
            | ServerError::Forbidden(m)
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
    /// Serve beyond loopback (`--public`): games without seats are read-only.
    pub public: bool,
    /// Host names served besides `localhost` and IP addresses (`--allowed-host`).
    pub allowed_hosts: Vec<String>,
    /// Behind a reverse proxy (`--behind-proxy`): take the client's address from the last
    /// `X-Forwarded-For` entry and the host from `X-Forwarded-Host`.
    pub behind_proxy: bool,
    /// State-changing requests per second and client address (`--rate-limit N`, `off` = none);
    /// creating games and challenges gets a tenth of it.
    pub rate_limit: Option<u32>,
    /// Time to answer a request (reading its body included) before a 408: 30 s.
    pub request_timeout: std::time::Duration,
    /// Time for a connection to send its first request's headers (HTTP/1.1: every request's),
    /// before it is closed: 5 s.
    pub header_timeout: std::time::Duration,
    /// A game nobody has asked for during this long (and that nobody watches, no engine
    /// thinks about, no clock runs for) leaves memory; the database keeps it: 10 minutes.
    pub idle_unload: std::time::Duration,
}

impl Default for Config {
    /// Loopback on port 8080, `chess5d-games.db`, no engine, 20 requests per second.
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("chess5d-games.db"),
            engines: Vec::new(),
            public: false,
            allowed_hosts: Vec::new(),
            behind_proxy: false,
            rate_limit: Some(20),
            request_timeout: security::REQUEST_TIMEOUT,
            header_timeout: security::HEADER_TIMEOUT,
            idle_unload: std::time::Duration::from_secs(600),
        }
    }
}

/// What `chess5d serve` was asked for, before it becomes a [`Config`]: the flags (which the
/// binary's command line fills) and an optional config file whose lines fill what the flags
/// leave unset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServeOptions {
    /// `--addr`: where to listen (default 127.0.0.1:8080, or 0.0.0.0:8080 with `public`).
    pub addr: Option<String>,
    /// `--db`: the SQLite file (default `chess5d-games.db`).
    pub db: Option<PathBuf>,
    /// `--engine NAME=CMD`, in order.
    pub engines: Vec<String>,
    /// `--config FILE`: lines `addr = ...`, `db = ...`, `engine NAME = CMD`, `public = true`,
    /// `allowed-host = NAME`, `behind-proxy = true`, `rate-limit = N` (`#` starts a comment).
    pub config: Option<PathBuf>,
    /// `--public`.
    pub public: bool,
    /// `--allowed-host NAME`, in order.
    pub allowed_hosts: Vec<String>,
    /// `--behind-proxy`.
    pub behind_proxy: bool,
    /// `--rate-limit N|off`.
    pub rate_limit: Option<String>,
}

impl Config {
    /// The configuration these options describe (reading the config file, if any). Without an
    /// engine, one named `chess5d` runs `<this executable> engine`.
    pub fn from_options(o: &ServeOptions) -> Result<Config, String> {
        let mut addr = o.addr.clone();
        let mut db = o.db.clone();
        let mut engines = o
            .engines
            .iter()
            .map(|e| parse_engine(e))
            .collect::<Result<Vec<_>, _>>()?;
        let mut public = o.public;
        let mut behind_proxy = o.behind_proxy;
        let mut allowed_hosts = o
            .allowed_hosts
            .iter()
            .map(|h| parse_host(h))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rate = o.rate_limit.clone();
        if let Some(file) = &o.config {
            let path = file.display().to_string();
            let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {path}: {e}"))?;
            for (n, line) in text.lines().enumerate() {
                let line = line.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                let err = || {
                    format!(
                        "{path}:{}: expected 'addr = ...', 'db = ...', 'engine NAME = CMD', 'public = true', \
                         'behind-proxy = true', 'allowed-host = NAME' or 'rate-limit = N'",
                        n + 1
                    )
                };
                let (key, val) = line.split_once('=').ok_or_else(err)?;
                let (key, val) = (key.trim(), val.trim().to_string());
                if key == "addr" {
                    addr.get_or_insert(val);
                } else if key == "db" {
                    db.get_or_insert(PathBuf::from(val));
                } else if key == "public" || key == "behind-proxy" {
                    let on = match val.as_str() {
                        "true" | "yes" | "on" => true,
                        "false" | "no" | "off" => false,
                        _ => return Err(format!("{path}:{}: {key} is true or false", n + 1)),
                    };
                    if key == "public" {
                        public |= on;
                    } else {
                        behind_proxy |= on;
                    }
                } else if key == "allowed-host" {
                    allowed_hosts.push(parse_host(&val).map_err(|e| format!("{path}:{}: {e}", n + 1))?);
                } else if key == "rate-limit" {
                    rate.get_or_insert(val);
                } else if let Some(name) = key.strip_prefix("engine ") {
                    engines.push(parse_engine(&format!("{}={val}", name.trim()))?);
                } else {
                    return Err(err());
                }
            }
        }
        let addr = addr.unwrap_or_else(|| if public { "0.0.0.0:8080" } else { "127.0.0.1:8080" }.to_string());
        let addr: SocketAddr = addr
            .parse()
            .map_err(|_| format!("--addr: '{addr}' is not an address like 127.0.0.1:8080"))?;
        if !public && !addr.ip().is_loopback() {
            return Err(format!(
                "--addr {addr} is beyond loopback: add --public to serve other machines (then every game needs seats)"
            ));
        }
        let rate_limit = match rate.as_deref() {
            None => Config::default().rate_limit,
            Some("off") => None,
            Some(n) => Some(
                n.parse::<u32>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--rate-limit: '{n}' is not a positive number or 'off'"))?,
            ),
        };
        if engines.is_empty() {
            let exe = std::env::current_exe().map_err(|e| format!("cannot find the current executable: {e}"))?;
            engines.push(EngineConfig {
                name: "chess5d".to_string(),
                command: format!("'{}' engine", exe.display().to_string().replace('\'', "'\\''")),
            });
        }
        Ok(Config {
            addr,
            db: db.unwrap_or_else(|| PathBuf::from("chess5d-games.db")),
            engines,
            public,
            allowed_hosts,
            behind_proxy,
            rate_limit,
            ..Config::default()
        })
    }
}

fn parse_host(s: &str) -> Result<String, String> {
    let h = s.trim().to_ascii_lowercase();
    if h.is_empty() || !h.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-') {
        return Err(format!(
            "--allowed-host wants a host name like chess.example.org, got '{s}'"
        ));
    }
    Ok(h)
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

/// `chess5d serve`: opens the database, prints `listening on http://ADDR`, serves until SIGINT
/// or SIGTERM, then closes the database. The request log goes to stderr (`RUST_LOG` sets its
/// filter, default `info`).
pub fn run(config: Config) -> Result<(), String> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .try_init();
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
        serve(listener, state.clone(), shutdown_signal()).await;
        state.shutdown();
        eprintln!("server stopped, database closed");
        Ok::<(), String>(())
    })?;
    rt.shutdown_timeout(std::time::Duration::from_secs(2));
    Ok(())
}

/// Serves the API on `listener` until `stop` completes, then lets open requests finish (at most
/// 5 s). Each connection must send its request headers within 5 s, the request is answered
/// within 30 s, and the client's address is known to the rate limits.
pub async fn serve(listener: tokio::net::TcpListener, state: AppState, stop: impl std::future::Future<Output = ()>) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use hyper_util::server::conn::auto::Builder;
    use tower::ServiceExt;
    let app = router(state.clone());
    let header_timeout = state.inner.config.header_timeout;
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_buf_size(64 * 1024);
    // HTTP/2 has no header timeout of its own: a connection whose first request has not come
    // within the header timeout is closed below, and pings end connections that went silent.
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(64 * 1024)
        .keep_alive_interval(Some(std::time::Duration::from_secs(20)))
        .keep_alive_timeout(std::time::Duration::from_secs(20));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) => {
                    // Out of file descriptors and the like: wait and go on.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        // Set when the connection's first request has arrived (its headers read).
        let started = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = std::sync::Arc::clone(&started);
        let svc = app
            .clone()
            .map_request(move |mut r: axum::extract::Request<hyper::body::Incoming>| {
                seen.store(true, std::sync::atomic::Ordering::Relaxed);
                r.extensions_mut().insert(axum::extract::ConnectInfo(peer));
                r.map(axum::body::Body::new)
            });
        let conn = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), hyper_util::service::TowerToHyperService::new(svc));
        let conn = graceful.watch(conn.into_owned());
        tokio::spawn(async move {
            tokio::pin!(conn);
            tokio::select! {
                _ = &mut conn => return,
                _ = tokio::time::sleep(header_timeout) => {}
            }
            // A connection (cleartext HTTP/2 included) that has sent no complete request
            // headers by now is dropped, which closes it.
            if started.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = conn.await;
            }
        });
    }
    state.begin_stop();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), graceful.shutdown()).await;
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
