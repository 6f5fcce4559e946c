#![no_main]
//! The server's API: request bodies and query strings on every route, through the whole router
//! (guards, extractors, handlers). Nothing may answer 500, and every error has a JSON body.
//! Input: one byte picks the route, then the query string up to the first newline, then the body.
use axum::body::Body;
use axum::http::Request;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tower::ServiceExt;

struct Fixture {
    rt: tokio::runtime::Runtime,
    app: axum::Router,
    token: String,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("chess5d-fuzz-api-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let config = chess5d_server::Config {
            db: dir.join("games.db"),
            rate_limit: None,
            ..chess5d_server::Config::default()
        };
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let (app, token) = rt.block_on(async {
            let app = chess5d_server::router(chess5d_server::AppState::open(config).unwrap());
            let req = Request::post("/api/games")
                .header("host", "127.0.0.1")
                .header("content-type", "application/json")
                .body(Body::from(r#"{"variant": "Standard - Two Timelines"}"#))
                .unwrap();
            let res = app.clone().oneshot(req).await.unwrap();
            let bytes = axum::body::to_bytes(res.into_body(), 1 << 24).await.unwrap();
            let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            (app, v["seat"]["token"].as_str().unwrap().to_string())
        });
        Fixture { rt, app, token }
    })
}

const ROUTES: &[(&str, &str)] = &[
    ("POST", "/api/games"),
    ("GET", "/api/games/1"),
    ("GET", "/api/games/1/moves"),
    ("POST", "/api/games/1/move"),
    ("POST", "/api/games/1/undo"),
    ("POST", "/api/games/1/resign"),
    ("POST", "/api/games/1/draw"),
    ("POST", "/api/games/1/abort"),
    ("POST", "/api/challenges"),
    ("POST", "/api/challenges/1/accept"),
    ("POST", "/api/my-games"),
    ("GET", "/api/challenges/1"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let (method, path) = ROUTES[pick as usize % ROUTES.len()];
    let (query, body) = match rest.iter().position(|&b| b == b'\n') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    // Only bytes a client can put in a URI; the rest is the HTTP library's business.
    let query: String = query.iter().filter(|b| b.is_ascii_graphic() && **b != b'#').map(|&b| b as char).collect();
    let uri = if query.is_empty() { path.to_string() } else { format!("{path}?{query}") };
    let f = fixture();
    let Ok(req) = Request::builder()
        .method(method)
        .uri(&uri)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .header(chess5d_server::TOKEN_HEADER, &f.token)
        .body(Body::from(body.to_vec()))
    else {
        return;
    };
    f.rt.block_on(async {
        let res = f.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 24).await.unwrap();
        assert!(status.as_u16() < 500, "{method} {uri}: {status} {}", String::from_utf8_lossy(&bytes));
        if status.as_u16() >= 400 {
            let v: serde_json::Value = serde_json::from_slice(&bytes).expect("a JSON error body");
            assert!(v["error"].is_string(), "{v}");
        }
    });
});
