//! A 5D chess engine over the rules of [`chess5d_rules`].
//!
//! The search is iterative-deepening principal-variation alpha-beta (negamax) over whole
//! *actions* (the moves a player makes between two submits), taken from
//! [`Position::legal_actions`] with a cap on the actions examined per node and a budget on the
//! work spent finding them. Actions are ordered by the transposition table's best action,
//! captures of valuable pieces, checks and killer actions. The evaluation ([`evaluate`]) knows
//! timelines: material on the latest board of every timeline (active ones weighted more), royal
//! safety, extra timelines of each side, pieces able to travel and the tempo.
//!
//! The clock is checked as the search goes (a deadline and a stop flag), and a legal action is
//! known from the start, so a search always answers with one when the position has one.
//!
//! ```
//! use chess5d_engine::{Engine, EngineOptions, Limits, Score};
//! use chess5d_rules::{Board, Position, Setup, Size};
//!
//! // White mates in one on a 5x5 board: the rook goes to the back rank.
//! let size = Size::new(5, 5).unwrap();
//! let board = Board::from_fen("4k/5/4K/5/R4", size).unwrap();
//! let pos = Position::from_setup(Setup::single(size, board)).unwrap();
//! let mut engine = Engine::new(EngineOptions::default());
//! let result = engine.search(&pos, &Limits::depth(2), &mut |_| {});
//! let best = result.best.unwrap();
//! assert_eq!(best[0].long(false), "(0T1)a1(0T1)a5");
//! assert_eq!(result.score, Score::Mate(1));
//! ```
#![deny(missing_docs)]

mod eval;
mod report;
mod search;
mod terms;
mod tt;
pub mod tune;
mod weights;

pub use eval::{evaluate, evaluate_weights, piece_value};
pub use report::{Score, SearchInfo, SearchResult};
pub use terms::{Weights, WEIGHT_COUNT};
pub use weights::{FITTED_WEIGHTS, HAND_WEIGHTS, WEIGHTS};

use chess5d_rules::{Budget, Color, Position};
use search::{child_of, gather_actions, Params, Searcher};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

/// Which player the engine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bot {
    /// The full search.
    #[default]
    AlphaBeta,
    /// One ply: the action with the best static evaluation.
    Greedy,
    /// A uniformly random action among the first `ActionCap` legal ones.
    Random,
}

impl Bot {
    /// All bots, in the order of the `Bot` option's values.
    pub const ALL: [Bot; 3] = [Bot::AlphaBeta, Bot::Greedy, Bot::Random];

    /// The option value naming this bot (`alphabeta`, `greedy`, `random`).
    pub fn name(self) -> &'static str {
        match self {
            Bot::AlphaBeta => "alphabeta",
            Bot::Greedy => "greedy",
            Bot::Random => "random",
        }
    }

    /// The bot of an option value, case-insensitively.
    pub fn from_name(s: &str) -> Option<Bot> {
        Bot::ALL.into_iter().find(|b| b.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// The engine's settings; each one is also a 5DUCI option (see [`Engine::option_specs`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MB (`Hash`).
    pub hash_mb: usize,
    /// Search threads (`Threads`). The search is single-threaded; the value is accepted.
    pub threads: usize,
    /// Which player (`Bot`).
    pub bot: Bot,
    /// Most legal actions examined per interior node (`ActionCap`); the root takes four times
    /// as many.
    pub action_cap: usize,
    /// Candidate tests allowed to find a node's actions (`NodeBudget`), see [`Budget`].
    pub node_budget: u64,
    /// Seed of the random bot and of tie-breaks (`Seed`); 0 takes one from the clock, so that
    /// the games of a match differ. The stream goes on from game to game.
    pub seed: u64,
    /// Time kept in reserve per action for process and pipe latency (`MoveOverhead`, ms).
    pub move_overhead_ms: u64,
    /// How many of an interior node's actions get a capture or a check on a board the mover
    /// need not play added (`OptionalTactics`; 0 turns it off).
    pub optional_tactics: usize,
    /// How many best actions a search reports, each with its score and line (`MultiPV`;
    /// 1: only the best). Every line is searched with an exact score, so more lines cost time.
    pub multipv: usize,
    /// Whether the quick generator shares its cap among the moves of the first board it plays
    /// (`QuickSpread`, 0 or 1): with few moves there, each gets more combinations of the other
    /// boards' moves (otherwise four at most).
    pub quick_spread: bool,
    /// Whether a search skips an iteration predicted to end after its hard limit
    /// (`PredictIterations`, 0 or 1), keeping the time for later actions.
    pub predict_iterations: bool,
    /// The share of the clock planned for one action: the remaining time divided by this, plus
    /// three quarters of the increment (`TimeDivisor`).
    pub time_divisor: u32,
    /// The quick generator's ordering bonus for a move that attacks an enemy royal piece on the
    /// board it lands on (`CheckBonus`, centipawn-like units; 0 turns the test off).
    pub check_bonus: i32,
    /// Null-move pruning (`NullMove`, 0 or 1): at depth 3 or more, a side not in check whose
    /// static score beats beta passes; if a reduced search still beats beta, the node is cut.
    pub null_move: bool,
    /// Late-move reductions (`LMR`, 0 or 1): quiet actions late in the order (no capture,
    /// promotion or check) are searched a ply shallower first, and again fully if they raise
    /// alpha.
    pub lmr: bool,
    /// More time for critical actions (`TimeCritical`, per cent; 0 turns it off): the soft
    /// limit (no new iteration after it) moves this much further in check or with several
    /// timelines, and half as much again whenever an iteration changes its best action or
    /// its score falls; the hard limit stays.
    pub time_critical: u32,
    /// Filling a short action list (`FillActions`, per cent of the cap; 0 turns it off): when
    /// the quick generator gives up on a node (its combinations of per-board moves keep failing
    /// the submission test, as with several timelines in check across time) having found fewer
    /// actions than this share of the cap, the full legal-action search adds more.
    pub fill_actions: u32,
    /// Captures at the leaves (`LeafThreat`, per cent; 0 turns it off): a leaf whose side to
    /// move (not in check) can capture a piece worth more than the capturer on a playable board
    /// scores that much more (the victim's value less the capturer's, weighted as the
    /// evaluation weighs that board's material), scaled by this.
    pub leaf_threat: u32,
    /// The most timelines a position may have for `LeafThreat` to look at it (`LeafThreatLines`).
    pub leaf_threat_lines: u32,
    /// Aspiration window at the root (`Aspiration`, centipawns; 0 turns it off): from depth 3,
    /// an iteration searches within this much of the last score first.
    pub aspiration: u32,
    /// Reverse futility pruning (`Futility`, centipawns per ply; 0 turns it off): at a depth of
    /// at most `FutilityDepth`, a side not in check whose static score beats beta by this much
    /// per ply of depth left is cut without a search (no action generated).
    pub futility: u32,
    /// The deepest remaining depth `Futility` cuts at (`FutilityDepth`).
    pub futility_depth: u32,
    /// Late-move pruning (`LateMovePrune`; 0 turns it off): at depth 2, a side not in check
    /// searches no quiet action (no capture, promotion or check as far as tested, not the
    /// stored best nor a killer) after this many actions.
    pub late_move_prune: u32,
    /// The least depth null-move pruning is tried at (`NullMinDepth`).
    pub null_min_depth: u32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            bot: Bot::AlphaBeta,
            action_cap: 96,
            node_budget: 10_000,
            seed: 0,
            move_overhead_ms: 50,
            optional_tactics: 0,
            multipv: 1,
            quick_spread: true,
            predict_iterations: false,
            time_divisor: 15,
            check_bonus: 300,
            null_move: true,
            lmr: true,
            time_critical: 0,
            fill_actions: 25,
            leaf_threat: 0,
            leaf_threat_lines: 1000,
            aspiration: 0,
            futility: 100,
            futility_depth: 3,
            late_move_prune: 0,
            null_min_depth: 3,
        }
    }
}

/// The type and range of an option, as 5DUCI announces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of a list of words.
    Combo {
        /// Default value.
        default: String,
        /// Allowed values.
        vars: Vec<String>,
    },
}

/// One option of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name.
    pub name: &'static str,
    /// Its type.
    pub kind: OptionKind,
}

impl OptionSpec {
    /// The `option name ... type ...` line of 5DUCI.
    pub fn uci_line(&self) -> String {
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    self.name
                )
            }
            OptionKind::Combo { default, vars } => {
                let mut s = format!("option name {} type combo default {default}", self.name);
                for v in vars {
                    s.push_str(" var ");
                    s.push_str(v);
                }
                s
            }
        }
    }
}

/// Why an option could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value is not valid for the option.
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}'"),
            OptionError::BadValue { name, value } => write!(f, "invalid value '{value}' for option '{name}'"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Limits of one search, as given by `go`. Without any limit the search takes one second.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's remaining time.
    pub wtime: Option<Duration>,
    /// Black's remaining time.
    pub btime: Option<Duration>,
    /// White's increment per action.
    pub winc: Option<Duration>,
    /// Black's increment per action.
    pub binc: Option<Duration>,
    /// Exactly this long.
    pub movetime: Option<Duration>,
    /// At most this many plies (actions).
    pub depth: Option<u32>,
    /// At most this many nodes.
    pub nodes: Option<u64>,
    /// Until stopped.
    pub infinite: bool,
}

impl Limits {
    /// A search to a fixed depth, without time limit.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search of a fixed time.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }

    /// The time limits of a search by `side`, with `overhead` kept in reserve for process and
    /// pipe latency. `None` means no time limit.
    pub fn time_limits(&self, side: Color, overhead: Duration) -> TimeLimits {
        self.time_limits_with(side, overhead, 30)
    }

    /// [`Limits::time_limits`], planning the remaining time divided by `divisor` (plus three
    /// quarters of the increment) for the action.
    pub fn time_limits_with(&self, side: Color, overhead: Duration, divisor: u32) -> TimeLimits {
        let none = TimeLimits {
            soft: None,
            hard: None,
            emergency: None,
        };
        if self.infinite {
            return none;
        }
        if let Some(mt) = self.movetime {
            let hard = mt.saturating_sub(overhead.min(mt / 4)).max(Duration::from_millis(1));
            return TimeLimits {
                soft: Some(hard),
                hard: Some(hard),
                emergency: Some(hard),
            };
        }
        let (time, inc) = match side {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        if let Some(time) = time {
            let inc = inc.unwrap_or_default();
            let usable = time.saturating_sub(overhead);
            let target = usable / divisor.max(2) + inc * 3 / 4;
            let hard = (target * 2).min(usable / 3).max(Duration::from_millis(1));
            let soft = (hard * 3 / 10).max(Duration::from_millis(1));
            // With no legal action known, all but a sliver of the clock goes to finding one:
            // answering `nobestmove` when an action exists loses as surely as the clock does.
            let emergency = (time.saturating_sub(overhead / 2) * 9 / 10).max(hard);
            return TimeLimits {
                soft: Some(soft),
                hard: Some(hard),
                emergency: Some(emergency),
            };
        }
        if self.depth.is_some() || self.nodes.is_some() {
            return none;
        }
        let hard = Duration::from_secs(1);
        TimeLimits {
            soft: Some(hard / 3),
            hard: Some(hard),
            emergency: Some(hard),
        }
    }
}

/// The time limits of one search, from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// The search stops at this time.
    pub hard: Option<Duration>,
    /// When no legal action is known at the hard limit, looking for one may go on until this
    /// (an action a little late beats none).
    pub emergency: Option<Duration>,
}

/// The engine: options, transposition table and stop flag.
#[derive(Debug)]
pub struct Engine {
    opts: EngineOptions,
    tt: tt::Table,
    stop: Arc<AtomicBool>,
    rng: u64,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(EngineOptions::default())
    }
}

/// `seed`, or if it is 0 a seed from the clock and the process id.
fn seed_or_clock(seed: u64) -> u64 {
    if seed != 0 {
        return seed;
    }
    let nanos = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // No process ids in the browser (std::process::id panics there).
    #[cfg(not(target_family = "wasm"))]
    let pid = u64::from(std::process::id());
    #[cfg(target_family = "wasm")]
    let pid = 0;
    search::mix(nanos ^ (pid << 32)).max(1)
}

impl Engine {
    /// An engine with these options.
    pub fn new(opts: EngineOptions) -> Engine {
        Engine {
            tt: tt::Table::new(opts.hash_mb),
            stop: Arc::new(AtomicBool::new(false)),
            rng: seed_or_clock(opts.seed),
            opts,
        }
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.opts
    }

    /// The options as 5DUCI announces them.
    pub fn option_specs() -> Vec<OptionSpec> {
        let d = EngineOptions::default();
        let spin = |name, default: i64, min, max| OptionSpec {
            name,
            kind: OptionKind::Spin { default, min, max },
        };
        let mut specs = vec![
            spin("Hash", d.hash_mb as i64, 1, 4096),
            spin("Threads", d.threads as i64, 1, 256),
            OptionSpec {
                name: "Bot",
                kind: OptionKind::Combo {
                    default: d.bot.name().to_string(),
                    vars: Bot::ALL.iter().map(|b| b.name().to_string()).collect(),
                },
            },
            spin("ActionCap", d.action_cap as i64, 1, 100_000),
            spin("NodeBudget", d.node_budget as i64, 100, 100_000_000),
            spin("Seed", d.seed as i64, 0, i64::MAX),
            spin("MoveOverhead", d.move_overhead_ms as i64, 0, 10_000),
            spin("OptionalTactics", d.optional_tactics as i64, 0, 1000),
            spin("MultiPV", d.multipv as i64, 1, 256),
            spin("QuickSpread", i64::from(d.quick_spread), 0, 1),
            spin("PredictIterations", i64::from(d.predict_iterations), 0, 1),
            spin("TimeDivisor", i64::from(d.time_divisor), 2, 1000),
            spin("CheckBonus", i64::from(d.check_bonus), 0, 1_000_000),
            spin("NullMove", i64::from(d.null_move), 0, 1),
            spin("LMR", i64::from(d.lmr), 0, 1),
            spin("TimeCritical", i64::from(d.time_critical), 0, 1000),
            spin("FillActions", i64::from(d.fill_actions), 0, 100),
            spin("LeafThreat", i64::from(d.leaf_threat), 0, 1000),
            spin("LeafThreatLines", i64::from(d.leaf_threat_lines), 1, 1000),
            spin("Aspiration", i64::from(d.aspiration), 0, 100_000),
            spin("Futility", i64::from(d.futility), 0, 100_000),
            spin("FutilityDepth", i64::from(d.futility_depth), 1, 100),
            spin("LateMovePrune", i64::from(d.late_move_prune), 0, 100_000),
            spin("NullMinDepth", i64::from(d.null_min_depth), 1, 100),
        ];
        for (i, name) in eval::TUNABLE_NAMES.iter().enumerate() {
            specs.push(spin(name, i64::from(eval::TUNABLE_DEFAULTS[i]), -10_000, 10_000));
        }
        specs
    }

    /// Sets an option by its 5DUCI name (case-insensitive).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let spec = Engine::option_specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let bad = || OptionError::BadValue {
            name: spec.name.to_string(),
            value: value.to_string(),
        };
        let num = || -> Result<u64, OptionError> {
            let OptionKind::Spin { min, max, .. } = spec.kind else {
                return Err(bad());
            };
            let v: i64 = value.trim().parse().map_err(|_| bad())?;
            if v < min || v > max {
                return Err(bad());
            }
            Ok(v as u64)
        };
        match spec.name {
            "Hash" => {
                self.opts.hash_mb = num()? as usize;
                self.tt = tt::Table::new(self.opts.hash_mb);
            }
            "Threads" => self.opts.threads = num()? as usize,
            "Bot" => self.opts.bot = Bot::from_name(value).ok_or_else(bad)?,
            "ActionCap" => self.opts.action_cap = num()? as usize,
            "NodeBudget" => self.opts.node_budget = num()?,
            "Seed" => {
                self.opts.seed = num()?;
                self.rng = seed_or_clock(self.opts.seed);
            }
            "MoveOverhead" => self.opts.move_overhead_ms = num()?,
            "OptionalTactics" => self.opts.optional_tactics = num()? as usize,
            "MultiPV" => self.opts.multipv = num()? as usize,
            "QuickSpread" => self.opts.quick_spread = num()? == 1,
            "PredictIterations" => self.opts.predict_iterations = num()? == 1,
            "TimeDivisor" => self.opts.time_divisor = num()? as u32,
            "CheckBonus" => self.opts.check_bonus = num()? as i32,
            "NullMove" => self.opts.null_move = num()? == 1,
            "LMR" => self.opts.lmr = num()? == 1,
            "TimeCritical" => self.opts.time_critical = num()? as u32,
            "FillActions" => self.opts.fill_actions = num()? as u32,
            "LeafThreat" => self.opts.leaf_threat = num()? as u32,
            "LeafThreatLines" => self.opts.leaf_threat_lines = num()? as u32,
            "Aspiration" => self.opts.aspiration = num()? as u32,
            "Futility" => self.opts.futility = num()? as u32,
            "FutilityDepth" => self.opts.futility_depth = num()? as u32,
            "LateMovePrune" => self.opts.late_move_prune = num()? as u32,
            "NullMinDepth" => self.opts.null_min_depth = num()? as u32,
            name if eval::TUNABLE_NAMES.contains(&name) => {
                let OptionKind::Spin { min, max, .. } = spec.kind else {
                    return Err(bad());
                };
                let v: i64 = value.trim().parse().map_err(|_| bad())?;
                if v < min || v > max {
                    return Err(bad());
                }
                let i = eval::TUNABLE_NAMES
                    .iter()
                    .position(|n| *n == name)
                    .expect("a tunable name");
                eval::TUNABLE[i].store(v as i32, std::sync::atomic::Ordering::Relaxed);
            }
            _ => return Err(OptionError::Unknown(name.to_string())),
        }
        Ok(())
    }

    /// Forgets what previous searches learnt (a new game). The random stream goes on, so
    /// that successive games differ.
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// The flag that stops a running search (set it from another thread). A search clears it
    /// when it returns; a stop set before a search starts stops that search at once (it still
    /// returns a legal action).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Searches `pos` (the side to move, between actions) within `limits`, reporting progress
    /// to `on_info`, and returns the best action found.
    pub fn search(&mut self, pos: &Position, limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        self.search_since(pos, limits, Instant::now(), on_info)
    }

    /// [`Engine::search`], with the clock started at `start` (for instance when the command
    /// that asked for the search arrived, so that the time spent reading it counts).
    pub fn search_since(
        &mut self,
        pos: &Position,
        limits: &Limits,
        start: Instant,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let overhead = Duration::from_millis(self.opts.move_overhead_ms);
        let t = limits.time_limits_with(pos.to_move(), overhead, self.opts.time_divisor);
        let at = |d: Option<Duration>| d.map(|d| start + d);
        let result = match self.opts.bot {
            Bot::AlphaBeta => self.search_alphabeta(pos, limits, &t, start, on_info),
            Bot::Greedy | Bot::Random => self.search_simple(pos, at(t.hard), at(t.emergency), start),
        };
        self.stop.store(false, Ordering::Relaxed);
        result
    }

    fn search_alphabeta(
        &mut self,
        pos: &Position,
        limits: &Limits,
        t: &TimeLimits,
        start: Instant,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let at = |d: Option<Duration>| d.map(|d| start + d);
        let cap = self.opts.action_cap.max(1);
        let params = Params {
            deadline: at(t.hard),
            soft: at(t.soft),
            emergency: at(t.emergency),
            max_depth: limits
                .depth
                .unwrap_or(search::MAX_PLY as u32 - 1)
                .clamp(1, search::MAX_PLY as u32 - 1),
            max_nodes: limits.nodes,
            node_cap: cap,
            root_cap: cap.saturating_mul(4).max(64),
            node_budget: Budget::tests(self.opts.node_budget),
            optional_bases: self.opts.optional_tactics,
            multipv: self.opts.multipv.max(1),
            spread: self.opts.quick_spread,
            predict: self.opts.predict_iterations,
            check_bonus: self.opts.check_bonus,
            null_move: self.opts.null_move,
            lmr: self.opts.lmr,
            critical: self.opts.time_critical,
            fill: self.opts.fill_actions,
            leaf_threat: self.opts.leaf_threat as i32,
            leaf_threat_lines: self.opts.leaf_threat_lines as usize,
            aspiration: self.opts.aspiration as i32,
            futility: self.opts.futility as i32,
            futility_depth: self.opts.futility_depth as i32,
            late_move_prune: self.opts.late_move_prune as usize,
            null_min_depth: self.opts.null_min_depth as i32,
        };
        let stop = Arc::clone(&self.stop);
        let mut s = Searcher::new(&mut self.tt, &stop, params, start);
        let found = s.root(pos, on_info);
        SearchResult {
            best: found.best,
            score: search::to_score(found.score),
            depth: found.depth,
            nodes: s.nodes,
            actions: s.actions,
            time: start.elapsed(),
            pv: found.pv,
        }
    }

    fn next_random(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.rng.max(1);
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn search_simple(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        emergency: Option<Instant>,
        start: Instant,
    ) -> SearchResult {
        let cap = self.opts.action_cap.max(1);
        let mut actions = gather_actions(pos, cap, deadline, emergency);
        let n = actions.len() as u64;
        let (best, score) = if actions.is_empty() {
            (None, Score::Cp(0))
        } else if self.opts.bot == Bot::Random {
            let i = (self.next_random() % n) as usize;
            (Some(actions.swap_remove(i)), Score::Cp(0))
        } else {
            let mut best = 0;
            let mut best_score = i32::MIN;
            for (i, a) in actions.iter().enumerate() {
                let s = -evaluate(&child_of(pos, a));
                if s > best_score {
                    best_score = s;
                    best = i;
                }
            }
            (Some(actions.swap_remove(best)), Score::Cp(best_score))
        };
        SearchResult {
            pv: best.iter().cloned().collect(),
            best,
            score,
            depth: 1,
            nodes: n,
            actions: n,
            time: start.elapsed(),
        }
    }
}
