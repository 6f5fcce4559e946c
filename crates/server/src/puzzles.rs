//! The built-in puzzle collection (files in `data/puzzles/`, embedded in the binary).
//!
//! Each file is a 5DPGN record; the puzzle is the position after its last action, and the side
//! to move must mate within the `Puzzle "mate-in-N"` header's N actions (1 if absent).

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

macro_rules! puzzle {
    ($id:expr, $name:expr) => {
        Puzzle {
            id: $id,
            name: $name,
            text: include_str!(concat!("../data/puzzles/", $id, ".5dpgn")),
        }
    };
}

/// Every built-in puzzle, easiest first.
pub const PUZZLES: &[Puzzle] = &[
    puzzle!("rook-tactics-1", "Rook tactics 1"),
    puzzle!("standard-mate-1", "Standard mate 1"),
    puzzle!("brawn-tactics-1", "Brawn tactics 1"),
    puzzle!("rook-tactics-3", "Rook tactics 3"),
    puzzle!("rook-tactics-4", "Rook tactics 4"),
    puzzle!("advanced-branching-2", "Advanced branching 2"),
    puzzle!("rook-tactics-2", "Rook tactics 2 (mate in 2)"),
    puzzle!("underpromotion", "Underpromotion (mate in 2)"),
];

impl Puzzle {
    /// The record, loaded.
    pub fn load(&self) -> Result<LoadedGame, String> {
        chess5d_notation::load(self.text).map_err(|e| format!("puzzle {}: {e}", self.id))
    }

    /// How many actions the solver has.
    pub fn mate_in(&self, loaded: &LoadedGame) -> usize {
        loaded
            .header("Puzzle")
            .and_then(|p| {
                p.to_ascii_lowercase()
                    .strip_prefix("mate-in-")
                    .and_then(|n| n.trim().parse().ok())
            })
            .unwrap_or(1)
    }

    /// Finds a puzzle by id.
    pub fn by_id(id: &str) -> Option<&'static Puzzle> {
        PUZZLES.iter().find(|p| p.id == id)
    }
}
