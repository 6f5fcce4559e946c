//! 5DUCI, the engine protocol of 5D chess, both sides. What is sent and accepted, the
//! extensions beyond the draft and how engines announce them ([`Extensions`]) are written up in
//! `crates/protocol/PROTOCOL.md`, shown here as [`protocol_text`].
//!
//! - Engine side: [`run_engine`] runs the command loop around a [`chess5d_engine::Engine`]
//!   (searching on its own thread, so `isready` and `stop` are answered at once);
//!   [`run_stdio`] does it on standard input and output, with [`engine_options`] set first.
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
