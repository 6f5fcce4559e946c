//! Integration tests of the library core.

use chess5d_wasm::library::{Format, Library, Listing};

/// Positions where a side has no royal piece (rules crate, "Positions without a royal piece"):
/// imported as 5d-chess-js 1.2.1 exports them, or given as a Board object, and judged as the
/// rules say (never in check without a royal piece; stalemated without a legal action).
#[test]
fn positions_without_a_royal_piece_are_accepted() {
    // 5d-chess-js 1.2.1's export of a 4x4 brawns game.
    let mut lib = Library::new("").unwrap();
    let brawns =
        "[Board \"Custom\"]\n[Mode \"5D\"]\n[Size \"4x4\"]\n[w*w*w*w*/4/4/W*W*W*W*:0:1:w]\n1. Wa3 / Wb2\n2. Wxb2";
    lib.import(brawns, "").unwrap();
    assert!(!lib.in_check());
    assert_eq!(lib.in_checkmate(), Ok(false));
    assert_eq!(lib.in_stalemate(), Ok(false));
    assert_eq!(lib.player(), "black");

    // A lone knight as a Board object: eight moves, then Black (no piece) is stalemated.
    let knight = r#"{"width": 5, "height": 5, "timelines": [{"timeline": 0, "turns": [{"turn": 1,
        "player": "white", "pieces": [{"piece": "N", "player": "white", "position": {"coordinate": "c3"}}]}]}]}"#;
    let mut lib = Library::new(knight).unwrap();
    let Listing::Text(moves) = lib
        .moves(Format::parse("notation").unwrap(), true, true, false, true)
        .unwrap()
    else {
        panic!("a text list");
    };
    assert_eq!(moves.lines().count(), 8, "{moves}");
    lib.play_move("Nb1").unwrap();
    lib.submit().unwrap();
    assert!(!lib.in_check());
    assert_eq!(lib.in_checkmate(), Ok(false));
    assert_eq!(lib.in_stalemate(), Ok(true));

    // A side without a king mates one with a king.
    let mut lib = Library::new("[Board \"custom\"]\n[Size \"8x8\"]\n[k7/7R/8/8/8/8/8/6R1:0:1:w]").unwrap();
    lib.play_move("Rg8").unwrap();
    lib.submit().unwrap();
    assert!(lib.in_check());
    assert_eq!(lib.in_checkmate(), Ok(true));

    // Still refused: the side to move could capture a royal piece.
    let e = Library::new("[Board \"custom\"]\n[Size \"8x8\"]\n[k7/8/8/8/8/8/8/R7:0:1:w]").unwrap_err();
    assert_eq!(e.code(), "unreadable");
    assert!(
        e.to_string()
            .contains("the black king on (0T1)a8 can be captured by the side to move: (0T1)a1"),
        "{e}"
    );
}
