//! `chess5d`: the command line of the chess5d project. Each subcommand is a thin layer over the
//! libraries in `crates/`.

mod analyze;
mod bench;
mod show;

use anyhow::{bail, Context, Result};
use chess5d_notation::LoadedGame;
use std::io::Read;

const USAGE: &str = "\
chess5d: 5D Chess With Multiverse Time Travel

USAGE:
    chess5d <COMMAND> [ARGS]

COMMANDS:
    analyze [--all-positions] [--moves present|playable|none] [--count-actions CAP] [--json] FILE|-
                  Report the position after the game's last action (or after every action)
    convert --to 5dpgn|5dfen|long|json FILE|-
                  Convert a game or position between notations
    show FILE|-   Draw the multiverse in the terminal
    variants      List the built-in variants
    perft DEPTH [--divide] [FILE|-]
                  Count the legal action sequences of DEPTH actions (standard start by default)
    engine [--bot alphabeta|greedy|random] [--hash MB] [--option NAME=VALUE]... | --check CMD
                  Run the engine on stdin/stdout (5DUCI), or check an engine's protocol compliance
    match --engine CMD ... --engine CMD ... [--games N] [--tc 10+0.1] ...
                  Play engines against each other (see `chess5d match --help`)
    serve [--addr 127.0.0.1:8080] [--db FILE] [--engine NAME=CMD]... [--config FILE] [--public]
                  Serve the web GUI (see `chess5d serve --help`)
    bench [--quick]
                  Speed figures: move generation, check detection, outcomes, counting, perft
    help          Show this text

Input files may be 5DPGN (and its dialects), 5DFEN, the long coordinate form, alexbay's action
notation, the seed GUI's coordinate notation, or 5d-chess-js JSON; `-` reads standard input.";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("chess5d: {e:#}");
        std::process::exit(1);
    }
}

fn run(args: &[String]) -> Result<()> {
    let Some(cmd) = args.first() else {
        println!("{USAGE}");
        return Ok(());
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "analyze" => analyze::run(rest),
        "convert" => convert(rest),
        "show" => show::run(rest),
        "variants" => variants(),
        "perft" => analyze::perft(rest),
        "bench" => bench::run(rest),
        "engine" => chess5d_protocol::engine_main(rest).map_err(anyhow::Error::msg),
        "match" => chess5d_match::match_main(rest).map_err(anyhow::Error::msg),
        "serve" => chess5d_server::serve_main(rest).map_err(anyhow::Error::msg),
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => bail!("unknown command '{other}' (try `chess5d help`)"),
    }
}

/// Reads a file, or standard input for `-`.
pub(crate) fn read_input(path: &str) -> Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading standard input")?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("reading {path}"))
    }
}

/// Reads and loads a game from a file or standard input.
pub(crate) fn load_game(path: &str) -> Result<LoadedGame> {
    let text = read_input(path)?;
    let name = if path == "-" { "<stdin>" } else { path };
    let game = chess5d_notation::load(&text).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    for w in &game.warnings {
        eprintln!("chess5d: {name}: warning: {w}");
    }
    Ok(game)
}

fn convert(args: &[String]) -> Result<()> {
    let mut to = None;
    let mut file = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--to" => {
                i += 1;
                to = Some(
                    args.get(i)
                        .context("--to needs a format: 5dpgn, 5dfen, long or json")?
                        .clone(),
                );
            }
            a if a.starts_with("--to=") => to = Some(a["--to=".len()..].to_string()),
            a if a.starts_with("--") => bail!("unknown option '{a}' for convert"),
            a => {
                if file.replace(a.to_string()).is_some() {
                    bail!("convert takes one input file");
                }
            }
        }
        i += 1;
    }
    let to = to.context("convert needs --to 5dpgn|5dfen|long|json")?;
    let game = load_game(file.as_deref().unwrap_or("-"))?;
    let out = match to.to_ascii_lowercase().as_str() {
        "5dpgn" | "pgn" => chess5d_notation::write_5dpgn(&game),
        "5dfen" | "fen" => chess5d_notation::write_5dfen(game.game.position()),
        "long" => chess5d_notation::write_long(&game.game),
        "json" => chess5d_notation::write_json(&game),
        other => bail!("unknown format '{other}': expected 5dpgn, 5dfen, long or json"),
    };
    print!("{out}");
    if !out.ends_with('\n') {
        println!();
    }
    Ok(())
}

fn variants() -> Result<()> {
    println!("{:<34} {:>5} {:>9}", "Board", "Size", "Timelines");
    for v in chess5d_rules::VARIANTS {
        let labels: Vec<&str> = v
            .boards
            .iter()
            .map(|b| b.0)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        println!(
            "{:<34} {:>5} {:>9}",
            v.name,
            format!("{}x{}", v.width, v.height),
            labels.len()
        );
    }
    Ok(())
}
