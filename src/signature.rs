//! `chess5d bench --signature`: the engine's bench signature, as Stockfish's `bench` has one.
//! A fixed-depth search of a fixed set of positions from several variants, each with a fresh
//! engine (empty transposition table, fixed seed), so that the total node count depends only
//! on what the search does: a change that alters the search changes the number, and a change
//! meant to keep the search as it was (speed work, a refactoring) must keep it. Note it in the
//! message of every commit that changes the search, and in `crates/engine/LADDER.md`.

use anyhow::{anyhow, Result};
use chess5d_engine::{Bot, Engine, EngineOptions, Limits};
use chess5d_rules::Position;
use std::time::Instant;

/// The positions: a name, the game (5DPGN; its final position is searched) and the depth.
const POSITIONS: &[(&str, &str, u32)] = &[
    ("Standard, start", "[Board \"Standard\"]\n", 5),
    (
        "Standard, open game",
        "[Board \"Standard\"]\n\n1. e4 / e5\n2. Nf3 / Nc6\n3. Bc4 / Nf6\n",
        5,
    ),
    (
        "Standard, scholar's threat",
        "[Board \"Standard\"]\n\n1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n",
        4,
    ),
    (
        "Standard - Two Timelines, start",
        "[Board \"Standard - Two Timelines\"]\n",
        3,
    ),
    ("Standard - Princess, start", "[Board \"Standard - Princess\"]\n", 4),
    ("Simple - No Bishops, start", "[Board \"Simple - No Bishops\"]\n", 5),
    ("Small, start", "[Board \"Small\"]\n", 6),
    ("Very Small, start", "[Board \"Very Small\"]\n", 6),
    (
        "Focused - Just Knights, start",
        "[Board \"Focused - Just Knights\"]\n",
        6,
    ),
    (
        "Misc - Royal Queen Showdown, start",
        "[Board \"Misc - Royal Queen Showdown\"]\n",
        5,
    ),
    // The game of issue 20, three actions before a mate across timelines that our engine missed.
    (
        "Misc - Timeline Invasion, mid-game",
        "[Mode \"5D\"]\n[Board \"Misc - Timeline Invasion\"]\n[Size \"5x5\"]\n\n\
1. (+0T1)e2(-0T1)e2 / (+0T1)c5(+0T1)c4 (-0T1)b4(-0T1)b2\n\
2. (-0T2)a1(-0T2)b2 (+0T2)a1(+0T2)b3 / (+0T2)c4(+0T2)b3 (-0T2)a5(-0T1)a3\n\
3. (-1T2)b1(-1T2)b2 / (-1T2)a3(-1T2)b1\n\
4. (-1T3)a1(-1T3)a3 (+0T3)c1(-0T3)c2 / (-1T3)b1(-1T3)a3 (+0T3)b3(+0T3)a2 (-0T3)b5(-0T2)b4\n",
        4,
    ),
    (
        "Standard, 13 timelines",
        include_str!("../crates/notation/tests/data/corpus/tools-v2/standard-nonmate.5dpgn"),
        2,
    ),
    (
        "Standard, 8 timelines, mate",
        include_str!("../crates/notation/tests/data/corpus/tools-v2/standard-checkmate.alexbay"),
        2,
    ),
];

fn position(text: &str) -> Result<Position> {
    let g = chess5d_notation::load(text).map_err(|e| anyhow!("{e}"))?;
    Ok(g.game.position().clone())
}

/// One position's search: nodes and the action found (in the long form), deterministic.
pub fn search(pos: &Position, depth: u32) -> (u64, String) {
    let mut engine = Engine::new(EngineOptions {
        bot: Bot::AlphaBeta,
        hash_mb: 16,
        seed: 1,
        ..EngineOptions::default()
    });
    let r = engine.search(pos, &Limits::depth(depth), &mut |_| {});
    let best = r.best.map_or_else(
        || "(none)".to_string(),
        |a| a.iter().map(|m| m.long(pos.even())).collect::<Vec<_>>().join(" "),
    );
    (r.nodes, best)
}

/// Prints one line per position, then the time, the speed and, last, the signature.
pub fn run(depth_offset: i32) -> Result<u64> {
    let t0 = Instant::now();
    let mut total = 0u64;
    for (name, text, depth) in POSITIONS {
        let pos = position(text).map_err(|e| anyhow!("bench position '{name}': {e}"))?;
        let depth = (*depth as i32 + depth_offset).max(1) as u32;
        let t = Instant::now();
        let (nodes, best) = search(&pos, depth);
        total += nodes;
        println!(
            "{name:<38} depth {depth}  nodes {nodes:>10}  {:>7.0} ms  {best}",
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    let secs = t0.elapsed().as_secs_f64();
    println!("===========================");
    println!("Total time (ms) : {:.0}", secs * 1e3);
    println!("Nodes/second    : {:.0}", total as f64 / secs.max(1e-9));
    println!("Nodes searched  : {total}");
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_loads_and_the_search_is_deterministic() {
        for (name, text, _) in POSITIONS {
            position(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let pos = position(POSITIONS[1].1).unwrap();
        assert_eq!(search(&pos, 2), search(&pos, 2));
    }
}
