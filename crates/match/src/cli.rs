//! The `chess5d match` and `chess5d engine` command lines.

use crate::{run_match, EngineSpec, MatchConfig, MatchError, Opening, Sprt, TimeControl};
use std::path::PathBuf;
use std::time::Duration;

/// The usage of `chess5d match`.
pub const MATCH_USAGE: &str = "\
usage: chess5d match --engine CMD [--name NAME] [--option NAME=VALUE]... --engine CMD ... [flags]

  --engine CMD          an engine command (run with sh -c); give exactly two. --name and
                        --option apply to the engine given last.
  --games N             number of games (default 2)
  --tc BASE+INC         clock in seconds, e.g. 10+0.1 (default)
  --movetime MS | --nodes N | --depth N
                        fixed thinking per action instead of a clock
  --concurrency K       games played at once (default 1)
  --variant NAME        an opening (repeatable); default Standard
  --openings FILE       openings, one per line: a variant name, 5DFEN boards, or 5DPGN
                        headers on one line
  --max-actions N       a draw after N actions (default 200)
  --pgn FILE            append every game to this 5DPGN file as it ends
  --sprt ELO0 ELO1 ALPHA BETA
                        stop early when the SPRT accepts H0 or H1
  --margin MS           time an engine may exceed its clock by (default 500)
  --quiet               no progress lines";

/// Parses the `chess5d match ...` arguments (those after `match`).
pub fn parse_match_args(args: &[String]) -> Result<(MatchConfig, bool), MatchError> {
    let mut config = MatchConfig::default();
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut openings = Vec::new();
    let mut quiet = false;
    let mut i = 0;
    let bad = |m: String| MatchError::Config(format!("{m}\n{MATCH_USAGE}"));
    while i < args.len() {
        let flag = args[i].as_str();
        let val = |k: usize| {
            args.get(i + k)
                .cloned()
                .ok_or_else(|| bad(format!("{flag} needs a value")))
        };
        let num =
            |k: usize| -> Result<u64, MatchError> { val(k)?.parse().map_err(|_| bad(format!("{flag}: not a number"))) };
        let mut used = 1;
        match flag {
            "--engine" => {
                let cmd = val(1)?;
                engines.push(EngineSpec {
                    name: format!("engine{}", engines.len() + 1),
                    command: cmd,
                    options: vec![],
                });
                used = 2;
            }
            "--name" | "--option" => {
                let v = val(1)?;
                let e = engines
                    .last_mut()
                    .ok_or_else(|| bad(format!("{flag} before any --engine")))?;
                if flag == "--name" {
                    e.name = v;
                } else {
                    let (n, x) = v
                        .split_once('=')
                        .ok_or_else(|| bad(format!("--option wants NAME=VALUE, got '{v}'")))?;
                    e.options.push((n.to_string(), x.to_string()));
                }
                used = 2;
            }
            "--games" => (config.games, used) = (num(1)? as usize, 2),
            "--tc" => (config.tc, used) = (TimeControl::parse_clock(&val(1)?)?, 2),
            "--movetime" => (config.tc, used) = (TimeControl::MoveTime(Duration::from_millis(num(1)?)), 2),
            "--nodes" => (config.tc, used) = (TimeControl::Nodes(num(1)?), 2),
            "--depth" => (config.tc, used) = (TimeControl::Depth(num(1)? as u32), 2),
            "--concurrency" => (config.concurrency, used) = (num(1)? as usize, 2),
            "--max-actions" => (config.max_actions, used) = (num(1)? as usize, 2),
            "--margin" => (config.margin, used) = (Duration::from_millis(num(1)?), 2),
            "--variant" => {
                openings.push(Opening::variant(&val(1)?)?);
                used = 2;
            }
            "--openings" => {
                openings.extend(Opening::read_file(&val(1)?)?);
                used = 2;
            }
            "--pgn" => (config.pgn, used) = (Some(PathBuf::from(val(1)?)), 2),
            "--event" => (config.event, used) = (val(1)?, 2),
            "--sprt" => {
                let f = |k: usize| -> Result<f64, MatchError> {
                    val(k)?
                        .parse()
                        .map_err(|_| bad("--sprt wants ELO0 ELO1 ALPHA BETA".into()))
                };
                config.sprt = Some(Sprt {
                    elo0: f(1)?,
                    elo1: f(2)?,
                    alpha: f(3)?,
                    beta: f(4)?,
                });
                used = 5;
            }
            "--quiet" => quiet = true,
            other => return Err(bad(format!("unknown argument '{other}'"))),
        }
        i += used;
    }
    let [a, b]: [EngineSpec; 2] = engines
        .try_into()
        .map_err(|_| bad("give exactly two --engine".into()))?;
    config.engines = [a, b];
    if openings.is_empty() {
        openings.push(Opening::variant("Standard")?);
    }
    config.openings = openings;
    Ok((config, quiet))
}

/// `chess5d match ...`: runs the match and prints progress and the result.
pub fn match_main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{MATCH_USAGE}");
        return Ok(());
    }
    let (config, quiet) = parse_match_args(args).map_err(|e| e.to_string())?;
    let result = run_match(&config, &mut |p| {
        if !quiet {
            eprintln!("{}", p.line());
        }
    })
    .map_err(|e| e.to_string())?;
    println!("{} vs {}: {result}", config.engines[0].name, config.engines[1].name);
    Ok(())
}

/// The `chess5d` subcommands of this crate: `engine [...]` (see
/// `chess5d_protocol::ENGINE_USAGE`, including `engine --check CMD`) and `match [...]` (see
/// [`MATCH_USAGE`]). `args` starts with the subcommand.
pub fn cli_main(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("engine") => chess5d_protocol::engine_main(&args[1..]),
        Some("match") => match_main(&args[1..]),
        _ => Err(format!(
            "usage: chess5d engine|match ...\n\n{}\n\n{MATCH_USAGE}",
            chess5d_protocol::ENGINE_USAGE
        )),
    }
}
