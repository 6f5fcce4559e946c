//! Seats, the guards and online play: every state-changing route refuses a missing or wrong
//! seat token, a foreign Origin and a non-JSON content type; foreign hosts, foreign WebSocket
//! origins and slow clients are refused; rate limits answer 429; the lobby, draw offers and
//! abort; an old database upgraded in place; nothing acknowledged is lost without a clean stop.

use super::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const OTHER_TOKEN: &str = "0123456789abcdef0123456789abcdef";

/// The JSON headers with this seat token.
fn with(token: &str) -> Vec<(&'static str, String)> {
    vec![
        ("content-type", "application/json".to_string()),
        (TOKEN_HEADER, token.to_string()),
    ]
}

/// A game between two humans: (app, id, creator's token (White), invite token (Black)).
async fn invite_game(s: &Server) -> (i64, String, String) {
    let (status, v) = post(&s.app, "/api/games", json!({"import": MATE_LINE, "seat": "white"})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["seat"]["sides"], json!(["white"]));
    assert_eq!(v["seat"]["owner"], true);
    assert_eq!(v["invite"]["side"], "black");
    let t = |x: &Value| x.as_str().unwrap().to_string();
    let (mine, theirs) = (t(&v["seat"]["token"]), t(&v["invite"]["token"]));
    assert_eq!(mine.len(), 32);
    assert!(mine.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_ne!(mine, theirs);
    let id = v["id"].as_i64().unwrap();
    // The friend opens the link: the invite is claimed, and the seat gets a token of its own.
    let (status, v) = call_as(
        &s.app.router,
        "POST",
        &format!("/api/games/{id}/join"),
        Some("{}"),
        &with(&theirs),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["joined"].clone(), v["seat"]["sides"].clone()),
        (json!(true), json!(["black"]))
    );
    let claimed = t(&v["seat"]["token"]);
    assert_ne!(claimed, theirs);
    (id, mine, claimed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_joining_player_names_their_side_with_a_checked_name() {
    let s = server();
    let r = &s.app.router;
    let (id, mine, theirs) = invite_game(&s).await;
    let join = |token: String, body: &'static str| async move {
        call_as(r, "POST", &format!("/api/games/{id}/join"), Some(body), &with(&token)).await
    };
    // A control or bidirectional character, an overlong name, an unknown field: 400, nothing named.
    for bad in [r#"{"name": "Eve\u202eevil"}"#, r#"{"name": "a\nb"}"#, r#"{"nom": "x"}"#] {
        let (status, v) = join(theirs.clone(), bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    let long = format!(r#"{{"name": "{}"}}"#, "x".repeat(61));
    let (status, _) = call_as(r, "POST", &format!("/api/games/{id}/join"), Some(&long), &with(&theirs)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The seat's own token names its side only; everyone reading sees it.
    let (status, v) = join(theirs.clone(), r#"{"name": "Bob"}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, v) = call(&s.app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(
        (
            v["players"]["white"]["display"].clone(),
            v["players"]["black"]["display"].clone()
        ),
        (json!("Human"), json!("Bob"))
    );
    let (_, _) = join(mine, r#"{"name": "Ann"}"#).await;
    let (_, v) = call(&s.app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(
        (
            v["players"]["white"]["display"].clone(),
            v["players"]["black"]["display"].clone()
        ),
        (json!("Ann"), json!("Bob"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_is_claimed_once_and_a_forged_one_refused() {
    let s = server();
    let r = &s.app.router;
    let (status, v) = post(&s.app, "/api/games", json!({"import": MATE_LINE, "seat": "white"})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_i64().unwrap();
    let mine = v["seat"]["token"].as_str().unwrap().to_string();
    let invite = v["invite"]["token"].as_str().unwrap().to_string();
    assert_eq!(v["invites_open"], json!(["black"]));
    let join = |token: String| async move {
        call_as(r, "POST", &format!("/api/games/{id}/join"), Some("{}"), &with(&token)).await
    };
    // The invite's token does not act before it is claimed.
    let early = call_as(
        r,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(r#"{"action": "offer"}"#),
        &with(&invite),
    )
    .await;
    assert_error(&early, StatusCode::FORBIDDEN, "seat token");
    // A made-up token is refused in plain words.
    assert_error(
        &join(OTHER_TOKEN.into()).await,
        StatusCode::FORBIDDEN,
        "does not open a seat of game",
    );
    // The first browser takes the seat; the link then seats nobody else.
    let (status, first) = join(invite.clone()).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["invites_open"], json!([]));
    let theirs = first["seat"]["token"].as_str().unwrap().to_string();
    assert_error(&join(invite.clone()).await, StatusCode::FORBIDDEN, "was used already");
    // The seat's own token and the creator's are what they are.
    let (status, again) = join(theirs.clone()).await;
    assert_eq!(
        (status, again["joined"].clone(), again["seat"]["sides"].clone()),
        (StatusCode::OK, json!(false), json!(["black"]))
    );
    let (_, owner) = join(mine.clone()).await;
    assert_eq!(
        (owner["seat"]["owner"].clone(), owner["seat"]["sides"].clone()),
        (json!(true), json!(["white"]))
    );
    // Only the creator makes a new link; it replaces the seat it hands out.
    assert_error(
        &call_as(
            r,
            "POST",
            &format!("/api/games/{id}/invite"),
            Some("{}"),
            &with(&theirs),
        )
        .await,
        StatusCode::FORBIDDEN,
        "only the creator",
    );
    let (status, v) = call_as(r, "POST", &format!("/api/games/{id}/invite"), Some("{}"), &with(&mine)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["invite"]["side"], "black");
    let second = v["invite"]["token"].as_str().unwrap().to_string();
    assert_error(
        &join(theirs.clone()).await,
        StatusCode::FORBIDDEN,
        "does not open a seat",
    );
    let (status, _) = join(second.clone()).await;
    assert_eq!(status, StatusCode::OK);
    assert_error(&join(second).await, StatusCode::FORBIDDEN, "was used already");
}

/// Every state-changing route of a game: (method, path suffix, body).
fn routes() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        ("POST", "/move", r#"{"move": "(0T1)a1(0T1)a2"}"#),
        ("POST", "/undo", "{}"),
        ("POST", "/submit", "{}"),
        ("POST", "/resign", "{}"),
        ("POST", "/draw", r#"{"action": "offer"}"#),
        ("POST", "/abort", "{}"),
        ("POST", "/retry-engine", "{}"),
        ("DELETE", "", "{}"),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_state_changing_route_needs_the_seat() {
    let s = server();
    let (id, mine, _) = invite_game(&s).await;
    let r = &s.app.router;
    for (m, suffix, body) in routes() {
        let uri = format!("/api/games/{id}{suffix}");
        let json_only = vec![("content-type", "application/json".to_string())];
        let no_seat = call_as(r, m, &uri, Some(body), &json_only).await;
        assert_error(&no_seat, StatusCode::FORBIDDEN, "seat token");
        let wrong = call_as(r, m, &uri, Some(body), &with(OTHER_TOKEN)).await;
        assert_error(&wrong, StatusCode::FORBIDDEN, "seat token");
        let bad_format = call_as(r, m, &uri, Some(body), &with("not-a-token")).await;
        assert_error(&bad_format, StatusCode::FORBIDDEN, "32 hex digits");
        let mut foreign = with(&mine);
        foreign.push(("origin", "http://evil.example".into()));
        assert_error(
            &call_as(r, m, &uri, Some(body), &foreign).await,
            StatusCode::FORBIDDEN,
            "cross-site request refused",
        );
        let mut referer = with(&mine);
        referer.push(("referer", "http://evil.example/page".into()));
        assert_error(
            &call_as(r, m, &uri, Some(body), &referer).await,
            StatusCode::FORBIDDEN,
            "Referer",
        );
        let text = vec![("content-type", "text/plain".to_string()), (TOKEN_HEADER, mine.clone())];
        assert_error(
            &call_as(r, m, &uri, Some(body), &text).await,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "application/json",
        );
        let form = vec![("content-type", "application/x-www-form-urlencoded".to_string())];
        assert_error(
            &call_as(r, m, &uri, Some("move=x"), &form).await,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "application/json",
        );
    }
    // Creating games and challenges, and the lobby's routes, are guarded the same way.
    for uri in [
        "/api/games",
        "/api/challenges",
        "/api/my-games",
        "/api/puzzles/rook-tactics-1",
    ] {
        let text = vec![("content-type", "text/plain".to_string())];
        assert_eq!(
            call_as(r, "POST", uri, Some("{}"), &text).await.0,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{uri}"
        );
        let foreign = vec![
            ("content-type", "application/json".to_string()),
            ("origin", "http://evil.example".to_string()),
        ];
        assert_eq!(
            call_as(r, "POST", uri, Some("{}"), &foreign).await.0,
            StatusCode::FORBIDDEN,
            "{uri}"
        );
    }
    // The page's own origin is fine, and the game is untouched by all of the above.
    let mut own = with(&mine);
    own.push(("origin", "http://127.0.0.1".into()));
    let (status, v) = call_as(r, "GET", &format!("/api/games/{id}"), None, &own).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((v["action_count"].as_u64(), v["result"].is_null()), (Some(0), true));
    let (status, _) = call_as(
        r,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(r#"{"move": "(0T1)a1(0T1)a2"}"#),
        &own,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_act_only_for_their_side() {
    let s = server();
    let (id, white, black) = invite_game(&s).await;
    let r = &s.app.router;
    let go = |token: &str, suffix: &str, body: &str| {
        let (token, uri, body) = (token.to_string(), format!("/api/games/{id}{suffix}"), body.to_string());
        async move { call_as(r, "POST", &uri, Some(&body), &with(&token)).await }
    };
    assert_error(
        &go(&black, "/move", r#"{"move": "(0T1)a1(0T1)a2"}"#).await,
        StatusCode::FORBIDDEN,
        "white is to move",
    );
    assert_eq!(
        go(&white, "/move", r#"{"move": "(0T1)a1(0T1)a2"}"#).await.0,
        StatusCode::OK
    );
    assert_eq!(go(&white, "/submit", "{}").await.0, StatusCode::OK);
    assert_error(
        &go(&white, "/move", r#"{"move": "(0T1)e5(0T1)d4"}"#).await,
        StatusCode::FORBIDDEN,
        "black is to move",
    );
    assert_error(
        &go(&black, "/resign", r#"{"color": "white"}"#).await,
        StatusCode::FORBIDDEN,
        "does not play white",
    );
    // White has played: too late for White to abort; Black still may (but does not).
    assert_error(&go(&white, "/abort", "{}").await, StatusCode::CONFLICT, "too late");
    // Draw offer from Black, a second offer refused, declined by White; then offered again and
    // accepted.
    let (_, v) = go(&black, "/draw", r#"{"action": "offer"}"#).await;
    assert_eq!(v["draw_offer"], "black");
    assert_error(
        &go(&black, "/draw", r#"{"action": "offer"}"#).await,
        StatusCode::CONFLICT,
        "already offered",
    );
    assert_error(
        &go(&black, "/draw", r#"{"action": "accept"}"#).await,
        StatusCode::CONFLICT,
        "no draw offer",
    );
    let (_, v) = go(&white, "/draw", r#"{"action": "decline"}"#).await;
    assert_eq!(v["draw_offer"], Value::Null);
    assert_error(
        &go(&white, "/draw", r#"{"action": "maybe"}"#).await,
        StatusCode::BAD_REQUEST,
        "invalid JSON",
    );
    go(&black, "/draw", r#"{"action": "offer"}"#).await;
    let (status, v) = go(&white, "/draw", r#"{"action": "accept"}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["result"].as_str(), v["termination"].as_str()),
        (Some("1/2-1/2"), Some("agreement"))
    );
    // Only the creator deletes.
    let del = |t: &str| {
        let t = t.to_string();
        async move { call_as(r, "DELETE", &format!("/api/games/{id}"), None, &with(&t)).await }
    };
    assert_error(&del(&black).await, StatusCode::FORBIDDEN, "only the creator");
    assert_eq!(del(&white).await.0, StatusCode::OK);
    // Abort before the first action.
    let (id, white, _) = invite_game(&s).await;
    let (status, v) = call_as(r, "POST", &format!("/api/games/{id}/abort"), Some("{}"), &with(&white)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["termination"], "aborted");
    // Tokens are in no answer but the creator's own, and never in the list or the state.
    let (_, list) = call(&s.app, "GET", "/api/games", None).await;
    let (_, state) = call(&s.app, "GET", &format!("/api/games/{id}"), None).await;
    for text in [list.to_string(), state.to_string()] {
        assert!(!text.contains(&white), "a token leaked: {text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_challenges() {
    let s = server();
    let r = &s.app.router;
    let json = vec![("content-type", "application/json".to_string())];
    let (status, c) = call_as(
        r,
        "POST",
        "/api/challenges",
        Some(r#"{"variant": "Very Small", "color": "black", "name": "Ann", "clock": {"initial_ms": 60000, "increment_ms": 1000}}"#),
        &json,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{c}");
    let (cid, ann) = (c["id"].as_i64().unwrap(), c["token"].as_str().unwrap().to_string());
    let (_, list) = call_as(r, "GET", "/api/challenges", None, &json).await;
    assert_eq!(list["challenges"][0]["name"], "Ann");
    assert!(!list.to_string().contains(&ann));
    assert_error(
        &call_as(r, "POST", "/api/challenges", Some(r#"{"color": "green"}"#), &json).await,
        StatusCode::BAD_REQUEST,
        "color",
    );
    assert_error(
        &call_as(r, "DELETE", &format!("/api/challenges/{cid}"), None, &with(OTHER_TOKEN)).await,
        StatusCode::FORBIDDEN,
        "only the challenger",
    );
    let (status, g) = call_as(
        r,
        "POST",
        &format!("/api/challenges/{cid}/accept"),
        Some(r#"{"name": "Bob"}"#),
        &json,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{g}");
    assert_eq!(g["players"]["white"]["display"], "Bob");
    assert_eq!(g["players"]["black"]["display"], "Ann");
    assert_eq!(g["seat"]["sides"], json!(["white"]));
    assert_eq!(g["clock"]["initial_ms"], 60000);
    let id = g["id"].as_i64().unwrap();
    let bob = g["seat"]["token"].as_str().unwrap().to_string();
    assert_error(
        &call_as(r, "POST", &format!("/api/challenges/{cid}/accept"), Some("{}"), &json).await,
        StatusCode::CONFLICT,
        "already accepted",
    );
    let (_, c) = call_as(r, "GET", &format!("/api/challenges/{cid}"), None, &json).await;
    assert_eq!(c["game"], id);
    // The challenger's token is Black's seat and the creator's; each visitor's list has the game.
    let (_, mine) = call_as(
        r,
        "POST",
        "/api/my-games",
        Some(&json!({"tokens": [ann]}).to_string()),
        &json,
    )
    .await;
    assert_eq!(mine["games"][0]["id"], id);
    assert_eq!(mine["games"][0]["sides"], json!(["black"]));
    assert_eq!(mine["games"][0]["owner"], true);
    let (_, theirs) = call_as(
        r,
        "POST",
        "/api/my-games",
        Some(&json!({"tokens": [bob]}).to_string()),
        &json,
    )
    .await;
    assert_eq!(theirs["games"][0]["sides"], json!(["white"]));
    let (_, none) = call_as(r, "POST", "/api/my-games", Some(r#"{"tokens": ["nope"]}"#), &json).await;
    assert_eq!(none["games"], json!([]));
    let mv = r#"{"move": "(0T1)a2(0T1)a3"}"#;
    assert_eq!(
        call_as(r, "POST", &format!("/api/games/{id}/move"), Some(mv), &with(&ann))
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    let (_, open) = call_as(r, "GET", "/api/challenges", None, &json).await;
    assert_eq!(open["challenges"], json!([]));
}

/// `GET /api/info` with this `Host`.
async fn info_for(app: &Router, host: &str) -> axum::response::Response {
    let req = Request::builder()
        .uri("/api/info")
        .header("host", host)
        .body(Body::empty())
        .unwrap();
    app.clone().oneshot(req).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_hosts_methods_and_long_uris() {
    let s = server();
    let r = &s.app.router;
    for host in ["evil.example", "evil.example:8080", "localhost.evil.example"] {
        assert_eq!(
            info_for(r, host).await.status(),
            StatusCode::MISDIRECTED_REQUEST,
            "{host}"
        );
    }
    for host in ["localhost:8080", "127.0.0.1", "[::1]:9"] {
        let res = info_for(r, host).await;
        assert_eq!(res.status(), StatusCode::OK, "{host}");
        for h in [
            "content-security-policy",
            "x-content-type-options",
            "referrer-policy",
            "x-frame-options",
        ] {
            assert!(res.headers().contains_key(h), "{h}");
        }
        assert!(!res.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("unsafe-inline"));
    }
    // A listed host is served.
    let mut cfg = config(temp_db());
    cfg.allowed_hosts = vec!["chess.example.org".into()];
    let app = router(AppState::open(cfg).unwrap());
    let res = info_for(&app, "chess.example.org").await;
    assert_eq!(res.status(), StatusCode::OK);
    let json = vec![("content-type", "application/json".to_string())];
    assert_error(
        &call_as(r, "PUT", "/api/info", Some("{}"), &json).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "PUT",
    );
    assert_error(
        &call_as(r, "DELETE", "/api/games", None, &json).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "DELETE",
    );
    let long = format!("/api/games?{}", "a".repeat(5000));
    assert_error(
        &call_as(r, "GET", &long, None, &json).await,
        StatusCode::URI_TOO_LONG,
        "at most",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_answer_429() {
    let mut cfg = config(temp_db());
    cfg.rate_limit = Some(2);
    let app = Api::new(router(AppState::open(cfg).unwrap()));
    let mut codes = Vec::new();
    for _ in 0..12 {
        codes.push(post(&app, "/api/games", json!({"variant": "Very Small"})).await);
    }
    let first = codes.iter().position(|(s, _)| *s == StatusCode::TOO_MANY_REQUESTS);
    let first = first.unwrap_or_else(|| panic!("no 429 in {:?}", codes.iter().map(|c| c.0).collect::<Vec<_>>()));
    assert!(first >= 1, "the first request was refused");
    assert_error(&codes[first], StatusCode::TOO_MANY_REQUESTS, "too many requests");
    // Reading is not limited.
    for _ in 0..20 {
        assert_eq!(call(&app, "GET", "/api/games", None).await.0, StatusCode::OK);
    }
    // Moves: a game made before the limit bites plays until refused.
    let id = codes[0].1["id"].as_i64().unwrap();
    let mut refused = false;
    for _ in 0..20 {
        let (s, _) = call(&app, "POST", &format!("/api/games/{id}/undo"), Some("{}")).await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            refused = true;
            break;
        }
    }
    assert!(refused, "20 quick undos were never limited");
}

/// A real server on a free loopback port: (address, stop sender).
pub(crate) async fn listen(cfg: Config) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let state = AppState::open(cfg).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(chess5d_server::serve(listener, state, async move {
        let _ = rx.await;
    }));
    (addr, tx)
}

async fn raw(addr: std::net::SocketAddr, request: &str) -> String {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
        .await
        .unwrap()
        .unwrap();
    String::from_utf8_lossy(&buf[..n]).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_from_foreign_origins_are_refused() {
    let (addr, _stop) = listen(config(temp_db())).await;
    // That server has its own database: make a game there.
    let mut c = tokio::net::TcpStream::connect(addr).await.unwrap();
    c.write_all(
        format!(
            "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let mut answer = String::new();
    c.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let id: i64 = answer
        .split("\"id\":")
        .nth(1)
        .and_then(|t| t.split(',').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no id in {answer}"));
    let ws = |origin: &str| {
        format!(
            "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: {origin}\r\n\r\n"
        )
    };
    let refused = raw(addr, &ws("http://evil.example")).await;
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(refused.contains("cross-site"), "{refused}");
    let accepted = raw(addr, &ws(&format!("http://{addr}"))).await;
    assert!(accepted.starts_with("HTTP/1.1 101"), "{accepted}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_client_is_cut_within_10_seconds() {
    let (addr, _stop) = listen(config(temp_db())).await;
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let start = std::time::Instant::now();
    let request = format!(
        "GET /api/info HTTP/1.1\r\nHost: {addr}\r\nX-Slow: {}\r\n\r\n",
        "a".repeat(40)
    );
    let mut cut = None;
    for b in request.bytes() {
        if s.write_all(&[b]).await.is_err() {
            cut = Some(start.elapsed());
            break;
        }
        // Whatever the server sends or a closed socket ends the wait.
        let mut buf = [0u8; 512];
        match tokio::time::timeout(Duration::from_secs(1), s.read(&mut buf)).await {
            Ok(Ok(_)) | Ok(Err(_)) => {
                cut = Some(start.elapsed());
                break;
            }
            Err(_) => {}
        }
    }
    let cut = cut.expect("the slow client was never cut");
    assert!(cut < Duration::from_secs(10), "cut after {cut:?}");
    assert!(
        cut >= Duration::from_secs(3),
        "cut too early ({cut:?}): not the header timeout"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_database_is_upgraded_in_place() {
    let db = temp_db();
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(include_str!("../data/schema-v1.sql")).unwrap();
    }
    let state = AppState::open(config(db.clone())).unwrap();
    let app = Api::new(router(state.clone()));
    let (status, v) = call(&app, "GET", "/api/games/1", None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["action_count"].as_u64(), v["seated"].as_bool()),
        (Some(1), Some(false))
    );
    assert_eq!(v["players"]["white"]["display"], "Old White");
    let (_, p) = call(&app, "GET", "/api/puzzles", None).await;
    let solved = p["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "rook-tactics-1")
        .unwrap();
    assert_eq!(solved["status"], "solved");
    // That progress was server-wide: it went to the first visitor; another has solved nothing.
    let (_, p) = call(&app, "GET", "/api/puzzles", None).await;
    assert!(
        p["puzzles"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["status"] == "unsolved"),
        "{p}"
    );
    // On loopback a game from before seats stays playable without one...
    let json = vec![("content-type", "application/json".to_string())];
    let (status, _) = call_as(
        &app.router,
        "POST",
        "/api/games/1/move",
        Some(r#"{"move": "(0T1)e5(0T1)d4"}"#),
        &json,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // ...new games get seats in the new tables...
    let id = new_game(&app, json!({})).await;
    assert_eq!(id, 2);
    state.shutdown();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 8);
    let seats: i64 = conn
        .query_row("SELECT COUNT(*) FROM seats WHERE game = 2", [], |r| r.get(0))
        .unwrap();
    assert_eq!(seats, 1);
    let hash: String = conn
        .query_row("SELECT token_hash FROM seats WHERE game = 2", [], |r| r.get(0))
        .unwrap();
    assert_eq!(hash.len(), 64, "stored hashed");
    assert!(!hash.contains(app.tokens.lock().unwrap()[&2].as_str()));
    drop(conn);
    // ...and on a public server the seatless game is read-only.
    let mut cfg = config(db);
    cfg.public = true;
    let app = Api::new(router(AppState::open(cfg).unwrap()));
    let (status, _) = call_as(&app.router, "POST", "/api/games/1/submit", Some("{}"), &json).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(call(&app, "GET", "/api/games/1", None).await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_acknowledged_is_lost_without_a_clean_stop() {
    let db = temp_db();
    let s1 = AppState::open(config(db.clone())).unwrap();
    let app = Api::new(router(s1.clone()));
    let id = new_game(&app, json!({"import": MATE_LINE, "clock": {"initial_ms": 600000}})).await;
    play(&app, id, &["(0T1)a1(0T1)a2"]).await;
    submit(&app, id).await;
    play(&app, id, &["(0T1)e5(0T1)d4"]).await; // acknowledged, not submitted
    let (_, v) = post(&app, &format!("/api/games/{id}/draw"), json!({"action": "offer"})).await;
    assert_eq!(v["draw_offer"], "black");
    // No shutdown, no checkpoint: a second server opens the same file as after a crash.
    let app2 = Api {
        router: router(AppState::open(config(db)).unwrap()),
        tokens: app.tokens.clone(),
    };
    let (_, v) = call(&app2, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(v["action_count"], 1);
    assert_eq!(v["pending"][0]["long"], "(0T1)e5(0T1)d4");
    assert_eq!(v["draw_offer"], "black");
    assert_eq!(v["clock"]["initial_ms"], 600000);
    // The creator's seat works on the new server.
    let v = submit(&app2, id).await;
    assert_eq!(v["action_count"], 2);
    drop(s1);
}

/// A WebSocket client of a game's `/ws`, enough for the tests: the upgrade, text frames read,
/// and one masked text frame written.
struct Ws(tokio::net::TcpStream);

impl Ws {
    async fn open(addr: std::net::SocketAddr, id: i64) -> Ws {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://{addr}\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.unwrap();
        // The answer's head, byte by byte up to the blank line (frames follow).
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            head.push(s.read_u8().await.unwrap());
        }
        assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
        Ws(s)
    }

    /// The next text message, or `None` if none comes within `ms`.
    async fn next(&mut self, ms: u64) -> Option<Value> {
        let s = &mut self.0;
        let b0 = tokio::time::timeout(Duration::from_millis(ms), s.read_u8())
            .await
            .ok()?
            .unwrap();
        assert_eq!(b0 & 0x0f, 1, "a text frame");
        let len = match s.read_u8().await.unwrap() & 0x7f {
            126 => u64::from(s.read_u16().await.unwrap()),
            127 => s.read_u64().await.unwrap(),
            n => u64::from(n),
        };
        let mut buf = vec![0u8; len as usize];
        s.read_exact(&mut buf).await.unwrap();
        Some(serde_json::from_slice(&buf).unwrap())
    }

    /// Every message until none comes for 400 ms.
    async fn drain(&mut self) -> Vec<Value> {
        let mut all = Vec::new();
        while let Some(v) = self.next(400).await {
            all.push(v);
        }
        all
    }

    async fn send(&mut self, v: &Value) {
        let text = v.to_string().into_bytes();
        assert!(text.len() < 126);
        let mask = [1u8, 2, 3, 4];
        let mut frame = vec![0x81, 0x80 | text.len() as u8];
        frame.extend(mask);
        frame.extend(text.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.0.write_all(&frame).await.unwrap();
    }
}

/// A seat's moves not submitted yet are its own: during 20 tries and undos by White, Black's
/// seat and a spectator get no WebSocket message, and their REST answers show the position last
/// submitted; White's own view keeps its try (across a reload); Submit shows it to everyone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tries_are_private_to_the_seat_until_submitted() {
    let (addr, _stop) = listen(config(temp_db())).await;
    let http = |method: &'static str, path: String, body: Option<Value>, token: Option<String>| async move {
        let mut c = tokio::net::TcpStream::connect(addr).await.unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let seat = token.map(|t| format!("{TOKEN_HEADER}: {t}\r\n")).unwrap_or_default();
        c.write_all(
            format!(
                "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{seat}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
        let mut answer = String::new();
        c.read_to_string(&mut answer).await.unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 20"), "{method} {path}: {answer}");
        serde_json::from_str::<Value>(body).unwrap()
    };
    let v = http("POST", "/api/games".into(), Some(json!({"seat": "white"})), None).await;
    let id = v["id"].as_i64().unwrap();
    let white = v["seat"]["token"].as_str().unwrap().to_string();
    let invite = v["invite"]["token"].as_str().unwrap().to_string();
    let v = http("POST", format!("/api/games/{id}/join"), Some(json!({})), Some(invite)).await;
    let black = v["seat"]["token"].as_str().unwrap().to_string();

    let mut spectator = Ws::open(addr, id).await;
    let mut opponent = Ws::open(addr, id).await;
    opponent.send(&json!({ "seat": black })).await;
    spectator.drain().await;
    opponent.drain().await;

    for i in 0..20 {
        let (what, body) = if i % 2 == 0 {
            ("move", json!({"move": "(0T1)e2(0T1)e4"}))
        } else {
            ("undo", json!({}))
        };
        let v = http(
            "POST",
            format!("/api/games/{id}/{what}"),
            Some(body),
            Some(white.clone()),
        )
        .await;
        assert_eq!(
            v["pending"].as_array().unwrap().len(),
            1 - i % 2,
            "White's own answer shows its try"
        );
    }
    http(
        "POST",
        format!("/api/games/{id}/move"),
        Some(json!({"move": "(0T1)d2(0T1)d4"})),
        Some(white.clone()),
    )
    .await;
    assert_eq!(spectator.drain().await.len(), 0, "the spectator was sent a try");
    assert_eq!(opponent.drain().await.len(), 0, "the opponent was sent a try");
    for token in [None, Some(black.clone())] {
        let v = http("GET", format!("/api/games/{id}"), None, token).await;
        assert_eq!(v["pending"], json!([]), "{v}");
        let pawns: Vec<&Value> = v["boards"][0]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["sq"] == "d4")
            .collect();
        assert!(pawns.is_empty(), "the try shows on the board: {v}");
    }
    // White keeps its try (a reload asks again).
    let v = http("GET", format!("/api/games/{id}"), None, Some(white.clone())).await;
    assert_eq!(v["pending"].as_array().unwrap().len(), 1, "{v}");

    http("POST", format!("/api/games/{id}/submit"), Some(json!({})), Some(white)).await;
    for ws in [&mut spectator, &mut opponent] {
        let got = ws.drain().await;
        assert!(got.iter().any(|v| v["action_count"] == 1), "{got:?}");
    }
}
