//! Layer: domain: no HTTP.
//!
//! A game being played on the server: the game itself (chess5d-play's [`Play`], shared with the
//! browser's local back-end) with what only the server has: its id, seats, presence, storage.

use crate::db::{self, GameRow};
use crate::error::ServerError;
use crate::seats::{Need, Rights, Seat};
use chess5d_notation::{long, LoadedGame};
use chess5d_play::Clock;
use chess5d_play::Play;
pub use chess5d_play::{color_name, PlayError, Player, PuzzleRun};
use chess5d_rules::{Color, Move};
use serde_json::{json, Value};
use std::ops::{Deref, DerefMut};
use std::time::Instant;

impl From<PlayError> for ServerError {
    fn from(e: PlayError) -> ServerError {
        match e {
            PlayError::BadRequest(m) => ServerError::BadRequest(m),
            PlayError::Conflict(m) => ServerError::Conflict(m),
            PlayError::Internal(m) => ServerError::Internal(m),
        }
    }
}

/// One game in memory.
#[derive(Debug)]
pub struct Session {
    pub id: i64,
    /// The game (fields and rules; reached through `Deref`).
    pub play: Play,
    pub deleted: bool,
    /// Who may act for which side (empty: a game from before seats).
    pub seats: Vec<Seat>,
    /// Open WebSockets of seat holders per side (for the "connected" marks).
    pub online: [u32; 2],
    /// Bumped when `online` changes (watchers resend; the engine driver ignores it).
    pub presence: u64,
}

impl Deref for Session {
    type Target = Play;
    fn deref(&self) -> &Play {
        &self.play
    }
}

impl DerefMut for Session {
    fn deref_mut(&mut self) -> &mut Play {
        &mut self.play
    }
}

impl Session {
    fn wrap(play: Play) -> Session {
        Session {
            id: 0,
            play,
            deleted: false,
            seats: Vec::new(),
            online: [0, 0],
            presence: 0,
        }
    }

    /// A new game from a loaded record (its actions are kept).
    pub fn new(loaded: LoadedGame, players: [Player; 2], clock: Option<Clock>, puzzle: Option<PuzzleRun>) -> Session {
        Session::wrap(Play::new(loaded, players, clock, puzzle, db::now()))
    }

    /// Rebuilds a stored game.
    pub fn from_row(row: &GameRow) -> Result<Session, ServerError> {
        let bad =
            |what: &str, e: String| ServerError::Internal(format!("stored game {} has a bad {what}: {e}", row.id));
        let start = chess5d_notation::load(&row.start)
            .map_err(|e| bad("start position", e.to_string()))?
            .start;
        let loaded = long::read_game(&row.actions, Some(start)).map_err(|e| bad("action list", e.to_string()))?;
        let players = [
            serde_json::from_str(&row.white).map_err(|e| bad("player", e.to_string()))?,
            serde_json::from_str(&row.black).map_err(|e| bad("player", e.to_string()))?,
        ];
        let headers: Vec<(String, String)> = serde_json::from_str(&row.headers).unwrap_or_default();
        let mut clock: Option<Clock> = row.clock.as_deref().and_then(|c| serde_json::from_str(c).ok());
        if let Some(c) = &mut clock {
            c.turn_started = Some(Instant::now());
        }
        let mut s = Play::with_defaults(loaded.game, players);
        s.created = row.created.clone();
        s.variant = row.variant.clone();
        s.start_text = row.start.clone();
        s.headers = headers;
        s.result = row.result.clone();
        s.termination = row.termination.clone();
        s.clock = clock;
        s.puzzle = row.puzzle.as_deref().and_then(|p| serde_json::from_str(p).ok());
        s.after_change(true);
        let mut s = Session::wrap(s);
        s.id = row.id;
        s.draw_offer = match row.draw_offer.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
        for line in row.pending.lines().filter(|l| !l.trim().is_empty()) {
            // The moves of the action being built; a move that no longer applies is dropped.
            if s.play_unchecked_text(line).is_err() {
                break;
            }
        }
        Ok(s)
    }

    /// What the holder of `token` may do here. A game without seats (made before seats existed)
    /// is open to everyone on a loopback-only server and to nobody on a public one.
    pub fn rights(&self, token: Option<&str>, public: bool) -> Rights {
        if self.seats.is_empty() {
            return if public { Rights::default() } else { Rights::ALL };
        }
        crate::seats::rights(&self.seats, token)
    }

    /// Checks that `rights` allow `need`; gives the side acted for.
    pub fn authorize(&self, rights: Rights, need: Need) -> Result<Color, ServerError> {
        let engine = [self.players[0].is_engine(), self.players[1].is_engine()];
        need.check(rights, self.to_move(), engine, self.id)
    }

    /// The row to store.
    pub fn row(&self) -> GameRow {
        let even = self.game.start().even();
        GameRow {
            id: self.id,
            created: self.created.clone(),
            updated: db::now(),
            variant: self.variant.clone(),
            start: self.start_text.clone(),
            headers: serde_json::to_string(&self.headers).unwrap_or_else(|_| "[]".into()),
            white: serde_json::to_string(&self.players[0]).unwrap_or_default(),
            black: serde_json::to_string(&self.players[1]).unwrap_or_default(),
            actions: self.actions_long().to_string(),
            n_actions: self.game.actions().len() as i64,
            result: self.result.clone(),
            termination: self.termination.clone(),
            clock: self.clock.as_ref().and_then(|c| {
                let mut c = c.clone();
                c.remaining_ms = [
                    c.now_ms(Color::White, self.game.to_move()),
                    c.now_ms(Color::Black, self.game.to_move()),
                ];
                serde_json::to_string(&c).ok()
            }),
            puzzle: self.puzzle.as_ref().and_then(|p| serde_json::to_string(p).ok()),
            pending: self
                .game
                .position()
                .action_moves()
                .map(|m| long::write_move(m, even) + "\n")
                .collect(),
            draw_offer: self.draw_offer.map(|c| color_name(c).to_string()),
        }
    }

    /// Whether the side to move is an engine that should be asked for an action.
    pub fn engine_to_move(&self) -> bool {
        !self.deleted && self.play.engine_to_move()
    }

    /// The pseudo-legal moves of the piece on `(l, t, square)`.
    pub fn moves_from(&self, l: i32, t: i32, square: &str) -> Result<Value, ServerError> {
        Ok(self.play.moves_from(l, t, square)?)
    }

    /// Plays one move of the current action, given in long form.
    pub fn play(&mut self, text: &str) -> Result<(), ServerError> {
        Ok(self.play.play(text)?)
    }

    /// Takes back the last move of the current action.
    pub fn undo(&mut self) -> Result<(), ServerError> {
        Ok(self.play.undo()?)
    }

    /// Submits the current action (by a human).
    pub fn submit(&mut self) -> Result<(), ServerError> {
        Ok(self.play.submit()?)
    }

    /// Plays and submits an engine's action.
    pub fn engine_action(&mut self, moves: &[Move]) -> Result<(), ServerError> {
        Ok(self.play.engine_action(moves)?)
    }

    /// Resigns for `color` (default: the side to move).
    pub fn resign(&mut self, color: Option<Color>) -> Result<(), ServerError> {
        Ok(self.play.resign(color)?)
    }

    /// Aborts the game for `c`, allowed until `c` has submitted an action: no result counts.
    pub fn abort(&mut self, c: Color) -> Result<(), ServerError> {
        Ok(self.play.abort(c)?)
    }

    /// Offers a draw for `c` (or accepts the other side's offer).
    pub fn offer_draw(&mut self, c: Color) -> Result<(), ServerError> {
        Ok(self.play.offer_draw(c)?)
    }

    /// Accepts the other side's draw offer for `c`.
    pub fn accept_draw(&mut self, c: Color) -> Result<(), ServerError> {
        Ok(self.play.accept_draw(c)?)
    }

    /// Declines (or, for the offering side, withdraws) the draw offer.
    pub fn decline_draw(&mut self, c: Color) -> Result<(), ServerError> {
        Ok(self.play.decline_draw(c)?)
    }

    /// The view of the game (at action `at` for review, else live) to write as JSON.
    fn view_of(&self, at: Option<usize>) -> chess5d_play::View<'_> {
        // The sides whose invite link is still open (nobody has taken it yet).
        let open: Vec<&str> = [Color::White, Color::Black]
            .into_iter()
            .filter(|c| self.seats.iter().any(|s| s.invite && s.sides[c.index()]))
            .map(color_name)
            .collect();
        self.play.view_of(
            at,
            self.id,
            [self.online[0] > 0, self.online[1] > 0],
            !self.seats.is_empty(),
            Some(open),
        )
    }

    /// The game state as JSON text: what the API answers and watchers are sent.
    pub fn view_text(&self, at: Option<usize>) -> String {
        chess5d_play::view_text(&self.view_of(at))
    }

    /// The game state as a JSON value, for answers that add to it.
    pub fn view(&self, at: Option<usize>) -> Value {
        chess5d_play::view_value(&self.view_of(at))
    }

    /// The summary line of the game list.
    pub fn summary(row: &GameRow) -> Value {
        let name = |p: &str| {
            serde_json::from_str::<Player>(p)
                .map(|p| p.display())
                .unwrap_or_else(|_| "?".into())
        };
        json!({
            "id": row.id, "white": name(&row.white), "black": name(&row.black), "variant": row.variant,
            "result": row.result.clone().unwrap_or_else(|| "*".into()), "termination": row.termination,
            "created": row.created, "updated": row.updated, "actions": row.n_actions,
            "puzzle": row.puzzle.as_deref().and_then(|p| serde_json::from_str::<PuzzleRun>(p).ok()).map(|p| p.name),
        })
    }
}
