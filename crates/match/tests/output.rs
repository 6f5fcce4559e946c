//! What engine authors see: start-up failures, progress lines, names, 5DPGN read back.

use crate::*;
use std::time::Instant;

#[test]
fn a_missing_engine_stops_the_match_before_any_game() {
    // The library entry.
    let t0 = Instant::now();
    let options = MatchOptions {
        engines: vec![spec("", "nonexistent".into()), spec("", "nonexistent".into())],
        games: 2,
        ..MatchOptions::default()
    };
    let e = options.run().unwrap_err();
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
    assert_eq!(e.exit_code(), 2);
    assert!(
        e.to_string().contains("engine 1 ('nonexistent') failed to start"),
        "{e}"
    );
    // The command line is checked in the `chess5d` crate's tests (tests/cli.rs).
    // An engine that dies in the handshake: the second one.
    let r = run_match(&config(fake("random"), spec("dead", "exit 3".into()), 2), &mut |_| {});
    let e = r.unwrap_err();
    assert!(
        e.to_string()
            .contains("engine 2 ('exit 3') failed to start: engine crashed (exit code 3)"),
        "{e}"
    );
}

#[test]
fn progress_lines_name_white_first_and_engines_by_id_name() {
    let mut c = config(ours(&[("Hash", "2")]), fake("random"), 4);
    c.engines[0].name = String::new();
    c.openings = vec![Opening::variant("Very Small").unwrap()];
    c.tc = TimeControl::Nodes(50);
    c.concurrency = 1;
    let mut lines = Vec::new();
    let r = run_match_with_events(&c, &mut |e| {
        match e {
            Event::Started {
                round,
                total,
                white,
                black,
            } => lines.push(started_line(*round, *total, white, black)),
            Event::Finished(p) => {
                lines.push(p.line());
                if p.played % 2 == 0 {
                    lines.extend(p.report(None));
                }
            }
            Event::Warning(w) => lines.push(format!("Warning: {w}")),
        }
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(r.names[0], chess5d_engine::uci::ENGINE_NAME);
    let name = chess5d_engine::uci::ENGINE_NAME;
    // Two game pairs, one opening: the openings repeat.
    assert_eq!(lines[0], "Warning: 2 game pairs but 1 opening: openings repeat");
    assert_eq!(lines[1], format!("Started game 1 of 4 ({name} vs fake-random)"));
    assert!(
        lines[2].starts_with(&format!("Finished game 1 ({name} vs fake-random): ")),
        "{}",
        lines[2]
    );
    assert_eq!(lines[3], format!("Started game 2 of 4 (fake-random vs {name})"));
    assert!(lines[4].starts_with(&format!("Finished game 2 (fake-random vs {name}): ")));
    let g = r.games.iter().find(|g| g.round == 2).unwrap();
    let expected = format!("{} {{{}}}", g.result.pgn(), g.comment());
    assert!(lines[4].ends_with(&expected), "{} / {expected}", lines[4]);
    assert!(
        lines[5].starts_with(&format!("Score of {name} vs fake-random: ")),
        "{}",
        lines[5]
    );
    assert!(lines[6].starts_with("Ptnml(0-2): ["), "{}", lines[6]);
    assert!(
        lines[7].starts_with("Elo difference: ") && lines[7].contains("DrawRatio"),
        "{}",
        lines[7]
    );
    for g in &r.games {
        assert_eq!(g.comments.len(), g.actions.len());
        let mine = if g.white == 0 { 0 } else { 1 };
        // Our engine's actions carry `{score/depth time}` when a depth was finished (not
        // always, with 50 nodes), the random engine's only a time.
        for (k, c) in g.comments.iter().enumerate() {
            assert!(c.ends_with('s'), "{c}");
            if k % 2 != mine {
                assert!(!c.contains('/'), "{c}");
            }
        }
    }
    let scored = r
        .games
        .iter()
        .flat_map(|g| &g.comments)
        .filter(|c| c.contains('/'))
        .count();
    assert!(scored > 0, "no comment with a score");
}

#[test]
fn info_comments_as_cutechess_writes_them() {
    let ms = Duration::from_millis(1234);
    assert_eq!(
        info_comment(Some("info depth 12 score cp 35 nodes 100 pv (0T1)e2(0T1)e4"), ms),
        "+0.35/12 1.23s"
    );
    assert_eq!(
        info_comment(Some("info depth 3 score cp -120 nodes 1"), ms),
        "-1.20/3 1.23s"
    );
    assert_eq!(info_comment(Some("info depth 7 score mate 3"), ms), "+M3/7 1.23s");
    assert_eq!(info_comment(Some("info depth 7 score mate -2"), ms), "-M2/7 1.23s");
    assert_eq!(info_comment(Some("info string hello"), ms), "1.23s");
    assert_eq!(info_comment(None, Duration::from_millis(30)), "0.03s");
}

/// Splits a file of several 5DPGN games on their `[Event` headers.
fn games_of(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Event ") {
            games.push(String::new());
        }
        if let Some(g) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    games
}

#[test]
fn the_5dpgn_file_reads_back_game_by_game() {
    let pgn = temp("readback.5dpgn");
    let mut c = config(ours(&[("Hash", "2")]), fake("random"), 8);
    c.openings = Opening::read_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.5dpgn")).unwrap();
    assert_eq!(c.openings.len(), 4);
    c.tc = TimeControl::Nodes(40);
    c.max_actions = 12;
    c.pgn = Some(pgn.clone());
    let r = run_match(&c, &mut |_| {}).unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = games_of(&text);
    assert_eq!(games.len(), 8);
    for g in &games {
        let loaded = chess5d_notation::load(g).unwrap_or_else(|e| panic!("{e}\n{g}"));
        let round: usize = loaded.header("Round").unwrap().parse().unwrap();
        let rec = r.games.iter().find(|x| x.round == round).unwrap();
        assert_eq!(loaded.game().actions().len(), rec.actions.len(), "{g}");
        assert_eq!(loaded.header("PlyCount"), Some(rec.actions.len().to_string().as_str()));
        assert_eq!(loaded.header("Result"), Some(rec.result.pgn()));
        assert_eq!(loaded.header("Termination"), Some(rec.ending.pgn()));
        assert_eq!(loaded.header("TimeControl"), Some("nodes=40"));
        assert_eq!(loaded.header("White"), Some(c.engines[rec.white].name.as_str()));
        assert!(loaded.header("Event").is_some() && loaded.header("Black").is_some());
        for (a, b) in loaded.game().actions().iter().zip(&rec.actions) {
            assert_eq!(&a.moves, b, "{g}");
        }
        assert!(
            g.contains(&format!("{{{}}} {}", rec.comment(), rec.result.pgn())),
            "{g}"
        );
    }
    // The game after 1. e4 / e5 2. Nf3 / Nc6 starts from that position (as 5DFEN).
    assert!(
        text.contains("[r*1bqk*bnr*/p*p*p*p*1p*p*p*/2n5/4p3/4P3/5N2/P*P*P*P*1P*P*P*/R*NBQK*B1R*:0:3:w]"),
        "{text}"
    );
    assert!(text.contains("\n3. (0T3)"), "{text}");
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn a_rerun_into_the_same_5dpgn_file_appends_and_says_so() {
    let pgn = temp("rerun.5dpgn");
    let _ = std::fs::remove_file(&pgn);
    let mut c = config(fake("random"), fake("random"), 2);
    c.openings = vec![Opening::variant("Very Small").unwrap()];
    c.max_actions = 6;
    c.pgn = Some(pgn.clone());
    let mut warnings = Vec::new();
    let run = |warnings: &mut Vec<String>| {
        run_match_with_events(&c, &mut |e| {
            if let Event::Warning(w) = e {
                warnings.push(w.clone());
            }
            std::ops::ControlFlow::Continue(())
        })
        .unwrap()
    };
    run(&mut warnings);
    assert!(warnings.is_empty(), "{warnings:?}");
    run(&mut warnings);
    let expected = format!(
        "{} is not empty: this match's games are appended after the games it holds",
        pgn.display()
    );
    assert_eq!(warnings, [expected]);
    // Nothing is lost: both runs' games are in the file.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games_of(&text).len(), 4);
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn a_listener_can_stop_the_match() {
    // As `chess5d match | head` does when the pipe closes: no new game starts.
    let mut c = config(fake("random"), fake("random"), 8);
    c.concurrency = 1;
    let r = run_match_with_events(&c, &mut |e| match e {
        Event::Finished(_) => std::ops::ControlFlow::Break(()),
        _ => std::ops::ControlFlow::Continue(()),
    })
    .unwrap();
    // The game under way when the first one ended may finish; no other.
    assert!((1..=2).contains(&r.games.len()), "{}", r.games.len());
}
