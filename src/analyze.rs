//! `chess5d analyze` and `chess5d perft`.

use crate::cli::{AnalyzeArgs, MovesShown, PerftArgs};
use crate::out::outln;
use anyhow::{Context, Result};
use chess5d_rules::{ActionCount, Budget, Convention, Outcome, Position};
use serde_json::json;
use std::time::Instant;

pub fn run(o: &AnalyzeArgs) -> Result<()> {
    if o.distinct_positions && o.count_actions.is_none() {
        anyhow::bail!("--distinct-positions changes how --count-actions counts: give --count-actions CAP too");
    }
    crate::input::for_each_game(&o.file, o.game, |number, multi, loaded| {
        if multi && !o.json {
            outln!("game {number}:");
        }
        report_game(loaded, number, o)
    })
}

/// Reports the main line of a game: its last position, or every position.
fn report_game(loaded: &chess5d_notation::LoadedGame, number: usize, o: &AnalyzeArgs) -> Result<()> {
    let game = loaded.game();
    if o.all_positions {
        let mut pos = game.start().clone();
        report(&pos, 0, number, o)?;
        for (i, action) in game.actions().iter().enumerate() {
            for m in &action.moves {
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
            report(&pos, i + 1, number, o)?;
        }
    } else {
        // The position after the last submitted action (moves of an unfinished action are not
        // part of a game record).
        let mut pos = game.position().clone();
        pos.undo_action_moves();
        report(&pos, game.actions().len(), number, o)?;
    }
    Ok(())
}

fn report(pos: &Position, ply: usize, game: usize, o: &AnalyzeArgs) -> Result<()> {
    let started = Instant::now();
    let even = pos.even();
    let moves: Vec<String> = match o.moves {
        MovesShown::Present => pos.present_moves().iter().map(|m| m.long(even)).collect(),
        MovesShown::Playable => pos.playable_moves().iter().map(|m| m.long(even)).collect(),
        MovesShown::None => Vec::new(),
    };
    let outcome = pos.outcome(Budget::DEFAULT);
    let in_check = pos.in_check();
    let convention = convention(o.distinct_positions);
    let count = o
        .count_actions
        .map(|cap| pos.count_actions_by(cap, Budget::DEFAULT, convention));
    let present = pos.present_turn();
    // Work figures for tuning the search, on request.
    if std::env::var_os("CHESS5D_TIMING").is_some() {
        eprintln!("ply {ply}: {:.1} ms", started.elapsed().as_secs_f64() * 1000.0);
    }
    if o.json {
        let (n, bound) = match count {
            None => (serde_json::Value::Null, serde_json::Value::Null),
            Some(ActionCount::Exact(n)) => (json!(n), json!("exact")),
            Some(ActionCount::AtLeast(n)) => (json!(n), json!("at_least")),
            Some(ActionCount::Unknown(n)) => (json!(n), json!("unknown")),
        };
        let witness = match &outcome {
            Outcome::Ongoing(a) => json!(a.iter().map(|m| m.long(even)).collect::<Vec<_>>()),
            _ => serde_json::Value::Null,
        };
        let obj = json!({
            "game": game,
            "ply": ply,
            "to_move": pos.to_move().name(),
            "present": present,
            "timelines": pos.timeline_count(),
            "active_timelines": pos.active_count(),
            "in_check": in_check,
            "outcome": outcome.name(),
            "moves": if o.moves == MovesShown::None { serde_json::Value::Null } else { json!(moves) },
            "legal_actions": n,
            "legal_actions_bound": bound,
            "legal_actions_convention": if count.is_some() { json!(convention.name()) } else { serde_json::Value::Null },
            "witness": witness,
        });
        outln!("{obj}");
        return Ok(());
    }
    outln!(
        "ply {ply}: {} to move, present T{present}, {} timeline{} ({} active), {}, {}",
        pos.to_move(),
        pos.timeline_count(),
        if pos.timeline_count() == 1 { "" } else { "s" },
        pos.active_count(),
        if in_check { "in check" } else { "not in check" },
        outcome.name()
    );
    if let Outcome::Ongoing(a) = &outcome {
        outln!(
            "  a legal action: {}",
            a.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" ")
        );
    }
    if o.moves != MovesShown::None {
        let which = if o.moves == MovesShown::Present {
            "present"
        } else {
            "playable"
        };
        outln!("  {} {which} moves: {}", moves.len(), moves.join(" "));
    }
    match count {
        None => {}
        Some(ActionCount::Exact(n)) => outln!("  legal actions ({convention}): {n}"),
        Some(ActionCount::AtLeast(n)) => outln!("  legal actions ({convention}): at least {n}"),
        Some(ActionCount::Unknown(n)) => {
            outln!("  legal actions ({convention}): unknown (at least {n}; budget ran out)")
        }
    }
    Ok(())
}

pub fn perft(a: &PerftArgs) -> Result<()> {
    let (depth, divide) = (a.depth, a.divide);
    let convention = convention(a.distinct_positions);
    let pos = match &a.file {
        Some(f) => {
            let g = crate::input::load_game(f)?;
            let mut p = g.game().position().clone();
            p.undo_action_moves();
            p
        }
        None => Position::standard(),
    };
    let start = Instant::now();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for action in pos.legal_actions_by(Budget::UNLIMITED, convention) {
            let mut child = pos.clone();
            for m in &action {
                child.play_unchecked(m);
            }
            child.submit_unchecked();
            let n = child
                .perft_by(depth - 1, Budget::UNLIMITED, convention)
                .context("budget ran out")?;
            outln!(
                "{} {n}",
                action.iter().map(|m| m.long(pos.even())).collect::<Vec<_>>().join(" ")
            );
            total += n;
        }
        total
    } else {
        pos.perft_by(depth, Budget::UNLIMITED, convention)
            .context("budget ran out")?
    };
    outln!(
        "perft({depth}) = {total}  ({convention}, {:.3} s)",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The counting convention a command's `--distinct-positions` flag chooses.
fn convention(distinct_positions: bool) -> Convention {
    if distinct_positions {
        Convention::DistinctPositions
    } else {
        Convention::Orderings
    }
}
