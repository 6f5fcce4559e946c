//! Engine-versus-engine matches over 5DUCI, with the habits of cutechess and fastchess.
//!
//! [`run_match`] plays games between two engine commands (any 5DUCI program) in parallel, each
//! opening once with each colour (a game pair), with a clock (`10+0.1`), fixed nodes, depth or
//! move time; checks both engines start before any game; adjudicates (too many actions: draw;
//! an engine failure: a loss for that engine, with the reason); writes every game to a 5DPGN
//! file as soon as it ends; and reports the score, the pentanomial pair counts, Elo with its
//! interval and, optionally, a GSPRT verdict ([`Sprt`]). A match can be split in
//! shards ([`Shard`]) whose JSON summaries [`merge`] adds up. [`MatchOptions::run`] is what
//! `chess5d match` runs once its flags are read.
//!
//! Modules: `config` (what a match is), `openings`, `runner` (games and the schedule),
//! `statistics`, `output` (progress lines, 5DPGN), `shards`, `cli`.
//!
//! ```
//! use chess5d_match::{Pentanomial, Sprt};
//!
//! let test = Sprt::new(0.0, 10.0);
//! // One decisive pair is weak evidence, far from the bound ln(0.95/0.05) = 2.94.
//! let llr = test.llr_pairs(&Pentanomial { counts: [0, 0, 0, 0, 1] });
//! assert!(llr > 0.0 && llr < 0.05);
//! ```
#![deny(missing_docs)]

mod book;
mod cli;
mod config;
mod openings;
mod output;
mod runner;
mod shards;
mod statistics;

pub use book::{book_5dpgn, make_book, make_book_reporting, BookEntry, BookOptions};
pub use cli::{merge_summaries, parse_sprt, MatchOptions};
pub use config::{EngineSpec, MatchConfig, TimeControl, ENGINE_KEYS};
pub use openings::Opening;
pub use output::{info_comment, report_lines, started_line, MatchResult, Progress};
pub use runner::{
    game_seed, play_game, run_match, run_match_until, run_match_with_events, schedule, Ending, Event, GameRecord,
    GameResult, Stop,
};
pub use shards::{config_text, fingerprint, merge, Shard, Summary};
pub use statistics::{
    elo, elo_games, elo_of_score, elo_pairs, score_of_elo, sprt_llr, EloEstimate, Pentanomial, Sprt, SprtStatus,
    Trinomial,
};

use std::fmt;

/// Why a match could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// Bad settings or arguments.
    Config(String),
    /// An engine is missing, crashed or failed the handshake before the first game.
    Engine(String),
    /// A file could not be read or written.
    Io(String),
    /// Ctrl-C stopped the match (after its report was printed).
    Interrupted(String),
}

impl MatchError {
    /// The exit status of the command line: 2 for bad arguments and engines that do not
    /// start (nothing was played), 1 for input/output errors, 130 (as a shell reports a Ctrl-C)
    /// for a match stopped by Ctrl-C.
    pub fn exit_code(&self) -> i32 {
        match self {
            MatchError::Config(_) | MatchError::Engine(_) => 2,
            MatchError::Io(_) => 1,
            MatchError::Interrupted(_) => 130,
        }
    }
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(m) | MatchError::Engine(m) => write!(f, "{m}"),
            MatchError::Io(m) => write!(f, "i/o error: {m}"),
            MatchError::Interrupted(m) => write!(f, "interrupted: {m}"),
        }
    }
}

impl std::error::Error for MatchError {}
