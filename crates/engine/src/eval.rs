//! Static evaluation: material and 5D ideas, read on the latest board of every timeline.
//!
//! Every number it uses is a field of [`Weights`]; the engine's values are
//! [`WEIGHTS`](crate::WEIGHTS), in `weights.rs`, next to the weights fitted on games by
//! `chess5d tune` (see [`crate::tune`]). The evaluation is linear in them: [`crate::tune::features`] gives the
//! vector it is the dot product of (up to the rounding of two integer divisions).

use crate::terms::Weights;
use crate::weights::WEIGHTS;
use chess5d_rules::{BoardId, Color, Piece, Position, Role, Square};

/// Centipawn value of a piece ([`WEIGHTS`]); royal pieces are not counted (losing one loses the
/// game).
pub fn piece_value(role: Role) -> i32 {
    if role.is_royal() {
        0
    } else {
        WEIGHTS.piece(role)
    }
}

/// Weights, in quarters: a piece on an active timeline counts fully, on an inactive one half.
const ACTIVE_WEIGHT: i32 = 4;
const INACTIVE_WEIGHT: i32 = 2;

/// How much the material of a timeline counts in the average: an active timeline's
/// [`ACTIVE_WEIGHT`], an inactive one's [`INACTIVE_WEIGHT`].
pub(crate) fn timeline_weight(active: bool) -> i32 {
    if active {
        ACTIVE_WEIGHT
    } else {
        INACTIVE_WEIGHT
    }
}

/// The static evaluation of `pos` in centipawns, from the point of view of the side to move,
/// with the default weights ([`WEIGHTS`]; an engine evaluates with its own, which its `Eval...`
/// options change: [`EngineOptions::weights`](crate::EngineOptions::weights)).
///
/// Material is averaged over the latest board of every timeline (active timelines weigh double
/// inactive ones); on top of it: pawn advancement and centralisation, danger around royal
/// pieces and check, extra timelines of each side (a cost of over two pawns when active), pieces
/// standing where they could travel through time, and a tempo for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_checked(pos, pos.in_check(), &WEIGHTS)
}

/// [`evaluate`] with other weights.
pub fn evaluate_weights(pos: &Position, weights: &Weights) -> i32 {
    evaluate_checked(pos, pos.in_check(), weights)
}

/// [`evaluate_weights`] when whether the side to move is in check is already known.
#[inline]
pub(crate) fn evaluate_checked(pos: &Position, in_check: bool, w: &Weights) -> i32 {
    let white = evaluate_white(pos, w);
    let check = if in_check { w.in_check } else { 0 };
    match pos.to_move() {
        Color::White => white - check + w.tempo,
        Color::Black => -white - check + w.tempo,
    }
}

/// The rank a pawn-like piece has advanced.
#[inline]
pub(crate) fn pawn_advance(p: Piece, y: i32, h: i32) -> i32 {
    let adv = if p.color() == Color::White { y - 1 } else { h - 2 - y };
    adv.max(0)
}

/// Whether centralisation counts for a role.
#[inline]
pub(crate) fn centralised(role: Role) -> bool {
    matches!(role, Role::Knight | Role::Bishop | Role::Unicorn | Role::Dragon)
}

/// The steps toward the centre of a square of a `w` x `h` board.
#[inline]
pub(crate) fn centre_steps(sq: Square, w: i32, h: i32) -> i32 {
    let dx = (2 * sq.x() - (w - 1)).abs();
    let dy = (2 * sq.y() - (h - 1)).abs();
    ((w + h - 2) - (dx + dy)) / 2
}

/// The placement bonus of a piece on a square of a `w` x `h` board: pawn advancement, and
/// centralisation of minor pieces ([`WEIGHTS`]; the search's move order uses it).
pub(crate) fn placement(p: Piece, sq: Square, w: i32, h: i32) -> i32 {
    placement_with(p, sq, w, h, &WEIGHTS)
}

#[inline]
fn placement_with(p: Piece, sq: Square, w: i32, h: i32, weights: &Weights) -> i32 {
    let role = p.role();
    if role.is_pawnlike() {
        weights.pawn_advance * pawn_advance(p, sq.y(), h)
    } else if centralised(role) {
        weights.centre * centre_steps(sq, w, h)
    } else {
        0
    }
}

/// Counts the enemy pieces within two squares of a royal piece at `sq` and its own pieces next
/// to it (at most three): `(danger, shield)`.
#[inline]
pub(crate) fn royal_neighbours(pieces: &[(Square, Piece)], sq: Square, p: Piece) -> (i32, i32) {
    let (x, y) = (sq.x(), sq.y());
    let mut danger = 0;
    let mut shield = 0;
    for &(sq2, q) in pieces {
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
    (danger, shield.min(3))
}

/// Whether the pieces of timeline `l` (whose latest board is at `t`) have a past to travel to.
#[inline]
pub(crate) fn has_past(pos: &Position, l: i32, t: i32) -> bool {
    pos.timeline_count() > 1 || pos.timeline_start(l).is_some_and(|s| s < t)
}

/// The evaluation from White's point of view, without the check and tempo terms.
///
/// Material and placement are averaged over the timelines (weighted by activity), not summed:
/// a branching jump copies a past board with everything on it, and a sum would count that copy
/// as a gain, so that creating timelines would look good in itself. The safety of royal pieces
/// is summed: a royal piece lost on any board loses the game.
fn evaluate_white(pos: &Position, wt: &Weights) -> i32 {
    let size = pos.size();
    let (w, h) = (size.width as i32, size.height as i32);
    let (init_min, init_max) = pos.initial_timelines();
    let mut material = 0i64; // weighted sum, in quarter centipawns times weight
    let mut weights = 0i64;
    let mut safety4 = 0i32; // in quarter centipawns
    let mut score = 0i32;
    let mut pieces = Vec::new();
    for l in pos.timelines() {
        let Some(t) = pos.timeline_end(l) else { continue };
        let Some(board) = pos.board(BoardId::new(l, t)) else {
            continue;
        };
        let active = pos.is_active(l);
        let weight = timeline_weight(active);
        let has_past = has_past(pos, l, t);
        let timeline = if active {
            wt.active_timeline
        } else {
            wt.inactive_timeline
        };
        if l > init_max {
            score += timeline;
        } else if l < init_min {
            score -= timeline;
        }
        pieces.clear();
        pieces.extend(board.pieces());
        let mut line = 0i32;
        for &(sq, p) in &pieces {
            let sign = if p.color() == Color::White { 1 } else { -1 };
            let role = p.role();
            let mut v = wt.piece(role) + placement_with(p, sq, w, h, wt);
            if role.is_royal() {
                let (danger, shield) = royal_neighbours(&pieces, sq, p);
                safety4 += sign * (wt.royal_shield * shield - wt.royal_danger * danger) * weight;
            } else if has_past && !role.is_pawnlike() {
                v += wt.traveller;
            }
            line += sign * v;
        }
        material += i64::from(line) * i64::from(weight);
        weights += i64::from(weight);
    }
    let material = if weights > 0 { (material / weights) as i32 } else { 0 };
    score + material + safety4 / 4
}
