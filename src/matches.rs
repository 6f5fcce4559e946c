//! `chess5d match`: engine-vs-engine matches (the runner is `chess5d-match`). The flags fill a
//! [`MatchOptions`]; `--name` and `--option` belong to the `--engine` given before them, which
//! clap's derive cannot say, so their positions are read from the raw matches. An `--engine`
//! is one command, or fastchess-style `key=value` words (`cmd=... tc=...`: time odds).

use crate::values::name_value;
use anyhow::Result;
use chess5d_match::{parse_sprt, EngineSpec, MatchError, MatchOptions, Shard, TimeControl};
use clap::{ArgMatches, Args, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

const MATCH_AFTER_HELP: &str = "\
Results are counted for the first engine. Exit status: 0 when the match ran, 2 for bad
arguments or an engine that does not start, 1 for other errors, 130 after Ctrl-C (the first
lets the games under way finish, the second abandons them; the report is printed either way).

Per-engine settings (time odds), as fastchess and cutechess take them: --engine followed by
key=value words instead of one command:
  cmd=CMD            the command (required; quote it when it has spaces)
  name=NAME          the name in the games (as --name)
  tc=BASE+INC        this engine's clock, in seconds; or st=SECONDS or movetime=MS per
                     action, nodes=N or depth=N (one of them)
  option.NAME=VALUE  a setoption (as --option; repeatable)
An engine without a time control of its own plays at the match's (--tc, --movetime, --nodes,
--depth). Each side's clock runs on its own control, and loses on time by its own clock; the
games record both (WhiteTimeControl and BlackTimeControl when they differ).

Examples:
  chess5d match --engine \"chess5d engine\" --engine \"chess5d engine --bot greedy\" \\
      --games 20 --tc 2+0.05 --concurrency 2 --sprt elo0=0 elo1=10 --pgn games.5dpgn
  chess5d match --engine cmd=\"chess5d engine\" name=odds tc=1+0.01 \\
      --engine cmd=./other name=other tc=10+0.1 option.Hash=64 --games 20";

/// `chess5d match`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, after_help = MATCH_AFTER_HELP)]
pub struct MatchArgs {
    /// `chess5d match merge`: add shard summaries up.
    #[command(subcommand)]
    pub merge: Option<MergeCommand>,
    /// An engine: a command, run with `sh -c`, or key=value words (cmd=CMD name=NAME
    /// tc=BASE+INC option.NAME=VALUE ...; see below); give exactly two.
    #[arg(long = "engine", value_name = "CMD", num_args = 1.., action = clap::ArgAction::Append)]
    pub engines: Vec<String>,
    /// The name of the engine given last (default: its `id name`).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// An option for the engine given last (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
    pub options: Vec<(String, String)>,
    /// Number of games [default: 2].
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Clock per engine in seconds, BASE+INC, e.g. 10+0.1 (the default); an engine's own tc=
    /// overrides it.
    #[arg(long, value_name = "BASE+INC", value_parser = clock, group = "limit")]
    pub tc: Option<TimeControl>,
    /// A fixed time per action instead of a clock.
    #[arg(long, value_name = "MS", group = "limit")]
    pub movetime: Option<u64>,
    /// A fixed node count per action instead of a clock.
    #[arg(long, value_name = "N", group = "limit")]
    pub nodes: Option<u64>,
    /// A fixed depth per action instead of a clock.
    #[arg(long, value_name = "N", group = "limit")]
    pub depth: Option<u32>,
    /// Games played at once [default: 1].
    #[arg(long, value_name = "K")]
    pub concurrency: Option<usize>,
    /// An opening variant (repeatable); default Standard.
    #[arg(long = "variant", value_name = "NAME")]
    pub variant: Vec<String>,
    /// Every official variant in turn (`chess5d variants` lists them).
    #[arg(long)]
    pub variants: bool,
    /// 5DPGN games (several per file; the position after their moves), or one opening per line:
    /// a variant name, 5DFEN boards, or 5DPGN headers.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Play every pair (or game) from the variant's start itself. By default, without
    /// --openings, each pair gets an opening of its own: 2-4 random actions from the start,
    /// kept when a depth-3 search scores them within 100 cp and sees no mate, drawn from --seed.
    #[arg(long, conflicts_with = "openings")]
    pub no_book: bool,
    /// Save the openings book as a multi-game 5DPGN (it reads back with --openings).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["openings", "no_book"])]
    pub book_out: Option<PathBuf>,
    /// One opening per game instead of one per pair of games (colours swapped); the statistics
    /// then count games, not pairs.
    #[arg(long)]
    pub unpaired: bool,
    /// A draw after N actions [default: 200].
    #[arg(long, value_name = "N")]
    pub max_actions: Option<usize>,
    /// Append every game to this 5DPGN file as it ends.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Stop when the GSPRT (logistic Elo, alpha = beta = 0.05 by default) accepts H0 or H1.
    #[arg(long, num_args = 2..=4, value_names = ["elo0=E0", "elo1=E1", "alpha=A", "beta=B"], allow_negative_numbers = true)]
    pub sprt: Option<Vec<String>>,
    /// The match seed: engines with a Seed option get one per game [default: 0].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// The score report every N games (0: at the end only) [default: 10].
    #[arg(long, value_name = "N")]
    pub rating_interval: Option<usize>,
    /// Play the K-th of N shares of the match (by game pair); merge the --summary files of all
    /// shares with `chess5d match merge`.
    #[arg(long, value_name = "K/N", value_parser = shard)]
    pub shard: Option<Shard>,
    /// Write the counts and the configuration's fingerprint as JSON.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Time an engine may exceed its clock by, in ms [default: 500].
    #[arg(long, value_name = "MS")]
    pub margin: Option<u64>,
    /// The Event header [default: 'chess5d match'].
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    /// No per-game lines, only the final report.
    #[arg(long)]
    pub quiet: bool,
}

/// `chess5d match merge`.
#[derive(Debug, Subcommand)]
pub enum MergeCommand {
    /// Add the JSON summaries of a match's shards up and print the whole match's report.
    Merge {
        /// The shards' `--summary` files.
        #[arg(required = true, value_name = "SUMMARY.json")]
        files: Vec<PathBuf>,
        /// Write the merged summary here.
        #[arg(long, value_name = "FILE")]
        summary: Option<PathBuf>,
    },
}

fn clock(s: &str) -> Result<TimeControl, String> {
    TimeControl::parse_clock(s).map_err(|e| e.to_string())
}

fn shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s).map_err(|e| e.to_string())
}

/// The engines with the `--name`s and `--option`s that follow each on the command line.
fn engines(a: &MatchArgs, m: &ArgMatches) -> Result<Vec<EngineSpec>, MatchError> {
    let at = |id: &str| m.indices_of(id).map(|i| i.collect::<Vec<_>>()).unwrap_or_default();
    // The words of each `--engine`, and where each starts on the command line.
    let words: Vec<Vec<String>> = m
        .get_occurrences::<String>("engines")
        .map(|o| o.map(|ws| ws.cloned().collect()).collect())
        .unwrap_or_default();
    debug_assert_eq!(words.iter().map(Vec::len).sum::<usize>(), a.engines.len());
    let indices = at("engines");
    let (mut starts, mut specs, mut first) = (Vec::new(), Vec::new(), 0);
    for (k, ws) in words.iter().enumerate() {
        starts.push(indices.get(first).copied().unwrap_or_default());
        first += ws.len();
        specs.push(if EngineSpec::is_key_value(ws) {
            EngineSpec::from_words(ws, &format!("--engine {}", k + 1))?
        } else {
            EngineSpec::new(ws.concat())
        });
    }
    // The engine a flag at index `i` belongs to: the last `--engine` before it.
    let owner = |flag: &str, i: usize| {
        starts
            .iter()
            .rposition(|&s| s < i)
            .ok_or_else(|| MatchError::Config(format!("{flag} before any --engine")))
    };
    for (name, i) in a.names.iter().zip(at("names")) {
        specs[owner("--name", i)?].name = name.clone();
    }
    for (option, i) in a.options.iter().zip(at("options")) {
        specs[owner("--option", i)?].options.push(option.clone());
    }
    Ok(specs)
}

/// The options the flags describe (unset flags keep [`MatchOptions::default`]).
pub fn options(a: &MatchArgs, m: &ArgMatches) -> Result<MatchOptions, MatchError> {
    let d = MatchOptions::default();
    let tc = match (a.tc, a.movetime, a.nodes, a.depth) {
        (Some(tc), ..) => tc,
        (_, Some(ms), ..) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (_, _, Some(n), _) => TimeControl::Nodes(n),
        (.., Some(d)) => TimeControl::Depth(d),
        _ => d.tc,
    };
    Ok(MatchOptions {
        engines: engines(a, m)?,
        games: a.games.unwrap_or(d.games),
        tc,
        concurrency: a.concurrency.unwrap_or(d.concurrency),
        variants: a.variant.clone(),
        all_variants: a.variants,
        openings: a.openings.clone(),
        book: !a.no_book,
        book_out: a.book_out.clone(),
        unpaired: a.unpaired,
        max_actions: a.max_actions.unwrap_or(d.max_actions),
        pgn: a.pgn.clone(),
        sprt: a.sprt.as_deref().map(parse_sprt).transpose()?,
        seed: a.seed.unwrap_or(d.seed),
        rating_interval: a.rating_interval.unwrap_or(d.rating_interval),
        shard: a.shard,
        summary: a.summary.clone(),
        margin: a.margin.map(Duration::from_millis).unwrap_or(d.margin),
        event: a.event.clone().unwrap_or(d.event),
        quiet: a.quiet,
    })
}

pub fn run(a: &MatchArgs, m: &ArgMatches) -> Result<()> {
    match &a.merge {
        Some(MergeCommand::Merge { files, summary }) => chess5d_match::merge_summaries(files, summary.as_deref())?,
        None => options(a, m)?.run()?,
    }
    Ok(())
}
