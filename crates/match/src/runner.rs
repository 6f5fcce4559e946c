//! Playing games and matches: engine processes, clocks, adjudication.

use crate::{
    elo, sprt_status, today, EngineSpec, MatchConfig, MatchError, MatchResult, Opening, Progress, SprtStatus,
    TimeControl,
};
use chess5d_engine::Limits;
use chess5d_protocol::{EngineAnswer, EngineError, EngineProcess, GameState};
use chess5d_rules::{Budget, Color, Move, Outcome};
use std::io::Write;
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
