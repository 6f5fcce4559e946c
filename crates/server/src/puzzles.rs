//! The built-in puzzle collection (files in `data/puzzles/`, embedded in the binary).
//!
//! Each file is a 5DPGN record; the puzzle is the position after its last action, and the side
//! to move must mate within the `Puzzle "mate-in-N"` header's N actions (1 if absent). Most come
//! from the puzzles of the shared corpus; the `engine-game-*` ones are positions of games between
//! the built-in engines, found and proven by `examples/engine_puzzles.rs` with
//! [`forced_mate_in`] (see `data/puzzles/README.md`).

use chess5d_notation::LoadedGame;
use chess5d_rules::{Budget, Position};

/// A puzzle of the collection.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// Short id (the file name without extension).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// The 5DPGN record.
    pub text: &'static str,
}

macro_rules! puzzle {
    ($id:expr, $name:expr) => {
        Puzzle {
            id: $id,
            name: $name,
            text: include_str!(concat!("../data/puzzles/", $id, ".5dpgn")),
        }
    };
}

/// Every built-in puzzle, easiest first.
pub const PUZZLES: &[Puzzle] = &[
    puzzle!("rook-tactics-1", "Rook tactics 1"),
    puzzle!("standard-mate-1", "Standard mate 1"),
    puzzle!("brawn-tactics-1", "Brawn tactics 1"),
    puzzle!("rook-tactics-3", "Rook tactics 3"),
    puzzle!("rook-tactics-4", "Rook tactics 4"),
    puzzle!("advanced-branching-2", "Advanced branching 2"),
    puzzle!("rook-tactics-2", "Rook tactics 2 (mate in 2)"),
    puzzle!("underpromotion", "Underpromotion (mate in 2)"),
    puzzle!("engine-game-1", "Engine game 1"),
    puzzle!("engine-game-2", "Engine game 2"),
    puzzle!("engine-game-3", "Engine game 3"),
    puzzle!("engine-game-4", "Engine game 4 (two timelines)"),
    puzzle!("engine-game-5", "Engine game 5 (mate in 2)"),
    puzzle!("engine-game-6", "Engine game 6 (mate in 2)"),
    puzzle!("engine-game-7", "Engine game 7 (mate in 2)"),
];

impl Puzzle {
    /// The record, loaded.
    pub fn load(&self) -> Result<LoadedGame, String> {
        chess5d_notation::load(self.text).map_err(|e| format!("puzzle {}: {e}", self.id))
    }

    /// The position a record poses as a puzzle. A made puzzle (one with a `Goal` header) is its
    /// position followed by its solution, written as the one variation of the start; a Branched
    /// 5DPGN reader takes a lone variation as the main line, so the puzzle starts before it. Other
    /// records (the built-in puzzles, imported games) pose the position after their main line.
    pub fn posed(loaded: LoadedGame) -> LoadedGame {
        if loaded.header("Goal").is_none() {
            return loaded;
        }
        let mut start = LoadedGame::new(loaded.format, loaded.start.clone());
        start.headers = loaded.headers;
        start
    }

    /// How many actions the solver has.
    pub fn mate_in(&self, loaded: &LoadedGame) -> usize {
        Puzzle::mate_in_of(loaded)
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

    /// Finds a puzzle by id.
    pub fn by_id(id: &str) -> Option<&'static Puzzle> {
        PUZZLES.iter().find(|p| p.id == id)
    }
}

/// Whether the side to move can force checkmate within `n` of its actions whatever the other
/// side answers: `Some(true)` or `Some(false)`, or `None` if a list of legal actions could not be
/// completed within `budget` (each list gets the whole budget). Every legal action of both sides
/// is tried, so this is a proof, meant for the small positions of puzzles.
pub fn forced_mate_in(pos: &Position, n: usize, budget: Budget) -> Option<bool> {
    match mating_action(pos, n, budget) {
        Ok(_) => Some(true),
        Err(NotProven::False) => Some(false),
        Err(NotProven::Unknown) => None,
    }
}

/// The first action of the side to move after which mate in `n` is forced, with the position
/// after it.
fn mating_action(pos: &Position, n: usize, budget: Budget) -> Result<(Vec<chess5d_rules::Move>, Position), NotProven> {
    if n == 0 {
        return Err(NotProven::False);
    }
    let mut unknown = false;
    for action in all_actions(pos, budget).ok_or(NotProven::Unknown)? {
        let mut after = pos.clone();
        for m in &action {
            after.play_unchecked(m);
        }
        after.submit_unchecked();
        match escapes(&after, n - 1, budget) {
            Some(false) => return Ok((action, after)),
            Some(true) => {}
            None => unknown = true,
        }
    }
    Err(if unknown { NotProven::Unknown } else { NotProven::False })
}

/// With the defender to move: whether it has an answer after which no mate in `n` is forced
/// (checkmate: no; stalemate: yes).
fn escapes(pos: &Position, n: usize, budget: Budget) -> Option<bool> {
    let replies = all_actions(pos, budget)?;
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
        match forced_mate_in(&after, n, budget) {
            Some(false) => return Some(true),
            Some(true) => {}
            None => unknown = true,
        }
    }
    (!unknown).then_some(false)
}

/// Every legal action of the side to move, or `None` if the budget ran out.
fn all_actions(pos: &Position, budget: Budget) -> Option<Vec<Vec<chess5d_rules::Move>>> {
    let mut it = pos.legal_actions(budget);
    let all: Vec<_> = it.by_ref().collect();
    (!it.exhausted()).then_some(all)
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
/// keeps the mate forced. The proof is [`forced_mate_in`]'s: every legal action of both sides.
pub fn mating_line(pos: &Position, n: usize, budget: Budget) -> Result<Vec<Vec<chess5d_rules::Move>>, NotProven> {
    let (action, after) = mating_action(pos, n, budget)?;
    let mut line = vec![action];
    if let Some(reply) = all_actions(&after, budget).and_then(|r| r.into_iter().next()) {
        let mut next = after.clone();
        for m in &reply {
            next.play_unchecked(m);
        }
        next.submit_unchecked();
        if let Ok(rest) = mating_line(&next, n - 1, budget) {
            line.push(reply);
            line.extend(rest);
        }
    }
    Ok(line)
}
