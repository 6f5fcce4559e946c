//! A match against an engine that speaks the 5DUCI draft alone: the fake of the draft's own
//! engine (`match_draft_engine`, built from the protocol crate's `examples/draft_engine.rs`),
//! which aborts on `position variant`, ignores clock arguments and overshoots its `movetime`.
//! Standard, Standard - Turn Zero (the draft's `startpos`) and a 5x5 variant, with a clock: no
//! game may end by an engine failure or a time loss, and every game reads back.

use super::*;
use chess5d_rules::Position;

fn draft_engine() -> EngineSpec {
    spec(
        "draft",
        format!("{} --overshoot-ms 150 --seed 7", example("match_draft_engine")),
    )
}

#[test]
fn a_clock_match_against_the_draft_engine_has_no_failure() {
    let pgn = temp("draft.5dpgn");
    let openings = ["Standard", "Standard - Turn Zero", "Small"];
    let c = MatchConfig {
        engines: [ours(&[("Hash", "4")]), draft_engine()],
        games: openings.len() * 2,
        openings: openings.iter().map(|v| Opening::variant(v).unwrap()).collect(),
        tc: TimeControl::Clock {
            base: Duration::from_secs(4),
            inc: Duration::from_millis(100),
        },
        concurrency: 2,
        max_actions: 16,
        pgn: Some(pgn.clone()),
        margin: Duration::from_secs(1),
        ..MatchConfig::default()
    };
    let r = run_match(&c, &mut |_| {}).unwrap();
    // Only the rules or the action limit end a game: no crash, illegal action or time loss.
    let ends = ["checkmate", "stalemate", "adjudicated: 16 actions"];
    let failures: Vec<String> = r
        .games
        .iter()
        .filter(|g| !ends.contains(&g.termination.as_str()) || g.actions.is_empty())
        .map(|g| format!("{} (game {}): {}", g.opening.board, g.round, g.termination))
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
    let played: std::collections::BTreeSet<&str> = r.games.iter().map(|g| g.opening.board.as_str()).collect();
    assert_eq!(played, openings.into_iter().collect());
    assert_eq!(r.games.len(), c.games);

    // Every game reads back, as written to the file and one by one, to the position its
    // actions reach.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), c.games);
    for g in &r.games {
        let one = g.to_5dpgn(&c, "2026.01.01");
        assert!(text.contains(&format!("[Round \"{}\"]", g.round)));
        let loaded = chess5d_notation::load(&one).unwrap_or_else(|e| panic!("game {}: {e}\n{one}", g.round));
        let mut pos: Position = g.opening.start.position().unwrap();
        for a in &g.actions {
            for m in a {
                pos.play(m).unwrap();
            }
            pos.submit().unwrap();
        }
        assert_eq!(loaded.game().position().hash(), pos.hash(), "game {}\n{one}", g.round);
    }
    let _ = std::fs::remove_file(pgn);
}
