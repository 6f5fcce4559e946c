//! `kill -9` under load (issue 21): a real `chess5d serve` process, several games played at once
//! over HTTP, the server killed without warning in mid-load, started again on the same database:
//! every action whose submit was acknowledged is there, in order.

use chess5d_rules::{Budget, Game, Variant};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Starts `chess5d serve` on a free port with this database; gives the process and its address.
fn serve(db: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess5d"))
        .args(["serve", "--addr", "127.0.0.1:0", "--rate-limit", "off", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let out = BufReader::new(child.stdout.take().unwrap());
    let addr = out.lines().map_while(Result::ok).find_map(|line| {
        let at = line.find("http://")?;
        Some(line[at + 7..].split(['/', ' ']).next()?.to_string())
    });
    match addr {
        Some(addr) => (child, addr),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the server printed no address");
        }
    }
}

/// One HTTP/1.1 request on a fresh connection: status and JSON body; `None` if the server is gone.
fn request(addr: &str, method: &str, path: &str, token: Option<&str>, body: &str) -> Option<(u16, Value)> {
    let (status, text) = request_text(addr, method, path, token, body)?;
    Some((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// One HTTP/1.1 request on a fresh connection: status and body text.
fn request_text(addr: &str, method: &str, path: &str, token: Option<&str>, body: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let seat = token.map(|t| format!("X-Chess5d-Seat: {t}\r\n")).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{seat}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    let status = text.split_whitespace().nth(1)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    Some((status, body.to_string()))
}

/// Plays one game until the server goes away; gives its id and the actions acknowledged (in
/// long notation, as the server writes them back).
fn player(addr: String, seed: usize, stop: Arc<AtomicBool>) -> Option<(i64, Vec<String>)> {
    let (status, v) = request(&addr, "POST", "/api/games", None, r#"{"variant": "Standard"}"#)?;
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    let token = v["seat"]["token"].as_str().unwrap().to_string();
    let mut mirror = Game::new(Variant::by_name("Standard").unwrap().position());
    let mut acked = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let pos = mirror.position().clone();
        let actions: Vec<_> = pos.legal_actions(Budget::DEFAULT).take(6).collect();
        let Some(action) = actions.get((seed + acked.len()) % actions.len().max(1)).cloned() else {
            break;
        };
        for m in &action {
            let text = chess5d_notation::long::write_move(m, pos.even());
            let body = format!(r#"{{"move": "{text}"}}"#);
            match request(&addr, "POST", &format!("/api/games/{id}/move"), Some(&token), &body) {
                Some((200, _)) => {}
                Some((status, v)) => panic!("move {text}: {status} {v}"),
                None => return Some((id, acked)),
            }
        }
        match request(&addr, "POST", &format!("/api/games/{id}/submit"), Some(&token), "{}") {
            Some((200, v)) => {
                mirror.play_action(&action).unwrap();
                acked.push(chess5d_notation::long::write_action(&action, pos.even()));
                if !v["result"].is_null() {
                    break;
                }
            }
            Some((status, v)) => panic!("submit: {status} {v}"),
            None => return Some((id, acked)),
        }
    }
    Some((id, acked))
}

#[test]
fn every_acknowledged_action_survives_kill_9_under_load() {
    let dir = std::env::temp_dir().join(format!("chess5d-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    let (mut server, addr) = serve(&db);
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = (0..12)
        .map(|i| {
            let (addr, stop) = (addr.clone(), stop.clone());
            std::thread::spawn(move || player(addr, i, stop))
        })
        .collect();
    // Under load for a while, then killed without warning (SIGKILL: no shutdown, no checkpoint).
    let start = Instant::now();
    std::thread::sleep(Duration::from_millis(1500));
    server.kill().unwrap();
    server.wait().unwrap();
    let killed_after = start.elapsed();
    stop.store(true, Ordering::Relaxed);
    let games: Vec<(i64, Vec<String>)> = players.into_iter().filter_map(|p| p.join().unwrap()).collect();
    let acked: usize = games.iter().map(|(_, a)| a.len()).sum();
    assert!(
        acked >= 12,
        "only {acked} actions acknowledged in {killed_after:?}: no load to speak of"
    );
    // Started again on the same file: each game holds at least its acknowledged actions, the
    // same ones in the same order (one more may have been stored without its answer arriving).
    let (mut again, addr) = serve(&db);
    for (id, actions) in &games {
        let (status, v) = request(&addr, "GET", &format!("/api/games/{id}"), None, "").expect("the server answers");
        assert_eq!(status, 200, "game {id}: {v}");
        let n = v["action_count"].as_u64().unwrap() as usize;
        assert!(
            n >= actions.len(),
            "game {id}: {} actions acknowledged, {n} stored",
            actions.len()
        );
        let (_, pgn) = request_text(&addr, "GET", &format!("/api/games/{id}/pgn"), None, "").unwrap();
        let game = chess5d_notation::load(&pgn).unwrap_or_else(|e| panic!("game {id}: {e}\n{pgn}"));
        let even = game.game().start().even();
        let stored: Vec<String> = game
            .game()
            .actions()
            .iter()
            .map(|a| chess5d_notation::long::write_action(&a.moves, even))
            .collect();
        assert_eq!(
            &stored[..actions.len()],
            &actions[..],
            "game {id}: the acknowledged actions differ"
        );
    }
    again.kill().unwrap();
    again.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
