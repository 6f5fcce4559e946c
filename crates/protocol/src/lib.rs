//! 5DUCI, the engine protocol of 5D chess, both sides. What is sent and accepted, the
//! extensions beyond the draft and how engines announce them ([`Extensions`]) are written up in
//! `crates/protocol/PROTOCOL.md`, shown here as [`protocol_text`].
//!
//! - Engine side: [`run_engine`] runs the command loop around a [`chess5d_engine::Engine`]
//!   (searching on its own thread, so `isready` and `stop` are answered at once);
//!   [`run_stdio`] does it on standard input and output; [`engine_main`] parses the
//!   `chess5d engine` command line.
//! - Client side: [`EngineProcess`] starts any 5DUCI program, does the handshake (learning the
//!   engine's extensions), sends positions and `go` in the forms the engine knows (the draft's
//!   alone to an engine that announces no extension), and checks the answer against the rules;
//!   every misbehaviour becomes an [`EngineError`].
//! - [`check_engine`] walks a program through the protocol and reports the first failing step;
//!   an engine that speaks the draft alone passes.
//!
//! Moves are in long form with the draft's timeline numbering (the internal index: in games
//! with two starting timelines `0` is `+0` and `-1` is `-0`), e.g. `(0T1)e2(0T1)e4`.
//!
//! ```
//! use chess5d_engine::{Engine, EngineOptions};
//! use chess5d_protocol::run_engine;
//!
//! let input = "5duci\nisready\nposition startpos moves (0T1)e2(0T1)e4 submit\ngo depth 1\nquit\n";
//! let output = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
//! # #[derive(Clone)] struct W(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
//! # impl std::io::Write for W {
//! #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
//! #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! # }
//! run_engine(input.as_bytes(), W(output.clone()), Engine::new(EngineOptions::default())).unwrap();
//! let text = String::from_utf8(output.lock().unwrap().clone()).unwrap();
//! assert!(text.contains("5duciok") && text.contains("readyok"));
//! assert!(text.lines().any(|l| l.starts_with("bestmove (0T1)")));
//! assert!(text.ends_with("bye\n"));
//! ```
#![deny(missing_docs)]

#[doc = include_str!("../PROTOCOL.md")]
pub mod protocol_text {}

mod check;
mod client;
mod engine_side;
mod extensions;
mod text;

pub use check::{check_engine, Report, Step};
pub use client::{
    EngineAnswer, EngineError, EngineId, EngineProcess, GameState, DEFAULT_MOVETIME_MARGIN, FALLBACK_MOVETIME,
};
pub use engine_side::{info_line, run_engine, run_stdio, DEFAULT_GO, ENGINE_AUTHOR, ENGINE_NAME};
pub use extensions::{Extensions, EXTENSIONS_OPTION};
pub use text::{
    format_action, format_move, go_text, go_text_for, parse_fen_boards, parse_go, parse_move, parse_move_text,
    write_fen_boards, MoveText, ParseError, PositionCommand, StartPos,
};

use chess5d_engine::{Engine, EngineOptions};

/// The usage of [`engine_main`].
pub const ENGINE_USAGE: &str = "\
usage: chess5d engine [--bot alphabeta|greedy|random] [--hash MB] [--option NAME=VALUE]...
       chess5d engine --check COMMAND

Runs the engine over 5DUCI on standard input and output. --option sets any engine option
(Hash, Threads, Bot, ActionCap, NodeBudget, Seed, MoveOverhead) before the protocol starts.
--check runs the 5DUCI compliance checker on another program (a shell command) and prints
its report, with the extensions it announces (see crates/protocol/PROTOCOL.md); an engine
that speaks the draft alone passes. The exit status tells whether it passed.";

/// Prints a line on standard output; a closed pipe (`| head`) is not an error.
fn print_out(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// The `chess5d engine ...` command line (the arguments after `engine`).
pub fn engine_main(args: &[String]) -> Result<(), String> {
    let mut engine = Engine::new(EngineOptions::default());
    let mut i = 0;
    let value = |i: usize| {
        args.get(i + 1)
            .cloned()
            .ok_or_else(|| format!("{} needs a value\n{ENGINE_USAGE}", args[i]))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--check" => {
                let cmd = value(i)?;
                let report = check_engine(&cmd);
                print_out(&report.to_string());
                return if report.passed() {
                    Ok(())
                } else {
                    Err(format!("'{cmd}' failed the 5DUCI check"))
                };
            }
            "--bot" => engine.set_option("Bot", &value(i)?).map_err(|e| e.to_string())?,
            "--hash" => engine.set_option("Hash", &value(i)?).map_err(|e| e.to_string())?,
            "--option" => {
                let v = value(i)?;
                let (n, val) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--option wants NAME=VALUE, got '{v}'"))?;
                engine.set_option(n, val).map_err(|e| e.to_string())?;
            }
            "-h" | "--help" => {
                print_out(ENGINE_USAGE);
                return Ok(());
            }
            other => return Err(format!("unknown argument '{other}'\n{ENGINE_USAGE}")),
        }
        i += 2;
    }
    run_stdio(engine.options().clone()).map_err(|e| e.to_string())
}
