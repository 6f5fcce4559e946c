//! Castling with a rook two squares away (variant positions): read as `O-O`/`O-O-O`, as the
//! king's move in SAN (`Kc5a5`) and in long form, written and read back.

use super::{assert_round_trips, hashes};
use chess5d_notation::{load, write_5dpgn, write_long, LoadedGame};
use chess5d_rules::MoveKind;

/// The game in Small - Centered: Black castles long onto its a5 rook, then White short
/// onto its e1 rook; `black` and `white` are how the two castlings are written.
fn centered(black: &str, white: &str) -> String {
    format!(
        "[Board \"Small - Centered\"]\n\n1. (0T1)d1(0T1)c3 / (0T1)b5(0T1)c3\n2. (0T2)b2(0T2)c3 / {black}\n3. {white}\n"
    )
}

fn load_ok(text: &str) -> LoadedGame {
    load(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn every_spelling_reads_the_same_castlings() {
    let long = load_ok(&centered("(0T2)c5(0T2)a5", "(0T3)c1(0T3)e1"));
    let reference = hashes(long.game());
    for (black, white) in [
        ("O-O-O", "O-O"),
        ("(0T2)O-O-O", "(0T3)O-O"),
        ("Kc5a5", "Kc1e1"),
        ("(0T2)Kc5a5", "(0T3)Kc1e1"),
        ("0-0-0", "0-0"),
    ] {
        let g = load_ok(&centered(black, white));
        assert_eq!(hashes(g.game()), reference, "{black} / {white}");
    }
    let moves: Vec<_> = long.game().actions()[3..].iter().map(|a| a.moves[0]).collect();
    for (m, rook_from, rook_to) in [(moves[0], "a5", "b5"), (moves[1], "e1", "d1")] {
        let MoveKind::Castle {
            rook_from: rf,
            rook_to: rt,
        } = m.kind
        else {
            panic!("{m} is not castling");
        };
        assert_eq!((rf.to_string().as_str(), rt.to_string().as_str()), (rook_from, rook_to));
        assert_eq!(m.to.square, rf, "the king lands on the rook's square");
    }
}

#[test]
fn castling_two_away_is_written_and_read_back() {
    let g = load_ok(&centered("O-O-O", "O-O"));
    // The king does not start on the e-file: SAN writes the king's move with both squares.
    let text = write_5dpgn(&g);
    assert!(text.contains("/ Kc5a5\n3. Kc1e1\n"), "{text}");
    assert!(write_long(g.game()).contains("(0T2)c5(0T2)a5"));
    assert_round_trips("castling two away", &g);
}

#[test]
fn castling_two_away_is_refused_where_the_rules_forbid_it() {
    // White's knight on d1 is still between king and rook.
    let msg = load("[Board \"Small - Centered\"]\n\n1. O-O\n")
        .map(|_| ())
        .expect_err("castling through a knight")
        .to_string();
    assert!(msg.contains("O-O") && msg.contains("line 3"), "{msg}");
    // After 1. Nc3 / Nxc3, the black knight attacks d1, the square the king would cross.
    let msg = load("[Board \"Small - Centered\"]\n\n1. (0T1)d1(0T1)c3 / (0T1)b5(0T1)c3\n2. (0T2)c1(0T2)e1\n")
        .map(|_| ())
        .expect_err("castling across an attacked square")
        .to_string();
    assert!(msg.contains("line 4") && msg.contains("e1"), "{msg}");
}
