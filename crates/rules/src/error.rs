//! Error types of the rules: invalid setups, illegal moves, refused submissions.
//!
//! Places are stored as they are written in notation (`(0T1)e2`, `(-0T3)`), so that messages
//! read the same in games with an odd or even number of starting timelines.

use crate::types::{Piece, Role, Size};
use std::fmt;

/// Why a [`Setup`](crate::Setup) is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// Boards must be between 1x1 and 8x8.
    BadSize(Size),
    /// A position needs at least one board.
    NoBoards,
    /// Two boards at the same place (internal timeline index, half-turn).
    DuplicateBoard(i32, i32),
    /// A piece outside the board's size: board (internal timeline, half-turn) and square name.
    PieceOffBoard(i32, i32, String),
    /// Timeline numbers must be consecutive; this internal index is missing.
    MissingTimeline(i32),
    /// A timeline's boards must follow each other without a gap (internal timeline, half-turn).
    Gap(i32, i32),
    /// More timelines than any game can have.
    TooManyTimelines,
    /// Pawns cannot promote to royal pieces or pawns.
    BadPromotion,
    /// A pawn (or brawn) stands on the rank where it promotes: no game can reach that. The piece (`white pawn`) and its square as written (`(0T1)e8`).
    PawnOnEndRank(String, String),
    /// The side to move can capture a royal piece: the other side's last action left it in
    /// check. The royal piece and its square, and the attacker's square, as written.
    RoyalCapturable {
        /// `black king on (0T1)a8`.
        royal: String,
        /// `(0T1)a1`.
        from: String,
    },
}

fn place(l: i32, t: i32) -> String {
    format!(
        "timeline index {l}, turn {} ({})",
        t.div_euclid(2),
        if t.rem_euclid(2) == 0 { "white" } else { "black" }
    )
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::BadSize(s) => write!(f, "board size {s} is not between 1x1 and 8x8"),
            SetupError::NoBoards => write!(f, "the position has no board"),
            SetupError::DuplicateBoard(l, t) => write!(f, "two boards at {}", place(*l, *t)),
            SetupError::PieceOffBoard(l, t, sq) => write!(f, "piece on {sq} at {} is outside the board", place(*l, *t)),
            SetupError::MissingTimeline(l) => write!(f, "timeline index {l} is missing between the others"),
            SetupError::Gap(l, t) => write!(
                f,
                "the board at {} does not follow the previous board of its timeline",
                place(*l, *t)
            ),
            SetupError::TooManyTimelines => write!(f, "too many timelines"),
            SetupError::BadPromotion => write!(f, "pawns cannot promote to royal pieces or pawns"),
            SetupError::PawnOnEndRank(piece, at) => write!(
                f,
                "the {piece} on {at} stands on the rank where it promotes (it would have promoted)"
            ),
            SetupError::RoyalCapturable { royal, from } => {
                write!(f, "the {royal} can be captured by the side to move: {from}")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The board does not exist (written as in notation, e.g. `(2T5)`).
    NoSuchBoard(String),
    /// The source board is not the latest board of its timeline, or not the mover's colour.
    NotPlayable(String),
    /// No piece on the source square.
    NoPiece(String),
    /// The piece belongs to the other player.
    NotYourPiece(String),
    /// The piece cannot move there.
    CannotReach {
        /// The piece.
        piece: Piece,
        /// Its square.
        from: String,
        /// The square it cannot reach.
        to: String,
    },
    /// A pawn or brawn that has moved tries the two-step (two ranks, or two timelines) that
    /// only its first move may make. Records from clients with other pawn rules meet this (the
    /// alexbay client let a moved pawn step two timelines).
    NotFirstMove {
        /// The piece.
        piece: Piece,
        /// Its square.
        from: String,
        /// The square two steps ahead.
        to: String,
    },
    /// The promotion role is not allowed here.
    BadPromotion(Role),
    /// The game is over.
    GameOver,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NoSuchBoard(b) => write!(f, "there is no board {b}"),
            IllegalMove::NotPlayable(b) => write!(f, "board {b} is not playable by the side to move"),
            IllegalMove::NoPiece(c) => write!(f, "no piece on {c}"),
            IllegalMove::NotYourPiece(c) => write!(f, "the piece on {c} belongs to the other player"),
            IllegalMove::CannotReach { piece, from, to } => {
                write!(
                    f,
                    "the {} {} on {from} cannot move to {to}",
                    piece.color(),
                    piece.role()
                )
            }
            IllegalMove::NotFirstMove { piece, from, to } => write!(
                f,
                "the {} {} on {from} cannot move to {to}: only an unmoved {} may step two ranks or two timelines, and this one has moved",
                piece.color(),
                piece.role(),
                piece.role()
            ),
            IllegalMove::BadPromotion(r) => write!(f, "promotion to a {r} is not allowed here"),
            IllegalMove::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why the action built so far cannot be submitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubmitError {
    /// No move was played.
    NoMove,
    /// A board in the present still needs a move.
    MandatoryBoard(String),
    /// The opponent could capture a royal piece.
    RoyalCapturable {
        /// The attacker's square.
        from: String,
        /// The royal piece's square.
        to: String,
    },
}

impl fmt::Display for SubmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubmitError::NoMove => write!(f, "an action needs at least one move"),
            SubmitError::MandatoryBoard(b) => write!(f, "board {b} is in the present and still needs a move"),
            SubmitError::RoyalCapturable { from, to } => {
                write!(f, "the royal piece on {to} could be captured from {from}")
            }
        }
    }
}

impl std::error::Error for SubmitError {}
