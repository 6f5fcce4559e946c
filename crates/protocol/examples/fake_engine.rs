//! A 5DUCI engine for tests, good or bad on purpose.
//!
//! `fake_engine MODE[:K]`: `random` plays random legal actions; the other modes behave like
//! `random` until the K-th `go` (default 1), then: `crash` exits with status 3 after writing to
//! stderr, `hang` never answers, `illegal` answers an illegal move, `garbage` writes garbage and
//! an unparsable `bestmove`, `slow` answers after 3 seconds, `onemove` answers one move per `go`
//! (then `bestmove submit`), `nobest` answers `nobestmove`.
//!
//! With `FAKE_ENGINE_PID_FILE` set, it writes its process id there first (tests check that no
//! engine outlives its client).

#[path = "support/random.rs"]
mod random;

use chess5d_protocol::{format_move, PositionCommand};
use std::io::{BufRead, Write};
use std::time::Duration;

fn main() {
    if let Some(path) = std::env::var_os("FAKE_ENGINE_PID_FILE") {
        std::fs::write(path, std::process::id().to_string()).expect("pid file");
    }
    let arg = std::env::args().nth(1).unwrap_or_else(|| "random".into());
    let (mode, k) = match arg.split_once(':') {
        Some((m, k)) => (m.to_string(), k.parse().unwrap_or(1)),
        None => (arg, 1u32),
    };
    let mut random = random::Random::new(u64::from(std::process::id()));
    let mut pos = None;
    let mut gos = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let (cmd, args) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        match cmd {
            "5duci" => {
                writeln!(out, "id name fake-{mode}").unwrap();
                writeln!(out, "id author tests").unwrap();
                writeln!(out, "5duciok").unwrap();
            }
            "isready" => writeln!(out, "readyok").unwrap(),
            "position" => pos = PositionCommand::parse(args).and_then(|p| p.position()).ok(),
            "go" => {
                gos += 1;
                let fault = gos >= k;
                let Some(p) = pos.clone() else {
                    writeln!(out, "nobestmove").unwrap();
                    continue;
                };
                match mode.as_str() {
                    "crash" if fault => {
                        eprintln!("fake engine: crashing on purpose");
                        std::process::exit(3);
                    }
                    "hang" if fault => loop {
                        std::thread::sleep(Duration::from_secs(1));
                    },
                    "illegal" if fault => writeln!(out, "bestmove (0T1)a1(0T1)h8").unwrap(),
                    "garbage" if fault => {
                        writeln!(out, "%%% garbage line").unwrap();
                        writeln!(out, "bestmove !!!notamove").unwrap();
                    }
                    "nobest" if fault => writeln!(out, "nobestmove").unwrap(),
                    _ => {
                        if mode == "slow" && fault {
                            std::thread::sleep(Duration::from_secs(3));
                        }
                        if p.action_len() > 0 && p.can_submit().is_ok() {
                            writeln!(out, "bestmove submit").unwrap();
                            out.flush().unwrap();
                            continue;
                        }
                        if mode == "onemove" && p.action_len() == 0 {
                            // The first move of an action it does not complete alone, so that the
                            // client must ask again (the random choice may be one jump).
                            if let Some(m) = first_of_longer_action(&p) {
                                writeln!(out, "bestmove {}", format_move(&m)).unwrap();
                                out.flush().unwrap();
                                continue;
                            }
                        }
                        match random.action(&p) {
                            Some(a) if mode == "onemove" && p.action_len() == 0 => {
                                writeln!(out, "bestmove {}", format_move(&a[0])).unwrap()
                            }
                            Some(a) => writeln!(
                                out,
                                "bestmove {}",
                                a.iter().map(format_move).collect::<Vec<_>>().join(" ")
                            )
                            .unwrap(),
                            None => writeln!(out, "nobestmove").unwrap(),
                        }
                    }
                }
            }
            "quit" => {
                writeln!(out, "bye").unwrap();
                break;
            }
            _ => {}
        }
        out.flush().unwrap();
    }
}

/// The first move of a legal action of several moves that cannot be submitted after that move.
fn first_of_longer_action(p: &chess5d_rules::Position) -> Option<chess5d_rules::Move> {
    p.legal_actions(chess5d_rules::Budget::DEFAULT).take(200).find_map(|a| {
        let first = *a.first()?;
        let mut after = p.clone();
        after.play(&first).ok()?;
        (a.len() > 1 && after.can_submit().is_err()).then_some(first)
    })
}
