//! The library's errors: a kind with its data, formatted only at the edge (the JavaScript
//! `Error` gets the message and the [`Error::code`]).

use chess5d_rules::{IllegalMove, SubmitError};
use std::fmt;

/// Why a call of the library failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A `format` argument the call does not know.
    UnknownFormat {
        /// The argument as given.
        format: String,
    },
    /// A variant name that is neither an official variant nor `custom`.
    UnknownVariant(String),
    /// The variant `custom` without any board to start from.
    CustomNeedsBoard,
    /// A custom start (Board object, 5DFEN) that is not a valid position: why.
    BadStart(String),
    /// A text (record, move, action, 5DFEN, JSON) that cannot be read: what and where.
    Unreadable {
        /// What was being read (`the record`, `the move 'e9'`).
        what: String,
        /// The reader's message, with its line and column.
        why: String,
    },
    /// A move that cannot be played now.
    IllegalMove {
        /// The move as given.
        text: String,
        /// The rules' reason.
        why: String,
    },
    /// An action whose number or colour (`7b.`) is not the action being played.
    WrongActionNumber {
        /// The prefix as written.
        written: String,
        /// The prefix of the action being played (`1w.`).
        expected: String,
    },
    /// The action under way cannot be submitted.
    CannotSubmit(SubmitError),
    /// A pass would leave the mover's royal piece capturable.
    CannotPass(SubmitError),
    /// `undo()` with no move under way.
    NothingToUndo,
    /// The call needs whole actions, and moves of an action are under way.
    ActionUnderWay,
    /// The position is too large for the call: `actions()` found more than this many.
    TooManyActions(usize),
    /// The search could not decide within its work budget.
    Undecided,
    /// A game with a pass has no text in this notation.
    PassHasNoText,
    /// A `state()` object that this library did not write.
    BadState(String),
    /// The side to move is checkmated (`true`) or stalemated (`false`): no pass (as the
    /// library, unless `skipDetection`).
    GameOver(bool),
}

impl Error {
    /// A short stable code for programs (`illegal_move`), the JavaScript `Error.code`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::UnknownFormat { .. } => "unknown_format",
            Error::UnknownVariant(_) => "unknown_variant",
            Error::CustomNeedsBoard => "custom_needs_board",
            Error::BadStart(_) => "bad_start",
            Error::Unreadable { .. } => "unreadable",
            Error::IllegalMove { .. } => "illegal_move",
            Error::WrongActionNumber { .. } => "wrong_action_number",
            Error::CannotSubmit(_) => "cannot_submit",
            Error::CannotPass(_) => "cannot_pass",
            Error::NothingToUndo => "nothing_to_undo",
            Error::ActionUnderWay => "action_under_way",
            Error::TooManyActions(_) => "too_many_actions",
            Error::Undecided => "undecided",
            Error::PassHasNoText => "pass_has_no_text",
            Error::BadState(_) => "bad_state",
            Error::GameOver(_) => "game_over",
        }
    }

    pub(crate) fn illegal(text: &str, why: impl fmt::Display) -> Error {
        Error::IllegalMove {
            text: text.trim().to_string(),
            why: why.to_string(),
        }
    }

    pub(crate) fn unreadable(what: impl Into<String>, why: impl fmt::Display) -> Error {
        Error::Unreadable {
            what: what.into(),
            why: why.to_string(),
        }
    }
}

impl From<IllegalMove> for Error {
    fn from(e: IllegalMove) -> Error {
        Error::IllegalMove {
            text: String::new(),
            why: e.to_string(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownFormat { format } => write!(
                f,
                "unknown format '{format}': use 'object', 'json', 'notation', 'notation_short' or '5dpgn' with tokens (5dpgn_active_timeline_superphysical)"
            ),
            Error::UnknownVariant(v) => write!(f, "unknown variant '{v}' (see the variants field for the names)"),
            Error::CustomNeedsBoard => {
                write!(f, "the variant 'custom' needs a board: give 5DFEN boards in the record, or a Board object")
            }
            Error::BadStart(why) => write!(f, "the custom start is not a valid position: {why}"),
            Error::Unreadable { what, why } => write!(f, "cannot read {what}: {why}"),
            Error::IllegalMove { text, why } if text.is_empty() => write!(f, "illegal move: {why}"),
            Error::IllegalMove { text, why } => write!(f, "illegal move '{text}': {why}"),
            Error::WrongActionNumber { written, expected } => {
                write!(f, "the move is marked '{written}' but the action being played is '{expected}'")
            }
            Error::CannotSubmit(e) => write!(f, "cannot submit: {e}"),
            Error::CannotPass(e) => write!(f, "cannot pass: {e}"),
            Error::NothingToUndo => write!(f, "nothing to undo: the action under way has no move"),
            Error::ActionUnderWay => {
                write!(f, "this lists whole actions: submit or undo the moves under way first")
            }
            Error::TooManyActions(n) => write!(
                f,
                "more than {n} actions: give a limit (actions(format, ..., {{limit}})) or use actionsIter()"
            ),
            Error::Undecided => write!(f, "the search could not decide this position within its work budget"),
            Error::PassHasNoText => write!(f, "a game with a pass cannot be written as a record"),
            Error::BadState(why) => write!(f, "not a state of this library: {why}"),
            Error::GameOver(mate) => write!(
                f,
                "cannot pass: the side to move is {}",
                if *mate { "checkmated" } else { "stalemated" }
            ),
        }
    }
}

impl std::error::Error for Error {}
