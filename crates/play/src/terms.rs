//! The words and bounds every part of the service shares: how a side is named in the API, the
//! longest name, the deepest puzzle, the most analysis lines, the seat token's header. They
//! stand at the bottom so that errors can name them without importing what uses them.

use chess5d_rules::Color;

/// The longest player or puzzle name, in characters.
pub const MAX_NAME: usize = 60;

/// The color's name in the API (`white`, `black`).
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The most lines an analysis shows (`MultiPV`); the analysis board asks for
/// [`ANALYSIS_LINES`] unless told otherwise.
pub const MAX_ANALYSIS_LINES: usize = 8;
/// The lines an analysis board shows by default: the engine's three best actions.
pub const ANALYSIS_LINES: usize = 3;

/// The longest mate a saved puzzle may ask for (the proof tries every action of both sides).
pub const MAX_MATE_IN: usize = 3;

/// The HTTP header (and query parameter) a seat's token travels in.
pub const TOKEN_HEADER: &str = "x-chess5d-seat";
