//! Layer: HTTP (with its storage). Rematches (issue 47): after a game between two people, each
//! seat may offer a rematch; once both have, a new game starts with the colours swapped, the
//! same variant (or start position), clock and rated flag, and the same accounts (swapped).
//!
//! - `POST /api/games/:id/rematch` (a seat's token): offers, or accepts the other's offer. The
//!   answer is the state below, with `seat: {side, token}` of the new game once it exists: the
//!   same token each time the same seat asks (derived from its token of the finished game), so
//!   that asking again neither adds seats nor leaves a lost answer without a way back.
//! - `GET /api/games/:id/rematch`: `{offered: {white, black}, game: id|null}`.
//! - `DELETE /api/games/:id/rematch` (a seat's token): withdraws an offer or declines one.
//!
//! The offers and the new game are kept in the table `rematches` (one row per finished game),
//! written in one transaction with the new game's accounts: a restart loses nothing.

use crate::error::ServerError;
use crate::rated::{self, GameAccounts};
use crate::seats::SeatToken;
use crate::session::{color_name, Session};
use crate::state::{blocking, lock, parse_id, AppState};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chess5d_play::request::{ClockReq, CreateReq};
use chess5d_rules::Color;
use rusqlite::{params, OptionalExtension};
use serde_json::{json, Value};

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{id}/rematch", get(state).post(offer).delete(decline))
}

/// The offers of game `id` (white, black) and the rematch game, if made.
fn offers(st: &AppState, id: i64) -> Result<([bool; 2], Option<i64>), ServerError> {
    let row = st.db().with(move |c| {
        c.query_row("SELECT white, black, next FROM rematches WHERE game = ?1", [id], |r| {
            Ok((
                [r.get::<_, bool>(0)?, r.get::<_, bool>(1)?],
                r.get::<_, Option<i64>>(2)?,
            ))
        })
        .optional()
    })?;
    Ok(row.unwrap_or(([false, false], None)))
}

fn state_json(offered: [bool; 2], next: Option<i64>) -> Value {
    json!({ "offered": { "white": offered[0], "black": offered[1] }, "game": next })
}

/// The one side the caller's seat plays in game `id`, which must be over and between two
/// people.
fn caller_side(st: &AppState, id: i64, token: Option<&str>) -> Result<Color, ServerError> {
    let slot = st.slot(id)?;
    let s = lock(&slot.session);
    if s.players.iter().any(|p| p.is_engine()) {
        return Err(ServerError::BadRequest(format!(
            "game {id} is against an engine: start a new game instead of a rematch"
        )));
    }
    let rights = s.rights(token, st.inner.config.public);
    let side = match rights.sides {
        [true, false] => Color::White,
        [false, true] => Color::Black,
        [true, true] => {
            return Err(ServerError::BadRequest(format!(
                "you hold both sides of game {id}: a rematch is between two players"
            )))
        }
        [false, false] => {
            return Err(ServerError::Forbidden(format!(
                "only the players of game {id} may offer or accept a rematch"
            )))
        }
    };
    if !s.is_over() {
        return Err(ServerError::Conflict(format!(
            "game {id} is still being played: a rematch can be offered once it ends"
        )));
    }
    Ok(side)
}

/// The caller's seat of `side` in game `game`: the same token however often it is asked for,
/// derived from the caller's token of the finished game (`old`, a secret only its holder
/// knows) and the new game's id. The seat is stored the first time; asking again adds
/// nothing (a seat per seat of the finished game, not one per request).
fn seat_in(st: &AppState, game: i64, side: Color, old: &str) -> Result<Value, ServerError> {
    let mut sides = [false, false];
    sides[side.index()] = true;
    let token = rematch_token(old, game);
    let hash = crate::seats::hash_token(&token);
    let slot = st.slot(game)?;
    let mut s = lock(&slot.session);
    if !s.seats.iter().any(|seat| seat.hash == hash) {
        let mut all = s.seats.clone();
        all.push(crate::db::Seat {
            hash,
            sides,
            owner: false,
            invite: false,
            used_invite: None,
        });
        st.db().set_seats(game, &all)?;
        s.seats = all;
    }
    Ok(json!({ "side": color_name(side), "sides": [color_name(side)], "token": token, "owner": false }))
}

/// The token of the rematch seat of the holder of `old`: 128 bits of SHA-256 over a label,
/// the old token and the new game's id, as 32 hex digits like every token.
pub(crate) fn rematch_token(old: &str, game: i64) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(format!("chess5d rematch seat\n{old}\n{game}").as_bytes());
    d[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// Makes the rematch of game `id`: colours swapped, same start, clock, rated flag and
/// accounts; its two seats are given later, one per caller (`seat_in`). Recorded in
/// `rematches` in the same transaction as the accounts of the new game.
fn make(st: &AppState, id: i64) -> Result<i64, ServerError> {
    let slot = st.slot(id)?;
    let req = {
        let s = lock(&slot.session);
        let [w, b] = s.players.clone();
        let (variant, import) = if s.play.variant == "custom" {
            (None, Some(s.play.start_text.clone()))
        } else {
            (Some(s.play.variant.clone()), None)
        };
        let clock = s.play.clock.as_ref().map(ClockReq::of);
        CreateReq {
            variant,
            import,
            white: Some(b),
            black: Some(w),
            clock,
            ..CreateReq::default()
        }
    };
    let new = req.check(&crate::engine::names(&st.inner.config.engines), crate::db::now())?;
    let mut session = Session::wrap(new.play);
    // Two people online: each clock starts with its side's first action.
    session.play.free_first_moves();
    let slot = st.insert(session)?;
    let next = lock(&slot.session).id;
    let old = st.db().with(move |c| {
        c.query_row(
            "SELECT white, black, rated, category FROM game_accounts WHERE game = ?1",
            [id],
            |r| {
                Ok(GameAccounts {
                    white: r.get(0)?,
                    black: r.get(1)?,
                    rated: r.get(2)?,
                    category: r.get(3)?,
                })
            },
        )
        .optional()
    })?;
    st.db().write(move |c| {
        if let Some(a) = old {
            let swapped = GameAccounts {
                white: a.black,
                black: a.white,
                ..a
            };
            rated::set_accounts(c, next, &swapped)?;
        }
        c.execute("UPDATE rematches SET next = ?2 WHERE game = ?1", params![id, next])?;
        Ok(())
    })?;
    Ok(next)
}

/// `GET /api/games/:id/rematch`.
async fn state(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let v = blocking(move || {
        st.slot(id)?;
        let (offered, next) = offers(&st, id)?;
        Ok(state_json(offered, next))
    })
    .await?;
    Ok(Json(v).into_response())
}

/// `POST /api/games/:id/rematch`.
async fn offer(State(st): State<AppState>, Path(id): Path<String>, token: SeatToken) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let v = blocking(move || {
        let side = caller_side(&st, id, token.get())?;
        // One at a time: two acceptances at once make one game.
        let _one = lock(&st.inner.lobby);
        let (mut offered, mut next) = offers(&st, id)?;
        if next.is_none() {
            offered[side.index()] = true;
            let o = offered;
            st.db().write(move |c| {
                c.execute(
                    "INSERT INTO rematches (game, white, black) VALUES (?1, ?2, ?3)
                     ON CONFLICT (game) DO UPDATE SET white = ?2, black = ?3",
                    params![id, o[0], o[1]],
                )
            })?;
            if offered == [true, true] {
                next = Some(make(&st, id)?);
            }
        }
        let mut v = state_json(offered, next);
        if let (Some(g), Some(old)) = (next, token.get()) {
            v["seat"] = seat_in(&st, g, side.other(), old)?;
        }
        Ok(v)
    })
    .await?;
    Ok(Json(v).into_response())
}

/// `DELETE /api/games/:id/rematch`: withdraws or declines (both offers cleared).
async fn decline(
    State(st): State<AppState>,
    Path(id): Path<String>,
    token: SeatToken,
) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let v = blocking(move || {
        caller_side(&st, id, token.get())?;
        let _one = lock(&st.inner.lobby);
        let (_, next) = offers(&st, id)?;
        if let Some(g) = next {
            return Err(ServerError::Conflict(format!(
                "the rematch was accepted already: game {g}"
            )));
        }
        st.db()
            .write(move |c| c.execute("DELETE FROM rematches WHERE game = ?1", [id]))?;
        Ok(state_json([false, false], None))
    })
    .await?;
    Ok(Json(v).into_response())
}
