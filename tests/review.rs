//! `chess5d review` on three held-out-style games (match games kept for their hard positions,
//! of 15, 17 and 37 timelines; one ends in checkmate): the JSON graph data, and the annotated
//! 5DPGN read back with every comment.

use chess5d_notation::{load, write_5dpgn, GameTree};
use std::process::Command;

const GAMES: [&str; 3] = [
    "tests/data/hard-match-games/match-game-441-ply-19.5dpgn",
    "tests/data/hard-match-games/match-game-359.5dpgn",
    "tests/data/hard-match-games/match-game-482-ply-49.5dpgn",
];

fn review(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chess5d"))
        .arg("review")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn read(path: &str) -> chess5d_notation::LoadedGame {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    load(&text).unwrap()
}

#[test]
fn the_graph_data_has_every_action_with_its_evaluations_and_class() {
    for path in GAMES {
        let game = read(path);
        let n = game.game().actions().len();
        let (ok, out, err) = review(&["--json", "--depth", "2", "--time", "400", path]);
        assert!(ok, "{path}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let actions = v["actions"].as_array().unwrap();
        assert_eq!((actions.len(), v["total"].as_u64()), (n, Some(n as u64)), "{path}");
        assert_eq!(v["cancelled"], false);
        for (i, a) in actions.iter().enumerate() {
            assert_eq!(a["index"], i);
            for key in ["before", "after"] {
                let e = &a[key];
                assert!(
                    e["cp"].is_i64() || e["mate"].is_i64() || e["checkmate"].is_string() || e["stalemate"] == true,
                    "{path} {i} {key}: {e}"
                );
            }
            // The evaluation after an action is the one before the next.
            if let Some(next) = actions.get(i + 1) {
                assert_eq!(a["after"], next["before"], "{path} {i}");
            }
            let acc = a["accuracy"].as_f64().unwrap();
            assert!((0.0..=100.0).contains(&acc));
            match a["class"].as_str() {
                None => assert!(a["drop"].as_f64().unwrap() < 0.1 || a["best"].is_null(), "{a}"),
                Some(c) => {
                    assert!(["inaccuracy", "mistake", "blunder"].contains(&c));
                    assert!(a["best"].is_string() && a["line"].is_string(), "{a}");
                    assert!(a["drop"].as_f64().unwrap() >= 0.1);
                }
            }
            // The played action reads back in the position it was played in.
            assert!(!a["played"].as_str().unwrap().is_empty());
        }
        for side in ["white", "black"] {
            let acc = v[side]["accuracy"].as_f64().unwrap();
            assert!((0.0..=100.0).contains(&acc), "{path} {side}");
        }
        if v["result"].is_null() {
            assert!(err.contains("no result") && err.contains("unfinished"), "{err}");
        }
    }
}

#[test]
fn the_annotated_game_reads_back_with_every_comment() {
    for (path, variations) in [(GAMES[0], true), (GAMES[1], false), (GAMES[2], true)] {
        let game = read(path);
        let mut args = vec!["--depth", "2", "--time", "400", path];
        if variations {
            args.insert(0, "--variations");
        }
        let (ok, out, err) = review(&args);
        assert!(ok, "{path}: {err}");
        let back = load(&out).unwrap_or_else(|e| panic!("{path}: {e}\n{out}"));
        assert_eq!(back.game().actions(), game.game().actions(), "{path}");
        // Every action but a final mate has its evaluation; every glyph has its note.
        let evals = out.matches("{[%eval ").count();
        let n = game.game().actions().len();
        assert!(evals == n || evals + 1 == n, "{path}: {evals} of {n}");
        let notes = ["Inaccuracy.", "Mistake.", "Blunder."]
            .iter()
            .map(|w| out.matches(w).count())
            .sum::<usize>();
        let main: Vec<usize> = back.tree().main_line();
        let glyphs = main.iter().filter(|&&m| !back.tree().glyphs(m).is_empty()).count();
        assert_eq!(glyphs, notes, "{path}");
        let comments: usize = back.tree().walk().map(|n| back.tree().comments(n).len()).sum();
        assert_eq!(comments, out.matches('{').count(), "{path}: every comment is kept");
        for &m in &main {
            assert!(back.tree().comments(m).iter().any(|(_, c)| c.starts_with("[%eval ")) || Some(&m) == main.last());
        }
        assert_eq!(
            back.tree().len() > GameTree::from_game(game.game()).len(),
            variations && notes > 0,
            "{path}"
        );
        // Written again by our writer: the same text.
        assert_eq!(write_5dpgn(&back), out, "{path}");
        for h in [
            "[Annotator \"chess5d review (depth 2, 400 ms per position)\"]",
            "[WhiteAccuracy \"",
            "[BlackAccuracy \"",
        ] {
            assert!(out.contains(h), "{path}: {h}");
        }
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for (args, needle) in [
        (vec!["/no/such/file.5dpgn"], "/no/such/file.5dpgn"),
        (vec!["tests/data/three-games-one-broken.5dpgn", "--game", "2"], "game"),
        (vec!["tests/data/three-games-one-broken.5dpgn"], "several games"),
        (vec!["--depth", "0", "x"], "--depth"),
        (vec!["--time", "fast", "x"], "--time"),
    ] {
        let (ok, _, err) = review(&args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(needle) && !err.contains("panicked"), "{args:?}: {err}");
    }
    let (ok, out, _) = review(&["--help"]);
    assert!(
        ok && out.contains("--threads") && out.contains("a parallel search"),
        "{out}"
    );
}
