//! Integration tests of chess5d-notation: corpus, hash vectors, round trips, errors, dialects.

use chess5d_notation::{full_state_hash, load, write_5dpgn, write_json, Error, Format, LoadedGame};
use chess5d_rules::{Game, Position};
use std::path::{Path, PathBuf};
use std::str::FromStr;

mod castling;
mod chessjs_order;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(data(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The hash after every action of a game.
fn hashes(game: &Game) -> Vec<String> {
    let mut pos = game.start().clone();
    let mut out = vec![full_state_hash(&pos)];
    for a in game.actions() {
        for m in &a.moves {
            pos.play(m).expect("recorded move");
        }
        pos.submit().expect("recorded action");
        out.push(full_state_hash(&pos));
    }
    out
}

fn assert_round_trips(name: &str, g: &LoadedGame) {
    let text = write_5dpgn(g);
    let again = load(&text).unwrap_or_else(|e| panic!("{name}: written 5DPGN does not load: {e}\n{text}"));
    assert_eq!(
        hashes(g.game()),
        hashes(again.game()),
        "{name}: 5DPGN round trip\n{text}"
    );
    assert_eq!(write_5dpgn(&again), text, "{name}: 5DPGN output is not stable");
    let json = write_json(g);
    let back = load(&json).unwrap_or_else(|e| panic!("{name}: written JSON does not load: {e}"));
    assert_eq!(back.format, Format::Json);
    assert_eq!(hashes(g.game()), hashes(back.game()), "{name}: JSON round trip");
    let long = chess5d_notation::write_long(g.game());
    let l = chess5d_notation::long::read_game(&long, Some(g.start().clone()))
        .unwrap_or_else(|e| panic!("{name}: long form does not load: {e}"));
    assert_eq!(hashes(g.game()), hashes(l.game()), "{name}: long round trip");
}

mod corpus {
    use super::*;

    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("corpus dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    /// Game records of the corpus (not the READMEs, the tables, the converted JSON states).
    fn records() -> Vec<(String, String)> {
        let root = data("corpus");
        let mut files = Vec::new();
        walk(&root, &mut files);
        files.sort();
        files
            .into_iter()
            .filter_map(|p| {
                let rel = p.strip_prefix(&root).ok()?.to_string_lossy().replace('\\', "/");
                let skip = rel.ends_with(".md")
                    || rel.ends_with(".tsv")
                    || rel == "variants/variants.json"
                    // The tools-v2 `.json` files are converter states, not games (see README).
                    || (rel.starts_with("tools-v2/") && rel.ends_with(".json"));
                (!skip).then(|| (rel, std::fs::read_to_string(&p).expect("utf-8 record")))
            })
            .collect()
    }

    /// Records that genuinely cannot be loaded, with a piece of the expected error.
    const FAILING: &[(&str, &str)] = &[
        // No start position in the file (the README says so).
        (
            "notation/readme-examples/knight-tactics-3.5dpgn",
            "[Size \"5x5\"] does not match the board Standard",
        ),
        (
            "notation/readme-examples/rook-tactics-1.5dpgn",
            "[Size \"5x5\"] does not match the board Standard",
        ),
        // A typo in the record: the bishop on (1T13)a3 goes to b4 (checking d6; black blocks on c5).
        (
            "notation/readme-examples/teln0-vs-shad-simple-no-queens.5dpgn",
            "action 29, '(1T13)Ba4+' at line 23, column 25: no legal move matches: no white bishop can move to a4",
        ),
        // The .4xel notation omits boards; it is refused with a clear error.
        ("notation/test/game-2.4xel", "line 1, column 1: expected 5DPGN; this looks like the .4xel notation"),
        // Brawns double-stepping along L through an occupied square (0T1)a1: the rules refuse it.
        (
            "notation/test/marauders.5dpgn",
            "action 1, '(1T1)BRa1>(-1T1)a1' at line 4, column 4: illegal move: the white brawn on (1T1)a1 cannot move to (-1T1)a1",
        ),
        // Impossible positions (rules crate, "Impossible positions"): the side to move can
        // capture the other's king. (Test positions without a king for one side load: rules
        // crate, "Positions without a royal piece".)
        (
            "slavrick/MateTest/test2.txt",
            "the black king on (0T1)d1 can be captured by the side to move: (-1T1)d2",
        ),
        (
            "tools-v2/tricky-nonmate.5dpgn",
            "the black king on (0T1)d1 can be captured by the side to move: (-1T1)d2",
        ),
        // Broken header upstream (missing `]`).
        (
            "slavrick/Puzzles/Brawn Tactics 2(not working just brawns not hard coded).PGN5.txt",
            "line 1, column 31: expected ']' closing the header",
        ),
        // The king already stands on d1.
        ("slavrick/Puzzles/Puzzlenew.txt", "action 1, 'Kd1' at line 5, column 3"),
        // A castling test with the rook next to the king: not castling under these rules.
        ("slavrick/testPGNs/CastleTest3.txt", "action 7, 'Kc7' at line 8, column 4"),
        // Underpromotion without a Promotions header (queen only).
        (
            "slavrick/testPGNs/PromotionTest.PGN5.txt",
            "action 2, 'd1=N' at line 5, column 11: illegal move: promotion to a knight is not allowed here",
        ),
        // Castling out of check, recorded on purpose (README: the generator must not offer it).
        (
            "tools-v2/bitboard/white-castle-illegal.5dpgn",
            "action 7, 'O-O' at line 6, column 4: no legal move matches: white cannot castle short",
        ),
        // A moved pawn (h7-h6 at 3b) stepping two timelines: the rules allow two steps only to
        // unmoved pawns (rules.md, "Pawns"), and 5d-chess-js 1.2.1 refuses it too (it offers
        // (0T4)h6>(1T4)h6 only). The alexbay client that recorded the game allowed it.
        (
            "tools-v2/reflected-checkmate.alexbay",
            "action 16, '4:h6<>+2:h6' at line 31, column 5: illegal move: the black pawn on (0T4)h6 cannot move to (2T4)h6: only an unmoved pawn may step two ranks or two timelines, and this one has moved",
        ),
    ];

    #[test]
    fn every_record_loads_or_fails_as_listed() {
        let records = records();
        assert!(records.len() > 120, "corpus copied: {}", records.len());
        let mut loaded = 0;
        for (rel, text) in &records {
            let expected = FAILING.iter().find(|(f, _)| f == rel).map(|(_, e)| *e);
            match (load(text), expected) {
                (Ok(_), None) => loaded += 1,
                (Err(e), Some(msg)) => assert!(e.to_string().contains(msg), "{rel}: {e}\nexpected: {msg}"),
                (Ok(_), Some(_)) => panic!("{rel} was expected to fail"),
                (Err(e), None) => panic!("{rel}: {e}"),
            }
        }
        assert_eq!(loaded + FAILING.len(), records.len());
    }

    #[test]
    fn every_record_round_trips() {
        for (rel, text) in records() {
            if let Ok(g) = load(&text) {
                assert_round_trips(&rel, &g);
            }
        }
    }

    /// A game written an action at a time (as a server does while the game is played) is the
    /// same text as the game written whole, after every action, mates (`#`) included.
    #[test]
    fn movetext_an_action_at_a_time_equals_the_whole_game_written() {
        use chess5d_notation::pgn::{write, Movetext};
        use chess5d_rules::{Budget, Outcome};
        let headers = vec![("Event".to_string(), "test".to_string())];
        let mut checked = 0;
        for (rel, text) in records() {
            let Ok(g) = load(&text) else { continue };
            let mut line = Movetext::new(g.game().start());
            let mut game = Game::new(g.game().start().clone());
            for (i, a) in g.game().actions().iter().enumerate() {
                game.play_action(&a.moves)
                    .unwrap_or_else(|e| panic!("{rel}: action {i}: {e}"));
                let mate =
                    i + 1 == g.game().actions().len() && game.position().outcome(Budget::DEFAULT) == Outcome::Checkmate;
                line.push(&a.moves, mate);
                assert_eq!(line.len(), i + 1);
                assert_eq!(line.position().hash(), game.position().hash(), "{rel}: action {i}");
                for result in ["*", "1-0"] {
                    assert_eq!(
                        line.write(&headers, Some(result)),
                        write(&game, &headers, Some(result)),
                        "{rel}: after action {i}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 500, "only {checked} actions checked");
    }

    #[test]
    fn side_to_move_matches_expected_table() {
        let table = read("corpus/expected.tsv");
        let mut checked = 0;
        for line in table.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let (Some(path), Some(side)) = (cols.first(), cols.get(2)) else {
                continue;
            };
            let Ok(g) = load(&read(&format!("corpus/{path}"))) else {
                continue;
            };
            assert_eq!(g.game().to_move().name(), *side, "{path}");
            checked += 1;
        }
        assert!(checked >= 30, "{checked}");
    }

    #[test]
    fn alexbay_and_5dpgn_of_the_same_game_agree() {
        let a = load(&read("corpus/notation/test/game-2.alexbay")).unwrap();
        let p = load(&read("corpus/notation/test/game-2.5dpgn")).unwrap();
        assert_eq!(a.format, Format::Alexbay);
        assert_eq!(p.format, Format::Pgn);
        assert_eq!(hashes(a.game()), hashes(p.game()));
        assert_eq!(p.game().actions().len(), 45);
    }

    #[test]
    fn plain_and_5dfen_rook_tactics_differ_only_by_start() {
        let fen = load(&read("corpus/notation/readme-examples/rook-tactics-1-5dfen.5dpgn")).unwrap();
        let plain = read("corpus/notation/readme-examples/rook-tactics-1.5dpgn");
        let moves = plain.split("\n\n").nth(1).unwrap();
        let text = format!("[Board \"custom\"]\n[Size \"5x5\"]\n[4k/5/5/5/K1R2:0:1:w]\n\n{moves}");
        let g = load(&text).unwrap();
        assert_eq!(hashes(fen.game()), hashes(g.game())[..5]);
        assert_eq!(g.game().outcome(), chess5d_rules::Outcome::Checkmate);
    }

    #[test]
    fn null_moves_before_the_first_action_fold_into_the_start() {
        let g = load(&read("corpus/slavrick/Variations/Standard-T0.PGN5.txt")).unwrap();
        let tz = chess5d_rules::Variant::by_name("Standard - Turn Zero")
            .unwrap()
            .position();
        assert_eq!(full_state_hash(g.start()), full_state_hash(&tz));
        assert_eq!(g.warnings.len(), 1);
    }
}

mod fen {
    use super::*;
    use chess5d_notation::fen::{md5_hex, read_position, write_boards, FenBoard};

    #[test]
    fn hash_vectors() {
        let table = read("corpus/notation/readme-examples/hash-vectors.tsv");
        let mut n = 0;
        for line in table.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 3);
            assert_eq!(md5_hex(cols[1]), cols[2]);
            let pos = read_position(cols[1], None).unwrap();
            assert_eq!(full_state_hash(&pos), cols[2], "{}", cols[0]);
            n += 1;
        }
        assert_eq!(n, 2);
        assert_eq!(
            full_state_hash(&Position::standard()),
            "d574889fd9da3f2bc65249ff27249b00"
        );
        let two = chess5d_rules::Variant::by_name("Standard - Two Timelines")
            .unwrap()
            .position();
        assert_eq!(full_state_hash(&two), "3672761404ffcd15ae644c75401812be");
    }

    #[test]
    fn board_read_write() {
        let b = FenBoard::from_str("[4k/5/5/5/K1R2:0:1:w]").unwrap();
        assert_eq!(b.placement, "4k/5/5/5/K1R2");
        assert_eq!(b.turn, 1);
        let pos = read_position("[4k/5/5/5/K1R2:0:1:w]", None).unwrap();
        assert_eq!(pos.size().to_string(), "5x5");
        assert_eq!(write_boards(&pos), vec!["[4k/5/5/5/K1R2:0:1:w]".to_string()]);
        // `+` before a letter is allowed; `*` marks unmoved pieces.
        let p = read_position("[+1k2/4/4/R*2K*:0:1:w]", None).unwrap();
        assert_eq!(write_boards(&p), vec!["[1k2/4/4/R*2K*:0:1:w]".to_string()]);
        // `*` on other pieces is dropped (found by fuzzing: it changed the position's hash).
        let u = read_position("[k3/4/4/U*2K*:0:1:w]", None).unwrap();
        assert_eq!(u.hash(), read_position("[k3/4/4/U2K*:0:1:w]", None).unwrap().hash());
    }

    #[test]
    fn even_timelines_from_labels() {
        let text = "[Board \"custom\"]\n[Size \"4x4\"]\n[k3/4/4/K3:-0:1:w]\n[k3/4/4/K3:+0:1:w]\n";
        let g = load(text).unwrap();
        assert!(g.start().even());
        assert_eq!(g.start().timeline_count(), 2);
        let w = chess5d_notation::write_5dfen(g.start());
        assert!(w.contains("[k3/4/4/K3:-0:1:w]\n[k3/4/4/K3:+0:1:w]"), "{w}");
        let back = load(&w).unwrap();
        assert_eq!(full_state_hash(back.start()), full_state_hash(g.start()));
    }

    #[test]
    fn write_5dfen_of_a_position_reloads() {
        let g = load(&read("corpus/notation/test/game-2.5dpgn")).unwrap();
        let text = chess5d_notation::write_5dfen(g.game().position());
        let back = load(&text).unwrap();
        assert_eq!(full_state_hash(back.start()), full_state_hash(g.game().position()));
        assert_eq!(back.start().to_move(), g.game().position().to_move());
    }

    #[test]
    fn errors_have_positions() {
        let e = FenBoard::from_str("[4k/5/5/5/K1R2:0:1:x]").unwrap_err();
        assert_eq!((e.span.line, e.span.column), (1, 20));
        assert!(e.to_string().contains("expected the colour to move"), "{e}");
        let text = "[Board \"custom\"]\n[Size \"5x5\"]\n[4k/5/5/5/K1R9:0:1:w]\n";
        match load(text).unwrap_err() {
            Error::Parse(e) => {
                assert_eq!(e.span.line, 3);
                assert!(e.expected.contains("5x5"), "{e}");
            }
            other => panic!("{other}"),
        }
        let e = load("[Board \"custom\"]\n[Size \"9x9\"]\n[4k:0:1:w]\n").unwrap_err();
        assert!(e.to_string().contains("[Size \"9x9\"]"), "{e}");
    }
}

mod pgn {
    use super::*;
    use chess5d_notation::{PgnGame, SanMove};

    fn load_ok(text: &str) -> LoadedGame {
        load(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn letterless_long_moves_name_the_piece_by_its_square() {
        // As the match runner and other programs write them: both full squares, no letter.
        let g =
            load_ok("[Board \"Standard\"]\n\n1. (0T1)g1(0T1)f3 / (0T1)b8(0T1)c6\n2. (0T2)e2(0T2)e4 / (0T2)c6(0T1)c4\n");
        assert_eq!(g.game().actions().len(), 4);
        assert_eq!(g.game().actions()[0].moves[0].piece.role(), chess5d_rules::Role::Knight);
        assert_eq!(g.game().position().timeline_count(), 2);
        // Without the source square, no letter still means a pawn.
        assert!(
            load("[Board \"Standard\"]\n\n1. f3\n").unwrap().game().actions()[0].moves[0]
                .piece
                .role()
                == chess5d_rules::Role::Pawn
        );
    }

    #[test]
    fn headers_in_order_and_promotions() {
        let g = load_ok("[White \"A\"]\n[Board \"standard\"]\n[Promotions \"Q R,N\"]\n[Black \"B\"]\n\n1. e4 *");
        let names: Vec<&str> = g.headers.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["White", "Board", "Promotions", "Black"]);
        use chess5d_rules::Role::*;
        assert_eq!(g.start().promotions(), [Queen, Rook, Knight]);
        assert_eq!(g.result.as_deref(), Some("*"));
        let none = load_ok("[Promotions \"\"]\n\n1. e4");
        assert!(none.start().promotions().is_empty());
        let w = write_5dpgn(&g);
        assert!(
            w.starts_with(
                "[Board \"Standard\"]\n[Size \"8x8\"]\n[Promotions \"Q,R,N\"]\n[White \"A\"]\n[Black \"B\"]\n"
            ),
            "{w}"
        );
    }

    #[test]
    fn move_forms_resolve_to_the_same_moves() {
        let forms = [
            "1. e4 / e5\n2. Nf3 / Nc6",
            "1. (0T1)e4 / (0T1)e5 2. (0T2)Nf3 / (0T2)Nc6",
            "1. e2e4 / Pe7e5\n2. Ng1f3 / (0T2)Nb8c6",
            "1. (0T1)Pe2(0T1)e4 / (L0T1)e5\n2. (L0 T2)Nf3 {a comment} / (0T2)Nc6!?",
            "1w. e4\n1b. e5\n2w. Nf3\n2b. Nc6",
            "1. e4 / e5 (1... c5 2. Nf3) 2. Nf3 / Nc6 (2... d6 (2... Nf6)) 1-0",
        ];
        let reference = hashes(load_ok(forms[0]).game());
        for f in forms {
            let g = load_ok(f);
            assert_eq!(hashes(g.game()), reference, "{f}");
        }
        let branched = PgnGame::parse(forms[5]).unwrap();
        let v = &branched.actions[1].variations;
        assert_eq!(v.len(), 1);
        let texts: Vec<&str> = v[0].actions.iter().map(|a| a.moves[0].text.as_str()).collect();
        assert_eq!(texts, ["c5", "Nf3"]);
        assert_eq!(branched.result.as_deref(), Some("1-0"));
    }

    #[test]
    fn jumps_castling_and_markers() {
        let text = "1. e3 / Nc6\n2. Nc3 / d5\n3. Nxd5 / Qxd5\n4. Bc4 / Qf3\n\
                    5. (0T5)Qd1>>(0T1)h5 (~T2) (>L1) / (1T1)e6\n6. (+1T2)Nf3 / (1T2)Nc6";
        let g = load_ok(text);
        assert_eq!(g.game().position().timeline_count(), 2);
        let pg = PgnGame::parse(text).unwrap();
        let m = &pg.actions[8].moves[0];
        assert_eq!(m.present, Some(2));
        assert_eq!(m.new_timeline.map(|t| t.to_string()), Some("1".into()));
        // Castling written as O-O or as the king's move (5d-chess-js).
        let a = load_ok("1. e4 / e5 2. Nf3 / Nf6 3. Bc4 / Bc5 4. O-O / O-O");
        let b = load_ok("1. e4 / e5 2. Nf3 / Nf6 3. Bc4 / Bc5 4. Kg1 / Ke8g8");
        assert_eq!(hashes(a.game()), hashes(b.game()));
        assert!(write_5dpgn(&b).contains("4. O-O / O-O"));
    }

    #[test]
    fn lenient_capture_mark_warns() {
        let g = load_ok("1. exe4 / e5");
        assert_eq!(g.warnings.len(), 1);
        assert_eq!((g.warnings[0].span.line, g.warnings[0].span.column), (1, 4));
        assert!(g.warnings[0].message.contains("captures nothing"));
    }

    #[test]
    fn doubled_file_pawn_capture_bug() {
        // 5d-chess-js writes `eexd5`-style captures.
        let a = load_ok("1. e4 / d5\n2. eexd5");
        let b = load_ok("1. e4 / d5\n2. exd5");
        assert_eq!(hashes(a.game()), hashes(b.game()));
        let SanMove::Normal(m) = SanMove::from_str("g2gxh1=Q").unwrap() else {
            panic!("a piece's move");
        };
        assert_eq!((m.from_file, m.from_rank, m.capture), (Some(6), Some(1), true));
        assert!(matches!(
            SanMove::from_str("(0T5)O-O-O+").unwrap(),
            SanMove::Castle { side: chess5d_notation::san::Castle::Long, ref suffix, from_board: Some(_) } if suffix.check
        ));
        assert!(SanMove::from_str("0000").unwrap().is_null());
    }

    #[test]
    fn black_first_game() {
        let text = "[Board \"custom\"]\n[Size \"4x4\"]\n[k3/p3/4/K3:0:1:b]\n\n1b. a2\n2. Kb2 / Kb4";
        let g = load_ok(text);
        assert_eq!(g.game().actions().len(), 3);
        let w = write_5dpgn(&g);
        assert!(w.contains("1b. a2\n2. Kb2 / Kb4\n"), "{w}");
        // `1. / a2` also reads.
        let g2 = load_ok("[Board \"custom\"]\n[Size \"4x4\"]\n[k3/p3/4/K3:0:1:b]\n\n1. / a2\n2. Kb2 / Kb4");
        assert_eq!(hashes(g.game()), hashes(g2.game()));
    }

    #[test]
    fn canonical_output() {
        let g = load(&read("corpus/notation/test/game-2.5dpgn")).unwrap();
        let w = write_5dpgn(&g);
        assert!(w.contains("1. c4 / g6\n"), "{w}");
        // Annotation glyphs are kept on their moves.
        assert!(w.contains("6. h3? / Qf4!\n"), "{w}");
        assert!(
            w.contains("7. e3?? / (0T7)Qf4>>x(0T4)c4~\n8. (-1T5)Ba3 (0T8)hxg4 / (-1T5)Bh6\n"),
            "{w}"
        );
        assert!(w.contains("9. (-1T6)e3 / (-1T6)Qxf1+\n"), "{w}");
        assert!(w.contains("16. (-1T10)Nce2 (1T10)Nb5>x(0T10)b7 / "), "{w}");
        assert!(w.contains("23. (-2T15)Qd6#\n1-0\n"), "{w}");
    }

    #[test]
    fn error_positions() {
        let e = load("[Board \"Standard\"]\n\n1. e4 / e5\n2. Nf3 / Nz9\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4, column 10: expected a move like e4, Nf3 or (0T1)Nb1>>(0T1)b3, found 'Nz9'"
        );
        let e = load("1. e4 / e5\n2. Ne4 / Nc6\n").unwrap_err();
        match e {
            Error::Resolve(r) => {
                assert_eq!(
                    (r.action, r.text.as_str(), r.span.line, r.span.column),
                    (3, "Ne4", 2, 4)
                );
                assert_eq!(
                    r.to_string(),
                    "action 3, 'Ne4' at line 2, column 4: no legal move matches: no white knight can move to e4"
                );
            }
            other => panic!("{other}"),
        }
        let e = load("1. e4 / e5\n2. (0T2)Ng1(0T2)g3\n").unwrap_err();
        assert!(
            e.to_string()
                .contains("illegal move: the white knight on (0T2)g1 cannot move to (0T2)g3"),
            "{e}"
        );
        let e = load("[Board \"custom\"]\n[Size \"8x8\"]\n[2N3N1/8/8/8/4K3/8/8/r3k2r:0:1:w]\n\n1. Ne7").unwrap_err();
        assert!(
            e.to_string()
                .contains("ambiguous, it could be any of (0T1)c8(0T1)e7, (0T1)g8(0T1)e7"),
            "{e}"
        );
        let e = load("1. e4 / e5 / e6").unwrap_err();
        assert!(e.to_string().contains("action 3, 'e6' at line 1, column 14"), "{e}");
        let e = load("1. e4 {unclosed").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 7: expected '}' closing the comment, found '{'"
        );
        let e = load("1w. e4\n1w. e5").unwrap_err();
        assert!(
            e.to_string().contains("written as white's, but black is to move"),
            "{e}"
        );
        // A submit error names the whole action.
        let e = load("[Board \"Standard - Two Timelines\"]\n\n1. (-0T1)e4").unwrap_err();
        assert!(
            e.to_string()
                .contains("cannot submit the action: board (+0T1) is in the present"),
            "{e}"
        );
    }

    #[test]
    fn ambiguity_check_file_disambiguates() {
        // The corpus file has no kings (a side without a royal piece is accepted), and the
        // same position with a king for each side reads and writes the same.
        let text = read("corpus/slavrick/testPGNs/AmbiguityCheck.txt");
        let with_kings = text.replace("2N3N1/8/8/8/8/8/8/r6r", "2N3Nk/8/8/8/4K3/8/8/r6r");
        for text in [text, with_kings] {
            let g = load(&text).unwrap();
            assert!(write_5dpgn(&g).contains("1. Nce7 / Rhe1"), "{}", write_5dpgn(&g));
        }
    }
}

mod long {
    use super::*;
    use chess5d_notation::long::{parse_action, read_game, write_move};
    use chess5d_notation::LongMove;

    #[test]
    fn forms() {
        let a = LongMove::from_str("(0T1)e2(0T1)e4").unwrap();
        let b = LongMove::from_str("(0T1)e2>(0T1)e4").unwrap();
        let c = LongMove::from_str("(0T1)e2e4").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a.to_string(), "(0T1)e2(0T1)e4");
        let p = LongMove::from_str("(0T9)g7(0T9)g8=Q").unwrap();
        assert_eq!(p.promotion, Some(chess5d_rules::Role::Queen));
        // The 5DUCI draft's promotion, a bare letter (protocol reads moves through LongMove).
        assert_eq!(LongMove::from_str("(0T9)g7(0T9)g8Q").unwrap(), p);
        assert!(LongMove::from_str("(0T9)g7(0T9)g8Qx").is_err());
        let pos = Position::standard();
        let m = a.resolve(&pos).unwrap();
        assert_eq!(write_move(&m, false), "(0T1)e2(0T1)e4");
        assert_eq!(parse_action("(0T1)e2e4  (0T1)d2d4").unwrap().len(), 2);
        let e = LongMove::from_str("(0T1)e2(0T1)z9").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 13: expected a square like e4, found 'z9'"
        );
    }

    #[test]
    fn game() {
        let text = "(0T1)e2(0T1)e4\n(0T1)e7>(0T1)e5\n(0T2)g1(0T2)f3\n(0T2)b8>>(0T1)b6\n";
        let g = load(text).unwrap();
        assert_eq!(g.format, Format::Long);
        assert_eq!(g.game().position().timeline_count(), 2);
        assert_eq!(
            chess5d_notation::write_long(g.game()),
            text.replace(">>", "").replace('>', "")
        );
        let e = read_game("(0T1)e2(0T1)e5\n", None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("action 1, '(0T1)e2(0T1)e5' at line 1, column 1: illegal move"),
            "{e}"
        );
    }
}

mod dialects {
    use super::*;

    /// 5d-chess-js writes an action ended by its `pass()` as the moves played (none for a
    /// whole turn passed): its reader takes them as passes, 5DPGN's refuses them.
    #[test]
    fn chessjs_records_with_passes() {
        use chess5d_notation::chessjs;
        let cases = [
            ("[Board \"Standard\"]\n1.  / e5\n2. d4", 3, false),
            ("[Board \"Standard\"]\n1. e4 / \n2. d4 / d5", 4, true),
            ("[Board \"Standard\"]\n1. c3 / e5\n2.  / \n3. g3", 5, false),
            (
                "[Board \"Standard - Two Timelines\"]\n1. (-0T1)Nc3 / (-0T1)Nc6\n2. (-0T2)e4 (+0T2)e4",
                3,
                false,
            ),
        ];
        for (text, actions, white_to_move) in cases {
            let g = chessjs::load(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(g.game().actions().len(), actions, "{text}");
            assert_eq!(
                g.game().to_move() == chess5d_rules::Color::White,
                white_to_move,
                "{text}"
            );
            assert!(g.game().has_pass(), "{text}");
            // Written back in the dialect, the record is the same.
            let tokens = chessjs::Tokens::default();
            assert_eq!(
                chessjs::write_record(g.game(), &[], tokens).trim_end(),
                text.lines().skip(1).collect::<Vec<_>>().join("\n").trim_end(),
                "{text}"
            );
        }
        // Its JSON action list of such a game reads back as the same game (the Action
        // objects of a pass have no moves, or fewer than the boards to play).
        for (text, _, _) in cases {
            let g = chessjs::load(text).unwrap();
            let json = chess5d_notation::json::write_actions(g.game());
            let back = chess5d_notation::json::read_actions(&json, g.game().start().clone())
                .unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(back.game().actions(), g.game().actions(), "{text}");
            assert_eq!(back.game().position().hash(), g.game().position().hash(), "{text}");
            assert!(
                (0..g.game().actions().len()).all(|i| back.game().is_pass(i) == g.game().is_pass(i)),
                "{text}"
            );
        }
        // An unfinished last action is the library's move buffer: its moves stay under way.
        let g = chessjs::load(
            "[Board \"Standard - Two Timelines\"]\n1. (-0T1)Nc3 (+0T1)Nc3 / (-0T1)Nc6 (+0T1)Nc6\n2. (-0T2)e4",
        )
        .unwrap();
        assert_eq!((g.game().actions().len(), g.game().pending_moves().len()), (2, 1));
        assert!(!g.game().has_pass());
        // A turn number that skips ahead is no pass.
        assert!(chessjs::load("[Board \"Standard\"]\n1. c3 / e5\n9. g3").is_err());
        // The library ends its records with the next turn's number: no pass.
        let g = chessjs::load("[Board \"Standard\"]\n1. e4 / e5\n2. ").unwrap();
        assert_eq!((g.game().actions().len(), g.game().has_pass()), (2, false));
        assert!(load("[Board \"Standard - Two Timelines\"]\n1. (-0T1)Nc3 / (-0T1)Nc6\n2. (-0T2)e4 (+0T2)e4").is_err());
        // A pass that leaves a royal piece capturable is no pass.
        let e = chessjs::load("[Board \"Standard\"]\n1. e4 / f5\n2. Qh5 / \n3. d4").unwrap_err();
        assert!(e.to_string().contains("could be captured"), "{e}");
    }

    /// The library reads a format by the words it contains, in any order and separator.
    #[test]
    fn chessjs_format_words() {
        use chess5d_notation::chessjs::Tokens;
        let t = |a, tl, s, i| {
            Some(Tokens {
                active: a,
                timeline: tl,
                superphysical: s,
                inline: i,
            })
        };
        for (format, tokens) in [
            ("5dpgn", t(false, false, false, false)),
            ("notation", t(false, false, false, false)),
            ("notation_short", t(false, false, false, false)),
            ("5dpgn_active_superphysical", t(true, false, true, false)),
            ("5dpgn active timeline", t(true, true, false, false)),
            ("timeline-active-5dpgn", t(true, true, false, false)),
            ("notation_inline", t(false, false, false, true)),
            ("notation active", t(true, false, false, false)),
            ("json notation", t(false, false, false, false)),
            ("object", None),
            ("json", None),
            ("", None),
            ("5DPGN", None),
            ("pgn active", None),
        ] {
            assert_eq!(Tokens::parse(format), tokens, "{format:?}");
        }
    }

    /// A pawn's promotion names its square as the library writes it whenever the library
    /// would offer several pieces (Standard: Q, R, B, N on the boards).
    #[test]
    fn chessjs_promotion_text() {
        use chess5d_notation::chessjs::{self, Tokens};
        let g = load("[Board \"Standard\"]\n1. b4 / a5\n2. bxa5 / b6\n3. a6 / Nc6\n4. a7 / Rb8").unwrap();
        let pos = g.game().position();
        let mut texts: Vec<String> = pos
            .present_moves()
            .iter()
            .filter(|m| m.promotion.is_some())
            .map(|m| chessjs::move_text(pos, m, Tokens::default()))
            .collect();
        texts.sort();
        assert_eq!(texts, ["a7a8=Q", "a7xb8=Q"]);
        // One piece type besides pawns and kings: the pawn's move, as the library writes it.
        let g = load("[Board \"custom\"]\n[Size \"4x4\"]\n[n2k/1P2/4/K3:0:1:w]").unwrap();
        let pos = g.game().position();
        let mut texts: Vec<String> = pos
            .present_moves()
            .iter()
            .filter(|m| m.promotion.is_some())
            .map(|m| chessjs::move_text(pos, m, Tokens::default()))
            .collect();
        texts.sort();
        assert_eq!(texts, ["b4=Q", "bxa4=Q"]);
    }

    #[test]
    fn alexbay_forms() {
        let text = "1w. 1:e2:e3\n1b. 1:f7:f6\n2w. 2:Nb1<>1:b3\n2b. 1+1:a7:a6\n3w. 2+1:c2:c3\n\
                    3b. 2:Nb8:c6\n3b. 2+1:Nb8:c6\n4w. 3:Qd1:h5\n4w. 3+1:Qd1<>3+1:c2#\n";
        let g = load(text).unwrap();
        assert_eq!(g.format, Format::Alexbay);
        assert_eq!(g.game().actions().len(), 7);
        // The seed marks the last move `#`, but black escapes by sending a knight back in time
        // (the present moves back to a white board), so the rules find a legal action.
        assert!(g.game().in_check());
        let e = load("1w. 1:e2:e5\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("action 1, '1:e2:e5' at line 1, column 5: illegal move"),
            "{e}"
        );
        let e = load("1w. 1:e2:e3\n1b. 1:f7f6\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 9: expected ':' before the destination square, found 'f6'"
        );
    }

    #[test]
    fn coordinate_notation() {
        let text = "(5,2,1,0)(5,4,1,0)\n(5,7,1,0)(5,5,1,0)\n(7,1,2,0)(6,3,2,0)\n(2,8,2,0)(2,6,1,0)\n";
        let g = load(text).unwrap();
        assert_eq!(g.format, Format::Coordinate);
        let long = load("(0T1)e2e4\n(0T1)e7e5\n(0T2)g1f3\n(0T2)b8(0T1)b6\n").unwrap();
        assert_eq!(hashes(g.game()), hashes(long.game()));
        // The seed's Rook Tactics 4 moves, two actions on one timeline, `;` between moves.
        let rt4 = "[Board \"custom\"]\n[Size \"4x4\"]\n[r2k/4/4/P2K:0:1:w]\n(1,1,1,0)(1,2,1,0)\n(1,4,1,0)(3,4,1,0)\n(4,1,2,0)(3,2,1,0)\n";
        let g = chess5d_notation::coordinate::read(rt4, None).unwrap();
        assert_eq!(g.game().position().timeline_count(), 2);
        let castle = "[Board \"custom\"]\n[Size \"8x8\"]\n[r*3k*2r*/8/8/8/8/8/8/R*3K*2R*:0:1:w]\nO-O,0\nO-O-O,0\n";
        let g = chess5d_notation::coordinate::read(castle, None).unwrap();
        assert!(write_5dpgn(&g).contains("1. O-O / O-O-O"));
        let e = chess5d_notation::coordinate::read("(5,2,1,0)(5,9,1,0)\n", None).unwrap_err();
        assert!(
            e.to_string()
                .contains("expected file and rank numbers from 1 to 8, found '5,9'"),
            "{e}"
        );
    }

    #[test]
    fn gui_fen() {
        let g = load("8;8;1;0\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR;KQkq;-;w1\n").unwrap();
        assert_eq!(g.format, Format::GuiFen);
        assert_eq!(full_state_hash(g.start()), full_state_hash(&Position::standard()));
        // The seed's Timeline Fragments example has an extra field on its second line.
        let e = load("4;4;2;-0;w;T\nnbru/4/4/KPPP;;-;w1;0;\nkppp/4/4/NBRU;;-;0;1;b1;0;\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 3, column 1: expected a start like w1 or b1"),
            "{e}"
        );
        // Move lists are not well defined.
        let e = load("4;4;1;0;b\nr2k/4/4/P2K;;-;w1;3;(1,1,1,0)(1,2,1,0)\n").unwrap_err();
        assert!(
            e.to_string()
                .contains("move lists in the FEN proposal are not well defined"),
            "{e}"
        );
    }

    #[test]
    fn library_json_list() {
        let json = r#"[{"action":1,"player":"white","moves":[{"start":{"timeline":0,"turn":1,"player":"white","coordinate":"e2","rank":2,"file":5},"end":{"timeline":0,"turn":1,"player":"white","coordinate":"e4","rank":4,"file":5},"player":"white","promotion":null,"enPassant":null,"castling":null}]}]"#;
        let g = load(json).unwrap();
        assert_eq!(g.game().actions().len(), 1);
        assert_eq!(chess5d_notation::json::write_actions(g.game()), json);
        let e = load("[{\"action\":1,\"moves\":[{\"start\":{}}]}]").unwrap_err();
        assert!(
            e.to_string().contains("expected a Position with an integer 'timeline'"),
            "{e}"
        );
        let e = load("[{\"action\":1,").unwrap_err();
        assert!(
            e.to_string().starts_with("line 1, column 13: expected valid JSON"),
            "{e}"
        );
    }
}

mod random {
    use super::*;
    use chess5d_rules::{Budget, Variant};
    use proptest::prelude::*;

    const VARIANTS: &[&str] = &[
        "Standard",
        "Standard - Turn Zero",
        "Standard - Two Timelines",
        "Misc - Timeline Invasion",
        "Very Small - Open",
        "Focused - Just Brawns",
        "Misc - Timeline Battlegrounds",
        "Standard - Reversed Royalty",
    ];

    fn random_game(variant: usize, picks: &[usize]) -> LoadedGame {
        let v = Variant::by_name(VARIANTS[variant % VARIANTS.len()]).unwrap();
        let start = v.position();
        let mut game = chess5d_rules::Game::new(start);
        for &k in picks {
            let actions: Vec<_> = game
                .position()
                .legal_actions(Budget::tests(10_000))
                .take(k % 20 + 1)
                .collect();
            let Some(action) = actions.last() else { break };
            game.play_action(action).unwrap();
        }
        LoadedGame::of_game(Format::Pgn, game)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn write_then_read_keeps_every_position(variant in 0usize..8, picks in proptest::collection::vec(0usize..1000, 0..10)) {
            let g = random_game(variant, &picks);
            assert_round_trips("random game", &g);
        }
    }
}

mod variations {
    use super::*;
    use chess5d_notation::{GameTree, NodeId, PgnGame};

    fn load_file(name: &str) -> Result<LoadedGame, Error> {
        load(&read(&format!("variations/{name}")))
    }

    /// The rows of `variations/expected.tsv`.
    fn table() -> Vec<Vec<String>> {
        read("variations/expected.tsv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split('\t').map(str::to_string).collect())
            .collect()
    }

    #[test]
    fn every_fixture_reads_as_listed() {
        let rows = table();
        assert!(rows.len() >= 12);
        for row in rows {
            let name = &row[0];
            match load_file(name) {
                Ok(g) if row[1] != "error" => {
                    assert_eq!(g.tree().len().to_string(), row[1], "{name}: nodes");
                    assert_eq!(g.tree().main_line().len().to_string(), row[2], "{name}: main line");
                    assert_eq!(g.game().actions().len().to_string(), row[2], "{name}: game");
                    let dups = g.warnings.iter().filter(|w| w.message.contains("kept once")).count();
                    assert_eq!(dups.to_string(), row[3], "{name}: duplicate warnings");
                }
                Ok(_) => panic!("{name}: loads, but should fail with {}", row[3]),
                Err(e) => {
                    assert_eq!(row[1], "error", "{name}: {e}");
                    let (line, column) = row[2].split_once(':').unwrap();
                    let span = match &e {
                        Error::Parse(p) => p.span,
                        Error::Resolve(r) => r.span,
                        Error::Setup(_) => panic!("{name}: {e}"),
                    };
                    assert_eq!(
                        (span.line.to_string(), span.column.to_string()),
                        (line.into(), column.into()),
                        "{name}: {e}"
                    );
                    assert!(e.to_string().contains(&row[3]), "{name}: {e}");
                }
            }
        }
    }

    /// Read, write, read: the same tree; the written text is the expected one and is stable.
    #[test]
    fn every_tree_round_trips() {
        for row in table().into_iter().filter(|r| r[1] != "error") {
            let name = &row[0];
            let g = load_file(name).unwrap();
            let written = write_5dpgn(&g);
            let expected = read(&format!("variations/{}", name.replace(".5dpgn", ".expected")));
            assert_eq!(written, expected, "{name}");
            let again = load(&written).unwrap_or_else(|e| panic!("{name}: {e}\n{written}"));
            assert!(g.tree().same_as(again.tree()), "{name}: the tree changed\n{written}");
            assert_eq!(write_5dpgn(&again), written, "{name}: output not stable");
            assert_eq!(hashes(g.game()), hashes(again.game()), "{name}: main line");
        }
    }

    #[test]
    fn tree_api_on_the_branched_example() {
        let g = load_file("branched-example.5dpgn").unwrap();
        let t = g.tree();
        let main = t.main_line();
        let after_e5 = main[1];
        // Three alternatives for action 3: the main continuation first.
        let kids = t.children(after_e5);
        assert_eq!(kids.len(), 3);
        let even = t.start().even();
        let first_move = |n| t.action(n).moves[0].long(even);
        assert_eq!(first_move(kids[0]), "(0T2)f2(0T2)f4");
        assert_eq!(first_move(kids[1]), "(0T2)g1(0T2)f3");
        assert_eq!(first_move(kids[2]), "(0T2)b1(0T2)c3");
        assert_eq!(t.parent(kids[1]), Some(after_e5));
        assert_eq!(t.depth(kids[1]), 3);
        assert_eq!(t.player(kids[1]), Some(chess5d_rules::Color::White));
        assert_eq!(t.player(GameTree::ROOT), None);
        // Nc6's children: Bc4 (main) then Bb5.
        let nc6 = t.children(kids[1])[0];
        let replies: Vec<String> = t.children(nc6).iter().map(|&n| first_move(n)).collect();
        assert_eq!(replies, ["(0T3)f1(0T3)c4", "(0T3)f1(0T3)b5"]);
        // The walk visits every node once, parents first, main continuations before variations.
        let walked: Vec<_> = t.walk().collect();
        assert_eq!(walked.len(), t.len());
        assert_eq!(walked[0], GameTree::ROOT);
        assert_eq!(&walked[1..3], &main[..2]);
        assert_eq!(walked[3], main[2]);
        for (i, &n) in walked.iter().enumerate().skip(1) {
            let p = t.parent(n).unwrap();
            assert!(walked[..i].contains(&p));
        }
        // The game at a node replays its line.
        let a6 = t.children(t.children(nc6)[1])[0];
        let game = t.game_at(a6);
        assert_eq!(game.actions().len(), 6);
        let flat = load("1. e4 / e5 2. Nf3 / Nc6 3. Bb5 / a6").unwrap();
        assert_eq!(hashes(&game), hashes(flat.game()));
    }

    #[test]
    fn a_nested_single_line_is_the_flat_line() {
        let nested = load_file("branched-nested.5dpgn").unwrap();
        let flat = load("[Board \"Standard\"]\n\n1.e3 / Nf6 2.Nf3 / d5").unwrap();
        assert!(nested.tree().same_as(flat.tree()));
        assert!(!nested.tree().same_as(load("1.e3 / Nf6 2.Nf3").unwrap().tree()));
    }

    #[test]
    fn rav_and_branched_forms_of_one_tree_agree() {
        let rav = load("1. e4 / e5 (1... c5 2. Nf3) 2. Nf3 / Nc6 (2... d6 (2... Nf6))").unwrap();
        let branched = load("1. e4 (/ c5 2. Nf3) / e5 2. Nf3 (/ d6) (/ Nf6) / Nc6").unwrap();
        assert!(rav.tree().same_as(branched.tree()));
        // `1.` after White's action is RAV (White's alternative); `/` is Branched (Black's).
        let white = load("1. e4 (1. d4) / e5").unwrap();
        assert_eq!(white.tree().children(GameTree::ROOT).len(), 2);
        let black = load("1. e4 (/ d5) / e5").unwrap();
        assert_eq!(black.tree().children(GameTree::ROOT).len(), 1);
        assert_eq!(black.tree().children(black.tree().main_line()[0]).len(), 2);
    }

    #[test]
    fn a_duplicate_adds_its_continuations_as_variations() {
        let g = load("1. e4 / e5 (2. Nf3 / Nc6 3. Bc4) (2. Nf3 / d6) (2. Nf3 / Nc6 3. Bb5)").unwrap();
        let t = g.tree();
        let e5 = t.main_line()[1];
        // The three variations are one node: the first one written keeps its main line.
        assert_eq!(t.children(e5).len(), 1);
        let nf3 = t.children(e5)[0];
        let even = t.start().even();
        let names = |n: NodeId| -> Vec<String> { t.children(n).iter().map(|&c| t.action(c).long(even)).collect() };
        assert_eq!(names(nf3), ["(0T2)b8(0T2)c6", "(0T2)d7(0T2)d6"]);
        let nc6 = t.children(nf3)[0];
        assert_eq!(names(nc6), ["(0T3)f1(0T3)c4", "(0T3)f1(0T3)b5"]);
        assert_eq!(g.warnings.len(), 2);
        assert_eq!(t.main_line().len(), 5);
    }

    #[test]
    fn the_timeline_header_must_match_the_boards() {
        assert!(load("[Board \"Standard - Two Timelines\"]\n[Timeline \"Even\"]\n\n1. (-0T1)e4 (+0T1)e4").is_ok());
        assert!(load("[Timeline \"odd\"]\n\n1. e4").is_ok());
        let e = load("[Timeline \"Even\"]\n\n1. e4").unwrap_err();
        assert!(e.to_string().contains("an odd number of starting timelines"), "{e}");
        let e = load("[Timeline \"Many\"]\n\n1. e4").unwrap_err();
        assert!(e.to_string().contains("neither Odd nor Even"), "{e}");
    }

    /// Inputs the variations fuzz target found: each reads, writes and reads back to the same tree.
    #[test]
    fn fuzz_findings_round_trip() {
        for text in [
            // A result token before a variation that carries the main line on.
            "[Board \"Standard\"]\n\n1.e3 1/2-1/2( / Nf6 ( 2.Nf3 ( / d5)))\n",
            // A Result header that is no result token is not written after the moves.
            "[Board \"Standard\"]\n[Result \"2.\r\"]\n\n1. e4 / \n",
            // A backslash at the end of a header line does not swallow the line end.
            "[Se \"u\\\n\"]\n\n1. e4\n",
        ] {
            let g = match load(text) {
                Ok(g) => g,
                // The last one is an unclosed header value: an error, not a panic.
                Err(e) => {
                    assert!(e.to_string().contains("closing the header value"), "{text:?}: {e}");
                    continue;
                }
            };
            let written = write_5dpgn(&g);
            let again = load(&written).unwrap_or_else(|e| panic!("{text:?}: {e}\n{written}"));
            assert!(g.tree().same_as(again.tree()), "{text:?}\n{written}");
            assert_eq!(write_5dpgn(&again), written);
        }
        let g = load("[Board \"Standard\"]\n\n1.e3 1/2-1/2( / Nf6 ( 2.Nf3 ( / d5)))\n").unwrap();
        assert_eq!(g.tree().result(*g.tree().main_line().last().unwrap()), Some("1/2-1/2"));
    }

    #[test]
    fn results_stay_on_their_leaves() {
        let g = load_file("results-as-leaves.5dpgn").unwrap();
        let t = g.tree();
        let leaves: Vec<_> = t.walk().filter(|&n| t.children(n).is_empty()).collect();
        let results: Vec<_> = leaves.iter().map(|&n| t.result(n)).collect();
        assert_eq!(results, [Some("*"), Some("1-0"), Some("0-1")]);
        assert_eq!(g.result.as_deref(), Some("*"));
        // The mate in the variation is marked as one.
        assert!(write_5dpgn(&g).contains("4. Qxf7# 1-0)"));
    }

    #[test]
    fn relative_boards_resolve_from_the_source() {
        let rel = load("1. e4 / e5\n2. Nf3 / (0T2)Nb8>>$(L=T-1)b6~\n3. (-1T2)Qd1>>$(L+1T=)e2").unwrap();
        let abs = load("1. e4 / e5\n2. Nf3 / (0T2)Nb8>>(0T1)b6~\n3. (-1T2)Qd1>>(0T2)e2").unwrap();
        assert_eq!(hashes(rel.game()), hashes(abs.game()));
        // A timeline alone, `(L-1)`, is its last board.
        let latest = load("1. e4 / e5\n2. Nf3 / (L0)Nb8>>$(L=T-1)b6~\n3. (L-1)Qd1>>(L+0T2)e2").unwrap();
        assert_eq!(hashes(latest.game()), hashes(abs.game()));
        let e = load("1. e4 / (L1)e5").unwrap_err();
        assert!(e.to_string().contains("there is no timeline (L1)"), "{e}");
        for (text, expected) in [
            (
                "1. e4 / e5\n2. Nf3 / Nb8>>$(L=T-1)b6",
                "a source board before a relative destination",
            ),
            (
                "1. e4 / e5\n2. Nf3 / (0T2)Nb8>>$(X1)b6",
                "a relative board like $(L+1T-1)",
            ),
            ("1. e4 / e5\n2. Nf3 / (0T2)Nb8>>$(L1)b6", "'=', or a sign and a number"),
            ("1. e4 $(L+1) / e5", "a relative board like $(L+1T-1) only follows"),
        ] {
            let e = load(text).unwrap_err();
            assert!(e.to_string().contains(expected), "{text}: {e}");
            assert!(matches!(e, Error::Parse(_)), "{text}: {e}");
        }
        // A relative board that leads nowhere is the rules' error, at the move.
        let e = load("1. e4 / e5\n2. (0T2)Ng1$(L+1T=)f3").unwrap_err();
        assert!(e.to_string().contains("line 2, column 4"), "{e}");
    }

    #[test]
    fn variations_are_checked_with_their_place() {
        // A move legal in the main line but not in the variation's position.
        let text = "1. e4 / d5 (/ e5 2. exd5) 2. exd5";
        assert!(load("1. e4 / d5 2. exd5").is_ok());
        let e = load(text).unwrap_err();
        assert_eq!(text.find("exd5"), Some(20));
        assert!(
            e.to_string()
                .starts_with("action 3, 'exd5' at line 1, column 21: no legal move matches"),
            "{e}"
        );
        // Too deep a nesting is refused, not overflowed.
        let deep = format!("1. e4{}{}", " (1. d4".repeat(500), ")".repeat(500));
        let e = PgnGame::parse(&deep).unwrap_err();
        assert!(e.to_string().contains("nested variations"), "{e}");
        let e = load("1. e4 / e5)").unwrap_err();
        assert!(e.to_string().contains("'(' opening a variation is missing"), "{e}");
    }
}

mod multi {
    use super::*;
    use chess5d_notation::multi::{GameError, Games};
    use chess5d_notation::GameText;
    use std::io::{BufReader, Read};

    fn games(text: &str) -> Vec<Result<GameText, GameError>> {
        Games::new(text.as_bytes()).collect()
    }

    #[test]
    fn white_space_alone_is_no_game() {
        // The vertical tab is white space to Unicode but not to ASCII trimming (found by the
        // `multi` fuzz target).
        for text in ["", "\n\n", "\u{b}", " \u{b}\t\r\n\u{c}\n", "\u{feff}\n"] {
            assert!(games(text).is_empty(), "{text:?}");
        }
        let two = games("\u{b}\n[Board \"Standard\"]\n\n1. e4\n");
        assert_eq!(two.len(), 1);
        assert_eq!(two[0].as_ref().unwrap().number, 1);
    }

    /// PGN's escape: a line with `%` in its first column is ignored, wherever it is (before the
    /// first game, between games, among headers or moves); a `%` elsewhere is no escape.
    #[test]
    fn percent_lines_are_ignored() {
        let text = "% made by a tool\n%\n[Board \"Standard\"]\n% among headers\n[Round \"1\"]\n\n\
                    1. e4 / e5\n% among moves\n2. Nf3 *\n\n% between games\n[Board \"Standard\"]\n[Round \"2\"]\n\n1. d4 *\n";
        let all = games(text);
        assert_eq!(all.len(), 2, "{all:#?}");
        let texts: Vec<&GameText> = all.iter().map(|g| g.as_ref().unwrap()).collect();
        assert_eq!((texts[0].number, texts[0].line), (1, 3));
        assert_eq!((texts[1].number, texts[1].line), (2, 12));
        let first = texts[0].load().unwrap();
        assert_eq!(first.header("Round"), Some("1"));
        assert_eq!(first.game().actions().len(), 3);
        assert_eq!(texts[1].load().unwrap().game().actions().len(), 1);
        // One game read whole, and a file of escapes alone, which holds no game.
        let one = chess5d_notation::load("%x\n[Board \"Standard\"]\n\n% y\n1. e4 *\n").unwrap();
        assert_eq!(one.game().actions().len(), 1);
        assert!(games("% nothing else\n\n%\n").is_empty());
        // After the byte-order mark a file may begin with.
        let marked = games("\u{feff}% a note\n[Board \"Standard\"]\n\n1. e4 *\n");
        assert_eq!(marked.len(), 1, "{marked:#?}");
        assert_eq!(marked[0].as_ref().unwrap().load().unwrap().game().actions().len(), 1);
        // Not in the first column, `%` is what it always was: an error that says where.
        let e = chess5d_notation::load("[Board \"Standard\"]\n\n1. e4 % e5\n").unwrap_err();
        assert!(e.to_string().contains("line 3, column 7"), "{e}");
    }

    #[test]
    fn three_games_one_broken() {
        let all = games(&read("multi/three-one-broken.5dpgn"));
        assert_eq!(all.len(), 3);
        let texts: Vec<&GameText> = all.iter().map(|g| g.as_ref().unwrap()).collect();
        assert_eq!(
            texts.iter().map(|t| (t.number, t.line)).collect::<Vec<_>>(),
            [(1, 1), (2, 12), (3, 20)]
        );
        let first = texts[0].load().unwrap();
        assert_eq!(first.game().outcome(), chess5d_rules::Outcome::Checkmate);
        let e = texts[1].load().unwrap_err();
        assert_eq!(
            e.to_string(),
            "action 3, 'Ke3' at line 17, column 4: no legal move matches: no white king can move to e3"
        );
        let third = texts[2].load().unwrap();
        assert_eq!(third.header("Round"), Some("3"));
        assert_eq!(third.game().actions().len(), 2);
    }

    #[test]
    fn match_runner_output_reads_back() {
        // Three runs of `chess5d match` appended to one file: 4, 2 and 1 games.
        let all = games(&read("multi/match.5dpgn"));
        assert_eq!(all.len(), 7);
        let rounds = ["1", "2", "3", "4", "1", "2", "1"];
        for g in all {
            let text = g.unwrap();
            let loaded = text.load().unwrap_or_else(|e| panic!("game {}: {e}", text.number));
            assert_eq!(loaded.header("Round"), Some(rounds[text.number - 1]));
            // The result token after the moves matches the header, and a checkmate is one.
            assert_eq!(
                loaded.result.as_deref(),
                loaded.header("Result"),
                "game {}",
                text.number
            );
            if loaded.header("Termination") == Some("checkmate") {
                assert_eq!(
                    loaded.game().outcome(),
                    chess5d_rules::Outcome::Checkmate,
                    "game {}",
                    text.number
                );
            }
            let max = loaded
                .header("Termination")
                .and_then(|t| t.strip_prefix("adjudicated: "));
            if let Some(n) = max.and_then(|m| m.strip_suffix(" actions")) {
                assert_eq!(loaded.game().actions().len().to_string(), n, "game {}", text.number);
            }
        }
    }

    #[test]
    fn games_split_at_headers_after_moves_or_repeated() {
        let all = games(&read("multi/edge-cases.5dpgn"));
        let texts: Vec<GameText> = all.into_iter().map(Result::unwrap).collect();
        assert_eq!(texts.iter().map(|t| t.line).collect::<Vec<_>>(), [1, 5, 9]);
        let position = texts[0].load().unwrap();
        assert_eq!(position.game().actions().len(), 0);
        assert_eq!(position.start().size().to_string(), "5x5");
        let second = texts[1].load().unwrap();
        assert_eq!(second.tree().children(GameTree::ROOT).len(), 2);
        assert_eq!(texts[2].load().unwrap().game().actions().len(), 1);
        // CRLF line ends, a byte order mark.
        let crlf: Vec<GameText> = games(&read("multi/crlf.5dpgn"))
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(crlf.len(), 2);
        assert_eq!(crlf[1].load().unwrap().header("Event"), Some("crlf 2"));
        let bom = games("\u{feff}[Event \"a\"]\n\n1. e4\n");
        assert_eq!(bom[0].as_ref().unwrap().load().unwrap().header("Event"), Some("a"));
        assert!(games("").is_empty());
        assert!(games("\n\n  \n").is_empty());
    }

    use chess5d_notation::GameTree;

    #[test]
    fn bad_bytes_and_huge_games_are_reported_and_skipped() {
        let mut bytes = b"[Event \"1\"]\n\n1. e4\n\n[Event \"2\"]\n\n1. \xff\n\n".to_vec();
        bytes.extend_from_slice(format!("[Event \"3\"]\n\n{{{}}} 1. d4\n\n", "x".repeat(5000)).as_bytes());
        bytes.extend_from_slice(b"[Event \"4\"]\n\n1. c4\n");
        let all: Vec<_> = Games::with_limit(&bytes[..], 1000).collect();
        assert_eq!(all.len(), 4);
        assert!(all[0].is_ok() && all[3].is_ok());
        let e = all[1].as_ref().unwrap_err();
        assert_eq!((e.number, e.line), (2, 5));
        assert!(e.to_string().contains("line 7 is not valid UTF-8"), "{e}");
        let e = all[2].as_ref().unwrap_err();
        assert!(
            e.to_string()
                .starts_with("game 3 (line 9): the game is longer than 1000 bytes"),
            "{e}"
        );
        assert_eq!(all[3].as_ref().unwrap().load().unwrap().header("Event"), Some("4"));
    }

    /// A stream of `count` generated games, made on demand, that counts the bytes handed out.
    struct Generated {
        count: usize,
        made: usize,
        chunk: Vec<u8>,
        at: usize,
        handed: usize,
    }

    impl Read for Generated {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.at == self.chunk.len() {
                if self.made == self.count {
                    return Ok(0);
                }
                self.made += 1;
                let mut game = format!(
                    "[Event \"generated\"]\n[Round \"{}\"]\n[Board \"Standard\"]\n\n",
                    self.made
                );
                for i in 0..60 {
                    game.push_str(&format!("{}. Nf3 / Nf6\n{}. Ng1 / Ng8\n", 2 * i + 1, 2 * i + 2));
                }
                game.push_str("*\n\n");
                self.chunk = game.into_bytes();
                self.at = 0;
            }
            let n = buf.len().min(self.chunk.len() - self.at);
            buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
            self.at += n;
            self.handed += n;
            Ok(n)
        }
    }

    #[test]
    fn a_large_stream_is_read_with_bounded_memory() {
        let count = 6_000;
        let source = Generated {
            count,
            made: 0,
            chunk: Vec::new(),
            at: 0,
            handed: 0,
        };
        let mut reader = Games::new(BufReader::with_capacity(8192, source));
        let mut n = 0;
        let mut most_held = 0;
        while let Some(g) = reader.next() {
            let g = g.unwrap();
            n += 1;
            assert_eq!(g.number, n);
            most_held = most_held.max(reader.held()).max(g.text.capacity());
            // Streaming: the source has handed out no more than this game, the start of the
            // next one and a buffer's worth.
            let handed = reader.get_ref().get_ref().handed;
            assert!(
                handed <= (n + 1) * 1_800 + 8192,
                "game {n}: {handed} bytes read already"
            );
            // Every tenth game is played through, to check the text is whole.
            if n % 500 == 0 {
                let loaded = g.load().unwrap();
                assert_eq!(loaded.game().actions().len(), 240);
                assert_eq!(loaded.header("Round"), Some(n.to_string().as_str()));
            }
        }
        assert_eq!(n, count);
        // One game is about 1.7 kB; the reader never holds more than a few.
        assert!(most_held < 16 * 1024, "held {most_held} bytes");
        // The whole stream (about 10 MB) went through.
        let handed = reader.get_ref().get_ref().handed;
        assert!(handed > 9_000_000, "{handed}");
    }
}

/// Turn numbers are checked, a move after the end says the game is over, and comments (the
/// match runner's `{eval/depth time}`) survive a round trip.
mod numbers_and_comments {
    use super::*;

    fn error_text(text: &str) -> String {
        match load(text) {
            Ok(g) => panic!("loaded, with {} actions: {text}", g.game().actions().len()),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_skipped_turn_number_is_refused() {
        let e = error_text("1. e4 / e5 3. Nf3 / Nc6");
        assert!(
            e.contains("the action is numbered 3, but it is white's action of turn 2"),
            "{e}"
        );
        assert!(e.contains("Nf3"), "{e}");
        let e = error_text("1. e4 / e5\n2. Nf3 / Nc6\n1. Bc4");
        assert!(e.contains("numbered 1, but it is white's action of turn 3"), "{e}");
        // In a variation too.
        let e = error_text("1. e4 / e5 (3. d4) 2. Nf3");
        assert!(
            e.contains("turn serial fits neither") || e.contains("numbered 3"),
            "{e}"
        );
        // Right numbers, and none at all, load.
        assert_eq!(load("1. e4 / e5 2. Nf3 / Nc6").unwrap().game().actions().len(), 4);
    }

    #[test]
    fn a_repeated_white_turn_number_is_a_warning() {
        // As in exports of the game after a jump that moves the present back.
        let g = load("1. e4 / e5\n2. Nf3 / Nc6\n2. Bc4 / Bc5\n3. d3").unwrap();
        assert_eq!(g.game().actions().len(), 7);
        assert!(
            g.warnings
                .iter()
                .any(|w| w.message.contains("turn 2 is numbered twice")),
            "{:?}",
            g.warnings
        );
    }

    #[test]
    fn a_move_after_mate_says_the_game_is_over() {
        let e = error_text("1. e4 / e5 2. Qh5 / Nc6 3. Bc4 / Nf6 4. Qxf7# 5. Nf3");
        assert!(
            e.contains("the game is over (checkmate): black is mated, white has won"),
            "{e}"
        );
        let e = error_text("1. e4 / e5 2. Qh5 / Nc6 3. Bc4 / Nf6 4. Qxf7# / Ke7");
        assert!(e.contains("the game is over (checkmate)"), "{e}");
        // A move that fails in a live game still says why.
        let e = error_text("1. e4 / e5 2. Nf6");
        assert!(!e.contains("game is over"), "{e}");
    }

    #[test]
    fn comments_survive_a_round_trip() {
        let text = "[Board \"Standard\"]\n\n1. (0T1)e2(0T1)e4 {+0.30/5 1.20s} / (0T1)e7(0T1)e5 {-0.10/4 0.90s}\n2. (0T2)g1(0T2)f3 {book}\n*\n";
        let g = load(text).unwrap();
        let out = write_5dpgn(&g);
        for c in ["{+0.30/5 1.20s}", "{-0.10/4 0.90s}", "{book}"] {
            assert!(out.contains(c), "{c} lost:\n{out}");
        }
        let again = write_5dpgn(&load(&out).unwrap());
        assert_eq!(again, out);
        // After the move they follow.
        assert!(out.contains("e4 {+0.30/5 1.20s} /"), "{out}");
    }
}

/// Positions where a side has no royal piece (rules crate, "Positions without a royal piece"):
/// they load, the brawn is read as 5d-chess-js 1.2.1 writes it (`W`, and `BR`, which it also
/// reads), and the marks are written as the rules decide: `#` for a mate given by a side without
/// a king, nothing for a stalemate, never `+` against a side without a royal piece.
mod royalless {
    use super::*;

    /// (start, movetext as read, the main line as written: a brawn's capture, like a pawn's,
    /// is written with its file, `Wcxb2`, where 5d-chess-js 1.2.1 writes `Wxb2`).
    const CASES: &[(&str, &str, &str)] = &[
        // 5d-chess-js 1.2.1's own export of a 4x4 brawns game, and the same with `BR`.
        (
            "[Board \"Custom\"]\n[Mode \"5D\"]\n[Size \"4x4\"]\n[w*w*w*w*/4/4/W*W*W*W*:0:1:w]\n",
            "1. Wa3 / Wb2\n2. Wxb2",
            "1. Wa3 / Wb2\n2. Wcxb2",
        ),
        (
            "[Board \"Custom\"]\n[Mode \"5D\"]\n[Size \"4x4\"]\n[w*w*w*w*/4/4/W*W*W*W*:0:1:w]\n",
            "1. BRa3 / BRb2\n2. BRxb2",
            "1. Wa3 / Wb2\n2. Wcxb2",
        ),
        // A brawn's step along L toward Black's side, as 5d-chess-js 1.2.1 lists it.
        (
            "[Board \"Custom\"]\n[Mode \"5D\"]\n[Size \"4x4\"]\n[4/4/4/W*3:0:1:w]\n[4/4/4/4:-1:1:w]\n",
            "1. (0T1)Wa1>(-1T1)a1",
            "1. (0T1)Wa1>(-1T1)a1",
        ),
        // Two rooks, no white king: Rg8 mates.
        (
            "[Board \"Custom\"]\n[Size \"8x8\"]\n[k7/7R/8/8/8/8/8/6R1:0:1:w]\n",
            "1. Rg8",
            "1. Rg8#",
        ),
        // A lone knight: Black, with no piece, is stalemated; no mark.
        (
            "[Board \"Custom\"]\n[Size \"5x5\"]\n[5/5/2N2/5/5:0:1:w]\n",
            "1. Nb1",
            "1. Nb1",
        ),
        // Black's queen takes aim at White's rook (White has no king): no check. Then White's
        // rook checks Black's king.
        (
            "[Board \"Custom\"]\n[Size \"4x4\"]\n[3k/4/1q2/R3:0:1:b]\n",
            "1b. Qb1 / Ra4",
            "1b. Qb1\n2. Ra4+",
        ),
    ];

    #[test]
    fn games_without_a_royal_piece_read_and_write() {
        for (start, movetext, written) in CASES {
            let g = load(&format!("{start}\n{movetext}\n")).unwrap_or_else(|e| panic!("{movetext}: {e}"));
            let out = write_5dpgn(&g);
            assert!(out.contains(written), "{movetext}: {out:?}");
            assert_round_trips(movetext, &g);
        }
    }

    /// 5DFEN boards with brawns and no king, as 5d-chess-js 1.2.1 writes them, read back.
    #[test]
    fn brawn_boards_without_a_king_read_from_5dfen() {
        let g = load("[Board \"Custom\"]\n[Size \"4x4\"]\n[w*w*w*w*/4/4/W*W*W*W*:0:1:w]\n").unwrap();
        let pos = g.game().position();
        assert_eq!(
            chess5d_notation::write_5dfen(pos).trim_end(),
            "[Board \"custom\"]\n[Size \"4x4\"]\n[w*w*w*w*/4/4/W*W*W*W*:0:1:w]"
        );
    }
}
