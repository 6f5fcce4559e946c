//! `chess5d`: the command line of the chess5d project. Each subcommand is a thin layer over the
//! libraries in `crates/`; the command line itself is declared once, in `cli.rs`.

mod analyze;
mod bench;
mod cli;
mod matches;
mod out;
mod serve;
mod show;

use anyhow::{Context, Result};
use chess5d_notation::LoadedGame;
use clap::{CommandFactory, Parser};
use cli::{Cli, Command, ConvertArgs, EngineArgs, Format};
use std::io::Read;

fn main() {
    out::quiet_on_closed_pipe();
    // Usage errors exit with 2 (clap's convention), `--help`/`--version` with 0 on stdout.
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => {}
        Err(e) if out::is_closed_pipe(&e) => {}
        Err(e) => {
            eprintln!("chess5d: {e:#}");
            std::process::exit(1);
        }
    }
}

fn run(command: Command) -> Result<()> {
    match command {
        Command::Analyze(a) => analyze::run(&a),
        Command::Convert(a) => convert(&a),
        Command::Show(a) => show::run(&a.file),
        Command::Variants => variants(),
        Command::Perft(a) => analyze::perft(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Engine(a) => engine(a),
        Command::Match(a) => matches::run(&a),
        Command::Serve(a) => serve::run(&a),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "chess5d", &mut out);
            out::write(&out)
        }
        Command::Man => {
            let mut out = Vec::new();
            clap_mangen::Man::new(Cli::command()).render(&mut out)?;
            out::write(&out)
        }
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

fn convert(a: &ConvertArgs) -> Result<()> {
    let game = load_game(&a.file)?;
    let mut text = match a.to {
        Format::Pgn => chess5d_notation::write_5dpgn(&game),
        Format::Fen => chess5d_notation::write_5dfen(game.game.position()),
        Format::Long => chess5d_notation::write_long(&game.game),
        Format::Json => chess5d_notation::write_json(&game),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    out::write(text.as_bytes())
}

fn variants() -> Result<()> {
    outln!("{:<34} {:>5} {:>9}", "Board", "Size", "Timelines");
    for v in chess5d_rules::VARIANTS {
        let labels: std::collections::BTreeSet<_> = v.boards.iter().map(|b| b.0).collect();
        outln!(
            "{:<34} {:>5} {:>9}",
            v.name,
            format!("{}x{}", v.width, v.height),
            labels.len()
        );
    }
    Ok(())
}

fn engine(a: EngineArgs) -> Result<()> {
    use chess5d_engine::{Engine, EngineOptions};
    if let Some(cmd) = a.check {
        let report = chess5d_protocol::check_engine(&cmd);
        outln!("{report}");
        anyhow::ensure!(report.passed(), "'{cmd}' failed the 5DUCI check");
        return Ok(());
    }
    let mut engine = Engine::new(EngineOptions::default());
    let bot = a.bot.map(|b| format!("{b:?}").to_ascii_lowercase());
    let hash = a.hash.map(|h| h.to_string());
    let options = bot
        .map(|b| ("Bot".to_string(), b))
        .into_iter()
        .chain(hash.map(|h| ("Hash".to_string(), h)))
        .chain(a.options);
    for (name, value) in options {
        engine
            .set_option(&name, &value)
            .map_err(|e| anyhow::anyhow!("option {name}: {e}"))?;
    }
    chess5d_protocol::run_stdio(engine.options().clone()).context("engine input/output")
}
