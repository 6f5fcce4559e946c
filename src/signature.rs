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
    Ok(g.game().position().clone())
}

/// One position's search: nodes and the action found (in the long form), deterministic.
pub fn search(pos: &Position, depth: u32) -> (u64, String) {
    search_with(pos, depth, 1)
}

/// A fresh engine of the bench (empty table, fixed seed) with `threads` search threads.
fn engine(threads: usize) -> Engine {
    Engine::new(EngineOptions {
        bot: Bot::AlphaBeta,
        hash_mb: 16,
        seed: 1,
        threads,
        ..EngineOptions::default()
    })
}

/// As [`search`], with `threads` search threads (deterministic only with one).
fn search_with(pos: &Position, depth: u32, threads: usize) -> (u64, String) {
    let r = engine(threads).search(pos, &Limits::depth(depth), &mut |_| {});
    let best = r.best.map_or_else(
        || "(none)".to_string(),
        |a| a.iter().map(|m| m.long(pos.even())).collect::<Vec<_>>().join(" "),
    );
    (r.nodes, best)
}

/// The bench's positions, read: each with its name and its signature depth.
fn positions() -> Result<Vec<(&'static str, Position, u32)>> {
    POSITIONS
        .iter()
        .map(|&(name, text, depth)| {
            let pos = position(text).map_err(|e| anyhow!("bench position '{name}': {e}"))?;
            Ok((name, pos, depth))
        })
        .collect()
}

/// Prints one line per position, then the time, the speed and, last, the signature.
pub fn run(depth_offset: i32) -> Result<u64> {
    let t0 = Instant::now();
    let mut total = 0u64;
    for (name, pos, depth) in positions()? {
        let depth = (depth as i32 + depth_offset).max(1) as u32;
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

/// The time of a search in `bench --threads`' second table.
const MOVETIME_MS: u64 = 200;

/// A search of [`MOVETIME_MS`] with `threads` threads: the depth it finished and its node rate
/// (a search may end early, on a mate or a single legal action).
fn search_for(pos: &Position, threads: usize) -> (u32, u64) {
    let start = Instant::now();
    let r = engine(threads).search(
        pos,
        &Limits::movetime(std::time::Duration::from_millis(MOVETIME_MS)),
        &mut |_| {},
    );
    (
        r.depth,
        (r.nodes as f64 / start.elapsed().as_secs_f64().max(1e-6)) as u64,
    )
}

/// The median of three runs of `run`, ordered by `cmp`.
fn median_of_three<T>(mut run: impl FnMut() -> T, cmp: impl Fn(&T, &T) -> std::cmp::Ordering) -> T {
    let mut runs: Vec<T> = (0..3).map(|_| run()).collect();
    runs.sort_by(cmp);
    runs.swap_remove(1)
}

/// `bench --threads N`: each position searched to its depth plus `depth_offset` with one thread,
/// then with `threads`; prints the time to depth and the node rates, and their ratios (the
/// speedup a parallel search gives at the same depth; its helpers also search ahead, which only
/// games measure). Each search runs three times and the median time counts.
pub fn threads(threads: usize, depth_offset: i32) -> Result<()> {
    let positions = positions()?;
    println!(
        "{:<38} {:>5}  {:>9} {:>9}  {:>9} {:>9}  {:>7} {:>7}",
        "position",
        "depth",
        "1t ms",
        "1t kn/s",
        format!("{threads}t ms"),
        format!("{threads}t kn/s"),
        "speedup",
        "nps x"
    );
    let (mut sum1, mut sum_n, mut nodes1, mut nodes_n) = (0.0, 0.0, 0u64, 0u64);
    let mut speedups = Vec::new();
    for (name, pos, depth) in &positions {
        let depth = (*depth as i32 + depth_offset).max(1) as u32;
        let timed = |t: usize| {
            median_of_three(
                || {
                    let start = Instant::now();
                    let (nodes, _) = search_with(pos, depth, t);
                    (start.elapsed().as_secs_f64(), nodes)
                },
                |a, b| a.0.total_cmp(&b.0),
            )
        };
        let (t1, n1) = timed(1);
        let (tn, nn) = timed(threads);
        let (r1, rn) = (n1 as f64 / t1.max(1e-9), nn as f64 / tn.max(1e-9));
        println!(
            "{name:<38} {depth:>5}  {:>9.0} {:>9.0}  {:>9.0} {:>9.0}  {:>7.2} {:>7.2}",
            t1 * 1e3,
            r1 / 1e3,
            tn * 1e3,
            rn / 1e3,
            t1 / tn.max(1e-9),
            rn / r1.max(1e-9)
        );
        sum1 += t1;
        sum_n += tn;
        nodes1 += n1;
        nodes_n += nn;
        speedups.push(t1 / tn.max(1e-9));
    }
    let geo = (speedups.iter().map(|s| s.ln()).sum::<f64>() / speedups.len() as f64).exp();
    println!("===========================");
    println!(
        "Time to depth, all positions: {:.0} ms with 1 thread, {:.0} ms with {threads}",
        sum1 * 1e3,
        sum_n * 1e3
    );
    println!("Speedup (total time)        : {:.2}", sum1 / sum_n.max(1e-9));
    println!("Speedup (geometric mean)    : {geo:.2}");
    println!(
        "Nodes per second            : {:.2} times one thread's",
        (nodes_n as f64 / sum_n.max(1e-9)) / (nodes1 as f64 / sum1.max(1e-9))
    );
    // At a fixed time (a fast game's action), the depth each reaches and its node rate.
    println!("\nAt {MOVETIME_MS} ms per search (median of three): depth reached, nodes per second");
    let (mut d1, mut dn, mut k1, mut kn) = (0u32, 0u32, 0u64, 0u64);
    for (name, pos, _) in &positions {
        let timed = |t: usize| median_of_three(|| search_for(pos, t), Ord::cmp);
        let ((a, n1), (b, nn)) = (timed(1), timed(threads));
        println!(
            "{name:<38} depth {a:>2} -> {b:>2}   {:>7.0} -> {:>7.0} kn/s",
            n1 as f64 / 1e3,
            nn as f64 / 1e3
        );
        (d1, dn, k1, kn) = (d1 + a, dn + b, k1 + n1, kn + nn);
    }
    println!(
        "all positions: depth {d1} -> {dn} (sum), node rate x {:.2} (sum of rates)",
        kn as f64 / k1.max(1) as f64
    );
    Ok(())
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
