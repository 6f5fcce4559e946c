//! `chess5d tune`: fit the evaluation's weights on games (Texel tuning, `chess5d_engine::tune`)
//! and print them as the source of `crates/engine/src/weights.rs`.

use anyhow::{bail, Result};
use chess5d_engine::tune::{self, FitOptions, GameSamples, ReadOptions};
use chess5d_engine::{Weights, HAND_WEIGHTS, WEIGHTS, WEIGHT_COUNT};
use clap::Args;
use std::fmt::Write as _;
use std::path::PathBuf;

const TUNE_AFTER_HELP: &str = "\
Every game of every file is replayed; its positions after the first --skip actions whose side to
move is not in check are labelled with the game's result ([Result]) from the side to move's view.
One game pair in --holdout is kept out of the fit and measures it. K (the scale of the sigmoid)
is fitted first with the starting weights (--from), then the weights with K fixed. The report
goes to standard error, the source of weights.rs (with the data's provenance) to standard
output or --out.";

/// The weights a fit starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum From {
    /// `WEIGHTS` of weights.rs.
    Current,
    /// `HAND_WEIGHTS` of weights.rs.
    Hand,
}

/// `chess5d tune`.
#[derive(Debug, Args)]
#[command(after_help = TUNE_AFTER_HELP)]
pub struct TuneArgs {
    /// 5DPGN files of finished games (several games per file, as `chess5d match --pgn` writes).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Skip the positions before this many actions of each game.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub skip: usize,
    /// Keep one game pair in N out of the fit, to measure it (0: none); the pairs are picked by
    /// a hash of their file and number.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub holdout: usize,
    /// Adam steps at most.
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    pub iterations: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0, value_name = "CP")]
    pub learning_rate: f64,
    /// Keep these weights at their current value (names as in weights.rs; comma-separated or
    /// repeated).
    #[arg(long, value_delimiter = ',', value_name = "NAME")]
    pub freeze: Vec<String>,
    /// The ridge toward the starting weights (see `FitOptions::l2`); with several values, the
    /// one with the best 5-fold cross-validated loss on the games fitted on (folds of game pairs)
    /// is chosen, then fitted on all of them.
    #[arg(long, value_delimiter = ',', default_value = "0", value_name = "L2")]
    pub l2: Vec<f64>,
    /// Weights the ridge does not hold (fitted on the data alone; comma-separated or repeated).
    #[arg(long, value_delimiter = ',', value_name = "NAME")]
    pub no_ridge: Vec<String>,
    /// Start from (and fit K with, and hold the ridge toward) the engine's current weights, or
    /// the hand-set ones (a fit from them is reproducible whatever weights.rs holds).
    #[arg(long, value_enum, default_value_t = From::Current)]
    pub from: From,
    /// The sigmoid's scale K [default: fitted with the starting weights].
    #[arg(long, value_name = "K")]
    pub k: Option<f64>,
    /// Write the weights' source to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The seeds of the two splits: the held-out games, and the games that choose the ridge.
const HOLDOUT_SEED: u64 = 1;
const CHECK_SEED: u64 = 2;

pub fn run(a: &TuneArgs) -> Result<()> {
    let frozen = names("--freeze", &a.freeze)?;
    let unridged = names("--no-ridge", &a.no_ridge)?;
    let opts = ReadOptions { skip_actions: a.skip };
    let mut games: Vec<GameSamples> = Vec::new();
    let mut sources = String::new();
    let mut total = tune::ReadStats::default();
    for f in &a.files {
        let before = games.len();
        let s = tune::read_games(f, tune::file_key(f), &opts, &mut games)?;
        eprintln!(
            "{}: {} games, {} positions ({} unfinished games skipped, {} positions in check, {} in the first actions)",
            f.display(),
            s.games,
            s.positions,
            s.unfinished,
            s.in_check,
            s.opening
        );
        let _ = writeln!(
            sources,
            "- {} ({} games, {} positions)",
            f.display(),
            games.len() - before,
            s.positions
        );
        total.games += s.games;
        total.positions += s.positions;
        total.unfinished += s.unfinished;
        total.in_check += s.in_check;
        total.opening += s.opening;
    }
    let (train, hold) = tune::split_games(&games, a.holdout, HOLDOUT_SEED);
    let held_games = games
        .iter()
        .filter(|g| tune::in_split(g, a.holdout, HOLDOUT_SEED))
        .count();
    if train.is_empty() {
        bail!("no position to fit on (no finished game, or every position skipped)");
    }
    eprintln!(
        "{} games, {} positions: {} to fit on, {} held out ({held_games} games)",
        total.games,
        train.len() + hold.len(),
        train.len(),
        hold.len()
    );
    let mut coverage = String::new();
    for (i, name) in Weights::NAMES.iter().enumerate() {
        let present = train.iter().filter(|s| i < 12 && s.roles & (1 << i) != 0).count();
        let nonzero = train.iter().filter(|s| s.features[i] != 0.0).count();
        if i < 12 {
            let _ = writeln!(
                coverage,
                "{name}: on the board in {present} positions, unequal in {nonzero}"
            );
        }
    }
    eprint!("{coverage}");

    let start = tune::real(match a.from {
        From::Current => &WEIGHTS,
        From::Hand => &HAND_WEIGHTS,
    });
    let k = match a.k {
        Some(k) => k,
        None => tune::fit_k(&train, &start),
    };
    eprintln!("K = {k:.4}");
    let options = |l2: f64| FitOptions {
        iterations: a.iterations,
        learning_rate: a.learning_rate,
        frozen,
        l2,
        unridged,
        ..FitOptions::default()
    };
    let origin = match a.from {
        From::Current => "the weights before this fit",
        From::Hand => "the hand-set weights",
    };
    let mut l2 = a.l2[0];
    let mut choice = String::new();
    if a.l2.len() > 1 {
        let fitted_games: Vec<GameSamples> = games
            .iter()
            .filter(|g| !tune::in_split(g, a.holdout, HOLDOUT_SEED))
            .cloned()
            .collect();
        let mut best = f64::INFINITY;
        for &c in &a.l2 {
            let v = tune::cross_validate(&fitted_games, 5, CHECK_SEED, &start, k, &options(c));
            eprintln!("l2 {c}: 5-fold cross-validated loss {v:.6}");
            let _ = write!(choice, "{c}: {v:.6}, ");
            if v < best {
                best = v;
                l2 = c;
            }
        }
        choice = format!(
            "The ridge toward {origin}: l2 = {l2}, chosen among {} by the 5-fold cross-validated loss\n\
             on the games fitted on (folds of game pairs: {}).\n",
            a.l2.len(),
            choice.trim_end_matches(", ")
        );
    } else if l2 != 0.0 {
        choice = format!("The ridge toward {origin}: l2 = {l2}.\n");
    }
    if l2 != 0.0 && !a.no_ridge.is_empty() {
        let _ = writeln!(
            choice,
            "Not held by the ridge (fitted on the data alone): {}.",
            a.no_ridge.join(", ")
        );
    }
    let fit = tune::fit(&train, &start, k, &options(l2));
    let fitted = tune::rounded(&fit.weights);
    let fitted_real = tune::real(&fitted);
    let hand = tune::real(&HAND_WEIGHTS);
    let losses = |w: &tune::RealWeights| (tune::loss(&train, w, k), tune::loss(&hold, w, k));
    let (hand_train, hand_hold) = losses(&hand);
    let (cur_train, cur_hold) = losses(&tune::real(&WEIGHTS));
    let (new_train, new_hold) = losses(&fitted_real);
    eprintln!("{} Adam steps", fit.iterations);
    eprintln!("loss (fitted on / held out): hand {hand_train:.6} / {hand_hold:.6}, current {cur_train:.6} / {cur_hold:.6}, fitted {new_train:.6} / {new_hold:.6}");
    eprintln!("{:<18} {:>8} {:>8} {:>8}", "weight", "hand", "current", "fitted");
    for (i, name) in Weights::NAMES.iter().enumerate() {
        eprintln!(
            "{:<18} {:>8} {:>8} {:>8}{}",
            name,
            HAND_WEIGHTS.to_array()[i],
            WEIGHTS.to_array()[i],
            fitted.to_array()[i],
            if fit.frozen[i] { "  (kept)" } else { "" }
        );
    }

    let kept: Vec<&str> = Weights::NAMES
        .iter()
        .zip(fit.frozen)
        .filter(|(_, f)| *f)
        .map(|(n, _)| *n)
        .collect();
    let command: Vec<String> = std::env::args().skip(1).collect();
    let mut prov = String::new();
    let _ = writeln!(
        prov,
        "Fitted by Texel tuning (`chess5d tune`, crates/engine/src/tune.rs) on {} games, {} positions:\n",
        total.games,
        train.len() + hold.len()
    );
    prov.push_str(&sources);
    let _ = writeln!(
        prov,
        "\nThe positions: every position of a game after its first {} actions whose side to move is not\n\
         in check ({} in check and {} early ones skipped), labelled with the game's [Result] from the\n\
         side to move's view. One game pair in {} ({held_games} games, {} positions) was held out.\n",
        a.skip,
        total.in_check,
        total.opening,
        a.holdout,
        hold.len()
    );
    let _ = writeln!(prov, "Command: `chess5d {}`\n", command.join(" "));
    if !choice.is_empty() {
        let _ = writeln!(prov, "{choice}");
    }
    let before = match a.from {
        From::Current => format!(", the weights before this fit {cur_train:.6} / {cur_hold:.6}"),
        From::Hand => String::new(),
    };
    let _ = writeln!(
        prov,
        "K = {k:.4} (fitted with {origin}); {} Adam steps. Loss (mean squared error, fitted on /\n\
         held out): the hand-set weights {hand_train:.6} / {hand_hold:.6}{before}, these {new_train:.6} / {new_hold:.6}.\n",
        fit.iterations
    );
    let _ = writeln!(
        prov,
        "Kept at their starting value: {} (frozen with --freeze, or a weight whose feature is 0 in\n\
         every position fitted on: in_check, as no position in check is kept).\n",
        if kept.is_empty() {
            "none".to_string()
        } else {
            kept.join(", ")
        }
    );
    prov.push_str("Pieces in the positions fitted on:\n\n");
    for line in coverage.lines() {
        let _ = writeln!(prov, "- {line}");
    }
    let source = tune::weights_source(&fitted, &HAND_WEIGHTS, &prov);
    match &a.out {
        Some(path) => std::fs::write(path, source).map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?,
        None => crate::out::write(source.as_bytes())?,
    }
    Ok(())
}

/// The flags of the weights named in `list` (an option's values), or an error naming the option
/// and the unknown name.
fn names(option: &str, list: &[String]) -> Result<[bool; WEIGHT_COUNT]> {
    let mut flags = [false; WEIGHT_COUNT];
    for name in list {
        let Some(i) = Weights::NAMES.iter().position(|n| *n == name.trim()) else {
            bail!(
                "{option} {name}: no such weight (the weights: {})",
                Weights::NAMES.join(", ")
            );
        };
        flags[i] = true;
    }
    Ok(flags)
}
