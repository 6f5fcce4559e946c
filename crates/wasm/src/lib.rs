//! chess5d in JavaScript: the API of 5d-chess-js 1.2 (`new Chess()`, `.move()`, `.submit()`,
//! `.inCheckmate`...) on the chess5d rules and notation crates, compiled to WebAssembly. The
//! npm package `chess5d` (folder `js/` of the repository) wraps the [`Core`] exported here in
//! the `Chess` class; this crate also builds and tests natively.
//!
//! ```
//! use chess5d_wasm::library::{Format, Library, Listing};
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
//! let notation = Format::parse("notation").unwrap();
//! // In checkmate: an empty array, whatever the format (as 5d-chess-js).
//! assert_eq!(chess.moves(notation, true, true, false, true).unwrap(), Listing::Nothing);
//! ```
#![deny(missing_docs)]

pub mod error;
pub mod library;
pub mod objects;

use error::Error;
use library::{ActionsIter, Format, Library, Listing};
use wasm_bindgen::prelude::*;

/// An error of the core as JavaScript receives it: a stable `code` and a message (the
/// `Chess` class turns it into an `Error` with both).
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct CoreError {
    code: &'static str,
    message: String,
}

#[wasm_bindgen]
impl CoreError {
    /// The error's kind ([`Error::code`]).
    #[wasm_bindgen(getter)]
    pub fn code(&self) -> String {
        self.code.to_string()
    }

    /// What is wrong and where.
    #[wasm_bindgen(getter)]
    pub fn message(&self) -> String {
        self.message.clone()
    }
}

impl From<Error> for CoreError {
    fn from(e: Error) -> CoreError {
        CoreError {
            code: e.code(),
            message: e.to_string(),
        }
    }
}

/// A list out of the core: compact numbers (objects, see [`objects`]) or text.
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct Out {
    listing: Listing,
}

#[wasm_bindgen]
impl Out {
    /// The numbers (empty for text).
    pub fn numbers(&self) -> Vec<i32> {
        match &self.listing {
            Listing::Numbers(n) => n.clone(),
            Listing::Text(_) | Listing::Nothing => Vec::new(),
        }
    }

    /// The text (`undefined` for numbers).
    pub fn text(&self) -> Option<String> {
        match &self.listing {
            Listing::Text(t) => Some(t.clone()),
            Listing::Numbers(_) | Listing::Nothing => None,
        }
    }

    /// Whether the answer is an empty array whatever the format.
    pub fn nothing(&self) -> bool {
        self.listing == Listing::Nothing
    }
}

fn out(listing: Listing) -> Out {
    Out { listing }
}

type R<T> = Result<T, CoreError>;

/// The state of one `Chess` object of the JavaScript package.
#[wasm_bindgen]
#[derive(Clone, Debug, Default)]
pub struct Core {
    lib: Library,
}

#[cfg(feature = "engine")]
#[wasm_bindgen]
extern "C" {
    /// A JavaScript function `(searched, positions) => boolean | undefined` (the review's
    /// progress callback).
    pub type ReviewProgress;
    #[wasm_bindgen(method, js_name = call)]
    fn call2(this: &ReviewProgress, this_arg: &JsValue, searched: u32, positions: u32) -> JsValue;
}

#[wasm_bindgen]
impl Core {
    /// A new game of `variant` (empty: Standard; a name, a short name, 5DFEN headers or a
    /// Board object in JSON).
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str) -> R<Core> {
        Ok(Core {
            lib: Library::new(variant)?,
        })
    }

    /// (With the `engine` feature: the engine module.) The computer review of the game's
    /// submitted actions (`chess5d_engine::review`, as
    /// `chess5d review --json` makes it): each position searched to `depth` actions, for at most
    /// `movetime_ms` and `nodes` nodes (0: no such limit; all 0: depth 4 within 1.2 s), one
    /// thread. `progress(searched, positions)` is called after each position; `false` stops the
    /// review (the actions reviewed so far are returned, `cancelled` true). Returns the review's
    /// JSON (`Review::json`).
    #[cfg(feature = "engine")]
    pub fn review(&self, depth: u32, movetime_ms: f64, nodes: f64, progress: Option<ReviewProgress>) -> String {
        use chess5d_engine::review::{ReviewOptions, Reviewer};
        let mut options = ReviewOptions::default();
        if depth > 0 || movetime_ms > 0.0 || nodes > 0.0 {
            options.limits = chess5d_engine::Limits {
                depth: (depth > 0).then_some(depth),
                movetime: (movetime_ms > 0.0).then(|| std::time::Duration::from_secs_f64(movetime_ms / 1000.0)),
                nodes: (nodes > 0.0).then_some(nodes as u64),
                ..chess5d_engine::Limits::default()
            };
        }
        options.engine.threads = 1;
        let mut reviewer = Reviewer::new(options);
        let cancel = reviewer.canceller();
        let result = self.lib.result();
        let review = reviewer.review_game(self.lib.game(), result, &mut |p| {
            if let Some(f) = &progress {
                let answer = f.call2(&JsValue::NULL, p.searched as u32, p.positions as u32);
                if answer.as_bool() == Some(false) {
                    cancel.cancel();
                }
            }
        });
        review.json().to_string()
    }

    /// A copy with the same state.
    pub fn copy(&self) -> Core {
        self.clone()
    }

    /// See [`Library::reset`].
    pub fn reset(&mut self, variant: &str) -> R<()> {
        Ok(self.lib.reset(variant)?)
    }

    /// See [`Library::import`].
    pub fn import(&mut self, text: &str, variant: &str) -> R<()> {
        Ok(self.lib.import(text, variant)?)
    }

    /// See [`Library::play_move`].
    #[wasm_bindgen(js_name = playMove)]
    pub fn play_move(&mut self, text: &str) -> R<()> {
        Ok(self.lib.play_move(text)?)
    }

    /// See [`Library::moveable`].
    pub fn moveable(&mut self, text: &str) -> bool {
        self.lib.moveable(text)
    }

    /// See [`Library::undo`].
    pub fn undo(&mut self) -> R<()> {
        Ok(self.lib.undo()?)
    }

    /// See [`Library::undoable`].
    pub fn undoable(&self) -> bool {
        self.lib.undoable()
    }

    /// See [`Library::submit`].
    pub fn submit(&mut self) -> R<()> {
        Ok(self.lib.submit()?)
    }

    /// See [`Library::submittable`].
    pub fn submittable(&self) -> bool {
        self.lib.submittable()
    }

    /// See [`Library::action`].
    pub fn action(&mut self, text: &str) -> R<()> {
        Ok(self.lib.action(text)?)
    }

    /// Whether [`Core::action`] would succeed.
    pub fn actionable(&self, text: &str) -> bool {
        self.lib.clone().action(text).is_ok()
    }

    /// See [`Library::pass`].
    pub fn pass(&mut self, detect: bool) -> R<()> {
        Ok(self.lib.pass(detect)?)
    }

    /// See [`Library::passable`].
    pub fn passable(&self, detect: bool) -> bool {
        self.lib.passable(detect)
    }

    /// See [`Library::in_check`].
    #[wasm_bindgen(js_name = inCheck)]
    pub fn in_check(&self) -> bool {
        self.lib.in_check()
    }

    /// See [`Library::in_checkmate`].
    #[wasm_bindgen(js_name = inCheckmate)]
    pub fn in_checkmate(&self) -> R<bool> {
        Ok(self.lib.in_checkmate()?)
    }

    /// See [`Library::in_stalemate`].
    #[wasm_bindgen(js_name = inStalemate)]
    pub fn in_stalemate(&self) -> R<bool> {
        Ok(self.lib.in_stalemate()?)
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
    pub fn moves(
        &self,
        format: &str,
        active_only: bool,
        present_only: bool,
        spatial_only: bool,
        detect: bool,
    ) -> R<Out> {
        let f = Format::lenient(format);
        Ok(out(self.lib.moves(
            f,
            active_only,
            present_only,
            spatial_only,
            detect,
        )?))
    }

    /// See [`Library::actions`] (`limit` below 0: none).
    pub fn actions(
        &self,
        format: &str,
        active_only: bool,
        present_only: bool,
        new_active_only: bool,
        limit: i32,
    ) -> R<Out> {
        let f = Format::lenient(format);
        let limit = usize::try_from(limit).ok();
        Ok(out(self.lib.actions(
            f,
            active_only,
            present_only,
            new_active_only,
            limit,
        )?))
    }

    /// The legal actions one at a time (see [`Library::actions_iter`]).
    #[wasm_bindgen(js_name = actionsCursor)]
    pub fn actions_cursor(&self, active_only: bool, present_only: bool, new_active_only: bool) -> R<Cursor> {
        Ok(Cursor {
            it: self.lib.actions_iter(active_only, present_only, new_active_only)?,
        })
    }

    /// See [`Library::checks`].
    pub fn checks(&self, format: &str) -> R<Out> {
        Ok(out(self.lib.checks(Format::lenient(format))))
    }

    /// See [`Library::board`].
    pub fn board(&self) -> Vec<i32> {
        self.lib.board()
    }

    /// See [`Library::board_history`].
    #[wasm_bindgen(js_name = boardHistory)]
    pub fn board_history(&self) -> Vec<i32> {
        self.lib.board_history()
    }

    /// See [`Library::action_history`].
    #[wasm_bindgen(js_name = actionHistory)]
    pub fn action_history(&self) -> Vec<i32> {
        self.lib.action_history()
    }

    /// See [`Library::move_buffer`].
    #[wasm_bindgen(js_name = moveBuffer)]
    pub fn move_buffer(&self) -> Vec<i32> {
        self.lib.move_buffer()
    }

    /// See [`Library::export`].
    pub fn export(&self, format: &str) -> R<Out> {
        Ok(out(self.lib.export(format)?))
    }

    /// See [`Library::fen`].
    pub fn fen(&self, full: bool) -> String {
        self.lib.fen(full)
    }

    /// Whether [`Core::set_fen`] would succeed (the library's `fenable`).
    pub fn fenable(&self, text: &str) -> bool {
        self.lib.clone().set_fen(text).is_ok()
    }

    /// See [`Library::set_fen`].
    #[wasm_bindgen(js_name = setFen)]
    pub fn set_fen(&mut self, text: &str) -> R<()> {
        Ok(self.lib.set_fen(text)?)
    }

    /// See [`Library::print`].
    pub fn print(&self, ours: bool) -> String {
        self.lib.print(ours)
    }

    /// See [`Library::state`].
    pub fn state(&self) -> String {
        self.lib.state()
    }

    /// See [`Library::set_state`].
    #[wasm_bindgen(js_name = setState)]
    pub fn set_state(&mut self, text: &str) -> R<()> {
        Ok(self.lib.set_state(text)?)
    }
}

/// The legal actions of a position, one at a time.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Cursor {
    it: ActionsIter,
}

#[wasm_bindgen]
impl Cursor {
    /// The next action in `format` (`undefined` at the end).
    pub fn next(&mut self, format: &str) -> R<Option<Out>> {
        let f = Format::lenient(format);
        Ok(self.it.next_action()?.map(|a| out(self.it.listing(&[a], f))))
    }
}

/// The variants (`[{name, shortName}]`, JSON): 5d-chess-js 1.2's, or with `all` every
/// official variant of chess5d.
#[wasm_bindgen]
pub fn variants(all: bool) -> String {
    library::variants_json(all)
}

/// The version of the package's Rust core.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
