//! Layer: HTTP (its bottom). What requests and answers are made of: a JSON body whose every
//! rejection is a JSON error, the seat token of the `X-Chess5d-Seat` header, and the JSON error
//! answer of [`ServerError`].

use crate::error::{ErrorKind, ServerError};
use crate::seats::{SeatToken, TOKEN_HEADER};
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde_json::json;

/// An error's HTTP status: the game service's one table ([`ErrorKind::http_status`], which the
/// static site's door reads too).
pub(crate) fn status(kind: ErrorKind) -> StatusCode {
    StatusCode::from_u16(kind.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

impl IntoResponse for ServerError {
    fn into_response(self) -> Response {
        let kind = self.kind();
        let mut body = json!({ "error": self.to_string(), "kind": kind.name() });
        if let ServerError::Play(e) = &self {
            body["code"] = json!(e.code());
        }
        (status(kind), Json(body)).into_response()
    }
}

/// An answer whose JSON is written already (a game's view: written once, straight from the
/// game, under its lock): text, or bytes shared with the game's watchers.
pub(crate) struct JsonText<T = String>(pub(crate) T);

impl<T: Into<axum::body::Body>> IntoResponse for JsonText<T> {
    fn into_response(self) -> Response {
        ([(axum::http::header::CONTENT_TYPE, "application/json")], self.0.into()).into_response()
    }
}

/// A JSON body, with every rejection turned into a JSON error.
pub(crate) struct JsonBody<T>(pub(crate) T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ServerError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let BodyText(text) = BodyText::from_request(req, state).await?;
        let bytes = text.as_bytes();
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            bytes
        };
        // Every body is an object (serde would read an array field by field).
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(chess5d_play::PlayError::body("the body must be a JSON object {...}").into());
        }
        serde_json::from_slice(bytes)
            .map(JsonBody)
            .map_err(|e| chess5d_play::PlayError::body(e).into())
    }
}

/// The seat token of a request's header (none without the header; a malformed one is refused).
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

/// The client of a request, for the quotas and budgets: the account of its session cookie if
/// it has a live one ([`crate::limits::ClientKey::Account`], one client whatever its address),
/// else its address ([`crate::security::client_of`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Client(pub(crate) crate::limits::ClientKey);

impl FromRequestParts<crate::state::AppState> for Client {
    type Rejection = ServerError;

    async fn from_request_parts(parts: &mut Parts, st: &crate::state::AppState) -> Result<Self, Self::Rejection> {
        if let Some(token) = crate::accounts::session_token(&parts.headers) {
            let found = match st.cached_session(&token) {
                Some(found) => found,
                None => {
                    let st = st.clone();
                    crate::state::blocking(move || st.session_account(&token)).await?
                }
            };
            if let Some(a) = found {
                return Ok(Client(crate::limits::ClientKey::Account(a.id)));
            }
        }
        let Address(address) = Address::from_request_parts(parts, st).await?;
        Ok(Client(address))
    }
}

/// The address of a request as a client key ([`crate::security::client_of`]), whoever is
/// logged in: for what is throttled per address (logins, sign-ups).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Address(pub(crate) crate::limits::ClientKey);

impl FromRequestParts<crate::state::AppState> for Address {
    type Rejection = ServerError;

    async fn from_request_parts(parts: &mut Parts, st: &crate::state::AppState) -> Result<Self, Self::Rejection> {
        Ok(Address(crate::security::client_of(
            &parts.headers,
            &parts.extensions,
            st.inner.config.behind_proxy,
        )))
    }
}

/// The cookie naming a visitor (whose puzzle progress is its own).
pub(crate) const VISITOR_COOKIE: &str = "chess5d_visitor";

/// The visitor of a request: the id of its cookie `chess5d_visitor` (32 hex digits), or a new
/// one (a cookie that is missing or malformed is replaced), which the answer sets.
pub(crate) struct Visitor {
    id: String,
    fresh: bool,
}

impl Visitor {
    /// What is stored of the visitor: the SHA-256 of its id.
    pub(crate) fn hash(&self) -> String {
        crate::seats::hash_token(&self.id)
    }

    /// Whether the id was made for this request.
    pub(crate) fn fresh(&self) -> bool {
        self.fresh
    }

    /// Sets the cookie on the answer if the id is new (a year; the page's scripts never read it).
    pub(crate) fn set_on(&self, mut res: Response) -> Response {
        if self.fresh {
            let cookie = format!(
                "{VISITOR_COOKIE}={}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax",
                self.id
            );
            if let Ok(v) = axum::http::HeaderValue::from_str(&cookie) {
                res.headers_mut().append(axum::http::header::SET_COOKIE, v);
            }
        }
        res
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Visitor {
    type Rejection = ServerError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let found = parts
            .headers
            .get_all(axum::http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().split_once('='))
            .find(|(k, _)| *k == VISITOR_COOKIE)
            .map(|(_, v)| v.trim().to_ascii_lowercase())
            .filter(|v| v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()));
        Ok(match found {
            Some(id) => Visitor { id, fresh: false },
            None => Visitor {
                id: crate::seats::new_token()?,
                fresh: true,
            },
        })
    }
}

/// A request body as text, for the game service to read (its requests are typed there).
pub(crate) struct BodyText(pub(crate) String);

impl<S: Send + Sync> FromRequest<S> for BodyText {
    type Rejection = ServerError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ServerError::TooLarge(format!("request body larger than {} bytes", crate::limits::BODY_LIMIT))
            } else {
                ServerError::BadRequest(format!("cannot read the request body: {}", e.body_text()))
            }
        })?;
        String::from_utf8(bytes.to_vec())
            .map(BodyText)
            .map_err(|e| chess5d_play::PlayError::body(e).into())
    }
}

/// A WebSocket's limits: frames and messages of at most `socket-frame-bytes` (a larger frame is
/// refused from its header, before its payload is read), and its place in the quota of
/// sockets (`sockets-per-client`, `sockets`).
pub(crate) fn socket_limits(
    st: &crate::state::AppState,
    client: crate::limits::ClientKey,
    upgrade: axum::extract::ws::WebSocketUpgrade,
) -> Result<(axum::extract::ws::WebSocketUpgrade, crate::limits::Permit), ServerError> {
    let l = &st.inner.config.limits;
    let permit = st
        .inner
        .quotas
        .sockets
        .take(client, l.sockets_per_client, l.sockets, "sockets")?;
    let max = usize::try_from(l.socket_frame_bytes).unwrap_or(usize::MAX);
    Ok((upgrade.max_frame_size(max).max_message_size(max), permit))
}

/// A WebSocket's heartbeat: a ping every third of `socket-idle-secs`; a socket from which
/// nothing came (no pong either) for that long is over.
pub(crate) struct Heartbeat {
    every: tokio::time::Interval,
    seen: tokio::time::Instant,
    idle: std::time::Duration,
}

impl Heartbeat {
    pub(crate) fn new(st: &crate::state::AppState) -> Heartbeat {
        let idle = std::time::Duration::from_secs(st.inner.config.limits.socket_idle_secs);
        // The first ping after a third of the idle time (none at the start).
        let mut every = tokio::time::interval_at(tokio::time::Instant::now() + idle / 3, idle / 3);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Heartbeat {
            every,
            seen: tokio::time::Instant::now(),
            idle,
        }
    }

    /// Something came from the client.
    pub(crate) fn seen(&mut self) {
        self.seen = tokio::time::Instant::now();
    }

    /// Waits for the next beat: `true` if the socket is to be pinged, `false` if it is idle
    /// (to be closed).
    pub(crate) async fn beat(&mut self) -> bool {
        self.every.tick().await;
        self.seen.elapsed() < self.idle
    }
}
