//! A game that uses every special rule, checked board by board against placements worked out
//! by hand: promotion, en passant, castling, a branching jump, an inactive timeline becoming
//! active, and a hop onto another timeline's playable board.

use super::oracle::parse_long;
use chess5d_rules::{Board, BoardId, Color, Position, Role, Setup, Size};

/// Plays and submits one action written as moves in long form (`(0T1)e2>(0T1)e4 ...`).
pub fn play(pos: &mut Position, action: &str) {
    let color_t = (pos.to_move() == Color::Black) as i32;
    for text in action.split_whitespace() {
        let (from, to, promo) = parse_long(text, pos.even(), color_t).unwrap_or_else(|| panic!("parse {text}"));
        let mv = pos.find_move(from, to, promo).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.play(&mv).unwrap();
    }
    pos.submit()
        .unwrap_or_else(|e| panic!("{action}: {e}\n{}", pos.describe()));
}

/// The placement of board `(l, turn, colour)`.
pub fn fen(pos: &Position, l: i32, turn: i32, color: Color) -> String {
    let id = BoardId::new(l, 2 * turn + color.index() as i32);
    pos.board(id)
        .unwrap_or_else(|| panic!("no board {id:?}\n{}", pos.describe()))
        .fen(pos.size())
}

#[test]
fn every_special_rule_in_one_game() {
    use Color::{Black, White};
    let start = Board::from_fen("1n6/3p*2P1/8/k3P3/8/8/8/1N2K*2R*", Size::STANDARD).unwrap();
    let mut pos = Position::from_setup(Setup {
        size: Size::STANDARD,
        even: false,
        boards: vec![(BoardId::new(0, 2), start)],
        promotions: vec![Role::Queen],
    })
    .unwrap();
    assert_eq!(fen(&pos, 0, 1, White), "1n6/3p*2P1/8/k3P3/8/8/8/1N2K*2R*");

    // Promotion.
    play(&mut pos, "(0T1)g7>(0T1)g8=Q");
    assert_eq!(fen(&pos, 0, 1, Black), "1n4Q1/3p*4/8/k3P3/8/8/8/1N2K*2R*");
    // A double step, then en passant.
    play(&mut pos, "(0T1)d7>(0T1)d5");
    assert_eq!(fen(&pos, 0, 2, White), "1n4Q1/8/8/k2pP3/8/8/8/1N2K*2R*");
    play(&mut pos, "(0T2)e5>(0T2)d6");
    assert_eq!(fen(&pos, 0, 2, Black), "1n4Q1/8/3P4/k7/8/8/8/1N2K*2R*");
    play(&mut pos, "(0T2)a5>(0T2)a4");
    // Castling king side: the king goes two files, the rook lands on the square it crossed.
    play(&mut pos, "(0T3)e1>(0T3)g1");
    assert_eq!(fen(&pos, 0, 3, Black), "1n4Q1/8/3P4/8/k7/8/8/1N3RK1");
    play(&mut pos, "(0T3)a4>(0T3)a5");
    assert_eq!(pos.timeline_count(), 1);

    // A branching jump: the knight goes one turn back and two ranks up, onto (0T3) white.
    play(&mut pos, "(0T4)b1>(0T3)b3");
    assert_eq!(pos.timeline_count(), 2);
    assert!(pos.is_active(1));
    // The new timeline starts one half-turn after the board it landed on: a copy plus the knight.
    assert_eq!(pos.timeline_start(1), Some(2 * 3 + 1));
    assert_eq!(fen(&pos, 1, 3, Black), "1n4Q1/8/3P4/8/k7/1N6/8/1N2K*2R*");
    assert_eq!(fen(&pos, 0, 4, Black), "1n4Q1/8/3P4/k7/8/8/8/5RK1");
    // The present went back to T3, on the new timeline: Black must play there.
    assert_eq!(pos.present(), 2 * 3 + 1);
    assert_eq!(pos.mandatory_boards(), vec![BoardId::new(1, 7)]);
    play(&mut pos, "(1T3)a4>(1T3)b4");

    // White's second timeline is inactive: Black has created none.
    play(&mut pos, "(1T4)g8>(0T4)g7");
    assert_eq!(pos.timeline_count(), 3);
    assert!(
        !pos.is_active(2),
        "a second white timeline with no black one is inactive"
    );
    // The queen landed on (0T4) white, which still had the knight on b1.
    assert_eq!(fen(&pos, 2, 4, Black), "1n4Q1/6Q1/3P4/k7/8/8/8/1N3RK1");
    assert_eq!(fen(&pos, 1, 4, Black), "1n6/8/3P4/8/1k6/1N6/8/1N2K*2R*");
    // Black must play on both present boards; its knight's jump makes timeline -1 and wakes +2.
    let mut mandatory = pos.mandatory_boards();
    mandatory.sort();
    assert_eq!(mandatory, vec![BoardId::new(0, 9), BoardId::new(1, 9)]);
    play(&mut pos, "(0T4)b8>(0T3)b6 (1T4)b4>(1T4)c4");
    assert_eq!(pos.timeline_count(), 4);
    assert!(
        pos.is_active(-1) && pos.is_active(2),
        "Black's first timeline makes White's second active"
    );
    // A copy of (0T3) black, where the knight still stood on b8, plus the knight on b6.
    assert_eq!(fen(&pos, -1, 4, White), "1n4Q1/8/1n1P4/8/k7/8/8/1N3RK1");
    assert_eq!(fen(&pos, 0, 5, White), "6Q1/8/3P4/k7/8/8/8/5RK1");
    assert_eq!(fen(&pos, 1, 5, White), "1n6/8/3P4/8/2k5/1N6/8/1N2K*2R*");
    assert_eq!(pos.present(), 2 * 4);
    assert_eq!(pos.mandatory_boards(), vec![BoardId::new(-1, 8)]);

    // A hop: the rook on (0T5)f1 moves one timeline up onto (1T5), the latest board there.
    play(&mut pos, "(-1T4)f1>(-1T4)f2 (0T5)f1>(1T5)f1");
    assert_eq!(fen(&pos, 0, 5, Black), "6Q1/8/3P4/k7/8/8/8/6K1");
    assert_eq!(fen(&pos, 1, 5, Black), "1n6/8/3P4/8/2k5/1N6/8/1N2K*R1R*");
    assert_eq!(fen(&pos, -1, 4, Black), "1n4Q1/8/1n1P4/8/k7/8/5R2/1N4K1");
    assert_eq!(pos.timeline_count(), 4);
}

/// A pawn's two-step is for its first move only; refusing it says so (records from clients with
/// other pawn rules meet this, e.g. `tools-v2/reflected-checkmate.alexbay`, whose moved pawn steps
/// two timelines).
#[test]
fn a_moved_pawns_two_step_is_refused_with_the_reason() {
    use chess5d_rules::{IllegalMove, Variant};
    let mut pos = Variant::by_name("Standard").unwrap().position();
    play(&mut pos, "(0T1)e2(0T1)e3");
    play(&mut pos, "(0T1)a7(0T1)a6");
    let long = |text: &str| parse_long(text, false, 0).unwrap();
    let (from, to, _) = long("(0T2)e3(0T2)e5");
    let err = pos.find_move(from, to, None).unwrap_err();
    assert!(matches!(err, IllegalMove::NotFirstMove { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "the white pawn on (0T2)e3 cannot move to (0T2)e5: only an unmoved pawn may step two ranks or two timelines, and this one has moved"
    );
    // Any other unreachable square keeps the plain answer; the one-step and an unmoved
    // pawn's two-step are played.
    let (from, to, _) = long("(0T2)e3(0T2)e6");
    assert!(matches!(
        pos.find_move(from, to, None),
        Err(IllegalMove::CannotReach { .. })
    ));
    let (from, to, _) = long("(0T2)e3(0T2)e4");
    assert!(pos.find_move(from, to, None).is_ok());
    let (from, to, _) = long("(0T2)d2(0T2)d4");
    assert!(pos.find_move(from, to, None).is_ok());
}
