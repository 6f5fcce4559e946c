//! `chess5d analyze` and `chess5d perft`.

use anyhow::{bail, Context, Result};
use chess5d_rules::{ActionCount, Budget, Outcome, Position};
use serde_json::json;
use std::time::Instant;

#[derive(Clone, Copy, PartialEq, Eq)]
enum MovesShown {
    Present,
    Playable,
    None,
}

struct Options {
    all_positions: bool,
    moves: MovesShown,
    count_cap: Option<u64>,
    json: bool,
    file: String,
    /// `--game N`: only this game of the file.
    pick: Option<usize>,
    /// The number of the game being reported, from 1.
    game: usize,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut o = Options {
        all_positions: false,
        moves: MovesShown::Present,
        count_cap: None,
        json: false,
        file: "-".into(),
        pick: None,
        game: 1,
    };
    let mut file = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a, None),
        };
        let mut value = |name: &str| -> Result<String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i).cloned().with_context(|| format!("{name} needs a value"))
        };
        match flag {
            "--all-positions" => o.all_positions = true,
            "--json" => o.json = true,
            "--moves" => {
                o.moves = match value("--moves")?.as_str() {
                    "present" => MovesShown::Present,
                    "playable" => MovesShown::Playable,
                    "none" => MovesShown::None,
                    v => bail!("--moves takes present, playable or none, not '{v}'"),
                }
            }
            "--count-actions" => {
                let v = value("--count-actions")?;
                o.count_cap = Some(
                    v.parse()
                        .with_context(|| format!("--count-actions takes a number, not '{v}'"))?,
                );
            }
            "--game" => o.pick = Some(crate::parse_game_number(&value("--game")?)?),
            f if f.starts_with("--") => bail!("unknown option '{f}' for analyze"),
            _ => {
                if file.replace(a.to_string()).is_some() {
                    bail!("analyze takes one input file");
                }
            }
        }
        i += 1;
    }
    o.file = file.unwrap_or_else(|| "-".into());
    Ok(o)
}

pub fn run(args: &[String]) -> Result<()> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!(
            "usage: chess5d analyze [--all-positions] [--moves present|playable|none] [--count-actions CAP] [--json] [--game N] FILE|-\n\n\
             Reports the position after the main line of every game of FILE (or after every action\n\
             with --all-positions); --game N reports game N only (from 1). JSON objects carry \"game\"."
        );
        return Ok(());
    }
    let mut o = parse(args)?;
    let file = o.file.clone();
    crate::for_each_game(&file, o.pick, |number, multi, loaded| {
        o.game = number;
        if multi && !o.json {
            println!("game {number}:");
        }
        report_game(loaded, &o);
        Ok(())
    })
}

/// Reports the main line of a game: its last position, or every position.
fn report_game(loaded: &chess5d_notation::LoadedGame, o: &Options) {
    let game = &loaded.game;
    if o.all_positions {
        let mut pos = game.start().clone();
        report(&pos, 0, o);
        for (i, action) in game.actions().iter().enumerate() {
            for m in &action.moves {
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
            report(&pos, i + 1, o);
        }
    } else {
        // The position after the last submitted action (moves of an unfinished action are not
        // part of a game record).
        let mut pos = game.position().clone();
        pos.undo_action_moves();
        report(&pos, game.actions().len(), o);
    }
}

fn report(pos: &Position, ply: usize, o: &Options) {
    let started = Instant::now();
    let even = pos.even();
    let moves: Vec<String> = match o.moves {
        MovesShown::Present => pos.present_moves().iter().map(|m| m.long(even)).collect(),
        MovesShown::Playable => pos.playable_moves().iter().map(|m| m.long(even)).collect(),
        MovesShown::None => Vec::new(),
    };
    let outcome = pos.outcome(Budget::DEFAULT);
    let in_check = pos.in_check();
    let count = o.count_cap.map(|cap| pos.count_actions(cap, Budget::DEFAULT));
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
            "game": o.game,
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
            "witness": witness,
        });
        println!("{obj}");
        return;
    }
    println!(
        "ply {ply}: {} to move, present T{present}, {} timeline{} ({} active), {}, {}",
        pos.to_move(),
        pos.timeline_count(),
        if pos.timeline_count() == 1 { "" } else { "s" },
        pos.active_count(),
        if in_check { "in check" } else { "not in check" },
        outcome.name()
    );
    if let Outcome::Ongoing(a) = &outcome {
        println!(
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
        println!("  {} {which} moves: {}", moves.len(), moves.join(" "));
    }
    match count {
        None => {}
        Some(ActionCount::Exact(n)) => println!("  legal actions: {n}"),
        Some(ActionCount::AtLeast(n)) => println!("  legal actions: at least {n}"),
        Some(ActionCount::Unknown(n)) => println!("  legal actions: unknown (at least {n}; budget ran out)"),
    }
}

pub fn perft(args: &[String]) -> Result<()> {
    let mut depth = None;
    let mut divide = false;
    let mut file = None;
    for a in args {
        match a.as_str() {
            "--divide" => divide = true,
            f if f.starts_with("--") => bail!("unknown option '{f}' for perft"),
            v if depth.is_none() => {
                depth = Some(
                    v.parse::<u32>()
                        .with_context(|| format!("perft depth must be a number, not '{v}'"))?,
                )
            }
            v => {
                if file.replace(v.to_string()).is_some() {
                    bail!("perft takes a depth and at most one file");
                }
            }
        }
    }
    let depth = depth.context("perft needs a depth")?;
    let pos = match file {
        Some(f) => {
            let g = crate::load_game(&f)?;
            let mut p = g.game.position().clone();
            p.undo_action_moves();
            p
        }
        None => Position::standard(),
    };
    let start = Instant::now();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for action in pos.legal_actions(Budget::UNLIMITED) {
            let mut child = pos.clone();
            for m in &action {
                child.play_unchecked(m);
            }
            child.submit_unchecked();
            let n = child.perft(depth - 1, Budget::UNLIMITED).context("budget ran out")?;
            println!(
                "{} {n}",
                action.iter().map(|m| m.long(pos.even())).collect::<Vec<_>>().join(" ")
            );
            total += n;
        }
        total
    } else {
        pos.perft(depth, Budget::UNLIMITED).context("budget ran out")?
    };
    println!("perft({depth}) = {total}  ({:.3} s)", start.elapsed().as_secs_f64());
    Ok(())
}
