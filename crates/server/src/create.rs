//! Layer: domain: no HTTP (the request bodies are plain data the HTTP layer reads).
//!
//! New games, each with its seats: from a request, a puzzle, or an accepted challenge of the
//! lobby; and the lobby itself.

use crate::config::Config;
use crate::db::{self, ChallengeRow};
use crate::engine;
use crate::error::ServerError;
use crate::puzzles::Puzzle;
use crate::seats::{self, Seat, SeatToken};
use crate::session::{color_name, Player, PuzzleRun, Session};
use crate::state::{lock, AppState};
use chess5d_engine::Bot;
use chess5d_notation::LoadedGame;
use chess5d_play::Clock;
use chess5d_rules::{Color, Variant, VARIANTS};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// A side as written in requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl Side {
    /// The rules' colour.
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// A clock in a request.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClockReq {
    initial_ms: u64,
    #[serde(default)]
    increment_ms: u64,
}

/// The body of `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateReq {
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
    /// The side the creator plays; the other human side gets an invite token. Without it the
    /// creator holds every human side (play at one browser, or against engines).
    #[serde(default)]
    seat: Option<Side>,
}

fn check_player(config: &Config, p: Option<Player>) -> Result<Player, ServerError> {
    let p = p.unwrap_or(Player::Human { name: None });
    match p {
        Player::Human { name } => Ok(Player::Human {
            name: check_name(name)?,
        }),
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

fn check_clock(c: Option<ClockReq>) -> Result<Option<Clock>, ServerError> {
    match c {
        Some(c) if !(1_000..=86_400_000).contains(&c.initial_ms) || c.increment_ms > 3_600_000 => {
            Err(ServerError::BadRequest(
                "clock: initial_ms must be between 1000 and 86400000, increment_ms at most 3600000".into(),
            ))
        }
        Some(c) => Ok(Some(Clock::new(c.initial_ms, c.increment_ms))),
        None => Ok(None),
    }
}

fn variant(name: Option<String>) -> Result<&'static Variant, ServerError> {
    let name = name.unwrap_or_else(|| "Standard".into());
    Variant::by_name(&name).ok_or_else(|| {
        ServerError::BadRequest(format!(
            "unknown variant '{name}'; known variants: {}",
            VARIANTS.iter().map(|v| v.name).collect::<Vec<_>>().join(", ")
        ))
    })
}

fn check_name(name: Option<String>) -> Result<Option<String>, ServerError> {
    if name.as_ref().is_some_and(|n| n.chars().count() > 60) {
        return Err(ServerError::BadRequest("player names are at most 60 characters".into()));
    }
    Ok(name.filter(|n| !n.trim().is_empty()))
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
    fn open_game(&self, mut session: Session, seat: Option<Color>) -> Result<Value, ServerError> {
        let human = [!session.players[0].is_engine(), !session.players[1].is_engine()];
        let (mine, invite) = match seat {
            Some(c) => {
                if !human[c.index()] {
                    return Err(ServerError::BadRequest(format!(
                        "seat: {} is an engine, not a seat",
                        color_name(c)
                    )));
                }
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
        let creator = issue(mine, true)?;
        session.seats.push(creator.seat.clone());
        if let Some((i, _)) = &invite {
            session.seats.push(i.seat.clone());
        }
        let slot = self.insert(session)?;
        let mut v = lock(&slot.session).view(None);
        v["seat"] = seat_json(&creator.token, &creator.seat);
        v["invite"] = invite.map_or(Value::Null, |(i, c)| json!({ "token": i.token, "side": color_name(c) }));
        Ok(v)
    }

    /// `POST /api/games`.
    pub(crate) fn create_game(&self, req: CreateReq) -> Result<Value, ServerError> {
        let config = &self.inner.config;
        let players = [check_player(config, req.white)?, check_player(config, req.black)?];
        let clock = check_clock(req.clock)?;
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
            (None, v) => LoadedGame::new(chess5d_notation::Format::Pgn, variant(v)?.position()),
        };
        let result = loaded.result.clone().filter(|r| r != "*");
        let mut session = Session::new(loaded, players, clock, None);
        if let Some(r) = result {
            session.finish(&r, "imported result");
        }
        self.open_game(session, req.seat.map(Side::color))
    }

    /// `POST /api/puzzles/:id`: the solver is the creator, the defence the first engine.
    pub(crate) fn start_puzzle(&self, id: &str, name: &str, text: &str) -> Result<Value, ServerError> {
        let loaded = chess5d_notation::load(text).map_err(|e| ServerError::Internal(format!("puzzle {id}: {e}")))?;
        let loaded = Puzzle::posed(loaded);
        let solver = loaded.game.to_move();
        let run = PuzzleRun {
            id: id.to_string(),
            name: name.to_string(),
            setup_actions: loaded.game.actions().len(),
            mate_in: Puzzle::mate_in_of(&loaded),
            solver: color_name(solver).to_string(),
            status: "playing".into(),
        };
        let engine = Player::Engine {
            engine: Some(engine::find(&self.inner.config.engines, None)?.name.clone()),
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
        self.open_game(session, None)
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
    pub(crate) fn create_challenge(&self, req: ChallengeReq) -> Result<Value, ServerError> {
        let v = variant(req.variant)?;
        let clock = check_clock(req.clock)?;
        let token = seats::new_token()?;
        let row = ChallengeRow {
            id: 0,
            created: db::now(),
            variant: v.name.to_string(),
            clock: clock.map(|c| json!({"initial_ms": c.initial_ms, "increment_ms": c.increment_ms}).to_string()),
            color: req.color.unwrap_or_else(|| "random".into()),
            name: check_name(req.name)?,
            token_hash: seats::hash_token(&token),
            game: None,
        };
        if !["white", "black", "random"].contains(&row.color.as_str()) {
            return Err(ServerError::BadRequest(format!(
                "color must be 'white', 'black' or 'random', got '{}'",
                row.color
            )));
        }
        let id = self.inner.db.insert_challenge(&row)?;
        let mut v = challenge_json(&ChallengeRow { id, ..row });
        v["token"] = json!(token);
        Ok(v)
    }

    /// `GET /api/challenges`.
    pub(crate) fn challenges(&self) -> Result<Value, ServerError> {
        let list: Vec<Value> = self.inner.db.open_challenges()?.iter().map(challenge_json).collect();
        Ok(json!({ "challenges": list }))
    }

    /// `GET /api/challenges/:id` (with `game` once accepted).
    pub(crate) fn challenge(&self, id: i64) -> Result<Value, ServerError> {
        Ok(challenge_json(&self.find_challenge(id)?))
    }

    fn find_challenge(&self, id: i64) -> Result<ChallengeRow, ServerError> {
        self.inner
            .db
            .challenge(id)?
            .ok_or_else(|| ServerError::NotFound(format!("no challenge with id {id}")))
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
    pub(crate) fn accept_challenge(&self, id: i64, req: AcceptReq) -> Result<Value, ServerError> {
        let _one_at_a_time = lock(&self.inner.lobby);
        let ch = self.find_challenge(id)?;
        if let Some(g) = ch.game {
            return Err(ServerError::Conflict(format!(
                "challenge {id} was already accepted (game {g})"
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
            name: check_name(req.name)?,
        };
        let clock: Option<ClockReq> = ch.clock.as_deref().and_then(|c| serde_json::from_str(c).ok());
        let loaded = LoadedGame::new(
            chess5d_notation::Format::Pgn,
            variant(Some(ch.variant.clone()))?.position(),
        );
        let mut session = Session::new(loaded, players, check_clock(clock)?, None);
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
        self.inner.db.close_challenge(id, game)?;
        let mut v = lock(&slot.session).view(None);
        v["seat"] = seat_json(&acceptor.token, &acceptor.seat);
        v["invite"] = Value::Null;
        Ok(v)
    }
}

impl AppState {
    /// `POST /api/games/:id/join`: what the token of an opened link holds. An invite not yet
    /// claimed is claimed here: its seat gets a token of its own (answered once, to this
    /// browser) and the link's token stops working. A link already used, or never made, is
    /// refused in words a player understands.
    pub(crate) fn join(&self, id: i64, token: &SeatToken) -> Result<Value, ServerError> {
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
        let mut v;
        if s.seats[i].invite {
            let claimed = issue(s.seats[i].sides, false)?;
            let mut seat = claimed.seat;
            seat.used_invite = Some(s.seats[i].hash.clone());
            let mut all = s.seats.clone();
            all[i] = seat.clone();
            self.inner.db.set_seats(id, &all)?;
            s.seats = all;
            v = s.view(None);
            v["seat"] = seat_json(&claimed.token, &seat);
            v["joined"] = json!(true);
        } else {
            v = s.view(None);
            v["seat"] = seat_json(t, &s.seats[i]);
            v["joined"] = json!(false);
        }
        drop(s);
        let _ = slot.tx.send(());
        Ok(v)
    }

    /// `POST /api/games/:id/invite` (the creator only): a new invite link for the other human
    /// side. Whoever held that side (an open invite, or the player who took one) holds it no
    /// more: the creator hands the seat to someone else, or again to a player who lost it.
    pub(crate) fn new_invite(&self, id: i64, token: &SeatToken) -> Result<Value, ServerError> {
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
        let mut v = s.view(None);
        v["invite"] = json!({ "token": invite.token, "side": color_name(side) });
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
    })
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
}

/// The body of `POST /api/challenges/:id/accept`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptReq {
    #[serde(default)]
    name: Option<String>,
}
