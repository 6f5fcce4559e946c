//! `chess5d`: the command line of the chess5d project. Each subcommand is a thin layer over the
//! libraries in `crates/`.

mod analyze;
mod bench;
mod show;

use anyhow::{bail, Context, Result};
use chess5d_notation::{Games, LoadedGame};
use std::io::BufRead;

const USAGE: &str = "\
chess5d: 5D Chess With Multiverse Time Travel

USAGE:
    chess5d <COMMAND> [ARGS]

COMMANDS:
    analyze [--all-positions] [--moves present|playable|none] [--count-actions CAP] [--json]
            [--game N] FILE|-
                  Report the position after each game's last main-line action (or after every
                  action); --game picks one game of a multi-game file (from 1)
    convert --to 5dpgn|5dfen|long|json [--game N] FILE|-
                  Convert every game (or game N) between notations; 5DPGN keeps variations
    show FILE|-   Draw the multiverse in the terminal
    variants      List the built-in variants
    perft DEPTH [--divide] [FILE|-]
                  Count the legal action sequences of DEPTH actions (standard start by default)
    engine [--bot alphabeta|greedy|random] [--hash MB] [--option NAME=VALUE]... | --check CMD
                  Run the engine on stdin/stdout (5DUCI), or check an engine's protocol compliance
    match --engine CMD ... --engine CMD ... [--games N] [--tc 10+0.1] ...
                  Play engines against each other (see `chess5d match --help`)
    serve [--addr 127.0.0.1:8080] [--db FILE] [--engine NAME=CMD]... [--config FILE]
                  Serve the web GUI (see `chess5d serve --help`)
    bench [--quick]
                  Speed figures: move generation, check detection, outcomes, counting, perft
    help          Show this text

Input files may be 5DPGN (and its dialects), 5DFEN, the long coordinate form, alexbay's action
notation, the seed GUI's coordinate notation, or 5d-chess-js JSON; `-` reads standard input.
A 5DPGN file may hold several games (each with its own headers); analyze and convert read it
game by game, report a bad game with its number and line, go on with the others, and exit
non-zero if any failed.";

fn main() {
    quiet_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("chess5d: {e:#}");
        std::process::exit(1);
    }
}

/// `chess5d analyze FILE | head`: printing to a closed pipe ends the command quietly (exit 0)
/// instead of a panic.
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
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

/// Opens a file, or standard input for `-`, to be read game by game.
fn open_input(path: &str) -> Result<Box<dyn BufRead>> {
    if path == "-" {
        Ok(Box::new(std::io::stdin().lock()))
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("reading {path}"))?;
        Ok(Box::new(std::io::BufReader::new(file)))
    }
}

/// Reads the games of a file one at a time (only game `pick` if given, from 1) and hands each
/// to `each` with its number and whether the file holds several games. A game that cannot be
/// read is reported with its number and line and the others go on; the whole fails at the end
/// if any did (a single-game file fails with its own error, as before).
pub(crate) fn for_each_game(
    path: &str,
    pick: Option<usize>,
    mut each: impl FnMut(usize, bool, &LoadedGame) -> Result<()>,
) -> Result<()> {
    let name = if path == "-" { "<stdin>" } else { path };
    let mut games = Games::new(open_input(path)?);
    let (mut seen, mut failed, mut found) = (0, 0, false);
    let mut single_error = None;
    while let Some(item) = games.next() {
        seen += 1;
        let multi = seen > 1 || games.more();
        let number = item.as_ref().map_or_else(|e| e.number, |g| g.number);
        if pick.is_some_and(|p| p != number) {
            continue;
        }
        found = true;
        let loaded = item.map_err(|e| anyhow::anyhow!("{name}: {e}")).and_then(|text| {
            text.load().map_err(|e| {
                if multi {
                    anyhow::anyhow!("{name}: game {} (line {}): {e}", text.number, text.line)
                } else {
                    anyhow::anyhow!("{name}: {e}")
                }
            })
        });
        match loaded {
            Ok(game) => {
                for w in &game.warnings {
                    eprintln!("chess5d: {name}: warning: {w}");
                }
                each(number, multi, &game)?;
            }
            Err(e) if multi => {
                eprintln!("chess5d: {e:#}");
                failed += 1;
            }
            Err(e) => {
                failed += 1;
                single_error = Some(e);
            }
        }
    }
    if seen == 0 && pick.is_none_or(|p| p == 1) {
        // An empty input is the start position of a standard game, as `load("")` reads it.
        let game = chess5d_notation::load("").map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        return each(1, false, &game);
    }
    if let Some(p) = pick.filter(|_| !found) {
        bail!(
            "{name} holds {seen} game{}; there is no game {p}",
            if seen == 1 { "" } else { "s" }
        );
    }
    match single_error {
        Some(e) if seen == 1 => Err(e),
        _ if failed > 0 => bail!("{name}: {failed} of {seen} games could not be read"),
        _ => Ok(()),
    }
}

/// Reads `--game N` (from 1).
pub(crate) fn parse_game_number(value: &str) -> Result<usize> {
    match value.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => bail!("--game takes a game number from 1, not '{value}'"),
    }
}

/// Reads and loads a game from a file or standard input.
/// Commands that work on one game (`show`, `perft`) refuse a file of several.
pub(crate) fn load_game(path: &str) -> Result<LoadedGame> {
    let mut game = None;
    for_each_game(path, None, |_, multi, g| {
        if multi {
            let name = if path == "-" { "<stdin>" } else { path };
            bail!("{name} holds several games; this command reads one (pick it with `chess5d convert --game N`)");
        }
        game = Some(g.clone());
        Ok(())
    })?;
    game.context("no game read")
}

fn convert(args: &[String]) -> Result<()> {
    let mut to = None;
    let mut file = None;
    let mut pick = None;
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
            "--game" => {
                i += 1;
                pick = Some(parse_game_number(args.get(i).context("--game needs a number")?)?);
            }
            a if a.starts_with("--game=") => pick = Some(parse_game_number(&a["--game=".len()..])?),
            "-h" | "--help" => {
                println!("usage: chess5d convert --to 5dpgn|5dfen|long|json [--game N] FILE|-");
                return Ok(());
            }
            a if a.starts_with("--") => bail!("unknown option '{a}' for convert"),
            a => {
                if file.replace(a.to_string()).is_some() {
                    bail!("convert takes one input file");
                }
            }
        }
        i += 1;
    }
    let to = to
        .context("convert needs --to 5dpgn|5dfen|long|json")?
        .to_ascii_lowercase();
    if !["5dpgn", "pgn", "5dfen", "fen", "long", "json"].contains(&to.as_str()) {
        bail!("unknown format '{to}': expected 5dpgn, 5dfen, long or json");
    }
    let mut stdout = std::io::stdout().lock();
    let mut first = true;
    for_each_game(file.as_deref().unwrap_or("-"), pick, |_, _, game| {
        let mut out = match to.as_str() {
            "5dpgn" | "pgn" => chess5d_notation::write_5dpgn(game),
            "5dfen" | "fen" => chess5d_notation::write_5dfen(game.game.position()),
            "long" => chess5d_notation::write_long(&game.game),
            _ => chess5d_notation::write_json(game),
        };
        if !out.ends_with('\n') {
            out.push('\n');
        }
        // Games are separated by a blank line.
        if !std::mem::take(&mut first) {
            out.insert(0, '\n');
        }
        write_out(&mut stdout, &out)
    })
}

/// Writes to standard output; a closed pipe (`| head`) ends the command quietly.
pub(crate) fn write_out(out: &mut impl std::io::Write, text: &str) -> Result<()> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        r => r.context("writing the output"),
    }
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
