//! Layer: HTTP: guards and middleware.
//!
//! The server's guards, in front of every route: the `Host` allow-list (DNS rebinding), the
//! `Origin`/`Referer` and content-type checks of state-changing requests (CSRF), the WebSocket
//! `Origin` check, a request timeout, per-client rate limits, security headers, JSON bodies for
//! every error, and one log line per request.

use crate::config::Config;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::GovernorError;

/// Longest URI accepted (path and query).
pub const MAX_URI: usize = 4096;

/// The Content-Security-Policy: scripts, styles and connections from this origin only, no
/// inline script, no framing.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
    connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// An error answer with a JSON body.
pub fn json_error(status: StatusCode, msg: impl Into<String>) -> Response {
    (status, Json(json!({ "error": msg.into() }))).into_response()
}

/// What the guard needs from the configuration.
#[derive(Clone, Debug)]
pub struct Guard {
    allowed_hosts: Vec<String>,
    behind_proxy: bool,
}

impl Guard {
    /// The guard of a configuration.
    pub fn new(config: &Config) -> Guard {
        Guard {
            allowed_hosts: config.allowed_hosts.clone(),
            behind_proxy: config.behind_proxy,
        }
    }

    /// The host the client asked for (`X-Forwarded-Host` behind a proxy, else `Host`, else the
    /// URI's authority: HTTP/2's `:authority`, which replaces `Host` there), with its port,
    /// lower-cased.
    fn host(&self, h: &HeaderMap, uri: &axum::http::Uri) -> Option<String> {
        let fwd = if self.behind_proxy {
            h.get("x-forwarded-host")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
        } else {
            None
        };
        fwd.or_else(|| h.get(header::HOST).and_then(|v| v.to_str().ok()))
            .or_else(|| uri.authority().map(|a| a.as_str()))
            .map(|s| s.trim().to_ascii_lowercase())
    }

    /// The scheme the client used: `http` (this server speaks cleartext only), or behind a
    /// proxy (which may end TLS) its `X-Forwarded-Proto`, unknown (`None`) without one.
    fn scheme(&self, h: &HeaderMap) -> Option<String> {
        if !self.behind_proxy {
            return Some("http".into());
        }
        h.get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .map(|v| v.trim().to_ascii_lowercase())
            .filter(|v| !v.is_empty())
    }

    /// Whether a host (with or without port) is served: IP addresses and `localhost` always
    /// (DNS rebinding needs a name), other names only if allowed.
    fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host);
        name == "localhost" || name.parse::<IpAddr>().is_ok() || self.allowed_hosts.iter().any(|h| h == name)
    }
}

/// The name part of `host[:port]` (IPv6 brackets removed).
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("");
    }
    host.rsplit_once(':')
        .filter(|(_, p)| p.bytes().all(|b| b.is_ascii_digit()))
        .map_or(host, |(n, _)| n)
}

/// The `host[:port]` of an origin or URL (`http://a.b:8080/x` gives `a.b:8080`).
fn authority(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let auth = rest.split(['/', '?', '#']).next()?;
    Some(auth.to_ascii_lowercase())
}

/// The scheme of an origin or URL, lower-cased (`https://a.b` gives `https`).
fn scheme(url: &str) -> Option<String> {
    Some(url.split_once("://")?.0.to_ascii_lowercase())
}

/// Whether `authority` is the same host and port as `host` when both are reached with
/// `scheme` (whose default port may be left out of either).
fn same_authority(authority: &str, host: &str, scheme: &str) -> bool {
    let default = match scheme {
        "https" | "wss" => ":443",
        _ => ":80",
    };
    let strip = |s: &str| s.strip_suffix(default).unwrap_or(s).to_string();
    authority == host || strip(authority) == strip(host)
}

fn is_state_changing(m: &Method) -> bool {
    !matches!(*m, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The guard middleware (see the module documentation).
pub async fn guard(State(g): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    let uri_len = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if uri_len > MAX_URI {
        return json_error(
            StatusCode::URI_TOO_LONG,
            format!("the URI is {uri_len} bytes long; at most {MAX_URI}"),
        );
    }
    let h = req.headers();
    if h.get_all(header::HOST).iter().count() > 1 {
        return json_error(StatusCode::BAD_REQUEST, "the request has more than one Host header");
    }
    // A body declared larger than the limit is refused at once (not read, not waited for).
    let declared = h
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = declared.filter(|&n| n > crate::limits::BODY_LIMIT as u64) {
        return json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body of {n} bytes; at most {} bytes", crate::limits::BODY_LIMIT),
        );
    }
    let Some(host) = g.host(h, req.uri()) else {
        return json_error(StatusCode::BAD_REQUEST, "the request has no Host header");
    };
    if !g.host_allowed(&host) {
        return json_error(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this server does not answer to the host '{}' (start it with --allowed-host {})",
                host_name(&host),
                host_name(&host)
            ),
        );
    }
    let websocket = h
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    if is_state_changing(req.method()) || websocket {
        // A browser names the page that sent the request: it must be one of ours. Clients
        // that are not browsers send neither header and cannot be used for CSRF.
        let from = h
            .get(header::ORIGIN)
            .and_then(|v| v.to_str().ok())
            .map(|o| (o, "Origin"))
            .or_else(|| {
                h.get(header::REFERER)
                    .and_then(|v| v.to_str().ok())
                    .map(|r| (r, "Referer"))
            });
        if let Some((url, which)) = from {
            let used = g.scheme(h);
            let same = match (scheme(url), authority(url)) {
                (Some(s), Some(a)) => used.as_ref().is_none_or(|u| *u == s) && same_authority(&a, &host, &s),
                _ => false,
            };
            if !same {
                let ours = format!("{}://{host}", used.as_deref().unwrap_or("http(s)"));
                return json_error(
                    StatusCode::FORBIDDEN,
                    format!("cross-site request refused: the {which} '{url}' is not this server ({ours})"),
                );
            }
        }
    }
    // A request without a body (a REST client's `DELETE`) needs no content type: there is
    // nothing to misread, and the Origin check above already stops cross-site browsers.
    // (Known from the body itself: HTTP/2 needs no Content-Length for a body.)
    let bodiless = axum::body::HttpBody::size_hint(req.body()).exact() == Some(0);
    if is_state_changing(req.method()) && !bodiless {
        let ctype = h.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
        let essence = ctype.split(';').next().unwrap_or("").trim();
        if !essence.eq_ignore_ascii_case("application/json") {
            return json_error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "{} requests need 'Content-Type: application/json', got '{}'",
                    req.method(),
                    if ctype.is_empty() { "none" } else { ctype }
                ),
            );
        }
    }
    next.run(req).await
}

/// Gives every error answer a JSON body `{"error": ...}` (those made by the framework and the
/// middleware come with an empty or plain-text body: 405, 408, 413, 429...); the HTML "no such
/// page" for a browser stays HTML.
pub async fn json_errors(State(timeout): State<Duration>, req: Request, next: Next) -> Response {
    let (method, path) = (req.method().clone(), req.uri().path().to_string());
    let res = next.run(req).await;
    let status = res.status();
    let keep = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json") || c.starts_with("text/html"));
    // JSON and the HTML page for a browser's unknown address stay as they are.
    if status.as_u16() < 400 || keep {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_else(|_| Bytes::new());
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let reason = status.canonical_reason().unwrap_or("error").to_ascii_lowercase();
    let msg = match status {
        StatusCode::METHOD_NOT_ALLOWED => format!("method {method} is not allowed on {path}"),
        StatusCode::REQUEST_TIMEOUT => format!(
            "request timeout: the request was not read and answered within {} s",
            timeout.as_secs_f64()
        ),
        _ if text.is_empty() => reason,
        _ => format!("{reason}: {text}"),
    };
    let mut out = json_error(status, msg);
    for (k, v) in parts.headers.iter() {
        if k != header::CONTENT_TYPE && k != header::CONTENT_LENGTH {
            out.headers_mut().insert(k.clone(), v.clone());
        }
    }
    out
}

/// Adds the security headers to every answer.
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    for (k, v) in [
        ("content-security-policy", CSP),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "same-origin"),
        ("x-frame-options", "DENY"),
        ("cross-origin-opener-policy", "same-origin"),
    ] {
        h.insert(k, HeaderValue::from_static(v));
    }
    res
}

/// The rate-limit key: the client's address (from the connection, or behind a proxy the last
/// `X-Forwarded-For` entry, the one our proxy added). A request without either (one made inside
/// the process, in tests) counts as 0.0.0.0.
#[derive(Clone, Copy, Debug)]
pub struct ClientIp {
    behind_proxy: bool,
}

impl KeyExtractor for ClientIp {
    type Key = crate::limits::ClientKey;

    fn extract<T>(&self, req: &axum::http::Request<T>) -> Result<crate::limits::ClientKey, GovernorError> {
        Ok(client_of(req.headers(), req.extensions(), self.behind_proxy))
    }
}

/// The client of a request, as every limit counts it ([`crate::limits::client_key`] of its
/// address): the connection's address, or behind a proxy the last `X-Forwarded-For` entry (the
/// one our proxy added). A request without either (one made inside the process, in tests)
/// counts as 0.0.0.0.
pub fn client_of(headers: &HeaderMap, ext: &axum::http::Extensions, behind_proxy: bool) -> crate::limits::ClientKey {
    let fwd = behind_proxy
        .then(|| {
            headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|v| v.trim().parse::<IpAddr>().ok())
        })
        .flatten();
    let ip = fwd.unwrap_or_else(|| {
        ext.get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip())
    });
    crate::limits::client_key(ip)
}

/// A rate limit of `per_sec` requests per second (a burst of `burst`) per client, on the
/// state-changing methods only; refused requests get 429 with a JSON body and `Retry-After`.
pub fn rate_limit(
    config: &Config,
    period: Duration,
    burst: u32,
) -> Arc<GovernorConfig<ClientIp, governor::middleware::NoOpMiddleware<governor::clock::QuantaInstant>>> {
    let mut b = GovernorConfigBuilder::default().key_extractor(ClientIp {
        behind_proxy: config.behind_proxy,
    });
    b.period(period)
        .burst_size(burst.max(1))
        .methods(vec![Method::POST, Method::PUT, Method::PATCH, Method::DELETE])
        .error_handler(|e| {
            let (status, msg, wait) = match e {
                GovernorError::TooManyRequests { wait_time, .. } => (
                    StatusCode::TOO_MANY_REQUESTS,
                    format!("too many requests from your address: wait {wait_time} s"),
                    Some(wait_time),
                ),
                GovernorError::UnableToExtractKey => (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "cannot tell the client's address".into(),
                    None,
                ),
                GovernorError::Other { code, msg, .. } => (code, msg.unwrap_or_default(), None),
            };
            let mut r = (status, Json(json!({ "error": msg }))).into_response();
            if let Some(w) = wait {
                if let Ok(v) = HeaderValue::from_str(&w.to_string()) {
                    r.headers_mut().insert(header::RETRY_AFTER, v);
                }
            }
            r.map(Body::new)
        });
    Arc::new(b.finish().expect("a rate limit with a positive period and burst"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_origins() {
        let g = Guard {
            allowed_hosts: vec!["chess.example.org".into()],
            behind_proxy: false,
        };
        for ok in [
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:80",
            "chess.example.org",
            "10.0.0.2",
        ] {
            assert!(g.host_allowed(ok), "{ok}");
        }
        for bad in ["evil.example:8080", "localhost.evil.example", "example.org"] {
            assert!(!g.host_allowed(bad), "{bad}");
        }
        assert_eq!(
            authority("http://127.0.0.1:8080/x?y").as_deref(),
            Some("127.0.0.1:8080")
        );
        assert_eq!(authority("null"), None);
        assert!(same_authority("chess.example.org:443", "chess.example.org", "https"));
        assert!(same_authority("chess.example.org", "chess.example.org:80", "http"));
        assert!(!same_authority("chess.example.org:443", "chess.example.org", "http"));
        assert!(!same_authority("evil.example", "chess.example.org", "https"));
        assert_eq!(scheme("HTTPS://a.b/x").as_deref(), Some("https"));
        assert_eq!(scheme("null"), None);
    }

    #[test]
    fn the_scheme_is_http_or_the_proxys_word() {
        let headers = |proto: Option<&str>| {
            let mut h = HeaderMap::new();
            if let Some(p) = proto {
                h.insert("x-forwarded-proto", HeaderValue::from_str(p).unwrap());
            }
            h
        };
        let direct = Guard {
            allowed_hosts: vec![],
            behind_proxy: false,
        };
        // Only a proxy is trusted to say how the client came.
        assert_eq!(direct.scheme(&headers(Some("https"))).as_deref(), Some("http"));
        let proxied = Guard {
            allowed_hosts: vec![],
            behind_proxy: true,
        };
        assert_eq!(proxied.scheme(&headers(Some("HTTPS, http"))).as_deref(), Some("https"));
        assert_eq!(proxied.scheme(&headers(None)), None);
    }
}
