//! A fake of the draft's own engine (ftxi/5dchess_engine), for tests: it behaves as the
//! project's `protocol.md` records that engine, so that the client is tested against it
//! without it. It plays random legal actions (the rules crate picks them).
//!
//! What it does, as that engine does:
//! - no `id name`; `5duciok` at once, then it is busy initialising (`--init-ms`, default 200):
//!   `isready` is answered when that ends, every other command gets
//!   `info engine is busy, please run 'stop' first` and is dropped;
//! - `position` knows only `startpos` (Standard - Turn Zero) and `[size WxH] [odd|even] fen
//!   <5DFEN boards>`; any other form (`position variant ...`) aborts the process (SIGABRT)
//!   after `parse_error ... Expect number after ':'` on stderr; a move it cannot read (`a8=Q`,
//!   an illegal one) gets `info position error: cannot parse move ...` and the previous
//!   position is kept;
//! - `go` honours only `movetime` and `depth`; anything else searches until `stop`; the search
//!   overshoots `movetime` by `--overshoot-ms` (default 150); a `go` during a search gets
//!   `info search already running`, other commands the busy line; `isready` during a search is
//!   answered when it ends;
//! - with `--stall-newgame K` (or the environment variable `DRAFT_ENGINE_STALL_NEWGAME=K`) the
//!   K-th `5ducinewgame` leaves `isready` unanswered until the next `5ducinewgame`.
//!
//! `--seed N` seeds the random choice (default: the process id). `--drop N`, a test knob for
//! the client's retries, drops the first N `position`/`go` commands after initialisation as if
//! the engine were still busy (`position` gets the busy line, `go` `info search already
//! running`).

#[path = "support/random.rs"]
mod random;

use chess5d_protocol::{format_move, parse_move, StartPos};
use chess5d_rules::Position;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

const BUSY: &str = "info engine is busy, please run 'stop' first";

struct Config {
    init: Duration,
    overshoot: Duration,
    stall_newgame: Option<u32>,
    seed: u64,
    drop: u64,
}

fn config() -> Result<Config, String> {
    let mut c = Config {
        init: Duration::from_millis(200),
        overshoot: Duration::from_millis(150),
        stall_newgame: std::env::var("DRAFT_ENGINE_STALL_NEWGAME")
            .ok()
            .and_then(|v| v.parse().ok()),
        seed: u64::from(std::process::id()),
        drop: 0,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair
            .get(1)
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| format!("{} needs a number", pair[0]))?;
        match pair[0].as_str() {
            "--init-ms" => c.init = Duration::from_millis(value),
            "--overshoot-ms" => c.overshoot = Duration::from_millis(value),
            "--stall-newgame" => c.stall_newgame = Some(value as u32),
            "--seed" => c.seed = value,
            "--drop" => c.drop = value,
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(c)
}

struct Search {
    /// When it ends by itself; `None`: at `stop`.
    ends: Option<Instant>,
    answer: String,
}

/// The `position` arguments, as the draft's engine reads them: `Err` for a form it does not
/// know (it aborts on it).
fn read_position(args: &str, previous: &Option<Position>, out: &mut impl Write) -> Result<Option<Position>, String> {
    let (head, moves) = match args.find(" moves") {
        Some(i) => (&args[..i], args[i + 6..].split_whitespace().collect::<Vec<_>>()),
        None => (args, Vec::new()),
    };
    let head = head.trim();
    let draft_form = head == "startpos"
        || head
            .split_whitespace()
            .next()
            .is_some_and(|w| matches!(w, "size" | "odd" | "even" | "fen"));
    if !draft_form {
        return Err(format!("parse_error: position '{head}': Expect number after ':'"));
    }
    let start = chess5d_protocol::PositionCommand::parse(head)
        .map_err(|e| format!("parse_error: {e}: Expect number after ':'"))?
        .start;
    if matches!(start, StartPos::Variant(_)) {
        return Err("parse_error: Expect number after ':'".into());
    }
    let mut pos = start.position().map_err(|e| format!("parse_error: {e}"))?;
    for tok in moves {
        let played = if tok == "submit" {
            pos.submit().map(|_| ()).map_err(|e| e.to_string())
        } else if tok.contains('=') {
            Err("'=' is not in the draft".to_string())
        } else {
            parse_move(tok, &pos)
                .map_err(|e| e.to_string())
                .and_then(|m| pos.play(&m).map(|_| ()).map_err(|e| e.to_string()))
        };
        if played.is_err() {
            writeln!(out, "info position error: cannot parse move {tok}").map_err(|e| e.to_string())?;
            return Ok(previous.clone());
        }
    }
    Ok(Some(pos))
}

fn main() {
    let c = match config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("draft_engine: {e}");
            std::process::exit(2);
        }
    };
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut random = random::Random::new(c.seed);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut busy_until: Option<Instant> = None;
    let mut search: Option<Search> = None;
    let mut owed_ready = 0;
    let mut stalled = false;
    let mut newgames = 0;
    let mut pos: Option<Position> = None;
    let mut drop = c.drop;
    loop {
        let wake = [busy_until, search.as_ref().and_then(|s| s.ends)]
            .into_iter()
            .flatten()
            .min();
        let line = match wake {
            Some(w) => match rx.recv_timeout(w.saturating_duration_since(Instant::now())) {
                Ok(l) => Some(l),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            },
            None => match rx.recv() {
                Ok(l) => Some(l),
                Err(_) => break,
            },
        };
        let now = Instant::now();
        if busy_until.is_some_and(|t| t <= now) {
            busy_until = None;
        }
        if search.as_ref().is_some_and(|s| s.ends.is_some_and(|t| t <= now)) {
            let s = search.take().expect("a search");
            writeln!(out, "{}", s.answer).unwrap();
        }
        if let Some(line) = line {
            let (cmd, args) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
            match cmd {
                "quit" => {
                    writeln!(out, "bye").unwrap();
                    out.flush().unwrap();
                    return;
                }
                "isready" => owed_ready += 1,
                _ if busy_until.is_some() => writeln!(out, "{BUSY}").unwrap(),
                "go" if search.is_some() => writeln!(out, "info search already running").unwrap(),
                "stop" => {
                    if let Some(s) = search.take() {
                        writeln!(out, "{}", s.answer).unwrap();
                    }
                }
                _ if search.is_some() => writeln!(out, "{BUSY}").unwrap(),
                "position" | "go" if drop > 0 => {
                    drop -= 1;
                    let says = if cmd == "go" {
                        "info search already running"
                    } else {
                        BUSY
                    };
                    writeln!(out, "{says}").unwrap();
                }
                "5duci" => {
                    writeln!(out, "5duciok").unwrap();
                    busy_until = Some(now + c.init);
                }
                "5ducinewgame" => {
                    newgames += 1;
                    if stalled {
                        stalled = false;
                    } else if c.stall_newgame == Some(newgames) {
                        stalled = true;
                    }
                }
                "position" => match read_position(args, &pos, &mut out) {
                    Ok(p) => pos = p,
                    Err(e) => {
                        eprintln!("{e}");
                        out.flush().unwrap();
                        std::process::abort();
                    }
                },
                "go" => {
                    let words: Vec<&str> = args.split_whitespace().collect();
                    let arg = |name: &str| {
                        words
                            .iter()
                            .position(|w| *w == name)
                            .and_then(|i| words.get(i + 1))
                            .and_then(|v| v.parse::<u64>().ok())
                    };
                    let ends = match (arg("movetime"), arg("depth")) {
                        (Some(ms), _) => Some(now + Duration::from_millis(ms) + c.overshoot),
                        (None, Some(d)) => Some(now + Duration::from_millis(5 * d)),
                        (None, None) => None,
                    };
                    let p = pos
                        .clone()
                        .unwrap_or_else(|| StartPos::StartPos.position().expect("startpos"));
                    let answer = match random.action(&p) {
                        Some(a) => format!("bestmove {}", a.iter().map(format_move).collect::<Vec<_>>().join(" ")),
                        None => "nobestmove".into(),
                    };
                    search = Some(Search { ends, answer });
                }
                _ => {}
            }
        }
        if busy_until.is_none() && search.is_none() && !stalled {
            for _ in 0..owed_ready {
                writeln!(out, "readyok").unwrap();
            }
            owed_ready = 0;
        }
        out.flush().unwrap();
    }
}
