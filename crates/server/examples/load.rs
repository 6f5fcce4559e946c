//! Load run: many concurrent games on loopback between scripted seat holders, then a check that
//! the database holds every submitted action; prints the move latency (p50, p99, max).
//!
//! ```sh
//! cargo run --release -p chess5d-server --example load -- --games 200 --secs 60
//! cargo run --release -p chess5d-server --example load -- --games 0 --paced 1000 --secs 60
//! ```
//!
//! Two loads: the closed loop (`--games N`: N games, each sending its next request as soon as
//! the last is answered, so some N requests are always in flight: it measures throughput) and
//! the paced run (`--paced N`: N games, each playing one action every `--interval` seconds, as
//! people do: it measures latency at a steady rate).
//!
//! The server runs in this process (a fresh database, rate limits off, loopback only). Each game
//! is created by its White player with an invite for Black; the two players are separate HTTP
//! connections with their own seat tokens, each playing legal actions (from a mirror of the
//! game) on its turn. A finished game is replaced by a new one.
//!
//! `--accounts`: the players are accounts, logged in: each signs up first (from an address of
//! its own, as the server behind a proxy sees it: `X-Forwarded-For`), before the timed part,
//! then sends its session cookie with every request (the seats it takes are its account's).

use chess5d_rules::{Budget, Game, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// The server closed the connection before reading the request.
struct Closed;

/// A keep-alive HTTP/1.1 connection (enough for this server's JSON answers).
struct Conn {
    addr: SocketAddr,
    io: BufReader<TcpStream>,
    /// Header lines sent with every request (an account's cookie, its address).
    headers: String,
    /// The session cookie (`name=value`) the last answer set, if it set one.
    set_cookie: Option<String>,
}

impl Conn {
    async fn open(addr: SocketAddr) -> Result<Conn, String> {
        let s = TcpStream::connect(addr).await.map_err(|e| format!("connect: {e}"))?;
        s.set_nodelay(true).map_err(|e| e.to_string())?;
        Ok(Conn {
            addr,
            io: BufReader::new(s),
            headers: String::new(),
            set_cookie: None,
        })
    }

    /// A connection of the account `login` ([`sign_up`]): its address and cookie on every
    /// request.
    async fn open_as(addr: SocketAddr, login: Option<&Login>) -> Result<Conn, String> {
        let mut c = Conn::open(addr).await?;
        if let Some(l) = login {
            c.headers = format!("X-Forwarded-For: {}\r\nCookie: {}\r\n", l.ip, l.cookie);
        }
        Ok(c)
    }

    /// Sends a request; a connection the server closed while idle (its header timeout) is
    /// opened again and the request sent once more (it was not read).
    async fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &Value,
    ) -> Result<(u16, Answer), String> {
        match self.send(method, path, token, body).await {
            Err(Closed) => {
                let headers = std::mem::take(&mut self.headers);
                *self = Conn::open(self.addr).await?;
                self.headers = headers;
                self.send(method, path, token, body)
                    .await
                    .map_err(|_| "connection closed twice".to_string())?
            }
            Ok(r) => r,
        }
    }

    async fn send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &Value,
    ) -> Result<Result<(u16, Answer), String>, Closed> {
        let body = body.to_string();
        let seat = token.map(|t| format!("X-Chess5d-Seat: {t}\r\n")).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n{seat}{}Content-Length: {}\r\n\r\n",
            self.addr,
            self.headers,
            body.len()
        );
        let s = self.io.get_mut();
        s.write_all(head.as_bytes()).await.map_err(|_| Closed)?;
        s.write_all(body.as_bytes()).await.map_err(|_| Closed)?;
        let mut line = String::new();
        if self.io.read_line(&mut line).await.unwrap_or(0) == 0 {
            return Err(Closed);
        }
        // A move's answer (the game's state) is not read: a player needs only its status.
        Ok(self.answer(line, !path.ends_with("/move")).await)
    }

    async fn answer(&mut self, mut line: String, read: bool) -> Result<(u16, Answer), String> {
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line '{line}'"))?;
        let mut len = 0usize;
        loop {
            line.clear();
            self.io.read_line(&mut line).await.map_err(|e| e.to_string())?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse().map_err(|_| format!("bad length '{v}'"))?;
                } else if k.eq_ignore_ascii_case("set-cookie") && v.trim().starts_with("chess5d_session=") {
                    self.set_cookie = v.trim().split(';').next().map(str::to_string);
                }
            }
        }
        let mut buf = vec![0u8; len];
        self.io.read_exact(&mut buf).await.map_err(|e| e.to_string())?;
        if !read && status == 200 {
            return Ok((status, Answer::default()));
        }
        // Only the fields a player needs are read: a player's own parsing must not cost the
        // server's machine (they share it) more than a browser would.
        let v = serde_json::from_slice(&buf).map_err(|e| {
            format!(
                "status {status}, an answer that is not what was expected ({e}): {}",
                String::from_utf8_lossy(&buf)
            )
        })?;
        Ok((status, v))
    }
}

/// What the players read of an answer (the rest is skipped unparsed).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Answer {
    id: Option<i64>,
    seat: Option<Token>,
    invite: Option<Token>,
    result: Option<String>,
    error: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Token {
    token: String,
}

/// A logged-in account: its address and session cookie.
#[derive(Clone, Debug)]
struct Login {
    ip: String,
    cookie: String,
}

/// Signs up the account of player `k` (`load_k`, from address 10.x.y.z of its own): its login.
async fn sign_up(addr: SocketAddr, k: usize) -> Result<Login, String> {
    let ip = format!("10.{}.{}.{}", k / 62_500 % 250 + 1, k / 250 % 250, k % 250 + 1);
    let mut c = Conn::open(addr).await?;
    c.headers = format!("X-Forwarded-For: {ip}\r\n");
    let body = json!({ "name": format!("load_{k}"), "password": format!("password of load_{k}") });
    let (status, v) = c.request("POST", "/api/account", None, &body).await?;
    let cookie = c.set_cookie.filter(|_| status == 201);
    let cookie = cookie.ok_or_else(|| format!("sign-up of load_{k}: {status} {v:?}"))?;
    Ok(Login { ip, cookie })
}

const VARIANTS: [&str; 4] = ["Standard", "Very Small", "Small", "Standard - Two Timelines"];

/// One game slot: plays games until the deadline; gives (game id, submitted actions) of every
/// game and the latencies of the move and submit requests.
async fn player_pair(
    addr: SocketAddr,
    g: usize,
    deadline: Instant,
    pace: Option<Duration>,
    logins: Option<[Login; 2]>,
) -> Result<(Vec<(i64, usize)>, Vec<(Instant, Duration)>), String> {
    // Paced: the games start spread over one interval, then each plays an action per interval.
    let mut next = pace.map(|p| Instant::now() + p.mul_f64((g % 1000) as f64 / 1000.0));
    let mut white = Conn::open_as(addr, logins.as_ref().map(|l| &l[0])).await?;
    let mut black = Conn::open_as(addr, logins.as_ref().map(|l| &l[1])).await?;
    let mut games = Vec::new();
    let mut lat = Vec::new();
    while Instant::now() < deadline {
        let variant = VARIANTS[(g + games.len()) % VARIANTS.len()];
        let (status, v) = white
            .request(
                "POST",
                "/api/games",
                None,
                &json!({ "variant": variant, "seat": "white" }),
            )
            .await?;
        if status != 201 {
            return Err(format!("create: {status} {v:?}"));
        }
        let id = v.id.ok_or("no id")?;
        let invite = v.invite.ok_or("no invite")?.token;
        // Black opens the invite link: the seat gets a token of its own.
        let (status, j) = black
            .request("POST", &format!("/api/games/{id}/join"), Some(&invite), &json!({}))
            .await?;
        if status != 200 {
            return Err(format!("join: {status} {j:?}"));
        }
        let tokens = [
            v.seat.ok_or("no seat")?.token,
            j.seat.ok_or("no seat in the join answer")?.token,
        ];
        let mut mirror = Game::new(Variant::by_name(variant).ok_or("variant")?.position());
        let mut submitted = 0usize;
        while Instant::now() < deadline {
            if let (Some(at), Some(p)) = (next.as_mut(), pace) {
                tokio::time::sleep_until((*at).into()).await;
                *at += p;
                if Instant::now() >= deadline {
                    break;
                }
            }
            let pos = mirror.position().clone();
            let side = pos.to_move().index();
            let actions: Vec<_> = pos.legal_actions(Budget::tests(50_000)).take(8).collect();
            let Some(action) = actions.get((g + submitted) % actions.len().max(1)).cloned() else {
                break;
            };
            let conn = if side == 0 { &mut white } else { &mut black };
            for m in &action {
                let text = chess5d_notation::long::write_move(m, pos.even());
                let t = Instant::now();
                let (status, v) = conn
                    .request(
                        "POST",
                        &format!("/api/games/{id}/move"),
                        Some(&tokens[side]),
                        &json!({ "move": text }),
                    )
                    .await?;
                lat.push((t, t.elapsed()));
                if status != 200 {
                    return Err(format!("move {text}: {status} {v:?}"));
                }
            }
            let t = Instant::now();
            let (status, v) = conn
                .request(
                    "POST",
                    &format!("/api/games/{id}/submit"),
                    Some(&tokens[side]),
                    &json!({}),
                )
                .await?;
            lat.push((t, t.elapsed()));
            if status != 200 {
                return Err(format!("submit: {status} {v:?}"));
            }
            mirror.play_action(&action).map_err(|e| e.to_string())?;
            submitted += 1;
            if v.result.is_some() {
                break;
            }
        }
        games.push((id, submitted));
    }
    Ok((games, lat))
}

fn main() -> std::process::ExitCode {
    match load() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Reads the arguments and runs the loads asked for.
fn load() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut games = 200usize;
    let mut secs = 60u64;
    let mut paced = 0usize;
    let mut interval = 2u64;
    let mut accounts = false;
    let mut i = 0;
    while i < args.len() {
        let val = || {
            args.get(i + 1)
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or(format!("{} needs a number", args[i]))
        };
        match args[i].as_str() {
            "--games" => games = val()? as usize,
            "--secs" => secs = val()?,
            "--paced" => paced = val()? as usize,
            "--interval" => interval = val()?.max(1),
            "--accounts" => {
                accounts = true;
                i += 1;
                continue;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument '{other}'; {USAGE}")),
        }
        i += 2;
    }
    if games > 0 {
        run(games, secs, None, accounts)?;
    }
    if paced > 0 {
        run(paced, secs, Some(Duration::from_secs(interval)), accounts)?;
    }
    Ok(())
}

const USAGE: &str = "usage: load [--games 200] [--secs 60] [--paced 1000 [--interval 2]] [--accounts]
  --games N     N games played as fast as the server answers (closed loop; 0: none)
  --paced N     then N games, each playing one action every --interval seconds
  --accounts    the players are accounts, logged in (signed up before the timed part), each
                sending its session cookie with every request";

/// One run on a fresh server and database: `games` game slots for `secs` seconds, each playing
/// as fast as answered (`pace` None) or one action per `pace`; prints the figures.
fn run(games: usize, secs: u64, pace: Option<Duration>, accounts: bool) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("chess5d-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let db = dir.join("games.db");
    // Every player connects from this one address: the per-client caps are lifted as the
    // rate limits are (their own tests are in the server's suite).
    let mut limits = chess5d_server::limits::Limits::default();
    for l in [
        "connections-per-client=1000000",
        "connections=1000000",
        "sockets-per-client=1000000",
        "sockets=1000000",
    ] {
        limits.set(l)?;
    }
    let config = chess5d_server::Config {
        db: db.clone(),
        rate_limit: None,
        limits,
        // Accounts come from addresses of their own (sign-ups are throttled per address).
        behind_proxy: accounts,
        ..chess5d_server::Config::default()
    };
    // The server and the players run on runtimes of their own (the players' legal-action
    // searches must not hold the server's threads).
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let state = chess5d_server::AppState::open(config).map_err(|e| e.to_string())?;
    let listener = server_rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = server_rt.spawn(chess5d_server::serve(listener, state.clone(), async move {
        let _ = rx.await;
    }));
    // The accounts sign up first (each an argon2id hash: a few at a time), outside the timing.
    let mut logins: Vec<Option<[Login; 2]>> = vec![None; games];
    if accounts {
        let t = Instant::now();
        let made = client_rt.block_on(async move {
            let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(4));
            let tasks: Vec<_> = (0..games * 2)
                .map(|k| {
                    let gate = gate.clone();
                    tokio::spawn(async move {
                        let _turn = gate.acquire().await.map_err(|e| e.to_string())?;
                        sign_up(addr, k).await
                    })
                })
                .collect();
            let mut made = Vec::new();
            for t in tasks {
                made.push(t.await.map_err(|e| e.to_string())??);
            }
            Ok::<_, String>(made)
        })?;
        for (g, pair) in made.chunks(2).enumerate() {
            logins[g] = Some([pair[0].clone(), pair[1].clone()]);
        }
        println!(
            "{} accounts signed up and logged in in {:.1} s",
            games * 2,
            t.elapsed().as_secs_f64()
        );
    }
    let start = Instant::now();
    let (all, timed) = client_rt.block_on(async move {
        let deadline = start + Duration::from_secs(secs);
        let tasks: Vec<_> = logins
            .into_iter()
            .enumerate()
            .map(|(g, login)| tokio::spawn(player_pair(addr, g, deadline, pace, login)))
            .collect();
        let mut all = Vec::new();
        let mut lat = Vec::new();
        for t in tasks {
            let (g, l) = t.await.map_err(|e| e.to_string())??;
            all.extend(g);
            lat.extend(l);
        }
        Ok::<_, String>((all, lat))
    })?;
    let _ = tx.send(());
    let _ = server_rt.block_on(server);
    state.shutdown();
    // Nothing lost: every submitted action is in the database.
    let conn = rusqlite::Connection::open(&db).map_err(|e| e.to_string())?;
    let mut actions = 0;
    for (id, n) in &all {
        let stored: i64 = conn
            .query_row("SELECT n_actions FROM games WHERE id = ?1", [id], |r| r.get(0))
            .map_err(|e| format!("game {id}: {e}"))?;
        if stored as usize != *n {
            return Err(format!("game {id}: {n} actions submitted, {stored} stored"));
        }
        actions += n;
    }
    let pct = |lat: &[Duration], p: f64| {
        lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
            .as_secs_f64()
            * 1e3
    };
    let mut lat: Vec<Duration> = timed.iter().map(|&(_, d)| d).collect();
    lat.sort();
    let who = if accounts { ", logged-in accounts" } else { "" };
    let mode = match pace {
        None => format!("closed loop, {games} games{who}"),
        Some(p) => format!("paced, {games} games{who}, one action every {} s each", p.as_secs()),
    };
    println!(
        "{mode}, {secs} s: {} games, {actions} actions, {} move/submit requests ({:.0}/s); \
         latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; database checked: nothing lost",
        all.len(),
        lat.len(),
        lat.len() as f64 / secs as f64,
        pct(&lat, 0.5),
        pct(&lat, 0.99),
        lat.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
    );
    // The tail over time: where the slow requests were (while the games were being created at
    // the start, or all along).
    let span = (secs / 6).max(1);
    let mut slices = Vec::new();
    for k in 0..secs.div_ceil(span) {
        let (from, to) = (Duration::from_secs(k * span), Duration::from_secs((k + 1) * span));
        let mut l: Vec<Duration> = timed
            .iter()
            .filter(|(t, _)| (from..to).contains(&t.duration_since(start)))
            .map(|&(_, d)| d)
            .collect();
        l.sort();
        slices.push(format!(
            "{}-{} s: {:.1} ms",
            from.as_secs(),
            to.as_secs().min(secs),
            pct(&l, 0.99)
        ));
    }
    println!("  p99 by time: {}", slices.join(", "));
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
