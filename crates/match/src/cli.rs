//! The match as a console program sees it: [`MatchOptions`] (one field per `chess5d match`
//! flag; the binary's clap definition fills them), [`MatchOptions::run`] printing progress and
//! the report, and [`merge_summaries`] for `chess5d match merge`. No argv handling here.

use crate::book::{book_5dpgn, make_book_reporting, BookOptions};
use crate::runner::{run_match_until, Event, Stop};
use crate::shards::{merge, Shard, Summary};
use crate::{EngineSpec, MatchConfig, MatchError, Opening, Sprt, TimeControl};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The `chess5d match` flags, one field each, before they become a [`MatchConfig`].
#[derive(Clone, Debug, PartialEq)]
pub struct MatchOptions {
    /// `--engine` (a command, or `cmd=... name=... tc=... option.X=...` words, with the
    /// `--name` and `--option` after it).
    pub engines: Vec<EngineSpec>,
    /// `--games`.
    pub games: usize,
    /// `--tc`, `--movetime`, `--nodes` or `--depth`: the time control of the engines that
    /// have none of their own.
    pub tc: TimeControl,
    /// `--concurrency`.
    pub concurrency: usize,
    /// `--variant`, in order.
    pub variants: Vec<String>,
    /// `--variants`.
    pub all_variants: bool,
    /// `--openings`.
    pub openings: Option<String>,
    /// Without `--openings`, a book of balanced openings from the variants (`--no-book`: false).
    pub book: bool,
    /// `--book-out`: where to save the book as 5DPGN.
    pub book_out: Option<PathBuf>,
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
            book: true,
            book_out: None,
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
        self.to_config_reporting(&|_| {})
    }

    /// The number of openings a book for these flags has: one per unit (pair or game) of the
    /// whole match, shards included.
    fn book_units(&self) -> usize {
        if self.unpaired {
            self.games
        } else {
            self.games.div_ceil(2)
        }
    }

    /// [`to_config`](Self::to_config), calling `drafted` as the openings of the book are
    /// drafted (see [`make_book_reporting`]).
    pub fn to_config_reporting(&self, drafted: &(dyn Fn(usize) + Sync)) -> Result<MatchConfig, MatchError> {
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
        if self.book_out.is_some() && (self.openings.is_some() || !self.book) {
            return Err(usage(
                "--book-out saves the book, which --openings and --no-book turn off".into(),
            ));
        }
        if self.openings.is_none() && self.book {
            let units = self.book_units();
            let book = make_book_reporting(&openings, units, self.seed, &BookOptions::default(), drafted);
            if let Some(path) = &self.book_out {
                std::fs::write(path, book_5dpgn(&book))
                    .map_err(|e| MatchError::Io(format!("{}: {e}", path.display())))?;
            }
            openings = book.into_iter().map(|e| e.opening).collect();
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

/// Reads the words of `--sprt`: `elo0=E0 elo1=E1 [alpha=A] [beta=B]`, or four numbers
/// `E0 E1 ALPHA BETA` (the older form).
pub fn parse_sprt(words: &[String]) -> Result<Sprt, MatchError> {
    let bad = || usage("--sprt wants elo0=E0 elo1=E1 [alpha=A] [beta=B]".into());
    let num = |s: &str| s.parse::<f64>().map_err(|_| bad());
    if !words.iter().any(|w| w.contains('=')) {
        let vals: Vec<f64> = words.iter().map(|w| num(w)).collect::<Result<_, _>>()?;
        let [elo0, elo1, alpha, beta] = vals[..] else {
            return Err(bad());
        };
        return Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        });
    }
    let mut s = Sprt::new(f64::NAN, f64::NAN);
    for w in words {
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
    Ok(s)
}

/// Prints a line on standard output; false when it is closed (`| head`), which is not an
/// error of the match.
fn say(line: &str) -> bool {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|_| out.flush()).is_ok()
}

/// `chess5d match merge [--summary OUT] FILES...`: adds shard summaries up and prints the
/// report of the whole match (and writes the merged summary to `out`).
pub fn merge_summaries(files: &[PathBuf], out: Option<&Path>) -> Result<(), MatchError> {
    if files.is_empty() {
        return Err(usage("merge needs the summary files of the shards".into()));
    }
    let parts = files
        .iter()
        .map(|f| {
            let name = f.display().to_string();
            let text = std::fs::read_to_string(f).map_err(|e| MatchError::Io(format!("{name}: {e}")))?;
            Summary::from_json(&text, &name)
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
        total.write(p)?;
    }
    Ok(())
}

/// What `chess5d match` says on standard error while it drafts a book of `units` openings
/// (none when it draws no book): a line first, then one at every tenth drafted, since a large
/// book of variants with many timelines takes minutes before the first game.
fn book_progress(units: usize) -> impl Fn(usize) + Sync {
    let start = std::time::Instant::now();
    let units = units.max(1);
    let noun = if units == 1 { "opening" } else { "openings" };
    move |done: usize| {
        if done == 1 {
            eprintln!("Drawing a book of {units} {noun} (a balance search each; --book-out saves it, --openings plays it again)");
        }
        // The drafted counts are distinct, so each tenth is crossed by exactly one of them.
        let tenth = done * 10 / units;
        if tenth > (done - 1) * 10 / units {
            let secs = start.elapsed().as_secs_f64();
            eprintln!("Book: {done} of {units} {noun} drawn ({}%), {secs:.0} s", tenth * 10);
        }
    }
}

impl MatchOptions {
    /// Runs the match these options describe, printing progress and the report on standard
    /// output (warnings on standard error). See [`MatchError::exit_code`] for the exit status.
    pub fn run(&self) -> Result<(), MatchError> {
        let options = self;
        let config = if options.quiet {
            options.to_config()?
        } else {
            options.to_config_reporting(&book_progress(self.book_units()))?
        };
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
        let stop = Arc::new(Stop::default());
        watch_ctrl_c(Arc::clone(&stop));
        let result = run_match_until(&config, &stop, &mut |e| {
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
        // Always said, so that a report shows that no game repeated (with the book, none
        // should: its openings all differ).
        say(&format!(
            "Repeated games: {} (each the same as an earlier game move for move)",
            result.repeats
        ));
        say(&format!(
            "Finished match: {} vs {}: {result}",
            result.names[0], result.names[1]
        ));
        if stop.requested() {
            let abandoned = match result.abandoned {
                0 => String::new(),
                n => format!(", {n} abandoned game{} not counted", if n == 1 { "" } else { "s" }),
            };
            return Err(MatchError::Interrupted(format!(
                "Ctrl-C: {} of {} games played{abandoned}",
                result.games.len(),
                config.games
            )));
        }
        Ok(())
    }
}

/// Ctrl-C stops the match as fastchess does, with the report of what was played: the first
/// lets the games under way end (they count), the second abandons them after their current
/// action, the third ends the program at once. Engines run in process groups of their own, so
/// the terminal's Ctrl-C does not reach them and the games under way can end normally.
fn watch_ctrl_c(stop: Arc<Stop>) {
    #[cfg(unix)]
    {
        use signal_hook::consts::SIGINT;
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT]) else {
            return;
        };
        std::thread::spawn(move || {
            for (n, _) in signals.forever().enumerate() {
                match n {
                    0 => {
                        eprintln!("Ctrl-C: no new game starts; the games under way finish and count (Ctrl-C again to abandon them)");
                        stop.finish();
                    }
                    1 => {
                        eprintln!("Ctrl-C: the games under way end after their current action, uncounted (Ctrl-C again to quit at once)");
                        stop.abandon();
                    }
                    _ => std::process::exit(130),
                }
            }
        });
    }
    #[cfg(not(unix))]
    let _ = stop;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    fn engine(command: &str) -> EngineSpec {
        EngineSpec::new(command)
    }

    #[test]
    fn options_become_a_config() {
        let o = MatchOptions {
            engines: vec![engine("a"), engine("b")],
            games: 6,
            variants: vec!["Small".into()],
            sprt: Some(parse_sprt(&words("elo0=0 elo1=10")).unwrap()),
            summary: Some(PathBuf::from("s.json")),
            ..MatchOptions::default()
        };
        let c = o.to_config().unwrap();
        assert_eq!(c.games, 6);
        // The book: one opening of its own per pair, each a few actions into Small (or, once,
        // Small's start, when no balanced opening was drawn for a pair).
        assert_eq!(c.openings.len(), 3);
        let start = Opening::variant("Small").unwrap();
        assert!(c.openings.iter().filter(|o| **o == start).count() <= 1);
        for (i, opening) in c.openings.iter().enumerate() {
            let pos = opening.start.position().unwrap();
            assert_eq!(pos.size().to_string(), "5x5");
            assert!(pos.present_turn() > 1 || *opening == start, "{opening:?}");
            assert!(
                c.openings[..i].iter().all(|o| o != opening),
                "openings repeat: {:?}",
                c.openings
            );
        }
        assert_eq!(c.sprt, Some(Sprt::new(0.0, 10.0)));
        assert_eq!(c.summary, Some(PathBuf::from("s.json")));
        let plain = MatchOptions {
            book: false,
            ..o.clone()
        }
        .to_config()
        .unwrap();
        assert_eq!(plain.openings, vec![Opening::variant("Small").unwrap()]);
        let v = MatchOptions {
            engines: vec![engine("a"), engine("b")],
            all_variants: true,
            unpaired: true,
            book: false,
            ..MatchOptions::default()
        };
        let c = v.to_config().unwrap();
        assert!(!c.paired);
        assert_eq!(c.openings.len(), chess5d_rules::VARIANTS.len());
        let e = MatchOptions {
            book_out: Some(PathBuf::from("b.5dpgn")),
            ..v
        }
        .to_config()
        .unwrap_err();
        assert!(e.to_string().contains("--book-out"), "{e}");
    }

    #[test]
    fn sprt_words_in_both_forms() {
        assert_eq!(parse_sprt(&words("elo0=0 elo1=10")).unwrap(), Sprt::new(0.0, 10.0));
        assert_eq!(
            parse_sprt(&words("-5 5 0.1 0.2")).unwrap(),
            Sprt {
                elo0: -5.0,
                elo1: 5.0,
                alpha: 0.1,
                beta: 0.2
            }
        );
        for (args, needle) in [
            ("elo0=0", "--sprt wants"),
            ("elo0=0 elo1=5 gamma=1", "unknown parameter 'gamma'"),
            ("1 2 3", "--sprt wants"),
        ] {
            let e = parse_sprt(&words(args)).unwrap_err();
            assert!(e.to_string().contains(needle), "{args}: {e}");
            assert_eq!(e.exit_code(), 2);
        }
    }

    #[test]
    fn bad_options_say_what() {
        let one = MatchOptions {
            engines: vec![engine("a")],
            ..MatchOptions::default()
        };
        let e = one.to_config().unwrap_err();
        assert!(e.to_string().contains("exactly two --engine, got 1"), "{e}");
        assert_eq!(e.exit_code(), 2);
        let bad = MatchOptions {
            engines: vec![engine("a"), engine("b")],
            sprt: Some(Sprt::new(10.0, 0.0)),
            ..MatchOptions::default()
        };
        assert!(bad.to_config().unwrap_err().to_string().contains("elo0 < elo1"));
        assert!(merge_summaries(&[], None).is_err());
    }
}
