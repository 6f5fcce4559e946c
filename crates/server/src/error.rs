//! Layer: the ground, below storage. The one error type of the server, shared by every layer
//! (the HTTP layer turns it into a JSON answer with its status code).

use std::fmt;

/// An error of the server: a bad request, a missing game, a conflict with the game's state, or
/// a failure inside the server. Every API error is answered as `{"error": "..."}` with the
/// matching status code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerError {
    /// 400: the request is malformed or asks for something illegal.
    BadRequest(String),
    /// 403: the request lacks the seat (or the right) for this change.
    Forbidden(String),
    /// 404: no such game, puzzle or page.
    NotFound(String),
    /// 409: the request does not fit the game's state (game over, engine's turn...).
    Conflict(String),
    /// 413: the request body is too large.
    TooLarge(String),
    /// 500: storage or engine failure.
    Internal(String),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::BadRequest(m)
            | ServerError::Forbidden(m)
            | ServerError::NotFound(m)
            | ServerError::Conflict(m)
            | ServerError::TooLarge(m)
            | ServerError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ServerError {}

impl From<rusqlite::Error> for ServerError {
    fn from(e: rusqlite::Error) -> Self {
        ServerError::Internal(format!("database error: {e}"))
    }
}
