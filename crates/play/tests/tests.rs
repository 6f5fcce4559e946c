//! chess5d-play: the game's JSON view, moves, actions, results, clocks and the puzzle proof,
//! without I/O (the server's API tests cover the same through HTTP).

use chess5d_notation::{Format, LoadedGame};
use chess5d_play::seats::Viewer;
use chess5d_play::{proof, Clock, ErrorKind, Play, PlayError, Player};

/// The view of a player holding both sides, as a JSON value.
fn view(p: &Play, at: Option<usize>, id: i64) -> serde_json::Value {
    serde_json::from_str(&p.view_text(Viewer::Seat([true, true]), at.into(), id)).expect("JSON")
}
use chess5d_rules::{Color, VARIANTS};

fn standard(players: [Player; 2], clock: Option<Clock>) -> Play {
    let v = VARIANTS.iter().find(|v| v.name == "Standard").expect("Standard");
    Play::new(
        LoadedGame::new(Format::Pgn, v.position()),
        players,
        clock,
        None,
        "2026-01-02 03:04:05".into(),
    )
}

fn human() -> Player {
    Player::Human { name: None }
}

#[test]
fn a_move_and_submit_change_the_view() {
    let mut p = standard([human(), human()], None);
    let v = view(&p, None, 7);
    assert_eq!(v["id"], 7);
    assert_eq!(v["variant"], "Standard");
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["boards"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["can_submit"], false);
    let t = v["boards"][0]["t"].as_i64().expect("t") as i32;
    let moves = p.moves_from(0, t, "e2").expect("moves");
    assert_eq!(moves["moves"].as_array().map(Vec::len), Some(2), "{moves}");
    p.play("(0T1)e2(0T1)e4").expect("e4");
    assert_eq!(view(&p, None, 7)["can_submit"], true);
    p.submit().expect("submit");
    let v = view(&p, None, 7);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["action_count"], 1);
    assert_eq!(v["actions"][0]["text"], "e4");
    assert!(p.pgn().contains("1. e4"), "{}", p.pgn());
    // Review of the start position.
    assert_eq!(view(&p, Some(0), 7)["boards"].as_array().map(Vec::len), Some(1));
}

#[test]
fn bad_requests_say_what_is_wrong() {
    let mut p = standard(
        [
            human(),
            Player::Engine {
                engine: None,
                bot: None,
                movetime_ms: None,
            },
        ],
        None,
    );
    assert!(
        matches!(p.play("(0T1)e2(0T1)e5"), Err(e @ PlayError::IllegalMove { .. }) if e.to_string().contains("illegal move"))
    );
    assert!(
        matches!(p.moves_from(0, 0, "z9"), Err(e @ PlayError::BadSquare { .. }) if e.to_string().contains("not a square"))
    );
    assert!(matches!(p.undo(), Err(e) if e.kind() == ErrorKind::Conflict));
    p.play("(0T1)e2(0T1)e4").expect("e4");
    p.submit().expect("submit");
    assert!(p.engine_to_move());
    assert!(matches!(p.play("(0T1)e7(0T1)e5"), Err(PlayError::EngineTurn)));
    p.resign(Some(Color::White)).expect("resign");
    assert_eq!(p.result.as_deref(), Some("0-1"));
    assert!(matches!(p.resign(None), Err(e) if e.kind() == ErrorKind::Conflict));
}

#[test]
fn the_clock_adds_the_increment_to_the_mover() {
    let mut p = standard([human(), human()], Some(Clock::new(60_000, 2_000)));
    p.play("(0T1)e2(0T1)e4").expect("e4");
    p.submit().expect("submit");
    let v = view(&p, None, 1);
    let white = v["clock"]["white_ms"].as_i64().expect("white_ms");
    assert!(white > 60_000 && white <= 62_000, "{white}");
    assert_eq!(v["clock"]["running"], true);
}

#[test]
fn a_mate_in_one_is_proven_and_a_false_goal_refused() {
    let text = "[Board \"custom\"]\n[Size \"5x5\"]\n[Promotions \"Q,R,B,N\"]\n[4k*/5/4K*/5/R*4:0:1:w]\n";
    let pos = chess5d_notation::load(text)
        .expect("position")
        .game()
        .position()
        .clone();
    let pgn = proof::prove(&pos, 1, "Corner", 200_000).expect("mate in 1");
    assert!(
        pgn.contains("[Goal \"White mates in 1\"]") && pgn.contains("(1. Ra5)"),
        "{pgn}"
    );
    // White's king far away (without it, the same: see below).
    let lone = "[Board \"custom\"]\n[Size \"5x5\"]\n[Promotions \"Q,R,B,N\"]\n[4k*/5/5/5/R*1K*2:0:1:w]\n";
    let pos = chess5d_notation::load(lone)
        .expect("position")
        .game()
        .position()
        .clone();
    let e = proof::prove(&pos, 1, "No", 200_000).expect_err("no mate");
    assert!(e.to_string().contains("has no forced mate in 1"), "{e}");
    assert!(proof::prove(&pos, 4, "Too long", 200_000).is_err());
    // A side without a royal piece is accepted (rules crate, "Positions without a royal
    // piece"): the rook alone has no mate in 1, two rooks without a king do.
    let no_king = "[Board \"custom\"]\n[Size \"5x5\"]\n[4k*/5/5/5/R*4:0:1:w]\n";
    let pos = chess5d_notation::load(no_king)
        .expect("position")
        .game()
        .position()
        .clone();
    let e = proof::prove(&pos, 1, "No", 200_000).expect_err("no mate");
    assert!(e.to_string().contains("has no forced mate in 1"), "{e}");
    let two_rooks = "[Board \"custom\"]\n[Size \"8x8\"]\n[k7/7R/8/8/8/8/8/6R1:0:1:w]\n";
    let pos = chess5d_notation::load(two_rooks)
        .expect("position")
        .game()
        .position()
        .clone();
    let pgn = proof::prove(&pos, 1, "Two rooks", 200_000).expect("mate in 1");
    assert!(pgn.contains("(1. Rg8"), "{pgn}");
}

/// The analysis board's export, over every action of several multi-timeline games: open a board
/// after action `at`, try an action (and the answer to it), export, read the text back; the
/// variation reaches the board's position and the game's own line is unchanged.
mod analysis_export {
    use chess5d_notation::{load, GameTree};
    use chess5d_play::export_variation;
    use chess5d_rules::{Budget, Game, Move};

    fn games() -> Vec<(String, String)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/multiverse");
        let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
            .expect("data dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x != "md"))
            .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).expect("read")))
            .collect();
        out.sort();
        out
    }

    /// A legal action of `game`'s side to move other than `avoid` if there is one.
    fn some_action(game: &Game, avoid: Option<&[Move]>) -> Option<Vec<Move>> {
        let mut first = None;
        for a in game.position().legal_actions(Budget::DEFAULT).take(8) {
            if Some(a.as_slice()) != avoid {
                return Some(a);
            }
            first.get_or_insert(a);
        }
        first
    }

    #[test]
    fn variations_read_back_at_every_action() {
        let mut tried = 0;
        let mut black = 0;
        for (path, text) in games() {
            let full = load(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert!(
                full.game().position().timeline_count() > 1,
                "{path}: a multi-timeline game"
            );
            let game_pgn = chess5d_notation::write_5dpgn(&full);
            let actions = full.game().actions().to_vec();
            for at in 0..=actions.len() {
                let mut board = Game::new(full.game().start().clone());
                for a in &actions[..at] {
                    board.play_action(&a.moves).expect("replay");
                }
                let next = actions.get(at).map(|a| a.moves.as_slice());
                let Some(first) = some_action(&board, next) else {
                    continue;
                };
                if board.to_move() == chess5d_rules::Color::Black {
                    black += 1;
                }
                board.play_action(&first).expect("tried action");
                if let Some(answer) = some_action(&board, None) {
                    board.play_action(&answer).expect("answer");
                }
                let text = export_variation(&game_pgn, at, &board).unwrap_or_else(|e| panic!("{path} at {at}: {e}"));
                let back = load(&text)
                    .unwrap_or_else(|e| panic!("{path} at {at}: the export does not read back: {e}\n{text}"));
                // The game's line is the main line, whole.
                let main: Vec<_> = back
                    .tree()
                    .main_line()
                    .iter()
                    .map(|&n| back.tree().action(n).moves.clone())
                    .collect();
                let expected: Vec<_> = actions.iter().map(|a| a.moves.clone()).collect();
                assert_eq!(main, expected, "{path} at {at}: the main line changed\n{text}");
                // The tried actions are a line from the branch point.
                let mut node = if at == 0 {
                    GameTree::ROOT
                } else {
                    back.tree().main_line()[at - 1]
                };
                for (i, a) in board.actions()[at..].iter().enumerate() {
                    node = *back
                        .tree()
                        .children(node)
                        .iter()
                        .find(|&&c| back.tree().action(c).moves == a.moves)
                        .unwrap_or_else(|| {
                            panic!("{path} at {at}: tried action {} is not in the export\n{text}", i + 1)
                        });
                }
                assert_eq!(
                    back.tree().game_at(node).position().hash(),
                    board.position().hash(),
                    "{path} at {at}: the variation reaches another position"
                );
                tried += 1;
            }
        }
        assert!(
            tried > 60 && black > 25,
            "tried at {tried} positions, {black} with Black to move"
        );
    }
}

/// The view written from the caches kept while a game is played (texts written an action at a
/// time, the pieces of each board written once) is the view of the same game loaded whole.
mod cached_view {
    use super::*;
    use chess5d_notation::load;
    use serde_json::Value;

    fn fresh(start: &chess5d_rules::Position, game: &chess5d_rules::Game) -> Play {
        let mut loaded = LoadedGame::new(Format::Pgn, start.clone());
        loaded.set_game(game.clone());
        Play::new(loaded, [human(), human()], None, None, "2026-01-02 03:04:05".into())
    }

    fn without_version(mut v: Value) -> Value {
        v["version"] = Value::Null;
        v
    }

    #[test]
    fn is_the_view_of_the_game_loaded_whole() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/multiverse");
        let mut steps = 0;
        let mut retried = 0;
        for entry in std::fs::read_dir(dir).expect("data dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|x| x == "md") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read");
            let full = load(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let start = full.game().start().clone();
            let mut played = fresh(&start, &chess5d_rules::Game::new(start.clone()));
            let mut game = chess5d_rules::Game::new(start.clone());
            for (i, a) in full.game().actions().iter().enumerate() {
                let even = game.position().even();
                let texts: Vec<String> = a
                    .moves
                    .iter()
                    .map(|m| chess5d_notation::long::write_move(m, even))
                    .collect();
                // Another move from the same board played and taken back first: the board the
                // real move makes (at the same place) is written anew, not taken from the cache.
                let other = game
                    .position()
                    .legal_actions(chess5d_rules::Budget::DEFAULT)
                    .take(16)
                    .map(|o| o[0])
                    .find(|m| m.from.board == a.moves[0].from.board && *m != a.moves[0]);
                if let Some(m) = other {
                    played
                        .play(&chess5d_notation::long::write_move(&m, even))
                        .expect("other move");
                    let _ = played.view_text(Viewer::Seat([true, true]), chess5d_play::Shown::Live, 1);
                    played.undo().expect("undo");
                    retried += 1;
                }
                for t in &texts {
                    played
                        .play(t)
                        .unwrap_or_else(|e| panic!("{}: action {i}: {t}: {e}", path.display()));
                    let _ = played.view_text(Viewer::Seat([true, true]), chess5d_play::Shown::Live, 1);
                }
                played
                    .submit()
                    .unwrap_or_else(|e| panic!("{}: action {i}: {e}", path.display()));
                game.play_action(&a.moves).expect("replay");
                let whole = fresh(&start, &game);
                let at = [None, Some(i / 2)];
                for at in at {
                    let v: Value = serde_json::from_str(&played.view_text(Viewer::Seat([true, true]), at.into(), 1))
                        .expect("JSON");
                    assert_eq!(
                        without_version(v),
                        without_version(view(&whole, at, 1)),
                        "{}: after action {i}, at {at:?}",
                        path.display()
                    );
                }
                assert_eq!(played.pgn(), whole.pgn());
                steps += 1;
            }
        }
        assert!(
            steps > 100 && retried > 50,
            "{steps} actions, {retried} with another move tried first"
        );
    }
}

/// The analysis board's best lines (MultiPV): kept per rank, one line per first action, White's
/// view, numbered text; a bad count of lines is refused.
mod analysis_lines {
    use chess5d_engine::Score;
    use chess5d_play::{analysis_multipv, AnalysisLines, PlayError};
    use chess5d_rules::{Move, Position, VARIANTS};
    use serde_json::json;

    fn start() -> Position {
        VARIANTS
            .iter()
            .find(|v| v.name == "Standard")
            .expect("Standard")
            .position()
    }

    /// A one-action line of a single move, in long form (`(0T1)e2(0T1)e4`).
    fn line(pos: &Position, m: &str) -> Vec<Vec<Move>> {
        let g = chess5d_notation::long::read_game(&format!("{m}\n"), Some(pos.clone())).expect("a legal move");
        vec![g.game().actions()[0].moves.clone()]
    }

    fn firsts(l: &AnalysisLines) -> Vec<(u32, String)> {
        l.lines()
            .iter()
            .map(|x| (x.rank, x.pv[0]["text"].as_str().unwrap().to_string()))
            .collect()
    }

    #[test]
    fn lines_are_kept_per_rank_and_a_displaced_best_takes_the_new_best_place() {
        let pos = start();
        let (e4, d4, nf3, c4) = (
            line(&pos, "(0T1)e2(0T1)e4"),
            line(&pos, "(0T1)d2(0T1)d4"),
            line(&pos, "(0T1)g1(0T1)f3"),
            line(&pos, "(0T1)c2(0T1)c4"),
        );
        let game = chess5d_rules::Game::new(pos.clone());
        let mut l = AnalysisLines::default();
        l.update(&game, Some(1), 3, Score::Cp(30), &e4);
        l.update(&game, Some(2), 3, Score::Cp(20), &d4);
        l.update(&game, Some(3), 3, Score::Cp(10), &nf3);
        let want = |v: &[(u32, &str)]| v.iter().map(|(r, t)| (*r, t.to_string())).collect::<Vec<_>>();
        assert_eq!(firsts(&l), want(&[(1, "e4"), (2, "d4"), (3, "Nf3")]));
        // A cut depth: its new best was the third line; the old best takes the third place.
        l.update(&game, Some(1), 4, Score::Cp(35), &nf3);
        assert_eq!(firsts(&l), want(&[(1, "Nf3"), (2, "d4"), (3, "e4")]));
        // A new action enters: the line of its rank goes.
        l.update(&game, Some(2), 4, Score::Cp(25), &c4);
        assert_eq!(firsts(&l), want(&[(1, "Nf3"), (2, "c4"), (3, "e4")]));
        let v = l.json();
        assert_eq!(v[0]["rank"], 1);
        assert_eq!(v[0]["depth"], 4);
        assert_eq!(v[0]["eval"], "35");
        assert_eq!(v[0]["score"], json!({ "cp": 35 }));
        assert_eq!(v[0]["text"], "1. Nf3");
        // A report without a line changes nothing.
        l.update(&game, Some(3), 5, Score::Cp(0), &[]);
        assert_eq!(l.lines().len(), 3);
        // Black to move: scores are turned to White's view and the text starts with "1b.".
        let mut black = game.clone();
        black.make_move(&e4[0][0]).unwrap();
        black.submit().unwrap();
        let mut b = AnalysisLines::default();
        b.update(
            &black,
            None,
            2,
            Score::Mate(3),
            &line(black.position(), "(0T1)e7(0T1)e5"),
        );
        assert_eq!(b.json()[0]["score"], json!({ "mate": -3 }));
        assert_eq!(b.json()[0]["eval"], "mate -3");
        assert_eq!(b.json()[0]["text"], "1b. e5");
    }

    #[test]
    fn the_count_of_lines_is_checked() {
        assert_eq!(analysis_multipv(None), Ok(3));
        assert_eq!(analysis_multipv(Some(&json!(null))), Ok(3));
        assert_eq!(analysis_multipv(Some(&json!(1))), Ok(1));
        assert_eq!(analysis_multipv(Some(&json!(8))), Ok(8));
        for bad in [json!(0), json!(9), json!(-1), json!(1.5), json!("3"), json!([3])] {
            let Err(e @ PlayError::BadField { .. }) = analysis_multipv(Some(&bad)) else {
                panic!("{bad} accepted")
            };
            assert_eq!(
                e.to_string(),
                format!("'multipv' must be a whole number from 1 to 8, got {bad}")
            );
        }
    }
}

#[test]
fn each_error_kind_has_its_http_status() {
    let table = [
        (ErrorKind::Invalid, "invalid", 400),
        (ErrorKind::Forbidden, "forbidden", 403),
        (ErrorKind::NotFound, "not_found", 404),
        (ErrorKind::Conflict, "conflict", 409),
        (ErrorKind::TooLarge, "too_large", 413),
        (ErrorKind::Internal, "internal", 500),
    ];
    for (kind, name, status) in table {
        assert_eq!((kind.name(), kind.http_status()), (name, status));
    }
}

#[test]
fn a_query_is_read_once_for_both_doors() {
    use chess5d_play::request::{Query, SquareQuery};
    let q = Query::parse("l=-1&t=3&square=e%32&token=a+b");
    assert_eq!(
        q.square().unwrap(),
        SquareQuery {
            l: -1,
            t: 3,
            square: "e2".into()
        }
    );
    assert_eq!(q.token(), Some("a b"));
    assert_eq!(q.at().unwrap(), None);
    assert_eq!(Query::parse("at=4").at().unwrap(), Some(4));
    let bad = Query::parse("at=-4").at().unwrap_err();
    assert_eq!((bad.kind(), bad.code()), (ErrorKind::Invalid, "bad_query"));
    assert_eq!(
        bad.to_string(),
        "query parameter 'at' must be an action count, got '-4'"
    );
    let missing = Query::parse("l=0&t=1").square().unwrap_err();
    assert_eq!(missing.to_string(), "missing query parameter 'square'");
    let not_int = Query::parse("l=0&t=x&square=e2").square().unwrap_err();
    assert_eq!(not_int.to_string(), "query parameter 't' must be an integer, got 'x'");
}

/// Analysis lines are numbered as the notation panel numbers the game's actions (5DPGN's turn
/// numbers, counted from the game's start), not from the present, which time travel moves back.
#[test]
fn analysis_lines_continue_the_games_numbering() {
    let text = "[Board \"Standard\"]\n\n1. e4 / a5\n2. Nf3 / b5\n3. (0T3)Nf3>>(0T1)f4~ / (1T1)a5\n\
                4. (1T2)e4 / (1T2)b5\n5. (1T3)Nf4>>(0T3)f6 / (1T3)c5 (0T3)c5\n";
    let game = chess5d_notation::load(text).expect("game").into_game();
    let pos = game.position();
    assert!(pos.present_turn() < 5, "the present moved back");
    let mut engine = chess5d_engine::Engine::default();
    let r = engine.search(pos, &chess5d_engine::Limits::depth(2), &mut |_| {});
    let mut lines = chess5d_play::AnalysisLines::default();
    lines.update(&game, None, r.depth, r.score, &r.pv);
    let text = &lines.best().expect("a line").text;
    assert!(text.starts_with("6. "), "{text}");
    if r.pv.len() > 1 {
        assert!(text.contains(" / "), "{text}");
    }
}

/// An imported record that ends without a decisive position keeps its result and says how it
/// ended as the record says (a backup restored shows a resignation as a resignation).
#[test]
fn an_imported_result_keeps_the_records_termination() {
    use chess5d_play::request::{parse, CreateReq};
    let make = |pgn: &str| {
        let body = serde_json::json!({ "import": pgn }).to_string();
        let req: CreateReq = parse(&body).unwrap();
        req.check(&[], "2026-11-27 00:00:00".into()).unwrap().play
    };
    let resigned = make("[Board \"Standard\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. e4 / e5\n0-1\n");
    assert_eq!(
        (resigned.result.as_deref(), resigned.termination.as_deref()),
        (Some("0-1"), Some("resignation"))
    );
    let bare = make("[Board \"Standard\"]\n[Result \"1/2-1/2\"]\n\n1. e4 / e5\n1/2-1/2\n");
    assert_eq!(bare.termination.as_deref(), Some("imported result"));
    let odd = make("[Board \"Standard\"]\n[Result \"1-0\"]\n[Termination \"a\u{202e}b\"]\n\n1. e4\n1-0\n");
    assert_eq!(odd.termination.as_deref(), Some("imported result"));
}

mod variations;

/// A clock that waits for the first actions (an invite, a pairing) runs once each side has
/// played one; the first actions cost no time and earn no increment.
#[test]
fn a_clock_can_wait_for_each_sides_first_action() {
    let mut p = standard([human(), human()], Some(Clock::new(60_000, 2_000)));
    p.free_first_moves();
    assert_eq!(view(&p, None, 1)["clock"]["running"], false);
    std::thread::sleep(std::time::Duration::from_millis(30));
    p.play("(0T1)e2(0T1)e4").expect("e4");
    p.submit().expect("submit");
    let v = view(&p, None, 1);
    assert_eq!(
        (v["clock"]["white_ms"].as_i64(), v["clock"]["running"].as_bool()),
        (Some(60_000), Some(false))
    );
    std::thread::sleep(std::time::Duration::from_millis(30));
    p.play("(0T1)e7(0T1)e5").expect("e5");
    p.submit().expect("submit");
    let v = view(&p, None, 1);
    assert_eq!(
        (v["clock"]["black_ms"].as_i64(), v["clock"]["running"].as_bool()),
        (Some(60_000), Some(true))
    );
    std::thread::sleep(std::time::Duration::from_millis(30));
    let white = view(&p, None, 1)["clock"]["white_ms"].as_i64().expect("white_ms");
    assert!(white < 60_000, "{white}");
}

/// The course: every demonstration plays through the rules, every exercise's solution reaches
/// its goal (judged by the one judge the game service uses) and its wrong action does not, both
/// on the rules alone and through the service's exercise game.
mod lessons {
    use chess5d_play::lesson::{self, course, exercise_game, play_action, try_action, Goal};

    #[test]
    fn the_course_has_twenty_lessons_in_order() {
        let c = course().unwrap();
        assert!(c.len() >= 20, "{} lessons", c.len());
        let ids: Vec<&str> = c.iter().map(|l| l.id.as_str()).collect();
        let pos = |id: &str| {
            ids.iter()
                .position(|i| *i == id)
                .unwrap_or_else(|| panic!("no lesson {id}"))
        };
        // The order: boards, submitting, the pieces, timelines, the present, check, mate.
        let order = [
            "boards", "submit", "rook", "bishop", "unicorn", "dragon", "queen", "king", "knight", "pawn",
        ];
        assert!(order.windows(2).all(|w| pos(w[0]) < pos(w[1])), "{ids:?}");
        assert!(pos("timelines") < pos("present") && pos("present") < pos("check") && pos("check") < pos("mate"));
        for l in c {
            assert!(
                !l.text.is_empty() && !l.exercises.is_empty(),
                "lesson {} is empty",
                l.id
            );
            assert_eq!(
                l.demo.actions.len(),
                l.demo.captions.len(),
                "lesson {}: a caption per action",
                l.id
            );
        }
    }

    #[test]
    fn every_demonstration_plays_and_shows_its_goal() {
        let mut errors = Vec::new();
        for l in course().unwrap() {
            let mut game = lesson::load(&l.demo.start).unwrap().into_game();
            let n = l.demo.actions.len();
            for (i, a) in l.demo.actions.iter().enumerate() {
                let before = game.position().clone();
                match play_action(&mut game, a) {
                    Err(e) => errors.push(format!("{} demo: {e}", l.id)),
                    Ok(moves) => match game.submit() {
                        Err(e) => errors.push(format!("{} demo: '{a}' cannot be submitted: {e}", l.id)),
                        Ok(()) => {
                            if let (Some(g), true) = (&l.demo.goal, i + 1 == n) {
                                if !g.met(&before, &moves, &game) {
                                    errors.push(format!("{} demo: its last action misses {g:?}", l.id));
                                }
                            }
                        }
                    },
                }
            }
        }
        assert!(errors.is_empty(), "{}", errors.join("\n"));
    }

    #[test]
    fn every_exercise_is_solved_by_its_solution_and_not_by_a_wrong_action() {
        let mut errors = Vec::new();
        for l in course().unwrap() {
            for (i, e) in l.exercises.iter().enumerate() {
                let at = format!("{} exercise {}", l.id, i + 1);
                let game = match lesson::load(&e.start) {
                    Ok(g) => g.into_game(),
                    Err(err) => {
                        errors.push(format!("{at}: {err}"));
                        continue;
                    }
                };
                match try_action(&game, &e.solution, &e.goal) {
                    Ok(true) => {}
                    Ok(false) => errors.push(format!("{at}: the solution '{}' misses {:?}", e.solution, e.goal)),
                    Err(err) => errors.push(format!("{at}: solution {err}")),
                }
                match try_action(&game, &e.wrong, &e.goal) {
                    Ok(false) => {}
                    Ok(true) => errors.push(format!("{at}: the wrong action '{}' reaches {:?}", e.wrong, e.goal)),
                    Err(err) => errors.push(format!("{at}: wrong {err}")),
                }
                // Through the game service, as the page plays it: solved, or failed.
                for (action, status) in [(&e.solution, "solved"), (&e.wrong, "failed")] {
                    let mut play = exercise_game(&l.id, &(i + 1).to_string(), "2026-01-01 00:00:00".into()).unwrap();
                    for m in action.split_whitespace() {
                        if let Err(err) = play.play(m) {
                            errors.push(format!("{at}: the service refused {m}: {err}"));
                        }
                    }
                    if let Err(err) = play.submit() {
                        errors.push(format!("{at}: the service refused to submit '{action}': {err}"));
                    }
                    let got = play.puzzle.as_ref().map(|p| p.status.clone()).unwrap_or_default();
                    if got != status || play.result.is_none() {
                        errors.push(format!("{at}: '{action}' left the exercise {got}, not {status}"));
                    }
                }
            }
        }
        assert!(errors.is_empty(), "{}", errors.join("\n"));
    }

    #[test]
    fn an_unknown_lesson_or_exercise_is_not_found() {
        let e = exercise_game("nope", "1", "2026-01-01 00:00:00".into()).unwrap_err();
        assert_eq!(e.code(), "no_lesson");
        let e = exercise_game("rook", "99", "2026-01-01 00:00:00".into()).unwrap_err();
        assert!(e.to_string().contains("exercises 1 to"), "{e}");
        // The page gets no solutions.
        let text = lesson::course_json().unwrap().to_string();
        assert!(!text.contains("solution") && !text.contains("\"wrong\""));
        let _ = Goal::Check;
    }
}

/// The computer's seat names the home page's level it plays at (issue 48), not its bot alone.
#[test]
fn an_engine_seat_names_its_level() {
    let engine = |bot: &str, ms: u64| Player::Engine {
        engine: Some("chess5d".into()),
        bot: Some(bot.into()),
        movetime_ms: Some(ms),
    };
    assert_eq!(engine("random", 200).display(), "chess5d, level 1");
    assert_eq!(engine("greedy", 300).display(), "chess5d, level 2");
    assert_eq!(engine("alphabeta", 500).display(), "chess5d, level 3");
    assert_eq!(engine("alphabeta", 2000).display(), "chess5d, level 4");
    assert_eq!(engine("alphabeta", 5000).display(), "chess5d, level 5");
    assert_eq!(
        engine("alphabeta", 1000).display(),
        "chess5d (alphabeta, 1 s an action)"
    );
    assert_eq!(engine("alphabeta", 1000).level(), None);
    assert_eq!(human().level(), None);
}

/// Scholar's mate: Black's 3... Nf6?? lets 4. Qxf7#.
const SCHOLAR: &str = "[Board \"Standard\"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n";

/// The review of `p` as a door answers it (`GET /api/games/:id/review`), with the service's
/// options and `nodes` nodes a position.
fn reviewed(p: &Play, id: i64, nodes: u64) -> serde_json::Value {
    use chess5d_play::review::{options, ActionWriter, ReviewRun};
    let mut reviewer = chess5d_engine::review::Reviewer::new(options(nodes, 16, 1));
    let mut writer = ActionWriter::new(&p.game);
    let mut run = ReviewRun::start(p.game.actions().len(), nodes);
    let review = reviewer.review_game(&p.game, p.result.clone(), &mut |pr| {
        let action = pr.action.map(|a| writer.json(a));
        run.progress(pr.searched, pr.positions, action);
    });
    run.finish(review.json(), None);
    run.json(id)
}

/// The puzzle game of the mistake at action `index` of game 1 (`p`), an answer (long form)
/// played by its solver and submitted: the puzzle as the view shows it after.
fn answer(p: &Play, review: &serde_json::Value, index: &str, action: &str) -> serde_json::Value {
    use chess5d_play::mistakes;
    let mut g = mistakes::puzzle_game(p, 1, Some(review), index, 60_000, "2026-01-02 03:04:05".into()).unwrap();
    let v = view(&g, None, 2);
    assert_eq!(
        (v["puzzle"]["status"].as_str(), v["to_move"].as_str()),
        (Some("playing"), Some("black"))
    );
    // The engine's best is not shown to the solver before the answer.
    assert!(
        v["puzzle"]["better"]["best"].is_null() && v["puzzle"]["better"]["best_text"].is_null(),
        "{}",
        v["puzzle"]
    );
    assert_eq!(v["puzzle"]["better"]["played_text"], "Nf6");
    assert_eq!(v["action_count"], 5);
    g.play(action).unwrap_or_else(|e| panic!("{action}: {e}"));
    g.submit().unwrap();
    // Stored and restored, the puzzle keeps its verdict.
    let back = Play::restore(&g.record(2, "2026-01-02 03:04:06".into())).unwrap();
    assert_eq!(view(&back, None, 2)["puzzle"], view(&g, None, 2)["puzzle"]);
    view(&g, None, 2)["puzzle"].clone()
}

/// The judge's search made beforehand (the static site runs it in a worker, off the page's
/// thread): the task names the position after the answer; the figure given for it is used
/// instead of searching again, and one given for another answer is not.
#[test]
fn a_mistakes_answer_is_judged_with_the_search_made_beforehand() {
    use chess5d_play::mistakes;
    let loaded = chess5d_notation::load(SCHOLAR).unwrap();
    let human = || Player::Human { name: None };
    let p = Play::new(loaded, [human(), human()], None, None, "2026-01-02 03:04:05".into());
    let review = reviewed(&p, 1, 60_000);
    let mut g = mistakes::puzzle_game(&p, 1, Some(&review), "5", 60_000, "2026-01-02 03:04:05".into()).unwrap();
    assert!(g.judges_submit());
    assert_eq!(g.judge_task(), None, "nothing to submit yet");
    g.play("(0T3)a7(0T3)a6").unwrap();
    let task = g.judge_task().expect("a task once the answer can be submitted");
    assert_eq!(task["nodes"], 60_000);
    // The worker's search, as the wasm door runs it: the figure the judge would find itself.
    let start = chess5d_notation::load(task["start"].as_str().unwrap())
        .unwrap()
        .start()
        .clone();
    let after = chess5d_notation::long::read_game(task["actions"].as_str().unwrap(), Some(start)).unwrap();
    let pos = after.game().position();
    let win = mistakes::answer_win(pos.to_move().other(), pos, 60_000);
    assert!(win < 20.0, "a6 lets Qxf7#: {win}");
    // A figure given for this answer is what the verdict shows (here a made-up 77.5: used as
    // given, so no second search ran).
    g.judge_given(77.5);
    g.submit().unwrap();
    let v = view(&g, None, 2);
    assert_eq!(v["puzzle"]["better"]["answer"]["win"], 77.5, "{}", v["puzzle"]);
    assert!(!g.judges_submit(), "judged once");
    // One given for another answer is not used: the judge searches.
    let mut h = mistakes::puzzle_game(&p, 1, Some(&review), "5", 60_000, "2026-01-02 03:04:05".into()).unwrap();
    h.play("(0T3)a7(0T3)a6").unwrap();
    h.judge_given(77.5);
    h.undo().unwrap();
    h.play("(0T3)h7(0T3)h6").unwrap();
    h.submit().unwrap();
    let w = view(&h, None, 2)["puzzle"]["better"]["answer"]["win"].as_f64().unwrap();
    assert!(w < 20.0, "h6 searched, not the figure given for a6: {w}");
}

#[test]
fn a_reviewed_blunder_becomes_a_puzzle_the_engine_judges() {
    use chess5d_play::mistakes;
    let loaded = chess5d_notation::load(SCHOLAR).unwrap();
    let human = || Player::Human { name: None };
    let p = Play::new(loaded, [human(), human()], None, None, "2026-01-02 03:04:05".into());
    // No review yet: nothing offered, and asking for a puzzle says why.
    assert_eq!(mistakes::list(&p, 1, None)["puzzles"], serde_json::json!([]));
    let e = mistakes::puzzle_game(&p, 1, None, "5", 1000, String::new()).unwrap_err();
    assert_eq!((e.code(), e.kind()), ("no_mistake", ErrorKind::NotFound));
    assert!(e.to_string().contains("no computer review"), "{e}");

    let review = reviewed(&p, 1, 60_000);
    let list = mistakes::list(&p, 1, Some(&review));
    let puzzles = list["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 1, "{list}");
    assert_eq!(
        (
            &puzzles[0]["index"],
            &puzzles[0]["class"],
            &puzzles[0]["played"],
            &puzzles[0]["player"]
        ),
        (
            &serde_json::json!(5),
            &serde_json::json!("blunder"),
            &serde_json::json!("Nf6"),
            &serde_json::json!("black")
        )
    );
    // Only a mistake's action makes a puzzle.
    for bad in ["4", "6", "x", "-1", "99"] {
        let e = mistakes::puzzle_game(&p, 1, Some(&review), bad, 1000, String::new()).unwrap_err();
        assert_eq!(e.code(), "no_mistake", "{bad}: {e}");
    }
    // An engine's action is not the player's mistake: a game against the engine offers only the
    // human's.
    let engine = Player::Engine {
        engine: None,
        bot: None,
        movetime_ms: None,
    };
    let vs = Play::new(
        chess5d_notation::load(SCHOLAR).unwrap(),
        [human(), engine],
        None,
        None,
        "2026-01-02 03:04:05".into(),
    );
    assert_eq!(mistakes::list(&vs, 1, Some(&review))["puzzles"], serde_json::json!([]));

    // The engine's better action is accepted (at once: the review searched it).
    let best = review["review"]["actions"][5]["best_long"]
        .as_str()
        .unwrap()
        .to_string();
    let solved = answer(&p, &review, "5", &best);
    assert_eq!(solved["status"], "solved", "{solved}");
    assert_eq!(solved["better"]["answer"]["by"], "best");
    assert!(
        solved["better"]["best"].is_string(),
        "the answer is shown once over: {solved}"
    );
    // The blunder again is refused.
    let refused = answer(&p, &review, "5", "(0T3)g8(0T3)f6");
    assert_eq!(
        (&refused["status"], &refused["better"]["answer"]["by"]),
        (&serde_json::json!("failed"), &serde_json::json!("played")),
        "{refused}"
    );
    // Other answers are searched: one that also lets Qxf7# is refused, one that defends f7
    // accepted although the engine preferred another.
    let a6 = answer(&p, &review, "5", "(0T3)a7(0T3)a6");
    assert_eq!(
        (&a6["status"], &a6["better"]["answer"]["by"]),
        (&serde_json::json!("failed"), &serde_json::json!("searched")),
        "{a6}"
    );
    let other = ["(0T3)g7(0T3)g6", "(0T3)d8(0T3)e7", "(0T3)d8(0T3)f6"]
        .into_iter()
        .find(|a| best != *a)
        .unwrap();
    let defended = answer(&p, &review, "5", other);
    assert_eq!(
        (&defended["status"], &defended["better"]["answer"]["by"]),
        (&serde_json::json!("solved"), &serde_json::json!("searched")),
        "{other}: {defended}"
    );
}

/// Proven mates where players meet them (`chess5d_play::mates`): the analysis board's line and
/// the review's "missed a forced mate".
mod mates {
    use chess5d_play::mates::{missed_mate, proven_mate, Effort};
    use chess5d_rules::{Color, Variant};

    #[test]
    fn a_known_mate_in_two_gives_the_proven_line() {
        // Timeline Fragments from the start: a win in 2 for White (crates/solve/README.md).
        let pos = Variant::by_name("Misc - Timeline Fragments").unwrap().position();
        let proven = proven_mate(&pos, &Effort::analysis(chess5d_play::proof::TOTAL_BUDGET)).expect("mate in 2");
        assert_eq!((proven.side, proven.n, proven.line.len()), (Color::White, 2, 3));
        let v = proven.json(&pos);
        assert_eq!(v["text"], "Mate in 2 (proven)");
        assert_eq!(v["side"], "white");
        let pv = v["pv"].as_array().unwrap();
        assert_eq!(pv.len(), 3);
        assert!(pv.iter().all(|a| !a["text"].as_str().unwrap().is_empty()), "{v}");
        // The line played out mates.
        let mut at = pos.clone();
        for a in &proven.line {
            for m in a {
                at.play(m).unwrap();
            }
            at.submit().unwrap();
        }
        assert_eq!(
            at.outcome(chess5d_rules::Budget::DEFAULT),
            chess5d_rules::Outcome::Checkmate
        );
        // Looked for within one action only, or where there is none: silence.
        let one = Effort {
            max: 1,
            ..Effort::analysis(chess5d_play::proof::TOTAL_BUDGET)
        };
        assert_eq!(proven_mate(&pos, &one), None);
        let standard = Variant::by_name("Standard").unwrap().position();
        assert_eq!(proven_mate(&standard, &Effort::analysis(1_000_000)), None);
    }

    fn game(text: &str) -> chess5d_rules::Game {
        chess5d_notation::load(text).expect("game").into_game()
    }

    #[test]
    fn a_review_says_a_mate_in_one_was_missed() {
        // 4. a3 leaves Qxf7# on the board; 4. Qxf7# keeps it.
        let missed = game("1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. a3 / a6\n");
        let kept = game("1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n");
        for (g, want) in [(&missed, Some(1)), (&kept, None)] {
            let mut pos = g.start().clone();
            for (i, a) in g.actions().iter().enumerate() {
                let said = missed_mate(&pos, &a.moves, &Effort::review());
                assert_eq!(said, if i == 6 { want } else { None }, "action {i}");
                for m in &a.moves {
                    pos.play_unchecked(m);
                }
                pos.submit_unchecked();
            }
        }
        // Through the review both doors run: the action's JSON says so.
        let options = chess5d_play::review::options(2_000, 4, 1);
        let mut reviewer = chess5d_engine::review::Reviewer::new(options);
        let mut writer = chess5d_play::review::ActionWriter::new(&missed);
        let mut said = Vec::new();
        reviewer.review_game(&missed, None, &mut |p| {
            if let Some(a) = p.action {
                said.push(writer.json(a)["missed_mate"].as_u64());
            }
        });
        assert_eq!(said, [None, None, None, None, None, None, Some(1), None]);
    }

    #[test]
    fn a_review_says_a_mate_in_two_was_missed() {
        // Timeline Fragments: White's mate in 2 from the start, given up by a king's step.
        let pos = Variant::by_name("Misc - Timeline Fragments").unwrap().position();
        let proven = proven_mate(&pos, &Effort::analysis(chess5d_play::proof::TOTAL_BUDGET)).unwrap();
        assert_eq!(missed_mate(&pos, &proven.line[0], &Effort::review()), None);
        let actions: Vec<_> = pos.legal_actions(chess5d_rules::Budget::DEFAULT).collect();
        let found = actions
            .iter()
            .filter_map(|a| missed_mate(&pos, a, &Effort::review()))
            .collect::<Vec<_>>();
        assert!(found.contains(&2), "no action gives the mate in 2 up: {found:?}");
        assert!(found.iter().all(|&n| n == 2), "{found:?}");
    }
}

/// What a door's failed write must leave unchanged: every viewer's view (the pending moves, the
/// action list and the 5DPGN in it), the stored record, the version and the engine's flags.
fn everything(p: &Play) -> Vec<String> {
    let mut all: Vec<String> = [
        Viewer::Spectator,
        Viewer::Seat([true, false]),
        Viewer::Seat([false, true]),
        Viewer::Seat([true, true]),
    ]
    .into_iter()
    .map(|v| p.view_text(v, None.into(), 7))
    .collect();
    all.push(serde_json::to_string(&p.record(7, "2026-01-02 03:04:06".into())).expect("record"));
    all.push(format!(
        "{} {} {:?} {:?}",
        p.version, p.engine_busy, p.draw_offer, p.draw_declined
    ));
    all.push(p.pgn());
    all
}

#[test]
fn a_checkpoint_takes_back_every_kind_of_change() {
    use chess5d_play::Play as P;
    type Step = fn(&mut P) -> Result<(), PlayError>;
    let steps: [(&str, Step); 13] = [
        ("move", |p| p.play("(0T1)e2(0T1)e4")),
        ("take back", |p| p.undo()),
        ("move again", |p| p.play("(0T1)d2(0T1)d4")),
        ("submit", |p| p.submit()),
        ("move", |p| p.play("(0T1)e7(0T1)e5")),
        ("submit", |p| p.submit()),
        ("draw offer", |p| p.offer_draw(Color::White)),
        ("decline", |p| p.decline_draw(Color::Black)),
        ("move", |p| p.play("(0T2)d4(0T2)e5")),
        ("submit declines nothing", |p| p.submit()),
        ("draw offer", |p| p.offer_draw(Color::Black)),
        ("a move with an offer open", |p| p.play("(0T2)d7(0T2)d6")),
        ("resign", |p| p.resign(Some(Color::White))),
    ];
    let mut p = standard([human(), human()], None);
    for (name, step) in steps {
        let before = everything(&p);
        let c = p.checkpoint();
        step(&mut p).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_ne!(everything(&p), before, "{name} changed nothing: a test of nothing");
        p.rewind(c);
        assert_eq!(everything(&p), before, "{name} was not taken back whole");
        // And the game goes on from there as it would have.
        step(&mut p).unwrap_or_else(|e| panic!("{name} again: {e}"));
    }
    assert_eq!(p.result.as_deref(), Some("0-1"));
    assert!(p.pgn().contains("1. d4 / e5\n2. dxe5"), "{}", p.pgn());
}
