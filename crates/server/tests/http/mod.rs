//! The HTTP edges of a real server on a loopback port: timeouts (a request not read in time
//! gets a 408, a cleartext HTTP/2 connection that never sends a request is closed), bodiless
//! requests without a content type, and the Origin check's scheme behind a proxy.

use super::online::listen;
use super::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Reads until the server closes the connection (or `limit` passes: `None`).
async fn read_to_close(s: &mut tokio::net::TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    let end = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(end, s.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(all),
            Ok(Ok(n)) => all.extend_from_slice(&buf[..n]),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_not_read_and_answered_in_time_gets_408() {
    let cfg = Config {
        request_timeout: Duration::from_millis(800),
        ..config(temp_db())
    };
    let (addr, _stop) = listen(cfg).await;
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The headers promise 100 bytes of body; one comes.
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let started = std::time::Instant::now();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
        .await
        .expect("no answer within 5 s")
        .unwrap();
    let answer = String::from_utf8_lossy(&buf[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("request timeout"), "{answer}");
    assert!(answer.contains("application/json"), "{answer}");
    assert!(
        started.elapsed() >= Duration::from_millis(700),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cleartext_http2_connection_without_a_request_is_closed() {
    let cfg = Config {
        header_timeout: Duration::from_millis(800),
        ..config(temp_db())
    };
    let (addr, _stop) = listen(cfg).await;
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The HTTP/2 preface and an empty SETTINGS frame, then silence (no HEADERS frame).
    s.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").await.unwrap();
    s.write_all(&[0, 0, 0, 4, 0, 0, 0, 0, 0]).await.unwrap();
    let started = std::time::Instant::now();
    let got = read_to_close(&mut s, Duration::from_secs(6)).await;
    let took = started.elapsed();
    let got = got.expect("the silent HTTP/2 connection stayed open");
    // The server spoke HTTP/2 (its SETTINGS frame: type 4 on stream 0) before closing.
    assert!(got.len() >= 9 && got[3] == 4, "{got:?}");
    assert!(took >= Duration::from_millis(600), "closed too early: {took:?}");
    // A connection that sends its request in time is served as before.
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET /api/info HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let got = read_to_close(&mut s, Duration::from_secs(5)).await.unwrap();
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn a_delete_needs_no_body_nor_content_type() {
    let s = server();
    let id = new_game(&s.app, json!({})).await;
    let token = s.app.token_for(&format!("/api/games/{id}")).unwrap();
    // As a REST client sends it: no body, no content type.
    let (status, body) = call_as(
        &s.app.router,
        "DELETE",
        &format!("/api/games/{id}"),
        None,
        &[(TOKEN_HEADER, token.clone())],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["deleted"], json!(id));
    // A body still needs its content type.
    let id = new_game(&s.app, json!({})).await;
    let token = s.app.token_for(&format!("/api/games/{id}")).unwrap();
    let r = call_as(
        &s.app.router,
        "DELETE",
        &format!("/api/games/{id}"),
        Some("{}"),
        &[(TOKEN_HEADER, token), ("content-length", "2".into())],
    )
    .await;
    assert_error(&r, StatusCode::UNSUPPORTED_MEDIA_TYPE, "Content-Type: application/json");
}

#[tokio::test]
async fn behind_a_proxy_the_origin_scheme_is_the_forwarded_one() {
    let state = AppState::open(Config {
        behind_proxy: true,
        allowed_hosts: vec!["chess.example.org".into()],
        ..config(temp_db())
    })
    .unwrap();
    let app = router(state);
    let headers = |origin: &str, proto: Option<&str>| {
        let mut h = vec![
            ("content-type", "application/json".to_string()),
            ("x-forwarded-host", "chess.example.org".to_string()),
            ("x-forwarded-for", "203.0.113.9".to_string()),
            ("origin", origin.to_string()),
        ];
        if let Some(p) = proto {
            h.push(("x-forwarded-proto", p.to_string()));
        }
        h
    };
    let create = |h: Vec<(&'static str, String)>| {
        let app = app.clone();
        async move { call_as(&app, "POST", "/api/games", Some("{}"), &h).await }
    };
    let ok = create(headers("https://chess.example.org", Some("https"))).await;
    assert_eq!(ok.0, StatusCode::CREATED, "{}", ok.1);
    // The same host by another scheme is another origin.
    let r = create(headers("http://chess.example.org", Some("https"))).await;
    assert_error(&r, StatusCode::FORBIDDEN, "https://chess.example.org");
    let r = create(headers("https://chess.example.org", Some("http"))).await;
    assert_error(&r, StatusCode::FORBIDDEN, "cross-site");
    // A proxy that does not say: either scheme of the right host.
    let ok = create(headers("https://chess.example.org:443", None)).await;
    assert_eq!(ok.0, StatusCode::CREATED, "{}", ok.1);
    // Without a proxy, the server speaks cleartext only: an https origin is not this server.
    let direct = router(AppState::open(config(temp_db())).unwrap());
    let r = call_as(
        &direct,
        "POST",
        "/api/games",
        Some("{}"),
        &[
            ("content-type", "application/json".to_string()),
            ("origin", "https://127.0.0.1".to_string()),
        ],
    )
    .await;
    assert_error(&r, StatusCode::FORBIDDEN, "http://127.0.0.1");
}

/// The page's addresses typed without `#` lead to the page (issue 19: `/game/999999` answered
/// raw JSON); other pages say there is no such page in HTML; the API keeps answering JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_addresses_without_the_fragment_lead_to_the_page() {
    let s = server();
    let r = &s.app.router;
    let res = r
        .clone()
        .oneshot(
            Request::builder()
                .uri("/game/999999")
                .header("host", "127.0.0.1")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(res.headers()["location"], "/#/game/999999");
    let (status, body) = call_as(r, "GET", "/editor", None, &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    let (status, body) = call_as(r, "GET", "/no/such/page", None, &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        body.as_str()
            .is_some_and(|t| t.contains("There is no page /no/such/page here")),
        "{body}"
    );
    assert_error(
        &call_as(r, "GET", "/api/nothing", None, &[]).await,
        StatusCode::NOT_FOUND,
        "no such page or API endpoint",
    );
}
