//! Engine-versus-engine matches over 5DUCI.
//!
//! [`run_match`] plays games between two engine commands (any 5DUCI program) in parallel,
//! swapping colours on each opening pair, with a clock (`10+0.1`), fixed nodes, depth or move
//! time; adjudicates (too many actions: draw; an engine failure: a loss for that engine, with
//! the reason); writes every game to a 5DPGN file as soon as it ends; and reports W/D/L, Elo
//! with a 95% margin and, optionally, an SPRT verdict. [`cli_main`] is the `chess5d` command
//! line for `engine` and `match`.
//!
//! ```
//! use chess5d_match::{elo, sprt_llr};
//!
//! let (e, margin) = elo(60, 20, 20).unwrap();
//! assert!(e > 100.0 && margin > 0.0);
//! assert!(sprt_llr(60, 20, 20, 0.0, 10.0) > 0.0);
//! ```
#![deny(missing_docs)]

use chess5d_engine::Limits;
use chess5d_protocol::{parse_fen_boards, EngineAnswer, EngineError, EngineProcess, GameState, StartPos};
use chess5d_rules::{Budget, Color, Move, Outcome, Position, Size, Variant};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// An engine of the match: a shell command and the options to set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name written in the games (`White`/`Black`).
    pub name: String,
    /// The command, run with `sh -c`.
    pub command: String,
    /// `setoption` pairs sent after the handshake.
    pub options: Vec<(String, String)>,
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

/// Where games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The `Board` header: a variant name or `custom`.
    pub board: String,
    /// The start sent to the engines.
    pub start: StartPos,
}

impl Opening {
    /// An official variant by name.
    pub fn variant(name: &str) -> Result<Opening, MatchError> {
        let v = Variant::by_name(name).ok_or_else(|| MatchError::Config(format!("unknown variant '{name}'")))?;
        Ok(Opening {
            board: v.name.to_string(),
            start: StartPos::Variant(v.name.to_string()),
        })
    }

    /// One line of an openings file: a variant name, 5DFEN boards (`[...:0:1:w]`), or 5DPGN
    /// headers on one line (`[Size "5x5"] [Board "custom"] [4k/5/5/5/K1R2:0:1:w]`).
    pub fn parse_line(line: &str) -> Result<Opening, MatchError> {
        let line = line.trim();
        if !line.starts_with('[') {
            return Opening::variant(line);
        }
        let mut size = None;
        let mut board = None;
        let mut fens = Vec::new();
        for block in line
            .split('[')
            .map(|b| b.trim().trim_end_matches(']').trim())
            .filter(|b| !b.is_empty())
        {
            if let Some((name, value)) = block.split_once(' ').filter(|(_, v)| v.trim().starts_with('"')) {
                let value = value.trim().trim_matches('"');
                match name {
                    "Size" => {
                        size = value
                            .split_once('x')
                            .and_then(|(w, h)| Size::new(w.parse().ok()?, h.parse().ok()?));
                    }
                    "Board" => board = Some(value.to_string()),
                    _ => {}
                }
            } else {
                fens.push(format!("[{block}]"));
            }
        }
        if fens.is_empty() {
            return Opening::variant(board.as_deref().unwrap_or("Standard"));
        }
        let setup = parse_fen_boards(&fens.join(" "), size, None).map_err(|e| MatchError::Config(e.to_string()))?;
        let start = StartPos::Fen(setup);
        start.position().map_err(|e| MatchError::Config(e.to_string()))?;
        Ok(Opening {
            board: "custom".into(),
            start,
        })
    }

    /// Reads an openings file: one opening per line, `#` comments and blank lines skipped.
    pub fn read_file(path: &str) -> Result<Vec<Opening>, MatchError> {
        let text = std::fs::read_to_string(path).map_err(|e| MatchError::Io(format!("{path}: {e}")))?;
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(Opening::parse_line)
            .collect()
    }
}

/// A sequential probability ratio test: H0 "the first engine is `elo0` stronger" against H1
/// "`elo1` stronger", with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

impl Sprt {
    /// The (lower, upper) log-likelihood ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtStatus {
    /// No decision yet; the current log-likelihood ratio.
    Continue(f64),
    /// H0 accepted.
    H0(f64),
    /// H1 accepted.
    H1(f64),
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are counted for the first.
    pub engines: [EngineSpec; 2],
    /// Number of games.
    pub games: usize,
    /// The openings, used in turn, each for a pair of games with colours swapped.
    pub openings: Vec<Opening>,
    /// Thinking time.
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
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engines: [
                EngineSpec {
                    name: "engine1".into(),
                    command: "chess5d engine".into(),
                    options: vec![],
                },
                EngineSpec {
                    name: "engine2".into(),
                    command: "chess5d engine".into(),
                    options: vec![],
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
        }
    }
}

/// Why a match could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// Bad settings or arguments.
    Config(String),
    /// A file could not be read or written.
    Io(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(m) => write!(f, "{m}"),
            MatchError::Io(m) => write!(f, "i/o error: {m}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The PGN result string.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based game number.
    pub round: usize,
    /// Which engine (0 or 1) had White.
    pub white: usize,
    /// The opening.
    pub opening: Opening,
    /// The actions played.
    pub actions: Vec<Vec<Move>>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended (checkmate, stalemate, max actions, or the engine failure).
    pub termination: String,
}

impl GameRecord {
    /// Ends the game on a proven outcome of a position where `to_move` is to move: checkmate
    /// (`to_move` loses) or stalemate. False, and nothing written, for any other outcome.
    fn end_by(&mut self, outcome: &Outcome, to_move: Color) -> bool {
        match outcome {
            Outcome::Checkmate => {
                self.result = GameResult::win_for(to_move.other());
                self.termination = "checkmate".into();
                true
            }
            Outcome::Stalemate => {
                self.termination = "stalemate".into();
                true
            }
            _ => false,
        }
    }

    /// The score of engine 0: 1, 0.5 or 0.
    pub fn score_of_first(&self) -> f64 {
        match (self.result, self.white) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, 0) | (GameResult::BlackWins, 1) => 1.0,
            _ => 0.0,
        }
    }

    /// The game in 5DPGN: headers, the 5DFEN of custom starts, and the actions in long form.
    pub fn to_5dpgn(&self, config: &MatchConfig, date: &str) -> String {
        let start = self.opening.start.position().ok();
        let even = start.as_ref().is_some_and(Position::even);
        let mut s = String::new();
        let mut header = |k: &str, v: &str| s.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
        header("Event", &config.event);
        header("Date", date);
        header("Round", &self.round.to_string());
        header("White", &config.engines[self.white].name);
        header("Black", &config.engines[1 - self.white].name);
        header("Result", self.result.pgn());
        header("Termination", &self.termination);
        header("Mode", "5D");
        header("Board", &self.opening.board);
        if let Some(p) = &start {
            header("Size", &p.size().to_string());
        }
        if let (StartPos::Fen(_), Some(p)) = (&self.opening.start, &start) {
            s.push_str(&chess5d_protocol::write_fen_boards(&p.to_setup()));
            s.push('\n');
        }
        s.push('\n');
        let first_black = start.as_ref().is_some_and(|p| p.to_move() == Color::Black);
        let mut turn = 1;
        for (i, a) in self.actions.iter().enumerate() {
            let text = a.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" ");
            let black = (i % 2 == 1) != first_black;
            if !black {
                s.push_str(&format!("{turn}. {text}"));
            } else if i == 0 {
                s.push_str(&format!("{turn}b. {text}\n"));
                turn += 1;
            } else {
                s.push_str(&format!(" / {text}\n"));
                turn += 1;
            }
        }
        if !s.ends_with('\n') {
            s.push('\n');
        }
        s.push_str(self.result.pgn());
        s.push_str("\n\n");
        s
    }
}

/// Progress after each game.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    /// Games finished.
    pub played: usize,
    /// Games planned.
    pub total: usize,
    /// Wins, draws and losses of the first engine.
    pub wdl: (usize, usize, usize),
    /// The game just finished.
    pub game: &'a GameRecord,
    /// The SPRT state, if one runs.
    pub sprt: Option<SprtStatus>,
}

impl Progress<'_> {
    /// A one-line summary.
    pub fn line(&self) -> String {
        let (w, d, l) = self.wdl;
        let mut s = format!(
            "game {}/{}: {} ({}) | {} W {} D {} L",
            self.played,
            self.total,
            self.game.result.pgn(),
            self.game.termination,
            w,
            d,
            l
        );
        if let Some((e, m)) = elo(w, d, l) {
            s.push_str(&format!(" | Elo {e:+.0} +/- {m:.0}"));
        }
        if let Some(st) = self.sprt {
            s.push_str(&format!(" | SPRT {st:?}"));
        }
        s
    }
}

/// The result of a match.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Wins of the first engine.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses of the first engine.
    pub losses: usize,
    /// Elo of the first engine over the second and its 95% margin, when defined.
    pub elo: Option<(f64, f64)>,
    /// The SPRT verdict, if one ran.
    pub sprt: Option<SprtStatus>,
    /// Every game, in the order they finished.
    pub games: Vec<GameRecord>,
}

impl fmt::Display for MatchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.wins + self.draws + self.losses;
        write!(f, "{n} games: +{} ={} -{}", self.wins, self.draws, self.losses)?;
        if n > 0 {
            let score = (self.wins as f64 + self.draws as f64 / 2.0) / n as f64;
            write!(f, " ({:.1}%)", score * 100.0)?;
        }
        if let Some((e, m)) = self.elo {
            write!(f, ", Elo {e:+.1} +/- {m:.1}")?;
        }
        if let Some(s) = self.sprt {
            write!(f, ", SPRT {s:?}")?;
        }
        Ok(())
    }
}

fn elo_of(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The Elo difference of a score of `w` wins, `d` draws, `l` losses, with the 95% margin;
/// `None` for a perfect or null score (infinite Elo) or no game.
pub fn elo(w: usize, d: usize, l: usize) -> Option<(f64, f64)> {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return None;
    }
    let p = (w as f64 + d as f64 / 2.0) / n;
    if p <= 0.0 || p >= 1.0 {
        return None;
    }
    let var = (w as f64 * (1.0 - p).powi(2) + d as f64 * (0.5 - p).powi(2) + l as f64 * p.powi(2)) / n;
    let se = (var / n).sqrt();
    let lo = (p - 1.96 * se).clamp(1e-6, 1.0 - 1e-6);
    let hi = (p + 1.96 * se).clamp(1e-6, 1.0 - 1e-6);
    Some((elo_of(p), (elo_of(hi) - elo_of(lo)) / 2.0))
}

/// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for these results, by the usual
/// normal approximation of the trinomial (GSPRT): `(s1 - s0) (2 x - s0 - s1) n / (2 var)`.
pub fn sprt_llr(w: usize, d: usize, l: usize, elo0: f64, elo1: f64) -> f64 {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return 0.0;
    }
    let x = (w as f64 + d as f64 / 2.0) / n;
    // A floor on the variance keeps one-sided results (all wins, all draws) from stalling the
    // test at an undefined ratio: they count as strong evidence, as they are.
    let var = ((w as f64 * (1.0 - x).powi(2) + d as f64 * (0.5 - x).powi(2) + l as f64 * x.powi(2)) / n).max(1e-3);
    let s = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    let (s0, s1) = (s(elo0), s(elo1));
    (s1 - s0) * (2.0 * x - s0 - s1) * n / (2.0 * var)
}

fn sprt_status(s: &Sprt, w: usize, d: usize, l: usize) -> SprtStatus {
    let llr = sprt_llr(w, d, l, s.elo0, s.elo1);
    let (lo, hi) = s.bounds();
    if llr >= hi {
        SprtStatus::H1(llr)
    } else if llr <= lo {
        SprtStatus::H0(llr)
    } else {
        SprtStatus::Continue(llr)
    }
}

const HANDSHAKE: Duration = Duration::from_secs(10);

/// The budget of the look for the end of the game after each action. It must stay cheap: in
/// big multiverses a candidate test can take most of a millisecond, and 200,000 tests stalled
/// a game for minutes after every action. When it cannot decide, the next engine plays on.
const CHEAP_LOOK: u64 = 2_000;

/// The budget to check a `nobestmove` claim (or whether a side that failed had a legal action):
/// enough for the project's corpora, bounded so that one undecidable multiverse costs a game
/// a minute at most instead of stalling the match (an undecided claim is adjudicated a draw).
const VERIFY: u64 = 100_000;

fn start_engine(spec: &EngineSpec) -> Result<EngineProcess, EngineError> {
    let mut e = EngineProcess::start(&spec.command, HANDSHAKE)?;
    for (n, v) in &spec.options {
        e.set_option(n, v)?;
    }
    e.new_game(HANDSHAKE)?;
    Ok(e)
}

/// Plays one game; engine `white` has White. Never panics on engine misbehaviour.
pub fn play_game(config: &MatchConfig, round: usize, opening: &Opening, white: usize) -> GameRecord {
    let mut record = GameRecord {
        round,
        white,
        opening: opening.clone(),
        actions: vec![],
        result: GameResult::Draw,
        termination: String::new(),
    };
    let idx = |c: Color| if c == Color::White { white } else { 1 - white };
    let mut pos = match opening.start.position() {
        Ok(p) => p,
        Err(e) => {
            record.termination = format!("bad start position: {e}");
            return record;
        }
    };
    // Start both engines; a failure loses the game for that engine.
    let mut engines = Vec::new();
    for c in [Color::White, Color::Black] {
        match start_engine(&config.engines[idx(c)]) {
            Ok(e) => engines.push(e),
            Err(err) => {
                record.result = GameResult::win_for(c.other());
                record.termination = format!("{} ({}) failed to start: {err}", config.engines[idx(c)].name, c);
                return record;
            }
        }
    }
    let mut clocks = match config.tc {
        TimeControl::Clock { base, .. } => [base, base],
        _ => [Duration::ZERO; 2],
    };
    let mut state = GameState {
        start: opening.start.clone(),
        actions: vec![],
    };
    loop {
        if record.actions.len() >= config.max_actions {
            record.termination = format!("adjudicated: {} actions", config.max_actions);
            break;
        }
        let side = pos.to_move();
        let name = &config.engines[idx(side)].name;
        let (limits, allowed) = match config.tc {
            TimeControl::Clock { inc, .. } => (
                Limits {
                    wtime: Some(clocks[0]),
                    btime: Some(clocks[1]),
                    winc: Some(inc),
                    binc: Some(inc),
                    ..Limits::default()
                },
                clocks[side.index()] + config.margin,
            ),
            TimeControl::MoveTime(t) => (Limits::movetime(t), t + config.margin),
            TimeControl::Nodes(n) => (
                Limits {
                    nodes: Some(n),
                    ..Limits::default()
                },
                Duration::from_secs(60),
            ),
            TimeControl::Depth(d) => (Limits::depth(d), Duration::from_secs(300)),
        };
        let t0 = Instant::now();
        let answer = engines[side.index()].go(&state, &pos, &limits, allowed);
        let took = t0.elapsed();
        match answer {
            Ok(EngineAnswer::Action(a)) => {
                if let TimeControl::Clock { inc, .. } = config.tc {
                    let c = &mut clocks[side.index()];
                    if took > *c + config.margin {
                        record.result = GameResult::win_for(side.other());
                        record.termination = format!("{name} ({side}) lost on time");
                        break;
                    }
                    *c = c.saturating_sub(took) + inc;
                }
                for m in &a {
                    pos.play_unchecked(m);
                }
                pos.submit_unchecked();
                state.actions.push(a.clone());
                record.actions.push(a);
                // A cheap look for the end of the game: when it cannot decide, the next engine
                // plays on (and a `nobestmove` claim gets the full budget below).
                if record.end_by(&pos.outcome(Budget::tests(CHEAP_LOOK)), side.other()) {
                    break;
                }
            }
            Ok(EngineAnswer::NoMove) => {
                // Check the claim: the engine may be right where the outcome is hard to prove.
                let outcome = pos.outcome(Budget::tests(VERIFY));
                if !record.end_by(&outcome, side) {
                    if outcome == Outcome::Unknown {
                        record.termination = "adjudicated: outcome unknown (nobestmove)".into();
                    } else {
                        record.result = GameResult::win_for(side.other());
                        record.termination = format!("{name} ({side}): {}", EngineError::NoBestMove);
                    }
                }
                break;
            }
            Err(err) => {
                // A side without a legal action cannot lose on time or by misbehaving: the game
                // had ended (the cheap look after the last action could not tell).
                if matches!(err, EngineError::Timeout { .. } | EngineError::NoBestMove)
                    && record.end_by(&pos.outcome(Budget::tests(VERIFY)), side)
                {
                    break;
                }
                record.result = GameResult::win_for(side.other());
                record.termination = match err {
                    EngineError::Timeout { .. } => format!("{name} ({side}) lost on time: {err}"),
                    _ => format!("{name} ({side}): {err}"),
                };
                break;
            }
        }
    }
    for e in engines {
        e.quit(Duration::from_millis(500));
    }
    record
}

fn today() -> String {
    // Days since the epoch to a civil date (proleptic Gregorian).
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Plays a match. Games run `concurrency` at a time; each finished game is appended to the
/// 5DPGN file (flushed) and reported to `progress`. Stops early on an SPRT decision.
pub fn run_match(config: &MatchConfig, progress: &mut dyn FnMut(&Progress)) -> Result<MatchResult, MatchError> {
    if config.openings.is_empty() {
        return Err(MatchError::Config("no opening".into()));
    }
    let mut pgn = match &config.pgn {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| MatchError::Io(format!("{}: {e}", p.display())))?,
        ),
        None => None,
    };
    let date = today();
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let mut result = MatchResult {
        wins: 0,
        draws: 0,
        losses: 0,
        elo: None,
        sprt: None,
        games: vec![],
    };
    std::thread::scope(|scope| -> Result<(), MatchError> {
        for _ in 0..config.concurrency.clamp(1, config.games.max(1)) {
            let (next, stop, tx) = (Arc::clone(&next), Arc::clone(&stop), tx.clone());
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= config.games {
                    break;
                }
                let opening = &config.openings[(i / 2) % config.openings.len()];
                let rec = play_game(config, i + 1, opening, i % 2);
                if tx.send(rec).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for rec in rx {
            let score = rec.score_of_first();
            if score > 0.75 {
                result.wins += 1;
            } else if score < 0.25 {
                result.losses += 1;
            } else {
                result.draws += 1;
            }
            if let Some(f) = pgn.as_mut() {
                f.write_all(rec.to_5dpgn(config, &date).as_bytes())
                    .and_then(|_| f.flush())
                    .map_err(|e| MatchError::Io(e.to_string()))?;
            }
            // A crossed bound is final: games already under way when the match is told to stop
            // still count in W/D/L, but do not reopen the test.
            let sprt = config.sprt.map(|s| match result.sprt {
                Some(decided @ (SprtStatus::H0(_) | SprtStatus::H1(_))) => decided,
                _ => sprt_status(&s, result.wins, result.draws, result.losses),
            });
            result.sprt = sprt;
            if matches!(sprt, Some(SprtStatus::H0(_) | SprtStatus::H1(_))) {
                stop.store(true, Ordering::Relaxed);
            }
            progress(&Progress {
                played: result.games.len() + 1,
                total: config.games,
                wdl: (result.wins, result.draws, result.losses),
                game: &rec,
                sprt,
            });
            result.games.push(rec);
        }
        Ok(())
    })?;
    result.elo = elo(result.wins, result.draws, result.losses);
    Ok(result)
}

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
