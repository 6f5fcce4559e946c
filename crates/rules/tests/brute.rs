//! A brute-force reference for legal actions: every ordered sequence of moves, one per board,
//! regenerated after each move; checks found by generating every opponent move (not by the
//! attack finder the fast search uses). Distinct actions are distinct resulting positions.

use chess5d_rules::{BoardId, Color, Position};
use std::collections::{HashMap, HashSet};

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

/// The hashes of the positions reached by every legal action (stops past `limit` sequences).
pub fn legal_action_results(pos: &Position, limit: usize) -> Option<HashSet<u64>> {
    legal_action_map(pos, limit).map(|m| m.into_keys().collect())
}

/// Like [`legal_action_results`], with one move sequence reaching each position.
pub fn legal_action_map(pos: &Position, limit: usize) -> Option<HashMap<u64, Vec<chess5d_rules::Move>>> {
    let mut out = HashMap::new();
    let mut seen = HashSet::new();
    let mut work = 0usize;
    let mut p = pos.clone();
    if rec(&mut p, &mut out, &mut seen, &mut work, limit) {
        Some(out)
    } else {
        None
    }
}

fn rec(
    pos: &mut Position,
    out: &mut HashMap<u64, Vec<chess5d_rules::Move>>,
    seen: &mut HashSet<u64>,
    work: &mut usize,
    limit: usize,
) -> bool {
    *work += 1;
    if *work > limit {
        return false;
    }
    // Transpositions of commuting moves reach the same partial position: explore it once.
    if !seen.insert(pos.hash()) {
        return true;
    }
    if submittable(pos) {
        out.entry(pos.hash())
            .or_insert_with(|| pos.action_moves().copied().collect());
    }
    let boards: Vec<BoardId> = pos.playable_boards();
    for b in boards {
        let mut moves = Vec::new();
        pos.moves_from(b, &mut moves);
        for m in moves {
            pos.play_unchecked(&m);
            let ok = rec(pos, out, seen, work, limit);
            pos.undo_move();
            if !ok {
                return false;
            }
        }
    }
    true
}
