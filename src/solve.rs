//! `chess5d solve`: can the side to move force checkmate within N actions? (`chess5d_solve`),
//! and `chess5d solve --check FILE`, which checks a proof file with the rules alone.

use crate::out::outln;
use anyhow::{bail, Context, Result};
use chess5d_rules::{Position, Variant};
use chess5d_solve::{check, solve, write_proof, Config, Progress, Verdict};
use clap::Args;
use std::io::Write;

const SOLVE_AFTER_HELP: &str = "\
The first line of standard output is the answer for the side to move: `win in N for white` (or
black: a forced checkmate in N of its actions, the shortest), `no win for white within N actions`,
or `unknown` (the node budget ran out, or a list of legal actions the rules' budget could not
finish). Then the figures: nodes, time, table size. Progress goes to standard error.

The search is depth-first proof-number search over whole actions, deepened one action at a time.
--proof writes the proof tree (every defence answered) or the disproof tree (every action of the
side to move answered), in the format `chess5d solve --check` reads (documented in
crates/solve/src/check.rs). --check verifies such a file with the rules crate alone, listing
every legal action where all must be answered, and prints `proof holds: CLAIM` or where it
breaks (then the exit status is 1).";

/// `chess5d solve`.
#[derive(Debug, Args)]
#[command(after_help = SOLVE_AFTER_HELP)]
pub struct SolveArgs {
    /// The position: the end of the game's main line (`-` for standard input; any notation
    /// `analyze` reads).
    #[arg(conflicts_with_all = ["variant", "check"], required_unless_present_any = ["variant", "check"])]
    pub file: Option<String>,
    /// Solve the start of a built-in variant instead (`chess5d variants` lists them).
    #[arg(long, value_name = "NAME", conflicts_with = "check")]
    pub variant: Option<String>,
    /// Only game N of a file of several games (from 1).
    #[arg(long, value_name = "N", value_parser = crate::values::game_number)]
    pub game: Option<usize>,
    /// The most actions of the side to move a win may take.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub max_actions: u32,
    /// The most nodes (positions whose legal actions are listed) before answering `unknown`.
    #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Search threads. More than 1 splits the root's actions among them (mates in one are
    /// looked for on one thread first); the node budget and the table are shared out. No
    /// progress is printed then.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// The transposition table's size in MB (32-byte entries).
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Write the proof (or disproof) tree to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "check")]
    pub proof: Option<String>,
    /// Check the proof file FILE instead of solving.
    #[arg(long, value_name = "FILE")]
    pub check: Option<String>,
    /// No progress on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(a: &SolveArgs) -> Result<()> {
    if let Some(path) = &a.check {
        return check_file(path);
    }
    let pos = position(a)?;
    let config = Config {
        max_actions: a.max_actions,
        nodes: a.nodes,
        table_entries: (a.hash as usize) << 15,
        ..Config::default()
    };
    let quiet = a.quiet;
    let mut progress = |p: &Progress| {
        if !quiet {
            eprintln!(
                "solve: depth {} nodes {} pn {} dn {} table {} time {:.1}s",
                p.depth, p.nodes, p.root_pn, p.root_dn, p.table, p.seconds
            );
        }
    };
    let report = if a.threads > 1 {
        chess5d_solve::solve_threads(&pos, &config, a.threads as usize)
    } else {
        solve(&pos, &config, Some(&mut progress))
    };
    // The proof file first: a headline is printed only once its proof is written.
    let written = match (&a.proof, write_proof(&pos, &report)) {
        (Some(path), Some(text)) => {
            write_atomically(path, &text)?;
            Some((path, text.lines().count()))
        }
        _ => None,
    };
    outln!("{}", report.headline(&pos));
    let secs = report.elapsed.as_secs_f64();
    outln!("nodes {}", report.nodes);
    outln!("tests {}", report.tests);
    outln!("time {secs:.3} s ({:.0} nodes/s)", report.nodes as f64 / secs.max(1e-9));
    outln!("table {} of {} entries", report.table.0, report.table.1);
    let size = match &report.verdict {
        Verdict::Win { proof, .. } => Some(("proof", proof.size())),
        Verdict::NoWin { disproof, .. } => Some(("disproof", disproof.size())),
        Verdict::Unknown => None,
    };
    if let Some((kind, n)) = size {
        outln!("{kind} {n} actions");
    }
    if let Some((path, lines)) = written {
        outln!("written {path} ({lines} lines)");
    } else if a.proof.is_some() {
        outln!("no proof written: the answer is unknown");
    }
    Ok(())
}

fn position(a: &SolveArgs) -> Result<Position> {
    if let Some(name) = &a.variant {
        let Some(v) = Variant::by_name(name) else {
            bail!("unknown variant '{name}' (`chess5d variants` lists them)");
        };
        return Ok(v.position());
    }
    let file = a.file.as_deref().unwrap_or("-");
    let game = crate::input::load_one_game(file, a.game, "--game N")?;
    Ok(game.game().position().clone())
}

/// Writes a file whole or not at all: a temporary file beside it, then a rename.
fn write_atomically(path: &str, text: &str) -> Result<()> {
    let tmp = format!("{path}.tmp{}", std::process::id());
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("writing {path}"))
}

fn check_file(path: &str) -> Result<()> {
    let text = crate::input::read_input(path)?;
    match check::check(&text) {
        Ok(claim) => {
            outln!("proof holds: {claim}");
            Ok(())
        }
        Err(e) => {
            let name = if path == "-" { "<stdin>" } else { path };
            bail!("{name}: {e}")
        }
    }
}
