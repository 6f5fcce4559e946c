//! `chess5d reference`: the reference suite for other implementations (`data/reference/`).
//!
//! `generate` picks positions (games of the notation corpus, the hard match games, and games of
//! the engine against the random bot in every official variant) and writes one JSON line per
//! position with what our rules say about it; `check` recomputes every line of a suite and
//! compares, so the published file cannot drift from the rules.

use anyhow::{bail, Context, Result};
use chess5d_engine::{Bot, Engine, EngineOptions, Limits};
use chess5d_rules::{ActionCount, Budget, Convention, Game, Outcome, Position, VARIANTS};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// `chess5d reference`.
#[derive(Debug, clap::Subcommand)]
pub enum ReferenceCommand {
    /// Write the reference suite (one JSON object per line) to standard output: positions of the
    /// notation corpus's games, of the hard match games, and of games of the engine against the
    /// random bot in every official variant, each with check, the proven outcome, the number of
    /// legal actions in both counting conventions (capped at 10000) and perft where cheap.
    Generate {
        /// Engine-vs-random games per official variant.
        #[arg(long, default_value_t = 4)]
        games: usize,
        /// The seed of those games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The notation corpus.
        #[arg(long, value_name = "DIR", default_value = "crates/notation/tests/data/corpus")]
        corpus: String,
        /// The hard match games.
        #[arg(long, value_name = "DIR", default_value = "tests/data/hard-match-games")]
        hard: String,
    },
    /// Recompute every line of a suite and report each difference (exit 1 if any).
    Check {
        /// The suite (`-` for standard input), e.g. data/reference/positions.jsonl.
        file: String,
    },
}

/// Positions the suite's README talks about.
const EXAMPLES: [(&str, &str); 2] = [
    (
        "just-kings-two-jumps-onto-one-board",
        "[Board \"Focused - Just Kings\"]\n\n1. Ka1a2 / Kc3c2\n2. (0T2)Ka2>>(0T1)a2\n",
    ),
    (
        "small-centered-castling-two-away",
        "[Board \"Small - Centered\"]\n\n1. (0T1)d1(0T1)c3 / (0T1)b5(0T1)c3\n2. (0T2)b2(0T2)c3\n",
    ),
];

/// Positions whose outcome takes more candidate tests than this are not put in the suite.
const GENERATE_TESTS: u64 = 100_000;

/// Legal actions are counted up to this many.
pub const CAP: u64 = 10_000;
/// Perft(2) is given when there are at most this many legal actions, perft(3) when perft(2) is
/// at most [`PERFT3_MAX`]: the suite is recomputed in CI, so the sequences stay few.
const PERFT2_MAX: u64 = 40;
const PERFT3_MAX: u64 = 400;
/// Perft is given to a depth only if every node of it is searched within this many candidate
/// tests (a few positions with few actions have replies that are hard to search).
const PERFT_NODE_TESTS: u64 = 2_000;

pub fn run(command: &ReferenceCommand) -> Result<()> {
    match command {
        ReferenceCommand::Generate {
            games,
            seed,
            corpus,
            hard,
        } => generate(*games, *seed, corpus, hard),
        ReferenceCommand::Check { file } => check(file),
    }
}

/// What our rules say about a position, as the suite records it; `None` if the position cannot
/// be decided within the default budget (such positions are left out of the suite). Perft is
/// computed to the depths `perft_depths` gives for each convention, or, without it, to the
/// depths whose every node takes at most [`PERFT_NODE_TESTS`] candidate tests (so the depths a
/// suite lists do not depend on how fast the search is when it is checked).
fn expected(pos: &Position, perft_depths: Option<[usize; 2]>) -> Option<Map<String, Value>> {
    let outcome = pos.outcome(Budget::DEFAULT);
    if outcome == Outcome::Unknown {
        return None;
    }
    let mut out = Map::new();
    out.insert("to_move".into(), json!(pos.to_move().name()));
    out.insert("present".into(), json!(pos.present_turn()));
    out.insert("timelines".into(), json!(pos.timeline_count()));
    out.insert("active_timelines".into(), json!(pos.active_count()));
    out.insert("in_check".into(), json!(pos.in_check()));
    out.insert("outcome".into(), json!(outcome.name()));
    for (k, (key, c)) in [
        ("orderings", Convention::Orderings),
        ("distinct_positions", Convention::DistinctPositions),
    ]
    .into_iter()
    .enumerate()
    {
        let (n, exact) = match pos.count_actions_by(CAP, Budget::DEFAULT, c) {
            ActionCount::Exact(n) => (n, true),
            ActionCount::AtLeast(n) => (n, false),
            ActionCount::Unknown(_) => return None,
        };
        out.insert(format!("actions_{key}"), json!(n));
        out.insert(format!("actions_{key}_exact"), json!(exact));
        // perft(1) is the exact count; deeper levels while the sequences stay few and cheap.
        let mut perft = Vec::new();
        if exact {
            perft.push(n);
            for (depth, max) in [(2, PERFT2_MAX), (3, PERFT3_MAX)] {
                let p = match perft_depths {
                    Some(d) if depth > d[k] => None,
                    Some(_) => Some(pos.perft_by(depth as u32, Budget::DEFAULT, c)?),
                    None if perft[perft.len() - 1] > max => None,
                    None => pos.perft_by(depth as u32, Budget::tests(PERFT_NODE_TESTS), c),
                };
                let Some(p) = p else { break };
                perft.push(p);
            }
        }
        out.insert(format!("perft_{key}"), json!(perft));
    }
    Some(out)
}

/// The position a suite line describes, from its 5DPGN; its long-form actions must replay to
/// the same position.
fn position_of(line: &Value) -> Result<Position> {
    let pgn = line["pgn"].as_str().context("no \"pgn\" string")?;
    let loaded = chess5d_notation::load(pgn).map_err(|e| anyhow::anyhow!("its 5DPGN: {e}"))?;
    let mut pos = loaded.game().position().clone();
    pos.undo_action_moves();
    let actions = line["actions_long"].as_array().context("no \"actions_long\" list")?;
    let long: String = actions
        .iter()
        .map(|a| a.as_str().map(|s| format!("{s}\n")))
        .collect::<Option<_>>()
        .context("\"actions_long\" holds a non-string")?;
    let replayed = chess5d_notation::long::read_game(&long, Some(loaded.start().clone()))
        .map_err(|e| anyhow::anyhow!("its long-form actions: {e}"))?;
    if replayed.game().position().hash() != pos.hash() {
        bail!("its long-form actions reach another position than its 5DPGN");
    }
    Ok(pos)
}

fn check(file: &str) -> Result<()> {
    let text = crate::input::read_input(file)?;
    let (mut checked, mut problems) = (0, Vec::new());
    for (i, raw) in text.lines().enumerate() {
        let at = format!("{file}:{}", i + 1);
        if raw.trim().is_empty() {
            continue;
        }
        let line: Value = serde_json::from_str(raw).with_context(|| format!("{at}: not JSON"))?;
        let id = line["id"].as_str().unwrap_or("?");
        let pos = position_of(&line).with_context(|| format!("{at} ({id})"))?;
        let depth = |key: &str| line[key].as_array().map_or(0, Vec::len);
        let depths = [depth("perft_orderings"), depth("perft_distinct_positions")];
        let started = std::time::Instant::now();
        let ours = expected(&pos, Some(depths));
        // Work figures for keeping the check fast, on request.
        if std::env::var_os("CHESS5D_TIMING").is_some() {
            eprintln!("{at} ({id}): {:.1} ms", started.elapsed().as_secs_f64() * 1000.0);
        }
        let Some(ours) = ours else {
            problems.push(format!("{at} ({id}): undecided within the default budget"));
            continue;
        };
        for (key, value) in &ours {
            if line.get(key) != Some(value) {
                let theirs = line.get(key).map_or("missing".into(), Value::to_string);
                problems.push(format!("{at} ({id}): {key}: file {theirs}, recomputed {value}"));
            }
        }
        checked += 1;
    }
    for p in &problems {
        println!("{p}");
    }
    println!("{checked} positions checked, {} differences", problems.len());
    if !problems.is_empty() {
        bail!("{} differences", problems.len());
    }
    Ok(())
}

/// One suite line: id, source, variant, the game up to the position (5DPGN and long form), then
/// what the rules say.
fn line_for(id: &str, source: &str, game: &Game) -> Option<Value> {
    let mut pos = game.position().clone();
    pos.undo_action_moves();
    let facts = expected(&pos, None)?;
    let pgn = chess5d_notation::pgn::write(game, &[], None);
    let variant = chess5d_notation::start::headers_for(game.start())
        .0
        .into_iter()
        .find(|(k, _)| k == "Board")
        .map(|(_, v)| v)
        .unwrap_or_default();
    let even = game.start().even();
    let long: Vec<String> = game
        .actions()
        .iter()
        .map(|a| chess5d_notation::long::write_action(&a.moves, even))
        .collect();
    let mut out = Map::new();
    out.insert("id".into(), json!(id));
    out.insert("source".into(), json!(source));
    out.insert("variant".into(), json!(variant));
    out.insert("pgn".into(), json!(pgn));
    out.insert("actions_long".into(), json!(long));
    out.extend(facts);
    Some(Value::Object(out))
}

/// The game cut after its first `plies` actions.
fn prefix(game: &Game, plies: usize) -> Game {
    let mut g = Game::new(game.start().clone());
    for a in &game.actions()[..plies] {
        g.play_action(&a.moves).expect("a recorded action replays");
    }
    g
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if !matches!(path.extension().and_then(|e| e.to_str()), Some("md" | "tsv")) {
            out.push(path);
        }
    }
    Ok(())
}

/// The game records under `dir` that load, by path relative to `dir`.
fn games_under(dir: &str) -> Result<Vec<(String, Game)>> {
    let mut files = Vec::new();
    walk(Path::new(dir), &mut files)?;
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        let Ok(loaded) = chess5d_notation::load(&text) else {
            continue;
        };
        let rel = path.strip_prefix(dir).unwrap_or(&path).display().to_string();
        out.push((rel, loaded.into_game()));
    }
    Ok(out)
}

fn generate(games: usize, seed: u64, corpus: &str, hard: &str) -> Result<()> {
    let emit = |id: String, source: &str, game: &Game| {
        // Positions the search does not decide quickly are left for later (the search's own
        // benchmark has them); the suite is recomputed in CI.
        let mut pos = game.position().clone();
        pos.undo_action_moves();
        if pos.outcome(Budget::tests(GENERATE_TESTS)) == Outcome::Unknown {
            eprintln!("chess5d: {id}: undecided within {GENERATE_TESTS} candidate tests, left out");
            return;
        }
        if let Some(line) = line_for(&id, source, game) {
            println!("{line}");
        } else {
            eprintln!("chess5d: {id}: undecided within the default budget, left out");
        }
    };
    // The README's examples: two jumps onto one board (27 and 26 actions), castling with a rook
    // two squares away.
    for (name, text) in EXAMPLES {
        let loaded = chess5d_notation::load(text).map_err(|e| anyhow::anyhow!("example {name}: {e}"))?;
        emit(format!("example/{name}"), "example", loaded.game());
    }
    // The corpus: the middle and the end of every game.
    for (rel, game) in games_under(corpus)? {
        let n = game.actions().len();
        let mut plies = vec![n / 2, n];
        plies.dedup();
        for k in plies.into_iter().filter(|&k| k > 0) {
            emit(format!("corpus/{rel}@{k}"), "corpus", &prefix(&game, k));
        }
    }
    // The hard match games, as they are: many timelines, in check.
    for (rel, game) in games_under(hard)? {
        let n = game.actions().len();
        emit(format!("match/{rel}@{n}"), "match", &game);
    }
    // The engine against the random bot, in every variant: positions every few actions and the
    // last one, so that timelines pile up.
    for v in VARIANTS {
        for g in 0..games {
            let game_seed = seed.wrapping_mul(1000).wrapping_add(g as u64 * 7919 + 1);
            let game = engine_vs_random(v.position(), g % 2 == 0, game_seed, 60);
            let n = game.actions().len();
            let name = v.name.to_ascii_lowercase().replace([' ', '.'], "").replace('-', "_");
            for k in (12..n).step_by(16).chain([n]) {
                emit(format!("generated/{name}-g{g}@{k}"), "generated", &prefix(&game, k));
            }
        }
    }
    Ok(())
}

/// A game of the engine (a small fixed search) against the random bot, at most `max` actions.
fn engine_vs_random(start: Position, engine_white: bool, seed: u64, max: usize) -> Game {
    let bot = |bot: Bot| {
        Engine::new(EngineOptions {
            bot,
            seed,
            node_budget: 5_000,
            action_cap: 32,
            ..EngineOptions::default()
        })
    };
    let (mut engine, mut random) = (bot(Bot::AlphaBeta), bot(Bot::Random));
    let limits = Limits {
        nodes: Some(200),
        depth: Some(2),
        ..Limits::default()
    };
    let mut game = Game::new(start);
    while game.actions().len() < max {
        let white = game.to_move() == chess5d_rules::Color::White;
        let player = if white == engine_white {
            &mut engine
        } else {
            &mut random
        };
        let Some(best) = player.search(game.position(), &limits, &mut |_| {}).best else {
            break;
        };
        if game.play_action(&best).is_err() {
            break;
        }
    }
    game
}
