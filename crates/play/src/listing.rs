//! What both doors answer beside a game's own view, modelled once: the service's info
//! (`GET /api/info`), a game's summary (`GET /api/games`), a puzzle of the list
//! (`GET /api/puzzles`), a page of a list, and an analysis board's state
//! (`/api/analysis/:id`). The server adds what only it has (its memory figures, a board's
//! token); the static site answers with these as they are.

use crate::game::Play;
use crate::seats::Rights;
use crate::service::Record;
use crate::view::Shown;
use chess5d_engine::Bot;
use chess5d_notation::LoadedGame;
use chess5d_rules::VARIANTS;
use serde::Serialize;
use serde_json::{json, Value};

/// `GET /api/info`: the engines, the built-in engine's bots, the variants, and whether the
/// service is public.
#[derive(Clone, Debug, Serialize)]
pub struct Info {
    /// The engines a game may name.
    pub engines: Vec<String>,
    /// The built-in engine's bots.
    pub bots: Vec<&'static str>,
    /// The variants (`{name, size, even}`).
    pub variants: Vec<Value>,
    /// Whether anyone may watch any game.
    pub public: bool,
}

impl Info {
    /// The info of a service with these engines.
    pub fn new(engines: Vec<String>, public: bool) -> Info {
        Info {
            engines,
            bots: Bot::ALL.iter().map(|b| b.name()).collect(),
            variants: VARIANTS
                .iter()
                .map(|v| json!({"name": v.name, "size": format!("{}x{}", v.width, v.height), "even": v.even}))
                .collect(),
            public,
        }
    }

    /// As JSON.
    pub fn json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A game in the list of games.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Its id.
    pub id: i64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Its variant.
    pub variant: String,
    /// Its result, `*` while it goes on.
    pub result: String,
    /// Why it ended.
    pub termination: Option<String>,
    /// When it was made.
    pub created: String,
    /// When it last changed.
    pub updated: String,
    /// How many actions were submitted.
    pub actions: usize,
    /// The puzzle it solves.
    pub puzzle: Option<String>,
}

impl Summary {
    /// The summary of a stored game.
    pub fn of(r: &Record) -> Summary {
        Summary {
            id: r.id,
            white: r.white.display(),
            black: r.black.display(),
            variant: r.variant.clone(),
            result: r.result.clone().unwrap_or_else(|| "*".into()),
            termination: r.termination.clone(),
            created: r.created.clone(),
            updated: r.updated.clone(),
            actions: r.n_actions,
            puzzle: r.puzzle.as_ref().map(|p| p.name.clone()),
        }
    }

    /// As JSON.
    pub fn json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A puzzle of the list: built in or made by a player.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleEntry {
    /// Its id (`user-<n>` for a made one).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Mate in how many actions (none for a record that does not load).
    pub mate_in: Option<usize>,
    /// The solver (`white`, `black`).
    pub to_move: Option<String>,
    /// The visitor's progress: `unsolved`, `solved`, `failed`.
    pub status: String,
    /// Made by a player.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub made: bool,
}

impl PuzzleEntry {
    /// A built-in puzzle, from its record.
    pub fn built_in(id: &str, name: &str, loaded: Option<&LoadedGame>, status: String) -> PuzzleEntry {
        PuzzleEntry {
            id: id.to_string(),
            name: name.to_string(),
            mate_in: loaded.map(crate::proof::mate_in_of),
            to_move: loaded.map(|l| crate::color_name(l.game().to_move()).to_string()),
            status,
            made: false,
        }
    }

    /// A puzzle made by a player.
    pub fn made(id: String, name: String, mate_in: usize, to_move: String, status: String) -> PuzzleEntry {
        PuzzleEntry {
            id,
            name,
            mate_in: Some(mate_in),
            to_move: Some(to_move),
            status,
            made: true,
        }
    }

    /// As JSON.
    pub fn json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A page of a list: `{<name>: [...], total, offset, next}` (`next`: the offset of the next
/// page, null on the last).
pub fn page_json(name: &str, list: Vec<Value>, total: usize, offset: usize) -> Value {
    let next = (offset + list.len() < total && !list.is_empty()).then_some(offset + list.len());
    json!({ name: list, "total": total, "offset": offset, "next": next })
}

/// What an analysis board keeps beside its scratch game: the game it was taken from, how many
/// actions it had there (the branch point, below which nothing is taken back), and the whole
/// game's 5DPGN for the export.
#[derive(Clone, Debug)]
pub struct Scratch {
    /// The game it was taken from.
    pub from_game: Option<i64>,
    /// Its actions when taken.
    pub base_actions: usize,
    /// The whole game as 5DPGN.
    pub game_pgn: String,
}

impl Scratch {
    /// The board's state (`GET /api/analysis/:id`), or (`at`) the position after its first
    /// `at` actions: the game's view with the start as 5DFEN (`fen`) and the board's `analysis`
    /// (`{id, game, base_actions, tried}`, and `token` where boards have owners).
    pub fn state(&self, play: &Play, id: u64, token: Option<&str>, at: Option<usize>) -> Value {
        let shown = at.map_or(Shown::Live, Shown::At);
        // As a game's view with no seats and no invites (the game's id is the board's own).
        let mut v =
            crate::view_value(&play.view_for(Rights::ALL.viewer(), shown, 0, [false, false], false, Some(vec![])));
        let mut game = play.game.clone();
        while game.undo_move().is_some() {}
        v["fen"] = json!(chess5d_notation::write_5dfen(game.position()));
        let mut a = json!({
            "id": id, "game": self.from_game, "base_actions": self.base_actions,
            "tried": play.game.actions().len().saturating_sub(self.base_actions),
        });
        if let Some(t) = token {
            a["token"] = json!(t);
        }
        v["analysis"] = a;
        v
    }

    /// The game with the board's line as a variation, as 5DPGN.
    pub fn export(&self, play: &Play) -> Result<String, crate::PlayError> {
        crate::export_variation(&self.game_pgn, self.base_actions, &play.game)
    }
}
