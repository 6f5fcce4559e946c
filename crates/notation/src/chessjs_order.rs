//! The order in which the JavaScript library 5d-chess-js 1.2.1 lists moves (`moves()`), so
//! that a drop-in replacement can list the same moves in the same order.
//!
//! The order was found by running the library (lone pieces on custom boards, several timelines
//! and turns so that every time-travel vector shows, both colours, castling, en passant,
//! promotions) and is checked against its output on random games (the `chessjs_order`
//! integration test). What it observably does:
//!
//! 1. **Boards**, one per timeline (the latest), in the order of the library's raw timeline
//!    index: `0, -1, +1, -2, +2, ...`; in games that start with an even number of timelines
//!    `-0, +0, -1, +1, -2, +2, ...`.
//! 2. **Squares** of the board, rank 1 first, and within a rank file a first.
//! 3. **The piece's vectors**, with a vector written `(x, y, T, L)` (`T` in whole turns, `L`
//!    the timeline index):
//!    * sliders (rook, bishop, queen, princess, royal queen, unicorn, dragon) and kings
//!      (king, common king) walk their directions in one global order: by the set of axes
//!      the direction moves along, `x, y, xy, T, xT, yT, xyT, L, xL, yL, xyL, TL, xTL, yTL,
//!      xyTL`, and within a set by signs, `+` before `-`, the first axis of the set varying
//!      fastest (`xy`: `(1,1) (-1,1) (1,-1) (-1,-1)`). A slider takes the directions it has in
//!      that order and lists each ray nearest square first. The queen and the royal queen are
//!      the one exception: their four `xy` diagonals come as `(1,1) (1,-1) (-1,1) (-1,-1)`.
//!    * the knight goes through the same axis sets (`xy, xT, yT, xL, yL, TL`), the `2` on the
//!      first axis of the set before the `2` on the second, each with the signs as above.
//!    * pawns and brawns, with `y` and `L` counted forward for their colour (White: `y` up,
//!      `L` down), take: one step, two steps, capture `(+1, 1)`, capture `(-1, 1)` (en passant
//!      included), one step along `L`, two steps along `L`, capture `L+1 T+1`, capture
//!      `L+1 T-1`; brawns then add `x+1 L+1`, `x-1 L+1`, `y+1 L+1`, `y+1 T-1`.
//!    * a king's castling comes after all its other moves: towards `x+` first, then `x-`.
//! 4. **Promotions** of one pawn move: common king, princess, queen, rook, knight, bishop.

use chess5d_rules::{Color, Move, MoveKind, Position, Role};

/// Sorts moves of `pos` (our rules' [`Move`]s, e.g. from [`Position::present_moves`] or
/// [`Position::playable_moves`], promotions already expanded one `Move` per promotion piece)
/// into the order 5d-chess-js 1.2.1's `moves()` lists them.
///
/// The sort is stable: moves the library would not list (none, if both agree on the rules)
/// keep their relative order, after the moves of their piece.
pub fn sort_moves(pos: &Position, moves: &mut [Move]) {
    let even = pos.even();
    moves.sort_by_cached_key(|m| key(even, m));
}

/// The place of a move in the library's order (smaller first).
fn key(even: bool, m: &Move) -> (u32, i32, i32, u32, i32, u8) {
    let (vector, distance) = vector_rank(m);
    (
        timeline_rank(m.from.board.l, even),
        m.from.square.y(),
        m.from.square.x(),
        vector,
        distance,
        m.promotion.map_or(0, promotion_rank),
    )
}

/// Where the library visits timeline `l` (our internal index): its raw index order.
pub fn timeline_rank(l: i32, even: bool) -> u32 {
    // The library's timeline number: the label, with `-0`/`+0` as -1/+1 in even games.
    let n = if even && l >= 0 { l + 1 } else { l };
    let rank = match (even, n) {
        (_, 0) => 0,
        (false, n) if n < 0 => -2 * n - 1,
        (false, n) => 2 * n,
        (true, n) if n < 0 => -2 * n - 2,
        (true, n) => 2 * n - 1,
    };
    rank as u32
}

/// The vector of a move, `(x, y, T, L)`, `T` in whole turns.
fn delta(m: &Move) -> [i32; 4] {
    [
        m.to.square.x() - m.from.square.x(),
        m.to.square.y() - m.from.square.y(),
        (m.to.board.t - m.from.board.t).div_euclid(2),
        m.to.board.l - m.from.board.l,
    ]
}

/// Rank of a direction (each component -1, 0 or 1, not all 0) in the global order: by the set
/// of axes it moves along (as a bit mask, x = 1, y = 2, T = 4, L = 8), then by its signs,
/// `+` before `-`, the first axis of the set varying fastest.
fn direction_rank(d: [i32; 4]) -> u32 {
    let mut mask = 0;
    let mut signs = 0;
    let mut place = 0;
    for (axis, &c) in d.iter().enumerate() {
        if c != 0 {
            mask |= 1 << axis;
            if c < 0 {
                signs |= 1 << place;
            }
            place += 1;
        }
    }
    mask * 16 + signs
}

/// Rank of a knight's leap (one component ±2, one ±1): by the axis set, then the `2` on the
/// first axis before the `2` on the second, then the signs as for directions.
fn leap_rank(d: [i32; 4]) -> u32 {
    let first = d.iter().position(|&c| c != 0).unwrap_or(0);
    let two_second = u32::from(d[first].abs() != 2);
    let unit = d.map(i32::signum);
    let r = direction_rank(unit);
    (r / 16) * 16 + two_second * 4 + r % 16
}

/// The pawn's and brawn's vectors in the library's order, `(x, y forward, T, L forward)`.
const PAWN_VECTORS: [[i32; 4]; 12] = [
    [0, 1, 0, 0],
    [0, 2, 0, 0],
    [1, 1, 0, 0],
    [-1, 1, 0, 0],
    [0, 0, 0, 1],
    [0, 0, 0, 2],
    [0, 0, 1, 1],
    [0, 0, -1, 1],
    // Brawn only.
    [1, 0, 0, 1],
    [-1, 0, 0, 1],
    [0, 1, 0, 1],
    [0, 1, -1, 0],
];

/// Past every vector: a move the library has no vector for.
const UNKNOWN: u32 = 1 << 20;

/// The rank of the move's vector among its piece's, and its distance along a ray.
fn vector_rank(m: &Move) -> (u32, i32) {
    let d = delta(m);
    let role = m.piece.role();
    if let MoveKind::Castle { .. } = m.kind {
        return (UNKNOWN - 2 + u32::from(d[0] < 0), 0);
    }
    match role {
        Role::Pawn | Role::Brawn => {
            let (fy, fl) = match m.piece.color() {
                Color::White => (1, -1),
                Color::Black => (-1, 1),
            };
            let v = [d[0], d[1] * fy, d[2], d[3] * fl];
            let i = PAWN_VECTORS.iter().position(|p| *p == v);
            (i.map_or(UNKNOWN, |i| i as u32), 0)
        }
        Role::Knight => (leap_rank(d), 0),
        _ => {
            let k = d.iter().map(|c| c.abs()).max().unwrap_or(0);
            if k == 0 || d.iter().any(|c| c % k != 0) {
                return (UNKNOWN, k);
            }
            let unit = d.map(|c| c / k);
            let mut r = direction_rank(unit);
            // The queen's spatial diagonals: (1,1) (1,-1) (-1,1) (-1,-1).
            if matches!(role, Role::Queen | Role::RoyalQueen) && r / 16 == 3 && (r % 16 == 1 || r % 16 == 2) {
                r = 3 * 16 + (3 - r % 16);
            }
            (r, k)
        }
    }
}

/// The library's order of promotion pieces (most valuable first, as it says).
fn promotion_rank(r: Role) -> u8 {
    match r {
        Role::CommonKing => 0,
        Role::Princess => 1,
        Role::Queen => 2,
        Role::Rook => 3,
        Role::Knight => 4,
        Role::Bishop => 5,
        _ => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The directions of a king in the order 5d-chess-js 1.2.1 lists its moves (observed with a
    /// lone king, timelines -3..+3, boards behind and ahead; `(x, y, T, L)`, and none with
    /// `T > 0, L = 0`, a board that cannot exist).
    const KING_OBSERVED: [[i32; 4]; 71] = [
        [1, 0, 0, 0],
        [-1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, -1, 0, 0],
        [1, 1, 0, 0],
        [-1, 1, 0, 0],
        [1, -1, 0, 0],
        [-1, -1, 0, 0],
        [0, 0, -1, 0],
        [1, 0, -1, 0],
        [-1, 0, -1, 0],
        [0, 1, -1, 0],
        [0, -1, -1, 0],
        [1, 1, -1, 0],
        [-1, 1, -1, 0],
        [1, -1, -1, 0],
        [-1, -1, -1, 0],
        [0, 0, 0, 1],
        [0, 0, 0, -1],
        [1, 0, 0, 1],
        [-1, 0, 0, 1],
        [1, 0, 0, -1],
        [-1, 0, 0, -1],
        [0, 1, 0, 1],
        [0, -1, 0, 1],
        [0, 1, 0, -1],
        [0, -1, 0, -1],
        [1, 1, 0, 1],
        [-1, 1, 0, 1],
        [1, -1, 0, 1],
        [-1, -1, 0, 1],
        [1, 1, 0, -1],
        [-1, 1, 0, -1],
        [1, -1, 0, -1],
        [-1, -1, 0, -1],
        [0, 0, 1, 1],
        [0, 0, -1, 1],
        [0, 0, 1, -1],
        [0, 0, -1, -1],
        [1, 0, 1, 1],
        [-1, 0, 1, 1],
        [1, 0, -1, 1],
        [-1, 0, -1, 1],
        [1, 0, 1, -1],
        [-1, 0, 1, -1],
        [1, 0, -1, -1],
        [-1, 0, -1, -1],
        [0, 1, 1, 1],
        [0, -1, 1, 1],
        [0, 1, -1, 1],
        [0, -1, -1, 1],
        [0, 1, 1, -1],
        [0, -1, 1, -1],
        [0, 1, -1, -1],
        [0, -1, -1, -1],
        [1, 1, 1, 1],
        [-1, 1, 1, 1],
        [1, -1, 1, 1],
        [-1, -1, 1, 1],
        [1, 1, -1, 1],
        [-1, 1, -1, 1],
        [1, -1, -1, 1],
        [-1, -1, -1, 1],
        [1, 1, 1, -1],
        [-1, 1, 1, -1],
        [1, -1, 1, -1],
        [-1, -1, 1, -1],
        [1, 1, -1, -1],
        [-1, 1, -1, -1],
        [1, -1, -1, -1],
        [-1, -1, -1, -1],
    ];

    /// The knight's leaps in the library's order (observed as above).
    const KNIGHT_OBSERVED: [[i32; 4]; 40] = [
        [2, 1, 0, 0],
        [-2, 1, 0, 0],
        [2, -1, 0, 0],
        [-2, -1, 0, 0],
        [1, 2, 0, 0],
        [-1, 2, 0, 0],
        [1, -2, 0, 0],
        [-1, -2, 0, 0],
        [2, 0, -1, 0],
        [-2, 0, -1, 0],
        [1, 0, -2, 0],
        [-1, 0, -2, 0],
        [0, 2, -1, 0],
        [0, -2, -1, 0],
        [0, 1, -2, 0],
        [0, -1, -2, 0],
        [2, 0, 0, 1],
        [-2, 0, 0, 1],
        [2, 0, 0, -1],
        [-2, 0, 0, -1],
        [1, 0, 0, 2],
        [-1, 0, 0, 2],
        [1, 0, 0, -2],
        [-1, 0, 0, -2],
        [0, 2, 0, 1],
        [0, -2, 0, 1],
        [0, 2, 0, -1],
        [0, -2, 0, -1],
        [0, 1, 0, 2],
        [0, -1, 0, 2],
        [0, 1, 0, -2],
        [0, -1, 0, -2],
        [0, 0, 2, 1],
        [0, 0, -2, 1],
        [0, 0, 2, -1],
        [0, 0, -2, -1],
        [0, 0, 1, 2],
        [0, 0, -1, 2],
        [0, 0, 1, -2],
        [0, 0, -1, -2],
    ];

    #[test]
    fn the_rules_give_the_observed_tables() {
        let ranks: Vec<u32> = KING_OBSERVED.iter().map(|&d| direction_rank(d)).collect();
        assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
        let ranks: Vec<u32> = KNIGHT_OBSERVED.iter().map(|&d| leap_rank(d)).collect();
        assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
    }

    #[test]
    fn timelines_in_raw_index_order() {
        let odd: Vec<i32> = {
            let mut v: Vec<i32> = (-3..=3).collect();
            v.sort_by_key(|&l| timeline_rank(l, false));
            v
        };
        assert_eq!(odd, [0, -1, 1, -2, 2, -3, 3]);
        // Even games: -0 is -1, +0 is 0, -1 is -2, +1 is 1.
        let even: Vec<i32> = {
            let mut v: Vec<i32> = (-3..=2).collect();
            v.sort_by_key(|&l| timeline_rank(l, true));
            v
        };
        assert_eq!(even, [-1, 0, -2, 1, -3, 2]);
    }
}
