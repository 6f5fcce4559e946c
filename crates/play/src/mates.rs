//! Proven mates where players meet them: the analysis board's "Mate in N (proven)" line and the
//! computer review's "missed a forced mate in N". Both are the proof-number solver's
//! (`chess5d_solve`) within a node budget; a budget spent is silence, never a guess.

use crate::text::pv_json;
use chess5d_rules::{Budget, Color, Move, Outcome, Position};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;

/// The longest mate the analysis board proves (actions of the mating side).
pub const ANALYSIS_MAX: usize = 3;
/// The analysis board's solver nodes (positions whose legal actions are listed).
pub const ANALYSIS_NODES: u64 = 20_000;
/// The longest mate the review looks for before each action.
pub const REVIEW_MAX: usize = 2;
/// The review's solver nodes per position (and again for the check of the action played).
pub const REVIEW_NODES: u64 = 2_000;
/// The review's candidate tests of the rules' action search per position.
pub const REVIEW_TESTS: u64 = 400_000;

/// What the solver may spend on one question.
#[derive(Clone, Copy, Debug)]
pub struct Effort<'a> {
    /// The longest mate looked for.
    pub max: usize,
    /// Solver nodes.
    pub nodes: u64,
    /// Candidate tests of the rules' action search in all.
    pub tests: u64,
    /// Stops the search ("unknown") once set.
    pub cancel: Option<&'a AtomicBool>,
}

impl Effort<'_> {
    /// The analysis board's: mate in at most [`ANALYSIS_MAX`], [`ANALYSIS_NODES`] nodes and
    /// `tests` tests (the server's `proof-budget`).
    pub fn analysis(tests: u64) -> Effort<'static> {
        Effort {
            max: ANALYSIS_MAX,
            nodes: ANALYSIS_NODES,
            tests,
            cancel: None,
        }
    }

    /// The review's, per action.
    pub fn review() -> Effort<'static> {
        Effort {
            max: REVIEW_MAX,
            nodes: REVIEW_NODES,
            tests: REVIEW_TESTS,
            cancel: None,
        }
    }

    fn config(&self, max: usize) -> chess5d_solve::Config {
        chess5d_solve::Config {
            max_actions: max.min(u32::MAX as usize) as u32,
            nodes: self.nodes,
            list_budget: crate::proof::BUDGET,
            table_entries: 1 << 14,
            max_tests: self.tests,
        }
    }
}

/// A forced mate, proven: every defence answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proven {
    /// The mating side (the side to move).
    pub side: Color,
    /// Mate in this many of its actions (the shortest).
    pub n: usize,
    /// The main line of the proof: the mating side's actions and the first defence of each.
    pub line: Vec<Vec<Move>>,
}

impl Proven {
    /// `{mate_in, side, text: "Mate in 2 (proven)", pv}` (`pv` as the engine's lines, from
    /// `pos`, the position proven).
    pub fn json(&self, pos: &Position) -> Value {
        json!({
            "mate_in": self.n,
            "side": crate::color_name(self.side),
            "text": format!("Mate in {} (proven)", self.n),
            "pv": pv_json(pos, &self.line),
        })
    }
}

/// The shortest forced mate of the side to move of `pos` (between actions) within
/// `effort.max` actions, proven within the effort; `None` if there is none or it is not proven
/// in time.
pub fn proven_mate(pos: &Position, effort: &Effort) -> Option<Proven> {
    let report = chess5d_solve::solve_with(pos, &effort.config(effort.max), None, effort.cancel);
    let chess5d_solve::Verdict::Win { actions, proof } = report.verdict else {
        return None;
    };
    let mut line = Vec::new();
    let mut at = pos.clone();
    let mut node = &proof;
    while let Some(child) = node.children.first() {
        let moves = chess5d_notation::long::parse_action(&child.action).ok()?;
        let mut action = Vec::new();
        for m in moves {
            let mv = m.resolve(&at).ok()?;
            at.play(&mv).ok()?;
            action.push(mv);
        }
        at.submit().ok()?;
        line.push(action);
        node = child;
    }
    Some(Proven {
        side: pos.to_move(),
        n: actions as usize,
        line,
    })
}

/// The forced mate in N the side to move had before `played` and gave up by playing it, if
/// proven within `effort` (`None`: none, kept, or not proven in time). An action keeps a mate
/// in N if it mates, or if after every defence the solver proves mate within N - 1 more.
pub fn missed_mate(before: &Position, played: &[Move], effort: &Effort) -> Option<usize> {
    let report = chess5d_solve::solve_with(before, &effort.config(effort.max), None, effort.cancel);
    // The tests left for the check of the action played: the effort is for the whole question.
    let mut left = effort.tests.saturating_sub(report.tests);
    let chess5d_solve::Verdict::Win { actions, proof } = report.verdict else {
        return None;
    };
    let n = actions as usize;
    let even = before.even();
    if proof
        .children
        .first()
        .is_some_and(|first| first.action == played.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" "))
    {
        return None;
    }
    let mut after = before.clone();
    for m in played {
        after.play(m).ok()?;
    }
    after.submit().ok()?;
    let budget = Budget::tests(crate::proof::BUDGET);
    match after.outcome(budget) {
        Outcome::Checkmate | Outcome::Unknown => return None,
        Outcome::Stalemate => return Some(n),
        Outcome::Ongoing(_) => {}
    }
    if n == 1 {
        return Some(1);
    }
    // Every defence must still lose within N - 1: one that escapes means the mate was given
    // up; one not decided in time means nothing is said.
    let mut defences = after.legal_actions(budget);
    let replies: Vec<Vec<Move>> = defences.by_ref().collect();
    left = left.saturating_sub(defences.tests());
    if defences.exhausted() {
        return None;
    }
    for reply in replies {
        let mut next = after.clone();
        for m in &reply {
            next.play_unchecked(m);
        }
        next.submit_unchecked();
        let mut config = effort.config(n - 1);
        config.max_tests = left;
        // The answer only: a disproof's tree would list every action.
        let (win, tests) = chess5d_solve::decide(&next, &config, effort.cancel);
        left = left.saturating_sub(tests);
        match win {
            Some(true) => {}
            Some(false) => return Some(n),
            None => return None,
        }
    }
    None
}
