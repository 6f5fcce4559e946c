//! The `chess5d match` command line (and `chess5d engine`, which lives in the protocol crate).
//!
//! Arguments are parsed into [`MatchOptions`], one field per flag, then turned into a
//! [`MatchConfig`]; the parser itself only maps words to fields.

use crate::runner::{run_match_with_events, Event};
use crate::shards::{merge, Shard, Summary};
use crate::{EngineSpec, MatchConfig, MatchError, Opening, Sprt, TimeControl};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

/// The usage of `chess5d match`.
pub const MATCH_USAGE: &str = "\
usage: chess5d match --engine CMD [--name NAME] [--option NAME=VALUE]... --engine CMD ... [flags]
       chess5d match merge [--summary OUT.json] SUMMARY.json...

  --engine CMD          an engine command (run with sh -c); give exactly two. --name and
                        --option apply to the engine given last. Without --name an engine is
                        called by its `id name`. Results are counted for the first engine.
  --games N             number of games (default 2)
  --tc BASE+INC         clock in seconds, e.g. 10+0.1 (default)
  --movetime MS | --nodes N | --depth N
                        fixed thinking per action instead of a clock
  --concurrency K       games played at once (default 1)
  --variant NAME        an opening (repeatable); default Standard
  --variants            every official variant in turn (chess5d variants lists them)
  --openings FILE       5DPGN games (several per file; the position after their moves), or one
                        opening per line: a variant name, 5DFEN boards, or 5DPGN headers
  --unpaired            one opening per game instead of one per pair of games (colours
                        swapped); the statistics then count games, not pairs
  --max-actions N       a draw after N actions (default 200)
  --pgn FILE            append every game to this 5DPGN file as it ends
  --sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]
                        stop when the SPRT (logistic Elo, alpha = beta = 0.05 by default)
                        accepts H0 or H1; the older form --sprt E0 E1 A B works too
  --seed N              the match seed (default 0): engines with a Seed option get one per game
  --rating-interval N   the score report every N games (default 10; 0: at the end only)
  --shard K/N           play the K-th of N shares of the match (by game pair); merge the
                        --summary files of all shares with `chess5d match merge`
  --summary FILE        write the counts and the configuration's fingerprint as JSON
  --margin MS           time an engine may exceed its clock by (default 500)
  --event NAME          the Event header (default 'chess5d match')
  --quiet               no per-game lines, only the final report

Exit status: 0 when the match ran, 2 for bad arguments or an engine that does not start, 1
for other errors.";

/// The `chess5d match` flags, one field each, before they become a [`MatchConfig`].
#[derive(Clone, Debug, PartialEq)]
pub struct MatchOptions {
    /// `--engine` (with the `--name` and `--option` after it).
    pub engines: Vec<EngineSpec>,
    /// `--games`.
    pub games: usize,
    /// `--tc`, `--movetime`, `--nodes` or `--depth`.
    pub tc: TimeControl,
    /// `--concurrency`.
    pub concurrency: usize,
    /// `--variant`, in order.
    pub variants: Vec<String>,
    /// `--variants`.
    pub all_variants: bool,
    /// `--openings`.
    pub openings: Option<String>,
    /// `--unpaired`.
    pub unpaired: bool,
    /// `--max-actions`.
    pub max_actions: usize,
    /// `--pgn`.
    pub pgn: Option<PathBuf>,
    /// `--sprt`.
    pub sprt: Option<Sprt>,
    /// `--seed`.
    pub seed: u64,
    /// `--rating-interval`.
    pub rating_interval: usize,
    /// `--shard`.
    pub shard: Option<Shard>,
    /// `--summary`.
    pub summary: Option<PathBuf>,
    /// `--margin` (ms).
    pub margin: Duration,
    /// `--event`.
    pub event: String,
    /// `--quiet`.
    pub quiet: bool,
}

impl Default for MatchOptions {
    fn default() -> Self {
        let c = MatchConfig::default();
        MatchOptions {
            engines: vec![],
            games: c.games,
            tc: c.tc,
            concurrency: c.concurrency,
            variants: vec![],
            all_variants: false,
            openings: None,
            unpaired: false,
            max_actions: c.max_actions,
            pgn: None,
            sprt: None,
            seed: c.seed,
            rating_interval: c.rating_interval,
            shard: None,
            summary: None,
            margin: c.margin,
            event: c.event,
            quiet: false,
        }
    }
}

impl MatchOptions {
    /// The match these flags describe (reads the openings file).
    pub fn to_config(&self) -> Result<MatchConfig, MatchError> {
        let [a, b]: [EngineSpec; 2] = self
            .engines
            .clone()
            .try_into()
            .map_err(|_| usage(format!("give exactly two --engine, got {}", self.engines.len())))?;
        let mut openings = Vec::new();
        for v in &self.variants {
            openings.push(Opening::variant(v)?);
        }
        if self.all_variants {
            openings.extend(Opening::all_variants());
        }
        if let Some(f) = &self.openings {
            openings.extend(Opening::read_file(f)?);
        }
        if openings.is_empty() {
            openings.push(Opening::variant("Standard")?);
        }
        if let Some(s) = self.sprt {
            s.validate().map_err(usage)?;
        }
        if self.games == 0 {
            return Err(usage("--games must be at least 1".into()));
        }
        Ok(MatchConfig {
            engines: [a, b],
            games: self.games,
            openings,
            tc: self.tc,
            concurrency: self.concurrency.max(1),
            max_actions: self.max_actions,
            pgn: self.pgn.clone(),
            sprt: self.sprt,
            margin: self.margin,
            event: self.event.clone(),
            paired: !self.unpaired,
            seed: self.seed,
            rating_interval: self.rating_interval,
            shard: self.shard,
            summary: self.summary.clone(),
        })
    }
}

fn usage(m: String) -> MatchError {
    MatchError::Config(format!("{m} (see `chess5d match --help`)"))
}

/// Reads `--sprt` values at `args[i..]`: `elo0=.. elo1=.. [alpha=..] [beta=..]` or four
/// numbers. Returns the test and the number of words used.
fn parse_sprt(args: &[String], i: usize) -> Result<(Sprt, usize), MatchError> {
    let bad = || usage("--sprt wants elo0=E0 elo1=E1 [alpha=A] [beta=B]".into());
    let num = |s: &str| s.parse::<f64>().map_err(|_| bad());
    let words: Vec<&str> = args[i..]
        .iter()
        .map(String::as_str)
        .take_while(|w| w.contains('='))
        .collect();
    if words.is_empty() {
        let vals: Vec<f64> = args[i..].iter().take(4).map(|w| num(w)).collect::<Result<_, _>>()?;
        let [elo0, elo1, alpha, beta] = vals[..] else {
            return Err(bad());
        };
        return Ok((
            Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            },
            4,
        ));
    }
    let mut s = Sprt::new(f64::NAN, f64::NAN);
    for w in &words {
        let (k, v) = w.split_once('=').ok_or_else(bad)?;
        match k {
            "elo0" => s.elo0 = num(v)?,
            "elo1" => s.elo1 = num(v)?,
            "alpha" => s.alpha = num(v)?,
            "beta" => s.beta = num(v)?,
            _ => return Err(usage(format!("--sprt: unknown parameter '{k}'"))),
        }
    }
    if s.elo0.is_nan() || s.elo1.is_nan() {
        return Err(bad());
    }
    Ok((s, words.len()))
}

/// Parses the `chess5d match ...` arguments (those after `match`).
pub fn parse_match_args(args: &[String]) -> Result<MatchOptions, MatchError> {
    let mut o = MatchOptions::default();
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let val = |k: usize| {
            args.get(i + k)
                .cloned()
                .ok_or_else(|| usage(format!("{flag} needs a value")))
        };
        let num = |k: usize| -> Result<u64, MatchError> {
            let v = val(k)?;
            v.parse().map_err(|_| usage(format!("{flag}: '{v}' is not a number")))
        };
        let mut used = 2;
        match flag {
            "--engine" => o.engines.push(EngineSpec {
                name: String::new(),
                command: val(1)?,
                options: vec![],
            }),
            "--name" | "--option" => {
                let v = val(1)?;
                let e = o
                    .engines
                    .last_mut()
                    .ok_or_else(|| usage(format!("{flag} before any --engine")))?;
                if flag == "--name" {
                    e.name = v;
                } else {
                    let (n, x) = v
                        .split_once('=')
                        .ok_or_else(|| usage(format!("--option wants NAME=VALUE, got '{v}'")))?;
                    e.options.push((n.to_string(), x.to_string()));
                }
            }
            "--games" => o.games = num(1)? as usize,
            "--tc" => o.tc = TimeControl::parse_clock(&val(1)?).map_err(|e| usage(e.to_string()))?,
            "--movetime" => o.tc = TimeControl::MoveTime(Duration::from_millis(num(1)?)),
            "--nodes" => o.tc = TimeControl::Nodes(num(1)?),
            "--depth" => o.tc = TimeControl::Depth(num(1)? as u32),
            "--concurrency" => o.concurrency = num(1)? as usize,
            "--max-actions" => o.max_actions = num(1)? as usize,
            "--margin" => o.margin = Duration::from_millis(num(1)?),
            "--variant" => o.variants.push(val(1)?),
            "--openings" => o.openings = Some(val(1)?),
            "--pgn" => o.pgn = Some(PathBuf::from(val(1)?)),
            "--summary" => o.summary = Some(PathBuf::from(val(1)?)),
            "--event" => o.event = val(1)?,
            "--seed" => o.seed = num(1)?,
            "--rating-interval" => o.rating_interval = num(1)? as usize,
            "--shard" => o.shard = Some(Shard::parse(&val(1)?).map_err(|e| usage(e.to_string()))?),
            "--sprt" => {
                let (s, n) = parse_sprt(args, i + 1)?;
                o.sprt = Some(s);
                used = n + 1;
            }
            "--variants" => (o.all_variants, used) = (true, 1),
            "--unpaired" => (o.unpaired, used) = (true, 1),
            "--quiet" => (o.quiet, used) = (true, 1),
            other => return Err(usage(format!("unknown argument '{other}'"))),
        }
        i += used;
    }
    Ok(o)
}

/// Prints a line on standard output; false when it is closed (`| head`), which is not an
/// error of the match.
fn say(line: &str) -> bool {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|_| out.flush()).is_ok()
}

/// `chess5d match merge [--summary OUT] FILES...`: adds shard summaries up and prints the
/// report of the whole match.
fn merge_main(args: &[String]) -> Result<(), MatchError> {
    let mut files = Vec::new();
    let mut out = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--summary" => {
                out = Some(PathBuf::from(
                    args.get(i + 1).ok_or_else(|| usage("--summary needs a value".into()))?,
                ));
                i += 1;
            }
            f if f.starts_with("--") => return Err(usage(format!("merge: unknown argument '{f}'"))),
            f => files.push(f.to_string()),
        }
        i += 1;
    }
    if files.is_empty() {
        return Err(usage("merge needs the summary files of the shards".into()));
    }
    let parts = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).map_err(|e| MatchError::Io(format!("{f}: {e}")))?;
            Summary::from_json(&text, f)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (total, note) = merge(&parts)?;
    say(&format!(
        "Merged {} summaries (configuration {}): {} of {} games",
        parts.len(),
        total.fingerprint,
        total.trinomial.games(),
        total.games_planned
    ));
    if let Some(n) = note {
        say(&format!("Warning: {n}"));
    }
    for l in total.report() {
        say(&l);
    }
    if let Some(p) = out {
        total.write(&p)?;
    }
    Ok(())
}

/// `chess5d match ...`: runs the match and prints progress and the result, or merges shard
/// summaries (`chess5d match merge ...`). See [`MatchError::exit_code`] for the exit status.
pub fn match_main(args: &[String]) -> Result<(), MatchError> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        say(MATCH_USAGE);
        return Ok(());
    }
    if args.first().map(String::as_str) == Some("merge") {
        return merge_main(&args[1..]);
    }
    let options = parse_match_args(args)?;
    let config = options.to_config()?;
    if config.shard.is_some() && config.summary.is_none() {
        eprintln!("Warning: --shard without --summary: nothing for `chess5d match merge` to read");
    }
    let interval = config.rating_interval;
    let mut last_report = 0;
    // A closed standard output (`| head`) stops the match: no new game starts.
    let open = std::cell::Cell::new(true);
    let print = |line: &str| {
        if !say(line) {
            open.set(false);
        }
    };
    let result = run_match_with_events(&config, &mut |e| {
        match e {
            Event::Warning(w) => eprintln!("Warning: {w}"),
            Event::Started {
                round,
                total,
                white,
                black,
            } if !options.quiet => print(&crate::output::started_line(*round, *total, white, black)),
            Event::Finished(p) => {
                if !options.quiet {
                    print(&p.line());
                }
                if interval > 0 && p.played % interval == 0 {
                    last_report = p.played;
                    for l in p.report(config.sprt) {
                        print(&l);
                    }
                }
            }
            Event::Started { .. } => {}
        }
        if open.get() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })?;
    if last_report != result.games.len() {
        let sprt = config.sprt.zip(result.sprt);
        for l in crate::output::report_lines(
            &result.names,
            &result.trinomial,
            &result.pentanomial,
            config.paired,
            sprt,
        ) {
            say(&l);
        }
    }
    say(&format!(
        "Finished match: {} vs {}: {result}",
        result.names[0], result.names[1]
    ));
    Ok(())
}

/// The `chess5d` subcommands of this crate: `engine [...]` (see
/// `chess5d_protocol::ENGINE_USAGE`, including `engine --check CMD`) and `match [...]` (see
/// [`MATCH_USAGE`]). `args` starts with the subcommand.
pub fn cli_main(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("engine") => chess5d_protocol::engine_main(&args[1..]),
        Some("match") => match_main(&args[1..]).map_err(|e| e.to_string()),
        _ => Err(format!(
            "usage: chess5d engine|match ...\n\n{}\n\n{MATCH_USAGE}",
            chess5d_protocol::ENGINE_USAGE
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn flags_map_to_fields() {
        let o = parse_match_args(&words(
            "--engine a --name A --option Hash=8 --engine b --games 6 --tc 5+0.05 --concurrency 3 --variant Small --max-actions 50 --sprt elo0=0 elo1=10 --seed 9 --shard 2/3 --summary s.json --rating-interval 4 --quiet",
        ))
        .unwrap();
        assert!(o.quiet);
        assert_eq!(o.engines[0].name, "A");
        assert_eq!(o.engines[0].options, vec![("Hash".to_string(), "8".to_string())]);
        assert_eq!(o.engines[1].name, "");
        assert_eq!(o.sprt, Some(Sprt::new(0.0, 10.0)));
        assert_eq!(o.shard, Some(Shard { index: 2, count: 3 }));
        assert_eq!((o.seed, o.rating_interval), (9, 4));
        let c = o.to_config().unwrap();
        assert_eq!(c.games, 6);
        assert_eq!(c.openings[0].board, "Small");
        assert_eq!(c.summary, Some(PathBuf::from("s.json")));
        let old = parse_match_args(&words("--sprt -5 5 0.1 0.2 --games 4")).unwrap();
        assert_eq!(
            old.sprt,
            Some(Sprt {
                elo0: -5.0,
                elo1: 5.0,
                alpha: 0.1,
                beta: 0.2
            })
        );
        assert_eq!(old.games, 4);
        let v = parse_match_args(&words("--engine a --engine b --variants --unpaired")).unwrap();
        let c = v.to_config().unwrap();
        assert!(!c.paired);
        assert_eq!(c.openings.len(), chess5d_rules::VARIANTS.len());
    }

    #[test]
    fn bad_arguments_say_what() {
        for (args, needle) in [
            ("--engine", "--engine needs a value"),
            ("--games x", "'x' is not a number"),
            ("--name A", "--name before any --engine"),
            ("--sprt elo0=0", "--sprt wants"),
            ("--sprt elo0=0 elo1=5 gamma=1", "unknown parameter 'gamma'"),
            ("--shard 3/2", "--shard wants K/N"),
            ("--tc fast", "bad time control 'fast'"),
            ("--bogus", "unknown argument '--bogus'"),
        ] {
            let e = parse_match_args(&words(args)).unwrap_err();
            assert!(e.to_string().contains(needle), "{args}: {e}");
            assert_eq!(e.exit_code(), 2);
        }
        let one = parse_match_args(&words("--engine a")).unwrap();
        assert!(one
            .to_config()
            .unwrap_err()
            .to_string()
            .contains("exactly two --engine, got 1"));
        let bad = parse_match_args(&words("--engine a --engine b --sprt elo0=10 elo1=0")).unwrap();
        assert!(bad.to_config().unwrap_err().to_string().contains("elo0 < elo1"));
        assert!(cli_main(&["bogus".into()]).is_err());
    }
}
