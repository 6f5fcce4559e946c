//! Games between fake and real engines: adjudication, failures, colours.

use crate::*;

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
fn unpaired_games_each_have_their_opening_and_count_as_games() {
    let mut c = config(fake("random"), fake("random"), 3);
    c.engines[0].name = String::new();
    c.paired = false;
    c.openings = ["Very Small", "Small", "Standard"]
        .iter()
        .map(|v| Opening::variant(v).unwrap())
        .collect();
    let r = run_match(&c, &mut |_| {}).unwrap();
    // Without --name, the engine's `id name`.
    assert_eq!(r.names[0], "fake-random");
    assert_eq!(r.trinomial.games(), 3);
    assert_eq!(r.pentanomial.pairs(), 0);
    let mut boards: Vec<(usize, String)> = r.games.iter().map(|g| (g.round, g.opening.board.clone())).collect();
    boards.sort();
    assert_eq!(
        boards,
        vec![(1, "Very Small".into()), (2, "Small".into()), (3, "Standard".into())]
    );
    assert!(!r.paired);
}
