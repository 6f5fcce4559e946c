//! Playing games and matches: engine processes, clocks, adjudication, the schedule of game
//! pairs, and the running counts.

use crate::output::{info_comment, today};
use crate::statistics::elo_of_counts;
use crate::{EngineSpec, MatchConfig, MatchError, MatchResult, Opening, Progress, SprtStatus, TimeControl};
use chess5d_protocol::Go;
use chess5d_protocol::{EngineAnswer, EngineError, EngineProcess, GameState};
use chess5d_rules::{Budget, Color, Move, Outcome};
use std::collections::HashMap;
use std::io::Write;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

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
    /// The kind of ending (the PGN `Termination` header).
    pub ending: Ending,
    /// One comment per action, `{eval/depth time}` as cutechess writes them (see
    /// [`crate::info_comment`]).
    pub comments: Vec<String>,
}

/// How a game ended, in the categories of the PGN `Termination` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Checkmate.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// Adjudicated by the runner (too many actions, an outcome it could not prove).
    Adjudication,
    /// An engine ran out of time.
    TimeForfeit,
    /// An engine broke the rules or the protocol (illegal move, wrong `nobestmove`, garbage).
    Infraction,
    /// An engine crashed or could not start.
    Abandoned,
}

impl Ending {
    /// The `Termination` header value.
    pub fn pgn(self) -> &'static str {
        match self {
            Ending::Checkmate | Ending::Stalemate => "normal",
            Ending::Adjudication => "adjudication",
            Ending::TimeForfeit => "time forfeit",
            Ending::Infraction => "rules infraction",
            Ending::Abandoned => "abandoned",
        }
    }
}

impl GameRecord {
    /// Ends the game on a proven outcome of a position where `to_move` is to move: checkmate
    /// (`to_move` loses) or stalemate. False, and nothing written, for any other outcome.
    fn end_by(&mut self, outcome: &Outcome, to_move: Color) -> bool {
        match outcome {
            Outcome::Checkmate => {
                self.result = GameResult::win_for(to_move.other());
                self.termination = "checkmate".into();
                self.ending = Ending::Checkmate;
                true
            }
            Outcome::Stalemate => {
                self.termination = "stalemate".into();
                self.ending = Ending::Stalemate;
                true
            }
            _ => false,
        }
    }

    /// Ends the game with a loss for `side` (or a draw, for an adjudication).
    fn lose(&mut self, side: Option<Color>, ending: Ending, termination: String) {
        if let Some(c) = side {
            self.result = GameResult::win_for(c.other());
        }
        self.ending = ending;
        self.termination = termination;
    }

    /// The score of engine 0: 1, 0.5 or 0.
    pub fn score_of_first(&self) -> f64 {
        match (self.result, self.white) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, 0) | (GameResult::BlackWins, 1) => 1.0,
            _ => 0.0,
        }
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

/// Whether the engine listed an option of this name (case-insensitive, as UCI names are).
fn lists_option(e: &EngineProcess, name: &str) -> bool {
    e.id().options.iter().any(|line| {
        let rest = line.strip_prefix("option name ").unwrap_or("");
        rest.get(..name.len()).is_some_and(|n| n.eq_ignore_ascii_case(name)) && rest[name.len()..].starts_with(' ')
    })
}

/// The seed of game `round` of a match with seed `match_seed` (splitmix64 of both), the same
/// in every run and shard.
pub fn game_seed(match_seed: u64, round: usize) -> u64 {
    let mut z = match_seed ^ (round as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) >> 1
}

/// Starts an engine, sets its options (and a `Seed` derived from `seed` when it has such an
/// option and was given none), and starts a new game.
fn start_engine(spec: &EngineSpec, seed: Option<u64>) -> Result<EngineProcess, EngineError> {
    let mut e = EngineProcess::start(&spec.command, HANDSHAKE)?;
    for (n, v) in &spec.options {
        e.set_option(n, v)?;
    }
    if let Some(seed) = seed {
        if lists_option(&e, "Seed") && !spec.options.iter().any(|(n, _)| n.eq_ignore_ascii_case("Seed")) {
            e.set_option("Seed", &seed.to_string())?;
        }
    }
    e.new_game(HANDSHAKE)?;
    Ok(e)
}

/// Starts each engine once before any game: an engine that is missing, crashes or fails the
/// handshake stops the match here, with the command in the message. Returns the names to use:
/// the given ones, else the engines' `id name` (else the program's file name); two equal `id name`s get
/// `-1` and `-2`.
fn check_engines(config: &MatchConfig) -> Result<[String; 2], MatchError> {
    let mut names = [String::new(), String::new()];
    for (k, spec) in config.engines.iter().enumerate() {
        let fail =
            |e: EngineError| MatchError::Engine(format!("engine {} ('{}') failed to start: {e}", k + 1, spec.command));
        let e = start_engine(spec, None).map_err(fail)?;
        names[k] = if !spec.name.is_empty() {
            spec.name.clone()
        } else if !e.id().name.is_empty() {
            e.id().name.clone()
        } else {
            // The program's file name: `/opt/x/engine --fast` is `engine`.
            let program = spec.command.split_whitespace().next().unwrap_or("engine");
            program.rsplit('/').next().unwrap_or(program).to_string()
        };
        e.quit(Duration::from_millis(500));
    }
    if names[0] == names[1] && config.engines.iter().all(|e| e.name.is_empty()) {
        names[0].push_str("-1");
        names[1].push_str("-2");
    }
    Ok(names)
}

/// Stops a match from outside (the command line's Ctrl-C): after [`Stop::finish`] no new game
/// starts and the games under way end and count; after [`Stop::abandon`] the games under way
/// also end after their current action, uncounted.
#[derive(Debug, Default)]
pub struct Stop {
    finish: AtomicBool,
    abandon: AtomicBool,
}

impl Stop {
    /// No new game starts; the games under way are played to their end.
    pub fn finish(&self) {
        self.finish.store(true, Ordering::SeqCst);
    }

    /// No new game starts, and the games under way end after their current action.
    pub fn abandon(&self) {
        self.finish();
        self.abandon.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn requested(&self) -> bool {
        self.finish.load(Ordering::SeqCst)
    }

    fn abandoned(&self) -> bool {
        self.abandon.load(Ordering::SeqCst)
    }
}

/// Plays one game (number `round`, 1-based); engine `white` has White. Never panics on engine
/// misbehaviour.
pub fn play_game(config: &MatchConfig, round: usize, opening: &Opening, white: usize) -> GameRecord {
    play_game_until(config, round, opening, white, &Stop::default()).expect("never abandoned")
}

/// [`play_game`], or `None` when `stop` abandons it (checked after every action).
fn play_game_until(
    config: &MatchConfig,
    round: usize,
    opening: &Opening,
    white: usize,
    stop: &Stop,
) -> Option<GameRecord> {
    let mut record = GameRecord {
        round,
        white,
        opening: opening.clone(),
        actions: vec![],
        result: GameResult::Draw,
        termination: String::new(),
        ending: Ending::Adjudication,
        comments: vec![],
    };
    let idx = |c: Color| if c == Color::White { white } else { 1 - white };
    let mut pos = match opening.start.position() {
        Ok(p) => p,
        Err(e) => {
            record.termination = format!("bad start position: {e}");
            return Some(record);
        }
    };
    // Start both engines; a failure loses the game for that engine.
    let seed = game_seed(config.seed, round);
    let mut engines = Vec::new();
    for c in [Color::White, Color::Black] {
        match start_engine(&config.engines[idx(c)], Some(seed)) {
            Ok(e) => engines.push(e),
            Err(err) => {
                let name = &config.engines[idx(c)].name;
                record.lose(
                    Some(c),
                    Ending::Abandoned,
                    format!("{name} ({c}) failed to start: {err}"),
                );
                return Some(record);
            }
        }
    }
    // Each side's own time control (time odds: the engines' may differ); clocks by colour.
    let tcs = [config.tc_of(idx(Color::White)), config.tc_of(idx(Color::Black))];
    let mut clocks = tcs.map(|tc| match tc {
        TimeControl::Clock { base, .. } => base,
        _ => Duration::ZERO,
    });
    let mut state = GameState {
        start: opening.start.clone(),
        actions: vec![],
    };
    loop {
        if stop.abandoned() {
            for e in engines {
                e.quit(Duration::from_millis(100));
            }
            return None;
        }
        if record.actions.len() >= config.max_actions {
            record.termination = format!("adjudicated: {} actions", config.max_actions);
            break;
        }
        let side = pos.to_move();
        let name = &config.engines[idx(side)].name;
        let (limits, allowed) = match tcs[side.index()] {
            TimeControl::Clock { .. } => {
                // Both clocks as they stand, each with its own increment; a side without a
                // clock (an odds match against a fixed limit) sends none.
                let clock = |c: Color| match tcs[c.index()] {
                    TimeControl::Clock { inc, .. } => (Some(clocks[c.index()]), Some(inc)),
                    _ => (None, None),
                };
                let ((wtime, winc), (btime, binc)) = (clock(Color::White), clock(Color::Black));
                (
                    Go {
                        wtime,
                        btime,
                        winc,
                        binc,
                        ..Go::default()
                    },
                    clocks[side.index()] + config.margin,
                )
            }
            TimeControl::MoveTime(t) => (Go::movetime(t), t + config.margin),
            TimeControl::Nodes(n) => (
                Go {
                    nodes: Some(n),
                    ..Go::default()
                },
                Duration::from_secs(60),
            ),
            TimeControl::Depth(d) => (Go::depth(d), Duration::from_secs(300)),
        };
        let t0 = Instant::now();
        let engine = &mut engines[side.index()];
        let answer = engine.go(&state, &pos, &limits, allowed);
        let took = t0.elapsed();
        match answer {
            Ok(EngineAnswer::Action(a)) => {
                if let TimeControl::Clock { inc, .. } = tcs[side.index()] {
                    let c = &mut clocks[side.index()];
                    if took > *c + config.margin {
                        record.lose(Some(side), Ending::TimeForfeit, format!("{name} ({side}) lost on time"));
                        break;
                    }
                    *c = c.saturating_sub(took) + inc;
                }
                for m in &a {
                    pos.play_unchecked(m);
                }
                pos.submit_unchecked();
                record.comments.push(info_comment(engine.last_info.as_deref(), took));
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
                        let why = format!("{name} ({side}): {}", EngineError::NoBestMove);
                        record.lose(Some(side), Ending::Infraction, why);
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
                let (ending, why) = match err {
                    EngineError::Timeout { .. } => {
                        (Ending::TimeForfeit, format!("{name} ({side}) lost on time: {err}"))
                    }
                    EngineError::Crashed { .. } | EngineError::Io(_) => {
                        (Ending::Abandoned, format!("{name} ({side}): {err}"))
                    }
                    _ => (Ending::Infraction, format!("{name} ({side}): {err}")),
                };
                record.lose(Some(side), ending, why);
                break;
            }
        }
    }
    for e in engines {
        e.quit(Duration::from_millis(500));
    }
    Some(record)
}

/// What [`run_match_with_events`] reports as the match goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// Something the user should know (openings that repeat, games that repeat).
    Warning(String),
    /// A game starts.
    Started {
        /// Its number, 1-based.
        round: usize,
        /// The number of games of the match.
        total: usize,
        /// The engine with White.
        white: &'a str,
        /// The engine with Black.
        black: &'a str,
    },
    /// A game ended.
    Finished(&'a Progress<'a>),
}

/// The games this run plays (0-based indices): all, or the shard's pairs.
pub fn schedule(config: &MatchConfig) -> Vec<usize> {
    (0..config.games)
        .filter(|&i| {
            let unit = if config.paired { i / 2 } else { i };
            config.shard.is_none_or(|s| s.owns(unit))
        })
        .collect()
}

/// The opening and the engine with White of game `i` (0-based): openings in turn, one per
/// pair (or per game when unpaired), colours alternating.
fn assignment(config: &MatchConfig, i: usize) -> (&Opening, usize) {
    let unit = if config.paired { i / 2 } else { i };
    (&config.openings[unit % config.openings.len()], i % 2)
}

/// Checks the settings that would make a match meaningless.
fn validate(config: &MatchConfig) -> Result<(), MatchError> {
    if config.openings.is_empty() {
        return Err(MatchError::Config("no opening".into()));
    }
    if config.games == 0 {
        return Err(MatchError::Config("no game to play (--games 0)".into()));
    }
    if let Some(s) = config.sprt {
        s.validate().map_err(MatchError::Config)?;
    }
    if let Some(s) = config.shard {
        s.validate()?;
    }
    Ok(())
}

/// Plays a match (see [`run_match_with_events`]), reporting each finished game to `progress`.
pub fn run_match(config: &MatchConfig, progress: &mut dyn FnMut(&Progress)) -> Result<MatchResult, MatchError> {
    run_match_with_events(config, &mut |e| {
        if let Event::Finished(p) = e {
            progress(p);
        }
        ControlFlow::Continue(())
    })
}

enum Msg {
    Started(usize),
    Done(Box<GameRecord>),
    Abandoned,
}

/// Plays a match. First starts each engine once (a missing or broken engine is an error
/// before any game). Games run `concurrency` at a time; each finished game is appended to the
/// 5DPGN file (flushed) and reported. Pairs are counted when both their games have ended.
/// Stops early on an SPRT decision (not in a shard: shards play their whole share), or when
/// `events` answers `Break` (no new game starts; the games under way end and are counted).
pub fn run_match_with_events(
    config: &MatchConfig,
    events: &mut dyn FnMut(&Event) -> ControlFlow<()>,
) -> Result<MatchResult, MatchError> {
    run_match_until(config, &Stop::default(), events)
}

/// [`run_match_with_events`] that `stop` can also end: the result then holds the games that
/// ended (and counts the abandoned ones in [`MatchResult::abandoned`]).
pub fn run_match_until(
    config: &MatchConfig,
    external: &Stop,
    events: &mut dyn FnMut(&Event) -> ControlFlow<()>,
) -> Result<MatchResult, MatchError> {
    validate(config)?;
    let names = check_engines(config)?;
    let mut config = config.clone();
    for (e, n) in config.engines.iter_mut().zip(names) {
        e.name = n;
    }
    let config = &config;
    let todo = schedule(config);
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = Arc::clone(&stop);
    let mut events = |e: &Event| {
        if events(e).is_break() {
            stopper.store(true, Ordering::Relaxed);
        }
    };
    // Over the whole match, shards included.
    let units = if config.paired {
        config.games.div_ceil(2)
    } else {
        config.games
    };
    if units > config.openings.len() {
        events(&Event::Warning(format!(
            "{units} {} but {} opening{}: openings repeat",
            if config.paired { "game pairs" } else { "games" },
            config.openings.len(),
            if config.openings.len() == 1 { "" } else { "s" }
        )));
    }
    if config.paired && config.games % 2 == 1 {
        events(&Event::Warning(format!(
            "{} games: the last one has no partner with colours swapped (it counts in the score, not in the pairs)",
            config.games
        )));
    }
    if let Some(p) = &config.pgn {
        // Appending is what shards and resumed runs want; a rerun into the same file usually is
        // not, so say so: the file's games would no longer match this match's report.
        if std::fs::metadata(p).is_ok_and(|m| m.len() > 0) {
            events(&Event::Warning(format!(
                "{} is not empty: this match's games are appended after the games it holds",
                p.display()
            )));
        }
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
    let (tx, rx) = mpsc::channel::<Msg>();
    let mut result = MatchResult::new([config.engines[0].name.clone(), config.engines[1].name.clone()]);
    let mut halves: HashMap<usize, f64> = HashMap::new();
    let mut seen: HashMap<(String, usize, Vec<Vec<Move>>), usize> = HashMap::new();
    std::thread::scope(|scope| -> Result<(), MatchError> {
        for _ in 0..config.concurrency.clamp(1, todo.len().max(1)) {
            let (next, stop, tx, todo) = (Arc::clone(&next), Arc::clone(&stop), tx.clone(), &todo);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) || external.requested() {
                    break;
                }
                let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    break;
                };
                let (opening, white) = assignment(config, i);
                if tx.send(Msg::Started(i)).is_err() {
                    break;
                }
                let msg = match play_game_until(config, i + 1, opening, white, external) {
                    Some(rec) => Msg::Done(Box::new(rec)),
                    None => Msg::Abandoned,
                };
                if tx.send(msg).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for msg in rx {
            let rec = match msg {
                Msg::Started(i) => {
                    let white = i % 2;
                    events(&Event::Started {
                        round: i + 1,
                        total: config.games,
                        white: &config.engines[white].name,
                        black: &config.engines[1 - white].name,
                    });
                    continue;
                }
                Msg::Done(rec) => *rec,
                Msg::Abandoned => {
                    result.abandoned += 1;
                    continue;
                }
            };
            let score = rec.score_of_first();
            result.trinomial.add(score);
            if config.paired {
                let pair = (rec.round - 1) / 2;
                if let Some(other) = halves.remove(&pair) {
                    result.pentanomial.add(other, score);
                } else {
                    halves.insert(pair, score);
                }
            }
            let key = (format!("{:?}", rec.opening.start), rec.white, rec.actions.clone());
            if let Some(earlier) = seen.insert(key, rec.round) {
                result.repeats += 1;
                events(&Event::Warning(format!(
                    "game {} repeats game {earlier} move for move",
                    rec.round
                )));
            }
            if let Some(f) = pgn.as_mut() {
                f.write_all(rec.to_5dpgn(config, &date).as_bytes())
                    .and_then(|_| f.flush())
                    .map_err(|e| MatchError::Io(e.to_string()))?;
            }
            // A crossed bound is final: games already under way when the match is told to stop
            // still count, but do not reopen the test.
            result.sprt = config.sprt.map(|s| match result.sprt {
                Some(decided) if decided.decided() => decided,
                _ => s.status_of(config.paired, &result.trinomial, &result.pentanomial),
            });
            if result.sprt.is_some_and(SprtStatus::decided) && config.shard.is_none() {
                stop.store(true, Ordering::Relaxed);
            }
            let t = result.trinomial;
            events(&Event::Finished(&Progress {
                played: result.games.len() + 1,
                total: config.games,
                wdl: (t.wins as usize, t.draws as usize, t.losses as usize),
                game: &rec,
                sprt: result.sprt,
                names: &result.names,
                trinomial: t,
                pentanomial: result.pentanomial,
                paired: config.paired,
            }));
            result.games.push(rec);
        }
        Ok(())
    })?;
    let t = result.trinomial;
    (result.wins, result.draws, result.losses) = (t.wins as usize, t.draws as usize, t.losses as usize);
    result.estimate = elo_of_counts(config.paired, &t, &result.pentanomial);
    result.elo = result.estimate.map(|e| (e.elo, e.margin));
    result.paired = config.paired;
    if let Some(path) = &config.summary {
        crate::shards::Summary::of(config, &result).write(path)?;
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shard;

    #[test]
    fn schedules_and_assignments() {
        let mut c = MatchConfig {
            games: 5,
            openings: Opening::all_variants()[..2].to_vec(),
            ..MatchConfig::default()
        };
        let boards: Vec<(String, usize)> = (0..5)
            .map(|i| {
                let (o, w) = assignment(&c, i);
                (o.board.clone(), w)
            })
            .collect();
        let (a, b) = (c.openings[0].board.clone(), c.openings[1].board.clone());
        assert_eq!(
            boards,
            vec![(a.clone(), 0), (a.clone(), 1), (b.clone(), 0), (b, 1), (a, 0)]
        );
        c.shard = Some(Shard { index: 2, count: 2 });
        assert_eq!(schedule(&c), vec![2, 3]);
        c.games = 0;
        assert!(validate(&c).unwrap_err().to_string().contains("no game"));
    }

    #[test]
    fn game_seeds_differ_by_game_and_match() {
        assert_eq!(game_seed(1, 3), game_seed(1, 3));
        assert_ne!(game_seed(1, 3), game_seed(1, 4));
        assert_ne!(game_seed(1, 3), game_seed(2, 3));
        assert!(game_seed(u64::MAX, usize::MAX) <= i64::MAX as u64);
    }
}
