//! Layer: the ground, below storage. The server's settings: what `chess5d serve`'s options
//! become (address, database, engines, limits), read by every layer.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Time for a whole request (the answer included) before a 408.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Time for a client to send a request's headers before the connection is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

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
    /// What one client, and all together, may take (`--limit NAME=N`; see [`crate::limits`]).
    pub limits: crate::limits::Limits,
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
            request_timeout: REQUEST_TIMEOUT,
            header_timeout: HEADER_TIMEOUT,
            idle_unload: std::time::Duration::from_secs(600),
            limits: crate::limits::Limits::default(),
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
    /// `allowed-host = NAME`, `behind-proxy = true`, `rate-limit = N`, `limit NAME = N` (`#`
    /// starts a comment).
    pub config: Option<PathBuf>,
    /// `--public`.
    pub public: bool,
    /// `--allowed-host NAME`, in order.
    pub allowed_hosts: Vec<String>,
    /// `--behind-proxy`.
    pub behind_proxy: bool,
    /// `--rate-limit N|off`.
    pub rate_limit: Option<String>,
    /// `--limit NAME=N`, in order (see [`crate::limits::LIMITS`]); the config file's
    /// `limit NAME = N` lines come first, so the flags win.
    pub limits: Vec<String>,
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
        let mut limits = crate::limits::Limits::default();
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
                         'behind-proxy = true', 'allowed-host = NAME', 'rate-limit = N' or 'limit NAME = N'",
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
                } else if let Some(name) = key.strip_prefix("limit ") {
                    limits
                        .set(&format!("{}={val}", name.trim()))
                        .map_err(|e| format!("{path}:{}: {e}", n + 1))?;
                } else if let Some(name) = key.strip_prefix("engine ") {
                    engines.push(parse_engine(&format!("{}={val}", name.trim()))?);
                } else {
                    return Err(err());
                }
            }
        }
        for l in &o.limits {
            limits.set(l)?;
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
                // `exec`: the shell becomes the engine (no shell of 1.7 MiB left waiting beside
                // each of the 32 engine processes a server may run).
                command: format!("exec '{}' engine", exe.display().to_string().replace('\'', "'\\''")),
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
            limits,
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
