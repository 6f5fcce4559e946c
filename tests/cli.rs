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
    assert_eq!(lines[0]["legal_actions_convention"], "orderings");
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
    // No two jumps exist in the first two actions: both conventions count 400.
    let (ok, out, err) = chess5d(&["perft", "2"], "");
    assert!(ok, "{err}");
    assert!(out.contains("perft(2) = 400  (orderings,"), "{out}");
    let (ok, out, err) = chess5d(&["perft", "2", "--distinct-positions"], "");
    assert!(ok, "{err}");
    assert!(out.contains("perft(2) = 400  (distinct-positions,"), "{out}");
    let (ok, out, _) = chess5d(&["perft", "--help"], "");
    assert!(ok && out.contains("--distinct-positions"), "{out}");
    let (ok, _, err) = chess5d(&["perft", "2", "--frobnicate"], "");
    assert!(!ok && err.contains("--frobnicate"), "{err}");
}

/// Focused - Just Kings: Black can jump both kings onto (0T1)c2, in either order, reaching one
/// multiverse. Counted as cwmtt and ftxi's engine count (each order): 27; as distinct positions:
/// 26.
#[test]
fn counting_conventions_on_the_command_line() {
    let game = "[Board \"Focused - Just Kings\"]\n\n1. Ka1a2 / Kc3c2\n2. (0T2)Ka2>>(0T1)a2\n";
    let count = |extra: &[&str]| {
        let mut args = vec!["analyze", "--json", "--count-actions", "1000"];
        args.extend_from_slice(extra);
        args.push("-");
        let (ok, out, err) = chess5d(&args, game);
        assert!(ok, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["legal_actions_bound"], "exact");
        (
            v["legal_actions"].as_u64().unwrap(),
            v["legal_actions_convention"].clone(),
        )
    };
    assert_eq!(count(&[]), (27, "orderings".into()));
    assert_eq!(count(&["--distinct-positions"]), (26, "distinct-positions".into()));
    let (ok, out, err) = chess5d(&["analyze", "--count-actions", "1000", "-"], game);
    assert!(ok && out.contains("legal actions (orderings): 27"), "{out}{err}");
    let (ok, out, err) = chess5d(&["perft", "1", "-"], game);
    assert!(ok && out.contains("perft(1) = 27  (orderings"), "{out}{err}");
    let (ok, out, err) = chess5d(&["perft", "1", "--distinct-positions", "-"], game);
    assert!(ok && out.contains("perft(1) = 26  (distinct-positions"), "{out}{err}");
    // The flag only changes a count: alone it is a mistake.
    // (Refused before any input is read.)
    let (ok, _, err) = chess5d(&["analyze", "--distinct-positions", "-"], "");
    assert!(!ok && err.contains("--count-actions"), "{err}");
}
