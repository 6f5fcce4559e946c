//! Static evaluation: material and 5D ideas, read on the latest board of every timeline.

use chess5d_rules::{BoardId, Color, Piece, Position, Role, Square};
use std::sync::atomic::{AtomicI32, Ordering};

/// Evaluation terms that can be changed at run time (engine options `Eval...`, for tuning
/// matches): their defaults are the constants below. They are shared by every engine of the
/// process.
pub(crate) static TUNABLE: [AtomicI32; 4] = [
    AtomicI32::new(ACTIVE_TIMELINE),
    AtomicI32::new(ROYAL_DANGER),
    AtomicI32::new(IN_CHECK),
    AtomicI32::new(TEMPO),
];

/// The defaults of the tunable terms, in the order of [`TUNABLE`].
pub(crate) const TUNABLE_DEFAULTS: [i32; 4] = [ACTIVE_TIMELINE, ROYAL_DANGER, IN_CHECK, TEMPO];

/// The names of the tunable terms, as engine options, in the order of [`TUNABLE`].
pub(crate) const TUNABLE_NAMES: [&str; 4] = ["EvalActiveTimeline", "EvalRoyalDanger", "EvalInCheck", "EvalTempo"];

#[inline]
fn tuned(i: usize) -> i32 {
    TUNABLE[i].load(Ordering::Relaxed)
}

/// Centipawn value of a piece; royal pieces are not counted (losing one loses the game).
pub fn piece_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 300,
        Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::Princess => 700,
        Role::Unicorn => 350,
        Role::Dragon => 400,
        Role::Brawn => 120,
        Role::CommonKing => 300,
        Role::King | Role::RoyalQueen => 0,
    }
}

/// Weights, in quarters: a piece on an active timeline counts fully, on an inactive one half.
const ACTIVE_WEIGHT: i32 = 4;
const INACTIVE_WEIGHT: i32 = 2;
/// An extra timeline of one's own, active or not: a cost. Every timeline a player creates is
/// one more board of its own to defend (and, active, makes one more of the opponent's active),
/// and the multiverse grows with it; a branching jump must win material to be worth it.
const ACTIVE_TIMELINE: i32 = -250;
const INACTIVE_TIMELINE: i32 = -60;
/// Per enemy piece near a royal piece (Chebyshev distance 2 on its board).
const ROYAL_DANGER: i32 = 14;
/// Per own piece next to a royal piece (a shield), at most three counted.
const ROYAL_SHIELD: i32 = 5;
/// The side to move is in check on some timeline.
const IN_CHECK: i32 = 45;
/// Per non-pawn, non-royal piece on a timeline with a past to travel to.
const TRAVELLER: i32 = 4;
/// Having the move.
const TEMPO: i32 = 12;
/// Per rank a pawn has advanced.
const PAWN_ADVANCE: i32 = 6;
/// Per step toward the centre for minor pieces.
const CENTRE: i32 = 4;

/// The static evaluation of `pos` in centipawns, from the point of view of the side to move.
///
/// Material is averaged over the latest board of every timeline (active timelines weigh double
/// inactive ones); on top of it: pawn advancement and centralisation, danger around royal
/// pieces and check, extra timelines of each side (a cost of over two pawns when active), pieces
/// standing where they could travel through time, and a tempo for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_checked(pos, pos.in_check())
}

/// [`evaluate`] when whether the side to move is in check is already known.
pub(crate) fn evaluate_checked(pos: &Position, in_check: bool) -> i32 {
    let white = evaluate_white(pos);
    let check = if in_check { tuned(2) } else { 0 };
    let tempo = tuned(3);
    match pos.to_move() {
        Color::White => white - check + tempo,
        Color::Black => -white - check + tempo,
    }
}

/// The placement bonus of a piece on a square of a `w` x `h` board: pawn advancement, and
/// centralisation of minor pieces.
pub(crate) fn placement(p: Piece, sq: Square, w: i32, h: i32) -> i32 {
    let role = p.role();
    let (x, y) = (sq.x(), sq.y());
    if role.is_pawnlike() {
        let adv = if p.color() == Color::White { y - 1 } else { h - 2 - y };
        PAWN_ADVANCE * adv.max(0)
    } else if matches!(role, Role::Knight | Role::Bishop | Role::Unicorn | Role::Dragon) {
        let dx = (2 * x - (w - 1)).abs();
        let dy = (2 * y - (h - 1)).abs();
        CENTRE * ((w + h - 2) - (dx + dy)) / 2
    } else {
        0
    }
}

/// The evaluation from White's point of view, without the check and tempo terms.
///
/// Material and placement are averaged over the timelines (weighted by activity), not summed:
/// a branching jump copies a past board with everything on it, and a sum would count that copy
/// as a gain, so that creating timelines would look good in itself. The safety of royal pieces
/// is summed: a royal piece lost on any board loses the game.
fn evaluate_white(pos: &Position) -> i32 {
    let size = pos.size();
    let (w, h) = (size.width as i32, size.height as i32);
    let (init_min, init_max) = pos.initial_timelines();
    let mut material = 0i64; // weighted sum, in quarter centipawns times weight
    let mut weights = 0i64;
    let mut safety4 = 0i32; // in quarter centipawns
    let mut score = 0i32;
    let multi = pos.timeline_count() > 1;
    let (active_timeline, royal_danger) = (tuned(0), tuned(1));
    for l in pos.timelines() {
        let Some(t) = pos.timeline_end(l) else { continue };
        let Some(board) = pos.board(BoardId::new(l, t)) else {
            continue;
        };
        let active = pos.is_active(l);
        let weight = if active { ACTIVE_WEIGHT } else { INACTIVE_WEIGHT };
        let has_past = multi || pos.timeline_start(l).is_some_and(|s| s < t);
        if l > init_max {
            score += if active { active_timeline } else { INACTIVE_TIMELINE };
        } else if l < init_min {
            score -= if active { active_timeline } else { INACTIVE_TIMELINE };
        }
        let pieces: Vec<_> = board.pieces().collect();
        let mut line = 0i32;
        for &(sq, p) in &pieces {
            let sign = if p.color() == Color::White { 1 } else { -1 };
            let role = p.role();
            let mut v = piece_value(role) + placement(p, sq, w, h);
            let (x, y) = (sq.x(), sq.y());
            if role.is_royal() {
                let mut danger = 0;
                let mut shield = 0;
                for &(sq2, q) in &pieces {
                    let d = (sq2.x() - x).abs().max((sq2.y() - y).abs());
                    if d == 0 || d > 2 {
                        continue;
                    }
                    if q.color() != p.color() {
                        danger += 1;
                    } else if d == 1 {
                        shield += 1;
                    }
                }
                safety4 += sign * (ROYAL_SHIELD * shield.min(3) - royal_danger * danger) * weight;
            } else if has_past && !role.is_pawnlike() {
                v += TRAVELLER;
            }
            line += sign * v;
        }
        material += i64::from(line) * i64::from(weight);
        weights += i64::from(weight);
    }
    let material = if weights > 0 { (material / weights) as i32 } else { 0 };
    score + material + safety4 / 4
}
