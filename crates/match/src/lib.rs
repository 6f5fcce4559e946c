//! Engine-versus-engine matches over 5DUCI.
//!
//! [`run_match`] plays games between two engine commands (any 5DUCI program) in parallel,
//! swapping colours on each opening pair, with a clock (`10+0.1`), fixed nodes, depth or move
//! time; adjudicates (too many actions: draw; an engine failure: a loss for that engine, with
//! the reason); writes every game to a 5DPGN file as soon as it ends; and reports W/D/L, Elo
//! with a 95% margin and, optionally, an SPRT verdict. [`cli_main`] is the `chess5d` command
//! line for `engine` and `match`.
//!
//! ```
//! use chess5d_match::{elo, sprt_llr};
//!
//! let (e, margin) = elo(60, 20, 20).unwrap();
//! assert!(e > 100.0 && margin > 0.0);
//! assert!(sprt_llr(60, 20, 20, 0.0, 10.0) > 0.0);
//! ```
#![deny(missing_docs)]

mod cli;
mod config;
mod openings;
mod output;
mod runner;
mod statistics;

pub use cli::{cli_main, match_main, parse_match_args, MATCH_USAGE};
pub use config::{EngineSpec, MatchConfig, TimeControl};
pub use openings::Opening;
use output::today;
pub use output::{MatchResult, Progress};
pub use runner::{play_game, run_match, GameRecord, GameResult};
use statistics::sprt_status;
pub use statistics::{elo, sprt_llr, Sprt, SprtStatus};

use std::fmt;

/// Why a match could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// Bad settings or arguments.
    Config(String),
    /// A file could not be read or written.
    Io(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(m) => write!(f, "{m}"),
            MatchError::Io(m) => write!(f, "i/o error: {m}"),
        }
    }
}

impl std::error::Error for MatchError {}
