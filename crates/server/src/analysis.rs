//! Analysis boards: a scratch copy of a game's position (live, reviewed or imported) where the
//! player tries moves without changing the game, and an engine that analyses it continuously
//! (`go infinite` ... `stop` over 5DUCI, or the built-in engine with its stop flag) while the
//! page watches its evaluation, depth, speed and best line over a WebSocket.
//!
//! Each board lives in memory only (never in the database) and ends when its page goes away
//! (the WebSocket closes), when it is deleted, or when the server stops; its engine is stopped
//! and its process ended then. At most [`MAX_BOARDS`] exist at once (the oldest is dropped).

use crate::api::JsonBody;
use crate::engine::{game_state, Runner};
use crate::session::{Player, Session};
use crate::state::{blocking, lock, AppState};
use crate::ServerError;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chess5d_engine::{Limits, Score, SearchInfo};
use chess5d_notation::LoadedGame;
use chess5d_protocol::{parse_move, EngineError};
use chess5d_rules::{Color, Game, Position};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// The most analysis boards kept at once.
pub const MAX_BOARDS: usize = 16;

/// Every analysis board of the server.
#[derive(Debug, Default)]
pub struct Analyses {
    boards: Mutex<BTreeMap<u64, Arc<Board>>>,
    next: AtomicU64,
}

/// What the engine reports, as the page shows it.
#[derive(Clone, Debug, Default)]
struct Info {
    running: bool,
    depth: u32,
    /// From White's point of view: centipawns, or mate in N (negative: Black mates).
    score: Option<Score>,
    nodes: u64,
    nps: u64,
    /// The best line: SAN of each action and its moves (for arrows).
    pv: Vec<Value>,
    error: Option<String>,
}

impl Info {
    fn json(&self) -> Value {
        let eval = self.score.map(|s| match s {
            Score::Cp(c) => c.to_string(),
            Score::Mate(n) => format!("mate {n}"),
        });
        json!({
            "running": self.running, "depth": self.depth, "eval": eval, "nodes": self.nodes,
            "nps": self.nps, "pv": self.pv, "error": self.error,
        })
    }
}

#[derive(Debug)]
struct Worker {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// One analysis board.
#[derive(Debug)]
struct Board {
    id: u64,
    /// The game it was taken from and how many of its actions (the branch point).
    from_game: Option<i64>,
    base_actions: usize,
    /// The whole game (not only up to the branch point) as 5DPGN, for the export.
    game_pgn: String,
    session: Mutex<Session>,
    info: Mutex<Info>,
    engine: Arc<Mutex<Option<Runner>>>,
    worker: Mutex<Option<Worker>>,
    tx: broadcast::Sender<()>,
}

impl Analyses {
    fn get(&self, id: u64) -> Result<Arc<Board>, ServerError> {
        lock(&self.boards)
            .get(&id)
            .cloned()
            .ok_or_else(|| ServerError::NotFound(format!("no analysis board {id}")))
    }

    fn remove(&self, id: u64) -> Option<Arc<Board>> {
        lock(&self.boards).remove(&id)
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
    fn state(&self) -> Value {
        let s = lock(&self.session);
        let mut v = s.view(None);
        let mut game = s.game.clone();
        while game.undo_move().is_some() {}
        v["fen"] = json!(chess5d_notation::write_5dfen(game.position()));
        v["analysis"] = json!({
            "id": self.id, "game": self.from_game, "base_actions": self.base_actions,
            "tried": s.game.actions().len().saturating_sub(self.base_actions),
        });
        v
    }

    fn publish(&self) {
        let _ = self.tx.send(());
    }

    /// Starts the engine on the current position (between actions: moves of an unfinished
    /// action are left out), stopping a search already running first.
    fn start(self: &Arc<Self>, engines: &[crate::EngineConfig]) -> Result<(), ServerError> {
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
                *slot = Some(Runner::start(engines, &player)?);
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
        let handle = std::thread::spawn(move || board.run(&game, &flag));
        *lock(&self.worker) = Some(Worker { stop, handle });
        Ok(())
    }

    /// Stops the search (the engine answers `stop` and waits, idle, for the next start).
    fn stop(&self) {
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
    fn close(&self) {
        self.stop();
        if let Some(Runner::Process(p)) = lock(&self.engine).take() {
            p.quit(Duration::from_millis(300));
        }
    }

    /// The worker: runs the engine until `stop` is set, publishing each `info`.
    fn run(&self, game: &Game, stop: &AtomicBool) {
        let pos = game.position().clone();
        let white = pos.to_move() == Color::White;
        let mut engine = lock(&self.engine).take();
        let result = match engine.as_mut() {
            None => Err("the engine is not running".to_string()),
            Some(Runner::Internal(e)) => {
                let flag = e.stop_flag();
                let mut on_info = |i: &SearchInfo| {
                    if stop.load(Ordering::SeqCst) {
                        flag.store(true, Ordering::SeqCst);
                    }
                    self.report(i.depth, Some(i.score), i.nodes, i.nps(), pv_json(&pos, &i.pv), white);
                };
                let limits = Limits {
                    infinite: true,
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
                    e.search(&pos, &limits, &mut on_info);
                    done.store(true, Ordering::SeqCst);
                });
                Ok(())
            }
            Some(Runner::Process(p)) => self.run_process(p, game, &pos, stop, white).map_err(|e| e.to_string()),
        };
        if result.is_err() {
            // A failed process is not reused.
            engine = None;
        }
        *lock(&self.engine) = engine;
        let mut info = lock(&self.info);
        info.running = false;
        info.error = result.err().map(|e| format!("the engine failed: {e}"));
        drop(info);
        self.publish();
    }

    fn run_process(
        &self,
        p: &mut chess5d_protocol::EngineProcess,
        game: &Game,
        pos: &Position,
        stop: &AtomicBool,
        white: bool,
    ) -> Result<(), EngineError> {
        p.send(&game_state(game).command(&[]))?;
        p.send("go infinite")?;
        loop {
            if stop.load(Ordering::SeqCst) {
                p.stop(Duration::from_secs(5))?;
                return Ok(());
            }
            let now = Instant::now();
            match p.read_line(now + Duration::from_millis(50), now) {
                Ok(line) => {
                    let first = line.split_whitespace().next().unwrap_or("");
                    if first == "info" {
                        if let Some(i) = parse_info(&line, pos) {
                            self.report(i.depth, i.score, i.nodes, i.nps, i.pv, white);
                        }
                    } else if first == "bestmove" || first == "nobestmove" {
                        // The engine ended the search by itself (nothing more to find).
                        return Ok(());
                    }
                }
                Err(EngineError::Timeout { .. }) => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn report(&self, depth: u32, score: Option<Score>, nodes: u64, nps: u64, pv: Vec<Value>, white: bool) {
        let mut info = lock(&self.info);
        info.depth = depth;
        info.score = score.map(|s| white_view(s, white));
        info.nodes = nodes;
        info.nps = nps;
        if !pv.is_empty() || info.pv.is_empty() {
            info.pv = pv;
        }
        drop(info);
        self.publish();
    }

    /// The whole game with the actions tried here as a variation after the branch point.
    fn export(&self) -> Result<String, ServerError> {
        let s = lock(&self.session);
        Ok(chess5d_play::export_variation(
            &self.game_pgn,
            self.base_actions,
            &s.game,
        )?)
    }
}

/// A score of the side to move seen from White.
fn white_view(s: Score, white: bool) -> Score {
    match (s, white) {
        (s, true) => s,
        (Score::Cp(c), false) => Score::Cp(-c),
        (Score::Mate(n), false) => Score::Mate(-n),
    }
}

pub use chess5d_play::pv_json;

struct ParsedInfo {
    depth: u32,
    score: Option<Score>,
    nodes: u64,
    nps: u64,
    pv: Vec<Value>,
}

/// Reads a 5DUCI `info` line (`info depth 3 score cp 20 nodes 900 nps 4500 ... pv <moves>
/// submit <moves>`); `None` for lines without a depth (e.g. `info string`).
fn parse_info(line: &str, pos: &Position) -> Option<ParsedInfo> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let mut out = ParsedInfo {
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
fn read_pv(toks: &[&str], pos: &Position) -> Vec<Value> {
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
    pv_json(pos, &actions)
}

// ---------- routes ----------

/// The routes of analysis boards (merged into the server's router).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/analysis", post(create))
        .route("/api/analysis/:id", get(view).delete(delete))
        .route("/api/analysis/:id/moves", get(moves))
        .route("/api/analysis/:id/move", post(play))
        .route("/api/analysis/:id/undo", post(undo))
        .route("/api/analysis/:id/takeback", post(take_back))
        .route("/api/analysis/:id/submit", post(submit))
        .route("/api/analysis/:id/start", post(start))
        .route("/api/analysis/:id/stop", post(stop))
        .route("/api/analysis/:id/pgn", get(export))
        .route("/api/analysis/:id/ws", get(ws))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    #[serde(default)]
    game: Option<i64>,
    #[serde(default)]
    at: Option<usize>,
    #[serde(default)]
    import: Option<String>,
}

/// Game `id` after its first `at` actions (all if `None`), and the whole game's 5DPGN.
pub fn game_until(st: &AppState, id: i64, at: Option<usize>) -> Result<(LoadedGame, String), ServerError> {
    let (game, pgn) = st.game_snapshot(id)?;
    let n = game.actions().len();
    let at = at.unwrap_or(n);
    if at > n {
        return Err(ServerError::BadRequest(format!(
            "'at' is {at} but game {id} has {n} actions"
        )));
    }
    let mut loaded = LoadedGame::new(chess5d_notation::Format::Pgn, game.start().clone());
    let replay = |e: String| ServerError::Internal(format!("replaying game {id}: {e}"));
    for a in &game.actions()[..at] {
        for m in &a.moves {
            loaded.game.make_move(m).map_err(|e| replay(e.to_string()))?;
        }
        loaded.game.submit().map_err(|e| replay(e.to_string()))?;
    }
    Ok((loaded, pgn))
}

fn parse_board_id(s: &str) -> Result<u64, ServerError> {
    s.parse()
        .map_err(|_| ServerError::NotFound(format!("no analysis board '{s}'")))
}

async fn create(State(st): State<AppState>, JsonBody(req): JsonBody<CreateReq>) -> Result<Response, ServerError> {
    let v = blocking(move || {
        let (loaded, game_pgn, from_game) = match (req.game, req.import) {
            (Some(_), Some(_)) => {
                return Err(ServerError::BadRequest(
                    "give either 'game' or 'import', not both".into(),
                ))
            }
            (None, None) => {
                return Err(ServerError::BadRequest(
                    "give 'game' (an id) or 'import' (a text)".into(),
                ))
            }
            (None, Some(text)) => {
                if req.at.is_some() {
                    return Err(ServerError::BadRequest("'at' goes with 'game'".into()));
                }
                let loaded = chess5d_notation::load(&text)
                    .map_err(|e| ServerError::BadRequest(format!("cannot import: {e}")))?;
                let pgn = chess5d_notation::write_5dpgn(&loaded);
                (loaded, pgn, None)
            }
            (Some(id), None) => {
                let (loaded, pgn) = game_until(&st, id, req.at)?;
                (loaded, pgn, Some(id))
            }
        };
        let base_actions = loaded.game.actions().len();
        let human = || Player::Human { name: None };
        let session = Session::new(loaded, [human(), human()], None, None);
        let analyses = st.analyses();
        let id = analyses.next.fetch_add(1, Ordering::SeqCst) + 1;
        let board = Arc::new(Board {
            id,
            from_game,
            base_actions,
            game_pgn,
            session: Mutex::new(session),
            info: Mutex::new(Info::default()),
            engine: Arc::new(Mutex::new(None)),
            worker: Mutex::new(None),
            tx: broadcast::channel(64).0,
        });
        let evicted = {
            let mut map = lock(&analyses.boards);
            map.insert(id, board.clone());
            let extra = map.len().saturating_sub(MAX_BOARDS);
            let old: Vec<u64> = map.keys().take(extra).copied().collect();
            old.into_iter().filter_map(|k| map.remove(&k)).collect::<Vec<_>>()
        };
        for b in evicted {
            b.close();
        }
        Ok(board.state())
    })
    .await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

async fn view(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    let board = st.analyses().get(parse_board_id(&id)?)?;
    let mut v = board.state();
    v["engine"] = lock(&board.info).json();
    Ok(Json(v).into_response())
}

async fn delete(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    let id = parse_board_id(&id)?;
    let board = st
        .analyses()
        .remove(id)
        .ok_or_else(|| ServerError::NotFound(format!("no analysis board {id}")))?;
    blocking(move || {
        board.close();
        board.publish();
        Ok(())
    })
    .await?;
    Ok(Json(json!({ "deleted": id })).into_response())
}

type Q = Result<Query<HashMap<String, String>>, QueryRejection>;

/// An integer query parameter.
fn parse_query_num(q: &HashMap<String, String>, k: &str) -> Result<i32, ServerError> {
    let v = q
        .get(k)
        .ok_or_else(|| ServerError::BadRequest(format!("missing query parameter '{k}'")))?;
    v.parse()
        .map_err(|_| ServerError::BadRequest(format!("query parameter '{k}' must be an integer, got '{v}'")))
}

async fn moves(State(st): State<AppState>, Path(id): Path<String>, q: Q) -> Result<Response, ServerError> {
    let board = st.analyses().get(parse_board_id(&id)?)?;
    let Query(q) = q.map_err(|e| ServerError::BadRequest(format!("bad query string: {}", e.body_text())))?;
    let (l, t) = (parse_query_num(&q, "l")?, parse_query_num(&q, "t")?);
    let square = q
        .get("square")
        .cloned()
        .ok_or_else(|| ServerError::BadRequest("missing query parameter 'square'".into()))?;
    let v = blocking(move || lock(&board.session).moves_from(l, t, &square)).await?;
    Ok(Json(v).into_response())
}

/// Changes the analysis board's position: the engine is stopped first (its analysis was of the
/// old position) and the watchers get the new state.
async fn change(
    st: AppState,
    id: String,
    f: impl FnOnce(&mut Session) -> Result<(), ServerError> + Send + 'static,
) -> Result<Response, ServerError> {
    let board = st.analyses().get(parse_board_id(&id)?)?;
    let v = blocking(move || {
        f(&mut lock(&board.session))?;
        board.stop();
        *lock(&board.info) = Info::default();
        board.publish();
        Ok(board.state())
    })
    .await?;
    Ok(Json(v).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveReq {
    #[serde(rename = "move")]
    mv: String,
}

async fn play(
    State(st): State<AppState>,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<MoveReq>,
) -> Result<Response, ServerError> {
    if req.mv.len() > 100 {
        return Err(ServerError::BadRequest("a move is at most 100 characters".into()));
    }
    change(st, id, move |s| s.play(&req.mv)).await
}

async fn undo(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    change(st, id, |s| {
        if s.game.position().action_moves().next().is_none() && s.game.actions().is_empty() {
            return Err(ServerError::Conflict("nothing to undo".into()));
        }
        s.undo()
    })
    .await
}

async fn take_back(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    let floor = st.analyses().get(parse_board_id(&id)?)?.base_actions;
    change(st, id, move |s| Ok(s.take_back(floor)?)).await
}

async fn submit(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    change(st, id, Session::submit).await
}

async fn start(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    let engines = st.engines().to_vec();
    engine_switch(st, id, move |b| b.start(&engines)).await
}

async fn stop(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    engine_switch(st, id, |b| {
        b.stop();
        Ok(())
    })
    .await
}

/// Starts or stops a board's engine; answers with its `engine` object.
async fn engine_switch(
    st: AppState,
    id: String,
    f: impl FnOnce(&Arc<Board>) -> Result<(), ServerError> + Send + 'static,
) -> Result<Response, ServerError> {
    let board = st.analyses().get(parse_board_id(&id)?)?;
    let v = blocking(move || {
        f(&board)?;
        let v = lock(&board.info).json();
        Ok(v)
    })
    .await?;
    Ok(Json(v).into_response())
}

async fn export(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    let board = st.analyses().get(parse_board_id(&id)?)?;
    let text = blocking(move || board.export()).await?;
    Ok(([(axum::http::header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn ws(
    State(st): State<AppState>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ServerError> {
    let board = st.analyses().get(parse_board_id(&id)?)?;
    let upgrade =
        upgrade.map_err(|e| ServerError::BadRequest(format!("not a WebSocket request: {}", e.body_text())))?;
    Ok(upgrade.on_upgrade(move |socket| watch(st, board, socket)))
}

/// Sends `{engine: ...}` after every report (at most one message per 100 ms); when the page
/// goes away the board is closed and forgotten.
async fn watch(st: AppState, board: Arc<Board>, mut socket: WebSocket) {
    let mut rx = board.tx.subscribe();
    let mut stop = st.stop_signal();
    loop {
        let msg = json!({ "engine": lock(&board.info).json() }).to_string();
        if socket.send(Message::Text(msg)).await.is_err() {
            break;
        }
        tokio::select! {
            r = rx.recv() => {
                if let Err(broadcast::error::RecvError::Closed) = r {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                while rx.try_recv().is_ok() {}
            }
            m = socket.recv() => {
                match m {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    _ => {}
                }
            }
            _ = stop.recv() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
    if let Some(b) = st.analyses().remove(board.id) {
        let _ = tokio::task::spawn_blocking(move || b.close()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read_with_their_best_line() {
        let pos = chess5d_rules::Variant::by_name("Standard")
            .expect("standard")
            .position();
        let i = parse_info(
            "info depth 2 score cp -15 nodes 900 nps 4500 time 200 hashfull 0 pv (0T1)e2(0T1)e4 submit (0T1)e7(0T1)e5",
            &pos,
        )
        .expect("an info line");
        assert_eq!((i.depth, i.score, i.nodes, i.nps), (2, Some(Score::Cp(-15)), 900, 4500));
        let texts: Vec<&str> = i.pv.iter().filter_map(|a| a["text"].as_str()).collect();
        assert_eq!(texts, ["e4", "e5"]);
        assert!(parse_info("info string hello", &pos).is_none());
        // An illegal move ends the line where it is.
        let j = parse_info("info depth 1 score mate 1 pv (0T1)e2(0T1)e5", &pos).expect("an info line");
        assert!(j.pv.is_empty());
        assert_eq!(white_view(Score::Mate(2), false), Score::Mate(-2));
    }
}
