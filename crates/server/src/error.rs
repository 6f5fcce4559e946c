//! Layer: the ground, below storage. The one error type of the server, shared by every layer:
//! the game service's refusals ([`PlayError`], a kind with its data) and the server's own. The
//! HTTP layer turns its [`ErrorKind`] into a status code by the service's one table
//! ([`ErrorKind::http_status`], read in `extract.rs`).

pub use chess5d_play::{ErrorKind, PlayError};
use std::fmt;

/// An error of the server. Every API error is answered as `{"error": "...", "kind": "..."}`
/// with the status code of its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerError {
    /// A refusal of the game service.
    Play(PlayError),
    /// The request is malformed (the server's own requests: seats, challenges, queries).
    BadRequest(String),
    /// The request lacks the seat (or the right) for this change.
    Forbidden(String),
    /// No such game, challenge or page.
    NotFound(String),
    /// The request does not fit the state (a challenge taken...).
    Conflict(String),
    /// The request body is too large.
    TooLarge(String),
    /// The client (or everyone) holds or asked for too much at once (a limit of `limits`).
    Limited(String),
    /// Storage or engine failure.
    Internal(String),
}

impl ServerError {
    /// The error's family (what the HTTP layer maps to a status).
    pub fn kind(&self) -> ErrorKind {
        match self {
            ServerError::Play(e) => e.kind(),
            ServerError::BadRequest(_) => ErrorKind::Invalid,
            ServerError::Forbidden(_) => ErrorKind::Forbidden,
            ServerError::NotFound(_) => ErrorKind::NotFound,
            ServerError::Conflict(_) => ErrorKind::Conflict,
            ServerError::TooLarge(_) => ErrorKind::TooLarge,
            ServerError::Limited(_) => ErrorKind::Limited,
            ServerError::Internal(_) => ErrorKind::Internal,
        }
    }
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Play(e) => e.fmt(f),
            ServerError::BadRequest(m)
            | ServerError::Forbidden(m)
            | ServerError::NotFound(m)
            | ServerError::Conflict(m)
            | ServerError::TooLarge(m)
            | ServerError::Limited(m)
            | ServerError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ServerError {}

impl From<PlayError> for ServerError {
    fn from(e: PlayError) -> ServerError {
        ServerError::Play(e)
    }
}

impl From<rusqlite::Error> for ServerError {
    fn from(e: rusqlite::Error) -> Self {
        ServerError::Internal(format!("database error: {e}"))
    }
}
