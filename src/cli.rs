//! The command line, declared once with clap: every subcommand, its flags and its help text.
//! The handlers live in their own modules; libraries get typed options, never argv.

use crate::values::name_value;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// `chess5d --version`: the package version and the commit it was built from.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("CHESS5D_COMMIT"), ")");

const INPUT_HELP: &str = "Input files may be 5DPGN (and its dialects), 5DFEN, the long coordinate form, alexbay's \
action notation, the seed GUI's coordinate notation, or 5d-chess-js JSON; `-` reads standard input. \
A 5DPGN file may hold several games (each with its own headers): analyze and convert read it game by \
game, report a bad game with its number and line, go on with the others, and exit non-zero if any failed.";

/// 5D Chess With Multiverse Time Travel: rules, notation, engine, matches and a web GUI.
#[derive(Debug, Parser)]
#[command(name = "chess5d", version = VERSION, about, after_help = INPUT_HELP)]
#[command(propagate_version = true, arg_required_else_help = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Report the position after each game's last main-line action (or after every action).
    Analyze(AnalyzeArgs),
    /// Convert every game (or one) between notations.
    Convert(ConvertArgs),
    /// Draw the multiverse in the terminal.
    Show(ShowArgs),
    /// List the built-in variants.
    Variants,
    /// Count the legal action sequences of DEPTH actions (standard start by default).
    Perft(PerftArgs),
    /// The reference suite for other implementations (see data/reference/README.md).
    #[command(subcommand)]
    Reference(crate::reference::ReferenceCommand),
    /// Speed figures: move generation, check detection, outcomes, counting, perft.
    Bench(BenchArgs),
    /// Run the engine on stdin/stdout (5DUCI), or check another engine's protocol compliance.
    Engine(EngineArgs),
    /// Play engines against each other (Elo, SPRT, 5DPGN output).
    Match(Box<crate::matches::MatchArgs>),
    /// Serve the web GUI.
    Serve(crate::serve::ServeArgs),
    /// Review a game with the computer (evaluations, best actions, blunders, accuracy).
    Review(crate::review::ReviewArgs),
    /// Fit the evaluation's weights on games (Texel tuning) and print them as Rust source.
    Tune(crate::tune::TuneArgs),
    /// Can the side to move force checkmate within N actions? A proof-number solver, with
    /// proofs that `solve --check` verifies.
    Solve(crate::solve::SolveArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) on standard output.
    Man,
}

/// Which moves `analyze` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MovesShown {
    /// Moves on boards in the present.
    Present,
    /// Moves on every playable board.
    Playable,
    /// No move list.
    None,
}

/// `chess5d analyze`.
#[derive(Debug, Args)]
#[command(after_help = INPUT_HELP)]
pub struct AnalyzeArgs {
    /// Report every position of the game, not only the last.
    #[arg(long)]
    pub all_positions: bool,
    /// Which moves to list.
    #[arg(long, value_enum, default_value_t = MovesShown::Present, value_name = "WHICH")]
    pub moves: MovesShown,
    /// Count the legal actions, up to CAP (each set of moves with each order of its new
    /// timelines, as cwmtt and ftxi's 5dchess_engine count).
    #[arg(long, value_name = "CAP")]
    pub count_actions: Option<u64>,
    /// Count each distinct resulting position once instead (with --count-actions).
    #[arg(long, requires = "count_actions")]
    pub distinct_positions: bool,
    /// One JSON object per position instead of text (each carries `"game": N`).
    #[arg(long)]
    pub json: bool,
    /// Only game N of a file of several games (from 1).
    #[arg(long, value_name = "N", value_parser = crate::values::game_number)]
    pub game: Option<usize>,
    /// The game(s) or position (`-` for standard input).
    #[arg(default_value = "-")]
    pub file: String,
}

/// The notations `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// 5DPGN with SAN-style moves.
    #[value(name = "5dpgn", alias = "pgn")]
    Pgn,
    /// 5DFEN: every board of the final position.
    #[value(name = "5dfen", alias = "fen")]
    Fen,
    /// The long coordinate form, one action per line.
    Long,
    /// 5d-chess-js style JSON.
    Json,
    /// 5DPGN as 5d-chess-js 1.2 writes it (its `export('5dpgn')`).
    #[value(name = "5d-chess-js", alias = "chessjs")]
    ChessJs,
}

/// `chess5d convert`.
#[derive(Debug, Args)]
#[command(after_help = INPUT_HELP)]
pub struct ConvertArgs {
    /// The notation to write (5DPGN keeps variations).
    #[arg(long, value_enum, ignore_case = true)]
    pub to: Format,
    /// Only game N of a file of several games (from 1).
    #[arg(long, value_name = "N", value_parser = crate::values::game_number)]
    pub game: Option<usize>,
    /// The game(s) or position (`-` for standard input).
    #[arg(default_value = "-")]
    pub file: String,
}

/// `chess5d show`.
#[derive(Debug, Args)]
#[command(after_help = INPUT_HELP)]
pub struct ShowArgs {
    /// Only game N of a file of several games (from 1).
    #[arg(long, value_name = "N", value_parser = crate::values::game_number)]
    pub game: Option<usize>,
    /// The game or position (`-` for standard input).
    #[arg(default_value = "-")]
    pub file: String,
}

/// `chess5d perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// How many actions deep to count.
    pub depth: u32,
    /// Print the count below each first action.
    #[arg(long)]
    pub divide: bool,
    /// Count each distinct resulting position once per action, instead of each set of moves with
    /// each order of its new timelines (the default, as cwmtt and ftxi's 5dchess_engine count).
    #[arg(long)]
    pub distinct_positions: bool,
    /// Start from this game's final position instead of the standard start (`-` for standard input).
    pub file: Option<String>,
}

/// `chess5d bench`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("searched").args(["signature", "threads"])))]
pub struct BenchArgs {
    /// Fewer runs per figure.
    #[arg(long)]
    pub quick: bool,
    /// Only the 100-timeline workload, counting N actions (for profiling).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "1000")]
    pub big: Option<u64>,
    /// Only the engine's bench signature: a fixed-depth search of fixed positions from several
    /// variants; the total node count, printed last, changes exactly when the search does.
    #[arg(long, conflicts_with = "big")]
    pub signature: bool,
    /// With --signature or --threads: search each position this many actions deeper (or
    /// shallower) than the signature does [default: 0 with --signature, 1 with --threads].
    #[arg(long, value_name = "N", allow_negative_numbers = true, requires = "searched")]
    pub depth_offset: Option<i32>,
    /// Only the parallel search's speedup: the signature's positions searched one depth deeper
    /// with 1 thread and with N threads (time to the same depth, nodes per second, ratios).
    #[arg(long, value_name = "N", conflicts_with_all = ["big", "signature"],
          value_parser = clap::value_parser!(u32).range(2..=256))]
    pub threads: Option<u32>,
}

/// The built-in players `engine --bot` offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Bot {
    /// Iterative-deepening alpha-beta search (the engine).
    Alphabeta,
    /// One-ply greedy material grabber.
    Greedy,
    /// A uniformly random legal action.
    Random,
}

/// `chess5d engine`.
#[derive(Debug, Args)]
#[command(after_help = "Engine options (for --option): Hash, Threads, Bot, ActionCap, NodeBudget, Seed, MoveOverhead.")]
pub struct EngineArgs {
    /// The built-in player to run.
    #[arg(long, value_enum)]
    pub bot: Option<Bot>,
    /// Transposition table size in MB.
    #[arg(long, value_name = "MB")]
    pub hash: Option<u32>,
    /// Any engine option, set before the protocol starts (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
    pub options: Vec<(String, String)>,
    /// Instead of running the engine, walk COMMAND (a shell command) through 5DUCI and report.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = ["bot", "hash", "options"])]
    pub check: Option<String>,
}

/// The match command's flags as `chess5d match` reads them (here, beside the command line, so
/// that matches.rs needs nothing of cli.rs).
#[cfg(test)]
mod match_flags {
    use super::{Cli, Command};
    use crate::matches::options;
    use chess5d_match::{MatchOptions, Shard, TimeControl};
    use clap::{CommandFactory, FromArgMatches};

    fn parse(line: &str) -> Result<MatchOptions, String> {
        let words = std::iter::once("chess5d").chain(line.split(' '));
        let m = Cli::command().try_get_matches_from(words).map_err(|e| e.to_string())?;
        let Command::Match(a) = Cli::from_arg_matches(&m).unwrap().command else {
            panic!("not a match command")
        };
        options(&a, m.subcommand_matches("match").unwrap()).map_err(|e| e.to_string())
    }

    #[test]
    fn names_and_options_belong_to_the_engine_before_them() {
        let o = parse(
            "match --engine a --name A --option Hash=8 --engine b --option Bot=random --option Seed=3 --games 6 \
             --tc 5+0.05 --concurrency 3 --variant Small --max-actions 50 --sprt elo0=0 elo1=10 --seed 9 \
             --shard 2/3 --summary s.json --rating-interval 4 --quiet",
        )
        .unwrap();
        assert_eq!((o.engines[0].name.as_str(), o.engines[1].name.as_str()), ("A", ""));
        assert_eq!(o.engines[0].options, vec![("Hash".to_string(), "8".to_string())]);
        assert_eq!(o.engines[1].options.len(), 2);
        assert_eq!(
            (o.games, o.concurrency, o.max_actions, o.seed, o.rating_interval),
            (6, 3, 50, 9, 4)
        );
        assert_eq!(o.sprt, Some(chess5d_match::Sprt::new(0.0, 10.0)));
        assert_eq!(o.shard, Some(Shard { index: 2, count: 3 }));
        assert!(o.quiet && o.variants == ["Small"]);
        assert_eq!(o.tc, TimeControl::parse_clock("5+0.05").unwrap());
        let old = parse("match --sprt -5 5 0.1 0.2 --games 4").unwrap();
        assert_eq!(old.sprt.map(|s| (s.elo0, s.beta)), Some((-5.0, 0.2)));
        let fixed = parse("match --engine a --engine b --depth 3").unwrap();
        assert_eq!(fixed.tc, TimeControl::Depth(3));
    }

    #[test]
    fn engines_in_key_value_words_carry_their_own_time_control() {
        let o = parse(
            "match --engine cmd=./fast name=F tc=1+0.01 option.Hash=8 --option Threads=2 \
             --engine ./slow --name S --tc 10+0.1 --games 4",
        )
        .unwrap();
        let [f, s] = &o.engines[..] else { panic!("{o:?}") };
        assert_eq!((f.command.as_str(), f.name.as_str()), ("./fast", "F"));
        assert_eq!(f.tc, Some(TimeControl::parse_clock("1+0.01").unwrap()));
        assert_eq!(f.options.len(), 2);
        // A command alone, as before; the match-wide --tc after it stays the match's.
        assert_eq!((s.command.as_str(), s.name.as_str(), s.tc), ("./slow", "S", None));
        assert_eq!(o.tc, TimeControl::parse_clock("10+0.1").unwrap());
        let c = o.to_config().unwrap();
        assert_eq!(c.tc_of(0), TimeControl::parse_clock("1+0.01").unwrap());
        assert_eq!(c.tc_of(1), TimeControl::parse_clock("10+0.1").unwrap());
        let both = parse("match --engine cmd=a nodes=100 --engine cmd=b depth=3").unwrap();
        assert_eq!(
            (both.engines[0].tc, both.engines[1].tc),
            (Some(TimeControl::Nodes(100)), Some(TimeControl::Depth(3)))
        );
    }

    #[test]
    fn bad_flags_say_what() {
        for (line, needle) in [
            ("match --engine", "a value is required for '--engine <CMD>...'"),
            ("match --games x", "invalid value 'x' for '--games <N>'"),
            ("match --name A --engine a", "--name before any --engine"),
            ("match --sprt elo0=0 elo1=5 gamma=1", "unknown parameter 'gamma'"),
            ("match --shard 3/2", "--shard wants K/N"),
            ("match --tc fast", "bad time control 'fast'"),
            ("match --tc 1+0 --nodes 5", "cannot be used with"),
            ("match --bogus", "unexpected argument '--bogus'"),
            ("match --engine cmd=a tcc=1 --engine b", "--engine 1: unknown key 'tcc'"),
            (
                "match --engine a --engine cmd=b tc=fast",
                "--engine 2: tc=fast: bad time control 'fast'",
            ),
            ("match --engine a tc=1 --engine b", "--engine 1: 'a' is not key=value"),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.contains(needle), "{line}: {e}");
        }
    }
}
