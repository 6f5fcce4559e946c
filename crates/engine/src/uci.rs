//! The engine's side of 5DUCI (as Stockfish's `uci.cpp`): the command loop around an
//! [`Engine`], which reads commands with the wire types of [`chess5d_protocol`], turns a `go`
//! into the search's [`Limits`] and answers with the search's choice (searching on its own
//! thread, so that `isready` and `stop` are answered at once).
//!
//! ```
//! use chess5d_engine::{uci, Engine, EngineOptions};
//!
//! let input = "5duci\nisready\nposition startpos moves (0T1)e2(0T1)e4 submit\ngo depth 1\nquit\n";
//! let output = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
//! # #[derive(Clone)] struct W(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
//! # impl std::io::Write for W {
//! #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
//! #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! # }
//! uci::run_engine(input.as_bytes(), W(output.clone()), Engine::new(EngineOptions::default())).unwrap();
//! let text = String::from_utf8(output.lock().unwrap().clone()).unwrap();
//! assert!(text.contains("5duciok") && text.contains("readyok"));
//! assert!(text.lines().any(|l| l.starts_with("bestmove (0T1)")));
//! assert!(text.ends_with("bye\n"));
//! ```

use crate::{Engine, EngineOptions, Limits, SearchInfo};
use chess5d_protocol::{format_action, parse_go, Extensions, Go, PositionCommand, StartPos, EXTENSIONS_OPTION};
use chess5d_rules::{Budget, Position};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
// std::time on native; performance.now() in the browser.
use web_time::Instant;

/// The name the engine gives in `id name`.
pub const ENGINE_NAME: &str = concat!("chess5d ", env!("CARGO_PKG_VERSION"));
/// The author the engine gives in `id author`.
pub const ENGINE_AUTHOR: &str = "the chess5d developers";

/// How long a bare `go` (no argument) searches.
pub const DEFAULT_GO: Duration = Duration::from_secs(5);

/// The limits of the engine's search for a `go` command: its arguments, and for the draft's
/// bare `go` a search of [`DEFAULT_GO`] rather than one that never ends by itself.
pub fn limits(go: &Go) -> Limits {
    let mut limits = go.clone();
    if limits == Limits::default() {
        limits.movetime = Some(DEFAULT_GO);
    }
    limits
}

/// Engine options with these settings applied in order (`("Bot", "random")`,
/// `("Hash", "64")`, any option the engine lists), as `chess5d engine --option NAME=VALUE`
/// sets them before the protocol starts. An unknown option or a bad value is an error naming it.
pub fn engine_options(settings: &[(String, String)]) -> Result<EngineOptions, String> {
    let mut engine = Engine::new(EngineOptions::default());
    for (name, value) in settings {
        engine
            .set_option(name, value)
            .map_err(|e| format!("option {name}: {e}"))?;
    }
    Ok(engine.options().clone())
}

type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) -> io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(w, "{line}")?;
    w.flush()
}

/// The `info` line of a finished depth; the principal variation's actions are separated by
/// `submit`, as in `position ... moves`.
pub fn info_line(i: &SearchInfo) -> String {
    let pv =
        i.pv.iter()
            .map(|a| format_action(a))
            .collect::<Vec<_>>()
            .join(" submit ");
    let rank = i.multipv.map(|k| format!(" multipv {k}")).unwrap_or_default();
    format!(
        "info depth {}{rank} score {} nodes {} nps {} time {} hashfull {} pv {}",
        i.depth,
        i.score,
        i.nodes,
        i.nps(),
        i.time.as_millis(),
        i.hashfull,
        pv
    )
    .trim_end()
    .trim_end_matches(" pv")
    .to_string()
}

/// The answer to `go` in a position in the middle of an action: `submit` if the action can
/// end there, else the rest of a legal action that starts with the moves played.
fn finish_action(pos: &Position) -> String {
    if pos.can_submit().is_ok() {
        return "bestmove submit".to_string();
    }
    // From a position in the middle of an action, the legal actions are the rest of it: the
    // moves played are not among them.
    match pos.legal_actions(Budget::DEFAULT).next() {
        Some(rest) => format!("bestmove {}", format_action(&rest)),
        None => "nobestmove".to_string(),
    }
}

struct Running {
    handle: JoinHandle<Engine>,
    halt: Arc<AtomicBool>,
}

/// Runs the engine side of 5DUCI: reads commands from `reader` until `quit` or the end of
/// input, writes answers to `writer`. `isready` is answered at once, even during a search.
pub fn run_engine<R, W>(reader: R, writer: W, engine: Engine) -> io::Result<()>
where
    R: BufRead,
    W: Write + Send + 'static,
{
    let out: Out<W> = Arc::new(Mutex::new(writer));
    let stop = engine.stop_flag();
    let mut engine = Some(engine);
    let mut running: Option<Running> = None;
    let mut position: Result<Position, String> = StartPos::StartPos.position().map_err(|e| e.to_string());

    // Stops a search in progress and takes the engine back.
    let finish = |running: &mut Option<Running>, engine: &mut Option<Engine>| {
        if let Some(r) = running.take() {
            stop.store(true, Ordering::Relaxed);
            r.halt.store(true, Ordering::Relaxed);
            match r.handle.join() {
                Ok(e) => *engine = Some(e),
                Err(_) => *engine = Some(Engine::default()),
            }
            stop.store(false, Ordering::Relaxed);
        }
    };

    // How long the last `position` command took to read (its moves are replayed and checked):
    // the search clock starts that much before `go`, since the GUI's clock was running.
    let mut position_took = Duration::ZERO;
    for line in reader.lines() {
        let line = line?;
        let received = Instant::now();
        let line = line.trim();
        let (cmd, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        match cmd {
            "5duci" | "uci" => {
                say(&out, &format!("id name {ENGINE_NAME}"))?;
                say(&out, &format!("id author {ENGINE_AUTHOR}"))?;
                for spec in Engine::option_specs() {
                    say(&out, &spec.uci_line())?;
                }
                say(&out, &Extensions::ALL.option_line())?;
                say(&out, "5duciok")?;
            }
            "isready" => say(&out, "readyok")?,
            "setoption" => {
                finish(&mut running, &mut engine);
                let rest = args.strip_prefix("name").unwrap_or(args).trim();
                let (name, value) = match rest.split_once(" value") {
                    Some((n, v)) => (n.trim(), v.trim()),
                    None => (rest, ""),
                };
                if name.eq_ignore_ascii_case(EXTENSIONS_OPTION) {
                    // An announcement, not a setting: every extension stays on.
                    continue;
                }
                if let Some(e) = engine.as_mut() {
                    if let Err(err) = e.set_option(name, value) {
                        say(&out, &format!("info string {err}"))?;
                    }
                }
            }
            "5ducinewgame" | "ucinewgame" => {
                finish(&mut running, &mut engine);
                if let Some(e) = engine.as_mut() {
                    e.new_game();
                }
            }
            "position" => {
                finish(&mut running, &mut engine);
                position = PositionCommand::parse(args)
                    .and_then(|p| p.position())
                    .map_err(|e| e.to_string());
                position_took = received.elapsed();
                if let Err(e) = &position {
                    say(&out, &format!("info string bad position: {e}"))?;
                }
            }
            "go" => {
                finish(&mut running, &mut engine);
                let pos = match &position {
                    Ok(p) => p.clone(),
                    Err(e) => {
                        say(&out, &format!("info string no position to search: {e}"))?;
                        say(&out, "nobestmove")?;
                        continue;
                    }
                };
                let limits = limits(&parse_go(args));
                let start = received.checked_sub(position_took).unwrap_or(received);
                position_took = Duration::ZERO;
                let mut eng = engine.take().unwrap_or_default();
                let halt = Arc::new(AtomicBool::new(false));
                let (o, h) = (Arc::clone(&out), Arc::clone(&halt));
                let handle = std::thread::spawn(move || {
                    let answer = if pos.action_len() > 0 {
                        // A position in the middle of an action: finish it.
                        finish_action(&pos)
                    } else {
                        let r = eng.search_since(&pos, &limits, start, &mut |i| {
                            let _ = say(&o, &info_line(i));
                        });
                        match r.best {
                            Some(a) => format!("bestmove {}", format_action(&a)),
                            None => "nobestmove".to_string(),
                        }
                    };
                    if limits.infinite {
                        // `go infinite` answers only after `stop`.
                        while !h.load(Ordering::Relaxed) {
                            std::thread::sleep(Duration::from_millis(2));
                        }
                    }
                    let _ = say(&o, &answer);
                    eng
                });
                running = Some(Running { handle, halt });
            }
            "stop" => finish(&mut running, &mut engine),
            "quit" => {
                finish(&mut running, &mut engine);
                say(&out, "bye")?;
                return Ok(());
            }
            _ => {}
        }
    }
    finish(&mut running, &mut engine);
    Ok(())
}

/// Runs the engine on standard input and output (what `chess5d engine` does).
pub fn run_stdio(options: EngineOptions) -> io::Result<()> {
    let stdin = io::stdin();
    run_engine(stdin.lock(), io::stdout(), Engine::new(options))
}
