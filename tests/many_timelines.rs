//! The many-timeline suite (`tests/data/many-timelines.5dpgn`): every position with 20 or more
//! timelines of seeded engine-vs-random games over all variants is decided within the default
//! budget: never "unknown". The file is made by the engine crate's `many_timelines` example (its
//! first lines give the command).

use crate::corpus::independently_legal;
use chess5d_notation::Games;
use chess5d_rules::{Budget, Position};

const SUITE: &str = include_str!("data/many-timelines.5dpgn");

/// The positions of the suite: those with at least 20 timelines, after each action.
fn positions() -> Vec<(usize, usize, Position)> {
    let mut out = Vec::new();
    for text in Games::new(SUITE.as_bytes()) {
        let text = text.unwrap_or_else(|e| panic!("{e}"));
        let loaded = text.load().unwrap_or_else(|e| panic!("game {}: {e}", text.number));
        let mut pos = loaded.game().start().clone();
        for (ply, action) in loaded.game().actions().iter().enumerate() {
            for m in &action.moves {
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
            if pos.timeline_count() >= 20 {
                out.push((text.number, ply + 1, pos.clone()));
            }
        }
    }
    out
}

#[test]
fn every_many_timeline_position_is_decided() {
    let positions = positions();
    assert_eq!(positions.len(), 2000);
    let (mut worst, mut worst_at) = (0, (0, 0));
    let mut verdicts = std::collections::BTreeMap::new();
    for (game, ply, pos) in &positions {
        let mut search = pos.legal_actions(Budget::DEFAULT);
        let first = search.next();
        assert!(
            !search.exhausted(),
            "game {game} ply {ply}: unknown after {} tests",
            search.tests()
        );
        if search.tests() > worst {
            (worst, worst_at) = (search.tests(), (*game, *ply));
        }
        let verdict = match first {
            Some(action) => {
                independently_legal(pos, &action).unwrap_or_else(|e| panic!("game {game} ply {ply}: {e}"));
                "ongoing"
            }
            None if pos.in_check() => "checkmate",
            None => "stalemate",
        };
        *verdicts.entry(verdict).or_insert(0) += 1;
    }
    // Far below the default budget: a change that makes some position much harder shows here.
    assert!(
        worst <= 2_000,
        "game {} ply {}: {worst} candidate tests",
        worst_at.0,
        worst_at.1
    );
    assert!(verdicts.len() >= 2, "{verdicts:?}");
}
