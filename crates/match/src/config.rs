//! What a match is made of: the engines, the time control and the match's settings.

use crate::{MatchError, Opening, Shard, Sprt};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// An engine of the match: a shell command and the options to set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name written in the games (`White`/`Black`) and the progress lines; empty: the
    /// engine's `id name` (or its command, if it sends none).
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

impl fmt::Display for TimeControl {
    /// The `TimeControl` header: `10+0.1` for a clock (seconds), `movetime=0.05`, `nodes=1000`,
    /// `depth=4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, inc } => write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64()),
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_secs_f64()),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are counted for the first.
    pub engines: [EngineSpec; 2],
    /// Number of games.
    pub games: usize,
    /// The openings, used in turn, each for a pair of games with colours swapped (or for one
    /// game when `paired` is false).
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
    /// Games are played in pairs, one opening with both colours, and the statistics count
    /// pairs (pentanomial). False: each game has its own opening, statistics count games.
    pub paired: bool,
    /// The match seed: engines that list a `Seed` option (and were given none) get one derived
    /// from it and the game number, so a game replays the same in any run or shard.
    pub seed: u64,
    /// Report the score, Elo and SPRT every this many games (and at the end); 0: only at the end.
    pub rating_interval: usize,
    /// Play only this share of the games (by pair index); the SPRT does not stop a shard.
    pub shard: Option<Shard>,
    /// Where to write the JSON summary (counts and the configuration's fingerprint) at the end.
    pub summary: Option<PathBuf>,
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
            paired: true,
            seed: 0,
            rating_interval: 10,
            shard: None,
            summary: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_print() {
        let tc = TimeControl::parse_clock("10+0.1").unwrap();
        assert_eq!(
            tc,
            TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            }
        );
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!(TimeControl::parse_clock("5").unwrap().to_string(), "5+0");
        assert_eq!(
            TimeControl::MoveTime(Duration::from_millis(50)).to_string(),
            "movetime=0.05"
        );
        assert_eq!(TimeControl::Nodes(60).to_string(), "nodes=60");
        for bad in ["", "x", "-1", "1+y", "inf"] {
            let e = TimeControl::parse_clock(bad).unwrap_err();
            assert!(e.to_string().contains("bad time control"), "{bad}: {e}");
        }
    }
}
