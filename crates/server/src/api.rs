//! Layer: HTTP (the top): the routes, static files and middleware stack; below it everything else.
//!
//! The HTTP routes and the WebSocket: each handler checks the request, calls the game's session
//! and answers.

use crate::accounts::MaybeAccount;
use crate::clocks;
use crate::create::{AcceptReq, ChallengeReq};
use crate::error::ServerError;
use crate::extract::{BodyText, Client, JsonBody, JsonText, Visitor};
use crate::limits::BODY_LIMIT;
use crate::puzzles::{Puzzle, PUZZLES};
use crate::seats::SeatToken;
use crate::security::{self, Guard};
use crate::session::Session;
use crate::state::{blocking, lock, parse_id, AppState, Slot};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, RawQuery, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{middleware, Json, Router};
use bytes::Bytes;
use chess5d_play::request::{Action, CreateReq, Empty, Query};
use chess5d_play::seats::Viewer;
use chess5d_play::PlayError;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use tower_governor::GovernorLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// The page's files (`web/`, at the top of the repository), embedded: path, content type, body. The ES modules
/// of the page import one another by relative paths, so each is served at its own path. Not
/// here: `backend/local.js` and `backend/engine-worker.js`, the static site's back-end (rules in
/// WebAssembly), which the served page never loads, and `types/`, the type check's declarations.
const STATIC_FILES: &[(&str, &str, &str)] = &[
    ("/", HTML, include_str!("../../../web/index.html")),
    ("/app.js", JS, include_str!("../../../web/app.js")),
    ("/online.js", JS, include_str!("../../../web/online.js")),
    ("/people.js", JS, include_str!("../../../web/people.js")),
    ("/style.css", CSS, include_str!("../../../web/style.css")),
    ("/favicon.svg", SVG, include_str!("../../../web/favicon.svg")),
    ("/favicon.ico", SVG, include_str!("../../../web/favicon.svg")),
    ("/backend/index.js", JS, include_str!("../../../web/backend/index.js")),
    ("/backend/remote.js", JS, include_str!("../../../web/backend/remote.js")),
    ("/backend/calls.js", JS, include_str!("../../../web/backend/calls.js")),
    ("/ui/analysis.js", JS, include_str!("../../../web/ui/analysis.js")),
    ("/ui/boards.js", JS, include_str!("../../../web/ui/boards.js")),
    ("/ui/camera.js", JS, include_str!("../../../web/ui/camera.js")),
    ("/ui/dialogs.js", JS, include_str!("../../../web/ui/dialogs.js")),
    ("/ui/dom.js", JS, include_str!("../../../web/ui/dom.js")),
    ("/ui/editor.js", JS, include_str!("../../../web/ui/editor.js")),
    ("/ui/game.js", JS, include_str!("../../../web/ui/game.js")),
    ("/ui/home.js", JS, include_str!("../../../web/ui/home.js")),
    ("/ui/lobby.js", JS, include_str!("../../../web/ui/lobby.js")),
    ("/ui/multiverse.js", JS, include_str!("../../../web/ui/multiverse.js")),
    ("/ui/panel.js", JS, include_str!("../../../web/ui/panel.js")),
    ("/ui/pieces.js", JS, include_str!("../../../web/ui/pieces.js")),
    ("/ui/pointer.js", JS, include_str!("../../../web/ui/pointer.js")),
    ("/ui/review.js", JS, include_str!("../../../web/ui/review.js")),
    (
        "/ui/computer-review.js",
        JS,
        include_str!("../../../web/ui/computer-review.js"),
    ),
    ("/ui/mistakes.js", JS, include_str!("../../../web/ui/mistakes.js")),
    ("/ui/share.js", JS, include_str!("../../../web/ui/share.js")),
    ("/ui/state.js", JS, include_str!("../../../web/ui/state.js")),
    ("/ui/settings.js", JS, include_str!("../../../web/ui/settings.js")),
    ("/ui/variations.js", JS, include_str!("../../../web/ui/variations.js")),
    ("/ui/learn.js", JS, include_str!("../../../web/ui/learn.js")),
    ("/ui/hotseat.js", JS, include_str!("../../../web/ui/hotseat.js")),
    ("/ui/proven.js", JS, include_str!("../../../web/ui/proven.js")),
    ("/ui/overlays.js", JS, include_str!("../../../web/ui/overlays.js")),
    ("/ui/move-input.js", JS, include_str!("../../../web/ui/move-input.js")),
    ("/ui/keyboard.js", JS, include_str!("../../../web/ui/keyboard.js")),
    ("/pages/home.js", JS, include_str!("../../../web/pages/home.js")),
    ("/pages/game.js", JS, include_str!("../../../web/pages/game.js")),
    ("/pages/editor.js", JS, include_str!("../../../web/pages/editor.js")),
    ("/pages/view.js", JS, include_str!("../../../web/pages/view.js")),
    ("/pages/learn.js", JS, include_str!("../../../web/pages/learn.js")),
    ("/pages/player.js", JS, include_str!("../../../web/pages/player.js")),
];

type ApiResult = Result<Response, ServerError>;

/// The router of the whole server: the routes behind the guards of the `security` module
/// (rate limits as configured).
pub fn router(state: AppState) -> Router {
    clocks::spawn_ticker(state.clone());
    let config = state.inner.config.clone();
    // Creating games and challenges: a tenth of the rate of the other state-changing requests.
    let mut creating = Router::new()
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/challenges", get(list_challenges).post(create_challenge))
        .route("/api/challenges/{id}/accept", post(accept_challenge))
        .route("/api/puzzles/{id}", post(start_puzzle))
        .route("/api/lessons/{id}/{n}", post(start_exercise))
        .route("/api/user-puzzles", post(crate::puzzle_maker::create))
        .merge(crate::review_api::creating());
    let mut acting = Router::new()
        .route("/api/games/{id}", get(get_game).delete(delete_game))
        .route("/api/games/{id}/moves", get(game_moves))
        // move, undo, submit, resign, draw, abort: the service reads the name (`Action::read`).
        .route("/api/games/{id}/{action}", post(game_action))
        .route("/api/games/{id}/retry-engine", post(retry_engine))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/invite", post(new_invite))
        .route("/api/challenges/{id}", get(get_challenge).delete(cancel_challenge))
        .route("/api/my-games", post(my_games))
        // Analysis boards: under the rate limit of state-changing requests like games.
        .merge(crate::analysis_api::routes())
        // Reviews: started, watched and cancelled under the same limit.
        .merge(crate::review_api::routes())
        // Accounts (sign-up and login are throttled on their own besides).
        .merge(crate::accounts::routes())
        .merge(crate::pairing::routes())
        .merge(crate::players::routes())
        .merge(crate::rematch::routes());
    if let Some(n) = config.rate_limit {
        let period = Duration::from_micros(1_000_000 / u64::from(n));
        acting = acting.layer(GovernorLayer {
            config: security::rate_limit(&config, period, n.saturating_mul(2)),
        });
        creating = creating.layer(GovernorLayer {
            config: security::rate_limit(&config, period * 10, (n / 2).max(5)),
        });
    }
    let guard = Arc::new(Guard::new(&config));
    let mut pages = Router::new();
    for &(path, ctype, body) in STATIC_FILES {
        pages = pages.route(path, get(move || async move { static_file(ctype, body) }));
    }
    pages
        .route("/api/info", get(info))
        .route("/api/games/{id}/pgn", get(pgn))
        .route("/api/games/{id}/ws", get(ws))
        .route("/api/puzzles", get(list_puzzles))
        .route("/api/lessons", get(list_lessons))
        .merge(crate::puzzle_maker::routes())
        .merge(creating)
        .merge(acting)
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(guard, security::guard))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            config.request_timeout,
        ))
        .layer(middleware::from_fn_with_state(
            config.request_timeout,
            security::json_errors,
        ))
        .layer(middleware::from_fn(security::security_headers))
        .layer(
            // One line per request: method, path (never the query or headers: no tokens), status
            // and time.
            TraceLayer::new_for_http()
                .make_span_with(
                    |req: &Request| tracing::info_span!("request", method = %req.method(), path = %req.uri().path()),
                )
                .on_request(())
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO))
                .on_failure(()),
        )
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
    let c = &st.inner.config;
    let mut v = chess5d_play::listing::Info::new(c.engines.iter().map(|e| e.name.clone()).collect(), c.public).json();
    v["memory"] = json!({
            "games": st.games_in_memory(),
            "games_bytes": st.games_memory_bytes(),
            "analysis_boards": st.analysis_boards(),
            "engine_players": st.engine_players(),
            "reviews_bytes": st.reviews_kept_bytes(),
    });
    Json(v)
}

async fn list_games(State(st): State<AppState>) -> ApiResult {
    let rows = blocking(move || st.inner.db.list()).await?;
    Ok(Json(json!({ "games": rows.iter().map(Session::summary).collect::<Vec<_>>() })).into_response())
}

async fn create_game(
    State(st): State<AppState>,
    Client(client): Client,
    MaybeAccount(account): MaybeAccount,
    JsonBody(req): JsonBody<CreateReq>,
) -> ApiResult {
    // The import is read off the async threads (an import at a lower priority, as costly work
    // a client asks for); if the request times out meanwhile, the flag tells it to make nothing.
    let cancel = crate::limits::Cancel::default();
    let flag = cancel.flag();
    // Stored and opened at the requests' priority: that takes the games' map and the pools.
    let v = if req.import.is_some() {
        let limits = st.limits();
        crate::limits::check_import_text(req.import.as_deref(), limits)?;
        // The import's place (`imports`), held while it is read.
        let reading = limits.start_import(st.quotas(), &st.inner.buckets, client).await?;
        let reader = st.clone();
        let new = crate::sync::background("import", move || reader.check_created(req)).await;
        drop(reading);
        let new = new?;
        blocking(move || st.create_game(new, client, &flag, account)).await?
    } else {
        // A start without an import is cheap to read: read and stored in one hop.
        blocking(move || st.create_game(st.check_created(req)?, client, &flag, account)).await?
    };
    drop(cancel);
    Ok((StatusCode::CREATED, JsonText(v)).into_response())
}

/// `GET /api/games/:id`, under the client's budget of bytes read (`state-bytes-per-sec`).
async fn get_game(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    seat: SeatToken,
    RawQuery(q): RawQuery,
) -> ApiResult {
    let id = parse_id(&id)?;
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.may_read(buckets, client)?;
    let st2 = st.clone();
    let shown = Query::parse(q.as_deref().unwrap_or("")).shown()?;
    let view = blocking(move || {
        let slot = st2.slot(id)?;
        let s = lock(&slot.session);
        s.play.check_shown(shown, id)?;
        let v = s.view_text(s.viewer(seat.get(), st2.inner.config.public), shown);
        Ok(v)
    })
    .await?;
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.charge_read(buckets, client, view.len());
    Ok(JsonText(view).into_response())
}

async fn delete_game(State(st): State<AppState>, Path(id): Path<String>, seat: SeatToken) -> ApiResult {
    let id = parse_id(&id)?;
    blocking(move || st.delete_game(id, &seat)).await?;
    Ok(Json(json!({ "deleted": id })).into_response())
}

async fn game_moves(State(st): State<AppState>, Path(id): Path<String>, RawQuery(q): RawQuery) -> ApiResult {
    let id = parse_id(&id)?;
    let q = Query::parse(q.as_deref().unwrap_or(""));
    let v = blocking(move || {
        let slot = st.slot(id)?;
        let s = lock(&slot.session);
        Ok::<_, ServerError>(s.play.moves_asked(&q)?)
    })
    .await?;
    Ok(Json(v).into_response())
}

/// Acts on a game (`what`: move, undo, submit, resign, draw, abort, read by the game service
/// from the body); answers with the requester's view.
/// `POST /api/games/:id/:action`: an action of a player (`move`, `undo`, `submit`, `resign`,
/// `draw`, `abort`), read by the service.
async fn game_action(
    State(st): State<AppState>,
    Path((id, what)): Path<(String, String)>,
    Client(client): Client,
    seat: SeatToken,
    BodyText(body): BodyText,
) -> ApiResult {
    let id = parse_id(&id)?;
    let action = Action::read(&what, &body).unwrap_or_else(|| {
        Err(PlayError::NoRequest {
            method: "POST".into(),
            path: format!("/api/games/{id}/{what}"),
        })
    })?;
    // Judging a mistake's puzzle answer is a search: costly work, under the quota of reviews.
    if what == "submit" && crate::review_api::judged(&st, id).await? {
        let permit = crate::review_api::judging_permit(&st, client).await?;
        let v = crate::sync::background("judge", move || {
            let _held = permit;
            st.act(id, &seat, action)
        })
        .await?;
        return Ok(JsonText(v).into_response());
    }
    let v = blocking(move || st.act(id, &seat, action)).await?;
    Ok(JsonText(v).into_response())
}

/// Anything else. The page's own addresses typed without `#` (`/game/12`, `/editor`) lead to
/// the page there; other pages get a page saying so; the API answers JSON.
async fn not_found(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") || method != axum::http::Method::GET {
        return ServerError::NotFound("no such page or API endpoint".into()).into_response();
    }
    let page = path.trim_end_matches('/');
    let id = page
        .strip_prefix("/game/")
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric()));
    if let Some(id) = id {
        return axum::response::Redirect::to(&format!("/#/game/{id}")).into_response();
    }
    if page == "/editor" {
        return axum::response::Redirect::to("/#/editor").into_response();
    }
    let body = format!(
        "<!doctype html><meta charset=utf-8><title>chess5d: no such page</title>\
         <p>There is no page {} here. <a href=\"/\">chess5d home</a></p>",
        html_escape(path)
    );
    (
        StatusCode::NOT_FOUND,
        [(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `POST /api/games/:id/join`'s body: the name of the player an invite seats (optional).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinReq {
    #[serde(default)]
    name: Option<String>,
}

async fn join(
    State(st): State<AppState>,
    Path(id): Path<String>,
    seat: SeatToken,
    MaybeAccount(account): MaybeAccount,
    JsonBody(req): JsonBody<JoinReq>,
) -> ApiResult {
    let id = parse_id(&id)?;
    let name = chess5d_play::request::check_name(req.name)?;
    let v = blocking(move || st.join(id, &seat, name, account)).await?;
    Ok(JsonText(v).into_response())
}

async fn new_invite(
    State(st): State<AppState>,
    Path(id): Path<String>,
    seat: SeatToken,
    _: JsonBody<Empty>,
) -> ApiResult {
    with_seat(st, &id, seat, AppState::new_invite).await
}

async fn retry_engine(
    State(st): State<AppState>,
    Path(id): Path<String>,
    seat: SeatToken,
    _: JsonBody<Empty>,
) -> ApiResult {
    with_seat(st, &id, seat, AppState::retry_engine).await
}

/// Answers with what `f` (a request of the game's that checks the seat token itself) gives, run
/// on a blocking thread.
async fn with_seat(
    st: AppState,
    id: &str,
    seat: SeatToken,
    f: fn(&AppState, i64, &SeatToken) -> Result<String, ServerError>,
) -> ApiResult {
    let id = parse_id(id)?;
    let v = blocking(move || f(&st, id, &seat)).await?;
    Ok(JsonText(v).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokensReq {
    tokens: Vec<String>,
}

async fn my_games(State(st): State<AppState>, JsonBody(req): JsonBody<TokensReq>) -> ApiResult {
    let v = blocking(move || st.my_games(&req.tokens)).await?;
    Ok(Json(v).into_response())
}

async fn list_challenges(
    State(st): State<AppState>,
    MaybeAccount(account): MaybeAccount,
    RawQuery(q): RawQuery,
) -> ApiResult {
    let q = Query::parse(q.as_deref().unwrap_or(""));
    let (offset, count) = st.inner.config.limits.page(&q)?;
    let bound = |key: &str| -> Result<Option<f64>, ServerError> {
        q.get(key)
            .map(|v| {
                v.parse::<f64>()
                    .ok()
                    .filter(|r| (0.0..=4000.0).contains(r))
                    .ok_or_else(|| {
                        ServerError::BadRequest(format!(
                            "{key}: a rating from 0 to 4000, got '{}'",
                            v.chars().take(20).collect::<String>()
                        ))
                    })
            })
            .transpose()
    };
    let filter = crate::db::LobbyFilter {
        viewer: account.map(|a| a.id),
        min: bound("min_rating")?,
        max: bound("max_rating")?,
    };
    Ok(Json(blocking(move || st.challenges(filter, offset, count)).await?).into_response())
}

async fn create_challenge(
    State(st): State<AppState>,
    Client(client): Client,
    MaybeAccount(account): MaybeAccount,
    JsonBody(req): JsonBody<ChallengeReq>,
) -> ApiResult {
    let v = blocking(move || st.create_challenge(req, client, account)).await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

fn challenge_id(s: &str) -> Result<i64, ServerError> {
    parse_id(s).map_err(|_| ServerError::NotFound(format!("no challenge with id '{s}'")))
}

async fn get_challenge(State(st): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let id = challenge_id(&id)?;
    Ok(Json(blocking(move || st.challenge(id)).await?).into_response())
}

async fn cancel_challenge(State(st): State<AppState>, Path(id): Path<String>, seat: SeatToken) -> ApiResult {
    let id = challenge_id(&id)?;
    Ok(Json(blocking(move || st.cancel_challenge(id, &seat)).await?).into_response())
}

async fn accept_challenge(
    State(st): State<AppState>,
    Path(id): Path<String>,
    MaybeAccount(account): MaybeAccount,
    JsonBody(req): JsonBody<AcceptReq>,
) -> ApiResult {
    let id = challenge_id(&id)?;
    let v = blocking(move || st.accept_challenge(id, req, account)).await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

/// `GET /api/games/:id/pgn`, under the client's budget of bytes read (`state-bytes-per-sec`).
async fn pgn(State(st): State<AppState>, Path(id): Path<String>, Client(client): Client) -> ApiResult {
    let id = parse_id(&id)?;
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.may_read(buckets, client)?;
    let st2 = st.clone();
    let text = blocking(move || {
        let slot = st2.slot(id)?;
        let t = lock(&slot.session).pgn();
        Ok(t)
    })
    .await?;
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.charge_read(buckets, client, text.len());
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
    Client(client): Client,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    let id = parse_id(&id)?;
    // The state sent when the socket opens is read as by `GET`: under the reading budget.
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.may_read(buckets, client)?;
    let st2 = st.clone();
    let slot = blocking(move || st2.slot(id)).await?;
    let upgrade =
        upgrade.map_err(|e| ServerError::BadRequest(format!("not a WebSocket request: {}", e.body_text())))?;
    let (upgrade, permit) = crate::extract::socket_limits(&st, client, upgrade)?;
    Ok(upgrade.on_upgrade(move |socket| async move {
        watch(st, slot, socket, client).await;
        drop(permit);
    }))
}

/// Sends `m` on `socket` unless the client does not read it within `socket-send-secs` (its
/// queue stays full): whether it went.
pub(crate) async fn send_within(st: &AppState, socket: &mut WebSocket, m: Message) -> bool {
    let bound = Duration::from_secs(st.inner.config.limits.socket_send_secs);
    matches!(tokio::time::timeout(bound, socket.send(m)).await, Ok(Ok(())))
}

/// A game's view as a WebSocket message: the cached bytes themselves ([`Slot::view_for_watcher`]),
/// so that every watcher of a version holds the one allocation, not a copy per socket. The view
/// is JSON we wrote, so UTF-8; were it not, it would go as a lossy copy rather than panic.
pub(crate) fn view_message(view: Bytes) -> Message {
    match Utf8Bytes::try_from(view.clone()) {
        Ok(text) => Message::Text(text),
        Err(_) => Message::Text(String::from_utf8_lossy(&view).into_owned().into()),
    }
}

/// A message from the page over the WebSocket: `{"seat": TOKEN}` marks its seat as connected.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Hello {
    seat: String,
}

/// Sends the game state now and after every change; a seat holder that says hello is shown as
/// connected until the socket closes.
async fn watch(st: AppState, slot: Arc<Slot>, mut socket: WebSocket, client: crate::limits::ClientKey) {
    let mut first = true;
    let mut rx = slot.tx.subscribe();
    let mut stop = st.inner.stop_tx.subscribe();
    let mut last = (0, 0);
    let mut seated = [false, false];
    // A spectator until the page says which seat it holds: the side to move's tries reach only
    // its seat, so a try sends nothing to anyone else.
    let mut viewer = Viewer::Spectator;
    let public = st.inner.config.public;
    let mut heart = crate::extract::Heartbeat::new(&st);
    loop {
        let (deleted, view) = {
            let s = lock(&slot.session);
            if s.deleted {
                (Some(s.id), None)
            } else if (s.version_for(viewer), s.presence) == last {
                (None, None)
            } else {
                last = (s.version_for(viewer), s.presence);
                (None, Some(slot.view_for_watcher(&s, viewer)))
            }
        };
        if let Some(id) = deleted {
            let _ = send_within(
                &st,
                &mut socket,
                Message::Text(json!({ "deleted": id }).to_string().into()),
            )
            .await;
            break;
        }
        if let Some(v) = view {
            if first {
                first = false;
                let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
                limits.charge_read(buckets, client, v.len());
            }
            // A watcher that does not read what it is sent is cut (its queue passed the bound).
            if !send_within(&st, &mut socket, view_message(v)).await {
                break;
            }
        }
        tokio::select! {
            r = rx.recv() => {
                if let Err(broadcast::error::RecvError::Closed) = r {
                    break;
                }
            }
            alive = heart.beat() => {
                if !alive || !send_within(&st, &mut socket, Message::Ping(Bytes::new())).await {
                    break;
                }
            }
            m = socket.recv() => {
                heart.seen();
                match m {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(Message::Text(t))) => {
                        if let Ok(h) = serde_json::from_str::<Hello>(&t) {
                            let mut s = lock(&slot.session);
                            let r = s.rights(Some(&h.seat), public);
                            if r.viewer() != viewer {
                                viewer = r.viewer();
                                last = (0, 0);
                            }
                            for (i, seat) in seated.iter_mut().enumerate() {
                                if r.sides[i] && !*seat && !s.players[i].is_engine() {
                                    *seat = true;
                                    s.online[i] += 1;
                                    s.presence += 1;
                                }
                            }
                            drop(s);
                            let _ = slot.tx.send(());
                        }
                    }
                    _ => {}
                }
            }
            _ = stop.recv() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
    if seated.iter().any(|&b| b) {
        let mut s = lock(&slot.session);
        for (i, seat) in seated.iter().enumerate() {
            if *seat {
                s.online[i] = s.online[i].saturating_sub(1);
            }
        }
        s.presence += 1;
        drop(s);
        let _ = slot.tx.send(());
    }
}

/// `GET /api/puzzles?offset=&limit=`: a page of the puzzles (the built-in ones, then those made
/// by players, oldest first), each with the visitor's status.
async fn list_puzzles(State(st): State<AppState>, visitor: Visitor, RawQuery(q): RawQuery) -> ApiResult {
    let (offset, count) = st.inner.config.limits.page(&Query::parse(q.as_deref().unwrap_or("")))?;
    let (fresh, hash) = (visitor.fresh(), visitor.hash());
    let (statuses, made, total_made) = blocking(move || {
        if fresh {
            st.inner.db.claim_legacy_progress(&hash)?;
        }
        let built_in = PUZZLES.len();
        let skip = offset.saturating_sub(built_in);
        let take = count.saturating_sub(built_in.saturating_sub(offset));
        let (made, total) = crate::puzzle_maker::page(&st, skip, take)?;
        Ok((st.inner.db.puzzle_statuses(&hash)?, made, total))
    })
    .await?;
    let statuses: HashMap<String, String> = statuses.into_iter().collect();
    let status = |id: &str| statuses.get(id).cloned().unwrap_or_else(|| "unsolved".into());
    let made = crate::puzzle_maker::list_json(made, status);
    let mut list: Vec<Value> = PUZZLES
        .iter()
        .skip(offset)
        .take(count)
        .map(|p| {
            chess5d_play::listing::PuzzleEntry::built_in(p.id, p.name, p.load().ok().as_ref(), status(p.id)).json()
        })
        .collect();
    list.extend(made);
    let page = crate::limits::page_json("puzzles", list, PUZZLES.len() + total_made, offset);
    Ok(visitor.set_on(Json(page).into_response()))
}

/// `POST /api/puzzles/:id`: a puzzle game for this visitor (its end is the visitor's progress);
/// its defending engine counts in the client's engines (`engines-per-client`) until it ends.
async fn start_puzzle(
    State(st): State<AppState>,
    Path(pid): Path<String>,
    Client(client): Client,
    visitor: Visitor,
    _: JsonBody<Empty>,
) -> ApiResult {
    let hash = visitor.hash();
    let v = blocking(move || {
        // A built-in puzzle or one made by a player (puzzle_maker): id, name and record.
        let (id, name, text) = match Puzzle::by_id(&pid) {
            Some(p) => (p.id.to_string(), p.name.to_string(), p.text.to_string()),
            None => crate::puzzle_maker::find(&st, &pid)?
                .map(|p| (p.id, p.name, p.text))
                .ok_or_else(|| ServerError::NotFound(format!("no puzzle '{pid}'")))?,
        };
        st.start_puzzle(&id, &name, &text, hash, client)
    })
    .await?;
    Ok(visitor.set_on((StatusCode::CREATED, JsonText(v)).into_response()))
}

/// `GET /api/lessons`: the course (chess5d_play::lesson), the same in both builds.
async fn list_lessons() -> ApiResult {
    Ok(Json(chess5d_play::lesson::course_json()?).into_response())
}

/// `POST /api/lessons/:id/:n`: a game of lesson `id`'s exercise `n`, judged by its goal when the
/// player submits (no engine: the exercise is one action).
async fn start_exercise(
    State(st): State<AppState>,
    Path((id, n)): Path<(String, String)>,
    _: JsonBody<Empty>,
) -> ApiResult {
    let v = blocking(move || st.start_exercise(&id, &n)).await?;
    Ok((StatusCode::CREATED, JsonText(v)).into_response())
}

#[cfg(test)]
mod static_files_tests {
    use super::STATIC_FILES;
    use std::path::Path;

    /// Every file of `web/` that the served page loads is in the table, with its type.
    #[test]
    fn every_page_file_is_served() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut files = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else {
                    files.push(p);
                }
            }
        }
        for f in files {
            let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            if rel == "backend/local.js" || rel == "backend/engine-worker.js" {
                continue; // the static site's back-end only
            }
            if rel.starts_with("types/") {
                continue; // the type check's declarations (tsconfig.json), never loaded
            }
            let path = if rel == "index.html" {
                "/".to_string()
            } else {
                format!("/{rel}")
            };
            let entry = STATIC_FILES.iter().find(|(p, _, _)| *p == path);
            let (_, ctype, body) = entry.unwrap_or_else(|| panic!("{rel} is not in STATIC_FILES"));
            let want = match rel.rsplit('.').next().unwrap() {
                "js" => "text/javascript",
                "css" => "text/css",
                "html" => "text/html",
                "svg" => "image/svg+xml",
                other => panic!("{rel}: no content type for .{other}"),
            };
            assert!(ctype.starts_with(want), "{rel}: {ctype}");
            assert_eq!(*body, std::fs::read_to_string(&f).unwrap(), "{rel}");
        }
    }
}

#[cfg(test)]
mod view_message_tests {
    use super::view_message;
    use axum::extract::ws::Message;
    use bytes::Bytes;

    /// Issue 45: a game's view is written once per change and every watcher is sent those bytes,
    /// not a copy per socket: each message's text is the cached allocation itself.
    #[test]
    fn every_watcher_is_sent_the_cached_view_itself() {
        let cached = Bytes::from(format!(
            r#"{{"id":7,"actions":[{}]}}"#,
            r#""a","#.repeat(50_000) + r#""a""#
        ));
        let sent: Vec<Message> = (0..8).map(|_| view_message(cached.clone())).collect();
        for m in &sent {
            let Message::Text(text) = m else {
                panic!("a view is sent as a text message");
            };
            assert_eq!(text.as_str().as_bytes(), &cached[..]);
            assert_eq!(
                text.as_str().as_ptr(),
                cached.as_ptr(),
                "the message's text is a copy of the cached view, not the view itself"
            );
        }
    }

    /// Bytes that are not UTF-8 (which a view never is) go as a lossy text, without a panic.
    #[test]
    fn a_view_that_is_not_utf8_is_sent_lossily() {
        let Message::Text(text) = view_message(Bytes::from_static(b"{\"a\":\"\xff\"}")) else {
            panic!("a view is sent as a text message");
        };
        assert_eq!(text.as_str(), "{\"a\":\"\u{fffd}\"}");
    }
}
