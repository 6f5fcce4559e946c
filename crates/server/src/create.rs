//! Layer: domain: no HTTP (the request bodies are plain data the HTTP layer reads).
//!
//! New games, each with its seats: from a request, a puzzle, or an accepted challenge of the
//! lobby; and the lobby itself.

use crate::accounts::Account;
use crate::db::{self, ChallengeRow};
use crate::engine;
use crate::error::ServerError;
use crate::rated::{self, GameAccounts};
use crate::seats::{self, FromSeat, Rights, Seat, SeatToken};
use crate::session::{color_name, Player, Session};
use crate::state::{lock, AppState};
use chess5d_notation::LoadedGame;
use chess5d_play::request::{self, ClockReq, CreateReq};
use chess5d_play::{Clock, Play};
use chess5d_rules::Color;
use rusqlite::OptionalExtension;
use serde::Deserialize;
use serde_json::{json, Value};

fn check_clock(c: Option<ClockReq>) -> Result<Option<Clock>, ServerError> {
    Ok(c.as_ref().map(ClockReq::check).transpose()?)
}

fn variant(name: Option<String>) -> Result<&'static chess5d_rules::Variant, ServerError> {
    Ok(request::variant(name)?)
}

fn check_name(name: Option<String>) -> Result<Option<String>, ServerError> {
    Ok(request::check_name(name)?)
}

/// A token and the seat it opens.
pub(crate) struct Issued {
    pub(crate) token: String,
    pub(crate) seat: Seat,
}

pub(crate) fn issue(sides: [bool; 2], owner: bool) -> Result<Issued, ServerError> {
    let token = seats::new_token()?;
    Ok(Issued {
        seat: Seat {
            hash: seats::hash_token(&token),
            sides,
            owner,
            invite: false,
            used_invite: None,
        },
        token,
    })
}

pub(crate) fn seat_json(token: &str, seat: &Seat) -> Value {
    let sides: Vec<&str> = [Color::White, Color::Black]
        .into_iter()
        .filter(|c| seat.sides[c.index()])
        .map(color_name)
        .collect();
    json!({ "token": token, "sides": sides, "owner": seat.owner })
}

impl AppState {
    /// Stores a new game with the creator's seat (every human side, or only `seat` with an
    /// invite for the other human side); the answer is the state plus `seat` and `invite`.
    fn open_game(
        &self,
        mut session: Session,
        seat: Option<Color>,
        held: Vec<crate::limits::Permit>,
    ) -> Result<String, ServerError> {
        let human = [!session.players[0].is_engine(), !session.players[1].is_engine()];
        let (mine, invite) = match seat {
            Some(c) => {
                let mut mine = [false, false];
                mine[c.index()] = true;
                let other = c.other();
                let invite = if human[other.index()] {
                    let mut s = [false, false];
                    s[other.index()] = true;
                    let mut invite = issue(s, false)?;
                    invite.seat.invite = true;
                    Some((invite, other))
                } else {
                    None
                };
                (mine, invite)
            }
            None => (human, None),
        };
        if invite.is_some() {
            // An invite: the clock waits for each side's first action (the friend may come late).
            session.play.free_first_moves();
        }
        let creator = issue(mine, true)?;
        session.seats.push(creator.seat.clone());
        if let Some((i, _)) = &invite {
            session.seats.push(i.seat.clone());
        }
        let slot = self.insert(session)?;
        *crate::sync::lock(&slot.owner) = held.first().map(crate::limits::Permit::client);
        *crate::sync::lock(&slot.held) = held;
        let extra = json!({
            "seat": seat_json(&creator.token, &creator.seat),
            "invite": invite.map_or(Value::Null, |(i, c)| json!({ "token": i.token, "side": color_name(c) })),
        });
        let text = lock(&slot.session).view_text_with(Rights::from_seat(&creator.seat).viewer(), &extra);
        Ok(text)
    }

    /// `POST /api/games`'s costly part, the reading of an import (the rules replaying every
    /// action): its game, checked against the limits. It takes no lock that others wait for, so
    /// it may run at the priority of costly work ([`crate::sync::background`]): a thread of
    /// low priority that held one (the games' map) while it waited for a core held every request.
    pub(crate) fn check_created(&self, req: CreateReq) -> Result<request::NewGame, ServerError> {
        let new = req.check(&engine::names(&self.inner.config.engines), db::now())?;
        // A variation's actions count too.
        crate::limits::check_import_actions(
            new.play.game.actions().len() + new.play.variation_actions(),
            &self.inner.config.limits,
        )?;
        Ok(new)
    }

    /// `POST /api/games` of a game [`AppState::check_created`] read: its places taken, stored and
    /// opened. `cancelled` says the request has gone (timed out): nothing is made.
    pub(crate) fn create_game(
        &self,
        new: request::NewGame,
        client: crate::limits::ClientKey,
        cancelled: &std::sync::atomic::AtomicBool,
        account: Option<Account>,
    ) -> Result<String, ServerError> {
        // Each engine player is a process while the game is in memory.
        let held = new
            .play
            .players
            .iter()
            .filter(|p| p.is_engine())
            .map(|_| self.take_engine_place(client))
            .collect::<Result<Vec<_>, _>>()?;
        if cancelled.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(ServerError::Conflict("the request timed out: no game was made".into()));
        }
        let side = new.seat.filter(|_| new.play.players.iter().all(|p| !p.is_engine()));
        let v = self.open_game(Session::wrap(new.play), new.seat, held)?;
        // A logged-in creator's side of a game between two people is the account's.
        if let (Some(a), Some(side)) = (account, side) {
            let id = serde_json::from_str::<Value>(&v)
                .ok()
                .and_then(|v| v["id"].as_i64())
                .ok_or_else(|| ServerError::Internal("a new game without an id".into()))?;
            self.db().write(move |c| rated::seat_account(c, id, side, a.id))?;
        }
        Ok(v)
    }

    /// `POST /api/puzzles/:id`: the solver is the creator, the defence the first engine (one of
    /// the client's engine players); the game's end is `visitor`'s progress.
    pub(crate) fn start_puzzle(
        &self,
        id: &str,
        name: &str,
        text: &str,
        visitor: String,
        client: crate::limits::ClientKey,
    ) -> Result<String, ServerError> {
        let held = self.take_engine_place(client)?;
        let loaded = chess5d_notation::load(text).map_err(|e| ServerError::Internal(format!("puzzle {id}: {e}")))?;
        let engine = Player::Engine {
            engine: Some(engine::find(&self.inner.config.engines, None)?.name.clone()),
            bot: Some("alphabeta".into()),
            movetime_ms: Some(500),
        };
        let play = request::puzzle_game(loaded, id, name, engine, db::now());
        let mut session = Session::wrap(play);
        session.visitor = Some(visitor);
        self.open_game(session, None, vec![held])
    }

    /// `POST /api/lessons/:id/:n`: the game of a lesson's exercise, its creator holding both
    /// seats.
    pub(crate) fn start_exercise(&self, id: &str, n: &str) -> Result<String, ServerError> {
        let play = chess5d_play::lesson::exercise_game(id, n, db::now())?;
        self.start_made(play)
    }

    /// A game the service made for its creator alone (a lesson's exercise, a puzzle of a
    /// reviewed mistake): stored with the creator holding both seats.
    pub(crate) fn start_made(&self, play: chess5d_play::Play) -> Result<String, ServerError> {
        self.open_game(Session::wrap(play), None, Vec::new())
    }

    /// `POST /api/my-games`: the games where these tokens hold a seat.
    pub(crate) fn my_games(&self, tokens: &[String]) -> Result<Value, ServerError> {
        if tokens.len() > 500 {
            return Err(ServerError::BadRequest("at most 500 tokens".into()));
        }
        let hashes: Vec<String> = tokens.iter().map(|t| seats::hash_token(t)).collect();
        let rows = self.inner.db.games_of(&hashes)?;
        let games: Vec<Value> = rows
            .iter()
            .map(|(row, seat)| {
                let mut v = Session::summary(row);
                v["sides"] = seat_json("", seat)["sides"].clone();
                v["owner"] = json!(seat.owner);
                v
            })
            .collect();
        Ok(json!({ "games": games }))
    }

    /// `POST /api/challenges`: a new open challenge; the answer carries the challenger's token,
    /// which becomes their seat when someone accepts.
    /// At most `challenges-per-client` open challenges per client.
    pub(crate) fn create_challenge(
        &self,
        req: ChallengeReq,
        client: crate::limits::ClientKey,
        account: Option<Account>,
    ) -> Result<Value, ServerError> {
        let v = variant(req.variant)?;
        let clock = check_clock(req.clock)?;
        let token = seats::new_token()?;
        let category = clock.as_ref().map(|c| category_of(v.name, c));
        if req.rated && (account.is_none() || clock.is_none()) {
            return Err(ServerError::Forbidden(
                "a rated challenge needs an account (log in) and a clock".into(),
            ));
        }
        let to_account = match &req.to {
            None => None,
            Some(name) => {
                let id = self.account_id(name)?;
                if account.as_ref().is_some_and(|a| a.id == id) {
                    return Err(ServerError::BadRequest(
                        "'to' names yourself: challenge someone else".into(),
                    ));
                }
                Some(id)
            }
        };
        // Logged in, the challenge carries the account's name (a name given is not used).
        let name = match &account {
            Some(a) => Some(a.name.clone()),
            None => check_name(req.name)?,
        };
        let row = ChallengeRow {
            id: 0,
            created: db::now(),
            variant: v.name.to_string(),
            clock: clock.map(|c| clock_text(&c)),
            color: req.color.unwrap_or_else(|| "random".into()),
            name,
            token_hash: seats::hash_token(&token),
            game: None,
            account: account.as_ref().map(|a| a.id),
            rated: req.rated,
            to_account,
            category,
            ..ChallengeRow::default()
        };
        if !["white", "black", "random"].contains(&row.color.as_str()) {
            return Err(ServerError::BadRequest(format!(
                "color must be 'white', 'black' or 'random', got '{}'",
                row.color
            )));
        }
        let limits = &self.inner.config.limits;
        let since = db::ago(limits.challenge_secs);
        let cap = limits.challenges_per_client;
        let id = self
            .inner
            .db
            .insert_challenge(&row, &client.to_string(), &since, cap)?
            .ok_or_else(|| {
                ServerError::Limited(format!(
                    "too many open challenges from {}: at most {cap} (limit 'challenges-per-client'); \
                     cancel one, or wait until one is accepted or expires",
                    client.yours()
                ))
            })?;
        let mut v = self.challenge(id)?;
        v["token"] = json!(token);
        Ok(v)
    }

    /// The id of the account named `name` (any case); 404 if there is none.
    fn account_id(&self, name: &str) -> Result<i64, ServerError> {
        let short: String = name.chars().take(20).collect();
        let none = || ServerError::NotFound(format!("no player named '{short}'"));
        if !crate::accounts::valid_name(name) {
            return Err(none());
        }
        let key = name.to_ascii_lowercase();
        self.db()
            .with(move |c| {
                c.query_row(
                    "SELECT id FROM accounts WHERE name_key = ?1 AND deleted = 0",
                    [key],
                    |r| r.get::<_, i64>(0),
                )
                .optional()
            })?
            .ok_or_else(none)
    }

    /// `GET /api/challenges?offset=&limit=&min_rating=&max_rating=`: a page of the open
    /// challenges not expired that `filter` lets through.
    pub(crate) fn challenges(
        &self,
        filter: db::LobbyFilter,
        offset: usize,
        count: usize,
    ) -> Result<Value, ServerError> {
        let since = db::ago(self.inner.config.limits.challenge_secs);
        let (rows, total) = self.inner.db.open_challenges(&since, filter, offset, count)?;
        let list: Vec<Value> = rows.iter().map(challenge_json).collect();
        Ok(crate::limits::page_json("challenges", list, total, offset))
    }

    /// `GET /api/challenges/:id` (with `game` once accepted).
    pub(crate) fn challenge(&self, id: i64) -> Result<Value, ServerError> {
        Ok(challenge_json(&self.find_challenge(id)?))
    }

    /// A challenge; one never accepted that has expired (limit `challenge-secs`) is gone.
    fn find_challenge(&self, id: i64) -> Result<ChallengeRow, ServerError> {
        let ch = self
            .inner
            .db
            .challenge(id)?
            .ok_or_else(|| ServerError::NotFound(format!("no challenge with id {id}")))?;
        let secs = self.inner.config.limits.challenge_secs;
        if ch.game.is_none() && ch.created < db::ago(secs) {
            return Err(ServerError::NotFound(format!(
                "challenge {id} expired: nobody accepted it within {secs} s (limit 'challenge-secs')"
            )));
        }
        Ok(ch)
    }

    /// `DELETE /api/challenges/:id`: only with the challenger's token, while open.
    pub(crate) fn cancel_challenge(&self, id: i64, token: &SeatToken) -> Result<Value, ServerError> {
        let ch = self.find_challenge(id)?;
        if !token.get().is_some_and(|t| seats::token_matches(t, &ch.token_hash)) {
            return Err(ServerError::Forbidden(format!(
                "only the challenger may cancel challenge {id}"
            )));
        }
        if let Some(g) = ch.game {
            return Err(ServerError::Conflict(format!("challenge {id} was accepted: game {g}")));
        }
        self.inner.db.delete_challenge(id)?;
        Ok(json!({ "deleted": id }))
    }

    /// `POST /api/challenges/:id/accept`: starts the game; the challenger's token is their seat
    /// (and makes them the creator), the acceptor gets a new token.
    pub(crate) fn accept_challenge(
        &self,
        id: i64,
        req: AcceptReq,
        account: Option<Account>,
    ) -> Result<Value, ServerError> {
        let _one_at_a_time = lock(&self.inner.lobby);
        let ch = self.find_challenge(id)?;
        if let Some(g) = ch.game {
            return Err(ServerError::Conflict(format!(
                "challenge {id} was already accepted (game {g})"
            )));
        }
        let me = account.as_ref().map(|a| a.id);
        if ch.to_account.is_some() && ch.to_account != me {
            return Err(ServerError::Forbidden(format!(
                "challenge {id} is for {} only",
                ch.to_name.as_deref().unwrap_or("another player")
            )));
        }
        if ch.rated && me.is_none() {
            return Err(ServerError::Forbidden(format!(
                "challenge {id} is rated: log in to accept it"
            )));
        }
        if me.is_some() && me == ch.account {
            return Err(ServerError::BadRequest(format!(
                "challenge {id} is your own: cancel it instead"
            )));
        }
        let challenger = match ch.color.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            _ if seats::coin()? => Color::White,
            _ => Color::Black,
        };
        let mut players = [Player::Human { name: None }, Player::Human { name: None }];
        players[challenger.index()] = Player::Human { name: ch.name.clone() };
        players[challenger.other().index()] = Player::Human {
            name: match &account {
                Some(a) => Some(a.name.clone()),
                None => check_name(req.name)?,
            },
        };
        let clock: Option<ClockReq> = ch.clock.as_deref().and_then(|c| serde_json::from_str(c).ok());
        let loaded = LoadedGame::new(
            chess5d_notation::Format::Pgn,
            variant(Some(ch.variant.clone()))?.position(),
        );
        let mut session = Session::wrap(Play::new(loaded, players, check_clock(clock)?, None, db::now()));
        // Two people online: the clock waits for each side's first action.
        session.play.free_first_moves();
        let mut mine = [false, false];
        mine[challenger.index()] = true;
        session.seats.push(Seat {
            hash: ch.token_hash.clone(),
            sides: mine,
            owner: true,
            invite: false,
            used_invite: None,
        });
        let mut theirs = [false, false];
        theirs[challenger.other().index()] = true;
        let acceptor = issue(theirs, false)?;
        session.seats.push(acceptor.seat.clone());
        let slot = self.insert(session)?;
        let game = lock(&slot.session).id;
        // The accounts seated (a seat taken while logged in is the account's), rated or not.
        if ch.account.is_some() || me.is_some() {
            let mut seated = [None, None];
            seated[challenger.index()] = ch.account;
            seated[challenger.other().index()] = me;
            let accounts = GameAccounts {
                white: seated[0],
                black: seated[1],
                rated: ch.rated,
                category: ch.category.clone(),
            };
            self.db().write(move |c| rated::set_accounts(c, game, &accounts))?;
        }
        self.inner.db.close_challenge(id, game)?;
        let mut v = lock(&slot.session).view(Rights::from_seat(&acceptor.seat).viewer(), chess5d_play::Shown::Live);
        v["seat"] = seat_json(&acceptor.token, &acceptor.seat);
        v["invite"] = Value::Null;
        Ok(v)
    }
}

impl AppState {
    /// `POST /api/games/:id/join`: what the token of an opened link holds. An invite not yet
    /// claimed is claimed here: its seat gets a token of its own (answered once, to this
    /// browser) and the link's token stops working. A link already used, or never made, is
    /// refused in words a player understands. `name` (checked by the caller) names the players
    /// of the seat's sides (everyone watching sees it): the page asks a player who claimed an
    /// invite for it, then sends it with their own seat's token.
    pub(crate) fn join(
        &self,
        id: i64,
        token: &SeatToken,
        name: Option<String>,
        account: Option<Account>,
    ) -> Result<String, ServerError> {
        let Some(t) = token.get() else {
            return Err(ServerError::BadRequest(format!(
                "a link to join game {id} carries a seat token (header {})",
                seats::TOKEN_HEADER
            )));
        };
        let slot = self.slot(id)?;
        let mut s = lock(&slot.session);
        if s.seats.is_empty() {
            return Err(ServerError::Forbidden(format!(
                "game {id} has no seats: there is nothing to join"
            )));
        }
        // Every seat is compared (no early exit on the secret).
        let held: Vec<usize> = (0..s.seats.len())
            .filter(|&i| seats::token_matches(t, &s.seats[i].hash))
            .collect();
        let Some(&i) = held.first() else {
            let used = s
                .seats
                .iter()
                .filter(|seat| seat.used_invite.as_deref().is_some_and(|h| seats::token_matches(t, h)))
                .count()
                > 0;
            return Err(ServerError::Forbidden(if used {
                format!(
                    "this invite link to game {id} was used already: another browser took its seat. \
                     Ask the player who sent it for a new link."
                )
            } else {
                format!(
                    "this link does not open a seat of game {id}: it may be mistyped or cut short, \
                     or its creator made a new one. You can watch the game."
                )
            }));
        };
        let v;
        if s.seats[i].invite {
            let claimed = issue(s.seats[i].sides, false)?;
            let mut seat = claimed.seat;
            seat.used_invite = Some(s.seats[i].hash.clone());
            let mut all = s.seats.clone();
            all[i] = seat.clone();
            // The name first: a refused write of either leaves the game as it was.
            let players = s.players.clone();
            self.name_players(&mut s, seat.sides, name)?;
            if let Err(e) = self.inner.db.set_seats(id, &all) {
                if s.players != players {
                    s.players = players;
                    s.play.bump();
                    let _ = self.persist(&s);
                }
                return Err(e);
            }
            s.seats = all;
            // An invite claimed while logged in: its side is the account's (another device of
            // the account gets it with `POST /api/games/:id/seat`).
            if let (Some(a), [w, b]) = (&account, seat.sides) {
                if w != b {
                    let side = if w { Color::White } else { Color::Black };
                    let acc = a.id;
                    self.db().write(move |c| rated::seat_account(c, id, side, acc))?;
                }
            }
            let extra = json!({ "seat": seat_json(&claimed.token, &seat), "joined": true });
            v = s.view_text_with(Rights::from_seat(&seat).viewer(), &extra);
        } else {
            let sides = s.seats[i].sides;
            self.name_players(&mut s, sides, name)?;
            let extra = json!({ "seat": seat_json(t, &s.seats[i]), "joined": false });
            v = s.view_text_with(Rights::from_seat(&s.seats[i]).viewer(), &extra);
        }
        drop(s);
        let _ = slot.tx.send(());
        Ok(v)
    }

    /// Names the human players of a seat's sides (a join's `name`; none: no change), for
    /// everyone watching.
    fn name_players(&self, s: &mut Session, sides: [bool; 2], name: Option<String>) -> Result<(), ServerError> {
        let Some(name) = name else { return Ok(()) };
        let before = s.players.clone();
        for c in [Color::White, Color::Black] {
            if sides[c.index()] && !s.players[c.index()].is_engine() {
                s.players[c.index()] = Player::Human {
                    name: Some(name.clone()),
                };
            }
        }
        s.play.bump();
        // Stored with the game (its `white` and `black`); a write refused changes nothing.
        if let Err(e) = self.persist(s) {
            s.players = before;
            s.play.bump();
            return Err(e);
        }
        Ok(())
    }

    /// `POST /api/games/:id/invite` (the creator only): a new invite link for the other human
    /// side. Whoever held that side (an open invite, or the player who took one) holds it no
    /// more: the creator hands the seat to someone else, or again to a player who lost it.
    pub(crate) fn new_invite(&self, id: i64, token: &SeatToken) -> Result<String, ServerError> {
        let slot = self.slot(id)?;
        let mut s = lock(&slot.session);
        s.authorize(
            s.rights(token.get(), self.inner.config.public),
            crate::seats::Need::Owner,
        )?;
        let owner_sides = s
            .seats
            .iter()
            .filter(|seat| seat.owner)
            .fold([false, false], |acc, seat| {
                [acc[0] | seat.sides[0], acc[1] | seat.sides[1]]
            });
        let side = [Color::White, Color::Black]
            .into_iter()
            .find(|c| !owner_sides[c.index()] && !s.players[c.index()].is_engine())
            .ok_or_else(|| {
                ServerError::BadRequest(format!(
                    "game {id} has no other human side to invite: you hold every side a person plays"
                ))
            })?;
        if s.is_over() {
            return Err(ServerError::Conflict(format!("game {id} is over: nobody can join it")));
        }
        let mut sides = [false, false];
        sides[side.index()] = true;
        let mut invite = issue(sides, false)?;
        invite.seat.invite = true;
        let mut all: Vec<Seat> = s
            .seats
            .iter()
            .filter(|seat| seat.owner || !seat.sides[side.index()])
            .cloned()
            .collect();
        all.push(invite.seat.clone());
        self.inner.db.set_seats(id, &all)?;
        s.seats = all;
        let extra = json!({ "invite": { "token": invite.token, "side": color_name(side) } });
        let v = s.view_text_with(s.viewer(token.get(), self.inner.config.public), &extra);
        drop(s);
        let _ = slot.tx.send(());
        Ok(v)
    }
}

fn challenge_json(c: &ChallengeRow) -> Value {
    json!({
        "id": c.id, "created": c.created, "variant": c.variant,
        "clock": c.clock.as_deref().and_then(|c| serde_json::from_str::<Value>(c).ok()),
        "color": c.color, "name": c.name, "game": c.game,
        "account": c.account_name, "rated": c.rated, "category": c.category, "to": c.to_name,
        "rating": c.account_name.as_ref().map(|_| {
            let (r, rd) = c.rating.unwrap_or((1500.0, 350.0));
            json!({ "rating": (r * 10.0).round() / 10.0, "rd": (rd * 10.0).round() / 10.0, "provisional": rd > chess5d_rating::PROVISIONAL_RD })
        }),
    })
}

/// A clock as a challenge keeps it (JSON, as `POST /api/challenges` takes it).
fn clock_text(c: &Clock) -> String {
    match c.days {
        Some(d) => json!({ "days": d }).to_string(),
        None => json!({"initial_ms": c.initial_ms, "increment_ms": c.increment_ms}).to_string(),
    }
}

/// The rating category of a game of `variant` on clock `c`.
pub(crate) fn category_of(variant: &str, c: &Clock) -> String {
    use chess5d_rating::{Category, Speed};
    let speed = match c.days {
        Some(_) => Speed::Correspondence,
        None => Speed::of_clock(c.initial_ms / 1000, c.increment_ms / 1000),
    };
    Category::of(variant, speed).key()
}

/// The body of `POST /api/challenges`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeReq {
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    clock: Option<ClockReq>,
    /// `white`, `black` or `random` (default): the challenger's colour.
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    name: Option<String>,
    /// Rated (needs an account and a clock; the acceptor needs one too).
    #[serde(default)]
    rated: bool,
    /// Open only to the player of this name (else to anyone).
    #[serde(default)]
    to: Option<String>,
}

/// The body of `POST /api/challenges/:id/accept`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptReq {
    #[serde(default)]
    name: Option<String>,
}
