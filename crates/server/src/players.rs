//! Layer: HTTP (reading the accounts' tables). Players' pages and what a game says of its
//! players' ratings (issue 47):
//! - `GET /api/players/:name`: `{name, ratings: {CATEGORY: {rating, rd, volatility, games,
//!   provisional}}, history: {CATEGORY: [{at, rating, game}]}, games: [...], ongoing: [...]}`;
//! - `GET /api/games/:id/rating`: `{rated, category, white: {name, rating, change}, black: ...}`
//!   (the change once the game is rated);
//! - `POST /api/games/:id/seat`: a logged-in player's seat in a game of theirs, for another
//!   device (a fresh token for the account's side).

use crate::accounts::Account;
use crate::create::issue;
use crate::error::ServerError;
use crate::session::color_name;
use crate::state::{blocking, lock, parse_id, AppState};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chess5d_rating::PROVISIONAL_RD;
use chess5d_rules::Color;
use rusqlite::{params, OptionalExtension};
use serde_json::{json, Map, Value};

/// The most games a player's page lists.
pub const PAGE_GAMES: usize = 100;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/players/{name}", get(player))
        .route("/api/games/{id}/rating", get(game_rating))
        .route("/api/games/{id}/seat", post(my_seat))
        .route("/api/my-turn", get(my_turn))
}

/// The most games `GET /api/my-turn` looks at (the account's latest unfinished ones).
pub const MY_TURN_GAMES: usize = 200;

/// `GET /api/my-turn` (logged in): the account's games under way where it is its turn, the
/// one with the least time left first: `{games: [{id, color, opponent, variant, clock, left_ms,
/// rated, category}]}` (`clock` as the game view's; `left_ms` null without a clock).
async fn my_turn(State(st): State<AppState>, account: Account) -> Result<Response, ServerError> {
    let v = blocking(move || {
        let acc = account.id;
        let rows = st.db().with(move |c| {
            let mut q = c.prepare(
                "SELECT a.game, a.white, a.black, a.rated, a.category FROM game_accounts a
                 JOIN games g ON g.id = a.game
                 WHERE (a.white = ?1 OR a.black = ?1) AND g.result IS NULL ORDER BY a.game DESC LIMIT ?2",
            )?;
            let rows = q.query_map(params![acc, MY_TURN_GAMES as i64], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, Option<i64>>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                    r.get::<_, bool>(3)?,
                    r.get::<_, Option<String>>(4)?,
                ))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        let mut games = Vec::new();
        for (id, w, b, rated, category) in rows {
            let Ok(slot) = st.slot(id) else { continue };
            let s = lock(&slot.session);
            if s.is_over() {
                continue;
            }
            let to_move = s.to_move();
            let mine = match to_move {
                Color::White => w == Some(acc),
                Color::Black => b == Some(acc),
            };
            if !mine {
                continue;
            }
            let clock = s
                .play
                .clock
                .as_ref()
                .map(|c| json!({ "initial_ms": c.initial_ms, "increment_ms": c.increment_ms, "days": c.days }));
            let left = s.play.clock.as_ref().map(|c| c.now_ms(to_move, to_move).max(0));
            games.push(json!({
                "id": id,
                "color": color_name(to_move),
                "opponent": s.players[to_move.other().index()].display(),
                "variant": s.play.variant,
                "clock": clock,
                "left_ms": left,
                "actions": s.game.actions().len(),
                "rated": rated,
                "category": category,
            }));
        }
        games.sort_by_key(|g| g["left_ms"].as_i64().unwrap_or(i64::MAX));
        Ok(json!({ "games": games }))
    })
    .await?;
    Ok(Json(v).into_response())
}

fn rating_json(rating: f64, rd: f64, volatility: f64, games: i64) -> Value {
    json!({
        "rating": (rating * 10.0).round() / 10.0,
        "rd": (rd * 10.0).round() / 10.0,
        "volatility": volatility,
        "games": games,
        "provisional": rd > PROVISIONAL_RD,
    })
}

/// `GET /api/players/:name`.
async fn player(State(st): State<AppState>, Path(name): Path<String>) -> Result<Response, ServerError> {
    if !crate::accounts::valid_name(&name) {
        return Err(ServerError::NotFound(format!(
            "no player '{}'",
            name.chars().take(20).collect::<String>()
        )));
    }
    let v = blocking(move || st.db().with(move |c| page(c, &name))).await?;
    match v {
        Some(v) => Ok(Json(v).into_response()),
        None => Err(ServerError::NotFound("no such player".into())),
    }
}

fn page(c: &rusqlite::Connection, name: &str) -> rusqlite::Result<Option<Value>> {
    let Some((id, name)) = c
        .query_row(
            "SELECT id, name FROM accounts WHERE name_key = ?1 AND deleted = 0",
            [name.to_ascii_lowercase()],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)),
        )
        .optional()?
    else {
        return Ok(None);
    };
    let mut ratings = Map::new();
    let mut q =
        c.prepare("SELECT category, rating, rd, volatility, games FROM ratings WHERE account = ?1 ORDER BY category")?;
    for r in q.query_map([id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, f64>(1)?,
            r.get::<_, f64>(2)?,
            r.get::<_, f64>(3)?,
            r.get::<_, i64>(4)?,
        ))
    })? {
        let (cat, rating, rd, vol, games) = r?;
        ratings.insert(cat, rating_json(rating, rd, vol, games));
    }
    let mut history = Map::new();
    let mut q =
        c.prepare("SELECT category, at, after, game FROM rating_changes WHERE account = ?1 ORDER BY at, game")?;
    for r in q.query_map([id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, f64>(2)?,
            r.get::<_, i64>(3)?,
        ))
    })? {
        let (cat, at, after, game) = r?;
        if let Value::Array(a) = history.entry(cat).or_insert_with(|| json!([])) {
            a.push(json!({ "at": at, "rating": (after * 10.0).round() / 10.0, "game": game }));
        }
    }
    let mut games = Vec::new();
    let mut ongoing = Vec::new();
    let mut q = c.prepare(
        "SELECT g.id, g.created, g.updated, g.variant, g.white, g.black, g.result, g.termination, g.n_actions,
                a.white, a.rated, a.category, ch.before, ch.after, g.clock
         FROM game_accounts a JOIN games g ON g.id = a.game
         LEFT JOIN rating_changes ch ON ch.game = a.game AND ch.account = ?1
         WHERE a.white = ?1 OR a.black = ?1 ORDER BY g.id DESC LIMIT ?2",
    )?;
    let rows = q.query_map(params![id, PAGE_GAMES as i64], |r| {
        let white_id: Option<i64> = r.get(9)?;
        let as_white = white_id == Some(id);
        let pname = |t: String| {
            serde_json::from_str::<chess5d_play::Player>(&t)
                .map(|p| p.display())
                .unwrap_or_else(|_| "?".into())
        };
        let (w, b) = (pname(r.get(4)?), pname(r.get(5)?));
        let result: Option<String> = r.get(6)?;
        let before: Option<f64> = r.get(12)?;
        let after: Option<f64> = r.get(13)?;
        let outcome = match (result.as_deref(), as_white) {
            (Some("1-0"), true) | (Some("0-1"), false) => "win",
            (Some("0-1"), true) | (Some("1-0"), false) => "loss",
            (Some("1/2-1/2"), _) => "draw",
            (Some(_), _) => "aborted",
            (None, _) => "playing",
        };
        Ok(json!({
            "id": r.get::<_, i64>(0)?,
            "created": r.get::<_, String>(1)?,
            "date": r.get::<_, String>(2)?,
            "variant": r.get::<_, String>(3)?,
            "color": if as_white { "white" } else { "black" },
            "opponent": if as_white { b } else { w },
            "result": result.clone().unwrap_or_else(|| "*".into()),
            "termination": r.get::<_, Option<String>>(7)?,
            "outcome": outcome,
            "actions": r.get::<_, i64>(8)?,
            "rated": r.get::<_, bool>(10)?,
            "category": r.get::<_, Option<String>>(11)?,
            "rating": after.map(|a| (a * 10.0).round() / 10.0),
            "change": before.zip(after).map(|(b, a)| (a - b).round() as i64),
        }))
    })?;
    for g in rows {
        let g = g?;
        if g["outcome"] == "playing" {
            ongoing.push(g);
        } else {
            games.push(g);
        }
    }
    Ok(Some(json!({
        "name": name, "ratings": ratings, "history": history, "games": games, "ongoing": ongoing,
    })))
}

/// `GET /api/games/:id/rating`.
async fn game_rating(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let v = blocking(move || {
        st.db().with(move |c| {
            let seated = c
                .query_row(
                    "SELECT white, black, rated, category FROM game_accounts WHERE game = ?1",
                    [id],
                    |r| Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, Option<i64>>(1)?, r.get::<_, bool>(2)?, r.get::<_, Option<String>>(3)?)),
                )
                .optional()?;
            let Some((w, b, rated, cat)) = seated else {
                return Ok(json!({ "rated": false, "category": null, "white": null, "black": null }));
            };
            let side = |acc: Option<i64>| -> rusqlite::Result<Value> {
                let Some(acc) = acc else { return Ok(Value::Null) };
                let name: String = c.query_row("SELECT name FROM accounts WHERE id = ?1", [acc], |r| r.get(0))?;
                let change = c
                    .query_row(
                        "SELECT before, after, rd FROM rating_changes WHERE game = ?1 AND account = ?2",
                        params![id, acc],
                        |r| Ok((r.get::<_, f64>(0)?, r.get::<_, f64>(1)?, r.get::<_, f64>(2)?)),
                    )
                    .optional()?;
                Ok(match (change, &cat) {
                    (Some((before, after, rd)), _) => json!({
                        "name": name, "before": before, "after": after,
                        "rating": (after * 10.0).round() / 10.0, "provisional": rd > PROVISIONAL_RD,
                        "change": (after - before).round() as i64,
                    }),
                    (None, Some(cat)) => {
                        let (r, _) = crate::rated::rating_of(c, acc, cat)?;
                        json!({ "name": name, "rating": (r.rating * 10.0).round() / 10.0, "provisional": r.provisional(), "change": null })
                    }
                    (None, None) => json!({ "name": name }),
                })
            };
            Ok(json!({ "rated": rated, "category": cat, "white": side(w)?, "black": side(b)? }))
        })
    })
    .await?;
    Ok(Json(v).into_response())
}

/// `POST /api/games/:id/seat`: a fresh seat token for the side the logged-in account plays in
/// game `id` (`{seat: {side, token}}`); 403 if the account plays no side of it.
async fn my_seat(
    State(st): State<AppState>,
    account: Account,
    Path(id): Path<String>,
) -> Result<Response, ServerError> {
    let id = parse_id(&id)?;
    let v = blocking(move || {
        let acc = account.id;
        let seated = st.db().with(move |c| {
            c.query_row("SELECT white, black FROM game_accounts WHERE game = ?1", [id], |r| {
                Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, Option<i64>>(1)?))
            })
            .optional()
        })?;
        let side = match seated {
            Some((Some(w), _)) if w == acc => Color::White,
            Some((_, Some(b))) if b == acc => Color::Black,
            _ => return Err(ServerError::Forbidden("this account plays no side of this game".into())),
        };
        let mut sides = [false, false];
        sides[side.index()] = true;
        let issued = issue(sides, false)?;
        let slot = st.slot(id)?;
        let mut s = lock(&slot.session);
        s.seats.push(issued.seat.clone());
        let seats = s.seats.clone();
        st.db().set_seats(id, &seats)?;
        Ok(json!({ "seat": { "side": color_name(side), "token": issued.token } }))
    })
    .await?;
    Ok(Json(v).into_response())
}
