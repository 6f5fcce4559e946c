//! The game service's rules of play: a request acted on for a requester (seats, whose turn), the
//! engine's turn as a request for work ([`Think`]), and what the door must do after a change
//! ([`Effects`]), with the stored form of a game ([`Record`]). No I/O: the server carries the
//! effects out with SQLite, engine processes and WebSockets, the static site with IndexedDB and a
//! Web Worker.

use crate::error::PlayError;
use crate::game::{Clock, Play, Player, PuzzleRun};
use crate::request::Action;
use crate::seats::{Need, Rights, Viewer};
use crate::terms::color_name;
use chess5d_notation::long;
use chess5d_rules::{Color, Move};
use serde::{Deserialize, Serialize};
use web_time::Instant;

/// The most actions a game may have; it is drawn there.
pub const MAX_ACTIONS: usize = 1000;

/// What the door must do after a change of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct Effects {
    /// Store the game's [`Record`].
    pub store: bool,
    /// Tell the watchers (each is sent its own view when that view changed: see
    /// [`Play::version_for`]).
    pub notify: bool,
    /// Start this engine search.
    pub think: Option<Think>,
}

/// An engine search the door must run for a game: its answer goes to [`Play::engine_answer`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Think {
    /// The game's version when asked (an answer for another version is dropped).
    pub version: u64,
    /// The side the engine plays.
    pub side: Color,
    /// The engine player (its configured engine, bot and time).
    pub player: Player,
    /// How long it may think.
    pub budget: ThinkBudget,
}

/// How long an engine may think. It crosses to the static site's worker as JSON
/// (`{"move_time": {"ms"}}` or `{"clock": {"remaining_ms", "increment_ms"}}`), where the same
/// [`ThinkBudget::limits`] turns it into the engine's limits as the server's driver does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ThinkBudget {
    /// A fixed time per action (no clock).
    MoveTime {
        /// Milliseconds.
        ms: u64,
    },
    /// The clock's times (the engine shares its time out).
    Clock {
        /// White's and Black's remaining milliseconds.
        remaining_ms: [u64; 2],
        /// The increment per action.
        increment_ms: u64,
    },
}

impl ThinkBudget {
    /// The engine's limits for this budget, the one rule of both doors: a fixed time as
    /// `go movetime`, a clock handed to the engine whole (`go wtime btime winc binc`, which the
    /// engine's time plan shares out), and at most `nodes` nodes of work when given.
    pub fn limits(&self, nodes: Option<u64>) -> chess5d_engine::Limits {
        use std::time::Duration;
        let go = match *self {
            ThinkBudget::MoveTime { ms } => chess5d_engine::Limits::movetime(Duration::from_millis(ms)),
            ThinkBudget::Clock {
                remaining_ms,
                increment_ms,
            } => {
                let ms = |i: usize| Some(Duration::from_millis(remaining_ms[i]));
                let inc = Some(Duration::from_millis(increment_ms));
                chess5d_engine::Limits {
                    wtime: ms(0),
                    btime: ms(1),
                    winc: inc,
                    binc: inc,
                    ..chess5d_engine::Limits::default()
                }
            }
        };
        chess5d_engine::Limits { nodes, ..go }
    }

    /// The longest a door waits for the answer of side `side`'s search: its time, or its whole
    /// remaining clock, plus a margin.
    pub fn wait(&self, side: Color) -> std::time::Duration {
        use std::time::Duration;
        match *self {
            ThinkBudget::MoveTime { ms } => Duration::from_millis(ms) + Duration::from_secs(10),
            ThinkBudget::Clock { remaining_ms, .. } => {
                Duration::from_millis(remaining_ms[side.index()]) + Duration::from_secs(5)
            }
        }
    }
}

/// A game as it is stored (a row of the server's table, an IndexedDB record of the static site).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// The game's id.
    pub id: i64,
    /// When it was made.
    pub created: String,
    /// When it last changed.
    pub updated: String,
    /// Its variant (`custom` for other starts).
    pub variant: String,
    /// The start position as 5DFEN.
    pub start: String,
    /// The headers kept from an import.
    pub headers: Vec<(String, String)>,
    /// White's player.
    pub white: Player,
    /// Black's player.
    pub black: Player,
    /// The submitted actions in long form, one a line.
    pub actions: String,
    /// Their count.
    pub n_actions: usize,
    /// The result once over.
    pub result: Option<String>,
    /// Why it ended.
    pub termination: Option<String>,
    /// The clock, its times as of `updated`.
    pub clock: Option<Clock>,
    /// The puzzle being solved.
    pub puzzle: Option<PuzzleRun>,
    /// The moves of the action being built (the side to move's tries), one a line.
    pub pending: String,
    /// The side offering a draw.
    pub draw_offer: Option<String>,
    /// The variations kept from an import, as Branched 5DPGN (empty if none): written once,
    /// when the game is made.
    #[serde(default)]
    pub variations: String,
}

impl Play {
    /// Marks a change everyone sees (a try changes only the trying side's view).
    pub fn bump(&mut self) {
        self.version += 1;
        self.public_at = self.version;
    }

    /// The version of the view `viewer` gets: it changes only when that view does (a try of the
    /// side to move changes only the views of its seat), and never goes down for a viewer.
    pub fn version_for(&self, viewer: Viewer) -> u64 {
        if viewer.sees_tries_of(self.to_move()) {
            self.version
        } else {
            self.public_at
        }
    }

    /// Acts on the game for a requester holding `rights` (game `game`): checks the seat, applies
    /// the request, and gives what the door must do.
    pub fn act(&mut self, rights: Rights, game: i64, action: Action) -> Result<Effects, PlayError> {
        let engine = [self.players[0].is_engine(), self.players[1].is_engine()];
        let side = action.need().check(rights, self.to_move(), engine, game)?;
        match action {
            Action::Move(m) => self.play(&m)?,
            Action::Undo => self.undo()?,
            Action::Submit => self.submit()?,
            Action::Resign(_) => self.resign(Some(side))?,
            Action::Abort(_) => self.abort(side)?,
            Action::Draw(crate::request::DrawAction::Offer, _) => self.offer_draw(side)?,
            Action::Draw(crate::request::DrawAction::Accept, _) => self.accept_draw(side)?,
            Action::Draw(crate::request::DrawAction::Decline, _) => self.decline_draw(side)?,
        }
        Ok(self.effects())
    }

    /// After a change: store, notify, and the engine's turn if it has come.
    pub fn effects(&mut self) -> Effects {
        Effects {
            store: true,
            notify: true,
            think: self.engine_turn(),
        }
    }

    /// The engine's turn, if it has come and no engine is at work or failed: the game is marked
    /// thinking (every view says so from now on) and the search is asked of the door.
    pub fn engine_turn(&mut self) -> Option<Think> {
        if !self.engine_to_move() || self.engine_busy || self.engine_error.is_some() {
            return None;
        }
        self.engine_busy = true;
        self.thinking_since = Some(Instant::now());
        self.bump();
        let side = self.to_move();
        let player = self.players[side.index()].clone();
        let budget = match &self.clock {
            Some(c) => ThinkBudget::Clock {
                remaining_ms: [Color::White, Color::Black].map(|col| c.now_ms(col, side).max(1) as u64),
                increment_ms: c.increment_ms,
            },
            None => ThinkBudget::MoveTime {
                ms: match &player {
                    Player::Engine { movetime_ms, .. } => movetime_ms.unwrap_or(crate::request::DEFAULT_MOVETIME_MS),
                    Player::Human { .. } => crate::request::DEFAULT_MOVETIME_MS,
                },
            },
        };
        Some(Think {
            version: self.version,
            side,
            player,
            budget,
        })
    }

    /// The engine's answer to the search asked at `version`: its action and report, or why it
    /// failed. An answer for another version (the game changed meanwhile) is dropped and the
    /// engine asked again if it is still its turn.
    pub fn engine_answer(&mut self, version: u64, answer: Result<(Vec<Move>, String), String>) -> Effects {
        self.engine_busy = false;
        if version != self.version {
            self.bump();
            return self.effects();
        }
        match answer {
            Ok((moves, info)) => {
                self.engine_info = Some(info);
                match self.engine_action(&moves) {
                    Ok(()) if self.game.actions().len() >= MAX_ACTIONS => self.finish("1/2-1/2", "action limit"),
                    Ok(()) => {}
                    Err(e) => self.engine_failed(&e.to_string()),
                }
            }
            Err(e) => self.engine_failed(&e),
        }
        self.effects()
    }

    /// Records an engine failure (the view's `engine_error`); the engine is not asked again until
    /// [`Play::retry_engine`].
    pub fn engine_failed(&mut self, message: &str) {
        self.engine_busy = false;
        let side = if self.to_move() == Color::White {
            "White"
        } else {
            "Black"
        };
        self.engine_error = Some(format!("{side}'s engine failed: {message}"));
        self.bump();
    }

    /// After an engine failure, for any seat of the game: asks the engine again.
    pub fn retry_engine(&mut self, rights: Rights, game: i64) -> Result<Effects, PlayError> {
        let engine = [self.players[0].is_engine(), self.players[1].is_engine()];
        Need::AnySeat.check(rights, self.to_move(), engine, game)?;
        if self.is_over() {
            return Err(PlayError::GameOver {
                termination: self.termination.clone(),
            });
        }
        if !self.engine_to_move() {
            return Err(PlayError::NotEngineTurn);
        }
        if self.engine_busy {
            return Err(PlayError::EngineBusy);
        }
        if self.engine_error.is_none() {
            return Err(PlayError::NoEngineProblem);
        }
        self.engine_error = None;
        self.bump();
        Ok(self.effects())
    }

    /// Game `id` after its first `at` submitted actions (all if `None`), with its headers:
    /// where an analysis board or a puzzle from a game starts.
    pub fn until(&self, id: i64, at: Option<usize>) -> Result<chess5d_notation::LoadedGame, PlayError> {
        let n = self.game.actions().len();
        let at = at.unwrap_or(n);
        if at > n {
            return Err(PlayError::AtBeyond {
                at,
                game: id,
                actions: n,
            });
        }
        let even = self.game.start().even();
        let actions: String = self.game.actions()[..at]
            .iter()
            .map(|a| long::write_action(&a.moves, even) + "\n")
            .collect();
        let mut loaded = long::read_game(&actions, Some(self.game.start().clone()))
            .map_err(|e| PlayError::internal(format!("replaying game {id}: {e}")))?;
        loaded.headers = self.headers.clone();
        Ok(loaded)
    }

    /// The game as stored, with id `id`, changed at `updated` (the clock's times as of now).
    pub fn record(&self, id: i64, updated: String) -> Record {
        let even = self.game.start().even();
        let mut clock = self.clock.clone();
        if let Some(c) = &mut clock {
            let tm = self.game.to_move();
            c.remaining_ms = [c.now_ms(Color::White, tm), c.now_ms(Color::Black, tm)];
        }
        Record {
            id,
            created: self.created.clone(),
            updated,
            variant: self.variant.clone(),
            start: self.start_text.clone(),
            headers: self.headers.clone(),
            white: self.players[0].clone(),
            black: self.players[1].clone(),
            actions: self.actions_long().into_owned(),
            n_actions: self.game.actions().len(),
            result: self.result.clone(),
            termination: self.termination.clone(),
            clock,
            puzzle: self.puzzle.clone(),
            pending: self
                .game
                .position()
                .action_moves()
                .map(|m| long::write_move(m, even) + "\n")
                .collect(),
            draw_offer: self.draw_offer.map(|c| color_name(c).to_string()),
            variations: self.variations.as_ref().map(|v| v.stored.clone()).unwrap_or_default(),
        }
    }

    /// A stored game, rebuilt (its clock runs again from now; a try that no longer applies is
    /// dropped with those after it).
    pub fn restore(r: &Record) -> Result<Play, PlayError> {
        let bad = |what: &str, e: String| PlayError::internal(format!("stored game {} has a bad {what}: {e}", r.id));
        let start = chess5d_notation::load(&r.start)
            .map_err(|e| bad("start position", e.to_string()))?
            .start()
            .clone();
        let loaded = long::read_game(&r.actions, Some(start)).map_err(|e| bad("action list", e.to_string()))?;
        let mut play = Play::with_defaults(loaded.into_game(), [r.white.clone(), r.black.clone()]);
        play.created = r.created.clone();
        play.variant = r.variant.clone();
        play.start_text = r.start.clone();
        play.headers = r.headers.clone();
        play.result = r.result.clone();
        play.termination = r.termination.clone();
        play.clock = r.clock.clone();
        play.puzzle = r.puzzle.clone();
        let runs = play.clock_runs();
        if let Some(c) = &mut play.clock {
            c.turn_started = runs.then(Instant::now);
        }
        play.variations = crate::variations::Variations::restore(&r.variations, &play.game)
            .map_err(|e| bad("variations", e))?
            .map(Box::new);
        play.after_change(true);
        play.draw_offer = match r.draw_offer.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
        for line in r.pending.lines().filter(|l| !l.trim().is_empty()) {
            if play.play_unchecked_text(line).is_err() {
                break;
            }
        }
        Ok(play)
    }
}
