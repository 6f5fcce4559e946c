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
//! the ground (`error`: the one error type; `config`: the settings) under everything;
//! **storage** (`db`: the SQLite file, its schema steps, the group-commit writer) above it;
//! the game **domain** above it (`session`, `seats`, `clocks`, `engine`, `driver`, `create`,
//! `puzzles`, `analysis`, `review`, and `state`, the server's state), which knows nothing of HTTP; the
//! **HTTP** layer on top (`extract`, `security`, `analysis_api`, `review_api`, `puzzle_maker`, `api`). `sync`
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

mod accounts;
mod analysis;
mod analysis_api;
mod api;
mod clocks;
mod config;
mod create;
mod db;
mod driver;
mod engine;
mod error;
mod extract;
pub mod limits;
mod pairing;
mod players;
mod puzzle_maker;
mod puzzles;
mod rated;
mod rematch;
mod review;
mod review_api;
mod seats;
mod security;
mod session;
mod state;
mod sync;

pub use api::router;
pub use config::{Config, EngineConfig, ServeOptions};
pub use error::ServerError;
pub use limits::Limits;
pub use puzzles::builtin_json as builtin_puzzles_json;

pub use puzzles::forced_mate_in;
pub use seats::TOKEN_HEADER;
pub use state::AppState;

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
    // Open descriptors: the soft limit raised to the hard one, the connection limits fitted
    // to what that gives (or a refusal to start that names the limit).
    let mut config = config;
    if let Some(descriptors) = limits::raise_descriptors() {
        if let Some(said) = config.limits.fit_descriptors(descriptors)? {
            eprintln!("{said}");
        }
    }
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
        // The connections of one address (`connections-per-client`; behind a proxy every
        // connection is the proxy's, which limits them itself) and of all (`connections`).
        let limits = &state.inner.config.limits;
        let per_client = if state.inner.config.behind_proxy {
            u64::MAX
        } else {
            limits.connections_per_client
        };
        let permit = match state
            .inner
            .quotas
            .connections
            .take(peer.ip(), per_client, limits.connections, "connections")
        {
            Ok(p) => p,
            Err(e) => {
                let body = serde_json::json!({ "error": e.to_string(), "kind": "limited" }).to_string();
                let answer = format!(
                    "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nConnection: close\r\n\
                     Retry-After: 1\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                );
                // Answered on its own task (a fresh socket may not be writable yet), within 1 s.
                tokio::spawn(async move {
                    use tokio::io::AsyncWriteExt;
                    let mut stream = stream;
                    let write = async {
                        let _ = stream.write_all(answer.as_bytes()).await;
                        let _ = stream.shutdown().await;
                    };
                    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), write).await;
                });
                continue;
            }
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
            let _permit = permit;
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
