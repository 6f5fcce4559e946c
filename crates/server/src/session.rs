//! Layer: domain: no HTTP.
//!
//! A game being played on the server: the game itself (chess5d-play's [`Play`], the game service
//! shared with the static site) with what only the server has: its id, seats, presence, storage.

use crate::db::{self, GameRow};
use crate::error::ServerError;
use crate::seats::{Need, Rights, Seat};
use chess5d_play::seats::Viewer;
pub use chess5d_play::{color_name, Player};
use chess5d_play::{Play, Shown};
use chess5d_rules::Color;
use serde_json::Value;
use std::ops::{Deref, DerefMut};

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
    /// A puzzle game's visitor (the hash of its id), whose progress its end is.
    pub visitor: Option<String>,
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
    /// A game of the service, not stored yet.
    pub fn wrap(play: Play) -> Session {
        Session {
            id: 0,
            play,
            deleted: false,
            seats: Vec::new(),
            online: [0, 0],
            presence: 0,
            visitor: None,
        }
    }

    /// Rebuilds a stored game.
    pub fn from_row(row: &GameRow) -> Result<Session, ServerError> {
        let mut s = Session::wrap(Play::restore(row)?);
        s.id = row.id;
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
        Ok(need.check(rights, self.to_move(), engine, self.id)?)
    }

    /// The row to store.
    pub fn row(&self) -> GameRow {
        self.play.record(self.id, db::now())
    }

    /// Whether the side to move is an engine that should be asked for an action.
    pub fn engine_to_move(&self) -> bool {
        !self.deleted && self.play.engine_to_move()
    }

    /// The view of the game for `viewer` (live, or the position `shown`) to write as JSON.
    fn view_of(&self, viewer: Viewer, shown: Shown) -> chess5d_play::View<'_> {
        // The sides whose invite link is still open (nobody has taken it yet).
        let open: Vec<&str> = [Color::White, Color::Black]
            .into_iter()
            .filter(|c| self.seats.iter().any(|s| s.invite && s.sides[c.index()]))
            .map(color_name)
            .collect();
        self.play.view_for(
            viewer,
            shown,
            self.id,
            [self.online[0] > 0, self.online[1] > 0],
            !self.seats.is_empty(),
            Some(open),
        )
    }

    /// The game state for `viewer` as JSON text: what the API answers and watchers are sent.
    pub fn view_text(&self, viewer: Viewer, shown: Shown) -> String {
        chess5d_play::view_text(&self.view_of(viewer, shown))
    }

    /// The game state for `viewer` as JSON text with the members of `extra` (an object) added:
    /// an answer that adds to the state without building the state as a JSON value (for a big
    /// game, a tree of tens of MB).
    pub fn view_text_with(&self, viewer: Viewer, extra: &Value) -> String {
        let mut text = self.view_text(viewer, Shown::Live);
        let members = extra.to_string();
        if let (Some(b'}'), Some(inner)) = (text.as_bytes().last(), members.strip_prefix('{')) {
            if inner != "}" {
                text.pop();
                text.push(',');
                text.push_str(inner);
            }
        }
        text
    }

    /// The game state for `viewer` as a JSON value, for answers that add to it.
    pub fn view(&self, viewer: Viewer, shown: Shown) -> Value {
        chess5d_play::view_value(&self.view_of(viewer, shown))
    }

    /// The viewer the holder of `token` is.
    pub fn viewer(&self, token: Option<&str>, public: bool) -> Viewer {
        self.rights(token, public).viewer()
    }

    /// The summary line of the game list.
    pub fn summary(row: &GameRow) -> Value {
        chess5d_play::listing::Summary::of(row).json()
    }
}
