//! The proof of a puzzle's goal, "mate in N for the side to move": every legal action of both
//! sides is tried (for the puzzle maker, on the server and in the browser's worker).

use crate::error::PlayError;
use crate::terms::{color_name, MAX_NAME};
use crate::text::movetext;
use chess5d_notation::LoadedGame;
use chess5d_rules::{Budget, Position};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::terms::MAX_MATE_IN;

/// The budget of each list of legal actions in the puzzle maker's proof.
pub const BUDGET: u64 = 200_000;

/// The work a proof may do in all by default, in candidate tests of the rules' search (each
/// action listed counts one more); a door may set its own (the server's `--proof-budget`).
pub const TOTAL_BUDGET: u64 = 2_000_000;

/// The work a proof may do, counted: each list of legal actions within `per_list` candidate
/// tests, at most `total` tests (and actions listed) in all, and nothing more once `cancel` is
/// set (the request went away or timed out). Spent or cancelled, the proof answers "unknown"
/// ([`PlayError::ProofUnfinished`]), never a guess.
#[derive(Debug)]
pub struct Work<'a> {
    per_list: u64,
    left: Cell<u64>,
    total: u64,
    positions: Cell<u64>,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Work<'a> {
    /// A budget of `total` candidate tests, at most `per_list` for one list of legal actions,
    /// stopped when `cancel` (if any) is set.
    pub fn new(per_list: u64, total: u64, cancel: Option<&'a AtomicBool>) -> Work<'a> {
        Work {
            per_list,
            left: Cell::new(total),
            total,
            positions: Cell::new(0),
            cancel,
        }
    }

    /// The work done so far (candidate tests and actions listed).
    pub fn used(&self) -> u64 {
        self.total - self.left.get()
    }

    /// The positions whose legal actions were listed so far.
    pub fn positions(&self) -> u64 {
        self.positions.get()
    }

    /// Whether the proof was stopped from outside.
    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// The budget of the next list: `None` if the budget is spent or the proof cancelled.
    fn next(&self) -> Option<Budget> {
        if self.left.get() == 0 || self.cancelled() {
            return None;
        }
        self.positions.set(self.positions.get() + 1);
        Some(Budget::tests(self.per_list.min(self.left.get())))
    }

    /// Counts the work of a list; `false` if it spent the budget.
    fn spend(&self, work: u64) -> bool {
        let left = self.left.get();
        self.left.set(left.saturating_sub(work));
        work <= left
    }
}

impl Default for Work<'_> {
    /// [`BUDGET`] tests per list, [`TOTAL_BUDGET`] in all, no cancellation.
    fn default() -> Self {
        Work::new(BUDGET, TOTAL_BUDGET, None)
    }
}

/// Checks a goal "mate in `n`" is within 1 to [`MAX_MATE_IN`].
pub fn check_goal(n: usize) -> Result<(), PlayError> {
    if (1..=MAX_MATE_IN).contains(&n) {
        return Ok(());
    }
    Err(PlayError::GoalOutOfRange { n })
}

/// The position a record poses as a puzzle. A made puzzle (one with a `Goal` header) is its
/// position followed by its solution, written as the one variation of the start; a Branched
/// 5DPGN reader takes a lone variation as the main line, so the puzzle starts before it. Other
/// records (the built-in puzzles, imported games) pose the position after their main line.
pub fn posed(loaded: LoadedGame) -> LoadedGame {
    if loaded.header("Goal").is_none() {
        return loaded;
    }
    let mut start = LoadedGame::new(loaded.format, loaded.start().clone());
    start.headers = loaded.headers;
    start
}

/// How many actions the solver has, from a record's `Puzzle "mate-in-N"` header (1 if absent).
pub fn mate_in_of(loaded: &LoadedGame) -> usize {
    loaded
        .header("Puzzle")
        .and_then(|p| {
            p.to_ascii_lowercase()
                .strip_prefix("mate-in-")
                .and_then(|n| n.trim().parse().ok())
        })
        .unwrap_or(1)
}

/// A puzzle made by a player, proven: what both doors store and answer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Made {
    /// Its name.
    pub name: String,
    /// Mate in how many actions.
    pub mate_in: usize,
    /// The solver (`white` or `black`).
    pub to_move: String,
    /// Its record (see [`prove`]).
    pub pgn: String,
}

/// The puzzle maker: "mate in N for the side to move" in `pos` (between actions), N from the
/// request (`mate_in`) or the record (`goal`), named by the request, the record or its goal;
/// proven, or refused with the reason.
pub fn make(
    pos: &Position,
    goal: Option<usize>,
    record_name: Option<String>,
    mate_in: Option<usize>,
    name: Option<String>,
) -> Result<Made, PlayError> {
    make_within(pos, goal, record_name, mate_in, name, &Work::default())
}

/// [`make`] within `work` (the server's budget, cancelled when the request goes away).
pub fn make_within(
    pos: &Position,
    goal: Option<usize>,
    record_name: Option<String>,
    mate_in: Option<usize>,
    name: Option<String>,
    work: &Work,
) -> Result<Made, PlayError> {
    if pos.action_moves().next().is_some() {
        return Err(PlayError::UnfinishedAction);
    }
    let n = mate_in.or(goal).ok_or(PlayError::NoGoal)?;
    let name = name
        .or(record_name)
        .map(|n| n.trim().chars().take(MAX_NAME).collect::<String>())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("My puzzle (mate in {n})"));
    let pgn = prove_within(pos, n, &name, work)?;
    Ok(Made {
        name,
        mate_in: n,
        to_move: color_name(pos.to_move()).to_string(),
        pgn,
    })
}

/// The puzzle maker on a record (`from_game`: a game's position, whose headers give no goal or
/// name; else a puzzle's record, posed after its main line): see [`make`].
pub fn make_from_record(
    loaded: LoadedGame,
    from_game: bool,
    mate_in: Option<usize>,
    name: Option<String>,
    work: &Work,
) -> Result<Made, PlayError> {
    if from_game {
        return make_within(loaded.game().position(), None, None, mate_in, name, work);
    }
    let loaded = posed(loaded);
    let goal = loaded.header("Puzzle").map(|_| mate_in_of(&loaded));
    let record_name = loaded.header("Event").map(str::to_string);
    make_within(loaded.game().position(), goal, record_name, mate_in, name, work)
}

/// Proves "mate in `n` for the side to move" in `pos` (each list of legal actions within
/// `budget`) and writes the puzzle's record: headers, 5DFEN, the solution as a variation.
pub fn prove(pos: &Position, n: usize, name: &str, budget: u64) -> Result<String, PlayError> {
    prove_within(pos, n, name, &Work::new(budget, TOTAL_BUDGET, None))
}

/// [`prove`] within `work`.
pub fn prove_within(pos: &Position, n: usize, name: &str, work: &Work) -> Result<String, PlayError> {
    check_goal(n)?;
    let side = color_name(pos.to_move());
    let mut moves = Vec::new();
    for (id, _) in pos.boards() {
        if pos.is_playable(id) {
            pos.moves_from(id, &mut moves);
        }
    }
    if moves.iter().any(|m| m.captured.is_some_and(|p| p.role().is_royal())) {
        return Err(PlayError::IllegalPosition);
    }
    let line = solved_line(pos, n, work).map_err(|e| match e {
        NotProven::False => PlayError::NoForcedMate { side: pos.to_move(), n },
        NotProven::Unknown => PlayError::ProofUnfinished {
            n,
            positions: work.positions(),
            cancelled: work.cancelled(),
        },
    })?;
    let mut out = format!(
        "[Event \"{}\"]\n[Puzzle \"mate-in-{n}\"]\n[Goal \"{} mates in {n}\"]\n",
        name.replace(['"', '\\', '\n', ']'], " "),
        if side == "white" { "White" } else { "Black" }
    );
    out.push_str(&chess5d_notation::write_5dfen(pos));
    out.push_str(&format!("\n({})\n*\n", movetext(pos, &line)));
    Ok(out)
}

/// Whether the side to move can force checkmate within `n` of its actions whatever the other
/// side answers: `Some(true)` or `Some(false)`, or `None` if a list of legal actions could not be
/// completed within `budget` (each list gets the whole budget). Every legal action of both sides
/// is tried, so this is a proof, meant for the small positions of puzzles.
pub fn forced_mate_in(pos: &Position, n: usize, budget: Budget) -> Option<bool> {
    forced_within(pos, n, &Work::new(budget.tests, u64::MAX, None))
}

/// [`forced_mate_in`] within `work`.
pub fn forced_within(pos: &Position, n: usize, work: &Work) -> Option<bool> {
    match mating_action(pos, n, work) {
        Ok(_) => Some(true),
        Err(NotProven::False) => Some(false),
        Err(NotProven::Unknown) => None,
    }
}

/// The first action of the side to move after which mate in `n` is forced, with the position
/// after it.
fn mating_action(pos: &Position, n: usize, work: &Work) -> Result<(Vec<chess5d_rules::Move>, Position), NotProven> {
    if n == 0 {
        return Err(NotProven::False);
    }
    let mut unknown = false;
    for action in all_actions(pos, work).ok_or(NotProven::Unknown)? {
        let mut after = pos.clone();
        for m in &action {
            after.play_unchecked(m);
        }
        after.submit_unchecked();
        match escapes(&after, n - 1, work) {
            Some(false) => return Ok((action, after)),
            Some(true) => {}
            None => unknown = true,
        }
    }
    Err(if unknown { NotProven::Unknown } else { NotProven::False })
}

/// With the defender to move: whether it has an answer after which no mate in `n` is forced
/// (checkmate: no; stalemate: yes).
fn escapes(pos: &Position, n: usize, work: &Work) -> Option<bool> {
    let replies = all_actions(pos, work)?;
    if replies.is_empty() {
        return Some(!pos.in_check());
    }
    if n == 0 {
        return Some(true);
    }
    let mut unknown = false;
    for reply in replies {
        let mut after = pos.clone();
        for m in &reply {
            after.play_unchecked(m);
        }
        after.submit_unchecked();
        match forced_within(&after, n, work) {
            Some(false) => return Some(true),
            Some(true) => {}
            None => unknown = true,
        }
    }
    (!unknown).then_some(false)
}

/// Every legal action of the side to move, or `None` if the budget ran out (or the proof was
/// cancelled).
fn all_actions(pos: &Position, work: &Work) -> Option<Vec<Vec<chess5d_rules::Move>>> {
    let mut it = pos.legal_actions(work.next()?);
    let mut all = Vec::new();
    for action in it.by_ref() {
        all.push(action);
        // Each action listed is work too (and memory): a list longer than the budget stops.
        if all.len() as u64 > work.left.get() {
            return None;
        }
    }
    (work.spend(it.tests() + all.len() as u64) && !it.exhausted()).then_some(all)
}

/// A forced mate within `n` for the side to move, with its line (the mating action, then for
/// each further action the first defence and the answer that keeps the mate forced), found by
/// the proof-number solver (`chess5d_solve`) within `work`: each list of legal actions within
/// its per-list budget, its candidate tests counted against its total, stopped when cancelled.
/// The solver's proof answers every defence; this is what the puzzle maker proves with.
pub fn solved_line(pos: &Position, n: usize, work: &Work) -> Result<Vec<Vec<chess5d_rules::Move>>, NotProven> {
    if work.left.get() == 0 || work.cancelled() {
        return Err(NotProven::Unknown);
    }
    let config = chess5d_solve::Config {
        max_actions: n.min(u32::MAX as usize) as u32,
        nodes: u64::MAX,
        list_budget: work.per_list,
        table_entries: 1 << 14,
        max_tests: work.left.get(),
    };
    let report = chess5d_solve::solve_with(pos, &config, None, work.cancel);
    work.positions.set(work.positions.get() + report.nodes);
    work.spend(report.tests);
    let proof = match report.verdict {
        chess5d_solve::Verdict::Win { proof, .. } => proof,
        chess5d_solve::Verdict::NoWin { .. } => return Err(NotProven::False),
        chess5d_solve::Verdict::Unknown => return Err(NotProven::Unknown),
    };
    // The main line of the proof tree: its first child at every level, read back as moves.
    let mut line = Vec::new();
    let mut at = pos.clone();
    let mut node = &proof;
    while let Some(child) = node.children.first() {
        let moves = chess5d_notation::long::parse_action(&child.action).map_err(|_| NotProven::Unknown)?;
        let mut action = Vec::new();
        for m in moves {
            let mv = m.resolve(&at).map_err(|_| NotProven::Unknown)?;
            at.play(&mv).map_err(|_| NotProven::Unknown)?;
            action.push(mv);
        }
        at.submit().map_err(|_| NotProven::Unknown)?;
        line.push(action);
        node = child;
    }
    Ok(line)
}

/// Why a goal "mate in N" is not proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotProven {
    /// Every action of the side to move has a defence.
    False,
    /// A list of legal actions could not be completed within the budget.
    Unknown,
}

/// A forced mate in `n` for the side to move, with its line: the mating action, then for each
/// further action one defence (the first one tried; every defence loses) and the answer that
/// keeps the mate forced. The proof is [`forced_mate_in`]'s: every legal action of both sides
/// (the brute force the solver's proofs are measured against: `examples/proof_bench.rs`).
pub fn mating_line(pos: &Position, n: usize, work: &Work) -> Result<Vec<Vec<chess5d_rules::Move>>, NotProven> {
    let (action, after) = mating_action(pos, n, work)?;
    let mut line = vec![action];
    if let Some(reply) = all_actions(&after, work).and_then(|r| r.into_iter().next()) {
        let mut next = after.clone();
        for m in &reply {
            next.play_unchecked(m);
        }
        next.submit_unchecked();
        if let Ok(rest) = mating_line(&next, n - 1, work) {
            line.push(reply);
            line.extend(rest);
        }
    }
    Ok(line)
}
