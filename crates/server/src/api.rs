//! The HTTP routes and the WebSocket: each handler checks the request, calls the game's session
//! and answers.

use crate::clocks::{self, Clock};
use crate::engine;
use crate::puzzles::{Puzzle, PUZZLES};
use crate::session::{color_name, Player, PuzzleRun, Session};
use crate::state::{blocking, lock, parse_id, AppState, Slot};
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
use chess5d_engine::Bot;
use chess5d_notation::LoadedGame;
use chess5d_rules::{Color, Variant, VARIANTS};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
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
struct JsonBody<T>(T);

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

/// The router of the whole server.
pub fn router(state: AppState) -> Router {
    clocks::spawn_ticker(state.clone());
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
    let statuses: HashMap<String, String> = blocking(move || st.inner.db.puzzle_statuses())
        .await?
        .into_iter()
        .collect();
    let list: Vec<Value> = PUZZLES
        .iter()
        .map(|p| {
            let loaded = p.load().ok();
            json!({
                "id": p.id, "name": p.name,
                "mate_in": loaded.as_ref().map(|l| p.mate_in(l)),
                "to_move": loaded.as_ref().map(|l| color_name(l.game.to_move())),
                "status": statuses.get(p.id).cloned().unwrap_or_else(|| "unsolved".into()),
            })
        })
        .collect();
    Ok(Json(json!({ "puzzles": list })).into_response())
}

async fn start_puzzle(State(st): State<AppState>, Path(pid): Path<String>) -> ApiResult {
    let puzzle = Puzzle::by_id(&pid).ok_or_else(|| ServerError::NotFound(format!("no puzzle '{pid}'")))?;
    let engines = st.inner.config.engines.clone();
    let view = blocking(move || {
        let loaded = puzzle.load().map_err(ServerError::Internal)?;
        let solver = loaded.game.to_move();
        let run = PuzzleRun {
            id: puzzle.id.to_string(),
            name: puzzle.name.to_string(),
            setup_actions: loaded.game.actions().len(),
            mate_in: puzzle.mate_in(&loaded),
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
        session
            .headers
            .push(("Event".into(), format!("Puzzle: {}", puzzle.name)));
        let slot = st.insert(session)?;
        let v = lock(&slot.session).view(None);
        Ok(v)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}
