//! A proof-number solver for 5D chess: can the side to move force checkmate within N of its
//! actions?
//!
//! [`solve`] runs depth-first proof-number search (df-pn, with the 1+epsilon trick) over whole
//! actions (a player's turn, one or more moves), with a bounded transposition table keyed by the
//! position's hash and the actions left, and the rules crate's proven verdicts at the leaves:
//! checkmate is a loss for the side to move, stalemate a draw (so not a win). It deepens one
//! action at a time, so a win it reports is the shortest. The answer is one of:
//!
//! - [`Verdict::Win`]: a forced mate in N actions of the side to move, with its proof tree
//!   (every defence answered);
//! - [`Verdict::NoWin`]: no forced mate within N actions, with its disproof tree (every action
//!   of the side to move answered by a defence);
//! - [`Verdict::Unknown`]: the node budget ran out, or a list of legal actions could not be
//!   finished within the rules' budget on the way (such a disproof proves nothing).
//!
//! Every answer but "unknown" comes with a tree that [`write_proof`] writes in the format of
//! [`check`], whose checker uses the rules crate alone (none of the solver's code).
//!
//! ```
//! use chess5d_rules::Variant;
//! use chess5d_solve::{solve, check, write_proof, Config, Verdict};
//!
//! let pos = Variant::by_name("Focused - Just Kings").unwrap().position();
//! let report = solve(&pos, &Config { max_actions: 1, ..Config::default() }, None);
//! assert!(matches!(report.verdict, Verdict::NoWin { within: 1, .. }));
//! assert_eq!(report.headline(&pos), "no win for white within 1 actions");
//! let text = write_proof(&pos, &report).unwrap();
//! assert_eq!(check::check(&text).unwrap(), "no win for white within 1 actions");
//! ```
#![deny(missing_docs)]

pub mod check;
mod parallel;
mod search;
mod table;

pub use parallel::solve_threads;

use chess5d_rules::{Color, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What a search may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The most actions of the side to move a win may take (a win in N counts its actions).
    pub max_actions: u32,
    /// The most nodes (positions whose legal actions are listed) before the answer is
    /// "unknown"; the proof's extraction may search as many again.
    pub nodes: u64,
    /// The rules' budget of each list of legal actions, in candidate tests.
    pub list_budget: u64,
    /// The transposition table's size, in entries (32 bytes each).
    pub table_entries: usize,
    /// The most candidate tests of the rules' action search in all, before "unknown".
    pub max_tests: u64,
}

impl Default for Config {
    /// Three actions, a million nodes, the rules' default budget per list, 2^20 entries.
    fn default() -> Self {
        Config {
            max_actions: 3,
            nodes: 1_000_000,
            list_budget: chess5d_rules::Budget::DEFAULT.tests,
            table_entries: 1 << 20,
            max_tests: u64::MAX,
        }
    }
}

/// A progress report, every 20,000 nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The actions the current iteration allows.
    pub depth: u32,
    /// Nodes so far.
    pub nodes: u64,
    /// The root's proof number.
    pub root_pn: u32,
    /// The root's disproof number.
    pub root_dn: u32,
    /// Table entries in use.
    pub table: usize,
    /// Seconds since the start.
    pub seconds: f64,
}

/// A node of a proof or disproof tree: the action that leads to it and the answers to it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// The action, its moves in long form separated by spaces (empty at the root).
    pub action: String,
    /// The actions answering it: every one of the side that must be answered, one of the other.
    pub children: Vec<Tree>,
}

impl Tree {
    /// The nodes of the tree (the actions written).
    pub fn size(&self) -> usize {
        self.children.iter().map(|c| 1 + c.size()).sum()
    }
}

/// What the solver found for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A forced checkmate within `actions` actions of the side to move (and none shorter).
    Win {
        /// The actions of the side to move.
        actions: u32,
        /// The proof: the mating line, every defence answered.
        proof: Tree,
    },
    /// No forced checkmate within `within` actions of the side to move.
    NoWin {
        /// The actions searched.
        within: u32,
        /// The disproof: every action of the side to move answered by a defence.
        disproof: Tree,
    },
    /// Not decided within the budgets.
    Unknown,
}

/// A verdict with the work it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The answer.
    pub verdict: Verdict,
    /// Nodes searched (positions whose legal actions were listed), proof extraction included.
    pub nodes: u64,
    /// Candidate tests of the rules' action search.
    pub tests: u64,
    /// Entries in the table at the end, and its capacity.
    pub table: (usize, usize),
    /// The time taken.
    pub elapsed: Duration,
}

impl Report {
    /// The verdict's headline: `win in N for white`, `no win for white within N actions` or
    /// `unknown` (the colour is the side to move's).
    pub fn headline(&self, pos: &Position) -> String {
        let side = color_name(pos.to_move());
        match &self.verdict {
            Verdict::Win { actions, .. } => format!("win in {actions} for {side}"),
            Verdict::NoWin { within, .. } => format!("no win for {side} within {within} actions"),
            Verdict::Unknown => "unknown".to_string(),
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Solves "can the side to move of `pos` (between actions) force checkmate within
/// `config.max_actions` of its actions?", reporting progress to `progress` if given.
pub fn solve(pos: &Position, config: &Config, progress: Option<&mut dyn FnMut(&Progress)>) -> Report {
    solve_with(pos, config, progress, None)
}

/// [`solve`], stopped ("unknown") as soon as `cancel` is set (a request that went away).
pub fn solve_with<'a>(
    pos: &Position,
    config: &Config,
    progress: Option<&'a mut dyn FnMut(&Progress)>,
    cancel: Option<&'a AtomicBool>,
) -> Report {
    let mut pos = pos.clone();
    pos.undo_action_moves();
    let mut s = search::Search::new(pos.to_move(), config, progress);
    s.cancel = cancel;
    let mut verdict = Verdict::Unknown;
    for k in 1..=config.max_actions {
        let e = s.solve(&mut pos, k);
        if e.pn == 0 {
            // Extraction may search again what the table lost: as much as the search did.
            s.aborted = false;
            s.node_limit = s.nodes.saturating_mul(2).max(s.node_limit);
            s.max_tests = s.tests.saturating_mul(2).max(s.max_tests);
            if let Some(children) = s.tree(&mut pos, k, true) {
                verdict = Verdict::Win {
                    actions: k,
                    proof: Tree {
                        action: String::new(),
                        children,
                    },
                };
            }
            break;
        }
        if e.dn != 0 || e.tainted {
            break;
        }
        if k == config.max_actions {
            s.aborted = false;
            s.node_limit = s.nodes.saturating_mul(2).max(s.node_limit);
            s.max_tests = s.tests.saturating_mul(2).max(s.max_tests);
            if let Some(children) = s.tree(&mut pos, k, false) {
                verdict = Verdict::NoWin {
                    within: k,
                    disproof: Tree {
                        action: String::new(),
                        children,
                    },
                };
            }
        }
    }
    if config.max_actions == 0 {
        verdict = Verdict::NoWin {
            within: 0,
            disproof: Tree::default(),
        };
    }
    Report {
        verdict,
        nodes: s.nodes,
        tests: s.tests,
        table: (s.table.len(), s.table.capacity()),
        elapsed: s.start.elapsed(),
    }
}

/// Whether the side to move of `pos` can force checkmate within `config.max_actions` of its
/// actions, without writing the proof or disproof tree (what a caller that only needs the
/// answer saves: a disproof's tree lists every action): `Some(true)`, `Some(false)`, or `None`
/// when a budget ran out (or `cancel` was set) first; with the candidate tests spent.
pub fn decide(pos: &Position, config: &Config, cancel: Option<&AtomicBool>) -> (Option<bool>, u64) {
    let mut pos = pos.clone();
    pos.undo_action_moves();
    let mut s = search::Search::new(pos.to_move(), config, None);
    s.cancel = cancel;
    for k in 1..=config.max_actions {
        let e = s.solve(&mut pos, k);
        if e.pn == 0 {
            return (Some(true), s.tests);
        }
        if e.dn != 0 || e.tainted {
            return (None, s.tests);
        }
    }
    (Some(false), s.tests)
}

/// The proof file of a report's verdict (see [`check`] for the format), `None` for "unknown".
pub fn write_proof(pos: &Position, report: &Report) -> Option<String> {
    let tree = match &report.verdict {
        Verdict::Win { proof, .. } => proof,
        Verdict::NoWin { disproof, .. } => disproof,
        Verdict::Unknown => return None,
    };
    let mut out = format!("{}\nclaim {}\n", check::MAGIC, report.headline(pos));
    out.push_str(&chess5d_notation::write_5dfen(pos));
    out.push_str("tree\n");
    fn lines(t: &Tree, depth: usize, out: &mut String) {
        for c in &t.children {
            for _ in 0..depth {
                out.push_str("  ");
            }
            out.push_str(&c.action);
            out.push('\n');
            lines(c, depth + 1, out);
        }
    }
    lines(tree, 0, &mut out);
    out.push_str("end\n");
    Some(out)
}
