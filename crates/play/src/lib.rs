//! A game being played, without I/O: rules state, players, clock, result, and the JSON view the
//! server's API and the browser's local back-end both answer with (API.md). Time comes from
//! `web-time` (std's `Instant` natively, `performance.now()` in the browser).
//!
//! The modules stand in floors, each using only those below it: the shared words ([`terms`]),
//! errors, seats, what a game keeps written out (`cache`), its texts (notation of lines and
//! scores), the puzzle proof, the game itself ([`Play`]), its view per viewer, the typed
//! requests and, on top, the service that acts on them.
#![deny(missing_docs)]

mod cache;
pub mod call;
mod error;
mod game;
pub mod lesson;
pub mod listing;
pub mod mates;
pub mod mistakes;
pub mod proof;
pub mod request;
pub mod review;
pub mod seats;
mod service;
pub mod terms;
mod text;
mod variations;
mod view;

pub use error::{ErrorKind, PlayError};
pub use game::{Checkpoint, Clock, Play, Player, PuzzleRun};
pub use request::analysis_multipv;
pub use service::{Effects, Record, Think, ThinkBudget};
pub use terms::{color_name, ANALYSIS_LINES, MAX_ANALYSIS_LINES, MAX_NAME};
pub use text::{
    eval_text, export_variation, game_movetext, move_json, movetext, pv_json, variant_name, white_score, AnalysisLine,
    AnalysisLines,
};
pub use view::{view_text, view_value, Shown, View};
