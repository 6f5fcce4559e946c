//! Playing people (issue 47): accounts (sign-up, login, throttles, sessions, deletion), the
//! password kept only hashed, quick pairing, rated games changing both ratings by Glicko-2 once
//! (also across a restart without a clean stop), fair play, players' pages, and the schema
//! step that adds the tables to an older database.

use super::*;
use axum::http::HeaderMap;

/// A request with these headers; the answer's status, headers and JSON.
async fn req(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
    headers: &[(&str, String)],
) -> (StatusCode, HeaderMap, Value) {
    let mut r = Request::builder().method(method).uri(uri).header("host", "127.0.0.1");
    if body.is_some() {
        r = r.header("content-type", "application/json");
    }
    for (k, v) in headers {
        r = r.header(*k, v);
    }
    let r = r
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let res = app.clone().oneshot(r).await.unwrap();
    let (status, headers) = (res.status(), res.headers().clone());
    let bytes = axum::body::to_bytes(res.into_body(), 16 << 20).await.unwrap();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, headers, v)
}

/// The session cookie an answer sets (`name=value`), and the whole header.
fn session_cookie(h: &HeaderMap) -> (String, String) {
    let c = h
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("chess5d_session="))
        .expect("a session cookie");
    (c.split(';').next().unwrap().to_string(), c)
}

/// Signs up `name` from address `ip`: the cookie header to send as it.
pub(crate) async fn sign_up(app: &Router, name: &str, password: &str, ip: &str) -> Vec<(&'static str, String)> {
    let (st, h, v) = req(
        app,
        "POST",
        "/api/account",
        Some(json!({"name": name, "password": password})),
        &[("x-forwarded-for", ip.to_string())],
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["name"], name);
    vec![("cookie", session_cookie(&h).0), ("x-forwarded-for", ip.to_string())]
}

fn proxied(db: PathBuf) -> Config {
    Config {
        behind_proxy: true,
        ..config(db)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_log_in_and_out() {
    let s = server_with(proxied(temp_db()));
    let app = &s.app.router;
    let ip = || ("x-forwarded-for", "10.0.0.1".to_string());
    // Names: 2 to 20 of A-Z a-z 0-9 _ -.
    for bad in ["a", "with space", "é-accent", "x".repeat(21).as_str()] {
        let (st, _, v) = req(
            app,
            "POST",
            "/api/account",
            Some(json!({"name": bad, "password": "long enough"})),
            &[ip()],
        )
        .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    let (st, _, v) = req(
        app,
        "POST",
        "/api/account",
        Some(json!({"name": "Alice", "password": "short"})),
        &[ip()],
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    let (st, h, v) = req(
        app,
        "POST",
        "/api/account",
        Some(json!({"name": "Alice_1", "password": "correct horse"})),
        &[ip()],
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let (cookie, header) = session_cookie(&h);
    assert!(
        header.contains("HttpOnly") && header.contains("SameSite=Lax"),
        "{header}"
    );
    assert!(!header.contains("Secure"), "cleartext: {header}");
    // Unique without regard to case.
    let (st, _, v) = req(
        app,
        "POST",
        "/api/account",
        Some(json!({"name": "alice_1", "password": "correct horse"})),
        &[ip()],
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    // The session names the account; logout ends it.
    let me = [("cookie", cookie.clone())];
    let (st, _, v) = req(app, "GET", "/api/account", None, &me).await;
    assert_eq!((st, v["name"].as_str()), (StatusCode::OK, Some("Alice_1")));
    let (st, h, _) = req(app, "POST", "/api/logout", None, &me).await;
    assert_eq!(st, StatusCode::OK);
    assert!(session_cookie(&h).1.contains("Max-Age=0"));
    assert_eq!(req(app, "GET", "/api/account", None, &me).await.2["name"], Value::Null);
    // Login (any case of the name) over TLS through the proxy: a Secure cookie.
    let tls = [ip(), ("x-forwarded-proto", "https".to_string())];
    let (st, h, v) = req(
        app,
        "POST",
        "/api/login",
        Some(json!({"name": "ALICE_1", "password": "correct horse"})),
        &tls,
    )
    .await;
    assert_eq!((st, v["name"].as_str()), (StatusCode::OK, Some("Alice_1")), "{v}");
    let (cookie, header) = session_cookie(&h);
    assert!(header.contains("; Secure"), "{header}");
    // A second session; the list shows both; one ends the other.
    let (_, h2, _) = req(
        app,
        "POST",
        "/api/login",
        Some(json!({"name": "Alice_1", "password": "correct horse"})),
        &[ip()],
    )
    .await;
    let other = session_cookie(&h2).0;
    let me = [("cookie", cookie.clone())];
    let (_, _, v) = req(app, "GET", "/api/account/sessions", None, &me).await;
    let list = v["sessions"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{v}");
    let theirs = list.iter().find(|x| x["current"] == false).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (st, _, _) = req(app, "DELETE", &format!("/api/account/sessions/{theirs}"), None, &me).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(
        req(app, "GET", "/api/account", None, &[("cookie", other)]).await.2["name"],
        Value::Null
    );
    // A cross-site page cannot log anyone in or out.
    let (st, _, _) = req(
        app,
        "POST",
        "/api/logout",
        None,
        &[("cookie", cookie.clone()), ("origin", "https://evil.example".into())],
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    // Changing the password: the old one no longer works.
    let (st, _, v) = req(
        app,
        "POST",
        "/api/account/password",
        Some(json!({"password": "correct horse", "new_password": "battery staple"})),
        &me,
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let login = |pw: &str| json!({"name": "Alice_1", "password": pw});
    assert_eq!(
        req(app, "POST", "/api/login", Some(login("correct horse")), &[ip()])
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        req(app, "POST", "/api/login", Some(login("battery staple")), &[ip()])
            .await
            .0,
        StatusCode::OK
    );
    // Deleting the account: the name is free again, the session over.
    let (st, _, v) = req(
        app,
        "DELETE",
        "/api/account",
        Some(json!({"password": "battery staple"})),
        &me,
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(req(app, "GET", "/api/account", None, &me).await.2["name"], Value::Null);
    assert_eq!(
        req(app, "GET", "/api/players/Alice_1", None, &[]).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        req(app, "POST", "/api/login", Some(login("battery staple")), &[ip()])
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    sign_up(app, "alice_1", "another one", "10.0.0.2").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_and_sign_ups_are_throttled() {
    let s = server_with(proxied(temp_db()));
    let app = &s.app.router;
    sign_up(app, "bob", "the right one", "10.0.1.1").await;
    // Five failures a minute per name are answered 401, the sixth 429 with Retry-After, from
    // any address, even with the right password.
    let wrong = json!({"name": "bob", "password": "not the one"});
    let mut answers = Vec::new();
    for i in 0..5 {
        let (st, h, v) = req(
            app,
            "POST",
            "/api/login",
            Some(wrong.clone()),
            &[("x-forwarded-for", format!("10.0.2.{i}"))],
        )
        .await;
        assert_eq!(st, StatusCode::UNAUTHORIZED, "{v}");
        assert!(h.get("set-cookie").is_none());
        answers.push(v);
    }
    let (st, h, v) = req(
        app,
        "POST",
        "/api/login",
        Some(json!({"name": "bob", "password": "the right one"})),
        &[("x-forwarded-for", "10.0.3.1".into())],
    )
    .await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{v}");
    let retry: u64 = h.get("retry-after").unwrap().to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    // An unknown name gets the very answer of a wrong password; per address too.
    let unknown = json!({"name": "nobody", "password": "whatever it is"});
    for _ in 0..5 {
        let (st, _, v) = req(
            app,
            "POST",
            "/api/login",
            Some(unknown.clone()),
            &[("x-forwarded-for", "10.0.4.1".into())],
        )
        .await;
        assert_eq!(st, StatusCode::UNAUTHORIZED);
        assert_eq!(v, answers[0]);
    }
    let (st, h, _) = req(
        app,
        "POST",
        "/api/login",
        Some(json!({"name": "carol", "password": "anything at all"})),
        &[("x-forwarded-for", "10.0.4.1".into())],
    )
    .await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS);
    assert!(h.get("retry-after").is_some());
    // Sign-ups: five an hour from one address, then 429; another address may.
    for i in 0..4 {
        sign_up(app, &format!("fam{i}"), "family password", "10.0.1.1").await;
    }
    let (st, h, v) = req(
        app,
        "POST",
        "/api/account",
        Some(json!({"name": "fam9", "password": "family password"})),
        &[("x-forwarded-for", "10.0.1.1".into())],
    )
    .await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(h.get("retry-after").is_some());
    sign_up(app, "neighbour", "family password", "10.0.1.2").await;
}

/// The password is in no file the server writes: the database (and its log) hold its argon2id
/// hash only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passwords_are_stored_hashed() {
    let db = temp_db();
    let s = server_with(proxied(db.clone()));
    let pw = "Pa55word-in-clear-7f3a";
    sign_up(&s.app.router, "dana", pw, "10.0.5.1").await;
    let (st, _, _) = req(
        &s.app.router,
        "POST",
        "/api/login",
        Some(json!({"name": "dana", "password": pw})),
        &[],
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let hash: String = conn
        .query_row("SELECT password FROM accounts WHERE name = 'dana'", [], |r| r.get(0))
        .unwrap();
    assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
    drop(conn);
    s.state.shutdown();
    let dir = db.parent().unwrap();
    for f in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(f.unwrap().path()).unwrap();
        assert!(!bytes.windows(pw.len()).any(|w| w == pw.as_bytes()));
    }
}

/// Pairs `a` and `b` (cookie headers) on `clock`: (game id, [a's token, b's token], a's side).
async fn pair(
    app: &Router,
    a: &[(&str, String)],
    b: &[(&str, String)],
    clock: &str,
    rated: bool,
) -> (i64, [String; 2], String) {
    let body = json!({"clock": clock, "variant": "Standard", "rated": rated});
    let (st, _, v) = req(app, "POST", "/api/pairing", Some(body.clone()), a).await;
    assert_eq!((st, v["waiting"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
    let (_, _, v) = req(app, "GET", "/api/pairing", None, a).await;
    assert_eq!(v["waiting"], true, "{v}");
    let (st, _, vb) = req(app, "POST", "/api/pairing", Some(body), b).await;
    assert_eq!(st, StatusCode::OK, "{vb}");
    let (_, _, va) = req(app, "GET", "/api/pairing", None, a).await;
    let id = va["game"]["id"].as_i64().unwrap_or_else(|| panic!("{va} {vb}"));
    assert_eq!(vb["game"]["id"], id);
    assert_ne!(va["game"]["seat"]["side"], vb["game"]["seat"]["side"]);
    // Given once: the entry has left the pool.
    assert_eq!(req(app, "GET", "/api/pairing", None, a).await.0, StatusCode::NOT_FOUND);
    let t = |v: &Value| v["game"]["seat"]["token"].as_str().unwrap().to_string();
    (
        id,
        [t(&va), t(&vb)],
        va["game"]["seat"]["side"].as_str().unwrap().to_string(),
    )
}

/// Plays one action of each side with the seats, then White resigns or Black does.
async fn play_and_resign(app: &Router, id: i64, white: &str, black: &str, loser: &str) {
    for (t, m) in [(white, "(0T1)e2(0T1)e4"), (black, "(0T1)e7(0T1)e5")] {
        let h = [(TOKEN_HEADER, t.to_string())];
        let (st, _, v) = req(
            app,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({"move": m})),
            &h,
        )
        .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let (st, _, v) = req(app, "POST", &format!("/api/games/{id}/submit"), Some(json!({})), &h).await;
        assert_eq!(st, StatusCode::OK, "{v}");
    }
    let t = if loser == "white" { white } else { black };
    let (st, _, v) = req(
        app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(json!({})),
        &[(TOKEN_HEADER, t.to_string())],
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap_or(f64::NAN) - b).abs() < 0.06
}

/// Two new accounts pair on 5+3 rated (blitz); Black resigns after a move each; both ratings
/// change by Glicko-2 (1662.3 / 1337.7, RD 290.3) once, also after a restart without a clean
/// stop; the players' pages list the game with its change; casual and aborted games change
/// nothing; rated play needs an account.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_pairing_changes_ratings_once() {
    let db = temp_db();
    let s = server_with(proxied(db.clone()));
    let app = &s.app.router;
    let ann = sign_up(app, "ann", "ann's password", "10.0.6.1").await;
    let ben = sign_up(app, "ben", "ben's password", "10.0.6.2").await;
    // Rated needs an account; a bad clock is refused.
    let (st, _, _) = req(
        app,
        "POST",
        "/api/pairing",
        Some(json!({"clock": "5+3", "rated": true})),
        &[],
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _, v) = req(
        app,
        "POST",
        "/api/pairing",
        Some(json!({"clock": "5 minutes", "rated": true})),
        &ann,
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    // A cancelled entry pairs with nobody.
    req(
        app,
        "POST",
        "/api/pairing",
        Some(json!({"clock": "5+3", "rated": true})),
        &ann,
    )
    .await;
    let (_, _, v) = req(app, "DELETE", "/api/pairing", None, &ann).await;
    assert_eq!(v["left"], true);
    let (id, [ta, tb], side_a) = pair(app, &ann, &ben, "5+3", true).await;
    let (white, black) = if side_a == "white" { (&ta, &tb) } else { (&tb, &ta) };
    let (_, _, g) = req(
        app,
        "GET",
        &format!("/api/games/{id}"),
        None,
        &[(TOKEN_HEADER, ta.clone())],
    )
    .await;
    assert_eq!(g["clock"]["initial_ms"], 300000, "{g}");
    // The clock waits for each side's first action.
    assert_eq!(g["clock"]["running"], false, "{g}");
    let (_, _, r) = req(app, "GET", &format!("/api/games/{id}/rating"), None, &[]).await;
    assert_eq!(
        (r["rated"].as_bool(), r["category"].as_str()),
        (Some(true), Some("blitz")),
        "{r}"
    );
    // Fair play: no analysis board or review from the game while it is played, for a seat or
    // a spectator.
    for h in [vec![(TOKEN_HEADER, ta.clone())], vec![]] {
        let (st, _, v) = req(app, "POST", "/api/analysis", Some(json!({"game": id})), &h).await;
        assert_eq!(st, StatusCode::CONFLICT, "{v}");
        assert!(v["error"].as_str().unwrap().contains("when the game ends"), "{v}");
    }
    play_and_resign(app, id, white, black, "black").await;
    let (_, _, r) = req(app, "GET", &format!("/api/games/{id}/rating"), None, &[]).await;
    let (w, b) = (&r["white"], &r["black"]);
    assert!(close(&w["after"], 1662.31) && close(&b["after"], 1337.69), "{r}");
    assert_eq!((w["change"].as_i64(), b["change"].as_i64()), (Some(162), Some(-162)));
    // After the end the analysis board opens.
    let (st, _, v) = req(app, "POST", "/api/analysis", Some(json!({"game": id})), &[]).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let winner = if side_a == "white" { "ann" } else { "ben" };
    let check = |v: &Value, who: &str| {
        let blitz = &v["ratings"]["blitz"];
        let want = if who == winner { 1662.3 } else { 1337.7 };
        assert!(close(&blitz["rating"], want), "{who}: {v}");
        assert!(close(&blitz["rd"], 290.3), "{v}");
        assert_eq!(
            (blitz["games"].as_i64(), blitz["provisional"].as_bool()),
            (Some(1), Some(true))
        );
        assert_eq!(v["games"][0]["id"], id);
        assert_eq!(v["games"][0]["change"].as_i64().map(i64::abs), Some(162));
        assert_eq!(v["history"]["blitz"].as_array().map(Vec::len), Some(1));
    };
    for who in ["ann", "ben"] {
        let (st, _, v) = req(app, "GET", &format!("/api/players/{who}"), None, &[]).await;
        assert_eq!(st, StatusCode::OK);
        check(&v, who);
    }
    // A second server on the same file, without a clean stop of the first: rated once.
    let app2 = router(AppState::open(proxied(db.clone())).unwrap());
    for who in ["ANN", "ben"] {
        let (_, _, v) = req(&app2, "GET", &format!("/api/players/{who}"), None, &[]).await;
        check(&v, &who.to_lowercase());
    }
    // Writing the ended game again (its clock ticking, a reload) rates nothing again.
    let (_, _, _) = req(&app2, "GET", &format!("/api/games/{id}"), None, &[]).await;
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = conn
        .query_row("SELECT COUNT(*) FROM rating_changes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 2);
    drop(conn);
    // Casual: nothing changes. Aborted before both moved: nothing changes. (New categories:
    // in blitz their ratings are now too far apart to pair at once.)
    let body = json!({"clock": "5+3", "rated": true});
    req(&app2, "POST", "/api/pairing", Some(body.clone()), &ann).await;
    let (_, _, v) = req(&app2, "POST", "/api/pairing", Some(body), &ben).await;
    assert_eq!(v["waiting"], true, "1662 and 1338 are not paired at once: {v}");
    req(&app2, "DELETE", "/api/pairing", None, &ann).await;
    req(&app2, "DELETE", "/api/pairing", None, &ben).await;
    let (id2, [ta, tb], side_a) = pair(&app2, &ann, &ben, "15+10", false).await;
    let (white, black) = if side_a == "white" { (&ta, &tb) } else { (&tb, &ta) };
    play_and_resign(&app2, id2, white, black, "white").await;
    let (id3, [ta, _], _) = pair(&app2, &ann, &ben, "1+0", true).await;
    let (st, _, v) = req(
        &app2,
        "POST",
        &format!("/api/games/{id3}/abort"),
        Some(json!({})),
        &[(TOKEN_HEADER, ta)],
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n: i64 = conn
        .query_row("SELECT COUNT(*) FROM rating_changes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 2);
    let (_, _, v) = req(&app2, "GET", "/api/players/ann", None, &[]).await;
    assert_eq!(v["ratings"]["blitz"]["games"], 1, "{v}");
    assert!(
        v["ratings"].get("rapid").is_none() && v["ratings"].get("bullet").is_none(),
        "{v}"
    );
    assert_eq!(v["games"].as_array().unwrap().len(), 3, "{v}");
}

/// A logged-in player gets a seat of their game on another device.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_device_gets_the_seat() {
    let s = server_with(proxied(temp_db()));
    let app = &s.app.router;
    let eve = sign_up(app, "eve", "eve's password", "10.0.7.1").await;
    let fay = sign_up(app, "fay", "fay's password", "10.0.7.2").await;
    let (id, _, side) = pair(app, &eve, &fay, "10+0", true).await;
    let (_, h, _) = req(
        app,
        "POST",
        "/api/login",
        Some(json!({"name": "eve", "password": "eve's password"})),
        &[],
    )
    .await;
    let phone = [("cookie", session_cookie(&h).0)];
    let (st, _, v) = req(app, "POST", &format!("/api/games/{id}/seat"), Some(json!({})), &phone).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["seat"]["side"], side.as_str());
    let (_, _, g) = req(
        app,
        "GET",
        &format!("/api/games/{id}"),
        None,
        &[(TOKEN_HEADER, v["seat"]["token"].as_str().unwrap().to_string())],
    )
    .await;
    assert_eq!(g["seated"], true, "{g}");
    // Nobody else's.
    let (st, _, _) = req(app, "POST", &format!("/api/games/{id}/seat"), Some(json!({})), &[]).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
}

/// A database of the schema before accounts is upgraded in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_tables_are_added_by_migration() {
    let db = temp_db();
    AppState::open(config(db.clone())).unwrap().shutdown();
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "DROP TABLE accounts; DROP TABLE account_sessions; DROP TABLE game_accounts; DROP TABLE ratings;
             DROP TABLE rating_changes; PRAGMA user_version = 6;",
        )
        .unwrap();
    }
    let s = server_with(proxied(db.clone()));
    sign_up(&s.app.router, "gus", "gus's password", "10.0.8.1").await;
    s.state.shutdown();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 7);
}
