//! Layer: HTTP. The routes of a game's computer review (see [`crate::review`]): start one, watch
//! its progress and read its result, cancel it.

use crate::error::ServerError;
use crate::extract::{Client, JsonBody, JsonText};
use crate::review::Start;
use crate::seats::SeatToken;
use crate::state::{blocking, lock, parse_id, AppState};
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chess5d_play::request::Empty;
use chess5d_play::review::ReviewRun;
use serde_json::json;
use std::time::Duration;

/// The routes of reviews (merged into the server's router, under the rate limit of
/// state-changing requests).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/review", get(view).post(start).delete(cancel))
        .route("/api/games/{id}/mistakes", get(mistakes))
}

/// The route that makes a puzzle of a reviewed mistake (merged under the rate limit of
/// creating games).
pub fn creating() -> Router<AppState> {
    Router::new().route("/api/games/{id}/mistakes/{n}", axum::routing::post(start_mistake))
}

/// A game's review as kept (running, ended in memory, or stored), if it has one.
fn review_of(st: &AppState, id: i64) -> Result<Option<serde_json::Value>, ServerError> {
    let text = match st.reviews().view(id) {
        Some(t) => Some(t.to_string()),
        None => st.db().review(id)?,
    };
    text.map(|t| {
        serde_json::from_str(&t)
            .map_err(|e| ServerError::Internal(format!("the stored review of game {id} is damaged: {e}")))
    })
    .transpose()
}

/// `GET /api/games/:id/mistakes`: the puzzles its review offers (chess5d_play::mistakes::list),
/// for whoever may review the game.
async fn mistakes(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    seat: SeatToken,
) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.may_read(buckets, client)?;
    let st2 = st.clone();
    let v = blocking(move || {
        let slot = st2.slot(id)?;
        let review = review_of(&st2, id)?;
        let s = lock(&slot.session);
        s.play.check_review(s.rights(seat.get(), st2.inner.config.public))?;
        Ok(chess5d_play::mistakes::list(&s.play, id, review.as_ref()))
    })
    .await?;
    let text = v.to_string();
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.charge_read(buckets, client, text.len());
    Ok(JsonText(text).into_response())
}

/// `POST /api/games/:id/mistakes/:n` (body `{}`): a new game, the puzzle of the mistake at
/// action `n` (chess5d_play::mistakes::puzzle_game), its creator holding both seats; the
/// engine judges the answer with the review's node budget (`review-nodes`).
async fn start_mistake(
    State(st): State<AppState>,
    Path((id, n)): Path<(String, String)>,
    seat: SeatToken,
    _: JsonBody<Empty>,
) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let v = blocking(move || {
        let slot = st.slot(id)?;
        let review = review_of(&st, id)?;
        let play = {
            let s = lock(&slot.session);
            s.play.check_review(s.rights(seat.get(), st.inner.config.public))?;
            chess5d_play::mistakes::puzzle_game(
                &s.play,
                id,
                review.as_ref(),
                &n,
                st.limits().review_nodes,
                crate::db::now(),
            )?
        };
        st.start_made(play)
    })
    .await?;
    Ok((StatusCode::CREATED, JsonText(v)).into_response())
}

/// Whether a submit on game `id` now is judged by a search (a mistake's puzzle, its solver to
/// move: [`chess5d_play::Play::judges_submit`]).
pub(crate) async fn judged(st: &AppState, id: i64) -> Result<bool, ServerError> {
    let st = st.clone();
    blocking(move || Ok(lock(&st.slot(id)?.session).play.judges_submit())).await
}

/// A place in the quota of reviews for judging an answer (a search of the review's budget), on
/// the same fair shares as reviews: a client holding none waits its turn as a review's start
/// does; one holding some takes another within its share, else is refused (429).
pub(crate) async fn judging_permit(
    st: &AppState,
    client: crate::limits::ClientKey,
) -> Result<crate::limits::Permit, ServerError> {
    let l = st.limits();
    let reviews = &st.quotas().reviews;
    if reviews.held_by(client) == 0 {
        let wait = crate::limits::review_wait(l);
        reviews
            .take_waiting(client, l.reviews_per_client, l.reviews, "reviews", wait)
            .await
    } else {
        reviews.take(client, l.reviews_per_client, l.reviews, "reviews")
    }
}

/// `GET /api/games/:id/review`: the review's state (status `none` if it has none), under the
/// client's budget of bytes read (`state-bytes-per-sec`) and, being costly for a long game,
/// made at the priority of costly work. `?from=N`: only the actions from the N-th on (in
/// `actions` and `review.actions`), for a page that has the first N already.
async fn view(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    RawQuery(q): RawQuery,
) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let from = chess5d_play::request::Query::parse(q.as_deref().unwrap_or("")).from_action()?;
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.may_read(buckets, client)?;
    // The game is found (or read back) at the requests' priority: that takes the games' map,
    // which a thread of low priority must not hold while it waits for a core.
    let st2 = st.clone();
    crate::sync::blocking(move || st2.slot(id).map(drop)).await?;
    let st2 = st.clone();
    let text = crate::sync::background("review", move || {
        let text: String = match st2.reviews().view(id) {
            Some(t) => t.to_string(),
            None => st2
                .db()
                .review(id)?
                .unwrap_or_else(|| ReviewRun::none_json(id).to_string()),
        };
        let Some(from) = from else { return Ok(text) };
        let mut v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| ServerError::Internal(format!("the stored review of game {id} is damaged: {e}")))?;
        drop(text);
        let from_on = |a: &mut serde_json::Value| {
            if let Some(list) = a.as_array_mut() {
                list.drain(..from.min(list.len()));
            }
        };
        from_on(&mut v["actions"]);
        if v["review"].is_object() {
            from_on(&mut v["review"]["actions"]);
        }
        v["from"] = json!(from);
        Ok(v.to_string())
    })
    .await?;
    let (limits, buckets) = (&st.inner.config.limits, &st.inner.buckets);
    limits.charge_read(buckets, client, text.len());
    Ok(JsonText(text).into_response())
}

/// `POST /api/games/:id/review` (body `{}`): starts a review of the game's submitted actions
/// (202 with its first state). A review of the game under way by the same client is replaced;
/// one by another client is answered as it stands.
async fn start(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    seat: SeatToken,
    _: JsonBody<Empty>,
) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    // A client that holds no review place waits for one while all are taken (the review that
    // has run longest gives its place up after `review-turn-secs`).
    let waited = if st.quotas().reviews.held_by(client) == 0 {
        let l = st.limits();
        Some(
            st.quotas()
                .reviews
                .take_waiting(
                    client,
                    l.reviews_per_client,
                    l.reviews,
                    "reviews",
                    crate::limits::review_wait(l),
                )
                .await?,
        )
    } else {
        None
    };
    let v = blocking(move || {
        let slot = st.slot(id)?;
        let (game, result) = {
            let s = lock(&slot.session);
            let rights = s.rights(seat.get(), st.inner.config.public);
            s.play.check_review(rights)?;
            (s.play.game.clone(), s.play.result.clone().filter(|r| r != "*"))
        };
        let reviews = st.reviews();
        let key = client;
        if let Some(v) = reviews.running_by_other(id, key) {
            return Ok(v);
        }
        reviews.cancel(id, "replaced by a newer review");
        let limits = st.limits();
        let take = || {
            st.quotas()
                .reviews
                .take(client, limits.reviews_per_client, limits.reviews, "reviews")
        };
        let permit = match waited.map_or_else(take, Ok) {
            Ok(p) => p,
            Err(e) => {
                if !reviews.cancel_oldest_of(key) {
                    return Err(e);
                }
                take()?
            }
        };
        let start = Start {
            game_id: id,
            game,
            result,
            client: key,
            nodes: limits.review_nodes,
            budget: limits.engine_budget(),
            idle: Duration::from_secs(limits.review_idle_secs),
            turn: (
                st.quotas().reviews.clone(),
                Duration::from_secs(limits.review_turn_secs),
            ),
            kept: usize::try_from(limits.reviews_kept).unwrap_or(usize::MAX),
            kept_bytes: usize::try_from(limits.reviews_kept_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
            save: {
                let st = st.clone();
                Box::new(move |v| {
                    // Not kept (the server stopping, a full disk): shown while in memory only.
                    st.db().save_review(id, v).unwrap_or_else(|e| {
                        tracing::warn!("the review of game {id} was not kept: {e}");
                        true
                    })
                })
            },
        };
        reviews.start(start, permit)
    })
    .await?;
    Ok((StatusCode::ACCEPTED, Json(v)).into_response())
}

/// `DELETE /api/games/:id/review`: stops the review under way (it keeps the actions reviewed
/// so far, status `cancelled`); 409 when none runs, 403 for a client that did not start it.
async fn cancel(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    seat: SeatToken,
) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let v = blocking(move || {
        let slot = st.slot(id)?;
        {
            let s = lock(&slot.session);
            let rights = s.rights(seat.get(), st.inner.config.public);
            s.play.check_review(rights)?;
        }
        if !st.reviews().cancel_for(id, client)? {
            return Err(chess5d_play::PlayError::NoReviewRunning { game: id }.into());
        }
        Ok(json!({ "cancelled": id }))
    })
    .await?;
    Ok(Json(v).into_response())
}
