//! The HTTP routes, the WebSocket, the engine driver and the clock ticker.

use crate::db::{self, Db};
use crate::engine::{self, Runner};
use crate::puzzles::{Puzzle, PUZZLES};
use crate::session::{color_name, Clock, Player, PuzzleRun, Session};
use crate::{Config, ServerError};
use axum::async_trait;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chess5d_engine::{Bot, Limits};
use chess5d_notation::LoadedGame;
use chess5d_rules::{Color, Variant, VARIANTS};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::broadcast;

/// Largest request body accepted.
pub const BODY_LIMIT: usize = 256 * 1024;

const INDEX_HTML: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const STYLE_CSS: &str = include_str!("../static/style.css");
const FAVICON_SVG: &str = include_str!("../static/favicon.svg");

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let status = match &self {
            ServerError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServerError::NotFound(_) => StatusCode::NOT_FOUND,
            ServerError::Conflict(_) => StatusCode::CONFLICT,
            ServerError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ServerError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (status, Json(json!({ "error": self.to_string() }))).into_response()
    }
}

/// A JSON body, with every rejection turned into a JSON error.
pub(crate) struct JsonBody<T>(pub(crate) T);

#[async_trait]
impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ServerError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ServerError::TooLarge(format!("request body larger than {BODY_LIMIT} bytes"))
            } else {
                ServerError::BadRequest(format!("cannot read the request body: {}", e.body_text()))
            }
        })?;
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(bytes)
            .map(JsonBody)
            .map_err(|e| ServerError::BadRequest(format!("invalid JSON body: {e}")))
    }
}

type ApiResult = Result<Response, ServerError>;

/// One game's live state.
#[derive(Debug)]
struct Slot {
    session: Mutex<Session>,
    engines: Mutex<[Option<Runner>; 2]>,
    tx: broadcast::Sender<()>,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Debug)]
struct Inner {
    config: Config,
    db: Db,
    sessions: Mutex<HashMap<i64, Arc<Slot>>>,
    stopping: AtomicBool,
    stop_tx: broadcast::Sender<()>,
    analyses: crate::analysis::Analyses,
}

/// The server's shared state: configuration, database and the games in memory.
#[derive(Clone, Debug)]
pub struct AppState {
    inner: Arc<Inner>,
}

impl AppState {
    /// Opens the database and prepares the state.
    pub fn open(config: Config) -> Result<AppState, ServerError> {
        let db = Db::open(&config.db)?;
        let (stop_tx, _) = broadcast::channel(1);
        Ok(AppState {
            inner: Arc::new(Inner {
                config,
                db,
                sessions: Mutex::new(HashMap::new()),
                stopping: AtomicBool::new(false),
                stop_tx,
                analyses: Default::default(),
            }),
        })
    }

    /// Tells engines and WebSockets to stop (called when a stop signal arrives).
    pub fn begin_stop(&self) {
        self.inner.stopping.store(true, Ordering::SeqCst);
        let _ = self.inner.stop_tx.send(());
    }

    /// Stops engines, closes WebSockets and the database.
    pub fn shutdown(&self) {
        self.begin_stop();
        let slots: Vec<Arc<Slot>> = lock(&self.inner.sessions).drain().map(|(_, s)| s).collect();
        for slot in slots {
            if let Ok(mut e) = slot.engines.try_lock() {
                for r in e.iter_mut() {
                    if let Some(Runner::Process(p)) = r.take() {
                        p.quit(Duration::from_millis(300));
                    }
                }
            }
        }
        self.inner.analyses.shutdown();
        self.inner.db.close();
    }

    // For the analysis and puzzle-maker modules.

    pub(crate) fn analyses(&self) -> &crate::analysis::Analyses {
        &self.inner.analyses
    }

    pub(crate) fn engines(&self) -> &[crate::EngineConfig] {
        &self.inner.config.engines
    }

    pub(crate) fn db(&self) -> &Db {
        &self.inner.db
    }

    pub(crate) fn stop_signal(&self) -> broadcast::Receiver<()> {
        self.inner.stop_tx.subscribe()
    }

    /// A copy of a game's rules state (submitted actions only) and its 5DPGN.
    pub(crate) fn game_snapshot(&self, id: i64) -> Result<(chess5d_rules::Game, String), ServerError> {
        let slot = self.slot(id)?;
        let s = lock(&slot.session);
        let mut game = s.game.clone();
        while game.undo_move().is_some() {}
        Ok((game, s.pgn()))
    }

    fn stopping(&self) -> bool {
        self.inner.stopping.load(Ordering::SeqCst)
    }

    /// The game's slot, loading it from the database if needed.
    fn slot(&self, id: i64) -> Result<Arc<Slot>, ServerError> {
        if let Some(s) = lock(&self.inner.sessions).get(&id) {
            return Ok(s.clone());
        }
        let row = self
            .inner
            .db
            .get(id)?
            .ok_or_else(|| ServerError::NotFound(format!("no game with id {id}")))?;
        let session = Session::from_row(&row)?;
        let mut map = lock(&self.inner.sessions);
        let slot = map
            .entry(id)
            .or_insert_with(|| {
                Arc::new(Slot {
                    session: Mutex::new(session),
                    engines: Mutex::new([None, None]),
                    tx: broadcast::channel(16).0,
                })
            })
            .clone();
        drop(map);
        self.kick_engine(&slot);
        Ok(slot)
    }

    fn insert(&self, mut session: Session) -> Result<Arc<Slot>, ServerError> {
        let id = self.inner.db.insert(&session.row())?;
        session.id = id;
        let slot = Arc::new(Slot {
            session: Mutex::new(session),
            engines: Mutex::new([None, None]),
            tx: broadcast::channel(16).0,
        });
        lock(&self.inner.sessions).insert(id, slot.clone());
        self.kick_engine(&slot);
        Ok(slot)
    }

    fn persist(&self, s: &Session) -> Result<(), ServerError> {
        self.inner.db.update(&s.row())?;
        if let Some(p) = &s.puzzle {
            if p.status != "playing" {
                self.inner.db.set_puzzle_status(&p.id, &p.status, &db::now())?;
            }
        }
        Ok(())
    }

    /// Applies a change to a game, stores it, tells the watchers and wakes the engine.
    fn mutate(&self, id: i64, f: impl FnOnce(&mut Session) -> Result<(), ServerError>) -> Result<Value, ServerError> {
        let slot = self.slot(id)?;
        let view = {
            let mut s = lock(&slot.session);
            f(&mut s)?;
            self.persist(&s)?;
            s.view(None)
        };
        let _ = slot.tx.send(());
        self.kick_engine(&slot);
        Ok(view)
    }

    /// Starts the engine driver if an engine is to move and none is thinking.
    fn kick_engine(&self, slot: &Arc<Slot>) {
        {
            let mut s = lock(&slot.session);
            if !s.engine_to_move() || s.engine_busy || s.engine_error.is_some() || self.stopping() {
                return;
            }
            s.engine_busy = true;
        }
        let _ = slot.tx.send(());
        let state = self.clone();
        let slot = slot.clone();
        tokio::task::spawn_blocking(move || state.engine_loop(&slot));
    }

    /// Plays engine actions while an engine is to move.
    fn engine_loop(&self, slot: &Arc<Slot>) {
        loop {
            let (game, version, ci, player, limits, timeout, both) = {
                let mut s = lock(&slot.session);
                if !s.engine_to_move() || self.stopping() {
                    s.engine_busy = false;
                    drop(s);
                    let _ = slot.tx.send(());
                    return;
                }
                let ci = s.to_move().index();
                let player = s.players[ci].clone();
                let movetime = match &player {
                    Player::Engine { movetime_ms, .. } => movetime_ms.unwrap_or(1000),
                    _ => 1000,
                };
                let (limits, timeout) = match &s.clock {
                    Some(c) => {
                        let tm = s.to_move();
                        let ms = |col| Some(Duration::from_millis(c.now_ms(col, tm).max(1) as u64));
                        let inc = Some(Duration::from_millis(c.increment_ms));
                        (
                            Limits {
                                wtime: ms(Color::White),
                                btime: ms(Color::Black),
                                winc: inc,
                                binc: inc,
                                ..Limits::default()
                            },
                            Duration::from_millis(c.now_ms(tm, tm).max(0) as u64) + Duration::from_secs(5),
                        )
                    }
                    None => (
                        Limits::movetime(Duration::from_millis(movetime)),
                        Duration::from_millis(movetime) + Duration::from_secs(10),
                    ),
                };
                let both = s.players.iter().all(Player::is_engine);
                (s.game.clone(), s.version, ci, player, limits, timeout, both)
            };
            let started = std::time::Instant::now();
            let answer = {
                let mut engines = lock(&slot.engines);
                if engines[ci].is_none() {
                    match Runner::start(&self.inner.config.engines, &player) {
                        Ok(r) => engines[ci] = Some(r),
                        Err(e) => {
                            drop(engines);
                            self.engine_failed(slot, e);
                            return;
                        }
                    }
                }
                match engines[ci].as_mut() {
                    Some(r) => r.think(&game, &limits, timeout),
                    None => Err(ServerError::Internal("engine not started".into())),
                }
            };
            if both {
                // Let people watching an engine game follow it.
                let pause = Duration::from_millis(300).saturating_sub(started.elapsed());
                std::thread::sleep(pause);
            }
            match answer {
                Ok((moves, info)) => {
                    let mut s = lock(&slot.session);
                    if s.version != version || s.deleted {
                        continue;
                    }
                    s.engine_info = Some(info);
                    if let Err(e) = s.engine_action(&moves) {
                        drop(s);
                        lock(&slot.engines)[ci] = None;
                        self.engine_failed(slot, e);
                        return;
                    }
                    if s.game.actions().len() >= 1000 {
                        s.finish("1/2-1/2", "action limit");
                    }
                    if let Err(e) = self.persist(&s) {
                        s.engine_error = Some(e.to_string());
                    }
                    drop(s);
                    let _ = slot.tx.send(());
                }
                Err(e) => {
                    lock(&slot.engines)[ci] = None;
                    self.engine_failed(slot, e);
                    return;
                }
            }
        }
    }

    /// After an engine failure: forgets the failed engine of the side to move (a new process is
    /// started) and asks again.
    fn retry_engine(&self, id: i64) -> Result<Value, ServerError> {
        let slot = self.slot(id)?;
        let ci = {
            let mut s = lock(&slot.session);
            if s.is_over() {
                return Err(ServerError::Conflict("the game is over".into()));
            }
            if !s.engine_to_move() {
                return Err(ServerError::Conflict("it is not an engine's turn".into()));
            }
            if s.engine_busy {
                return Err(ServerError::Conflict("the engine is already thinking".into()));
            }
            if s.engine_error.is_none() {
                return Err(ServerError::Conflict("the engine has had no problem to retry".into()));
            }
            s.engine_error = None;
            s.version += 1;
            s.to_move().index()
        };
        let old = lock(&slot.engines)[ci].take();
        if let Some(Runner::Process(p)) = old {
            p.quit(Duration::from_millis(300));
        }
        let _ = slot.tx.send(());
        self.kick_engine(&slot);
        let v = lock(&slot.session).view(None);
        Ok(v)
    }

    fn engine_failed(&self, slot: &Slot, e: ServerError) {
        let mut s = lock(&slot.session);
        s.engine_busy = false;
        let side = if s.to_move() == Color::White { "White" } else { "Black" };
        s.engine_error = Some(format!("{side}'s engine failed: {e}"));
        s.version += 1;
        drop(s);
        let _ = slot.tx.send(());
    }

    /// Ends games whose side to move has run out of time.
    fn tick_clocks(&self) {
        let slots: Vec<Arc<Slot>> = lock(&self.inner.sessions).values().cloned().collect();
        for slot in slots {
            let mut s = lock(&slot.session);
            if s.clock.is_some() && s.check_time() {
                let _ = self.persist(&s);
                drop(s);
                let _ = slot.tx.send(());
            }
        }
    }
}

pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ServerError> + Send + 'static,
) -> Result<T, ServerError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ServerError::Internal(format!("internal error: {e}")))?
}

fn parse_id(s: &str) -> Result<i64, ServerError> {
    s.parse::<i64>()
        .ok()
        .filter(|&i| i > 0)
        .ok_or_else(|| ServerError::NotFound(format!("no game with id '{s}'")))
}

/// The router of the whole server.
pub fn router(state: AppState) -> Router {
    let ticker = state.clone();
    tokio::spawn(async move {
        let mut iv = tokio::time::interval(Duration::from_millis(200));
        loop {
            iv.tick().await;
            if ticker.stopping() {
                break;
            }
            let t = ticker.clone();
            let _ = tokio::task::spawn_blocking(move || t.tick_clocks()).await;
        }
    });
    Router::new()
        .route(
            "/",
            get(|| async { static_file("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { static_file("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { static_file("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route(
            "/favicon.svg",
            get(|| async { static_file("image/svg+xml", FAVICON_SVG) }),
        )
        .route(
            "/favicon.ico",
            get(|| async { static_file("image/svg+xml", FAVICON_SVG) }),
        )
        .route("/api/info", get(info))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/:id", get(get_game).delete(delete_game))
        .route("/api/games/:id/moves", get(game_moves))
        .route("/api/games/:id/move", post(play_move))
        .route("/api/games/:id/undo", post(undo))
        .route("/api/games/:id/submit", post(submit))
        .route("/api/games/:id/resign", post(resign))
        .route("/api/games/:id/retry-engine", post(retry_engine))
        .route("/api/games/:id/pgn", get(pgn))
        .route("/api/games/:id/ws", get(ws))
        .route("/api/puzzles", get(list_puzzles))
        .route("/api/puzzles/:id", post(start_puzzle))
        .merge(crate::analysis::routes())
        .merge(crate::puzzle_maker::routes())
        .fallback(|| async { ServerError::NotFound("no such page or API endpoint".into()) })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

fn static_file(ctype: &'static str, body: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, ctype), (header::CACHE_CONTROL, "no-cache")],
        body,
    )
        .into_response()
}

async fn info(State(st): State<AppState>) -> Json<Value> {
    Json(json!({
        "engines": st.inner.config.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        "bots": Bot::ALL.iter().map(|b| b.name()).collect::<Vec<_>>(),
        "variants": VARIANTS.iter().map(|v| json!({"name": v.name, "size": format!("{}x{}", v.width, v.height), "even": v.even})).collect::<Vec<_>>(),
    }))
}

async fn list_games(State(st): State<AppState>) -> ApiResult {
    let rows = blocking(move || st.inner.db.list()).await?;
    Ok(Json(json!({ "games": rows.iter().map(Session::summary).collect::<Vec<_>>() })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockReq {
    initial_ms: u64,
    #[serde(default)]
    increment_ms: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    import: Option<String>,
    #[serde(default)]
    white: Option<Player>,
    #[serde(default)]
    black: Option<Player>,
    #[serde(default)]
    clock: Option<ClockReq>,
}

fn check_player(config: &Config, p: Option<Player>) -> Result<Player, ServerError> {
    let p = p.unwrap_or(Player::Human { name: None });
    match p {
        Player::Human { name } => {
            if name.as_ref().is_some_and(|n| n.chars().count() > 60) {
                return Err(ServerError::BadRequest("player names are at most 60 characters".into()));
            }
            Ok(Player::Human { name })
        }
        Player::Engine {
            engine: name,
            bot,
            movetime_ms,
        } => {
            let cfg = engine::find(&config.engines, name.as_deref())?;
            if let Some(b) = &bot {
                if Bot::from_name(b).is_none() {
                    return Err(ServerError::BadRequest(format!(
                        "unknown bot '{b}'; use random, greedy or alphabeta"
                    )));
                }
            }
            if let Some(ms) = movetime_ms {
                if !(10..=60_000).contains(&ms) {
                    return Err(ServerError::BadRequest(
                        "movetime_ms must be between 10 and 60000".into(),
                    ));
                }
            }
            Ok(Player::Engine {
                engine: Some(cfg.name.clone()),
                bot: Some(bot.unwrap_or_else(|| "alphabeta".into()).to_ascii_lowercase()),
                movetime_ms: Some(movetime_ms.unwrap_or(1000)),
            })
        }
    }
}

async fn create_game(State(st): State<AppState>, JsonBody(req): JsonBody<CreateReq>) -> ApiResult {
    let white = check_player(&st.inner.config, req.white)?;
    let black = check_player(&st.inner.config, req.black)?;
    let clock = match req.clock {
        Some(c) if !(1_000..=86_400_000).contains(&c.initial_ms) || c.increment_ms > 3_600_000 => {
            return Err(ServerError::BadRequest(
                "clock: initial_ms must be between 1000 and 86400000, increment_ms at most 3600000".into(),
            ))
        }
        Some(c) => Some(Clock::new(c.initial_ms, c.increment_ms)),
        None => None,
    };
    let st2 = st.clone();
    let view = blocking(move || {
        let loaded: LoadedGame = match (req.import, req.variant) {
            (Some(_), Some(_)) => {
                return Err(ServerError::BadRequest(
                    "give either 'variant' or 'import', not both".into(),
                ))
            }
            (Some(text), None) => {
                if text.trim().is_empty() {
                    return Err(ServerError::BadRequest("nothing to import: the text is empty".into()));
                }
                chess5d_notation::load(&text).map_err(|e| ServerError::BadRequest(format!("cannot import: {e}")))?
            }
            (None, v) => {
                let name = v.unwrap_or_else(|| "Standard".into());
                let variant = Variant::by_name(&name).ok_or_else(|| {
                    ServerError::BadRequest(format!(
                        "unknown variant '{name}'; known variants: {}",
                        VARIANTS.iter().map(|v| v.name).collect::<Vec<_>>().join(", ")
                    ))
                })?;
                LoadedGame::new(chess5d_notation::Format::Pgn, variant.position())
            }
        };
        let result = loaded.result.clone().filter(|r| r != "*");
        let mut session = Session::new(loaded, [white, black], clock, None);
        if let Some(r) = result {
            session.finish(&r, "imported result");
        }
        let slot = st2.insert(session)?;
        let v = lock(&slot.session).view(None);
        Ok(v)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

type Q = Result<Query<HashMap<String, String>>, QueryRejection>;

fn query(q: Q) -> Result<HashMap<String, String>, ServerError> {
    q.map(|Query(q)| q)
        .map_err(|e| ServerError::BadRequest(format!("bad query string: {}", e.body_text())))
}

async fn get_game(State(st): State<AppState>, Path(id): Path<String>, q: Q) -> ApiResult {
    let id = parse_id(&id)?;
    let q = query(q)?;
    let at = match q.get("at") {
        Some(a) => Some(
            a.parse::<usize>()
                .map_err(|_| ServerError::BadRequest(format!("'at' must be an action count, got '{a}'")))?,
        ),
        None => None,
    };
    let view = blocking(move || {
        let slot = st.slot(id)?;
        let v = lock(&slot.session).view(at);
        Ok(v)
    })
    .await?;
    Ok(Json(view).into_response())
}

async fn delete_game(State(st): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let id = parse_id(&id)?;
    blocking(move || {
        let slot = lock(&st.inner.sessions).remove(&id);
        if let Some(slot) = slot {
            lock(&slot.session).deleted = true;
            let _ = slot.tx.send(());
        }
        if !st.inner.db.delete(id)? {
            return Err(ServerError::NotFound(format!("no game with id {id}")));
        }
        Ok(())
    })
    .await?;
    Ok(Json(json!({ "deleted": id })).into_response())
}

async fn game_moves(State(st): State<AppState>, Path(id): Path<String>, q: Q) -> ApiResult {
    let id = parse_id(&id)?;
    let q = query(q)?;
    let num = |k: &str| -> Result<i32, ServerError> {
        let v = q
            .get(k)
            .ok_or_else(|| ServerError::BadRequest(format!("missing query parameter '{k}'")))?;
        v.parse()
            .map_err(|_| ServerError::BadRequest(format!("query parameter '{k}' must be an integer, got '{v}'")))
    };
    let (l, t) = (num("l")?, num("t")?);
    let square = q
        .get("square")
        .cloned()
        .ok_or_else(|| ServerError::BadRequest("missing query parameter 'square'".into()))?;
    let v = blocking(move || {
        let slot = st.slot(id)?;
        let s = lock(&slot.session);
        s.moves_from(l, t, &square)
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

async fn play_move(State(st): State<AppState>, Path(id): Path<String>, JsonBody(req): JsonBody<MoveReq>) -> ApiResult {
    let id = parse_id(&id)?;
    if req.mv.len() > 100 {
        return Err(ServerError::BadRequest("a move is at most 100 characters".into()));
    }
    let v = blocking(move || st.mutate(id, |s| s.play(&req.mv))).await?;
    Ok(Json(v).into_response())
}

async fn undo(State(st): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let id = parse_id(&id)?;
    let v = blocking(move || st.mutate(id, Session::undo)).await?;
    Ok(Json(v).into_response())
}

async fn submit(State(st): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let id = parse_id(&id)?;
    let v = blocking(move || st.mutate(id, Session::submit)).await?;
    Ok(Json(v).into_response())
}

async fn retry_engine(State(st): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let id = parse_id(&id)?;
    let v = blocking(move || st.retry_engine(id)).await?;
    Ok(Json(v).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResignReq {
    #[serde(default)]
    color: Option<String>,
}

async fn resign(State(st): State<AppState>, Path(id): Path<String>, JsonBody(req): JsonBody<ResignReq>) -> ApiResult {
    let id = parse_id(&id)?;
    let color = match req.color.as_deref() {
        None => None,
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        Some(c) => {
            return Err(ServerError::BadRequest(format!(
                "color must be 'white' or 'black', got '{c}'"
            )))
        }
    };
    let v = blocking(move || st.mutate(id, |s| s.resign(color))).await?;
    Ok(Json(v).into_response())
}

async fn pgn(State(st): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let id = parse_id(&id)?;
    let text = blocking(move || {
        let slot = st.slot(id)?;
        let t = lock(&slot.session).pgn();
        Ok(t)
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"chess5d-game-{id}.5dpgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

async fn ws(
    State(st): State<AppState>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    let id = parse_id(&id)?;
    let st2 = st.clone();
    let slot = blocking(move || st2.slot(id)).await?;
    let upgrade =
        upgrade.map_err(|e| ServerError::BadRequest(format!("not a WebSocket request: {}", e.body_text())))?;
    Ok(upgrade.on_upgrade(move |socket| watch(st, slot, socket)))
}

async fn watch(st: AppState, slot: Arc<Slot>, mut socket: WebSocket) {
    let mut rx = slot.tx.subscribe();
    let mut stop = st.inner.stop_tx.subscribe();
    let mut last = 0;
    loop {
        let (deleted, view) = {
            let s = lock(&slot.session);
            if s.deleted {
                (Some(s.id), None)
            } else if s.version == last {
                (None, None)
            } else {
                last = s.version;
                (None, Some(s.view(None)))
            }
        };
        if let Some(id) = deleted {
            let _ = socket.send(Message::Text(json!({ "deleted": id }).to_string())).await;
            return;
        }
        if let Some(v) = view {
            if socket.send(Message::Text(v.to_string())).await.is_err() {
                return;
            }
        }
        tokio::select! {
            r = rx.recv() => {
                if let Err(broadcast::error::RecvError::Closed) = r {
                    return;
                }
            }
            m = socket.recv() => {
                match m {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    _ => {}
                }
            }
            _ = stop.recv() => {
                let _ = socket.send(Message::Close(None)).await;
                return;
            }
        }
    }
}

async fn list_puzzles(State(st): State<AppState>) -> ApiResult {
    let (statuses, made) =
        blocking(move || Ok((st.inner.db.puzzle_statuses()?, crate::puzzle_maker::list(&st)?))).await?;
    let statuses: HashMap<String, String> = statuses.into_iter().collect();
    let status = |id: &str| statuses.get(id).cloned().unwrap_or_else(|| "unsolved".into());
    let made = crate::puzzle_maker::list_json(made, status);
    let mut list: Vec<Value> = PUZZLES
        .iter()
        .map(|p| {
            let loaded = p.load().ok();
            json!({
                "id": p.id, "name": p.name,
                "mate_in": loaded.as_ref().map(|l| p.mate_in(l)),
                "to_move": loaded.as_ref().map(|l| color_name(l.game.to_move())),
                "status": status(p.id),
            })
        })
        .collect();
    list.extend(made);
    Ok(Json(json!({ "puzzles": list })).into_response())
}

async fn start_puzzle(State(st): State<AppState>, Path(pid): Path<String>) -> ApiResult {
    let engines = st.inner.config.engines.clone();
    let view = blocking(move || {
        // A built-in puzzle or one made by a player (puzzle_maker): id, name and record.
        let (id, name, text) = match Puzzle::by_id(&pid) {
            Some(p) => (p.id.to_string(), p.name.to_string(), p.text.to_string()),
            None => crate::puzzle_maker::find(&st, &pid)?
                .map(|p| (p.id, p.name, p.text))
                .ok_or_else(|| ServerError::NotFound(format!("no puzzle '{pid}'")))?,
        };
        let loaded = chess5d_notation::load(&text).map_err(|e| ServerError::Internal(format!("puzzle {id}: {e}")))?;
        let loaded = Puzzle::posed(loaded);
        let solver = loaded.game.to_move();
        let run = PuzzleRun {
            id,
            name: name.clone(),
            setup_actions: loaded.game.actions().len(),
            mate_in: Puzzle::mate_in_of(&loaded),
            solver: color_name(solver).to_string(),
            status: "playing".into(),
        };
        let engine = Player::Engine {
            engine: Some(engine::find(&engines, None)?.name.clone()),
            bot: Some("alphabeta".into()),
            movetime_ms: Some(500),
        };
        let human = Player::Human { name: None };
        let players = if solver == Color::White {
            [human, engine]
        } else {
            [engine, human]
        };
        let mut session = Session::new(loaded, players, None, Some(run));
        session.headers.push(("Event".into(), format!("Puzzle: {name}")));
        let slot = st.insert(session)?;
        let v = lock(&slot.session).view(None);
        Ok(v)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}
