//! `engine_puzzles OUT_DIR [GAMES_PER_VARIANT]`: finds puzzles in engine-vs-engine games.
//!
//! Plays games between the built-in engines (alpha-beta at depth 2 against the greedy and the
//! random bot, each side in turn, seeds 1..=GAMES_PER_VARIANT) on small variants, and looks at
//! every position of each game for a forced mate in 1 or 2 ([`forced_mate_in`], a proof over
//! every legal action of both sides). Positions where the mate is not too easy (for a mate in 1,
//! at most a quarter of the legal actions mate; for a mate in 2, there is no mate in 1) are
//! written to OUT_DIR as 5DPGN records of the game up to that position, with a
//! `Puzzle "mate-in-N"` header and a `Source` header naming the game. The built-in collection's
//! `engine-*` puzzles were chosen from its output (`crates/server/data/puzzles/README.md`).

use chess5d_engine::{Bot, Engine, EngineOptions, Limits};
use chess5d_rules::{Budget, Game, Outcome, Position, Variant};
use chess5d_server::forced_mate_in;

const VARIANTS: &[&str] = &[
    "Very Small",
    "Very Small - Open",
    "Small",
    "Small - Open",
    "Small - Centered",
    "Misc - Timeline Tactitian",
    "Misc - Timeline Fragments",
    "Focused - Just Rooks",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        eprintln!("usage: engine_puzzles OUT_DIR [GAMES_PER_VARIANT]");
        std::process::exit(2);
    };
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    std::fs::create_dir_all(out).expect("output folder");
    let budget = Budget::tests(20_000);
    let mut found = 0;
    for name in VARIANTS {
        let Some(variant) = Variant::by_name(name) else {
            eprintln!("no variant {name}");
            continue;
        };
        for seed in 1..=games {
            let weak = if seed % 2 == 0 { Bot::Greedy } else { Bot::Random };
            let ab_white = seed % 4 < 2;
            let bots = if ab_white {
                [Bot::AlphaBeta, weak]
            } else {
                [weak, Bot::AlphaBeta]
            };
            let mut engines = bots.map(|bot| {
                Engine::new(EngineOptions {
                    bot,
                    seed,
                    hash_mb: 4,
                    ..EngineOptions::default()
                })
            });
            let mut game = Game::new(variant.position());
            let mut seen = 0;
            while game.actions().len() < 80 {
                let pos = game.position().clone();
                if let Some((n, why)) = puzzle_at(&pos, budget) {
                    let white = bots[0].name();
                    let black = bots[1].name();
                    let source = format!("engine game: {white} (White) vs {black} (Black), {name}, seed {seed}");
                    let headers = vec![
                        ("Event".to_string(), format!("Engine game puzzle ({name})")),
                        ("Puzzle".to_string(), format!("mate-in-{n}")),
                        ("Source".to_string(), source),
                        ("Annotator".to_string(), why),
                    ];
                    let text = chess5d_notation::pgn::write(&game, &headers, Some("*"));
                    let slug: String = name
                        .to_ascii_lowercase()
                        .chars()
                        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                        .collect();
                    let file = format!("{out}/engine-{slug}-s{seed}-a{}-m{n}.5dpgn", game.actions().len());
                    std::fs::write(&file, text).expect("write puzzle");
                    eprintln!("{file}");
                    found += 1;
                    seen += 1;
                    if seen >= 3 {
                        break;
                    }
                }
                if !matches!(pos.outcome(budget), Outcome::Ongoing(_)) {
                    break;
                }
                let mover = pos.to_move().index();
                let r = engines[mover].search(&pos, &Limits::depth(2), &mut |_| {});
                let Some(best) = r.best else { break };
                if game.play_action(&best).is_err() {
                    break;
                }
            }
        }
    }
    eprintln!("{found} puzzles");
}

/// A mate in 1 that few actions give, or a mate in 2 without a mate in 1, with a description.
fn puzzle_at(pos: &Position, budget: Budget) -> Option<(usize, String)> {
    let mut it = pos.legal_actions(budget);
    let actions: Vec<_> = it.by_ref().take(400).collect();
    if it.exhausted() || actions.len() >= 400 || actions.is_empty() {
        return None;
    }
    let mates = actions
        .iter()
        .filter(|a| {
            let mut p = pos.clone();
            for m in a.iter() {
                p.play_unchecked(m);
            }
            p.submit_unchecked();
            p.outcome(budget) == Outcome::Checkmate
        })
        .count();
    if mates > 0 {
        let easy = mates * 4 > actions.len() || actions.len() < 6;
        return (!easy).then(|| (1, format!("{mates} of {} legal actions mate", actions.len())));
    }
    if actions.len() > 60 {
        return None;
    }
    (forced_mate_in(pos, 2, budget) == Some(true))
        .then(|| (2, format!("no mate in 1 among {} legal actions", actions.len())))
}
