//! Soak under attack: honest paced games beside one hostile client doing the issue's attacks 1-5
//! at its limits, against a real server process (killed with SIGKILL in the middle and started
//! again); prints the honest players' latency and refusals, the server's RSS and CPU over time,
//! and checks that no acknowledged action was lost.
//!
//! ```sh
//! cargo build --release -p chess5d-server --example serve --example soak
//! target/release/examples/soak --games 200 --secs 300 --kill-at 150
//! ```
//!
//! The server is `--server PATH` (default: the `serve` example beside this one) on a free port
//! with a fresh database and its default limits. Each honest game is one client (its own
//! loopback address, 127.0.1.x / 127.0.2.x...: two connections, the White and Black seat
//! holders), playing one action every `--interval` seconds (2). The hostile client is 127.0.0.2:
//! endless puzzle proofs (attack 1), analysis boards searching with MultiPV 8 (2), imports of
//! the most actions allowed and reads of their state (3), WebSockets kept idle or sent frames
//! announcing 16 MiB, idle TCP connections (4), and engine-vs-engine games of a minute an
//! action (5), each over and over at once. `--kill-at S` kills the server (SIGKILL) after S
//! seconds and starts it again on the same file: requests cut by the kill are not counted as
//! refusals (the players find out from the game whether their action went through), and at
//! the end the database must hold every acknowledged action of every game.
//!
//! `--many N` adds the hostile mode of many addresses (127.3.x.y): each holds every pool it
//! can at once (engine games, analysis boards, a computer review started again and again,
//! puzzle proofs, idle connections, WebSockets that never read), and a newcomer (a fresh
//! address, 127.4.x.y) asks for an engine game, an analysis board, a computer review and a
//! puzzle proof every 3 s: the report says how many of its asks of each were served.

use chess5d_rules::{Budget, Game, Variant};
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};

/// A connection from a chosen loopback address.
async fn connect(from: Ipv4Addr, to: SocketAddr) -> std::io::Result<TcpStream> {
    let s = TcpSocket::new_v4()?;
    s.bind(SocketAddr::new(IpAddr::V4(from), 0))?;
    let c = s.connect(to).await?;
    c.set_nodelay(true)?;
    Ok(c)
}

/// A keep-alive HTTP/1.1 connection; any failure of the transport is an `Err` (the caller
/// reconnects).
struct Conn {
    from: Ipv4Addr,
    addr: SocketAddr,
    io: Option<BufReader<TcpStream>>,
}

impl Conn {
    fn new(from: Ipv4Addr, addr: SocketAddr) -> Conn {
        Conn { from, addr, io: None }
    }

    /// One request: (status, body). A connection closed while idle is opened again once.
    async fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Result<(u16, Vec<u8>), String> {
        for attempt in 0..2 {
            if self.io.is_none() {
                let s = connect(self.from, self.addr)
                    .await
                    .map_err(|e| format!("connect: {e}"))?;
                self.io = Some(BufReader::new(s));
            }
            match self.send(method, path, token, body).await {
                Ok(r) => return Ok(r),
                Err(e) => {
                    self.io = None;
                    if attempt == 1 || !e.starts_with("closed") {
                        return Err(e);
                    }
                }
            }
        }
        unreachable!()
    }

    async fn send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Result<(u16, Vec<u8>), String> {
        let io = self.io.as_mut().ok_or("closed")?;
        let seat = token.map(|t| format!("X-Chess5d-Seat: {t}\r\n")).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n{seat}Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        io.get_mut()
            .write_all(head.as_bytes())
            .await
            .map_err(|e| format!("closed: {e}"))?;
        let mut line = String::new();
        if io.read_line(&mut line).await.unwrap_or(0) == 0 {
            return Err("closed before the answer".into());
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line '{line}'"))?;
        let mut len = 0usize;
        let mut close = false;
        loop {
            line.clear();
            io.read_line(&mut line).await.map_err(|e| format!("cut: {e}"))?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse().map_err(|_| format!("bad length '{v}'"))?;
                }
                if k.eq_ignore_ascii_case("connection") && v.trim().eq_ignore_ascii_case("close") {
                    close = true;
                }
            }
        }
        let mut buf = vec![0u8; len];
        io.read_exact(&mut buf).await.map_err(|e| format!("cut: {e}"))?;
        if close {
            self.io = None;
        }
        Ok((status, buf))
    }
}

/// The `q` quantile (0 to 1) of sorted latencies, in milliseconds; none of an empty list.
fn percentile_ms(sorted: &[Duration], q: f64) -> Option<f64> {
    let i = ((sorted.len() as f64 * q) as usize).min(sorted.len().saturating_sub(1));
    sorted.get(i).map(|d| d.as_secs_f64() * 1e3)
}

/// A request's kind for the latency breakdown: its method and the path's last word (ids out).
fn kind_of(method: &str, path: &str) -> &'static str {
    let last = path.rsplit('/').next().unwrap_or("");
    match (method, last) {
        ("POST", "games") => "create",
        ("POST", "join") => "join",
        ("POST", "move") => "move",
        ("POST", "submit") => "submit",
        ("POST", _) => "other POST",
        _ => "GET",
    }
}

fn json_of(b: &[u8]) -> Value {
    serde_json::from_slice(b).unwrap_or(Value::Null)
}

/// What the honest players share: latencies, refusals, the acknowledged actions of each game.
#[derive(Default)]
struct Honest {
    /// (sent at, latency, the request's kind: its method and the path's last word).
    lat: Mutex<Vec<(Instant, Duration, &'static str)>>,
    refused: Mutex<Vec<String>>,
    cut: AtomicU64,
    /// (game id, actions acknowledged) of every game, updated as they are.
    acked: Mutex<std::collections::HashMap<i64, usize>>,
}

const VARIANTS: [&str; 4] = ["Standard", "Very Small", "Small", "Standard - Two Timelines"];

/// The address of honest client `g` (127.0.1.0 and up, one per game slot).
fn honest_ip(g: usize) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 1 + (g / 250) as u8, (g % 250) as u8 + 1)
}

/// Waits until the server answers again (after a kill), at most a minute.
async fn until_up(from: Ipv4Addr, addr: SocketAddr) {
    let end = Instant::now() + Duration::from_secs(60);
    while Instant::now() < end {
        let mut c = Conn::new(from, addr);
        if let Ok((200, _)) = c.request("GET", "/api/info", None, "").await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// One honest client: plays games (White and Black on two connections), one action every `pace`.
async fn honest(addr: SocketAddr, g: usize, deadline: Instant, pace: Duration, h: Arc<Honest>) -> Result<(), String> {
    let ip = honest_ip(g);
    let mut next = Instant::now() + pace.mul_f64((g % 1000) as f64 / 1000.0);
    let mut conns = [Conn::new(ip, addr), Conn::new(ip, addr)];
    let mut n = 0;
    // A request the honest client counts: its latency, a refusal (a status over 299), or a cut
    // (the transport failed: the server was killed) after which the caller resyncs.
    async fn timed(
        h: &Honest,
        c: &mut Conn,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Result<Result<Vec<u8>, ()>, String> {
        let t = Instant::now();
        match c.request(method, path, token, body).await {
            Ok((s, b)) if s < 300 => {
                h.lat.lock().unwrap().push((t, t.elapsed(), kind_of(method, path)));
                Ok(Ok(b))
            }
            Ok((s, b)) => {
                h.refused
                    .lock()
                    .unwrap()
                    .push(format!("{method} {path}: {s} {}", String::from_utf8_lossy(&b)));
                Err(format!("refused {s}"))
            }
            Err(_) => {
                h.cut.fetch_add(1, Ordering::Relaxed);
                Ok(Err(()))
            }
        }
    }
    'games: while Instant::now() < deadline {
        let variant = VARIANTS[(g + n) % VARIANTS.len()];
        n += 1;
        let body = json!({ "variant": variant, "seat": "white" }).to_string();
        let Ok(created) = timed(&h, &mut conns[0], "POST", "/api/games", None, &body).await? else {
            until_up(ip, addr).await;
            continue;
        };
        let v = json_of(&created);
        let id = v["id"].as_i64().ok_or("no id")?;
        let invite = v["invite"]["token"].as_str().ok_or("no invite")?.to_string();
        let white = v["seat"]["token"].as_str().ok_or("no seat")?.to_string();
        let black = {
            match timed(
                &h,
                &mut conns[1],
                "POST",
                &format!("/api/games/{id}/join"),
                Some(&invite),
                "{}",
            )
            .await?
            {
                Ok(j) => json_of(&j)["seat"]["token"].as_str().ok_or("no seat")?.to_string(),
                Err(()) => {
                    until_up(ip, addr).await;
                    // The join may have gone through: that invite opens nothing now.
                    continue 'games;
                }
            }
        };
        h.acked.lock().unwrap().insert(id, 0);
        let tokens = [white, black];
        let mut mirror = Game::new(Variant::by_name(variant).ok_or("variant")?.position());
        let mut done = 0usize;
        while Instant::now() < deadline {
            tokio::time::sleep_until(next.into()).await;
            next += pace;
            if Instant::now() >= deadline {
                break;
            }
            let pos = mirror.position().clone();
            let side = pos.to_move().index();
            let actions: Vec<_> = pos.legal_actions(Budget::tests(50_000)).take(8).collect();
            let Some(action) = actions.get((g + done) % actions.len().max(1)).cloned() else {
                break;
            };
            let c = &mut conns[side];
            let mut cut = false;
            for m in &action {
                let text = chess5d_notation::long::write_move(m, pos.even());
                let body = json!({ "move": text }).to_string();
                if timed(
                    &h,
                    c,
                    "POST",
                    &format!("/api/games/{id}/move"),
                    Some(&tokens[side]),
                    &body,
                )
                .await?
                .is_err()
                {
                    cut = true;
                    break;
                }
            }
            let mut over = false;
            if !cut {
                match timed(
                    &h,
                    c,
                    "POST",
                    &format!("/api/games/{id}/submit"),
                    Some(&tokens[side]),
                    "{}",
                )
                .await?
                {
                    Ok(b) => {
                        mirror.play_action(&action).map_err(|e| e.to_string())?;
                        done += 1;
                        h.acked.lock().unwrap().insert(id, done);
                        over = !json_of(&b)["result"].is_null();
                    }
                    Err(()) => cut = true,
                }
            }
            if cut {
                // The server was killed: after the restart, the game says whether the action
                // went through; the moves of one that did not are taken back.
                until_up(ip, addr).await;
                let mut got = Err(String::new());
                for _ in 0..3 {
                    got = c
                        .request("GET", &format!("/api/games/{id}"), Some(&tokens[side]), "")
                        .await;
                    if got.is_ok() {
                        break;
                    }
                }
                let (s, b) = got?;
                let v = json_of(&b);
                if s != 200 {
                    return Err(format!("game {id} after the restart: {s} {v}"));
                }
                let count = v["action_count"].as_u64().unwrap_or(0) as usize;
                if count < done {
                    return Err(format!(
                        "game {id}: {done} actions acknowledged, {count} after the restart"
                    ));
                }
                if count == done + 1 {
                    mirror.play_action(&action).map_err(|e| e.to_string())?;
                    done += 1;
                    h.acked.lock().unwrap().insert(id, done);
                } else {
                    for _ in 0..v["pending"].as_array().map_or(0, Vec::len) {
                        let (s, b) = c
                            .request("POST", &format!("/api/games/{id}/undo"), Some(&tokens[side]), "{}")
                            .await?;
                        if s != 200 {
                            return Err(format!("undo after the restart: {s} {}", String::from_utf8_lossy(&b)));
                        }
                    }
                }
            }
            if over {
                break;
            }
        }
    }
    Ok(())
}

/// The hostile client's tallies: requests made, refused (4xx), and what they were refused for.
#[derive(Default)]
struct Hostile {
    sent: AtomicU64,
    refused: AtomicU64,
    sockets_closed: AtomicU64,
    /// The pools' newcomers (a fresh address each, `--many`): served and refused, per pool
    /// ([`NEWCOMER_ASKS`]).
    newcomer_served: [AtomicU64; 4],
    newcomer_refused: [AtomicU64; 4],
}

/// What a newcomer asks for, in the order of [`Hostile`]'s counts.
const NEWCOMER_ASKS: [&str; 4] = ["engine game", "analysis board", "computer review", "puzzle proof"];

/// Keeps `want` connections of `from` open to the server (those it closed are dropped, and
/// counted): every third an idle TCP connection, the others WebSockets on game 1 that never
/// read; with `big_frames`, one of those sends a frame announcing 16 MiB. Stops opening at the
/// first refusal.
async fn hold_sockets(
    from: Ipv4Addr,
    addr: SocketAddr,
    h: &Hostile,
    held: &mut Vec<TcpStream>,
    want: usize,
    big_frames: bool,
) {
    held.retain(|s| {
        let mut b = [0u8; 1];
        let closed = matches!(s.try_read(&mut b), Ok(0));
        if closed {
            h.sockets_closed.fetch_add(1, Ordering::Relaxed);
        }
        !closed
    });
    let mut k = 0;
    while held.len() < want {
        k += 1;
        let Ok(mut s) = connect(from, addr).await else { break };
        h.sent.fetch_add(1, Ordering::Relaxed);
        if k % 3 == 0 {
            held.push(s); // an idle connection
            continue;
        }
        let req = format!(
            "GET /api/games/1/ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        );
        if s.write_all(req.as_bytes()).await.is_err() {
            break;
        }
        let mut head = [0u8; 12];
        let _ = tokio::time::timeout(Duration::from_secs(2), s.read(&mut head)).await;
        if !head.starts_with(b"HTTP/1.1 101") {
            h.refused.fetch_add(1, Ordering::Relaxed);
            break;
        }
        if big_frames && k % 3 == 1 {
            let mut f = vec![0x81, 0x80 | 127];
            f.extend_from_slice(&(16u64 << 20).to_be_bytes());
            f.extend_from_slice(&[1, 2, 3, 4]);
            let _ = s.write_all(&f).await;
        }
        held.push(s); // a socket that never reads
    }
}

/// The `i`-th address of the many hostile clients (`--many`): 127.3.x.y.
fn many_ip(i: u32) -> Ipv4Addr {
    Ipv4Addr::new(127, 3, (i / 250) as u8, (i % 250 + 1) as u8)
}

/// The `i`-th newcomer: 127.4.x.y.
fn newcomer_ip(i: u32) -> Ipv4Addr {
    Ipv4Addr::new(127, 4, (i / 250) as u8, (i % 250 + 1) as u8)
}

/// Attack 6 (`--many N`): N addresses hold every pool at once: engine players (games against
/// an engine of a minute an action), analysis boards, a computer review each (started again
/// as it ends), puzzle proofs, idle WebSockets that never read, idle connections; every few
/// seconds a newcomer (a fresh address) asks for an engine game, an analysis board, a review
/// and a puzzle proof, and counts whether each was served.
fn many(addr: SocketAddr, stop: Arc<AtomicBool>, h: Arc<Hostile>, n: u32) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    for i in 0..n {
        let (stop, h) = (stop.clone(), h.clone());
        tasks.push(tokio::spawn(async move {
            let from = many_ip(i);
            let mut c = Conn::new(from, addr);
            let mut held: Vec<TcpStream> = Vec::new();
            let engine =
                json!({ "white": {"type": "human"}, "black": {"type": "engine", "movetime_ms": 60000} }).to_string();
            let board = json!({ "import": "[Board \"Standard\"]\n1. e4 / e5 2. Nf3 / Nc6\n" }).to_string();
            let proof = json!({ "import": "[Board \"Standard - Two Timelines\"]\n", "mate_in": 3 }).to_string();
            let mut reviewed: Option<(i64, String)> = None;
            while !stop.load(Ordering::Relaxed) {
                for _ in 0..4 {
                    if let Some(v) = hostile_request(&h, &mut c, "POST", "/api/games", None, &engine).await {
                        // The engine thinks for White? It plays Black: make White's move so it
                        // thinks (and holds its place) for a minute.
                        let (id, token) = (v["id"].as_i64().unwrap_or(0), v["seat"]["token"].as_str().unwrap_or(""));
                        hostile_request(
                            &h,
                            &mut c,
                            "POST",
                            &format!("/api/games/{id}/move"),
                            Some(token),
                            r#"{"move": "(0T1)e2(0T1)e4"}"#,
                        )
                        .await;
                        hostile_request(
                            &h,
                            &mut c,
                            "POST",
                            &format!("/api/games/{id}/submit"),
                            Some(token),
                            "{}",
                        )
                        .await;
                    }
                }
                for _ in 0..2 {
                    hostile_request(&h, &mut c, "POST", "/api/analysis", None, &board).await;
                }
                // A review of its game, started again as soon as it ends; a puzzle proof.
                if reviewed.is_none() {
                    let body = json!({ "import": shuffle(10) }).to_string();
                    if let Some(v) = hostile_request(&h, &mut c, "POST", "/api/games", None, &body).await {
                        reviewed = v["id"].as_i64().zip(v["seat"]["token"].as_str().map(str::to_string));
                    }
                }
                if let Some((id, token)) = &reviewed {
                    let uri = format!("/api/games/{id}/review");
                    hostile_request(&h, &mut c, "POST", &uri, Some(token.as_str()), "{}").await;
                }
                hostile_request(&h, &mut c, "POST", "/api/user-puzzles", None, &proof).await;
                hold_sockets(from, addr, &h, &mut held, 24, false).await;
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        }));
    }
    // The newcomers.
    let (stop, h) = (stop.clone(), h.clone());
    tasks.push(tokio::spawn(async move {
        let mut k = 0;
        tokio::time::sleep(Duration::from_secs(20)).await;
        while !stop.load(Ordering::Relaxed) {
            let mut c = Conn::new(newcomer_ip(k), addr);
            k += 1;
            let engine =
                json!({ "white": {"type": "human"}, "black": {"type": "engine", "movetime_ms": 100} }).to_string();
            let board = json!({ "import": "[Board \"Standard\"]\n" }).to_string();
            let game = json!({ "import": shuffle(10) }).to_string();
            let proof =
                json!({ "import": "[Board \"Standard\"]\n1. e4 / e5 2. Qh5 / Nc6 3. Bc4 / Nf6\n", "mate_in": 1 })
                    .to_string();
            let count = |i: usize, served: bool| {
                let n = if served {
                    &h.newcomer_served[i]
                } else {
                    &h.newcomer_refused[i]
                };
                n.fetch_add(1, Ordering::Relaxed);
            };
            for (i, (path, body)) in [("/api/games", &engine), ("/api/analysis", &board)]
                .into_iter()
                .enumerate()
            {
                let r = c.request("POST", path, None, body).await;
                count(i, matches!(r, Ok((201, _))));
            }
            let review = match c.request("POST", "/api/games", None, &game).await {
                Ok((201, b)) => {
                    let v = json_of(&b);
                    let (id, token) = (v["id"].as_i64().unwrap_or(0), v["seat"]["token"].as_str().unwrap_or(""));
                    c.request("POST", &format!("/api/games/{id}/review"), Some(token), "{}")
                        .await
                }
                other => other,
            };
            count(2, matches!(review, Ok((202, _))));
            let r = c.request("POST", "/api/user-puzzles", None, &proof).await;
            // Served: the proof ran (saved, or refused for what the position is, not for a pool).
            count(3, matches!(r, Ok((s, _)) if s != 429 && s != 503 && s != 408));
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
    }));
    tasks
}

const HOSTILE: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);

/// A Standard game of 2n actions of knights going out and back (the longest import allowed
/// with n = 500).
fn shuffle(n: usize) -> String {
    let mut t = String::from("[Board \"Standard\"]\n");
    for i in 0..n {
        let m = 2 * i + 1;
        t.push_str(&format!("{m}. Nf3 / Nf6 {}. Ng1 / Ng8\n", m + 1));
    }
    t
}

async fn hostile_request(
    h: &Hostile,
    c: &mut Conn,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> Option<Value> {
    h.sent.fetch_add(1, Ordering::Relaxed);
    match c.request(method, path, token, body).await {
        // Only small answers are read (the ids it goes on with): parsing a long game's state
        // here would take the honest players' measuring threads, not the server's.
        Ok((s, b)) if s < 300 => Some(if b.len() <= 64 * 1024 { json_of(&b) } else { Value::Null }),
        Ok(_) => {
            h.refused.fetch_add(1, Ordering::Relaxed);
            // Refused: wait a little, as a client hammering at its limits.
            tokio::time::sleep(Duration::from_millis(100)).await;
            None
        }
        Err(_) => {
            tokio::time::sleep(Duration::from_millis(200)).await;
            None
        }
    }
}

/// Attacks 1-5 at once, each over and over.
fn hostile(
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    h: Arc<Hostile>,
    attacks: &[u32],
) -> Vec<tokio::task::JoinHandle<()>> {
    let mut tasks = Vec::new();
    let on = |a: u32| attacks.contains(&a);
    // 1. Endless puzzle proofs, two at a time (one is allowed).
    for _ in 0..2 * usize::from(on(1)) {
        let (stop2, h) = (stop.clone(), h.clone());
        let body = json!({ "import": "[Board \"Standard - Two Timelines\"]\n", "mate_in": 3 }).to_string();
        tasks.push(tokio::spawn(async move {
            let mut c = Conn::new(HOSTILE, addr);
            while !stop2.load(Ordering::Relaxed) {
                hostile_request(&h, &mut c, "POST", "/api/user-puzzles", None, &body).await;
            }
        }));
    }
    // 2. Analysis boards searching with MultiPV 8 (a new one ends the client's oldest).
    if on(2) {
        let (stop2, h) = (stop.clone(), h.clone());
        tasks.push(tokio::spawn(async move {
            let mut c = Conn::new(HOSTILE, addr);
            while !stop2.load(Ordering::Relaxed) {
                let body = json!({ "import": "[Board \"Standard\"]\n1. e4 / e5 2. Nf3 / Nc6\n" }).to_string();
                if let Some(v) = hostile_request(&h, &mut c, "POST", "/api/analysis", None, &body).await {
                    let id = v["analysis"]["id"].as_i64().unwrap_or(0);
                    let token = v["analysis"]["token"].as_str().unwrap_or("").to_string();
                    hostile_request(
                        &h,
                        &mut c,
                        "POST",
                        &format!("/api/analysis/{id}/start"),
                        Some(&token),
                        r#"{"multipv": 8}"#,
                    )
                    .await;
                }
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        }));
    }
    // 3. Imports of the most actions allowed, and reads of their state.
    if on(3) {
        let (stop2, h) = (stop.clone(), h.clone());
        tasks.push(tokio::spawn(async move {
            let mut c = Conn::new(HOSTILE, addr);
            let body = json!({ "import": shuffle(500) }).to_string();
            let mut last = None;
            while !stop2.load(Ordering::Relaxed) {
                if let Some(v) = hostile_request(&h, &mut c, "POST", "/api/games", None, &body).await {
                    last = v["id"].as_i64();
                }
                if let Some(id) = last {
                    for _ in 0..5 {
                        hostile_request(&h, &mut c, "GET", &format!("/api/games/{id}"), None, "").await;
                    }
                }
            }
        }));
    }
    // 4. WebSockets (idle, or a frame announcing 16 MiB) and idle connections.
    if on(4) {
        let (stop2, h) = (stop.clone(), h.clone());
        tasks.push(tokio::spawn(async move {
            let mut held: Vec<TcpStream> = Vec::new();
            while !stop2.load(Ordering::Relaxed) {
                let want = held.len() + 24;
                hold_sockets(HOSTILE, addr, &h, &mut held, want, true).await;
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        }));
    }
    // 5. Engine-vs-engine games of a minute an action, as many as allowed.
    if on(5) {
        let (stop2, h) = (stop.clone(), h.clone());
        tasks.push(tokio::spawn(async move {
            let mut c = Conn::new(HOSTILE, addr);
            let body = json!({ "white": {"type": "engine", "movetime_ms": 60000}, "black": {"type": "engine", "movetime_ms": 60000} })
                .to_string();
            while !stop2.load(Ordering::Relaxed) {
                hostile_request(&h, &mut c, "POST", "/api/games", None, &body).await;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }));
    }
    tasks
}

/// The server process: started, killed, started again on the same file.
struct ServerProc {
    bin: std::path::PathBuf,
    addr: SocketAddr,
    db: std::path::PathBuf,
    child: std::process::Child,
}

impl ServerProc {
    fn start(bin: &std::path::Path, addr: SocketAddr, db: &std::path::Path) -> Result<ServerProc, String> {
        let child = std::process::Command::new(bin)
            .args(["--addr", &addr.to_string(), "--db"])
            .arg(db)
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let p = ServerProc {
            bin: bin.to_path_buf(),
            addr,
            db: db.to_path_buf(),
            child,
        };
        for _ in 0..100 {
            if std::net::TcpStream::connect(addr).is_ok() {
                return Ok(p);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err("the server did not start".into())
    }

    fn restart_after_kill(&mut self) -> Result<(), String> {
        self.child.kill().map_err(|e| e.to_string())?; // SIGKILL
        let _ = self.child.wait();
        *self = ServerProc::start(&self.bin, self.addr, &self.db)?;
        Ok(())
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

/// RSS (KiB) and CPU time (clock ticks) of a process.
fn usage(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after the name.
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some((rss, ticks))
}

/// PSS (KiB) of a process: its resident memory with each page shared by `n` processes counted
/// `1/n` (the engine processes share their executable's pages: their RSS counts those pages
/// once each, their PSS once in all).
fn pss(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("Pss:"))?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// Process `pid` and its descendants (the server's engine processes).
fn tree_pids(pid: u32) -> Vec<u32> {
    let mut parent = std::collections::HashMap::new();
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
                continue;
            };
            if let Some(pp) = stat
                .rsplit_once(')')
                .and_then(|(_, r)| r.split_whitespace().nth(1)?.parse::<u32>().ok())
            {
                parent.insert(p, pp);
            }
        }
    }
    let under = |p: u32| {
        let (mut q, mut depth) = (p, 0);
        while q != pid && depth < 16 {
            match parent.get(&q) {
                Some(&pp) => q = pp,
                None => break,
            }
            depth += 1;
        }
        q == pid
    };
    parent.keys().copied().filter(|&p| under(p)).collect()
}

/// RSS of the server process itself and of its descendants (the engine processes), and the CPU
/// of them all: (server KiB, engines KiB, ticks, engine processes, PSS KiB of them all).
fn tree_usage(pid: u32) -> (u64, u64, u64, u64, u64) {
    let mut total = (0, 0, 0, 0, 0);
    for p in tree_pids(pid) {
        if let Some((r, t)) = usage(p) {
            if p == pid {
                total.0 += r;
            } else {
                total.1 += r;
                // `sh` wrappers hold almost nothing: count the processes that do.
                if r > 4096 {
                    total.3 += 1;
                }
            }
            total.2 += t;
            total.4 += pss(p);
        }
    }
    total
}

/// The scheduler's account of threads, kept by (process, thread): its class, and its CPU time,
/// time waiting in the run queue (ns) and timeslices so far (`/proc/.../schedstat`). A thread
/// that ends keeps its last reading.
#[derive(Default)]
struct SchedBook(std::collections::HashMap<(u32, u32), (&'static str, u64, u64, u64)>);

impl SchedBook {
    /// Reads the threads of process `pid`, each classed by `class(thread name)`.
    fn read(&mut self, pid: u32, class: impl Fn(&str) -> &'static str) {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return;
        };
        for t in tasks.flatten() {
            let Ok(tid) = t.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
            let Ok(stat) = std::fs::read_to_string(t.path().join("schedstat")) else {
                continue;
            };
            let f: Vec<u64> = stat.split_whitespace().filter_map(|w| w.parse().ok()).collect();
            if let [run, wait, slices] = f[..] {
                self.0.insert((pid, tid), (class(comm.trim_end()), run, wait, slices));
            }
        }
    }

    /// The server's threads and its engine processes: requests (tokio's threads, async and
    /// blocking), the database writer, costly work (`chess5d-*`: searches, proofs, reviews,
    /// imports), engines (every thread of a descendant process).
    fn read_server(&mut self, pid: u32) {
        for p in tree_pids(pid) {
            if p == pid {
                self.read(p, |name| match name {
                    n if n.starts_with("tokio") => "server requests",
                    "chess5d-db-writ" | "chess5d-db-writer" => "server db writer",
                    n if n.starts_with("chess5d-") => "server costly work",
                    _ => "server other",
                });
            } else {
                self.read(p, |_| "engines");
            }
        }
    }

    /// Per class: threads, CPU s, run-queue wait s, and the wait per timeslice (ms).
    fn report(&self) -> String {
        let mut by: std::collections::BTreeMap<&str, (u64, u64, u64, u64)> = Default::default();
        for &(class, run, wait, slices) in self.0.values() {
            let e = by.entry(class).or_default();
            *e = (e.0 + 1, e.1 + run, e.2 + wait, e.3 + slices);
        }
        by.iter()
            .map(|(class, (n, run, wait, slices))| {
                format!(
                    "{class} ({n} threads) CPU {:.1} s, waited {:.1} s, {:.2} ms a slice",
                    *run as f64 / 1e9,
                    *wait as f64 / 1e9,
                    *wait as f64 / 1e6 / (*slices).max(1) as f64
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`).
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// The server's `/api/info` `memory` (games, analysis boards, engine players in memory), by a
/// plain blocking request from the monitor.
fn memory_info(addr: SocketAddr) -> Option<Value> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(s, "GET /api/info HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    let body = out.split_once("\r\n\r\n")?.1;
    Some(serde_json::from_str::<Value>(body).ok()?["memory"].clone())
}

fn main() -> std::process::ExitCode {
    match soak() {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::from(1),
        Err(e) => {
            eprintln!("soak: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

const USAGE: &str =
    "usage: soak [--games 200] [--secs 300] [--interval 2] [--kill-at SECS] [--no-hostile] [--many N] [--server PATH]";

fn soak() -> Result<bool, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut games, mut secs, mut interval, mut kill_at, mut hostile_on) = (200usize, 300u64, 2u64, None, true);
    let mut bin = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .with_file_name("serve");
    let mut attacks = vec![1, 2, 3, 4, 5];
    let mut many_n = 0u32;
    // Many addresses hold many sockets: this process needs the descriptors too.
    let _ = chess5d_server::limits::raise_descriptors();
    let mut i = 0;
    while i < args.len() {
        let num = || {
            args.get(i + 1)
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or(format!("{} needs a number; {USAGE}", args[i]))
        };
        match args[i].as_str() {
            "--games" => games = num()? as usize,
            "--secs" => secs = num()?,
            "--interval" => interval = num()?.max(1),
            "--kill-at" => kill_at = Some(num()?),
            "--many" => many_n = num()? as u32,
            "--no-hostile" => {
                hostile_on = false;
                i += 1;
                continue;
            }
            "--server" => bin = args.get(i + 1).ok_or(USAGE)?.into(),
            "--attacks" => {
                attacks = args
                    .get(i + 1)
                    .ok_or(USAGE)?
                    .split(',')
                    .map(|a| {
                        a.trim()
                            .parse::<u32>()
                            .map_err(|_| format!("--attacks: '{a}' is not a number; {USAGE}"))
                    })
                    .collect::<Result<_, _>>()?
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(true);
            }
            other => return Err(format!("unknown argument '{other}'; {USAGE}")),
        }
        i += 2;
    }
    let dir = std::env::temp_dir().join(format!("chess5d-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let db = dir.join("games.db");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let server = Arc::new(Mutex::new(ServerProc::start(&bin, addr, &db)?));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .thread_name("soak-honest")
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    // The hostile clients on threads of their own: their work (thousands of sockets, large
    // answers) must not delay the honest players' measuring of their own answers.
    let hostile_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("soak-hostile")
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let load_before = loadavg();
    let start = Instant::now();
    let deadline = start + Duration::from_secs(secs);
    let honest_state = Arc::new(Honest::default());
    let hostile_state = Arc::new(Hostile::default());
    let stop = Arc::new(AtomicBool::new(false));
    // The monitor: the server's RSS and CPU every 5 s; the kill.
    // (second, server KiB, engines KiB, CPU %, engine processes, games in memory and their
    // estimated KiB, PSS KiB of them all and of the server alone)
    let samples = Arc::new(Mutex::new(Vec::<(u64, u64, u64, f64, u64, u64, u64, u64, u64)>::new()));
    let monitor = {
        let (server, samples, stop) = (server.clone(), samples.clone(), stop.clone());
        std::thread::spawn(move || {
            let tick = 100.0; // clock ticks per second (Linux's USER_HZ)
            let mut last = (Instant::now(), tree_usage(server.lock().unwrap().pid()).2);
            let mut killed = false;
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_secs(5));
                let t = start.elapsed().as_secs();
                if let (Some(k), false) = (kill_at, killed) {
                    if t >= k {
                        killed = true;
                        let mut s = server.lock().unwrap();
                        let at = Instant::now();
                        match s.restart_after_kill() {
                            Ok(()) => eprintln!(
                                "{t} s: server killed (SIGKILL) and started again in {:.1} s",
                                at.elapsed().as_secs_f64()
                            ),
                            Err(e) => eprintln!("{t} s: restart failed: {e}"),
                        }
                        last = (Instant::now(), 0);
                        continue;
                    }
                }
                let pid = server.lock().unwrap().pid();
                let (rss, engines, ticks, procs, pss) = tree_usage(pid);
                let server_pss = self::pss(pid);
                let cpu = (ticks.saturating_sub(last.1)) as f64 / tick / last.0.elapsed().as_secs_f64() * 100.0;
                last = (Instant::now(), ticks);
                let memory = memory_info(addr).unwrap_or_default();
                let games = memory["games"].as_u64().unwrap_or(0);
                let games_kib = memory["games_bytes"].as_u64().unwrap_or(0) / 1024;
                samples
                    .lock()
                    .unwrap()
                    .push((t, rss, engines, cpu, procs, games, games_kib, pss, server_pss));
            }
        })
    };
    // The scheduler's account, every second: where the CPU went and who waited for it (the
    // server's threads by class, its engines, and this process's honest and hostile clients:
    // a starved client measures its own wait as the server's latency).
    let sched = Arc::new(Mutex::new(SchedBook::default()));
    let sched_reader = {
        let (server, sched, stop) = (server.clone(), sched.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let pid = server.lock().unwrap().pid();
                let mut book = sched.lock().unwrap();
                book.read_server(pid);
                book.read(std::process::id(), |name| match name {
                    "soak-honest" => "soak honest clients",
                    "soak-hostile" => "soak hostile clients",
                    _ => "soak other",
                });
                drop(book);
                std::thread::sleep(Duration::from_secs(1));
            }
        })
    };
    let results = rt.block_on(async {
        let mut hostile_tasks = Vec::new();
        {
            let _on_its_threads = hostile_rt.enter();
            if hostile_on {
                hostile_tasks.extend(hostile(addr, stop.clone(), hostile_state.clone(), &attacks));
            }
            if many_n > 0 {
                hostile_tasks.extend(many(addr, stop.clone(), hostile_state.clone(), many_n));
            }
        }
        let tasks: Vec<_> = (0..games)
            .map(|g| {
                tokio::spawn(honest(
                    addr,
                    g,
                    deadline,
                    Duration::from_secs(interval),
                    honest_state.clone(),
                ))
            })
            .collect();
        let mut errors = Vec::new();
        for t in tasks {
            if let Err(e) = t.await.map_err(|e| e.to_string()).and_then(|r| r) {
                errors.push(e);
            }
        }
        stop.store(true, Ordering::Relaxed);
        for t in hostile_tasks {
            t.abort();
        }
        errors
    });
    stop.store(true, Ordering::Relaxed);
    hostile_rt.shutdown_timeout(Duration::from_secs(1));
    let load_after = loadavg();
    let _ = monitor.join();
    let _ = sched_reader.join();
    let mut server = Arc::try_unwrap(server)
        .map_err(|_| "the monitor holds the server")?
        .into_inner()
        .unwrap();
    let _ = server.child.kill();
    let _ = server.child.wait();
    // Nothing lost: every acknowledged action is in the database.
    let conn = rusqlite::Connection::open(&db).map_err(|e| e.to_string())?;
    let acked = honest_state.acked.lock().unwrap().clone();
    let mut lost = Vec::new();
    let mut actions = 0;
    for (id, n) in &acked {
        let stored: i64 = conn
            .query_row("SELECT n_actions FROM games WHERE id = ?1", [id], |r| r.get(0))
            .unwrap_or(-1);
        if stored < *n as i64 {
            lost.push(format!("game {id}: {n} acknowledged, {stored} stored"));
        }
        actions += n;
    }
    let mut lat: Vec<Duration> = honest_state.lat.lock().unwrap().iter().map(|&(_, d, _)| d).collect();
    lat.sort();
    let pct = |p: f64| percentile_ms(&lat, p).unwrap_or(0.0);
    let refused = honest_state.refused.lock().unwrap().clone();
    let samples = samples.lock().unwrap().clone();
    let max_rss = samples.iter().map(|s| s.1 + s.2).max().unwrap_or(0);
    let max_server = samples.iter().map(|s| s.1).max().unwrap_or(0);
    let max_engines = samples.iter().map(|s| s.2).max().unwrap_or(0);
    let max_procs = samples.iter().map(|s| s.4).max().unwrap_or(0);
    let max_pss = samples.iter().map(|s| s.7).max().unwrap_or(0);
    let max_server_pss = samples.iter().map(|s| s.8).max().unwrap_or(0);
    let max_games = samples.iter().map(|s| s.5).max().unwrap_or(0);
    let mean_cpu = samples.iter().map(|s| s.3).sum::<f64>() / samples.len().max(1) as f64;
    let max_cpu = samples.iter().map(|s| s.3).fold(0.0, f64::max);
    println!(
        "soak: {games} honest games ({}s, one action every {interval} s each), hostile client {}, kill -9 at {}",
        secs,
        if hostile_on {
            format!("doing attacks {attacks:?}")
        } else {
            "off".into()
        },
        kill_at.map_or("none".into(), |k| format!("{k} s"))
    );
    // Other work on the machine shows in every figure: the load averages say how idle it was.
    println!("load averages (1, 5, 15 min): at the start {load_before}, at the end {load_after}");
    println!(
        "honest: {} requests, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; refused {}; cut by the kill {}; {} games, {actions} actions acknowledged; lost {}",
        lat.len(),
        pct(0.5),
        pct(0.99),
        lat.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
        refused.len(),
        honest_state.cut.load(Ordering::Relaxed),
        acked.len(),
        lost.len()
    );
    println!(
        "hostile: {} requests or connections, {} refused, {} of its sockets closed by the server",
        hostile_state.sent.load(Ordering::Relaxed),
        hostile_state.refused.load(Ordering::Relaxed),
        hostile_state.sockets_closed.load(Ordering::Relaxed)
    );
    if many_n > 0 {
        let asks: Vec<String> = NEWCOMER_ASKS
            .iter()
            .enumerate()
            .map(|(i, what)| {
                let served = hostile_state.newcomer_served[i].load(Ordering::Relaxed);
                let all = served + hostile_state.newcomer_refused[i].load(Ordering::Relaxed);
                format!("{what} {served} of {all}")
            })
            .collect();
        println!(
            "many ({many_n} addresses holding every pool): newcomers served: {}",
            asks.join(", ")
        );
    }
    let mib = |k: u64| k as f64 / 1024.0;
    println!(
        "server (with its engine processes): max RSS {:.0} MiB (server alone max {:.0} MiB, engines max {:.0} MiB in at most {max_procs} processes), \
         max PSS {:.0} MiB (pages shared between processes counted once; server alone max {:.0} MiB), \
         games in memory max {max_games}, CPU mean {mean_cpu:.0}%, max {max_cpu:.0}% (of one core)",
        mib(max_rss),
        mib(max_server),
        mib(max_engines),
        mib(max_pss),
        mib(max_server_pss)
    );
    let over_time: Vec<String> = samples
        .iter()
        .map(|(t, rss, engines, cpu, procs, games, games_kib, _, _)| {
            format!(
                "{t}s {:.0}+{:.0}MiB ({procs}p, {games}g of {:.0}MiB) {cpu:.0}%",
                mib(*rss),
                mib(*engines),
                mib(*games_kib)
            )
        })
        .collect();
    println!(
        "  over time (server+engines RSS, engine processes, games in memory and their estimate, CPU): {}",
        over_time.join(", ")
    );
    println!(
        "  scheduler (CPU, run-queue wait, wait a timeslice; by thread class): {}",
        sched.lock().unwrap().report()
    );
    // The honest p99 over time.
    let timed = honest_state.lat.lock().unwrap().clone();
    let span = (secs / 10).max(1);
    let mut slices = Vec::new();
    for k in 0..secs.div_ceil(span) {
        let (from, to) = (Duration::from_secs(k * span), Duration::from_secs((k + 1) * span));
        let mut l: Vec<Duration> = timed
            .iter()
            .filter(|(t, _, _)| (from..to).contains(&t.duration_since(start)))
            .map(|&(_, d, _)| d)
            .collect();
        l.sort();
        let p = percentile_ms(&l, 0.99).unwrap_or(0.0);
        slices.push(format!("{}-{}s {p:.0}ms", from.as_secs(), to.as_secs()));
    }
    println!("  honest p99 over time: {}", slices.join(", "));
    // And by kind of request, away from the kill (10 s either side): which answers are slow.
    let kinds = ["create", "join", "move", "submit", "other POST", "GET"];
    let near_kill =
        |t: &Instant| kill_at.is_some_and(|k| (t.duration_since(start).as_secs_f64() - k as f64).abs() < 10.0);
    let by_kind: Vec<String> = kinds
        .iter()
        .filter_map(|k| {
            let mut l: Vec<Duration> = timed
                .iter()
                .filter(|(t, _, kind)| kind == k && !near_kill(t))
                .map(|&(_, d, _)| d)
                .collect();
            l.sort();
            percentile_ms(&l, 0.99).map(|p99| {
                format!(
                    "{k} {} p50 {:.1} p99 {p99:.1} ms",
                    l.len(),
                    percentile_ms(&l, 0.5).unwrap_or(0.0)
                )
            })
        })
        .collect();
    println!(
        "  honest by kind, 10 s either side of the kill left out: {}",
        by_kind.join("; ")
    );
    for r in refused.iter().take(5) {
        println!("  refused: {r}");
    }
    for e in results.iter().take(5) {
        println!("  player error: {e}");
    }
    for l in lost.iter().take(5) {
        println!("  LOST: {l}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(refused.is_empty() && lost.is_empty() && results.is_empty())
}
