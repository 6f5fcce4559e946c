//! The `chess5d` command line, run as a user would.

use std::io::Write;
use std::process::{Command, Stdio};

pub(crate) fn chess5d(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess5d"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    // A usage error may end the program before it reads its input: a closed pipe is fine here.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
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
    assert!(
        !ok && err.contains("invalid value 'xml'") && err.contains("5dpgn"),
        "{err}"
    );
    let (ok, _, err) = chess5d(&["frobnicate"], "");
    assert!(!ok && err.contains("unrecognized subcommand"), "{err}");
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

fn run_status(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chess5d"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn every_subcommand_has_help_on_stdout() {
    let (code, top, _) = run_status(&["--help"]);
    assert_eq!(code, Some(0));
    // The subcommands as the top-level help lists them: every one must answer --help.
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A command's line starts at the third column; a longer description wraps onto
        // lines indented further, which name no command.
        .filter(|l| !l[2..].starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 10, "{top}");
    for c in commands {
        let (code, out, err) = run_status(&[c, "--help"]);
        assert_eq!(code, Some(0), "{c} --help: {err}");
        assert!(out.contains("Usage: chess5d"), "{c} --help printed: {out}");
        assert!(err.is_empty(), "{c} --help wrote to stderr: {err}");
    }
}

#[test]
fn version_names_the_commit() {
    let (code, out, _) = run_status(&["--version"]);
    assert_eq!(code, Some(0));
    let version = out.trim();
    assert!(
        version.starts_with(concat!("chess5d ", env!("CARGO_PKG_VERSION"), " (")),
        "{version}"
    );
    assert!(
        version.ends_with(')') && version.len() > "chess5d 0.1.0 ()".len(),
        "{version}"
    );
}

#[test]
fn usage_errors_exit_2_and_failures_exit_1() {
    for args in [
        &["frobnicate"][..],
        &["perft", "deep"],
        &["analyze", "--nope"],
        &["convert", "--to", "xml"],
    ] {
        let (code, _, err) = run_status(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("error:"), "{args:?}: {err}");
    }
    let (code, _, err) = run_status(&["analyze", "/nonexistent/game.5dpgn"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("/nonexistent/game.5dpgn"), "{err}");
}

#[test]
fn a_closed_pipe_stops_output_quietly() {
    // 200 kB of JSON, read for 10 bytes: the writes after `head` exits meet a closed pipe.
    let game = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/hard-match-games/match-game-312.5dpgn"
    );
    for cmd in [
        format!("chess5d analyze --all-positions --json --moves playable {game} | head -c 10"),
        "chess5d variants | head -1".to_string(),
        "chess5d completions bash | head -1".to_string(),
    ] {
        let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_chess5d")).parent().unwrap();
        let out = Command::new("bash")
            .args(["-c", &format!("set -o pipefail; {cmd} > /dev/null")])
            .env(
                "PATH",
                format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap()),
            )
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{cmd}: {:?} {err}", out.status);
        assert!(err.is_empty(), "{cmd}: {err}");
    }
}

#[test]
fn completions_and_man_page_generate() {
    let (code, out, _) = run_status(&["completions", "bash"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("complete -F") && out.contains("analyze"), "{out}");
    for shell in ["zsh", "fish"] {
        let (code, out, _) = run_status(&["completions", shell]);
        assert_eq!(code, Some(0));
        assert!(out.contains("perft"));
    }
    let (code, out, _) = run_status(&["man"]);
    assert_eq!(code, Some(0));
    assert!(out.contains(".TH chess5d 1"), "{out}");
}

#[test]
fn a_missing_engine_fails_the_match_at_once_with_exit_2() {
    let t0 = std::time::Instant::now();
    let (code, out, err) = run_status(&[
        "match",
        "--engine",
        "nonexistent",
        "--engine",
        "nonexistent",
        "--games",
        "2",
    ]);
    assert!(t0.elapsed() < std::time::Duration::from_secs(1), "{:?}", t0.elapsed());
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("('nonexistent') failed to start") && err.contains("not found"),
        "{err}"
    );
    assert!(out.is_empty(), "no game may start: {out}");
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
    assert!(!ok && err.contains("a game number from 1, not '0'"), "{err}");
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

/// Ctrl-C (SIGINT) ends a match with its report: the games under way finish and count, the
/// final score and `Finished match` line are printed, and the exit status is 130.
#[cfg(unix)]
#[test]
fn ctrl_c_ends_a_match_with_its_report() {
    use std::io::{BufRead, BufReader};
    let engine = format!("{} engine --bot random", env!("CARGO_BIN_EXE_chess5d"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess5d"))
        .args(["match", "--engine", &engine, "--engine", &engine, "--games", "200"])
        .args(["--tc", "5+0.05", "--max-actions", "40", "--concurrency", "2"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut out = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let finished = line.starts_with("Finished game");
        out.push(line);
        if finished {
            break;
        }
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    out.extend(lines.map(|l| l.unwrap()));
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    let out = out.join("\n");
    assert_eq!(status.code(), Some(130), "{out}\n{err}");
    assert!(err.contains("Ctrl-C: no new game starts"), "{err}");
    assert!(
        err.contains("interrupted: Ctrl-C:") && err.contains("of 200 games played"),
        "{err}"
    );
    assert!(out.contains("Finished match:"), "{out}");
    assert!(out.contains("Score of"), "{out}");
    let started = out.matches("Started game").count();
    let finished = out.matches("Finished game").count();
    assert_eq!(started, finished, "every game under way finishes and counts: {out}");
    assert!(finished < 200, "{out}");
}

/// `bench --signature` prints the engine's node count last, the same on every run.
#[test]
fn the_bench_signature_is_printed_last_and_repeats() {
    let run = || {
        let (code, out, err) = run_status(&["bench", "--signature", "--depth-offset", "-2"]);
        assert_eq!(code, Some(0), "{err}");
        let last = out.lines().last().unwrap_or_default().to_string();
        assert!(last.starts_with("Nodes searched  : "), "{out}");
        let nodes: u64 = last.rsplit(' ').next().unwrap().parse().unwrap();
        assert!(nodes > 0, "{out}");
        nodes
    };
    assert_eq!(run(), run());
    let (code, _, err) = run_status(&["bench", "--depth-offset", "1"]);
    assert_eq!(code, Some(2), "--depth-offset needs --signature or --threads: {err}");
    let (code, _, err) = run_status(&["bench", "--threads", "1"]);
    assert_eq!(code, Some(2), "a speedup needs two threads or more: {err}");
    assert!(err.contains("1 is not in 2..=256"), "{err}");
}

/// Impossible positions are refused at the door, with the rule and the place (issue 17).
#[test]
fn impossible_positions_are_refused_with_the_rule_and_the_place() {
    let cases = [
        (
            "[Board \"custom\"]\n[Size \"8x8\"]\n[k7/8/8/8/8/8/8/R3K3:0:1:w]\n",
            "the black king on (0T1)a8 can be captured by the side to move: (0T1)a1",
        ),
        (
            // A knight jumps to the other timeline's board onto the king.
            "[Board \"custom\"]\n[Size \"8x8\"]\n[8/8/8/8/8/8/8/1N2K3:0:1:w]\n[8/8/8/8/8/1k6/8/4K3:1:1:w]\n",
            "the black king on (1T1)b3 can be captured by the side to move: (0T1)b1",
        ),
        (
            "[Board \"custom\"]\n[Size \"8x8\"]\n[P3k3/8/8/8/8/8/8/4K3:0:1:w]\n",
            "the white pawn on (0T1)a8 stands on the rank where it promotes",
        ),
        (
            "[Board \"custom\"]\n[Size \"8x8\"]\n[4k3/8/8/8/8/8/8/p3K3:0:1:w]\n",
            "the black pawn on (0T1)a1 stands on the rank where it promotes",
        ),
    ];
    for (text, why) in cases {
        let (ok, out, err) = chess5d(&["analyze", "-"], text);
        assert!(!ok, "{text} was accepted: {out}");
        assert!(err.contains(why), "{text}: {err}");
    }
    // One board without a king is possible (royal pieces travel between timelines), and so is a
    // side without a king on any board (see `positions_without_a_royal_piece_are_accepted`).
    let (ok, _, err) = chess5d(
        &["analyze", "-"],
        "[Board \"custom\"]\n[Size \"8x8\"]\n[4k3/8/8/8/8/8/8/4K3:0:1:w]\n[4k3/8/8/8/8/8/8/8:1:1:w]\n",
    );
    assert!(ok, "{err}");
}

/// Positions where a side has no royal piece (the rules crate's `tests/data/royalless.txt`),
/// through the commands that load a position: `analyze` reports what the rules decide (never in
/// check without a royal piece, stalemated without a legal action), `perft`, `convert` and
/// `show` accept them; a capturable royal piece or a pawn on its promotion rank is refused.
#[test]
fn positions_without_a_royal_piece_are_accepted() {
    let data = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/rules/tests/data/royalless.txt"
    ))
    .unwrap();
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split(" | ").collect();
        let (name, size, boards, expect) = (f[0], f[1], f[2], f[3]);
        let text = format!(
            "[Board \"custom\"]\n[Size \"{size}\"]\n{}\n",
            boards.split_whitespace().collect::<Vec<_>>().join("\n")
        );
        let (ok, out, err) = chess5d(&["analyze", "--json", "--count-actions", "1000", "-"], &text);
        if let Some(why) = expect.strip_prefix("refused: ") {
            assert!(!ok, "{name} was accepted: {out}");
            assert!(err.contains(why), "{name}: {err}");
            checked += 1;
            continue;
        }
        assert!(ok, "{name}: {err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        for kv in expect.split_whitespace() {
            let (k, want) = kv.split_once('=').unwrap();
            match k {
                "check" => assert_eq!(v["in_check"], want == "yes", "{name}"),
                "outcome" => assert_eq!(v["outcome"], want, "{name}"),
                "actions" => {
                    assert_eq!(v["legal_actions"], want.parse::<u64>().unwrap(), "{name}");
                    let (ok, out, err) = chess5d(&["perft", "1", "-"], &text);
                    assert!(ok && out.contains(&format!("perft(1) = {want} ")), "{name}: {out}{err}");
                }
                _ => panic!("{line}"),
            }
        }
        let (ok, out, err) = chess5d(&["convert", "--to", "5dfen", "-"], &text);
        assert!(ok, "{name}: {err}");
        for b in boards.split_whitespace() {
            assert!(out.contains(b), "{name}: {out}");
        }
        let (ok, _, err) = chess5d(&["show", "-"], &text);
        assert!(ok, "{name}: {err}");
        checked += 1;
    }
    assert!(checked >= 12, "{checked}");
    // A game from a position without kings: 5d-chess-js 1.2.1's export of a 4x4 brawns game.
    let game =
        "[Board \"Custom\"]\n[Mode \"5D\"]\n[Size \"4x4\"]\n[w*w*w*w*/4/4/W*W*W*W*:0:1:w]\n1. Wa3 / Wb2\n2. Wxb2\n";
    let (ok, out, err) = chess5d(&["convert", "--to", "long", "-"], game);
    assert!(ok, "{err}");
    assert!(out.contains("(0T1)a1(0T1)a3"), "{out}");
    assert!(out.contains("(0T2)c1(0T2)b2"), "{out}");
}

/// Issue 17, point 4: empty input, a bad `--addr`, a file that is no database, `--sprt`'s help.
#[test]
fn empty_input_bad_addresses_and_databases_are_named() {
    for input in ["", "  \n\t\n"] {
        let (ok, out, err) = chess5d(&["analyze", "-"], input);
        assert!(!ok, "{out}");
        assert!(err.contains("<stdin>: no game: the input is empty"), "{err}");
    }
    let (code, _, err) = run_status(&["serve", "--addr", "nonsense"]);
    assert_eq!(code, Some(2), "a usage error: {err}");
    assert!(
        err.contains("'nonsense' is not an address like 127.0.0.1:8080"),
        "{err}"
    );
    let dir = std::env::temp_dir().join(format!("chess5d-garbage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, [0x42u8; 4096]).unwrap();
    let (code, _, err) = run_status(&["serve", "--addr", "127.0.0.1:0", "--db", garbage.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("cannot use database {}", garbage.display())),
        "{err}"
    );
    let (_, help, _) = run_status(&["match", "--help"]);
    let line = help.lines().find(|l| l.trim_start().starts_with("--sprt")).unwrap();
    assert_eq!(line.matches("elo0=E0").count(), 1, "{line}");
}

/// `show` picks one game of a file of several with `--game N`, and says so when none is picked.
#[test]
fn show_picks_a_game_of_several() {
    let file = data("three-games-one-broken.5dpgn");
    let (code, _, err) = run_status(&["show", &file]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("pick it with `chess5d show --game N`"), "{err}");
    let (code, out, err) = run_status(&["show", "--game", "1", &file]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("to move, present T"), "{out}");
    let (code, _, err) = run_status(&["show", "--game", "0", &file]);
    assert_eq!(code, Some(2), "{err}");
}

/// Issue 17, point 4: turn numbers are checked, a move after the end says the game is over,
/// and `convert --to 5dpgn` keeps the match runner's `{eval/depth time}` comments.
#[test]
fn numbers_the_end_of_a_game_and_comments() {
    let (ok, _, err) = chess5d(&["analyze", "-"], "1. e4 / e5 3. Nf3 / Nc6\n");
    assert!(
        !ok && err.contains("the action is numbered 3, but it is white's action of turn 2"),
        "{err}"
    );
    assert!(err.contains("line 1, column 15"), "{err}");
    let (ok, _, err) = chess5d(
        &["analyze", "-"],
        "1. e4 / e5 2. Qh5 / Nc6 3. Bc4 / Nf6 4. Qxf7# 5. Nf3\n",
    );
    assert!(
        !ok && err.contains("the game is over (checkmate): black is mated, white has won"),
        "{err}"
    );
    let game = "[Mode \"5D\"]\n[Board \"Standard\"]\n\n1. (0T1)e2(0T1)e4 {+0.25/6 1.02s} / (0T1)e7(0T1)e5 {-0.31/5 0.98s}\n2. (0T2)g1(0T2)f3 {+M3/9 0.50s}\n*\n";
    let (ok, out, err) = chess5d(&["convert", "--to", "5dpgn", "-"], game);
    assert!(ok, "{err}");
    for c in ["{+0.25/6 1.02s}", "{-0.31/5 0.98s}", "{+M3/9 0.50s}"] {
        assert!(out.contains(c), "{c} lost:\n{out}");
    }
    let (ok, again, _) = chess5d(&["convert", "--to", "5dpgn", "-"], &out);
    assert!(ok && again == out, "{again}");
}

#[test]
fn tune_fits_weights_on_games_and_names_bad_input() {
    let dir = std::env::temp_dir().join(format!("chess5d-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.5dpgn");
    let mut text = String::new();
    for (i, result) in ["1-0", "0-1", "1/2-1/2", "1-0"].iter().enumerate() {
        text.push_str(&format!(
            "[Board \"Standard\"]\n[Round \"{i}\"]\n[Result \"{result}\"]\n\n1. e4 / e5\n2. Nf3 / Nc6\n3. Bb5 / a6\n4. Bxc6 / dxc6\n5. Nxe5 / Qd4\n\n"
        ));
    }
    std::fs::write(&games, &text).unwrap();
    let g = games.to_str().unwrap();
    let (ok, out, err) = chess5d(&["tune", g, "--holdout", "0", "--iterations", "200"], "");
    assert!(ok, "{err}");
    assert!(err.contains("4 games, 36 positions"), "{err}");
    assert!(out.starts_with("//! The weights of the evaluation"), "{out}");
    assert!(
        out.contains("pub const WEIGHTS: Weights = Weights {") && out.contains("    pawn: "),
        "{out}"
    );
    assert!(out.contains(&format!("- {g} (4 games, 36 positions)")), "{out}");
    // A missing file, a game that does not replay: the file and the game are named.
    let (ok, _, err) = chess5d(&["tune", "/no/such/games.5dpgn"], "");
    assert!(!ok && err.contains("/no/such/games.5dpgn: cannot open"), "{err}");
    let bad = dir.join("bad.5dpgn");
    std::fs::write(
        &bad,
        format!("{text}[Board \"Standard\"]\n[Result \"1-0\"]\n\n1. e4 / e5\n2. Ke3\n"),
    )
    .unwrap();
    let (ok, _, err) = chess5d(&["tune", g, bad.to_str().unwrap()], "");
    assert!(
        !ok && err.contains("bad.5dpgn: game 5: ") && err.contains("Ke3"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let (ok, _, err) = chess5d(&["tune", g, "--freeze", "pawns"], "");
    assert!(!ok && err.contains("--freeze pawns: no such weight"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `convert --to 5d-chess-js` writes what 5d-chess-js 1.2.1's `export('5dpgn')` writes (the
/// text below is its output for this game): one writer for the package and the command line.
#[test]
fn convert_writes_the_5d_chess_js_dialect() {
    let game = "[Board \"Standard\"]\n\n1. d4 / h5\n2. (0T2)Ng1>>(0T1)g3~ / (1T1)Na6\n3. (1T2)h4 / (0T2)g5 (1T2)Ng8>>(1T1)g6~\n4. (-1T2)Nb1>>(0T2)b3~\n";
    let (ok, out, err) = chess5d(&["convert", "--to", "5d-chess-js", "-"], game);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "[Board \"Standard\"]\n[Mode \"5D\"]\n1. d4 / h5\n2. (0T2)Ng1>>(0T1)g3~ / (1T1)Na6\n3. (1T2)h4 / (0T2)g5 (1T2)Ng8>>(1T1)g6~\n4. (-1T2)Nb1>>(0T2)b3~\n"
    );
    let custom = "[Board \"custom\"]\n[Size \"5x5\"]\n[n1k*n1/5/5/5/1NK*1N:0:1:w]\n\n1. Na3\n";
    let (ok, out, err) = chess5d(&["convert", "--to", "chessjs", "-"], custom);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "[Board \"Custom\"]\n[Mode \"5D\"]\n[Size \"5x5\"]\n[n1k*n1/5/5/5/1NK*1N:0:1:w]\n1. Na3\n"
    );
}
