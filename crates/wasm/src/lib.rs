//! chess5d in JavaScript: the seed library's API (5d-chess-js: `new Chess()`, `.move()`,
//! `.submit()`, `.inCheckmate`...) on the chess5d rules and notation crates, compiled to
//! WebAssembly. The npm package `chess5d` (folder `js/` of the repository) wraps the
//! [`Core`] exported here in the `Chess` class; this crate also builds and tests natively.
//!
//! ```
//! use chess5d_wasm::library::{Format, Library};
//!
//! let mut chess = Library::new("").unwrap();
//! for (i, m) in ["1w. 1:e2:e3", "1b. 1:f7:f6", "2w. 2:Qd1:e2", "2b. 2:Nb8:c6", "3w. 3:Qe2:h5"]
//!     .into_iter()
//!     .enumerate()
//! {
//!     chess.play_move(m).unwrap();
//!     chess.submit().unwrap();
//!     assert_eq!(chess.player(), if i % 2 == 0 { "black" } else { "white" });
//! }
//! assert!(chess.in_checkmate().unwrap());
//! assert_eq!(chess.moves(Format::Notation, true, true, true).unwrap(), "");
//! ```
#![deny(missing_docs)]

pub mod library;

use library::{Format, Library};
use wasm_bindgen::prelude::*;

fn err(e: String) -> JsError {
    JsError::new(&e)
}

/// The state of one `Chess` object of the JavaScript package (every method takes and gives
/// text: notation or JSON, which the JavaScript layer turns into objects).
#[wasm_bindgen]
#[derive(Clone, Debug, Default)]
pub struct Core {
    lib: Library,
}

#[wasm_bindgen]
impl Core {
    /// A new game of `variant` (empty: Standard; a name, a short name, 5DFEN headers or a
    /// Board object in JSON).
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str) -> Result<Core, JsError> {
        Ok(Core {
            lib: Library::new(variant).map_err(err)?,
        })
    }

    /// A copy with the same state.
    pub fn copy(&self) -> Core {
        self.clone()
    }

    /// See [`Library::reset`].
    pub fn reset(&mut self, variant: &str) -> Result<(), JsError> {
        self.lib.reset(variant).map_err(err)
    }

    /// See [`Library::import`].
    pub fn import(&mut self, text: &str, variant: &str) -> Result<(), JsError> {
        self.lib.import(text, variant).map_err(err)
    }

    /// See [`Library::play_move`].
    #[wasm_bindgen(js_name = playMove)]
    pub fn play_move(&mut self, text: &str) -> Result<(), JsError> {
        self.lib.play_move(text).map_err(err)
    }

    /// See [`Library::undo`].
    pub fn undo(&mut self) -> Result<(), JsError> {
        self.lib.undo().map_err(err)
    }

    /// See [`Library::undoable`].
    pub fn undoable(&self) -> bool {
        self.lib.undoable()
    }

    /// See [`Library::submit`].
    pub fn submit(&mut self) -> Result<(), JsError> {
        self.lib.submit().map_err(err)
    }

    /// See [`Library::action`].
    pub fn action(&mut self, text: &str) -> Result<(), JsError> {
        self.lib.action(text).map_err(err)
    }

    /// See [`Library::pass`].
    pub fn pass(&mut self) -> Result<(), JsError> {
        self.lib.pass().map_err(err)
    }

    /// See [`Library::in_check`].
    #[wasm_bindgen(js_name = inCheck)]
    pub fn in_check(&self) -> bool {
        self.lib.in_check()
    }

    /// See [`Library::in_checkmate`].
    #[wasm_bindgen(js_name = inCheckmate)]
    pub fn in_checkmate(&self) -> Result<bool, JsError> {
        self.lib.in_checkmate().map_err(err)
    }

    /// See [`Library::in_stalemate`].
    #[wasm_bindgen(js_name = inStalemate)]
    pub fn in_stalemate(&self) -> Result<bool, JsError> {
        self.lib.in_stalemate().map_err(err)
    }

    /// See [`Library::action_number`].
    #[wasm_bindgen(js_name = actionNumber)]
    pub fn action_number(&self) -> i32 {
        self.lib.action_number()
    }

    /// See [`Library::player`].
    pub fn player(&self) -> String {
        self.lib.player().to_string()
    }

    /// See [`Library::hash`].
    pub fn hash(&self) -> String {
        self.lib.hash()
    }

    /// See [`Library::moves`].
    pub fn moves(&self, format: &str, active_only: bool, present_only: bool, detect: bool) -> Result<String, JsError> {
        let f = Format::parse(format).map_err(err)?;
        self.lib.moves(f, active_only, present_only, detect).map_err(err)
    }

    /// See [`Library::actions`].
    pub fn actions(
        &self,
        format: &str,
        active_only: bool,
        present_only: bool,
        new_active_only: bool,
    ) -> Result<String, JsError> {
        let f = Format::parse(format).map_err(err)?;
        self.lib
            .actions(f, active_only, present_only, new_active_only)
            .map_err(err)
    }

    /// See [`Library::checks`].
    pub fn checks(&self, format: &str) -> Result<String, JsError> {
        Ok(self.lib.checks(Format::parse(format).map_err(err)?))
    }

    /// See [`Library::board`].
    pub fn board(&self) -> String {
        self.lib.board()
    }

    /// See [`Library::board_history`].
    #[wasm_bindgen(js_name = boardHistory)]
    pub fn board_history(&self) -> String {
        self.lib.board_history()
    }

    /// See [`Library::action_history`].
    #[wasm_bindgen(js_name = actionHistory)]
    pub fn action_history(&self) -> String {
        self.lib.action_history()
    }

    /// See [`Library::move_buffer`].
    #[wasm_bindgen(js_name = moveBuffer)]
    pub fn move_buffer(&self) -> String {
        self.lib.move_buffer()
    }

    /// See [`Library::export`].
    pub fn export(&self, format: &str) -> Result<String, JsError> {
        self.lib.export(format).map_err(err)
    }

    /// See [`Library::fen`].
    pub fn fen(&self, full: bool) -> String {
        self.lib.fen(full)
    }

    /// See [`Library::print`].
    pub fn print(&self) -> String {
        self.lib.print()
    }
}

/// The variants (`[{name, shortName}]`, JSON).
#[wasm_bindgen]
pub fn variants() -> String {
    library::variants_json()
}

/// Whether 5DFEN text (boards, optionally with 5DPGN headers) reads as a valid position.
#[wasm_bindgen]
pub fn fenable(text: &str) -> bool {
    library::start_of(text).is_ok()
}

/// The version of the package's Rust core.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
