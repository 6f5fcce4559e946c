//! What a match is made of: the engines, the time control and the match's settings.

use crate::{MatchError, Opening, Sprt};
use std::path::PathBuf;
use std::time::Duration;

/// An engine of the match: a shell command and the options to set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name written in the games (`White`/`Black`).
    pub name: String,
    /// The command, run with `sh -c`.
    pub command: String,
    /// `setoption` pairs sent after the handshake.
    pub options: Vec<(String, String)>,
}

/// How long engines may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: base time plus an increment per action; running out loses.
    Clock {
        /// Time at the start.
        base: Duration,
        /// Added after each action.
        inc: Duration,
    },
    /// A fixed time per action.
    MoveTime(Duration),
    /// A fixed number of nodes per action.
    Nodes(u64),
    /// A fixed depth per action.
    Depth(u32),
}

impl TimeControl {
    /// Reads `10+0.1` (seconds + increment) or `10`.
    pub fn parse_clock(s: &str) -> Result<TimeControl, MatchError> {
        let secs = |x: &str| {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| MatchError::Config(format!("bad time control '{s}'")))
        };
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        Ok(TimeControl::Clock {
            base: secs(base)?,
            inc: secs(inc)?,
        })
    }
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are counted for the first.
    pub engines: [EngineSpec; 2],
    /// Number of games.
    pub games: usize,
    /// The openings, used in turn, each for a pair of games with colours swapped.
    pub openings: Vec<Opening>,
    /// Thinking time.
    pub tc: TimeControl,
    /// Games played at once.
    pub concurrency: usize,
    /// After this many actions the game is a draw.
    pub max_actions: usize,
    /// The 5DPGN file the games are appended to.
    pub pgn: Option<PathBuf>,
    /// Stop early on an SPRT decision.
    pub sprt: Option<Sprt>,
    /// Extra time an engine may take over its clock or move time before it loses on time
    /// (pipe latency, process start).
    pub margin: Duration,
    /// The `Event` header.
    pub event: String,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engines: [
                EngineSpec {
                    name: "engine1".into(),
                    command: "chess5d engine".into(),
                    options: vec![],
                },
                EngineSpec {
                    name: "engine2".into(),
                    command: "chess5d engine".into(),
                    options: vec![],
                },
            ],
            games: 2,
            openings: vec![],
            tc: TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100),
            },
            concurrency: 1,
            max_actions: 200,
            pgn: None,
            sprt: None,
            margin: Duration::from_millis(500),
            event: "chess5d match".into(),
        }
    }
}
