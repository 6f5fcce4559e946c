//! Layer: HTTP. The routes of the analysis boards (see [`crate::analysis`]): create one from a
//! game or a text, play and take back moves there, start and stop its engine, export, and the
//! WebSocket its page watches.

use crate::analysis::{Board, Info};
use crate::error::ServerError;
use crate::extract::{BodyText, Client, JsonBody, JsonText};
use crate::seats::SeatToken;
use crate::session::{Player, Session};
use crate::state::{blocking, lock, AppState};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chess5d_notation::LoadedGame;
use chess5d_play::request::{Action, AnalysisReq, Query, Source, StartReq};
use chess5d_play::seats::Rights;
use chess5d_play::{Play, PlayError};
use serde_json::json;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// The routes of analysis boards (merged into the server's router).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/analysis", post(create))
        .route("/api/analysis/{id}", get(view).delete(delete))
        .route("/api/analysis/{id}/moves", get(moves))
        .route("/api/analysis/{id}/takeback", post(take_back))
        // move, undo, submit: the service reads the name (`Action::read_on_board`).
        .route("/api/analysis/{id}/{action}", post(act))
        .route("/api/analysis/{id}/start", post(start))
        .route("/api/analysis/{id}/stop", post(stop))
        .route("/api/analysis/{id}/pgn", get(export))
        .route("/api/analysis/{id}/ws", get(ws))
}

/// Game `id` after its first `at` actions (all if `None`), and the whole game's 5DPGN.
/// Refused while the game is an online game between two people (fair play: see
/// [`played_online`]).
pub fn game_until(st: &AppState, id: i64, at: Option<usize>) -> Result<(LoadedGame, String), ServerError> {
    let slot = st.slot(id)?;
    let s = lock(&slot.session);
    if played_online(&s) {
        return Err(chess5d_play::PlayError::AnalysisWhilePlaying.into());
    }
    Ok((s.play.until(id, at)?, s.pgn()))
}

/// Whether a game is an online game between two people still going on: both sides human, each
/// held by its own seat (no seat holds both: not one person's game at one board). Nobody gets
/// the engine on it then, neither its players nor spectators.
pub fn played_online(s: &crate::session::Session) -> bool {
    !s.is_over()
        && s.players.iter().all(|p| !p.is_engine())
        && s.seats.iter().any(|seat| seat.sides != [false, false])
        && !s.seats.iter().any(|seat| seat.sides == [true, true])
}

fn parse_board_id(s: &str) -> Result<u64, ServerError> {
    s.parse()
        .map_err(|_| ServerError::from(chess5d_play::PlayError::NoAnalysisBoard { id: format!("'{s}'") }))
}

/// Board `id` for the request's token (the header's, else the `token` query parameter, which
/// a browser's WebSocket and download links can carry).
fn board(st: &AppState, id: &str, token: &SeatToken, query: Option<&Query>) -> Result<Arc<Board>, ServerError> {
    let id = parse_board_id(id)?;
    let t = token.get().or_else(|| query.and_then(Query::token));
    st.analyses().get(id, t)
}

async fn create(
    State(st): State<AppState>,
    Client(client): Client,
    JsonBody(req): JsonBody<AnalysisReq>,
) -> Result<Response, ServerError> {
    let limits = st.limits().clone();
    crate::limits::check_import_text(req.import.as_deref(), &limits)?;
    let reading = match req.import {
        Some(_) => Some(limits.start_import(st.quotas(), &st.inner.buckets, client).await?),
        None => None,
    };
    // A board made from a game reads the game as a `GET` does: under the reading budget (the
    // answer is charged once made), at the priority of costly work (below).
    limits.may_read(&st.inner.buckets, client)?;
    let charge = st.clone();
    let token = crate::seats::new_token()?;
    // An import is read at a lower priority (costly work a client asks for).
    let v = crate::sync::background("import", move || {
        let _reading = reading;
        let (loaded, game_pgn, from_game) = match req.source()? {
            Source::Import(loaded) => {
                let pgn = chess5d_notation::write_5dpgn(&loaded);
                (*loaded, pgn, None)
            }
            Source::Game(id, at) => {
                let (loaded, pgn) = game_until(&st, id, at)?;
                (loaded, pgn, Some(id))
            }
        };
        let base_actions = loaded.game().actions().len();
        // An imported text's variations count too (they were read, and its export keeps them).
        crate::limits::check_import_actions(base_actions.max(loaded.tree().len() - 1), &limits)?;
        let human = || Player::Human { name: None };
        let session = Session::wrap(Play::new(loaded, [human(), human()], None, None, crate::db::now()));
        let analyses = st.analyses();
        let quota = &st.quotas().analysis_boards;
        let take = || {
            quota.take(
                client,
                limits.analysis_boards_per_client,
                limits.analysis_boards,
                "analysis-boards",
            )
        };
        // A client at its own limit gives up its oldest board (the page that made it has moved
        // on); the server's limit is everyone's, and nobody else's board is ended for it.
        let permit = match take() {
            Ok(p) => p,
            Err(e) => {
                let oldest = lock(&analyses.boards)
                    .values()
                    .find(|b| b.client == client)
                    .map(|b| b.id);
                match oldest.and_then(|id| analyses.remove(id)) {
                    Some(old) => {
                        old.close();
                        old.publish();
                        drop(old);
                        take()?
                    }
                    // Others' boards unused for a while give way to a client holding fewer.
                    None if analyses.give_way(client, quota, Duration::from_secs(limits.analysis_turn_secs)) => take()?,
                    None => return Err(e),
                }
            }
        };
        let id = analyses.next.fetch_add(1, Ordering::SeqCst) + 1;
        let board = Arc::new(Board {
            id,
            token,
            client,
            _permit: permit,
            scratch: chess5d_play::listing::Scratch {
                from_game,
                base_actions,
                game_pgn,
            },
            session: Mutex::new(session),
            info: Mutex::new(Info::default()),
            engine: Arc::new(Mutex::new(None)),
            worker: Mutex::new(None),
            prover: Mutex::new(None),
            tx: broadcast::channel(64).0,
            touched: Mutex::new(std::time::Instant::now()),
        });
        lock(&analyses.boards).insert(id, board.clone());
        Ok(board.state().to_string())
    })
    .await?;
    charge.limits().charge_read(&charge.inner.buckets, client, v.len());
    let v = JsonText(v);
    Ok((StatusCode::CREATED, v).into_response())
}

async fn view(
    State(st): State<AppState>,
    Client(client): Client,
    Path(id): Path<String>,
    token: SeatToken,
    RawQuery(q): RawQuery,
) -> Result<Response, ServerError> {
    let board = board(&st, &id, &token, None)?;
    let at = Query::parse(q.as_deref().unwrap_or("")).at()?;
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.may_read(buckets, client)?;
    let v = blocking(move || {
        let mut v = board.state_at(at);
        v["engine"] = lock(&board.info).json();
        Ok(v.to_string())
    })
    .await?;
    limits.charge_read(buckets, client, v.len());
    Ok(JsonText(v).into_response())
}

async fn delete(State(st): State<AppState>, Path(id): Path<String>, token: SeatToken) -> Result<Response, ServerError> {
    let id = board(&st, &id, &token, None)?.id;
    let board = st
        .analyses()
        .remove(id)
        .ok_or_else(|| ServerError::from(chess5d_play::PlayError::NoAnalysisBoard { id: id.to_string() }))?;
    blocking(move || {
        board.close();
        board.publish();
        Ok(())
    })
    .await?;
    Ok(Json(json!({ "deleted": id })).into_response())
}

async fn moves(
    State(st): State<AppState>,
    Path(id): Path<String>,
    token: SeatToken,
    RawQuery(q): RawQuery,
) -> Result<Response, ServerError> {
    let board = board(&st, &id, &token, None)?;
    let q = Query::parse(q.as_deref().unwrap_or(""));
    let v = blocking(move || Ok::<_, ServerError>(lock(&board.session).play.moves_asked(&q)?)).await?;
    Ok(Json(v).into_response())
}

/// Changes the analysis board's position: the engine is stopped first (its analysis was of the
/// old position) and the watchers get the new state.
async fn change(
    st: AppState,
    id: String,
    token: SeatToken,
    f: impl FnOnce(&mut Session) -> Result<(), ServerError> + Send + 'static,
) -> Result<Response, ServerError> {
    let board = board(&st, &id, &token, None)?;
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

/// Plays, takes back or submits on the board (read by the game service from the body; one
/// person plays both sides there).
/// `POST /api/analysis/:id/:action`: a move, undo or submit on the board, read by the service.
async fn act(
    State(st): State<AppState>,
    Path((id, what)): Path<(String, String)>,
    token: SeatToken,
    BodyText(body): BodyText,
) -> Result<Response, ServerError> {
    let action = Action::read_on_board(&what, &body).unwrap_or_else(|| {
        Err(PlayError::NoRequest {
            method: "POST".into(),
            path: format!("/api/analysis/{id}/{what}"),
        })
    })?;
    change(st, id, token, move |s| {
        let _ = s.play.act(Rights::ALL, 0, action)?;
        Ok(())
    })
    .await
}

async fn take_back(
    State(st): State<AppState>,
    Path(id): Path<String>,
    token: SeatToken,
) -> Result<Response, ServerError> {
    let floor = board(&st, &id, &token, None)?.scratch.base_actions;
    change(st, id, token, move |s| Ok(s.take_back(floor)?)).await
}

/// Starts the engine, and the solver beside it when a place among the puzzle proofs is free for
/// this client (`proofs-per-client`, `proofs`; none free: no proven mate is looked for, and
/// nothing is said).
async fn start(
    State(st): State<AppState>,
    Client(client): Client,
    Path(id): Path<String>,
    token: SeatToken,
    JsonBody(req): JsonBody<StartReq>,
) -> Result<Response, ServerError> {
    let multipv = req.multipv()?;
    let engines = st.engines().to_vec();
    let limits = st.limits().clone();
    let (budget, nodes) = (limits.engine_budget(), limits.analysis_nodes);
    let quotas = st.clone();
    engine_switch(st, id, token, move |b| {
        b.start(&engines, multipv, budget, nodes)?;
        let proofs = &quotas.quotas().proofs;
        if let Ok(permit) = proofs.take(client, limits.proofs_per_client, limits.proofs, "proofs") {
            b.prove(permit, limits.proof_budget);
        }
        Ok(())
    })
    .await
}

async fn stop(State(st): State<AppState>, Path(id): Path<String>, token: SeatToken) -> Result<Response, ServerError> {
    engine_switch(st, id, token, |b| {
        b.stop();
        Ok(())
    })
    .await
}

/// Starts or stops a board's engine; answers with its `engine` object.
async fn engine_switch(
    st: AppState,
    id: String,
    token: SeatToken,
    f: impl FnOnce(&Arc<Board>) -> Result<(), ServerError> + Send + 'static,
) -> Result<Response, ServerError> {
    let board = board(&st, &id, &token, None)?;
    let v = blocking(move || {
        f(&board)?;
        let v = lock(&board.info).json();
        Ok(v)
    })
    .await?;
    Ok(Json(v).into_response())
}

async fn export(
    State(st): State<AppState>,
    Path(id): Path<String>,
    token: SeatToken,
    RawQuery(q): RawQuery,
) -> Result<Response, ServerError> {
    let q = Query::parse(q.as_deref().unwrap_or(""));
    let board = board(&st, &id, &token, Some(&q))?;
    let text = blocking(move || board.export()).await?;
    Ok(([(axum::http::header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn ws(
    State(st): State<AppState>,
    Path(id): Path<String>,
    token: SeatToken,
    Client(client): Client,
    RawQuery(q): RawQuery,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ServerError> {
    let q = Query::parse(q.as_deref().unwrap_or(""));
    let board = board(&st, &id, &token, Some(&q))?;
    let upgrade =
        upgrade.map_err(|e| ServerError::BadRequest(format!("not a WebSocket request: {}", e.body_text())))?;
    let (upgrade, permit) = crate::extract::socket_limits(&st, client, upgrade)?;
    Ok(upgrade.on_upgrade(move |socket| async move {
        watch(st, board, socket).await;
        drop(permit);
    }))
}

/// Sends `{engine: ...}` after every report (at most one message per 100 ms); when the page
/// goes away the board is closed and forgotten.
async fn watch(st: AppState, board: Arc<Board>, mut socket: WebSocket) {
    let mut rx = board.tx.subscribe();
    let mut stop = st.stop_signal();
    let mut heart = crate::extract::Heartbeat::new(&st);
    loop {
        let msg = json!({ "engine": lock(&board.info).json() }).to_string();
        if !crate::api::send_within(&st, &mut socket, Message::Text(msg.into())).await {
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
            alive = heart.beat() => {
                if !alive || !crate::api::send_within(&st, &mut socket, Message::Ping(Default::default())).await {
                    break;
                }
            }
            m = socket.recv() => {
                heart.seen();
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
