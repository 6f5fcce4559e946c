//! `chess5d bench`: fixed workloads with their medians, so that speed can be compared between
//! builds in one run on one machine (ratios, not absolute times, are what to compare).

use anyhow::Result;
use chess5d_rules::{Budget, Position};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Corpus games used as hard positions (many timelines, checks, mates), embedded at build time.
const HARD: &[(&str, &str)] = &[
    (
        "standard-checkmate (8 timelines, mate)",
        include_str!("../crates/notation/tests/data/corpus/tools-v2/standard-checkmate.alexbay"),
    ),
    (
        "reflected: standard-checkmate-3 (mate)",
        include_str!("../crates/notation/tests/data/corpus/tools-v2/standard-checkmate-3.alexbay"),
    ),
    (
        "dead-timeline-2 (9 timelines)",
        include_str!("../crates/notation/tests/data/corpus/tools-v2/dead-timeline-2.5dpgn"),
    ),
    (
        "standard-nonmate (13 timelines)",
        include_str!("../crates/notation/tests/data/corpus/tools-v2/standard-nonmate.5dpgn"),
    ),
    (
        "standard-nonmate-2 (14 timelines)",
        include_str!("../crates/notation/tests/data/corpus/tools-v2/standard-nonmate-2.5dpgn"),
    ),
    (
        "standard-stalemate (stalemate)",
        include_str!("../crates/notation/tests/data/corpus/tools-v2/standard-stalemate.5dpgn"),
    ),
    (
        "inc_timelines/13",
        include_str!("../crates/notation/tests/data/corpus/tools-v2/inc_timelines/13.alexbay"),
    ),
    (
        "engine vs random (34 timelines, in check)",
        include_str!("../tests/data/hard-random-game-34-timelines.5dpgn"),
    ),
];

/// Final or hard positions of engine matches over all variants (`tests/data/hard-match-games`),
/// with many timelines and checks: candidate tests and time for a first action.
const MATCH_POSITIONS: &[(&str, &str)] = &[
    (
        "match 312 (26 timelines)",
        include_str!("../tests/data/hard-match-games/match-game-312.5dpgn"),
    ),
    (
        "match 359 (17 timelines, mate)",
        include_str!("../tests/data/hard-match-games/match-game-359.5dpgn"),
    ),
    (
        "match 514 (32 timelines)",
        include_str!("../tests/data/hard-match-games/match-game-514.5dpgn"),
    ),
    (
        "match 786 (64 timelines)",
        include_str!("../tests/data/hard-match-games/match-game-786.5dpgn"),
    ),
    (
        "match 994 (32 timelines)",
        include_str!("../tests/data/hard-match-games/match-game-994.5dpgn"),
    ),
    (
        "match 482 ply 49 (37 timelines)",
        include_str!("../tests/data/hard-match-games/match-game-482-ply-49.5dpgn"),
    ),
    (
        "match 441 ply 19 (15 timelines)",
        include_str!("../tests/data/hard-match-games/match-game-441-ply-19.5dpgn"),
    ),
    (
        "match v3-76 ply 72 (52 timelines)",
        include_str!("../tests/data/hard-match-games/match-game-v3-76-ply-72.5dpgn"),
    ),
    (
        "match v6-13 (44 timelines)",
        include_str!("../tests/data/hard-match-games/match-game-v6-13.5dpgn"),
    ),
];

/// The many-timeline suite: 2000 positions with 20 or more timelines from seeded engine-vs-random
/// games over all variants (`tests/data/many-timelines.5dpgn`, one game per `[Board` header).
const MANY_TIMELINES: &str = include_str!("../tests/data/many-timelines.5dpgn");

/// A middle-game board: the Kiwipete position (unmoved flags as its FEN implies).
const MIDDLE_GAME: &str = "[Board \"custom\"]\n[Size \"8x8\"]\n[r*3k*2r*/p*1p*p*qp*b1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P*P*P*BBP*P*P*/R*3K*2R*:0:1:w]\n";

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time<F: FnMut()>(runs: usize, mut f: F) -> (Duration, Duration) {
    let samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    let max = *samples.iter().max().unwrap();
    (median(samples), max)
}

fn load(text: &str) -> Result<Position> {
    let g = chess5d_notation::load(text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut p = g.game().position().clone();
    p.undo_action_moves();
    Ok(p)
}

pub fn run(args: &crate::cli::BenchArgs) -> Result<()> {
    let quick = args.quick;
    // `--big N`: only the 100-timeline workload, counting N actions (for profiling).
    if let Some(cap) = args.big {
        let big = big_multiverse(100, 50)?;
        let t = Instant::now();
        let n = big.count_actions(cap, Budget::DEFAULT);
        println!("counted {} actions in {:.3} s", n.value(), t.elapsed().as_secs_f64());
        return Ok(());
    }
    if args.signature {
        crate::signature::run(args.depth_offset.unwrap_or(0))?;
        return Ok(());
    }
    if let Some(threads) = args.threads {
        return crate::signature::threads(threads as usize, args.depth_offset.unwrap_or(1));
    }
    let reps = if quick { 3 } else { 9 };
    println!(
        "chess5d bench ({} runs per figure, median; max where it matters)\n",
        reps
    );

    // Per-board move generation.
    for (name, pos) in [
        ("standard start", Position::standard()),
        ("middle game (Kiwipete)", load(MIDDLE_GAME)?),
    ] {
        let board = pos.playable_boards()[0];
        let mut out = Vec::with_capacity(256);
        let per_call = {
            pos.moves_from(board, &mut out);
            out.len()
        };
        let calls = if quick { 200_000 } else { 1_000_000 };
        let (m, _) = time(reps, || {
            for _ in 0..calls {
                out.clear();
                pos.moves_from(black_box(board), &mut out);
                black_box(&out);
            }
        });
        let rate = (per_call * calls) as f64 / m.as_secs_f64() / 1e6;
        println!("movegen  {name:<28} {per_call:>3} moves/board  {rate:>7.1} M moves/s");
    }

    // Check detection.
    let mut hard = Vec::new();
    for (name, text) in HARD {
        hard.push((*name, load(text)?));
    }
    let calls = if quick { 2_000 } else { 10_000 };
    for (name, pos) in hard.iter().take(3) {
        let (m, _) = time(reps, || {
            for _ in 0..calls {
                black_box(black_box(pos).in_check());
            }
        });
        println!("in_check {name:<40} {:>8.2} us", m.as_secs_f64() * 1e6 / calls as f64);
    }

    // Outcomes of hard positions and of every position of those games.
    println!();
    for (name, pos) in &hard {
        let (m, max) = time(reps, || {
            black_box(pos.outcome(Budget::DEFAULT));
        });
        println!(
            "outcome  {name:<40} {:>9.3} ms (max {:.3} ms) {}",
            m.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3,
            pos.outcome(Budget::DEFAULT).name()
        );
    }
    let mut all = Vec::new();
    for (_, text) in HARD {
        let g = chess5d_notation::load(text).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut p = g.game().start().clone();
        all.push(p.clone());
        for a in g.game().actions() {
            for m in &a.moves {
                p.play_unchecked(m);
            }
            p.submit_unchecked();
            all.push(p.clone());
        }
    }
    let times: Vec<Duration> = all
        .iter()
        .map(|p| {
            let t = Instant::now();
            black_box(p.outcome(Budget::DEFAULT));
            t.elapsed()
        })
        .collect();
    let max = *times.iter().max().unwrap();
    println!(
        "outcome  every position of those games ({} positions): median {:.3} ms, max {:.3} ms",
        times.len(),
        median(times).as_secs_f64() * 1e3,
        max.as_secs_f64() * 1e3
    );

    // Counting legal actions with a cap.
    let cap = 1000;
    let times: Vec<Duration> = all
        .iter()
        .map(|p| {
            let t = Instant::now();
            black_box(p.count_actions(cap, Budget::DEFAULT));
            t.elapsed()
        })
        .collect();
    let total: Duration = times.iter().sum();
    let max = *times.iter().max().unwrap();
    println!(
        "count    up to {cap} actions, same positions: median {:.3} ms, max {:.1} ms, total {:.2} s",
        median(times).as_secs_f64() * 1e3,
        max.as_secs_f64() * 1e3,
        total.as_secs_f64()
    );

    // Hard match positions: the work for a first action, within 100,000 candidate tests.
    println!();
    for (name, text) in MATCH_POSITIONS {
        let pos = load(text)?;
        let t = Instant::now();
        let mut search = pos.legal_actions(Budget::tests(100_000));
        let verdict = match search.next() {
            Some(_) => "ongoing",
            None if search.exhausted() => "unknown",
            None if pos.in_check() => "checkmate",
            None => "stalemate",
        };
        println!(
            "first    {name:<40} {:>9.3} ms {:>7} tests  {verdict}",
            t.elapsed().as_secs_f64() * 1e3,
            search.tests()
        );
    }

    many_timelines()?;

    // Memory: a multiverse of 100 timelines of 50 turns (10,000 boards) while searching.
    let big = big_multiverse(100, 50)?;
    let before = peak_rss_kib();
    let t = Instant::now();
    let outcome = big.outcome(Budget::DEFAULT);
    let outcome_time = t.elapsed();
    let counted = big.count_actions(1000, Budget::DEFAULT);
    println!(
        "memory   outcome of the big multiverse alone: {:.3} s",
        outcome_time.as_secs_f64()
    );
    println!(
        "\nmemory   {} timelines x {} boards: outcome {} + {} actions counted in {:.2} s; peak RSS {} MiB (before search {} MiB)",
        big.timeline_count(),
        big.boards().count() / big.timeline_count(),
        outcome.name(),
        counted.value(),
        t.elapsed().as_secs_f64(),
        peak_rss_kib() / 1024,
        before / 1024
    );

    // Engine search speed: fixed-depth searches (the same work on every run), in nodes and
    // generated legal actions per second.
    println!();
    let engine_positions = [
        ("standard start, depth 4", Position::standard(), 4),
        ("middle game (Kiwipete), depth 3", load(MIDDLE_GAME)?, 3),
        ("standard-nonmate (13 timelines), depth 1", hard[3].1.clone(), 1),
    ];
    for (name, pos, depth) in engine_positions {
        let mut runs = Vec::new();
        let (m, _) = time(reps.min(5), || {
            let mut engine = chess5d_engine::Engine::default();
            let r = engine.search(&pos, &chess5d_engine::Limits::depth(depth), &mut |_| {});
            runs.push((r.nodes, r.actions));
        });
        let (nodes, actions) = runs[0];
        let secs = m.as_secs_f64().max(1e-9);
        println!(
            "engine   {name:<42} {nodes:>7} nodes {:>9.0} nodes/s {:>9.0} actions/s ({:.1} ms)",
            nodes as f64 / secs,
            actions as f64 / secs,
            secs * 1e3
        );
    }

    // Perft from the standard start.
    println!();
    let start = Position::standard();
    for depth in 1..=4 {
        let t = Instant::now();
        let n = start.perft(depth, Budget::UNLIMITED).unwrap_or(0);
        println!(
            "perft({depth}) standard start = {n:>8}  {:.3} s (orderings)",
            t.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// The work for a first action (or the proof there is none) in every position of the
/// many-timeline suite: the worst case in candidate tests and in time.
fn many_timelines() -> Result<()> {
    let body: String = MANY_TIMELINES
        .lines()
        .filter(|l| !l.starts_with('%'))
        .map(|l| format!("{l}\n"))
        .collect();
    let (mut count, mut unknown, mut total) = (0, 0, Duration::ZERO);
    let (mut worst_tests, mut worst_time) = ((0, String::new()), (Duration::ZERO, String::new()));
    for (g, text) in body.split("[Board ").filter(|t| !t.trim().is_empty()).enumerate() {
        let game =
            chess5d_notation::load(&format!("[Board {text}")).map_err(|e| anyhow::anyhow!("game {}: {e}", g + 1))?;
        let mut pos = game.game().start().clone();
        for (ply, action) in game.game().actions().iter().enumerate() {
            for m in &action.moves {
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
            if pos.timeline_count() < 20 {
                continue;
            }
            let t = Instant::now();
            let mut search = pos.legal_actions(Budget::DEFAULT);
            let found = search.next().is_some();
            let took = t.elapsed();
            count += 1;
            total += took;
            unknown += usize::from(!found && search.exhausted());
            let at = format!("game {} ply {}, {} timelines", g + 1, ply + 1, pos.timeline_count());
            if search.tests() > worst_tests.0 {
                worst_tests = (search.tests(), at.clone());
            }
            if took > worst_time.0 {
                worst_time = (took, at);
            }
        }
    }
    println!(
        "suite    {count} positions with 20+ timelines: {unknown} unknown, worst {} tests ({}), worst {:.3} ms ({}), total {:.3} s",
        worst_tests.0,
        worst_tests.1,
        worst_time.0.as_secs_f64() * 1e3,
        worst_time.1,
        total.as_secs_f64()
    );
    Ok(())
}

/// A synthetic multiverse: `lines` timelines of `turns` turns of standard boards (both colours),
/// White to move everywhere, all timelines active (as many White as Black ones).
fn big_multiverse(lines: i32, turns: i32) -> Result<Position> {
    use chess5d_rules::{BoardId, Setup};
    let start = Position::standard();
    let board = start.board(BoardId::new(0, 2)).expect("start board").clone();
    let half = lines / 2;
    let mut boards = Vec::new();
    for l in -half..lines - half {
        for t in 2..2 + 2 * turns {
            boards.push((BoardId::new(l, t), board.clone()));
        }
    }
    let setup = Setup {
        size: start.size(),
        even: false,
        boards,
        promotions: vec![chess5d_rules::Role::Queen],
    };
    Position::from_setup(setup).map_err(|e| anyhow::anyhow!("{e}"))
}

/// The peak resident set size of this process, in KiB (0 where /proc is not available).
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}
