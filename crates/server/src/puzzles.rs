//! Layer: domain: no HTTP.
//!
//! The built-in puzzle collection (files in `data/puzzles/`, embedded in the binary).
//!
//! Each file is a 5DPGN record; the puzzle is the position after its last action, and the side
//! to move must mate within the `Puzzle "mate-in-N"` header's N actions (1 if absent). Most come
//! from the puzzles of the shared corpus; the `engine-game-*` ones are positions of games between
//! the built-in engines, found and proven by `examples/engine_puzzles.rs` with
//! [`forced_mate_in`] (see `data/puzzles/README.md`).

use chess5d_notation::LoadedGame;

/// A puzzle of the collection.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// Short id (the file name without extension).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// The 5DPGN record.
    pub text: &'static str,
}

/// Every built-in puzzle, easiest first: the list is `data/puzzles/list.tsv` (one home, which the
/// static site's build reads too), turned into this table by `build.rs`.
pub const PUZZLES: &[Puzzle] = include!(concat!(env!("OUT_DIR"), "/puzzles.rs"));

impl Puzzle {
    /// The record, loaded.
    pub fn load(&self) -> Result<LoadedGame, String> {
        chess5d_notation::load(self.text).map_err(|e| format!("puzzle {}: {e}", self.id))
    }

    /// Finds a puzzle by id.
    pub fn by_id(id: &str) -> Option<&'static Puzzle> {
        PUZZLES.iter().find(|p| p.id == id)
    }
}

pub use chess5d_play::proof::forced_mate_in;

/// The built-in puzzles as the static site's service takes them (`chess5d_local::Backend::new`:
/// `{puzzles: [{id, name, pgn}]}`), so that both doors list the same.
pub fn builtin_json() -> String {
    let list: Vec<serde_json::Value> = PUZZLES
        .iter()
        .map(|p| serde_json::json!({ "id": p.id, "name": p.name, "pgn": p.text }))
        .collect();
    serde_json::json!({ "puzzles": list }).to_string()
}
