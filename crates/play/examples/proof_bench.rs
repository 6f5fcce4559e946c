//! The puzzle maker's proofs, old and new, side by side: the brute force over every legal action
//! of both sides (`proof::forced_within`) and the proof-number solver (`proof::solved_line`,
//! what the puzzle maker now proves with), on the built-in puzzles (the corpus's and the
//! engine games'). Both must agree; the times are the best of `--runs` (default 3).
//!
//! ```text
//! cargo run --release -p chess5d-play --example proof_bench [-- DIR [RUNS]]
//! ```

use chess5d_play::proof::{self, Work};
use std::time::{Duration, Instant};

fn best(runs: usize, mut f: impl FnMut() -> bool) -> (Duration, bool) {
    let mut best = Duration::MAX;
    let mut answer = false;
    for _ in 0..runs {
        let t = Instant::now();
        answer = f();
        best = best.min(t.elapsed());
    }
    (best, answer)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| format!("{}/../server/data/puzzles", env!("CARGO_MANIFEST_DIR")));
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "5dpgn"))
        .collect();
    files.sort();
    println!(
        "{:<24} {:>4} {:>12} {:>12} {:>8}  answers",
        "puzzle", "mate", "old ms", "new ms", "speedup"
    );
    let (mut old_total, mut new_total) = (Duration::ZERO, Duration::ZERO);
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let loaded = proof::posed(chess5d_notation::load(&text).expect("a puzzle loads"));
        let n = proof::mate_in_of(&loaded);
        let pos = loaded.game().position().clone();
        let unlimited = || Work::new(proof::BUDGET, u64::MAX, None);
        let (old, old_answer) = best(runs, || proof::forced_within(&pos, n, &unlimited()) == Some(true));
        let (new, new_answer) = best(runs, || proof::solved_line(&pos, n, &unlimited()).is_ok());
        assert_eq!(old_answer, new_answer, "{}: the proofs disagree", path.display());
        old_total += old;
        new_total += new;
        let name = path.file_stem().unwrap().to_string_lossy();
        println!(
            "{name:<24} {n:>4} {:>12.3} {:>12.3} {:>7.1}x  {}",
            old.as_secs_f64() * 1e3,
            new.as_secs_f64() * 1e3,
            old.as_secs_f64() / new.as_secs_f64().max(1e-9),
            if new_answer { "mate" } else { "no mate" }
        );
    }
    println!(
        "{:<24} {:>4} {:>12.3} {:>12.3} {:>7.1}x",
        "total",
        "",
        old_total.as_secs_f64() * 1e3,
        new_total.as_secs_f64() * 1e3,
        old_total.as_secs_f64() / new_total.as_secs_f64().max(1e-9)
    );
}
