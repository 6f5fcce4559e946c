//! Layer: HTTP (with its pool in memory). Quick pairing (issue 47): `POST /api/pairing` joins
//! the pool with a clock, a variant and rated or casual; `GET /api/pairing` answers
//! `{waiting: true}` until the entry is paired, then `{game: {id, seat: {side, token}}}` once;
//! `DELETE /api/pairing` leaves.
//!
//! Two entries pair when their clock, variant and rated flag are the same and their ratings (in
//! the game's category) are within a range that widens with the older entry's wait:
//! [`RANGE_START`] points, [`RANGE_PER_SEC`] more each second, any rating after
//! [`RANGE_OPEN_AFTER`]. Among those, the nearest rating. One entry per account (or, for casual
//! play without an account, per visitor cookie); joining again replaces it. An entry not
//! polled for [`STALE`] leaves the pool. The pool is shared out as every pool is (its places
//! are [`crate::limits::Quota`] permits of the limits `pairing-per-client` and `pairing`): an
//! anonymous address holds a few entries, an account one.

use crate::accounts::{Account, MaybeAccount};
use crate::create::issue;
use crate::error::ServerError;
use crate::extract::{Client, JsonBody, Visitor};
use crate::rated::{self, GameAccounts};
use crate::session::{color_name, Session};
use crate::state::{blocking, lock, AppState};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chess5d_play::request::{ClockReq, CreateReq};
use chess5d_play::Player;
use chess5d_rating::{Category, Speed};
use chess5d_rules::Color;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The rating range at first.
pub const RANGE_START: f64 = 150.0;
/// The range's widening per second of waiting.
pub const RANGE_PER_SEC: f64 = 25.0;
/// After this long waiting, any rating.
pub const RANGE_OPEN_AFTER: Duration = Duration::from_secs(30);
/// An entry not polled for this long leaves the pool.
pub const STALE: Duration = Duration::from_secs(30);

/// Who waits: an account, or a visitor without one (casual only).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Seeker {
    Account(i64),
    Visitor(String),
}

/// A clock as the pool reads it: `"M+S"` (minutes, which may be 0.25, 0.5, 0.75 or 1 to 180,
/// and seconds of increment, 0 to 180), or correspondence, `"Nd"` (N days per action: 1, 2, 3,
/// 5, 7 or 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QuickClock {
    /// Base time in seconds.
    pub base_secs: u64,
    /// Increment in seconds.
    pub increment_secs: u64,
    /// Correspondence: days per action (then no base time nor increment).
    pub days: Option<u32>,
}

impl QuickClock {
    /// Reads `"5+3"`.
    pub fn parse(s: &str) -> Result<QuickClock, ServerError> {
        let bad = || {
            ServerError::BadRequest(format!(
                "clock: 'M+S' (minutes 0.25, 0.5, 0.75 or 1 to 180, increment 0 to 180 seconds) \
                 or 'Nd' (days per action: 1, 2, 3, 5, 7 or 14), got '{}'",
                s.chars().take(20).collect::<String>()
            ))
        };
        if let Some(d) = s.trim().strip_suffix('d') {
            let days = d
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|d| chess5d_play::request::CORRESPONDENCE_DAYS.contains(d))
                .ok_or_else(bad)?;
            return Ok(QuickClock {
                base_secs: 0,
                increment_secs: 0,
                days: Some(days),
            });
        }
        let (m, i) = s.trim().split_once('+').ok_or_else(bad)?;
        let base_secs = match m.trim() {
            "0.25" | "1/4" => 15,
            "0.5" | "1/2" => 30,
            "0.75" | "3/4" => 45,
            m => {
                m.parse::<u64>()
                    .ok()
                    .filter(|m| (1..=180).contains(m))
                    .ok_or_else(bad)?
                    * 60
            }
        };
        let increment_secs = i.trim().parse::<u64>().ok().filter(|i| *i <= 180).ok_or_else(bad)?;
        Ok(QuickClock {
            base_secs,
            increment_secs,
            days: None,
        })
    }

    /// The rating speed of this clock.
    pub fn speed(&self) -> Speed {
        match self.days {
            Some(_) => Speed::Correspondence,
            None => Speed::of_clock(self.base_secs, self.increment_secs),
        }
    }

    /// The clock of a game.
    pub fn request(&self) -> ClockReq {
        match self.days {
            Some(d) => ClockReq {
                initial_ms: 0,
                increment_ms: 0,
                days: Some(d),
            },
            None => ClockReq {
                initial_ms: self.base_secs * 1000,
                increment_ms: self.increment_secs * 1000,
                days: None,
            },
        }
    }

    /// As the page writes it.
    pub fn text(&self) -> String {
        if let Some(d) = self.days {
            return format!("{d}d");
        }
        let m = match self.base_secs {
            15 => "0.25".to_string(),
            30 => "0.5".to_string(),
            45 => "0.75".to_string(),
            s => (s / 60).to_string(),
        };
        format!("{m}+{}", self.increment_secs)
    }
}

#[derive(Debug)]
struct Entry {
    name: String,
    account: Option<i64>,
    clock: QuickClock,
    variant: &'static str,
    rated: bool,
    category: String,
    rating: f64,
    since: Instant,
    seen: Instant,
    /// Once paired: the game, the side and the seat's token (given at the next poll).
    paired: Option<(i64, Color, String)>,
    /// Its place in the pool's quota (given back when the entry leaves).
    place: crate::limits::Permit,
}

/// The pairing pool.
#[derive(Debug, Default)]
pub struct Pool {
    entries: Mutex<HashMap<Seeker, Entry>>,
}

/// `POST /api/pairing`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PairReq {
    clock: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    rated: bool,
}

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/pairing", get(poll).post(join).delete(leave))
}

fn seeker(account: &Option<Account>, visitor: &Visitor) -> Seeker {
    match account {
        Some(a) => Seeker::Account(a.id),
        None => Seeker::Visitor(visitor.hash()),
    }
}

fn range(waited: Duration) -> f64 {
    if waited >= RANGE_OPEN_AFTER {
        f64::INFINITY
    } else {
        RANGE_START + RANGE_PER_SEC * waited.as_secs_f64()
    }
}

fn paired_json(id: i64, side: Color, token: &str) -> Value {
    json!({ "game": { "id": id, "seat": { "side": color_name(side), "token": token } } })
}

impl AppState {
    fn pool(&self) -> &Pool {
        &self.inner.pairing
    }

    /// Pairs `me` with the nearest waiting entry in range, if any: makes the game; gives my
    /// game, side and token.
    fn try_pair(&self, me: &Seeker) -> Result<Option<(i64, Color, String)>, ServerError> {
        let now = Instant::now();
        let (a, b) = {
            let mut map = lock(&self.pool().entries);
            map.retain(|_, e| now.duration_since(e.seen) < STALE);
            let Some(mine) = map.get(me) else { return Ok(None) };
            if mine.paired.is_some() {
                return Ok(None);
            }
            let best = map
                .iter()
                .filter(|(k, e)| {
                    *k != me
                        && e.paired.is_none()
                        && e.clock == mine.clock
                        && e.variant == mine.variant
                        && e.rated == mine.rated
                        && e.category == mine.category
                        && (e.account.is_none() || e.account != mine.account)
                })
                .filter(|(_, e)| {
                    let waited = now.duration_since(e.since.min(mine.since));
                    (e.rating - mine.rating).abs() <= range(waited)
                })
                .min_by(|(_, x), (_, y)| {
                    (x.rating - mine.rating)
                        .abs()
                        .total_cmp(&(y.rating - mine.rating).abs())
                        .then(x.since.cmp(&y.since))
                })
                .map(|(k, _)| k.clone());
            let Some(other) = best else { return Ok(None) };
            // Both marked as being paired (a placeholder) so no one else takes them meanwhile.
            let a = map.get_mut(me).map(|e| {
                e.paired = Some((0, Color::White, String::new()));
                (
                    e.name.clone(),
                    e.account,
                    e.clock,
                    e.variant,
                    e.rated,
                    e.category.clone(),
                )
            });
            let b = map.get_mut(&other).map(|e| {
                e.paired = Some((0, Color::White, String::new()));
                (e.name.clone(), e.account)
            });
            match (a, b) {
                (Some(a), Some(b)) => ((a, me.clone()), (b, other)),
                _ => return Ok(None),
            }
        };
        let ((name, account, clock, variant, rated, category), me_key) = a;
        let ((other_name, other_account), other_key) = b;
        let made = self.make_paired_game(
            [(name, account), (other_name, other_account)],
            clock,
            variant,
            rated,
            category,
        );
        let mut map = lock(&self.pool().entries);
        match made {
            Ok((id, mine_side, tokens)) => {
                let other_side = mine_side.other();
                if let Some(e) = map.get_mut(&other_key) {
                    e.paired = Some((id, other_side, tokens[1].clone()));
                }
                // Mine is answered now.
                map.remove(&me_key);
                Ok(Some((id, mine_side, tokens[0].clone())))
            }
            Err(e) => {
                for k in [&me_key, &other_key] {
                    if let Some(e) = map.get_mut(k) {
                        e.paired = None;
                    }
                }
                Err(e)
            }
        }
    }

    /// Makes the game of two paired players (colours by a coin): its id, the first player's
    /// side and the two players' seat tokens (first, second).
    fn make_paired_game(
        &self,
        players: [(String, Option<i64>); 2],
        clock: QuickClock,
        variant: &'static str,
        rated: bool,
        category: String,
    ) -> Result<(i64, Color, [String; 2]), ServerError> {
        let first = if crate::seats::coin()? {
            Color::White
        } else {
            Color::Black
        };
        let [p0, p1] = players;
        let (white, black) = if first == Color::White { (&p0, &p1) } else { (&p1, &p0) };
        let human = |n: &str| {
            Some(Player::Human {
                name: Some(n.to_string()),
            })
        };
        let req = CreateReq {
            variant: Some(variant.to_string()),
            white: human(&white.0),
            black: human(&black.0),
            clock: Some(clock.request()),
            ..CreateReq::default()
        };
        let new = req.check(&crate::engine::names(&self.inner.config.engines), crate::db::now())?;
        let mut session = Session::wrap(new.play);
        session.play.free_first_moves();
        let seat_w = issue([true, false], false)?;
        let seat_b = issue([false, true], false)?;
        session.seats.push(seat_w.seat.clone());
        session.seats.push(seat_b.seat.clone());
        let slot = self.insert(session)?;
        let id = lock(&slot.session).id;
        let accounts = GameAccounts {
            white: white.1,
            black: black.1,
            rated,
            category: Some(category),
        };
        self.db().write(move |c| rated::set_accounts(c, id, &accounts))?;
        let tokens = if first == Color::White {
            [seat_w.token, seat_b.token]
        } else {
            [seat_b.token, seat_w.token]
        };
        Ok((id, first, tokens))
    }
}

/// `POST /api/pairing {clock: "5+3", variant, rated}`: joins the pool (replacing this
/// account's entry); paired at once if someone in range waits (`{game: ...}`), else
/// `{waiting: true}`. Rated needs an account; casual does not.
async fn join(
    State(st): State<AppState>,
    MaybeAccount(account): MaybeAccount,
    Client(client): Client,
    visitor: Visitor,
    JsonBody(req): JsonBody<PairReq>,
) -> Result<Response, ServerError> {
    let clock = QuickClock::parse(&req.clock)?;
    let variant = chess5d_play::request::variant(req.variant.clone())?;
    if req.rated && account.is_none() {
        return Err(ServerError::Forbidden(
            "rated games need an account: log in, or play casual".into(),
        ));
    }
    let key = seeker(&account, &visitor);
    let category = Category::of(variant.name, clock.speed()).key();
    let st2 = st.clone();
    let v = blocking(move || {
        let rating = match &account {
            Some(a) => {
                let (id, cat) = (a.id, category.clone());
                st2.db().with(move |c| rated::rating_of(c, id, &cat))?.0.rating
            }
            None => 1500.0,
        };
        {
            let mut map = lock(&st2.pool().entries);
            let now = Instant::now();
            map.retain(|_, e| now.duration_since(e.seen) < STALE);
            // Joining again keeps the entry's place; a new entry takes one (its client's share).
            let place = match map.remove(&key) {
                Some(old) => old.place,
                None => {
                    let l = st2.limits();
                    st2.quotas()
                        .pairing
                        .take(client, l.pairing_per_client, l.pairing, "pairing")?
                }
            };
            let now = Instant::now();
            map.insert(
                key.clone(),
                Entry {
                    name: account
                        .as_ref()
                        .map_or_else(|| "Anonymous".to_string(), |a| a.name.clone()),
                    account: account.as_ref().map(|a| a.id),
                    clock,
                    variant: variant.name,
                    rated: req.rated,
                    category,
                    rating,
                    since: now,
                    seen: now,
                    paired: None,
                    place,
                },
            );
        }
        Ok(match st2.try_pair(&key)? {
            Some((id, side, token)) => paired_json(id, side, &token),
            None => json!({ "waiting": true, "clock": clock.text(), "variant": variant.name, "rated": req.rated }),
        })
    })
    .await?;
    Ok(visitor.set_on(Json(v).into_response()))
}

/// `GET /api/pairing`: `{game: {id, seat: {side, token}}}` once paired (given once), else
/// `{waiting: true, seconds}`; 404 if this client has no entry.
async fn poll(
    State(st): State<AppState>,
    MaybeAccount(account): MaybeAccount,
    visitor: Visitor,
) -> Result<Response, ServerError> {
    let key = seeker(&account, &visitor);
    let v = blocking(move || {
        {
            let mut map = lock(&st.pool().entries);
            let Some(e) = map.get_mut(&key) else {
                return Err(ServerError::NotFound(
                    "not in the pairing pool (joined with POST /api/pairing?)".into(),
                ));
            };
            e.seen = Instant::now();
            if let Some((id, side, token)) = e.paired.clone() {
                if id != 0 {
                    map.remove(&key);
                    return Ok(paired_json(id, side, &token));
                }
                return Ok(json!({ "waiting": true, "seconds": 0 }));
            }
        }
        if let Some((id, side, token)) = st.try_pair(&key)? {
            return Ok(paired_json(id, side, &token));
        }
        let map = lock(&st.pool().entries);
        let secs = map.get(&key).map_or(0, |e| e.since.elapsed().as_secs());
        Ok(json!({ "waiting": true, "seconds": secs }))
    })
    .await?;
    Ok(Json(v).into_response())
}

/// `DELETE /api/pairing`: leaves the pool (`{left: true}`; `{left: false}` if not in it, or if
/// already paired: then the game is given as by `GET`).
async fn leave(
    State(st): State<AppState>,
    MaybeAccount(account): MaybeAccount,
    visitor: Visitor,
) -> Result<Response, ServerError> {
    let key = seeker(&account, &visitor);
    let mut map = lock(&st.pool().entries);
    let v = match map.get(&key).and_then(|e| e.paired.clone()) {
        Some((id, side, token)) if id != 0 => {
            map.remove(&key);
            paired_json(id, side, &token)
        }
        Some(_) => json!({ "left": false }),
        None => json!({ "left": map.remove(&key).is_some() }),
    };
    Ok(Json(v).into_response())
}
