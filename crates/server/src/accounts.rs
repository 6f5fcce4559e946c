//! Layer: HTTP (with the accounts' storage, which nothing else uses). Accounts (issue 47):
//! sign up, log in and out, change the password, list and end sessions, delete the account.
//!
//! Passwords are kept only as argon2id hashes (OWASP's parameters: 19 MiB, 2 passes, one lane)
//! and never logged; at most [`HASHING`] hashes run at once (each holds 19 MiB and tens of ms of
//! a core), the others wait their turn for a few seconds, then are told the server is busy.
//! A session is a random token in the cookie [`SESSION_COOKIE`] (`HttpOnly`, `SameSite=Lax`,
//! `Secure` when the client came over TLS through the proxy); the database keeps its SHA-256.
//! Logins are throttled per name and per address (the sixth failure within a minute is answered
//! 429 with `Retry-After`), sign-ups per address ([`SIGNUPS_PER_HOUR`]); an unknown name and a
//! wrong password get the same answer after the same work (a dummy hash is checked).
//!
//! Fair shares per account: a request with a live session is the client
//! [`ClientKey::Account`] for every pool (see `crate::extract::Client`); logins and sign-ups
//! stay throttled per address (`crate::extract::Address`).

use crate::error::ServerError;
use crate::extract::{Address, JsonBody};
use crate::limits::ClientKey;
use crate::seats;
use crate::state::{lock, AppState};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use rusqlite::{params, OptionalExtension};
use serde::Deserialize;
use serde_json::json;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The session cookie.
pub const SESSION_COOKIE: &str = "chess5d_session";
/// A session lasts 30 days from its login.
pub const SESSION_SECS: u64 = 30 * 86_400;
/// Argon2id hashes computed at once (2 cores: two hashes keep them busy, 38 MiB held).
pub const HASHING: usize = 2;
/// How long a login or sign-up waits for its turn to hash before a 429.
pub const HASH_WAIT: Duration = Duration::from_secs(10);
/// Failed logins per name, and per address, within [`FAILURE_WINDOW`] before the next is refused.
pub const FAILURES: usize = 5;
/// The window of [`FAILURES`].
pub const FAILURE_WINDOW: Duration = Duration::from_secs(60);
/// Sign-ups per address and hour.
pub const SIGNUPS_PER_HOUR: usize = 5;
/// Password length in characters.
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;
/// The name shown for the games of a deleted account.
pub const DELETED_NAME: &str = "(deleted account)";

/// An account, as a request's session names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: i64,
    /// Its name, as spelled at sign-up.
    pub name: String,
}

/// The accounts' state in memory: the hashing gate, the throttles and a cache of sessions.
#[derive(Debug)]
pub struct Accounts {
    hashing: tokio::sync::Semaphore,
    /// Failed logins: per name (lower case) and per address, the times within the window.
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
    signups: Mutex<HashMap<ClientKey, VecDeque<Instant>>>,
    /// Session token hash → account (`None`: no such session), at most [`CACHE`] entries.
    cache: Mutex<HashMap<String, Option<Account>>>,
    /// The sessions the database may know: the first 128 bits of each live session's hash,
    /// read once at the first lookup, then kept up to date as sessions open. A cookie whose
    /// hash is not here is no session, answered without the database: random cookies (an
    /// attacker's, sent by the thousand) cost a hash and a set lookup, not a query each. A
    /// session ended keeps its entry until the next start: it costs one query, then the cache.
    live: Mutex<Option<std::collections::HashSet<u128>>>,
    /// Session lookups that reached the database.
    lookups: std::sync::atomic::AtomicU64,
    dummy: OnceLock<String>,
}

const CACHE: usize = 100_000;

impl Default for Accounts {
    fn default() -> Self {
        Accounts {
            hashing: tokio::sync::Semaphore::new(HASHING),
            failures: Mutex::default(),
            signups: Mutex::default(),
            cache: Mutex::default(),
            live: Mutex::default(),
            lookups: Default::default(),
            dummy: OnceLock::new(),
        }
    }
}

/// Times of `key` within `window`, the older ones dropped; how long until the oldest leaves if
/// there are `max` or more.
fn throttled<K: std::hash::Hash + Eq + Clone>(
    map: &mut HashMap<K, VecDeque<Instant>>,
    key: &K,
    window: Duration,
    max: usize,
) -> Option<Duration> {
    let now = Instant::now();
    let q = map.get_mut(key)?;
    while q.front().is_some_and(|t| now.duration_since(*t) >= window) {
        q.pop_front();
    }
    if q.is_empty() {
        map.remove(key);
        return None;
    }
    (q.len() >= max).then(|| {
        window
            .saturating_sub(now.duration_since(q[0]))
            .max(Duration::from_secs(1))
    })
}

fn record<K: std::hash::Hash + Eq + Clone>(map: &mut HashMap<K, VecDeque<Instant>>, key: K, window: Duration) {
    if map.len() > CACHE {
        // Many keys: forget those with nothing in the window.
        let now = Instant::now();
        map.retain(|_, q| q.back().is_some_and(|t| now.duration_since(*t) < window));
    }
    map.entry(key).or_default().push_back(Instant::now());
}

fn hasher() -> Argon2<'static> {
    // OWASP's argon2id: m = 19456 KiB, t = 2, p = 1.
    let params = Params::new(19_456, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The argon2id PHC string of `password` with a fresh salt.
pub fn hash_password(password: &str) -> Result<String, ServerError> {
    let mut salt = [0u8; 16];
    getrandom::getrandom(&mut salt).map_err(|e| ServerError::Internal(format!("no random numbers: {e}")))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| ServerError::Internal(format!("salt: {e}")))?;
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ServerError::Internal(format!("cannot hash the password: {e}")))
}

/// Whether `password` matches the PHC string `hash`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| hasher().verify_password(password.as_bytes(), &h).is_ok())
}

/// Whether a name is 2 to 20 of `A-Z a-z 0-9 _ -`.
pub fn valid_name(name: &str) -> bool {
    (2..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn limited(msg: String, retry: Duration) -> Response {
    let mut r = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(json!({ "error": msg, "kind": "limited" })),
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&retry.as_secs().max(1).to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

/// The one answer to a failed login, whether the name is unknown or the password wrong.
fn wrong_login() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        Json(json!({ "error": "wrong name or password", "kind": "unauthorized" })),
    )
        .into_response()
}

fn not_logged_in() -> ServerError {
    ServerError::Forbidden("log in first (no session, or it has ended)".into())
}

impl AppState {
    fn accounts(&self) -> &Accounts {
        &self.inner.accounts
    }

    /// Runs `f` (a hash) on a blocking thread once one of the [`HASHING`] turns is free.
    async fn hashing<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T, Response> {
        let busy = || {
            limited(
                "the server is busy checking passwords; try again in a moment".into(),
                Duration::from_secs(2),
            )
        };
        let permit = tokio::time::timeout(HASH_WAIT, self.accounts().hashing.acquire())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        let out = tokio::task::spawn_blocking(f)
            .await
            .map_err(|_| ServerError::Internal("hashing failed".into()).into_response());
        drop(permit);
        out
    }

    /// The account of a session token if the cache knows it (`Some(None)`: no such session),
    /// without the database: what a request's extractor asks first, off the blocking threads.
    pub(crate) fn cached_session(&self, token: &str) -> Option<Option<Account>> {
        let hash = seats::hash_token(token);
        if let Some(live) = lock(&self.accounts().live).as_ref() {
            if !live.contains(&live_key(&hash)) {
                return Some(None);
            }
        }
        lock(&self.accounts().cache).get(&hash).cloned()
    }

    /// Session lookups that reached the database since the start (a cookie the server did
    /// not know, once; never a cookie that is no live session).
    pub fn session_lookups(&self) -> u64 {
        self.accounts().lookups.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether `hash` may be a live session: reads the live sessions' hashes the first time.
    fn maybe_live(&self, hash: &str) -> Result<bool, ServerError> {
        let mut live = lock(&self.accounts().live);
        if live.is_none() {
            // Read while the lock is held: a session stored meanwhile is either read here or
            // added after (see `open_session`).
            let hashes = self.db().with(|c| {
                let mut q = c.prepare("SELECT token_hash FROM account_sessions WHERE created > ?1")?;
                let rows = q.query_map([crate::db::ago(SESSION_SECS)], |r| r.get::<_, String>(0))?;
                rows.collect::<rusqlite::Result<Vec<_>>>()
            })?;
            *live = Some(hashes.iter().map(|h| live_key(h)).collect());
        }
        Ok(live.as_ref().is_some_and(|l| l.contains(&live_key(hash))))
    }

    /// The account of a session token, from the cache or the database.
    pub(crate) fn session_account(&self, token: &str) -> Result<Option<Account>, ServerError> {
        let hash = seats::hash_token(token);
        if let Some(a) = lock(&self.accounts().cache).get(&hash) {
            return Ok(a.clone());
        }
        if !self.maybe_live(&hash)? {
            return Ok(None);
        }
        self.accounts()
            .lookups
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let h = hash.clone();
        let found = self.db().with(move |c| {
            c.query_row(
                "SELECT a.id, a.name FROM account_sessions s JOIN accounts a ON a.id = s.account
                 WHERE s.token_hash = ?1 AND a.deleted = 0 AND s.created > ?2",
                params![h, crate::db::ago(SESSION_SECS)],
                |r| {
                    Ok(Account {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    })
                },
            )
            .optional()
        })?;
        let mut cache = lock(&self.accounts().cache);
        if cache.len() >= CACHE {
            cache.clear();
        }
        cache.insert(hash, found.clone());
        Ok(found)
    }

    /// Forgets the cached sessions of an account (logged out everywhere, deleted...).
    fn forget_sessions(&self, account: i64) {
        lock(&self.accounts().cache).retain(|_, a| a.as_ref().is_none_or(|a| a.id != account));
    }

    /// The account named `name` (any case), if any and not deleted: id, name, hash.
    fn find_account(&self, name: &str) -> Result<Option<(i64, String, String)>, ServerError> {
        let key = name.to_ascii_lowercase();
        self.db().with(move |c| {
            c.query_row(
                "SELECT id, name, password FROM accounts WHERE name_key = ?1 AND deleted = 0",
                [key],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
        })
    }

    /// Opens a session for `account`: its token (for the cookie).
    fn open_session(&self, account: i64, agent: String) -> Result<String, ServerError> {
        let token = seats::new_token()?;
        let hash = seats::hash_token(&token);
        let key = live_key(&hash);
        self.db().write(move |c| {
            c.execute(
                "INSERT INTO account_sessions (token_hash, account, created, agent) VALUES (?1, ?2, ?3, ?4)",
                params![hash, account, crate::db::now(), agent],
            )
        })?;
        // Stored first: a first reading of the live sessions either sees it or ends before this.
        if let Some(l) = lock(&self.accounts().live).as_mut() {
            l.insert(key);
        }
        Ok(token)
    }

    /// Checks `password` for the account `name` under the login throttle, hashing in its
    /// turn: the account, or the answer to give (401 the same for an unknown name and a wrong
    /// password, 429 past the throttle).
    async fn check_login(&self, name: &str, password: String, client: ClientKey) -> Result<(i64, String), Response> {
        let key = name.to_ascii_lowercase();
        {
            let mut f = lock(&self.accounts().failures);
            let by_name = throttled(&mut f, &format!("n:{key}"), FAILURE_WINDOW, FAILURES);
            let by_addr = throttled(&mut f, &format!("a:{client}"), FAILURE_WINDOW, FAILURES);
            if let Some(wait) = by_name.max(by_addr) {
                return Err(limited(
                    format!("too many failed logins; try again in {} s", wait.as_secs().max(1)),
                    wait,
                ));
            }
        }
        let found = if valid_name(name) {
            self.find_account(name).map_err(IntoResponse::into_response)?
        } else {
            None
        };
        let dummy = self.accounts().dummy.get().cloned();
        let (ok, dummy) = self
            .hashing(move || match &found {
                Some((_, _, hash)) => (verify_password(&password, hash).then(|| found.clone()).flatten(), dummy),
                None => {
                    // The same work as for a real account, so that time tells nothing.
                    let d = match dummy {
                        Some(d) => d,
                        None => hash_password("not a password of anyone").unwrap_or_default(),
                    };
                    verify_password(&password, &d);
                    (None, Some(d))
                }
            })
            .await?;
        if let Some(d) = dummy {
            let _ = self.accounts().dummy.set(d);
        }
        match ok {
            Some((id, name, _)) => Ok((id, name)),
            None => {
                let mut f = lock(&self.accounts().failures);
                record(&mut f, format!("n:{key}"), FAILURE_WINDOW);
                record(&mut f, format!("a:{client}"), FAILURE_WINDOW);
                Err(wrong_login())
            }
        }
    }
}

/// The key of a session in [`Accounts`]'s set of live ones: the first 128 bits of its hash
/// (hex), 0 if it is not hex (no stored hash is).
fn live_key(hash: &str) -> u128 {
    hash.get(..32)
        .and_then(|h| u128::from_str_radix(h, 16).ok())
        .unwrap_or(0)
}

/// The session token of a request's cookie, if well formed.
pub(crate) fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == SESSION_COOKIE)
        .map(|(_, v)| v.trim().to_ascii_lowercase())
        .filter(|v| v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The account a request's session belongs to, if it has one (`Option<Account>` as an
/// extractor: `None` for an anonymous request, never a refusal).
#[derive(Clone, Debug)]
pub(crate) struct MaybeAccount(pub(crate) Option<Account>);

impl FromRequestParts<AppState> for MaybeAccount {
    type Rejection = ServerError;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Self::Rejection> {
        let Some(token) = session_token(&parts.headers) else {
            return Ok(MaybeAccount(None));
        };
        if let Some(found) = st.cached_session(&token) {
            return Ok(MaybeAccount(found));
        }
        let st = st.clone();
        Ok(MaybeAccount(
            crate::state::blocking(move || st.session_account(&token)).await?,
        ))
    }
}

impl FromRequestParts<AppState> for Account {
    type Rejection = ServerError;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Self::Rejection> {
        MaybeAccount::from_request_parts(parts, st)
            .await?
            .0
            .ok_or_else(not_logged_in)
    }
}

/// Whether the client came over TLS: only through a proxy that says so (`X-Forwarded-Proto:
/// https`); this server itself speaks cleartext.
fn over_tls(st: &AppState, headers: &HeaderMap) -> bool {
    st.inner.config.behind_proxy
        && headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

fn set_cookie(mut r: Response, value: &str, max_age: u64, secure: bool) -> Response {
    let cookie = format!(
        "{SESSION_COOKIE}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    );
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().append(header::SET_COOKIE, v);
    }
    r
}

fn agent(headers: &HeaderMap) -> String {
    let a = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    a.chars().take(120).collect()
}

/// `{name, password}`: sign-up and login.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Credentials {
    name: String,
    password: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the password.
        f.debug_struct("Credentials")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

fn check_password(p: &str, field: &str) -> Result<(), ServerError> {
    let n = p.chars().count();
    if !PASSWORD_CHARS.contains(&n) {
        return Err(ServerError::BadRequest(format!(
            "{field}: a password has {} to {} characters, this one {n}",
            PASSWORD_CHARS.start(),
            PASSWORD_CHARS.end()
        )));
    }
    Ok(())
}

/// The routes of accounts.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/account", get(me).post(sign_up).delete(delete_account))
        .route("/api/account/password", post(change_password))
        .route("/api/account/sessions", get(sessions))
        .route("/api/account/sessions/{id}", delete(end_session))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
}

/// `POST /api/account {name, password}`: 201 `{name}`, logged in (the cookie set).
async fn sign_up(
    State(st): State<AppState>,
    Address(client): Address,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> Response {
    if !valid_name(&req.name) {
        return ServerError::BadRequest(format!(
            "name: 2 to 20 of A-Z a-z 0-9 _ -, got '{}'",
            req.name.chars().take(40).collect::<String>()
        ))
        .into_response();
    }
    if let Err(e) = check_password(&req.password, "password") {
        return e.into_response();
    }
    {
        let mut s = lock(&st.accounts().signups);
        if let Some(wait) = throttled(&mut s, &client, Duration::from_secs(3600), SIGNUPS_PER_HOUR) {
            return limited(
                format!(
                    "at most {SIGNUPS_PER_HOUR} sign-ups an hour from one address; try again in {} min",
                    wait.as_secs() / 60 + 1
                ),
                wait,
            );
        }
    }
    match st.find_account(&req.name) {
        Ok(Some(_)) => return ServerError::Conflict(format!("the name '{}' is taken", req.name)).into_response(),
        Ok(None) => {}
        Err(e) => return e.into_response(),
    }
    record(&mut lock(&st.accounts().signups), client, Duration::from_secs(3600));
    let password = req.password;
    let hash = match st.hashing(move || hash_password(&password)).await {
        Ok(Ok(h)) => h,
        Ok(Err(e)) => return e.into_response(),
        Err(r) => return r,
    };
    let (name, key) = (req.name.clone(), req.name.to_ascii_lowercase());
    let made = st.db().write(move |c| {
        c.execute(
            "INSERT INTO accounts (name, name_key, password, created) VALUES (?1, ?2, ?3, ?4)",
            params![name, key, hash, crate::db::now()],
        )
        .map(|_| c.last_insert_rowid())
    });
    let id = match made {
        Ok(id) => id,
        Err(e) if e.to_string().contains("UNIQUE") => {
            return ServerError::Conflict(format!("the name '{}' is taken", req.name)).into_response()
        }
        Err(e) => return e.into_response(),
    };
    let token = match st.open_session(id, agent(&headers)) {
        Ok(t) => t,
        Err(e) => return e.into_response(),
    };
    tracing::info!("account {} made", req.name);
    let r = (StatusCode::CREATED, Json(json!({ "name": req.name }))).into_response();
    set_cookie(r, &token, SESSION_SECS, over_tls(&st, &headers))
}

/// `POST /api/login {name, password}`: 200 `{name}` and the session cookie.
async fn login(
    State(st): State<AppState>,
    Address(client): Address,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> Response {
    if req.password.len() > 4 * PASSWORD_CHARS.end() {
        return wrong_login();
    }
    let (id, name) = match st.check_login(&req.name, req.password, client).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let token = match st.open_session(id, agent(&headers)) {
        Ok(t) => t,
        Err(e) => return e.into_response(),
    };
    let r = Json(json!({ "name": name })).into_response();
    set_cookie(r, &token, SESSION_SECS, over_tls(&st, &headers))
}

/// `POST /api/logout`: ends this session (whether or not it was one); the cookie is cleared.
async fn logout(State(st): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(token) = session_token(&headers) {
        let hash = seats::hash_token(&token);
        lock(&st.accounts().cache).remove(&hash);
        if let Err(e) = st
            .db()
            .write(move |c| c.execute("DELETE FROM account_sessions WHERE token_hash = ?1", [hash]))
        {
            return e.into_response();
        }
    }
    set_cookie(Json(json!({})).into_response(), "", 0, over_tls(&st, &headers))
}

/// `GET /api/account`: `{name}` of the session's account, `{name: null}` without one (the page
/// asks at every start: no error for an anonymous visitor).
async fn me(MaybeAccount(account): MaybeAccount) -> Response {
    Json(json!({ "name": account.map(|a| a.name) })).into_response()
}

/// `{password, new_password}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewPassword {
    password: String,
    new_password: String,
}

/// `{password}`: deleting the account.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Confirm {
    password: String,
}

/// `POST /api/account/password {password, new_password}`: the other sessions end.
async fn change_password(
    State(st): State<AppState>,
    Address(client): Address,
    account: Account,
    headers: HeaderMap,
    JsonBody(req): JsonBody<NewPassword>,
) -> Response {
    if let Err(e) = check_password(&req.new_password, "new_password") {
        return e.into_response();
    }
    if let Err(r) = st.check_login(&account.name, req.password, client).await {
        return r;
    }
    let new = req.new_password;
    let hash = match st.hashing(move || hash_password(&new)).await {
        Ok(Ok(h)) => h,
        Ok(Err(e)) => return e.into_response(),
        Err(r) => return r,
    };
    let keep = session_token(&headers)
        .map(|t| seats::hash_token(&t))
        .unwrap_or_default();
    let id = account.id;
    let done = st.db().write(move |c| {
        c.execute("UPDATE accounts SET password = ?2 WHERE id = ?1", params![id, hash])?;
        c.execute(
            "DELETE FROM account_sessions WHERE account = ?1 AND token_hash != ?2",
            params![id, keep],
        )
    });
    st.forget_sessions(id);
    match done {
        Ok(ended) => Json(json!({ "sessions_ended": ended })).into_response(),
        Err(e) => e.into_response(),
    }
}

/// `GET /api/account/sessions`: `{sessions: [{id, created, agent, current}]}`, newest first.
async fn sessions(State(st): State<AppState>, account: Account, headers: HeaderMap) -> Response {
    let mine = session_token(&headers)
        .map(|t| seats::hash_token(&t))
        .unwrap_or_default();
    let id = account.id;
    let rows = st.db().with(move |c| {
        let mut q = c.prepare(
            "SELECT token_hash, created, agent FROM account_sessions WHERE account = ?1 ORDER BY created DESC LIMIT 100",
        )?;
        let rows = q.query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?)))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
    });
    match rows {
        Ok(rows) => Json(json!({
            "sessions": rows.iter().map(|(h, created, agent)| json!({
                "id": &h[..16.min(h.len())], "created": created, "agent": agent, "current": *h == mine,
            })).collect::<Vec<_>>()
        }))
        .into_response(),
        Err(e) => e.into_response(),
    }
}

/// `DELETE /api/account/sessions/:id`: ends one of the account's sessions (by the `id` that
/// the list gives).
async fn end_session(State(st): State<AppState>, account: Account, Path(sid): Path<String>) -> Response {
    if sid.len() != 16 || !sid.bytes().all(|b| b.is_ascii_hexdigit()) {
        return ServerError::BadRequest(format!(
            "'{}' is not a session id (16 hex digits)",
            sid.chars().take(20).collect::<String>()
        ))
        .into_response();
    }
    let id = account.id;
    let pattern = format!("{}%", sid.to_ascii_lowercase());
    let ended = st.db().write(move |c| {
        c.execute(
            "DELETE FROM account_sessions WHERE account = ?1 AND token_hash LIKE ?2",
            params![id, pattern],
        )
    });
    st.forget_sessions(account.id);
    match ended {
        Ok(0) => ServerError::NotFound("no such session of this account".into()).into_response(),
        Ok(_) => Json(json!({})).into_response(),
        Err(e) => e.into_response(),
    }
}

/// `DELETE /api/account {password}`: the account is deleted (its name free again), its sessions
/// end; its games stay, their player named [`DELETED_NAME`].
async fn delete_account(
    State(st): State<AppState>,
    Address(client): Address,
    account: Account,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Confirm>,
) -> Response {
    if let Err(r) = st.check_login(&account.name, req.password, client).await {
        return r;
    }
    let id = account.id;
    let done = st.db().write(move |c| {
        c.execute(
            "UPDATE accounts SET deleted = 1, name = ?2, name_key = ?3, password = '' WHERE id = ?1",
            params![id, DELETED_NAME, format!("#{id}")],
        )?;
        c.execute("DELETE FROM account_sessions WHERE account = ?1", [id])?;
        for side in ["white", "black"] {
            c.execute(
                &format!(
                    "UPDATE games SET {side} = json_set({side}, '$.name', ?2)
                     WHERE id IN (SELECT game FROM game_accounts WHERE {side} = ?1)"
                ),
                params![id, DELETED_NAME],
            )?;
        }
        Ok(())
    });
    st.forget_sessions(id);
    // Games in memory keep the old name until they leave it; the stored rows have the new.
    match done {
        Ok(()) => set_cookie(
            Json(json!({ "deleted": true })).into_response(),
            "",
            0,
            over_tls(&st, &headers),
        ),
        Err(e) => e.into_response(),
    }
}
