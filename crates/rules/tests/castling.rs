//! Castling with a rook two squares away (variant positions, the encyclopedia's rule): the king
//! moves two squares and lands on the rook's square, the rook goes to the square the king
//! crossed. Both colours, both wings, several variants, and every condition that forbids it.

use super::scripted::{fen, play};
use chess5d_rules::{Board, BoardId, Budget, Color, Convention, Move, MoveKind, Position, Role, Setup, Size, Square};

/// The castling moves the side to move can make on its present boards, as `from-to` squares.
fn castles(pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = pos
        .present_moves()
        .iter()
        .filter(|m| matches!(m.kind, MoveKind::Castle { .. }))
        .map(|m| format!("{}{}", m.from.square, m.to.square))
        .collect();
    out.sort();
    out
}

/// A one-board 5x5 position, White to move.
fn five(placement: &str) -> Position {
    let size = Size::new(5, 5).expect("size");
    let board = Board::from_fen(placement, size).expect("placement");
    Position::from_setup(Setup {
        size,
        even: false,
        boards: vec![(BoardId::new(0, 2), board)],
        promotions: vec![Role::Queen],
    })
    .expect("setup")
}

fn variant(name: &str) -> Position {
    chess5d_rules::Variant::by_name(name).expect("variant").position()
}

/// Whether some legal action of the side to move contains the move `from`-`to` on the present
/// board of timeline 0 (the whole search, not just move generation).
fn legal_action_with(pos: &Position, from: &str, to: &str) -> bool {
    let (from, to) = (Square::parse(from).expect("square"), Square::parse(to).expect("square"));
    pos.legal_actions_by(Budget::DEFAULT, Convention::Orderings)
        .any(|a: Vec<Move>| {
            a.iter()
                .any(|m| m.from.square == from && m.to.square == to && !m.is_jump())
        })
}

#[test]
fn small_centered_black_castles_long_onto_its_rook() {
    // The example: after 1. Nc3 / Nxc3 2. bxc3, Black's king c5 and rook a5 have only
    // b5 between them.
    let mut pos = variant("Small - Centered");
    play(&mut pos, "(0T1)d1>(0T1)c3");
    play(&mut pos, "(0T1)b5>(0T1)c3");
    play(&mut pos, "(0T2)b2>(0T2)c3");
    assert_eq!(castles(&pos), ["c5a5"]);
    assert!(legal_action_with(&pos, "c5", "a5"));
    play(&mut pos, "(0T2)c5>(0T2)a5");
    // The king stands where the rook stood, the rook on b5; both have moved.
    assert_eq!(
        fen(&pos, 0, 3, Color::White),
        "kr1qr*/p*p*p*p*p*/2P2/P*1P*P*P*/R*QK*1R*"
    );
    // White's knight has left d1, no black piece reaches d1 or e1: White castles short.
    assert_eq!(castles(&pos), ["c1e1"]);
    assert!(legal_action_with(&pos, "c1", "e1"));
    play(&mut pos, "(0T3)c1>(0T3)e1");
    assert_eq!(fen(&pos, 0, 3, Color::Black), "kr1qr*/p*p*p*p*p*/2P2/P*1P*P*P*/R*Q1RK");
}

#[test]
fn small_centered_white_cannot_castle_over_a_knight_attack() {
    // After 1. Nc3 / Nxc3 the black knight on c3 attacks d1, the square White's king would cross.
    let mut pos = variant("Small - Centered");
    play(&mut pos, "(0T1)d1>(0T1)c3");
    play(&mut pos, "(0T1)b5>(0T1)c3");
    assert!(castles(&pos).is_empty());
}

#[test]
fn just_rooks_start_crossed_squares_are_attacked() {
    // White R1KR1, Black 1rk1r: each king has a rook two away with an empty square between, but
    // Black's b5 rook attacks b1 and White's d1 rook attacks d5: neither may castle.
    let mut pos = variant("Focused - Just Rooks");
    assert!(castles(&pos).is_empty());
    assert!(!legal_action_with(&pos, "c1", "a1"));
    // Once White's d1 rook leaves the d-file (for e1, attacking e5) Black still cannot: the
    // landing square is attacked.
    play(&mut pos, "(0T1)d1>(0T1)e1");
    assert!(castles(&pos).is_empty());
}

#[test]
fn knights_vs_bishops_both_colours_castle_short() {
    // K d1, R f1 with a knight (White) or a bishop (Black) on e between.
    let mut pos = variant("Simple - Knights vs. Bishops");
    assert!(castles(&pos).is_empty());
    play(&mut pos, "(0T1)e1>(0T1)d3");
    play(&mut pos, "(0T1)f5>(0T1)f4");
    assert_eq!(castles(&pos), ["d1f1"]);
    play(&mut pos, "(0T2)d1>(0T2)f1");
    assert_eq!(
        fen(&pos, 0, 2, Color::Black),
        "r*bqk*br*/p*p*p*p*p*1/5p/3N2/P*P*P*P*P*P*/R*NQ1RK"
    );
    play(&mut pos, "(0T2)e6>(0T2)f5");
    play(&mut pos, "(0T3)d3>(0T3)b4");
    assert_eq!(castles(&pos), ["d6f6"]);
    play(&mut pos, "(0T3)d6>(0T3)f6");
    assert_eq!(
        fen(&pos, 0, 4, Color::White),
        "r*bq1rk/p*p*p*p*p*b/1N3p/6/P*P*P*P*P*P*/R*NQ1RK"
    );
}

#[test]
fn both_wings_and_every_condition() {
    // Rooks two away on both sides, nothing attacking: both castlings.
    assert_eq!(castles(&five("2k2/5/5/5/R*1K*1R*")), ["c1a1", "c1e1"]);
    // The crossed square b1 attacked (a rook on b5): no long castling.
    assert_eq!(castles(&five("1rk2/5/5/5/R*1K*1R*")), ["c1e1"]);
    // The landing square, where the rook stands, attacked along the a-file: no long castling.
    assert_eq!(castles(&five("r1k2/5/5/5/R*1K*1R*")), ["c1e1"]);
    // The crossed square d1 attacked diagonally (a bishop on a4 reaches d1): no short castling.
    assert_eq!(castles(&five("2k2/b4/5/5/R*1K*1R*")), ["c1a1"]);
    // The king in check: none.
    assert!(castles(&five("2r1k/4p/5/5/R*1K*1R*")).is_empty());
    // A moved rook, a moved king, a piece between, a rook one square away: none.
    assert_eq!(castles(&five("2k2/5/5/5/R1K*1R*")), ["c1e1"]);
    assert!(castles(&five("2k2/5/5/5/R*1K1R*")).is_empty());
    assert_eq!(castles(&five("2k2/5/5/5/R*NK*1R*")), ["c1e1"]);
    assert!(castles(&five("2k2/5/5/5/1R*K*R*1")).is_empty());
    // A rook of the other side, or another piece, two away: none.
    assert!(castles(&five("2k2/5/5/5/r1K*1N")).is_empty());
}

#[test]
fn played_castling_two_away_is_part_of_legal_actions_and_undoes() {
    let pos = five("2k2/5/5/5/R*1K*1R*");
    assert!(legal_action_with(&pos, "c1", "a1"));
    assert!(legal_action_with(&pos, "c1", "e1"));
    let mut p = pos.clone();
    let mv = p
        .find_move(
            chess5d_rules::Coord::new(0, 2, Square::parse("c1").expect("c1")),
            chess5d_rules::Coord::new(0, 2, Square::parse("e1").expect("e1")),
            None,
        )
        .expect("castling short");
    assert_eq!(
        mv.kind,
        MoveKind::Castle {
            rook_from: Square::parse("e1").expect("e1"),
            rook_to: Square::parse("d1").expect("d1"),
        }
    );
    assert_eq!(mv.captured, None);
    p.play(&mv).expect("pseudo-legal");
    assert_eq!(fen(&p, 0, 1, Color::Black), "2k2/5/5/5/R*2RK");
    p.undo_move();
    assert_eq!(p.hash(), pos.hash());
    // Black, with its king and rooks mirrored, castles both ways too.
    let mut black = five("r*1k*1r*/5/5/5/2K2");
    play(&mut black, "(0T1)c1>(0T1)c2");
    assert_eq!(castles(&black), ["c5a5", "c5e5"]);
    play(&mut black, "(0T1)c5>(0T1)a5");
    assert_eq!(fen(&black, 0, 2, Color::White), "kr2r*/5/5/2K2/5");
}
