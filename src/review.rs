//! `chess5d review`: a computer review of a game (`chess5d_engine::review`), written back as
//! 5DPGN with lichess's comments, or as JSON graph data.

use anyhow::Result;
use chess5d_engine::review::{self, Class, Progress, ReviewOptions, Reviewer};
use chess5d_engine::Limits;
use chess5d_rules::Color;
use clap::Args;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

const REVIEW_AFTER_HELP: &str = "\
Every position of the game's main line is searched once (by default to depth 4, at most 1.2 s
each; --depth and --time replace both). An action is classed by the drop of its player's winning
chances 2p-1, with p = 1/(1+exp(-k*cp)) (k fitted on the ladder's games): 0.1 an inaccuracy (?!),
0.2 a mistake (?), 0.3 a blunder (??), as lichess classes moves. An action's accuracy is
lichess's 103.1668*exp(-0.04354*(before-after))-3.1669 on win percentages; a side's is the mean.
An unfinished game is reviewed as far as it was played. The game is written back as 5DPGN with a
[%eval] comment after every action (White's view, in pawns), the glyph and a note on the classed
ones with the engine's line (as a variation with --variations); --json writes the graph data
instead. A progress bar
is drawn on standard error when it is a terminal; the accuracies are written there at the end.";

/// `chess5d review`.
#[derive(Debug, Args)]
#[command(after_help = REVIEW_AFTER_HELP)]
pub struct ReviewArgs {
    /// The game (`-` for standard input; any notation `analyze` reads).
    #[arg(default_value = "-")]
    pub file: String,
    /// Only game N of a file of several games (from 1).
    #[arg(long, value_name = "N", value_parser = crate::values::game_number)]
    pub game: Option<usize>,
    /// Write the graph data as JSON (per action: evaluation before and after, best action and
    /// line, class, accuracy; each side's accuracy) instead of the annotated game.
    #[arg(long)]
    pub json: bool,
    /// Search each position this many milliseconds (at most).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub time: Option<u64>,
    /// Search each position to this depth, in actions (at most).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..64))]
    pub depth: Option<u32>,
    /// Search each position this many nodes (at most).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search threads (the engine's Threads option: a parallel search) [default: every core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Write the engine's line of a classed action as a variation (Branched 5DPGN, as lichess
    /// writes PGN) rather than at the end of its comment. Our reader and other readers of
    /// variations read it; 5d-chess-js 1.2.1 plays variations as the main line.
    #[arg(long)]
    pub variations: bool,
    /// Transposition table size in MB.
    #[arg(long, value_name = "MB")]
    pub hash: Option<u32>,
}

pub fn run(a: &ReviewArgs) -> Result<()> {
    let game = crate::input::load_one_game(&a.file, a.game, "--game N")?;
    let name = if a.file == "-" { "<stdin>" } else { a.file.as_str() };
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32));
    let mut settings = vec![("Threads".to_string(), threads.to_string())];
    if let Some(h) = a.hash {
        settings.push(("Hash".to_string(), h.to_string()));
    }
    let engine = chess5d_engine::uci::engine_options(&settings).map_err(anyhow::Error::msg)?;
    let mut options = ReviewOptions {
        engine,
        ..ReviewOptions::default()
    };
    if a.time.is_some() || a.depth.is_some() || a.nodes.is_some() {
        options.limits = Limits {
            depth: a.depth,
            movetime: a.time.map(Duration::from_millis),
            nodes: a.nodes,
            ..Limits::default()
        };
    }
    let total = game.game().actions().len();
    if total == 0 {
        anyhow::bail!("{name}: the game has no action to review");
    }
    match review::result_of(&game) {
        Some(r) => eprintln!("chess5d: reviewing the {total} actions of {name} ({r})"),
        None => {
            eprintln!("chess5d: {name} has no result: reviewing its {total} actions as played (an unfinished game)")
        }
    }
    let mut bar = Bar::new();
    let mut reviewer = Reviewer::new(options.clone());
    let review = reviewer.review(&game, &mut |p| bar.draw(p));
    bar.finish();
    for side in [Color::White, Color::Black] {
        let count = |c: Class| review.count(side, c);
        eprintln!(
            "chess5d: {side}: accuracy {}, inaccuracies {}, mistakes {}, blunders {}",
            review
                .accuracy(side)
                .map_or_else(|| "-".to_string(), |x| format!("{x:.1}")),
            count(Class::Inaccuracy),
            count(Class::Mistake),
            count(Class::Blunder)
        );
    }
    let mut text = if a.json {
        review.json().to_string()
    } else {
        let mut annotated = review::annotate(&game, &review, a.variations);
        let budget = [
            options.limits.depth.map(|d| format!("depth {d}")),
            options.limits.movetime.map(|t| format!("{} ms", t.as_millis())),
            options.limits.nodes.map(|n| format!("{n} nodes")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
        let mut headers: Vec<(String, String)> = annotated
            .headers
            .iter()
            .filter(|(k, _)| {
                !["Annotator", "WhiteAccuracy", "BlackAccuracy"]
                    .iter()
                    .any(|h| k.eq_ignore_ascii_case(h))
            })
            .cloned()
            .collect();
        headers.push((
            "Annotator".to_string(),
            format!("chess5d review ({budget} per position)"),
        ));
        for (side, h) in [(Color::White, "WhiteAccuracy"), (Color::Black, "BlackAccuracy")] {
            if let Some(x) = review.accuracy(side) {
                headers.push((h.to_string(), format!("{x:.1}")));
            }
        }
        annotated.headers = headers;
        chess5d_notation::write_5dpgn(&annotated)
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    crate::out::write(text.as_bytes())
}

/// The progress bar on standard error (drawn only when it is a terminal).
struct Bar {
    tty: bool,
    start: Instant,
}

impl Bar {
    fn new() -> Bar {
        Bar {
            tty: std::io::stderr().is_terminal(),
            start: Instant::now(),
        }
    }

    fn draw(&mut self, p: &Progress<'_>) {
        if !self.tty {
            return;
        }
        const WIDTH: usize = 30;
        let filled = WIDTH * p.searched / p.positions.max(1);
        let secs = self.start.elapsed().as_secs();
        let _ = write!(
            std::io::stderr(),
            "\rreview [{}{}] {}/{} positions {}:{:02}",
            "#".repeat(filled),
            "-".repeat(WIDTH - filled),
            p.searched,
            p.positions,
            secs / 60,
            secs % 60
        );
    }

    fn finish(&self) {
        if self.tty {
            let _ = writeln!(std::io::stderr());
        }
    }
}
