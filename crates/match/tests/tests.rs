//! Match runner tests: real games between fake and real engines, adjudication, 5DPGN output,
//! statistics and the command line.

use chess5d_match::*;
use std::path::PathBuf;
use std::time::Duration;

fn example(name: &str) -> String {
    let mut p: PathBuf = std::env::current_exe().unwrap();
    p.pop();
    if p.ends_with("deps") {
        p.pop();
    }
    p.join("examples").join(name).display().to_string()
}

fn spec(name: &str, command: String) -> EngineSpec {
    EngineSpec {
        name: name.into(),
        command,
        options: vec![],
    }
}

fn fake(mode: &str) -> EngineSpec {
    spec(
        &format!("fake-{mode}"),
        format!("{} {mode}", example("match_fake_engine")),
    )
}

/// Our engine (the `match_engine` example) with these options.
fn ours(options: &[(&str, &str)]) -> EngineSpec {
    let mut spec = spec("chess5d", example("match_engine"));
    spec.options = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    spec
}

fn config(a: EngineSpec, b: EngineSpec, games: usize) -> MatchConfig {
    MatchConfig {
        engines: [a, b],
        games,
        openings: vec![Opening::variant("Very Small").unwrap()],
        tc: TimeControl::MoveTime(Duration::from_millis(30)),
        concurrency: 2,
        max_actions: 16,
        margin: Duration::from_millis(1500),
        ..MatchConfig::default()
    }
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("chess5d-match-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn random_engines_play_all_games_and_write_5dpgn() {
    let pgn = temp("random.5dpgn");
    let mut c = config(fake("random"), fake("random"), 4);
    c.openings = Opening::read_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.txt")).unwrap();
    c.pgn = Some(pgn.clone());
    let mut lines = Vec::new();
    let r = run_match(&c, &mut |p| lines.push(p.line())).unwrap();
    assert_eq!(r.wins + r.draws + r.losses, 4);
    assert_eq!(lines.len(), 4);
    for g in &r.games {
        assert!(!g.termination.contains("fake-random ("), "{}", g.termination);
        assert!(!g.actions.is_empty());
    }
    // Colours alternate on each opening pair.
    let mut whites: Vec<(usize, usize)> = r.games.iter().map(|g| (g.round, g.white)).collect();
    whites.sort();
    assert_eq!(whites, vec![(1, 0), (2, 1), (3, 0), (4, 1)]);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 4);
    for h in [
        "[White \"fake-random\"]",
        "[Termination ",
        "[Board \"Very Small\"]",
        "[Board \"custom\"]",
        "[Round \"4\"]",
        "[Date ",
    ] {
        assert!(text.contains(h), "{h} missing in\n{text}");
    }
    assert!(text.contains("[k4/ppp2/5/2PPP/4K:0:1:w]"));
    assert!(text.contains("1. (0T1)"));
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn misbehaving_engines_lose_with_the_reason_and_the_match_goes_on() {
    for (mode, needle) in [
        ("crash:2", "crashed (exit code 3)"),
        ("illegal:2", "illegal move '(0T1)a1(0T1)h8'"),
        ("garbage", "unparsable answer"),
        ("hang:2", "lost on time"),
        ("nobest", "nobestmove"),
    ] {
        let r = run_match(&config(fake(mode), fake("random"), 2), &mut |_| {}).unwrap();
        assert_eq!(r.games.len(), 2, "{mode}");
        for g in &r.games {
            // The faulty engine loses unless the game ended before its fault showed.
            if g.termination.contains("fake-") {
                assert!(g.termination.contains(needle), "{mode}: {}", g.termination);
                assert_eq!(g.score_of_first(), 0.0, "{mode}: {}", g.termination);
            }
        }
        assert!(
            r.games.iter().any(|g| g.termination.contains(needle)),
            "{mode}: {:?}",
            r.games.iter().map(|g| &g.termination).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_missing_engine_loses_every_game() {
    let r = run_match(
        &config(spec("nothing", "exec /nonexistent/x".into()), fake("random"), 2),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((r.wins, r.draws, r.losses), (0, 0, 2));
    assert!(r.games[0].termination.contains("failed to start"));
}

#[test]
fn our_engine_beats_random_without_failures() {
    let mut c = config(ours(&[("Hash", "4")]), fake("random"), 2);
    c.openings = vec![Opening::variant("Small").unwrap()];
    c.max_actions = 40;
    c.margin = Duration::from_secs(2);
    c.tc = TimeControl::MoveTime(Duration::from_millis(60));
    let r = run_match(&c, &mut |_| {}).unwrap();
    for g in &r.games {
        assert!(!g.termination.contains("chess5d ("), "{}", g.termination);
    }
    assert!(
        r.losses == 0,
        "{r}: {:?}",
        r.games.iter().map(|g| &g.termination).collect::<Vec<_>>()
    );
}

/// A small version of the multi-variant run: one game per official variant between our engine
/// (a fixed number of nodes per action, so the games hardly depend on the machine's speed) and
/// our random bot. No game may end by a time loss, an illegal action, a wrong `nobestmove` or
/// any other engine failure.
#[test]
fn every_official_variant_is_played_without_engine_failures() {
    // The random bot is seeded, so that a failure can be replayed.
    let mut random = spec("random", format!("{} --bot random", example("match_engine")));
    random.options = vec![("Seed".into(), "1".into())];
    // Each variant is played twice, once with each colour.
    let mut c = config(ours(&[("Hash", "2")]), random, chess5d_rules::VARIANTS.len() * 2);
    c.openings = chess5d_rules::VARIANTS
        .iter()
        .map(|v| Opening::variant(v.name).unwrap())
        .collect();
    c.tc = TimeControl::Nodes(60);
    c.max_actions = 10;
    c.margin = Duration::from_secs(5);
    let r = run_match(&c, &mut |_| {}).unwrap();
    assert_eq!(r.games.len(), c.games);
    let mut boards = std::collections::HashSet::new();
    for g in &r.games {
        boards.insert(g.opening.board.clone());
        let t = &g.termination;
        assert!(
            t == "checkmate" || t == "stalemate" || t == "adjudicated: 10 actions",
            "{}: {t}",
            g.opening.board
        );
    }
    assert_eq!(boards.len(), chess5d_rules::VARIANTS.len());
}

#[test]
fn statistics() {
    assert_eq!(elo(0, 0, 0), None);
    assert_eq!(elo(3, 0, 0), None);
    let (e, m) = elo(10, 10, 10).unwrap();
    assert!(e.abs() < 1e-9 && m > 50.0 && m < 200.0, "{e} {m}");
    let (e, _) = elo(75, 0, 25).unwrap();
    assert!((e - 190.85).abs() < 0.1, "{e}");
    // The LLR grows with evidence for H1 and falls with evidence for H0.
    assert!(sprt_llr(120, 60, 60, 0.0, 20.0) > 2.94);
    assert!(sprt_llr(60, 60, 120, 0.0, 20.0) < -2.94);
    let s = Sprt {
        elo0: 0.0,
        elo1: 20.0,
        alpha: 0.05,
        beta: 0.05,
    };
    // One-sided results still decide.
    assert!(sprt_llr(10, 0, 0, 0.0, 20.0) > 2.94);
    assert!(sprt_llr(0, 40, 0, 0.0, 20.0) < -2.94);
    let (lo, hi) = s.bounds();
    assert!((lo + 2.944).abs() < 0.01 && (hi - 2.944).abs() < 0.01);
}

#[test]
fn sprt_stops_the_match_early() {
    // Our engine against one that always plays an illegal move: H1 is accepted quickly.
    let mut c = config(fake("random"), fake("illegal:3"), 60);
    c.max_actions = 8;
    c.margin = Duration::from_secs(2);
    c.sprt = Some(Sprt {
        elo0: -400.0,
        elo1: 0.0,
        alpha: 0.1,
        beta: 0.1,
    });
    let r = run_match(&c, &mut |_| {}).unwrap();
    assert!(r.games.len() < 60, "{}", r.games.len());
    assert!(matches!(r.sprt, Some(SprtStatus::H1(_))), "{r}");
}

#[test]
fn command_line() {
    let args: Vec<String> = "--engine a --name A --option Hash=8 --engine b --games 6 --tc 5+0.05 --concurrency 3 --variant Small --max-actions 50 --sprt 0 10 0.05 0.05 --quiet"
        .split(' ')
        .map(String::from)
        .collect();
    let (c, quiet) = parse_match_args(&args).unwrap();
    assert!(quiet);
    assert_eq!(c.engines[0].name, "A");
    assert_eq!(c.engines[0].options, vec![("Hash".to_string(), "8".to_string())]);
    assert_eq!(c.engines[1].command, "b");
    assert_eq!(c.games, 6);
    assert_eq!(
        c.tc,
        TimeControl::Clock {
            base: Duration::from_secs(5),
            inc: Duration::from_millis(50)
        }
    );
    assert_eq!(c.openings[0].board, "Small");
    assert!(c.sprt.is_some());
    assert!(parse_match_args(&["--engine".into(), "a".into()]).is_err());
    assert!(cli_main(&["bogus".into()]).is_err());
}

mod draft_engine;
