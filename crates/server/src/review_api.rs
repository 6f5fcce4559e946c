//! Layer: HTTP. The routes of a game's computer review (see [`crate::review`]): start one, watch
//! its progress and read its result, cancel it.

use crate::error::ServerError;
use crate::extract::{Client, JsonBody};
use crate::review::Start;
use crate::seats::SeatToken;
use crate::state::{blocking, lock, parse_id, AppState};
use axum::extract::{Path, State};
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
    Router::new().route("/api/games/:id/review", get(view).post(start).delete(cancel))
}

/// `GET /api/games/:id/review`: the review's state (status `none` if it has none).
async fn view(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let v = blocking(move || {
        st.slot(id)?;
        match st.reviews().view(id) {
            Some(v) => Ok(v),
            None => Ok(st.db().review(id)?.unwrap_or_else(|| ReviewRun::none_json(id))),
        }
    })
    .await?;
    Ok(Json(v).into_response())
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
        let permit = match take() {
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
            kept: usize::try_from(limits.reviews_kept).unwrap_or(usize::MAX),
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
