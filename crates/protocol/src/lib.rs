//! 5DUCI, the engine protocol of 5D chess: its wire forms and the client side. What is sent and
//! accepted, the extensions beyond the draft and how engines announce them ([`Extensions`]) are
//! written up in `crates/protocol/PROTOCOL.md`, shown here as [`protocol_text`].
//!
//! - The text of the protocol: moves ([`format_move`], [`parse_move`]), 5DFEN boards, the
//!   `position` command ([`PositionCommand`]) and the arguments of `go` ([`Go`], [`parse_go`],
//!   [`go_text`]), both ways. An engine reads commands with them and turns a [`Go`] into the
//!   limits of its own search (our engine's command loop is `chess5d_engine::uci`).
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
//! use chess5d_protocol::{go_text, parse_go, Go, PositionCommand};
//! use std::time::Duration;
//!
//! let go = parse_go("wtime 60000 btime 60000 depth 4");
//! assert_eq!(go.depth, Some(4));
//! assert_eq!(go.wtime, Some(Duration::from_secs(60)));
//! assert_eq!(go_text(&Go::movetime(Duration::from_millis(500))), "go movetime 500");
//! let pos = PositionCommand::parse("startpos moves (0T1)e2(0T1)e4 submit").unwrap().position().unwrap();
//! assert_eq!(pos.to_move(), chess5d_rules::Color::Black);
//! ```
#![deny(missing_docs)]

#[doc = include_str!("../PROTOCOL.md")]
pub mod protocol_text {}

mod check;
mod client;
mod extensions;
mod text;

pub use check::{check_engine, Report, Step};
pub use client::{
    EngineAnswer, EngineError, EngineId, EngineProcess, GameState, DEFAULT_MOVETIME_MARGIN, FALLBACK_MOVETIME,
};
pub use extensions::{Extensions, EXTENSIONS_OPTION};
pub use text::{
    format_action, format_move, go_text, go_text_for, parse_fen_boards, parse_go, parse_move, parse_move_text,
    write_fen_boards, Go, MoveText, ParseError, PositionCommand, StartPos,
};
