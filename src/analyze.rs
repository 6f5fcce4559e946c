//! `chess5d analyze` and `chess5d perft`.

use anyhow::{bail, Context, Result};
use chess5d_rules::{ActionCount, Budget, Convention, Outcome, Position};
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
    /// How `--count-actions` tells actions apart.
    convention: Convention,
    json: bool,
    file: String,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut o = Options {
        all_positions: false,
        moves: MovesShown::Present,
        count_cap: None,
        convention: Convention::Orderings,
        json: false,
        file: "-".into(),
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
            "--distinct-positions" => o.convention = Convention::DistinctPositions,
            f if f.starts_with("--") => bail!("unknown option '{f}' for analyze"),
            _ => {
                if file.replace(a.to_string()).is_some() {
                    bail!("analyze takes one input file");
                }
            }
        }
        i += 1;
    }
    if o.convention != Convention::Orderings && o.count_cap.is_none() {
        bail!("--distinct-positions changes how --count-actions counts: give --count-actions CAP too");
    }
    o.file = file.unwrap_or_else(|| "-".into());
    Ok(o)
}

pub fn run(args: &[String]) -> Result<()> {
    let o = parse(args)?;
    let loaded = crate::load_game(&o.file)?;
    let game = &loaded.game;
    if o.all_positions {
        let mut pos = game.start().clone();
        report(&pos, 0, &o);
        for (i, action) in game.actions().iter().enumerate() {
            for m in &action.moves {
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
            report(&pos, i + 1, &o);
        }
    } else {
        // The position after the last submitted action (moves of an unfinished action are not
        // part of a game record).
        let mut pos = game.position().clone();
        pos.undo_action_moves();
        report(&pos, game.actions().len(), &o);
    }
    Ok(())
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
    let count = o
        .count_cap
        .map(|cap| pos.count_actions_by(cap, Budget::DEFAULT, o.convention));
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
            "legal_actions_convention": if count.is_some() { json!(o.convention.name()) } else { serde_json::Value::Null },
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
    let c = o.convention;
    match count {
        None => {}
        Some(ActionCount::Exact(n)) => println!("  legal actions ({c}): {n}"),
        Some(ActionCount::AtLeast(n)) => println!("  legal actions ({c}): at least {n}"),
        Some(ActionCount::Unknown(n)) => {
            println!("  legal actions ({c}): unknown (at least {n}; budget ran out)")
        }
    }
}

const PERFT_USAGE: &str = "\
chess5d perft DEPTH [--divide] [--distinct-positions] [FILE|-]

Counts the legal action sequences of DEPTH actions from the position after FILE's last action
(the standard start without FILE).

    --divide              one line per first action with the sequences after it
    --distinct-positions  count each distinct resulting position once per action, instead of
                          each set of moves with each order of its new timelines (the default,
                          as cwmtt and ftxi's 5dchess_engine count)";

pub fn perft(args: &[String]) -> Result<()> {
    let mut depth = None;
    let mut divide = false;
    let mut convention = Convention::Orderings;
    let mut file = None;
    for a in args {
        match a.as_str() {
            "-h" | "--help" => {
                println!("{PERFT_USAGE}");
                return Ok(());
            }
            "--divide" => divide = true,
            "--distinct-positions" => convention = Convention::DistinctPositions,
            f if f.starts_with("--") => bail!("unknown option '{f}' for perft (see `chess5d perft --help`)"),
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
    let depth = depth.context("perft needs a depth (see `chess5d perft --help`)")?;
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
        for action in pos.legal_actions_by(Budget::UNLIMITED, convention) {
            let mut child = pos.clone();
            for m in &action {
                child.play_unchecked(m);
            }
            child.submit_unchecked();
            let n = child
                .perft_by(depth - 1, Budget::UNLIMITED, convention)
                .context("budget ran out")?;
            println!(
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
    println!(
        "perft({depth}) = {total}  ({convention}, {:.3} s)",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
