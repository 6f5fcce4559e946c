//! What a match is made of: the engines, the time control and the match's settings.

use crate::{MatchError, Opening, Shard, Sprt};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// An engine of the match: a shell command, the options to set and, for odds matches, a
/// time control of its own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name written in the games (`White`/`Black`) and the progress lines; empty: the
    /// engine's `id name` (or its command, if it sends none).
    pub name: String,
    /// The command, run with `sh -c`.
    pub command: String,
    /// `setoption` pairs sent after the handshake.
    pub options: Vec<(String, String)>,
    /// This engine's own time control (time odds); `None`: the match's ([`MatchConfig::tc`]).
    pub tc: Option<TimeControl>,
}

/// The keys of an engine given as `key=value` words (see [`EngineSpec::from_words`]).
pub const ENGINE_KEYS: &str = "cmd, name, tc, st, movetime, nodes, depth, option.NAME";

impl EngineSpec {
    /// An engine run with `command`, with no name, option or time control of its own.
    pub fn new(command: impl Into<String>) -> EngineSpec {
        EngineSpec {
            command: command.into(),
            ..EngineSpec::default()
        }
    }

    /// Whether the words of one `--engine` are in the `key=value` form rather than one shell
    /// command: more than one word, or one that starts with a key of that form (`cmd=...`).
    pub fn is_key_value(words: &[String]) -> bool {
        match words {
            [one] => one.split_once('=').is_some_and(|(k, _)| is_key(k)),
            _ => words.len() > 1,
        }
    }

    /// Reads an engine as fastchess and cutechess take one, `key=value` words:
    /// `cmd=COMMAND` (required), `name=NAME`, `tc=BASE+INC` (seconds), `st=SECONDS` or
    /// `movetime=MS` (a fixed time per action), `nodes=N`, `depth=N` (one of these four at
    /// most: the engine's own time control), and `option.NAME=VALUE` (repeatable). `at` says
    /// where the words were given (`--engine 1`) in the errors.
    pub fn from_words(words: &[String], at: &str) -> Result<EngineSpec, MatchError> {
        let bad = |m: String| MatchError::Config(format!("{at}: {m}"));
        let mut spec = EngineSpec::default();
        let mut command = None;
        let mut limit: Option<&str> = None;
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| {
                bad(format!(
                    "'{w}' is not key=value (the keys: {ENGINE_KEYS}; or give one command alone)"
                ))
            })?;
            let number = |what: &str| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| bad(format!("{k}={v}: {what} must be a whole number")))
            };
            let tc = match k {
                "cmd" if v.trim().is_empty() => return Err(bad("cmd= is empty".into())),
                "cmd" => {
                    command = Some(v.to_string());
                    None
                }
                "name" => {
                    spec.name = v.to_string();
                    None
                }
                "tc" => Some(TimeControl::parse_clock(v).map_err(|e| bad(format!("tc={v}: {e}")))?),
                "st" => Some(TimeControl::MoveTime(
                    v.trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s > 0.0)
                        .map(Duration::from_secs_f64)
                        .ok_or_else(|| bad(format!("st={v}: seconds per action must be a positive number")))?,
                )),
                "movetime" => Some(TimeControl::MoveTime(Duration::from_millis(number("movetime (ms)")?))),
                "nodes" => Some(TimeControl::Nodes(number("nodes")?)),
                "depth" => Some(TimeControl::Depth(
                    u32::try_from(number("depth")?).map_err(|_| bad(format!("depth={v}: too deep")))?,
                )),
                _ => match k.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_string(), v.to_string()));
                        None
                    }
                    _ => return Err(bad(format!("unknown key '{k}' in '{w}' (the keys: {ENGINE_KEYS})"))),
                },
            };
            if let Some(tc) = tc {
                if let Some(first) = limit {
                    return Err(bad(format!(
                        "{first}= and {k}= both set the engine's time control; give one"
                    )));
                }
                limit = Some(k);
                spec.tc = Some(tc);
            }
        }
        spec.command = command.ok_or_else(|| bad(format!("no cmd= (the keys: {ENGINE_KEYS})")))?;
        Ok(spec)
    }
}

fn is_key(k: &str) -> bool {
    matches!(k, "cmd" | "name" | "tc" | "st" | "movetime" | "nodes" | "depth") || k.starts_with("option.")
}

/// How long engines may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: base time plus an increment per action; running out loses.
    Clock {
        /// Time at the start.
        base: Duration,
        /// Added after each action.
        inc: Duration,
    },
    /// A fixed time per action.
    MoveTime(Duration),
    /// A fixed number of nodes per action.
    Nodes(u64),
    /// A fixed depth per action.
    Depth(u32),
}

impl TimeControl {
    /// Reads `10+0.1` (seconds + increment) or `10`.
    pub fn parse_clock(s: &str) -> Result<TimeControl, MatchError> {
        let secs = |x: &str| {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| MatchError::Config(format!("bad time control '{s}'")))
        };
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        Ok(TimeControl::Clock {
            base: secs(base)?,
            inc: secs(inc)?,
        })
    }
}

impl fmt::Display for TimeControl {
    /// The `TimeControl` header: `10+0.1` for a clock (seconds), `movetime=0.05`, `nodes=1000`,
    /// `depth=4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, inc } => write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64()),
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_secs_f64()),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are counted for the first.
    pub engines: [EngineSpec; 2],
    /// Number of games.
    pub games: usize,
    /// The openings, used in turn, each for a pair of games with colours swapped (or for one
    /// game when `paired` is false).
    pub openings: Vec<Opening>,
    /// Thinking time: each engine's own ([`EngineSpec::tc`]) or else this one.
    pub tc: TimeControl,
    /// Games played at once.
    pub concurrency: usize,
    /// After this many actions the game is a draw.
    pub max_actions: usize,
    /// The 5DPGN file the games are appended to.
    pub pgn: Option<PathBuf>,
    /// Stop early on an SPRT decision.
    pub sprt: Option<Sprt>,
    /// Extra time an engine may take over its clock or move time before it loses on time
    /// (pipe latency, process start).
    pub margin: Duration,
    /// The `Event` header.
    pub event: String,
    /// Games are played in pairs, one opening with both colours, and the statistics count
    /// pairs (pentanomial). False: each game has its own opening, statistics count games.
    pub paired: bool,
    /// The match seed: engines that list a `Seed` option (and were given none) get one derived
    /// from it and the game number, so a game replays the same in any run or shard.
    pub seed: u64,
    /// Report the score, Elo and SPRT every this many games (and at the end); 0: only at the end.
    pub rating_interval: usize,
    /// Play only this share of the games (by pair index); the SPRT does not stop a shard.
    pub shard: Option<Shard>,
    /// Where to write the JSON summary (counts and the configuration's fingerprint) at the end.
    pub summary: Option<PathBuf>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engines: [
                EngineSpec {
                    name: "engine1".into(),
                    ..EngineSpec::new("chess5d engine")
                },
                EngineSpec {
                    name: "engine2".into(),
                    ..EngineSpec::new("chess5d engine")
                },
            ],
            games: 2,
            openings: vec![],
            tc: TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100),
            },
            concurrency: 1,
            max_actions: 200,
            pgn: None,
            sprt: None,
            margin: Duration::from_millis(500),
            event: "chess5d match".into(),
            paired: true,
            seed: 0,
            rating_interval: 10,
            shard: None,
            summary: None,
        }
    }
}

impl MatchConfig {
    /// The time control of engine `k` (0 or 1): its own, else the match's.
    pub fn tc_of(&self, k: usize) -> TimeControl {
        self.engines[k].tc.unwrap_or(self.tc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_print() {
        let tc = TimeControl::parse_clock("10+0.1").unwrap();
        assert_eq!(
            tc,
            TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            }
        );
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!(TimeControl::parse_clock("5").unwrap().to_string(), "5+0");
        assert_eq!(
            TimeControl::MoveTime(Duration::from_millis(50)).to_string(),
            "movetime=0.05"
        );
        assert_eq!(TimeControl::Nodes(60).to_string(), "nodes=60");
        for bad in ["", "x", "-1", "1+y", "inf"] {
            let e = TimeControl::parse_clock(bad).unwrap_err();
            assert!(e.to_string().contains("bad time control"), "{bad}: {e}");
        }
    }

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn engines_read_from_key_value_words() {
        let e = EngineSpec::from_words(
            &words("cmd=./eng name=Fast tc=1+0.01 option.Hash=8 option.Threads=2"),
            "--engine 1",
        )
        .unwrap();
        assert_eq!(e.command, "./eng");
        assert_eq!(e.name, "Fast");
        assert_eq!(e.tc, Some(TimeControl::parse_clock("1+0.01").unwrap()));
        assert_eq!(
            e.options,
            vec![("Hash".into(), "8".into()), ("Threads".into(), "2".into())]
        );
        // The command keeps its own `=` and spaces (one word on the command line).
        let e = EngineSpec::from_words(&["cmd=FOO=1 ./eng --x".to_string()], "-").unwrap();
        assert_eq!((e.command.as_str(), e.tc), ("FOO=1 ./eng --x", None));
        for (w, tc) in [
            ("cmd=a st=0.05", TimeControl::MoveTime(Duration::from_millis(50))),
            ("cmd=a movetime=30", TimeControl::MoveTime(Duration::from_millis(30))),
            ("cmd=a nodes=500", TimeControl::Nodes(500)),
            ("cmd=a depth=3", TimeControl::Depth(3)),
        ] {
            assert_eq!(EngineSpec::from_words(&words(w), "-").unwrap().tc, Some(tc), "{w}");
        }
        assert!(EngineSpec::is_key_value(&words("cmd=./a")));
        assert!(EngineSpec::is_key_value(&words("cmd=./a tc=1")));
        assert!(EngineSpec::is_key_value(&words("./a tc=1")));
        // One command alone, as before (an environment assignment is not a key).
        assert!(!EngineSpec::is_key_value(&words("./a")));
        assert!(!EngineSpec::is_key_value(&["RUST_LOG=debug ./a".to_string()]));
        assert!(!EngineSpec::is_key_value(&["chess5d engine --bot greedy".to_string()]));
    }

    #[test]
    fn bad_engine_words_say_what_and_where() {
        for (w, needle) in [
            (
                "cmd=a tcc=1",
                "--engine 2: unknown key 'tcc' in 'tcc=1' (the keys: cmd,",
            ),
            ("cmd=a tc=fast", "--engine 2: tc=fast: bad time control 'fast'"),
            ("cmd=a tc=-1+0", "tc=-1+0: bad time control"),
            ("cmd=a st=0", "st=0: seconds per action must be a positive number"),
            ("cmd=a nodes=many", "nodes=many: nodes must be a whole number"),
            ("cmd=a tc=1 nodes=5", "tc= and nodes= both set"),
            ("name=A tc=1", "--engine 2: no cmd="),
            ("cmd= tc=1", "cmd= is empty"),
            ("./a tc=1", "'./a' is not key=value"),
            ("cmd=a option.=1", "unknown key 'option.'"),
        ] {
            let e = EngineSpec::from_words(&words(w), "--engine 2").unwrap_err();
            assert!(e.to_string().contains(needle), "{w}: {e}");
            assert_eq!(e.exit_code(), 2, "{w}");
        }
    }

    #[test]
    fn each_engine_has_its_own_or_the_match_time_control() {
        let mut c = MatchConfig::default();
        c.engines[1].tc = Some(TimeControl::Nodes(9));
        assert_eq!(c.tc_of(0), c.tc);
        assert_eq!(c.tc_of(1), TimeControl::Nodes(9));
    }
}
