//! A brute-force reference for legal actions: every ordered sequence of moves, one per board,
//! regenerated after each move; checks found by generating every opponent move (not by the
//! attack finder the fast search uses). Actions are told apart in both counting conventions:
//! by the resulting position, or by the set of moves plus the order of the new timelines.

use chess5d_rules::{BoardId, Color, Move, Position};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Whether the opponent of the mover can capture a royal piece of the mover, by plain move
/// generation from every latest board of the opponent's colour.
pub fn royal_capturable(pos: &Position) -> bool {
    let victim = pos.to_move();
    let attacker = victim.other();
    let mut moves = Vec::new();
    for b in pos.latest_boards_of(attacker) {
        pos.moves_from(b, &mut moves);
    }
    moves.iter().any(|m| m.captured.is_some_and(|p| p.is_royal_of(victim)))
}

/// Whether the action played so far can be submitted, by the rules' definition.
pub fn submittable(pos: &Position) -> bool {
    pos.action_len() > 0 && Color::of_time(pos.present()) != pos.to_move() && !royal_capturable(pos)
}

/// An action as the orderings convention tells actions apart: the moves that create no
/// timeline as a set, and the moves that do in the order they are played (each move in long
/// form).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OrderingKey {
    pub set: BTreeSet<String>,
    pub branches: Vec<String>,
}

impl OrderingKey {
    /// The key of a move list played from `pos` (which must be playable there).
    pub fn of(pos: &Position, moves: &[Move]) -> OrderingKey {
        let mut p = pos.clone();
        let mut key = OrderingKey::default();
        for m in moves {
            key.push(&mut p, m);
        }
        key
    }

    fn push(&mut self, pos: &mut Position, m: &Move) {
        let before = pos.timeline_count();
        pos.play_unchecked(m);
        let long = m.long(pos.even());
        if pos.timeline_count() > before {
            self.branches.push(long);
        } else {
            self.set.insert(long);
        }
    }
}

/// The hashes of the positions reached by every legal action (stops past `limit` sequences).
pub fn legal_action_results(pos: &Position, limit: usize) -> Option<HashSet<u64>> {
    legal_action_map(pos, limit).map(|m| m.into_keys().collect())
}

/// Like [`legal_action_results`], with one move sequence reaching each position.
pub fn legal_action_map(pos: &Position, limit: usize) -> Option<HashMap<u64, Vec<Move>>> {
    let mut out = HashMap::new();
    let mut seen = HashSet::new();
    let mut work = 0usize;
    let mut p = pos.clone();
    let mut visit = |pos: &Position| {
        // Transpositions of commuting moves reach the same partial position: explore it once.
        if !seen.insert(pos.hash()) {
            return false;
        }
        if submittable(pos) {
            out.entry(pos.hash())
                .or_insert_with(|| pos.action_moves().copied().collect());
        }
        true
    };
    rec(
        &mut p,
        &mut |p, _| visit(p),
        &mut work,
        limit,
        &mut OrderingKey::default(),
    )
    .then_some(out)
}

/// Every legal action as the orderings convention tells them apart (stops past `limit`
/// sequences).
pub fn legal_action_orderings(pos: &Position, limit: usize) -> Option<HashSet<OrderingKey>> {
    let mut out = HashSet::new();
    let mut seen = HashSet::new();
    let mut work = 0usize;
    let mut p = pos.clone();
    let mut visit = |pos: &Position, key: &OrderingKey| {
        // Two jumps onto one board reach one partial position in either order: explore each
        // set of moves with each order of its new timelines.
        if !seen.insert(key.clone()) {
            return false;
        }
        if submittable(pos) {
            out.insert(key.clone());
        }
        true
    };
    rec(&mut p, &mut visit, &mut work, limit, &mut OrderingKey::default()).then_some(out)
}

/// Plays every move sequence from `pos`; `visit` sees each partial action and says whether to
/// go on from it. `false` if the work passed `limit`.
fn rec(
    pos: &mut Position,
    visit: &mut impl FnMut(&Position, &OrderingKey) -> bool,
    work: &mut usize,
    limit: usize,
    key: &mut OrderingKey,
) -> bool {
    *work += 1;
    if *work > limit {
        return false;
    }
    if !visit(pos, key) {
        return true;
    }
    let boards: Vec<BoardId> = pos.playable_boards();
    for b in boards {
        let mut moves = Vec::new();
        pos.moves_from(b, &mut moves);
        for m in moves {
            let saved = key.clone();
            key.push(pos, &m);
            let ok = rec(pos, visit, work, limit, key);
            pos.undo_move();
            *key = saved;
            if !ok {
                return false;
            }
        }
    }
    true
}
