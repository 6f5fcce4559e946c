//! The `chess5d` command line, run as a user would.

use std::io::Write;
use std::process::{Command, Stdio};

fn chess5d(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess5d"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn analyze_reports_each_position_as_json() {
    let game = "[Board \"Standard\"]\n\n1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n4. Qxf7#\n";
    let (ok, out, err) = chess5d(
        &["analyze", "--all-positions", "--json", "--count-actions", "50", "-"],
        game,
    );
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0]["moves"].as_array().unwrap().len(), 20);
    assert_eq!(lines[0]["legal_actions"], 20);
    assert_eq!(lines[0]["legal_actions_bound"], "exact");
    assert_eq!(lines[1]["to_move"], "black");
    let last = &lines[7];
    assert_eq!(last["ply"], 7);
    assert_eq!(last["in_check"], true);
    assert_eq!(last["outcome"], "checkmate");
    assert_eq!(last["legal_actions"], 0);
    assert!(last["moves"].as_array().unwrap().iter().any(|m| m == "(0T4)e8(0T4)e7"));
}

#[test]
fn errors_name_the_place_and_exit_non_zero() {
    let (ok, _, err) = chess5d(&["analyze", "-"], "[Board \"Standard\"]\n\n1. e4 / e5\n2. Ke3\n");
    assert!(!ok);
    assert!(err.contains("line 4") && err.contains("Ke3"), "{err}");
    let (ok, _, err) = chess5d(&["convert", "--to", "xml", "-"], "1. e4\n");
    assert!(!ok && err.contains("unknown format"), "{err}");
    let (ok, _, err) = chess5d(&["frobnicate"], "");
    assert!(!ok && err.contains("unknown command"), "{err}");
    let (ok, _, err) = chess5d(&["analyze", "/no/such/file"], "");
    assert!(!ok && err.contains("/no/such/file"), "{err}");
}

#[test]
fn convert_round_trips() {
    let game = "[Board \"Standard\"]\n\n1. e4 / e5\n2. (0T2)Ng1>>(0T1)g3 / (1T1)Nf6\n";
    let (ok, pgn, err) = chess5d(&["convert", "--to", "5dpgn", "-"], game);
    assert!(ok, "{err}");
    assert!(pgn.contains(">>"), "{pgn}");
    for to in ["long", "json", "5dpgn"] {
        let (ok, out, err) = chess5d(&["convert", "--to", to, "-"], &pgn);
        assert!(ok, "{to}: {err}");
        let (ok, back, err) = chess5d(&["convert", "--to", "5dfen", "-"], &out);
        assert!(ok, "{to}: {err}");
        let (_, direct, _) = chess5d(&["convert", "--to", "5dfen", "-"], &pgn);
        assert_eq!(back, direct, "{to}");
    }
}

#[test]
fn variants_show_and_perft() {
    let (ok, out, _) = chess5d(&["variants"], "");
    assert!(ok && out.contains("Misc - Timeline Battlegrounds") && out.lines().count() > 30);
    let (ok, out, err) = chess5d(&["show", "-"], "[Board \"Standard\"]\n\n1. e4 / (0T1)Nb8c6\n");
    assert!(ok, "{err}");
    assert!(out.contains("rnbqkbnr") || out.contains("r.bqkbnr"), "{out}");
    let (ok, out, err) = chess5d(&["perft", "2"], "");
    assert!(ok, "{err}");
    assert!(out.contains("perft(2) = 400"), "{out}");
}

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn analyze_reports_every_game_and_names_the_broken_one() {
    let file = data("three-games-one-broken.5dpgn");
    let (ok, out, err) = chess5d(&["analyze", "--moves", "none", &file], "");
    assert!(!ok, "one game is broken: the exit code says so");
    assert!(
        out.contains("game 1:\nply 7: black to move") && out.contains("checkmate"),
        "{out}"
    );
    assert!(
        out.contains("game 3:\nply 2: white to move, present T2, 2 timelines"),
        "{out}"
    );
    assert!(!out.contains("game 2:"), "{out}");
    assert!(
        err.contains("game 2 (line 12): action 3, 'Ke3' at line 17, column 4") && err.contains("1 of 3 games"),
        "{err}"
    );
    // JSON objects carry the game number.
    let (_, out, _) = chess5d(&["analyze", "--json", "--moves", "none", &file], "");
    let games: Vec<u64> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(games, [1, 3]);
    // --game picks one; the others are not read, so the broken one does not matter.
    let (ok, out, err) = chess5d(&["analyze", "--json", "--all-positions", "--game", "3", &file], "");
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| l["game"] == 3));
    let (ok, _, err) = chess5d(&["analyze", "--game", "2", &file], "");
    assert!(!ok && err.contains("'Ke3' at line 17"), "{err}");
    let (ok, _, err) = chess5d(&["analyze", "--game", "4", &file], "");
    assert!(!ok && err.contains("holds 3 games; there is no game 4"), "{err}");
    let (ok, _, err) = chess5d(&["analyze", "--game", "0", &file], "");
    assert!(!ok && err.contains("--game takes a game number from 1"), "{err}");
}

#[test]
fn convert_converts_every_game() {
    let file = data("three-games-one-broken.5dpgn");
    let (ok, out, err) = chess5d(&["convert", "--to", "5dpgn", &file], "");
    assert!(!ok && err.contains("game 2 (line 12)"), "{err}");
    assert_eq!(out.matches("[Event \"three games\"]").count(), 2, "{out}");
    assert!(
        out.contains("4. Qxf7#\n1-0\n\n[Board \"Standard - Two Timelines\"]"),
        "{out}"
    );
    // The output is itself a multi-game file that reads back.
    let (ok, again, err) = chess5d(&["convert", "--to", "5dpgn", "-"], &out);
    assert!(ok, "{err}");
    assert_eq!(again, out);
    let (ok, long, _) = chess5d(&["convert", "--to", "long", "--game", "1", &file], "");
    assert!(ok);
    assert_eq!(long.lines().count(), 7);
    // Commands on one game say the file holds several.
    let (ok, _, err) = chess5d(&["show", &file], "");
    assert!(!ok && err.contains("holds several games"), "{err}");
}

#[test]
fn convert_keeps_variations() {
    let file = data("variations.5dpgn");
    let (ok, out, err) = chess5d(&["convert", "--to", "5dpgn", &file], "");
    assert!(ok, "{err}");
    assert!(
        out.ends_with("1. e4 / e5 (2. Nf3 / Nc6 (3. Bb5 / a6) 3. Bc4 / Bc5) (2. Nc3 / Nf6)\n2. f4 / exf4\n"),
        "{out}"
    );
    let (ok, again, _) = chess5d(&["convert", "--to", "5dpgn", "-"], &out);
    assert!(ok && again == out, "{again}");
    // analyze reports the main line.
    let (ok, out, _) = chess5d(&["analyze", "--json", "--moves", "none", &file], "");
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((v["game"].as_u64(), v["ply"].as_u64()), (Some(1), Some(4)));
    // An illegal move inside a variation is an error at its place.
    let (ok, _, err) = chess5d(&["analyze", "-"], "1. e4 / d5 (/ e5\n2. exd5) 2. exd5\n");
    assert!(!ok && err.contains("'exd5' at line 2, column 4"), "{err}");
}
