//! What a search reports: its score, its progress after each depth, and its result.

use chess5d_rules::Move;
use std::fmt;
use std::time::Duration;

/// The score of being mated now; mate in `n` plies scores `MATE - n`.
pub(crate) const MATE: i32 = 1_000_000;
/// Scores beyond this (in absolute value) are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - 10_000;

/// Converts an internal score to a reported one.
pub(crate) fn to_score(v: i32) -> Score {
    if v > MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v < -MATE_BOUND {
        Score::Mate(-((MATE + v) / 2))
    } else {
        Score::Cp(v)
    }
}

/// A score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many of the side to move's actions (negative: it gets mated).
    Mate(i32),
}

impl fmt::Display for Score {
    /// The 5DUCI form: `cp 35` or `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Progress of a search, reported after each finished depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// The depth finished, in plies (actions).
    pub depth: u32,
    /// With `MultiPV` above 1: the rank of this line (1 is the best); `None` in a search of
    /// one line.
    pub multipv: Option<u32>,
    /// The score of the line's first action (the best action's, in a search of one line).
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Legal actions generated so far.
    pub actions: u64,
    /// Time spent so far.
    pub time: Duration,
    /// The principal variation, one action per ply.
    pub pv: Vec<Vec<Move>>,
    /// Permille of the transposition table written by this search.
    pub hashfull: u32,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        per_second(self.nodes, self.time)
    }
}

fn per_second(n: u64, t: Duration) -> u64 {
    (n as u128 * 1_000_000 / t.as_micros().max(1)) as u64
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The action to play, or `None` if the side to move has no legal action.
    pub best: Option<Vec<Move>>,
    /// Its score.
    pub score: Score,
    /// The last depth searched completely.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Legal actions generated.
    pub actions: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Vec<Move>>,
}

impl SearchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        per_second(self.nodes, self.time)
    }

    /// Generated actions per second.
    pub fn actions_per_second(&self) -> u64 {
        per_second(self.actions, self.time)
    }
}
