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
//! [`uci`] runs the engine over 5DUCI (the command loop of `chess5d engine`): it reads
//! commands with the wire forms of [`chess5d_protocol`] and turns a `go` into [`Limits`].
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
mod gen;
mod options;
mod report;
pub mod review;
mod search;
mod team;
mod terms;
mod tt;
pub mod tune;
pub mod uci;
mod weights;

pub use eval::{evaluate, evaluate_weights, piece_value};
pub use options::{Bot, EngineOptions, OptionError, OptionKind, OptionSpec};
pub use report::{Score, SearchInfo, SearchResult};
pub use terms::{Weights, WEIGHT_COUNT};
pub use weights::{FITTED_WEIGHTS, HAND_WEIGHTS, WEIGHTS};

use chess5d_rules::{Budget, Color, Position};
use gen::{child_of, gather_actions};
use search::{Params, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use team::{Part, Team};
use web_time::Instant;

/// Limits of one search: the arguments of 5DUCI's `go`, one type for the protocol and the
/// engine (the protocol's [`Go`](chess5d_protocol::Go): `wtime`, `btime`, `winc`, `binc`,
/// `movetime`, `depth`, `nodes`, `infinite`). Without any limit the search takes one second.
pub use chess5d_protocol::Go as Limits;

/// The engine's time management: how long a search may take under its [`Limits`].
pub trait TimePlan {
    /// The time limits of a search by `side`, with `overhead` kept in reserve for process and
    /// pipe latency. `None` means no time limit.
    fn time_limits(&self, side: Color, overhead: Duration) -> TimeLimits {
        self.time_limits_with(side, overhead, 30)
    }

    /// [`TimePlan::time_limits`], planning the remaining time divided by `divisor` (plus three
    /// quarters of the increment) for the action.
    fn time_limits_with(&self, side: Color, overhead: Duration, divisor: u32) -> TimeLimits;
}

impl TimePlan for Limits {
    fn time_limits_with(&self, side: Color, overhead: Duration, divisor: u32) -> TimeLimits {
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
    gen::mix(nanos ^ (pid << 32)).max(1)
}

impl Engine {
    /// An engine with these options.
    pub fn new(opts: EngineOptions) -> Engine {
        Engine {
            // Made at the first search: an engine whose `Hash` is set before it searches (as a
            // GUI or a server does) never holds the default table.
            tt: tt::Table::empty(),
            stop: Arc::new(AtomicBool::new(false)),
            rng: seed_or_clock(opts.seed),
            opts,
        }
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.opts
    }

    /// The options as 5DUCI announces them, in the table's order.
    pub fn option_specs() -> Vec<OptionSpec> {
        let defaults = EngineOptions::default();
        options::TABLE
            .iter()
            .map(|e| OptionSpec {
                name: e.name,
                kind: (e.kind)(&defaults),
                doc: e.doc.split_whitespace().collect::<Vec<_>>().join(" "),
            })
            .collect()
    }

    /// Sets an option by its 5DUCI name (case-insensitive). A bad value changes nothing.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let entry = options::TABLE
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        (entry.set)(&mut self.opts, value).ok_or_else(|| OptionError::BadValue {
            name: entry.name.to_string(),
            value: value.to_string(),
        })?;
        if let Some(then) = entry.then {
            then(self);
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
            o: self.opts.clone(),
        };
        let stop = Arc::clone(&self.stop);
        // The threads share the table (its entries of this search have one age) and the root's
        // actions. The main thread answers; the helpers work for it (see `team::Part`) until
        // it does.
        if self.tt.is_empty() {
            self.tt = tt::Table::new(self.opts.hash_mb);
        }
        self.tt.new_search();
        let tt = &self.tt;
        let team = Team::default();
        let done = AtomicBool::new(false);
        let threads = self.threads();
        let part = if threads > 1 { Part::Main(&team) } else { Part::Alone };
        let mut s = Searcher::new(tt, &stop, params.clone(), start).with_part(part);
        let actions = s.root_actions(pos);
        // Nothing to share when there is no action to search.
        let helpers = if actions.is_empty() { 0 } else { threads - 1 };
        // The main thread reorders its own copy; the helpers read the shared one.
        let (mine, actions) = if helpers > 0 {
            (actions.clone(), actions)
        } else {
            (actions, Vec::new())
        };
        std::thread::scope(|scope| {
            let running: Vec<_> = (0..helpers)
                .map(|_| {
                    let mut p = params.clone();
                    // A helper works until the main thread answers: no iteration is skipped
                    // for want of time.
                    p.soft = None;
                    p.o.predict_iterations = false;
                    let (team, done, actions) = (&team, &done, &actions);
                    scope.spawn(move || {
                        let mut h = Searcher::new(tt, done, p, start).with_part(Part::Helper(team));
                        let deepest = h.help(pos, actions);
                        (h.nodes, h.actions, deepest)
                    })
                })
                .collect();
            let mut found = s.root_search(pos, mine, on_info);
            done.store(true, Ordering::Relaxed);
            let (mut nodes, mut actions) = (s.nodes, s.actions);
            let mut deeper = false;
            // A helper that panicked leaves the main thread's answer standing.
            for (n, a, deepest) in running.into_iter().filter_map(|h| h.join().ok()) {
                nodes += n;
                actions += a;
                // A helper that finished a deeper iteration ahead answers (in a search of one line).
                if let Some(f) = deepest.filter(|f| self.opts.multipv <= 1 && f.depth > found.depth) {
                    found = f;
                    deeper = true;
                }
            }
            if deeper {
                // Reported once more, so that the last line reported starts with the action played.
                on_info(&SearchInfo {
                    depth: found.depth,
                    multipv: None,
                    score: report::to_score(found.score),
                    nodes,
                    actions,
                    time: start.elapsed(),
                    pv: found.pv.clone(),
                    hashfull: tt.hashfull(),
                });
            }
            SearchResult {
                best: found.best,
                score: report::to_score(found.score),
                depth: found.depth,
                nodes,
                actions,
                time: start.elapsed(),
                pv: found.pv,
            }
        })
    }

    /// The threads a search uses (`Threads`): one in WebAssembly, which has no threads here.
    fn threads(&self) -> usize {
        if cfg!(target_arch = "wasm32") {
            1
        } else {
            self.opts.threads.max(1)
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
                let s = -evaluate_weights(&child_of(pos, a), &self.opts.weights);
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

impl options::Host for Engine {
    fn resize_table(&mut self) {
        // The new table is made at the next search, the old one let go at once: a process that
        // set `Hash` 2 before searching held the default table's 16 MiB beside it for good (the
        // allocator kept the freed memory), 17 MiB more per engine process of a server.
        self.tt = tt::Table::empty();
    }

    fn reseed(&mut self) {
        self.rng = seed_or_clock(self.opts.seed);
    }
}
