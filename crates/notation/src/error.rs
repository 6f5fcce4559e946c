//! Error types: syntax ([`ParseError`]), start positions ([`SetupError`](chess5d_rules::SetupError)
//! wrapped in [`Error::Setup`]) and legality ([`ResolveError`]), gathered in [`Error`].

use chess5d_rules::{IllegalMove, SetupError, SubmitError};
use std::fmt;

/// A place in a text: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, counted in characters.
    pub column: usize,
}

impl Span {
    /// A span at `line`, `column`.
    pub fn new(line: usize, column: usize) -> Span {
        Span { line, column }
    }

    /// The span of byte offset `offset` in `text`.
    pub fn of_offset(text: &str, offset: usize) -> Span {
        let mut line = 1;
        let mut column = 1;
        for (i, c) in text.char_indices() {
            if i >= offset {
                break;
            }
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        Span { line, column }
    }

    /// This span moved right by `chars` characters.
    pub fn shifted(self, chars: usize) -> Span {
        Span {
            line: self.line,
            column: self.column + chars,
        }
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// A syntax error: where, what was expected, what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where the problem is.
    pub span: Span,
    /// What the parser expected, e.g. "a square like e4".
    pub expected: String,
    /// What it found (a short excerpt; empty at the end of the input).
    pub found: String,
}

impl ParseError {
    /// An error at `span`.
    pub fn new(span: Span, expected: impl Into<String>, found: impl Into<String>) -> ParseError {
        ParseError {
            span,
            expected: expected.into(),
            found: found.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.found.is_empty() {
            write!(
                f,
                "{}: expected {}, found the end of the input",
                self.span, self.expected
            )
        } else {
            write!(f, "{}: expected {}, found '{}'", self.span, self.expected, self.found)
        }
    }
}

impl std::error::Error for ParseError {}

/// Why a written move does not resolve to a single legal move, or an action cannot be submitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// No pseudo-legal move matches the text; the string says what was looked for.
    NoMatch(String),
    /// Several moves match; their long forms.
    Ambiguous(Vec<String>),
    /// The rules refuse the move.
    Illegal(IllegalMove),
    /// The rules refuse to submit the action.
    Submit(SubmitError),
    /// Something this crate or the rules cannot represent (e.g. null moves).
    Unsupported(String),
    /// The action is written for the other player.
    WrongSide(String),
    /// A variation does not fit where it is written.
    Variation(String),
    /// The turn number written before the action is not the action's.
    TurnNumber(String),
    /// The game had ended (checkmate or stalemate) before this action.
    GameOver(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NoMatch(s) => write!(f, "no legal move matches: {s}"),
            Reason::Ambiguous(c) => write!(f, "ambiguous, it could be any of {}", c.join(", ")),
            Reason::Illegal(e) => write!(f, "illegal move: {e}"),
            Reason::Submit(e) => write!(f, "cannot submit the action: {e}"),
            Reason::Unsupported(s) => write!(f, "unsupported: {s}"),
            Reason::WrongSide(s) | Reason::Variation(s) | Reason::TurnNumber(s) | Reason::GameOver(s) => f.write_str(s),
        }
    }
}

/// A move or action of a game record that does not fit the position it is played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError {
    /// The action number, from 1 (the first action of the record is 1).
    pub action: usize,
    /// The move as written (the whole action for submit errors).
    pub text: String,
    /// Where it is written.
    pub span: Span,
    /// Why it fails.
    pub reason: Reason,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "action {}, '{}' at {}: {}",
            self.action, self.text, self.span, self.reason
        )
    }
}

impl std::error::Error for ResolveError {}

/// Any error of this crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The text is not well formed.
    Parse(ParseError),
    /// The start position described by the headers is not valid (or is missing).
    Setup(StartError),
    /// A move or action does not fit the game.
    Resolve(ResolveError),
}

/// Why the start position of a record cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The boards do not form a valid position.
    Invalid(SetupError),
    /// The headers do not say enough, or contradict each other.
    Headers(String),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Invalid(e) => write!(f, "invalid start position: {e}"),
            StartError::Headers(s) => write!(f, "start position: {s}"),
        }
    }
}

impl std::error::Error for StartError {}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(e) => e.fmt(f),
            Error::Setup(e) => e.fmt(f),
            Error::Resolve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(e)
    }
}

impl From<ResolveError> for Error {
    fn from(e: ResolveError) -> Self {
        Error::Resolve(e)
    }
}

impl From<StartError> for Error {
    fn from(e: StartError) -> Self {
        Error::Setup(e)
    }
}

impl From<SetupError> for Error {
    fn from(e: SetupError) -> Self {
        Error::Setup(StartError::Invalid(e))
    }
}

/// A non-fatal remark made while reading, e.g. a capture mark on a move that captures nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Where.
    pub span: Span,
    /// What.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}
