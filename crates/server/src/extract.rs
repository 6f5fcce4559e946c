//! Layer: HTTP (its bottom). What requests and answers are made of: a JSON body whose every
//! rejection is a JSON error, the seat token of the `X-Chess5d-Seat` header, and the JSON error
//! answer of [`ServerError`].

use crate::error::ServerError;
use crate::seats::{SeatToken, TOKEN_HEADER};
use axum::async_trait;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde_json::json;

/// Largest request body accepted.
pub const BODY_LIMIT: usize = 256 * 1024;

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let status = match &self {
            ServerError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServerError::Forbidden(_) => StatusCode::FORBIDDEN,
            ServerError::NotFound(_) => StatusCode::NOT_FOUND,
            ServerError::Conflict(_) => StatusCode::CONFLICT,
            ServerError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ServerError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (status, Json(json!({ "error": self.to_string() }))).into_response()
    }
}

/// An answer whose JSON is written already (a game's view: written once, straight from the
/// game, under its lock).
pub(crate) struct JsonText(pub(crate) String);

impl IntoResponse for JsonText {
    fn into_response(self) -> Response {
        ([(axum::http::header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

/// A JSON body, with every rejection turned into a JSON error.
pub(crate) struct JsonBody<T>(pub(crate) T);

#[async_trait]
impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ServerError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ServerError::TooLarge(format!("request body larger than {BODY_LIMIT} bytes"))
            } else {
                ServerError::BadRequest(format!("cannot read the request body: {}", e.body_text()))
            }
        })?;
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(bytes)
            .map(JsonBody)
            .map_err(|e| ServerError::BadRequest(format!("invalid JSON body: {e}")))
    }
}

/// The seat token of a request's header (none without the header; a malformed one is refused).
#[async_trait]
impl<S: Send + Sync> FromRequestParts<S> for SeatToken {
    type Rejection = ServerError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        match parts.headers.get(TOKEN_HEADER) {
            None => Ok(SeatToken(None)),
            Some(v) => {
                let t = v.to_str().unwrap_or("").trim();
                if t.len() != 32 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(ServerError::Forbidden(format!(
                        "the {TOKEN_HEADER} header is not a seat token (32 hex digits)"
                    )));
                }
                Ok(SeatToken(Some(t.to_ascii_lowercase())))
            }
        }
    }
}

/// The body of a move request (`{"move": "(0T1)e2(0T1)e4"}`), of a game or an analysis board.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveReq {
    #[serde(rename = "move")]
    mv: String,
}

impl MoveReq {
    /// The move's text, refused when longer than any move can be written.
    pub(crate) fn text(self) -> Result<String, ServerError> {
        if self.mv.len() > 100 {
            return Err(ServerError::BadRequest("a move is at most 100 characters".into()));
        }
        Ok(self.mv)
    }
}
