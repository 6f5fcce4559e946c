//! Layer: domain: no HTTP (its routes are in `analysis_api`).
//!
//! Analysis boards: a scratch copy of a game's position (live, reviewed or imported) where the
//! player tries moves without changing the game, and an engine that analyses it continuously
//! (`go infinite` ... `stop` over 5DUCI, or the built-in engine with its stop flag) while the
//! page watches its evaluation, depth, speed and best lines over a WebSocket. The engine
//! searches with `MultiPV` 3 (see [`chess5d_play::ANALYSIS_LINES`]; a start may ask for 1 to
//! [`chess5d_play::MAX_ANALYSIS_LINES`]): its best actions, each with its score and line.
//!
//! Each board lives in memory only (never in the database) and ends when its page goes away
//! (the WebSocket closes), when it is deleted, or when the server stops; its engine is stopped
//! and its process ended then; a board that no page watches and no request asks for during
//! `analysis-idle-secs` ends too (its place goes back to the pool). A board belongs to whoever made it: every request on it carries
//! the token of its creation answer (`analysis.token`, in the `X-Chess5d-Seat` header or the
//! `token` query parameter of its WebSocket and export). A client holds at most the limit
//! `analysis-boards-per-client` (a new one ends its own oldest), the server at most
//! `analysis-boards` (then a new one is refused with 429, unless a board of a client holding
//! more has gone unused for `analysis-turn-secs`: it ends and its place is the newcomer's, see
//! [`Analyses::give_way`]): each board has at most one engine, so these bound the analysis
//! engines too.

use crate::engine::{game_state, Runner};
use crate::error::ServerError;
use crate::session::{Player, Session};
use crate::sync::lock;
use chess5d_engine::{Limits, Score, SearchInfo};
use chess5d_play::{eval_text, AnalysisLines};
use chess5d_protocol::{parse_move, EngineError};
use chess5d_rules::{Color, Game, Move, Position};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Every analysis board of the server.
#[derive(Debug, Default)]
pub struct Analyses {
    pub(crate) boards: Mutex<BTreeMap<u64, Arc<Board>>>,
    pub(crate) next: AtomicU64,
}

/// What the engine reports, as the page shows it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Info {
    pub(crate) running: bool,
    pub(crate) depth: u32,
    /// From White's point of view: centipawns, or mate in N (negative: Black mates).
    pub(crate) score: Option<Score>,
    pub(crate) nodes: u64,
    pub(crate) nps: u64,
    /// The best line: SAN of each action and its moves (for arrows).
    pub(crate) pv: Vec<Value>,
    /// The best lines (MultiPV), best first; the first is the one above.
    pub(crate) lines: AnalysisLines,
    pub(crate) error: Option<String>,
    /// The run stopped because it searched its `analysis-nodes`.
    pub(crate) spent: bool,
    /// A forced mate the solver proved here ([`chess5d_play::mates::Proven::json`]); none
    /// while unproven (no mate, not looked for, or not proven within the budget).
    pub(crate) proven: Option<Value>,
}

impl Info {
    pub(crate) fn json(&self) -> Value {
        let eval = self.score.map(eval_text);
        json!({
            "running": self.running, "depth": self.depth, "eval": eval, "nodes": self.nodes,
            "nps": self.nps, "pv": self.pv, "lines": self.lines.json(), "error": self.error,
            "spent": self.spent, "proven": self.proven,
        })
    }
}

#[derive(Debug)]
pub(crate) struct Worker {
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) handle: JoinHandle<()>,
}

/// One analysis board.
#[derive(Debug)]
pub(crate) struct Board {
    pub(crate) id: u64,
    /// Its maker's token (32 hex digits).
    pub(crate) token: String,
    /// Its maker, as the quotas count clients.
    pub(crate) client: crate::limits::ClientKey,
    /// Its place in the quota of boards, given back when the board is gone.
    pub(crate) _permit: crate::limits::Permit,
    /// The game it was taken from, how many of its actions (the branch point), the whole
    /// game's 5DPGN for the export.
    pub(crate) scratch: chess5d_play::listing::Scratch,
    pub(crate) session: Mutex<Session>,
    pub(crate) info: Mutex<Info>,
    pub(crate) engine: Arc<Mutex<Option<Runner>>>,
    pub(crate) worker: Mutex<Option<Worker>>,
    /// The solver looking for a short forced mate while the engine runs ([`Board::prove`]).
    pub(crate) prover: Mutex<Option<Worker>>,
    pub(crate) tx: broadcast::Sender<()>,
    /// When a request last asked for it (a board nobody watches or asks for is reclaimed after
    /// `analysis-idle-secs`).
    pub(crate) touched: Mutex<Instant>,
}

impl Analyses {
    /// Board `id` for the holder of `token` (its maker's, else refused).
    pub(crate) fn get(&self, id: u64, token: Option<&str>) -> Result<Arc<Board>, ServerError> {
        let board = lock(&self.boards)
            .get(&id)
            .cloned()
            .ok_or_else(|| ServerError::from(chess5d_play::PlayError::NoAnalysisBoard { id: id.to_string() }))?;
        match token {
            Some(t) if crate::seats::token_matches(t, &crate::seats::hash_token(&board.token)) => {
                *lock(&board.touched) = Instant::now();
                Ok(board)
            }
            _ => Err(ServerError::Forbidden(format!(
                "analysis board {id} belongs to whoever made it: send the token of its creation answer \
                 (analysis.token) in the {} header",
                crate::seats::TOKEN_HEADER
            ))),
        }
    }

    pub(crate) fn remove(&self, id: u64) -> Option<Arc<Board>> {
        lock(&self.boards).remove(&id)
    }

    /// Ends the boards that nobody watches (no WebSocket) and no request asked for during
    /// `idle` (limit `analysis-idle-secs`): their places go back to the pool. How many ended.
    pub(crate) fn reclaim_idle(&self, idle: Duration) -> usize {
        let idle_boards: Vec<Arc<Board>> = {
            let mut boards = lock(&self.boards);
            let ids: Vec<u64> = boards
                .values()
                .filter(|b| b.tx.receiver_count() == 0 && lock(&b.touched).elapsed() >= idle)
                .map(|b| b.id)
                .collect();
            ids.iter().filter_map(|id| boards.remove(id)).collect()
        };
        let n = idle_boards.len();
        for b in idle_boards {
            b.close();
            b.publish();
        }
        n
    }

    /// Turns for boards: when `client` is refused a board, the board that nobody has asked for
    /// during `turn` (limit `analysis-turn-secs`) of a client holding more boards (one holding
    /// none takes from anyone, see [`crate::limits::may_give_way`]) ends: boards no page
    /// watches first, then those of the client holding the most, then the untouched longest.
    /// Its page is told why. Whether a place came free.
    pub(crate) fn give_way(
        &self,
        client: crate::limits::ClientKey,
        quota: &crate::limits::Quota,
        turn: Duration,
    ) -> bool {
        let mine = quota.held_by(client);
        let victim = {
            let mut boards = lock(&self.boards);
            let id = boards
                .values()
                .filter(|b| {
                    b.client != client
                        && lock(&b.touched).elapsed() >= turn
                        && crate::limits::may_give_way(mine, quota.held_by(b.client))
                })
                .max_by_key(|b| {
                    (
                        b.tx.receiver_count() == 0,
                        quota.held_by(b.client),
                        lock(&b.touched).elapsed(),
                    )
                })
                .map(|b| b.id);
            id.and_then(|id| boards.remove(&id))
        };
        let Some(b) = victim else {
            return false;
        };
        lock(&b.info).error = Some(format!(
            "this analysis board ended: unused for {} s, its place went to someone waiting for one \
             (limit 'analysis-turn-secs')",
            turn.as_secs()
        ));
        b.close();
        b.publish();
        true
    }

    /// Stops every engine and forgets every board (the server is stopping).
    pub fn shutdown(&self) {
        let all: Vec<Arc<Board>> = std::mem::take(&mut *lock(&self.boards)).into_values().collect();
        for b in all {
            b.close();
        }
    }
}

impl Board {
    pub(crate) fn state(&self) -> Value {
        self.state_at(None)
    }

    /// The board's state, or (`at`) the position after its first `at` actions (`?at=N`, as for
    /// games: the page reviews a shared game on a board of its own this way).
    pub(crate) fn state_at(&self, at: Option<usize>) -> Value {
        let s = lock(&self.session);
        self.scratch.state(&s.play, self.id, Some(&self.token), at)
    }

    pub(crate) fn publish(&self) {
        let _ = self.tx.send(());
    }

    /// Starts the engine on the current position (between actions: moves of an unfinished
    /// action are left out), stopping a search already running first; it reports its best
    /// `multipv` lines (an engine program without the `MultiPV` option reports one), until
    /// it is stopped or has searched `nodes` (the limit `analysis-nodes`).
    pub(crate) fn start(
        self: &Arc<Self>,
        engines: &[crate::config::EngineConfig],
        multipv: usize,
        budget: crate::limits::EngineBudget,
        nodes: u64,
    ) -> Result<(), ServerError> {
        self.stop();
        let mut game = lock(&self.session).game.clone();
        while game.undo_move().is_some() {}
        if game
            .position()
            .legal_actions(chess5d_rules::Budget::tests(20_000))
            .next()
            .is_none()
        {
            return Err(ServerError::Conflict(
                "the position has no legal action to analyse".into(),
            ));
        }
        {
            let mut slot = lock(&self.engine);
            if slot.is_none() {
                let player = Player::Engine {
                    engine: None,
                    bot: Some("alphabeta".into()),
                    movetime_ms: None,
                };
                *slot = Some(Runner::start(engines, &player, budget)?);
            }
            match slot.as_mut() {
                Some(Runner::Internal(e)) => e
                    .set_option("MultiPV", &multipv.to_string())
                    .map_err(|e| ServerError::Internal(format!("the engine refused MultiPV {multipv}: {e}")))?,
                Some(Runner::Process(p)) if p.id().options.iter().any(|o| o.contains("name MultiPV ")) => {
                    if let Err(e) = p.set_option("MultiPV", &multipv.to_string()) {
                        // A process that cannot be written to is not reused.
                        *slot = None;
                        return Err(ServerError::Internal(format!("the engine failed: {e}")));
                    }
                }
                _ => {}
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(Runner::Internal(e)) = lock(&self.engine).as_ref() {
            // The built-in engine has its own flag; the worker forwards ours to it.
            e.stop_flag().store(false, Ordering::SeqCst);
        }
        *lock(&self.info) = Info {
            running: true,
            ..Info::default()
        };
        self.publish();
        let board = self.clone();
        let flag = stop.clone();
        // At the priority of costly work: a board's search takes only what the requests leave
        // (at the requests' own priority, 16 boards held both cores in the soak).
        let handle = crate::sync::spawn_background("search", move || board.run(&game, &flag, nodes))
            .map_err(|e| ServerError::Internal(format!("cannot start the analysis: {e}")))?;
        *lock(&self.worker) = Some(Worker { stop, handle });
        Ok(())
    }

    /// Looks for a forced mate of the side to move (at most [`chess5d_play::mates::ANALYSIS_MAX`]
    /// actions, [`chess5d_play::mates::ANALYSIS_NODES`] solver nodes and `tests` candidate
    /// tests) on a thread of its own holding `permit` (a place among the puzzle proofs: the same
    /// costly-work quota and fair shares); a proven mate joins the board's report. Stopped with
    /// the engine, and by any change of the position.
    pub(crate) fn prove(self: &Arc<Self>, permit: crate::limits::Permit, tests: u64) {
        let mut game = lock(&self.session).game.clone();
        while game.undo_move().is_some() {}
        let stop = Arc::new(AtomicBool::new(false));
        let board = self.clone();
        let flag = stop.clone();
        let proving = crate::sync::spawn_background("prove", move || {
            let _permit = permit;
            let pos = game.position();
            let effort = chess5d_play::mates::Effort {
                cancel: Some(&flag),
                ..chess5d_play::mates::Effort::analysis(tests)
            };
            if let Some(p) = chess5d_play::mates::proven_mate(pos, &effort) {
                if !flag.load(Ordering::SeqCst) {
                    lock(&board.info).proven = Some(p.json(pos));
                    board.publish();
                }
            }
        });
        // Without a thread there is no proof to wait for: the board reports no proven mate.
        let Ok(handle) = proving else { return };
        if let Some(old) = lock(&self.prover).replace(Worker { stop, handle }) {
            old.stop.store(true, Ordering::SeqCst);
            let _ = old.handle.join();
        }
    }

    /// Stops the search (the engine answers `stop` and waits, idle, for the next start).
    pub(crate) fn stop(&self) {
        let prover = lock(&self.prover).take();
        if let Some(p) = prover {
            p.stop.store(true, Ordering::SeqCst);
            let _ = p.handle.join();
        }
        let worker = lock(&self.worker).take();
        if let Some(w) = worker {
            w.stop.store(true, Ordering::SeqCst);
            if let Some(Runner::Internal(e)) = lock(&self.engine).as_ref() {
                e.stop_flag().store(true, Ordering::SeqCst);
            }
            let _ = w.handle.join();
        }
        let mut info = lock(&self.info);
        if info.running {
            info.running = false;
            drop(info);
            self.publish();
        }
    }

    /// Stops the search and ends the engine process.
    pub(crate) fn close(&self) {
        self.stop();
        if let Some(Runner::Process(p)) = lock(&self.engine).take() {
            p.quit(Duration::from_millis(300));
        }
    }

    /// The worker: runs the engine until `stop` is set or it has searched `budget` nodes,
    /// publishing each `info`.
    pub(crate) fn run(&self, game: &Game, stop: &AtomicBool, budget: u64) {
        let pos = game.position().clone();
        let mut engine = lock(&self.engine).take();
        let result = match engine.as_mut() {
            None => Err("the engine is not running".to_string()),
            Some(Runner::Internal(e)) => {
                let flag = e.stop_flag();
                let mut on_info = |i: &SearchInfo| {
                    if stop.load(Ordering::SeqCst) {
                        flag.store(true, Ordering::SeqCst);
                    }
                    self.report(game, i.multipv, i.depth, Some(i.score), i.nodes, i.nps(), &i.pv);
                };
                // No time limit: the run ends when stopped or when its nodes are spent.
                let limits = Limits {
                    nodes: Some(budget.max(1)),
                    ..Limits::default()
                };
                // The built-in engine checks its flag while searching; a watcher sets it.
                let watcher_stop = flag.clone();
                let done = AtomicBool::new(false);
                std::thread::scope(|scope| {
                    scope.spawn(|| {
                        while !done.load(Ordering::SeqCst) {
                            if stop.load(Ordering::SeqCst) {
                                watcher_stop.store(true, Ordering::SeqCst);
                                return;
                            }
                            std::thread::sleep(Duration::from_millis(20));
                        }
                    });
                    let r = e.search(&pos, &limits, &mut on_info);
                    done.store(true, Ordering::SeqCst);
                    Ok(r.nodes >= budget && !stop.load(Ordering::SeqCst))
                })
            }
            Some(Runner::Process(p)) => self.run_process(p, game, &pos, stop, budget).map_err(|e| e.to_string()),
        };
        if result.is_err() {
            // A failed process is not reused.
            engine = None;
        }
        *lock(&self.engine) = engine;
        let mut info = lock(&self.info);
        info.running = false;
        info.spent = result == Ok(true);
        info.error = result.err().map(|e| format!("the engine failed: {e}"));
        drop(info);
        self.publish();
    }

    pub(crate) fn run_process(
        &self,
        p: &mut chess5d_protocol::EngineProcess,
        game: &Game,
        pos: &Position,
        stop: &AtomicBool,
        budget: u64,
    ) -> Result<bool, EngineError> {
        p.send(&game_state(game).command(&[]))?;
        // `go infinite`, stopped here when the nodes the engine reports reach the budget: an
        // engine without `go nodes` is held to it too.
        p.send("go infinite")?;
        let mut searched = 0;
        loop {
            let spent = searched >= budget;
            if spent || stop.load(Ordering::SeqCst) {
                p.stop(Duration::from_secs(5))?;
                return Ok(spent);
            }
            let now = Instant::now();
            match p.read_line(now + Duration::from_millis(50), now) {
                Ok(line) => {
                    let first = line.split_whitespace().next().unwrap_or("");
                    if first == "info" {
                        if let Some(i) = parse_info(&line, pos) {
                            searched = searched.max(i.nodes);
                            self.report(game, i.multipv, i.depth, i.score, i.nodes, i.nps, &i.pv);
                        }
                    } else if first == "bestmove" || first == "nobestmove" {
                        // The engine ended the search by itself (nothing more to find).
                        return Ok(false);
                    }
                }
                Err(EngineError::Timeout { .. }) => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// An engine report on line `rank` (`None`: the engine reports one line) of `pos`, its
    /// score from the side to move's point of view: the line is kept among the best lines, and
    /// the best line (rank 1) is also the board's evaluation, depth and `pv`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn report(
        &self,
        game: &Game,
        rank: Option<u32>,
        depth: u32,
        score: Option<Score>,
        nodes: u64,
        nps: u64,
        pv: &[Vec<Move>],
    ) {
        let pos = game.position();
        let white = pos.to_move() == Color::White;
        let mut info = lock(&self.info);
        info.nodes = nodes;
        info.nps = nps;
        if rank.unwrap_or(1) <= 1 {
            info.depth = depth;
            info.score = score.map(|s| white_view(s, white));
            if !pv.is_empty() || info.pv.is_empty() {
                info.pv = pv_json(pos, pv);
            }
        }
        if let Some(s) = score {
            info.lines.update(game, rank, depth, s, pv);
        }
        drop(info);
        self.publish();
    }

    /// The whole game with the actions tried here as a variation after the branch point.
    pub(crate) fn export(&self) -> Result<String, ServerError> {
        let s = lock(&self.session);
        Ok(self.scratch.export(&s.play)?)
    }
}

/// A score of the side to move seen from White.
pub(crate) use chess5d_play::white_score as white_view;

pub use chess5d_play::pv_json;

struct ParsedInfo {
    multipv: Option<u32>,
    depth: u32,
    score: Option<Score>,
    nodes: u64,
    nps: u64,
    pv: Vec<Vec<Move>>,
}

/// Reads a 5DUCI `info` line (`info depth 3 multipv 2 score cp 20 nodes 900 nps 4500 ... pv
/// <moves> submit <moves>`); `None` for lines without a depth (e.g. `info string`).
fn parse_info(line: &str, pos: &Position) -> Option<ParsedInfo> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let mut out = ParsedInfo {
        multipv: None,
        depth: 0,
        score: None,
        nodes: 0,
        nps: 0,
        pv: Vec::new(),
    };
    let mut seen_depth = false;
    let mut i = 1;
    while i < toks.len() {
        let next = toks.get(i + 1).copied().unwrap_or("");
        match toks[i] {
            "string" => return None,
            "depth" => {
                out.depth = next.parse().ok()?;
                seen_depth = true;
            }
            "multipv" => out.multipv = next.parse().ok(),
            "nodes" => out.nodes = next.parse().unwrap_or(0),
            "nps" => out.nps = next.parse().unwrap_or(0),
            "score" => {
                let v: i32 = toks.get(i + 2)?.parse().ok()?;
                out.score = match next {
                    "cp" => Some(Score::Cp(v)),
                    "mate" => Some(Score::Mate(v)),
                    _ => None,
                };
                i += 1;
            }
            "pv" => {
                out.pv = read_pv(&toks[i + 1..], pos);
                break;
            }
            _ => {}
        }
        i += 2;
    }
    seen_depth.then_some(out)
}

/// The actions of a `pv` (moves separated by `submit`), as far as they are legal.
fn read_pv(toks: &[&str], pos: &Position) -> Vec<Vec<Move>> {
    let mut work = pos.clone();
    let mut actions = Vec::new();
    let mut current = Vec::new();
    for tok in toks.iter().copied().chain(std::iter::once("submit")) {
        if tok == "submit" {
            if current.is_empty() {
                continue;
            }
            if work.can_submit().is_err() || work.submit().is_err() {
                break;
            }
            actions.push(std::mem::take(&mut current));
            continue;
        }
        let Ok(m) = parse_move(tok, &work) else { break };
        if work.play(&m).is_err() {
            break;
        }
        current.push(m);
    }
    actions
}

// ---------- routes ----------

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(crate) fn info_lines_are_read_with_their_best_line() {
        let pos = chess5d_rules::Variant::by_name("Standard")
            .expect("standard")
            .position();
        let i = parse_info(
            "info depth 2 score cp -15 nodes 900 nps 4500 time 200 hashfull 0 pv (0T1)e2(0T1)e4 submit (0T1)e7(0T1)e5",
            &pos,
        )
        .expect("an info line");
        assert_eq!((i.depth, i.score, i.nodes, i.nps), (2, Some(Score::Cp(-15)), 900, 4500));
        let json = pv_json(&pos, &i.pv);
        let texts: Vec<&str> = json.iter().filter_map(|a| a["text"].as_str()).collect();
        assert_eq!(texts, ["e4", "e5"]);
        assert_eq!(i.multipv, None);
        let k = parse_info(
            "info depth 3 seldepth 3 multipv 2 score cp 7 nodes 10 pv (0T1)d2(0T1)d4",
            &pos,
        )
        .expect("an info line");
        assert_eq!((k.multipv, k.depth, k.score), (Some(2), 3, Some(Score::Cp(7))));
        assert_eq!(k.pv.len(), 1);
        assert!(parse_info("info string hello", &pos).is_none());
        // An illegal move ends the line where it is.
        let j = parse_info("info depth 1 score mate 1 pv (0T1)e2(0T1)e5", &pos).expect("an info line");
        assert!(j.pv.is_empty());
        assert_eq!(white_view(Score::Mate(2), false), Score::Mate(-2));
    }
}
