//! `chess5d`: the command line of the chess5d project. Each subcommand is a thin layer over the
//! libraries in `crates/`; the command line itself is declared once, in `cli.rs`.

mod analyze;
mod bench;
mod cli;
mod input;
mod matches;
mod out;
mod reference;
mod review;
mod serve;
mod show;
mod signature;
mod solve;
mod tune;
mod values;

use anyhow::{Context, Result};
use clap::{CommandFactory, FromArgMatches};
use cli::{Cli, Command, ConvertArgs, EngineArgs, Format};
use out::outln;

// The system allocator: mimalloc (used until the game view was written without a `Value`
// tree) spent half of a loaded server's time zeroing fresh huge pages for the views' large
// buffers (perf: clear_page_erms under do_huge_pmd_anonymous_page); glibc's malloc does not,
// and the engine's bench speed is the same with either.

fn main() {
    out::quiet_on_closed_pipe();
    // Usage errors exit with 2 (clap's convention), `--help`/`--version` with 0 on stdout.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match run(cli.command, &matches) {
        Ok(()) => {}
        Err(e) if out::is_closed_pipe(&e) => {}
        Err(e) => {
            eprintln!("chess5d: {e:#}");
            // `match` says 2 for bad arguments and engines that do not start, like clap.
            let code = e
                .downcast_ref::<chess5d_match::MatchError>()
                .map_or(1, |m| m.exit_code());
            std::process::exit(code);
        }
    }
}

fn run(command: Command, matches: &clap::ArgMatches) -> Result<()> {
    match command {
        Command::Analyze(a) => analyze::run(&a),
        Command::Convert(a) => convert(&a),
        Command::Show(a) => show::run(&a.file, a.game),
        Command::Variants => variants(),
        Command::Perft(a) => analyze::perft(&a),
        Command::Reference(c) => reference::run(&c),
        Command::Bench(a) => bench::run(&a),
        Command::Engine(a) => engine(a),
        Command::Match(a) => {
            let m = matches
                .subcommand_matches("match")
                .expect("the match subcommand was parsed");
            matches::run(&a, m)
        }
        Command::Serve(a) => serve::run(&a),
        Command::Review(a) => review::run(&a),
        Command::Tune(a) => tune::run(&a),
        Command::Solve(a) => solve::run(&a),
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

fn convert(a: &ConvertArgs) -> Result<()> {
    let mut first = true;
    input::for_each_game(&a.file, a.game, |_, _, game| {
        let mut text = match a.to {
            Format::Pgn => chess5d_notation::write_5dpgn(game),
            Format::Fen => chess5d_notation::write_5dfen(game.game().position()),
            Format::Long => chess5d_notation::write_long(game.game()),
            Format::Json => chess5d_notation::write_json(game),
            Format::ChessJs => {
                chess5d_notation::chessjs::export(game.game(), chess5d_notation::chessjs::Tokens::default())
            }
        };
        if !text.ends_with('\n') {
            text.push('\n');
        }
        // Games are separated by a blank line.
        if !std::mem::take(&mut first) {
            text.insert(0, '\n');
        }
        out::write(text.as_bytes())
    })
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
    if let Some(cmd) = a.check {
        let report = chess5d_protocol::check_engine(&cmd);
        outln!("{report}");
        anyhow::ensure!(report.passed(), "'{cmd}' failed the 5DUCI check");
        return Ok(());
    }
    let bot = a
        .bot
        .map(|b| ("Bot".to_string(), format!("{b:?}").to_ascii_lowercase()));
    let hash = a.hash.map(|h| ("Hash".to_string(), h.to_string()));
    let settings: Vec<_> = bot.into_iter().chain(hash).chain(a.options).collect();
    let options = chess5d_engine::uci::engine_options(&settings).map_err(anyhow::Error::msg)?;
    chess5d_engine::uci::run_stdio(options).context("engine input/output")
}
