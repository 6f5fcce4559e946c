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
             DROP TABLE rating_changes; DROP TABLE rematches; ALTER TABLE challenges DROP COLUMN account;
             ALTER TABLE challenges DROP COLUMN rated; ALTER TABLE challenges DROP COLUMN to_account;
             ALTER TABLE challenges DROP COLUMN category;
             PRAGMA user_version = 6;",
        )
        .unwrap();
    }
    let s = server_with(proxied(db.clone()));
    sign_up(&s.app.router, "gus", "gus's password", "10.0.8.1").await;
    s.state.shutdown();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 8);
}

/// A rematch: after a rated game, refused while it is played and to a spectator; the loser
/// offers, the winner accepts; the new game has the colours swapped, the same clock, rated with
/// the accounts swapped; each gets the seat of their new side; asked again, the same game and
/// the same seat token (issue 47: a new token each time, with no cap, before).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_swaps_colours_once_both_accept() {
    let s = server_with(proxied(temp_db()));
    let app = &s.app.router;
    let ann = sign_up(app, "rann", "ann's password", "10.0.9.1").await;
    let ben = sign_up(app, "rben", "ben's password", "10.0.9.2").await;
    let (id, [ta, tb], side_a) = pair(app, &ann, &ben, "5+3", true).await;
    let (white, black) = if side_a == "white" { (&ta, &tb) } else { (&tb, &ta) };
    let url = format!("/api/games/{id}/rematch");
    let seat = |t: &str| vec![(TOKEN_HEADER, t.to_string())];
    // Not while the game is played.
    let (st, _, v) = req(app, "POST", &url, Some(json!({})), &seat(white)).await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    play_and_resign(app, id, white, black, "black").await;
    // Not for a spectator.
    let (st, _, _) = req(app, "POST", &url, Some(json!({})), &[]).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    // Black offers; White sees it; declined, then offered again and accepted.
    let (st, _, v) = req(app, "POST", &url, Some(json!({})), &seat(black)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["offered"], json!({"white": false, "black": true}));
    assert_eq!(v["game"], Value::Null);
    let (_, _, v) = req(app, "GET", &url, None, &[]).await;
    assert_eq!(v["offered"]["black"], true, "{v}");
    let (st, _, v) = req(app, "DELETE", &url, None, &seat(white)).await;
    assert_eq!((st, &v["offered"]["black"]), (StatusCode::OK, &json!(false)), "{v}");
    req(app, "POST", &url, Some(json!({})), &seat(black)).await;
    let (st, _, v) = req(app, "POST", &url, Some(json!({})), &seat(white)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let next = v["game"].as_i64().unwrap_or_else(|| panic!("{v}"));
    assert_ne!(next, id);
    // The old White plays Black now.
    assert_eq!(v["seat"]["side"], "black", "{v}");
    let new_black = v["seat"]["token"].as_str().unwrap().to_string();
    let (_, _, v) = req(app, "POST", &url, Some(json!({})), &seat(black)).await;
    assert_eq!(
        (v["game"].as_i64(), v["seat"]["side"].as_str()),
        (Some(next), Some("white")),
        "{v}"
    );
    let new_white = v["seat"]["token"].as_str().unwrap().to_string();
    // Asked again (a lost answer, a reload, a script), each seat gets the same token, never a
    // new one: the new game's seats do not grow with the asking.
    for _ in 0..5 {
        for (old, new) in [(black, &new_white), (white, &new_black)] {
            let (st, _, v) = req(app, "POST", &url, Some(json!({})), &seat(old)).await;
            assert_eq!(st, StatusCode::OK, "{v}");
            assert_eq!(
                v["seat"]["token"].as_str(),
                Some(new.as_str()),
                "a new token each time: {v}"
            );
        }
    }
    let (_, _, g) = req(app, "GET", &format!("/api/games/{next}"), None, &[]).await;
    assert_eq!(g["clock"]["initial_ms"], 300_000, "{g}");
    assert_eq!(g["clock"]["increment_ms"], 3_000, "{g}");
    let (wn, bn) = if side_a == "white" {
        ("rann", "rben")
    } else {
        ("rben", "rann")
    };
    assert_eq!(g["players"]["white"]["display"], bn, "{g}");
    assert_eq!(g["players"]["black"]["display"], wn, "{g}");
    let (_, _, r) = req(app, "GET", &format!("/api/games/{next}/rating"), None, &[]).await;
    assert_eq!(r["rated"], true, "{r}");
    assert_eq!(r["white"]["name"], bn, "{r}");
    // The new seats play: White's token moves White's pieces, not Black's.
    let (st, _, v) = req(
        app,
        "POST",
        &format!("/api/games/{next}/move"),
        Some(json!({"move": "(0T1)e2(0T1)e4"})),
        &seat(&new_black),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    let (st, _, v) = req(
        app,
        "POST",
        &format!("/api/games/{next}/move"),
        Some(json!({"move": "(0T1)e2(0T1)e4"})),
        &seat(&new_white),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
}

/// Posts a move and submits it with a seat's token.
async fn act(app: &Router, id: i64, token: &str, m: &str) {
    let h = [(TOKEN_HEADER, token.to_string())];
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

/// Correspondence: quick pairing on 3 days a move (rated, category correspondence), a lobby
/// challenge of 7 days; each action gives the mover its days again; the home page's list of
/// games where it is one's move follows the turn; bad day counts are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn correspondence_days_per_move_and_my_turn() {
    const DAY: i64 = 86_400_000;
    let s = server_with(proxied(temp_db()));
    let app = &s.app.router;
    let ann = sign_up(app, "cann", "ann's password", "10.0.10.1").await;
    let ben = sign_up(app, "cben", "ben's password", "10.0.10.2").await;
    for bad in ["4d", "0d", "d", "15d"] {
        let (st, _, v) = req(app, "POST", "/api/pairing", Some(json!({"clock": bad})), &ann).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains("days per action"), "{v}");
    }
    let (st, _, v) = req(app, "POST", "/api/games", Some(json!({"clock": {"days": 4}})), &[]).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    let (id, [ta, tb], side_a) = pair(app, &ann, &ben, "3d", true).await;
    let (_, _, g) = req(app, "GET", &format!("/api/games/{id}"), None, &[]).await;
    assert_eq!(g["clock"]["days"], 3, "{g}");
    assert_eq!(g["clock"]["white_ms"], 3 * DAY, "{g}");
    let (_, _, r) = req(app, "GET", &format!("/api/games/{id}/rating"), None, &[]).await;
    assert_eq!(
        (r["rated"].as_bool(), r["category"].as_str()),
        (Some(true), Some("correspondence")),
        "{r}"
    );
    let (white, black, wc, bc) = if side_a == "white" {
        (&ta, &tb, &ann, &ben)
    } else {
        (&tb, &ta, &ben, &ann)
    };
    let turn = |v: &Value| {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    // White to move: on White's list, not Black's.
    let (st, _, v) = req(app, "GET", "/api/my-turn", None, wc).await;
    assert_eq!((st, turn(&v)), (StatusCode::OK, vec![id]), "{v}");
    assert_eq!(v["games"][0]["color"], "white");
    assert_eq!(v["games"][0]["clock"]["days"], 3);
    assert_eq!(v["games"][0]["left_ms"], 3 * DAY);
    let (_, _, v) = req(app, "GET", "/api/my-turn", None, bc).await;
    assert_eq!(turn(&v), Vec::<i64>::new(), "{v}");
    // Without a session: 403 (as every request that needs one).
    assert_eq!(
        req(app, "GET", "/api/my-turn", None, &[]).await.0,
        StatusCode::FORBIDDEN
    );
    act(app, id, white, "(0T1)e2(0T1)e4").await;
    let (_, _, v) = req(app, "GET", "/api/my-turn", None, wc).await;
    assert_eq!(turn(&v), Vec::<i64>::new(), "{v}");
    let (_, _, v) = req(app, "GET", "/api/my-turn", None, bc).await;
    assert_eq!(turn(&v), vec![id], "{v}");
    act(app, id, black, "(0T1)e7(0T1)e5").await;
    // The clock runs now: White's time goes down, and White's action gives White 3 days again.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let (_, _, g) = req(app, "GET", &format!("/api/games/{id}"), None, &[]).await;
    assert!(g["clock"]["running"].as_bool().unwrap(), "{g}");
    assert!(g["clock"]["white_ms"].as_i64().unwrap() <= 3 * DAY - 1000, "{g}");
    act(app, id, white, "(0T2)g1(0T2)f3").await;
    let (_, _, g) = req(app, "GET", &format!("/api/games/{id}"), None, &[]).await;
    assert_eq!(g["clock"]["white_ms"], 3 * DAY, "{g}");
    // A challenge of 7 days a move: its game has that clock.
    let (st, _, c) = req(
        app,
        "POST",
        "/api/challenges",
        Some(json!({"clock": {"days": 7}, "color": "white"})),
        &ann,
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{c}");
    assert_eq!(c["clock"], json!({"days": 7}));
    assert_eq!(c["category"], "correspondence");
    let (st, _, g) = req(
        app,
        "POST",
        &format!("/api/challenges/{}/accept", c["id"]),
        Some(json!({})),
        &ben,
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{g}");
    assert_eq!(g["clock"]["days"], 7, "{g}");
    let (_, _, v) = req(app, "GET", "/api/my-turn", None, &ann).await;
    assert!(turn(&v).contains(&g["id"].as_i64().unwrap()), "{v}");
}

/// The lobby: challenges show the challenger's account and rating, the clock, rated or casual;
/// a rating filter; a challenge for one named player is shown to and accepted by that player
/// only; a rated one needs accounts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_names_ratings_filter_and_addressee() {
    let s = server_with(proxied(temp_db()));
    let app = &s.app.router;
    let ann = sign_up(app, "lann", "ann's password", "10.0.11.1").await;
    let ben = sign_up(app, "lben", "ben's password", "10.0.11.2").await;
    let cal = sign_up(app, "lcal", "cal's password", "10.0.11.3").await;
    let anon = [("x-forwarded-for", "10.0.11.9".to_string())];
    let clock = json!({"initial_ms": 300000, "increment_ms": 3000});
    let (st, _, rated) = req(
        app,
        "POST",
        "/api/challenges",
        Some(json!({"clock": clock, "rated": true, "name": "ignored"})),
        &ann,
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{rated}");
    assert_eq!(rated["account"], "lann");
    assert_eq!(rated["name"], "lann");
    assert_eq!(rated["rated"], true);
    assert_eq!(rated["category"], "blitz");
    assert_eq!(rated["rating"]["rating"], 1500.0);
    assert_eq!(rated["rating"]["provisional"], true);
    assert_eq!(rated["to"], Value::Null);
    // Rated needs an account and a clock.
    let (st, _, _) = req(
        app,
        "POST",
        "/api/challenges",
        Some(json!({"clock": clock, "rated": true})),
        &anon,
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _, _) = req(app, "POST", "/api/challenges", Some(json!({"rated": true})), &cal).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _, casual) = req(app, "POST", "/api/challenges", Some(json!({"name": "Guest"})), &anon).await;
    assert_eq!(st, StatusCode::CREATED, "{casual}");
    assert_eq!(
        (casual["account"].clone(), casual["rating"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(casual["rated"], false);
    // For one player: unknown names and oneself refused.
    let (st, _, _) = req(app, "POST", "/api/challenges", Some(json!({"to": "nobody"})), &ann).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _, _) = req(app, "POST", "/api/challenges", Some(json!({"to": "LANN"})), &ann).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let (st, _, direct) = req(
        app,
        "POST",
        "/api/challenges",
        Some(json!({"to": "LBen", "clock": clock})),
        &ann,
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{direct}");
    assert_eq!(direct["to"], "lben");
    let ids = |v: &Value| {
        v["challenges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    let (r, c, d) = (
        rated["id"].as_i64().unwrap(),
        casual["id"].as_i64().unwrap(),
        direct["id"].as_i64().unwrap(),
    );
    // Anyone sees the open ones; only Ben and Ann see Ann's challenge for Ben.
    assert_eq!(
        ids(&req(app, "GET", "/api/challenges", None, &anon).await.2),
        vec![r, c]
    );
    assert_eq!(ids(&req(app, "GET", "/api/challenges", None, &cal).await.2), vec![r, c]);
    assert_eq!(
        ids(&req(app, "GET", "/api/challenges", None, &ben).await.2),
        vec![r, c, d]
    );
    let (_, _, all) = req(app, "GET", "/api/challenges", None, &ann).await;
    assert_eq!((ids(&all), all["total"].as_u64()), (vec![r, c, d], Some(3)));
    // The rating filter: anonymous challengers have no rating.
    let q = |s: &str| format!("/api/challenges?{s}");
    assert_eq!(
        ids(&req(app, "GET", &q("min_rating=1400"), None, &anon).await.2),
        vec![r]
    );
    assert_eq!(
        ids(&req(app, "GET", &q("min_rating=1400&max_rating=1600"), None, &anon)
            .await
            .2),
        vec![r]
    );
    let (_, _, none) = req(app, "GET", &q("max_rating=1400"), None, &anon).await;
    assert_eq!((ids(&none), none["total"].as_u64()), (vec![], Some(0)));
    for bad in ["min_rating=abc", "max_rating=-5", "min_rating=9000"] {
        let (st, _, v) = req(app, "GET", &q(bad), None, &anon).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    // Ann's challenge for Ben: Cal and anonymous players may not accept it; Ben does.
    let accept = |id: i64| format!("/api/challenges/{id}/accept");
    assert_eq!(
        req(app, "POST", &accept(d), Some(json!({})), &cal).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        req(app, "POST", &accept(d), Some(json!({})), &anon).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        req(app, "POST", &accept(d), Some(json!({})), &ann).await.0,
        StatusCode::FORBIDDEN
    );
    let (st, _, g) = req(app, "POST", &accept(d), Some(json!({})), &ben).await;
    assert_eq!(st, StatusCode::CREATED, "{g}");
    let (_, _, rt) = req(app, "GET", &format!("/api/games/{}/rating", g["id"]), None, &[]).await;
    let names = [rt["white"]["name"].as_str(), rt["black"]["name"].as_str()];
    assert!(names.contains(&Some("lann")) && names.contains(&Some("lben")), "{rt}");
    assert_eq!(rt["rated"], false, "{rt}");
    // The rated challenge: not by an anonymous player, nor by its maker; Cal's game is rated.
    assert_eq!(
        req(app, "POST", &accept(r), Some(json!({})), &anon).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        req(app, "POST", &accept(r), Some(json!({})), &ann).await.0,
        StatusCode::BAD_REQUEST
    );
    let (st, _, g) = req(app, "POST", &accept(r), Some(json!({})), &cal).await;
    assert_eq!(st, StatusCode::CREATED, "{g}");
    let (_, _, rt) = req(app, "GET", &format!("/api/games/{}/rating", g["id"]), None, &[]).await;
    assert_eq!(
        (rt["rated"].as_bool(), rt["category"].as_str()),
        (Some(true), Some("blitz")),
        "{rt}"
    );
}

/// A seat taken while logged in is the account's, in every kind of game: an invite (both the
/// creator's side and the side claimed through the link), a lobby challenge (both sides), and
/// another device of the account gets it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_of_invites_and_challenges_follow_the_account() {
    let s = server_with(proxied(temp_db()));
    let app = &s.app.router;
    let ann = sign_up(app, "sann", "ann's password", "10.0.12.1").await;
    let ben = sign_up(app, "sben", "ben's password", "10.0.12.2").await;
    let device = |name: &'static str| async move {
        let (_, h, _) = req(
            app,
            "POST",
            "/api/login",
            Some(json!({"name": name, "password": format!("{}'s password", &name[1..])})),
            &[],
        )
        .await;
        vec![("cookie", session_cookie(&h).0)]
    };
    let seat_side = |v: &Value| v["seat"]["side"].as_str().map(str::to_string);
    // An invite: Ann makes the game as White, Ben claims Black through the link.
    let (st, _, g) = req(
        app,
        "POST",
        "/api/games",
        Some(json!({"seat": "white", "clock": {"initial_ms": 600000, "increment_ms": 0}})),
        &ann,
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{g}");
    let id = g["id"].as_i64().unwrap();
    let mut with_invite = ben.clone();
    with_invite.push((TOKEN_HEADER, g["invite"]["token"].as_str().unwrap().to_string()));
    let (st, _, j) = req(
        app,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({})),
        &with_invite,
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{j}");
    let url = format!("/api/games/{id}/seat");
    let (ann2, ben2) = (device("sann").await, device("sben").await);
    let (st, _, v) = req(app, "POST", &url, Some(json!({})), &ann2).await;
    assert_eq!((st, seat_side(&v)), (StatusCode::OK, Some("white".into())), "{v}");
    let (st, _, v) = req(app, "POST", &url, Some(json!({})), &ben2).await;
    assert_eq!((st, seat_side(&v)), (StatusCode::OK, Some("black".into())), "{v}");
    // The token of Ben's other device moves Black.
    act(app, id, g["seat"]["token"].as_str().unwrap(), "(0T1)e2(0T1)e4").await;
    act(app, id, v["seat"]["token"].as_str().unwrap(), "(0T1)e7(0T1)e5").await;
    // A lobby challenge: Ann posts as Black, Ben accepts; both other devices get their side.
    let (_, _, c) = req(app, "POST", "/api/challenges", Some(json!({"color": "black"})), &ann).await;
    let (st, _, g) = req(
        app,
        "POST",
        &format!("/api/challenges/{}/accept", c["id"]),
        Some(json!({})),
        &ben,
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{g}");
    let url = format!("/api/games/{}/seat", g["id"]);
    let (_, _, v) = req(app, "POST", &url, Some(json!({})), &ann2).await;
    assert_eq!(seat_side(&v), Some("black".into()), "{v}");
    let (_, _, v) = req(app, "POST", &url, Some(json!({})), &ben2).await;
    assert_eq!(seat_side(&v), Some("white".into()), "{v}");
    // Anonymous seats stay anonymous: nobody's account gets them.
    let (_, _, g) = req(app, "POST", "/api/games", Some(json!({"seat": "white"})), &[]).await;
    let url = format!("/api/games/{}/seat", g["id"]);
    assert_eq!(
        req(app, "POST", &url, Some(json!({})), &ann2).await.0,
        StatusCode::FORBIDDEN
    );
}

/// Random session cookies (an attacker's, one per request) never reach the database: a cookie
/// that is no live session is answered from memory. A real session is read once, then cached;
/// one logged in after the first reading, and one from before a restart, both still work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_session_cookies_do_not_reach_the_database() {
    let s = server_with(proxied(temp_db()));
    let app = &s.app.router;
    let ann = sign_up(app, "cookie_ann", "ann's password", "10.0.8.1").await;
    let before = s.state.session_lookups();
    for i in 0..300u32 {
        let fake = format!(
            "chess5d_session={:032x}",
            u128::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)
        );
        let (st, _, v) = req(app, "GET", "/api/account", None, &[("cookie", fake)]).await;
        assert_eq!((st, &v["name"]), (StatusCode::OK, &Value::Null), "{v}");
    }
    assert_eq!(
        s.state.session_lookups() - before,
        0,
        "random cookies were each looked up in the database"
    );
    // The real one: known, at most one lookup however often it is sent.
    for _ in 0..20 {
        let (_, _, v) = req(app, "GET", "/api/account", None, &ann).await;
        assert_eq!(v["name"], "cookie_ann", "{v}");
    }
    assert!(s.state.session_lookups() - before <= 1);
    // A session opened after the live ones were read is known too.
    let ben = sign_up(app, "cookie_ben", "ben's password", "10.0.8.2").await;
    let (_, _, v) = req(app, "GET", "/api/account", None, &ben).await;
    assert_eq!(v["name"], "cookie_ben", "{v}");
    // After a restart, the sessions stored before are read from the database.
    let app = s.restarted();
    let (_, _, v) = req(&app.router, "GET", "/api/account", None, &ann).await;
    assert_eq!(v["name"], "cookie_ann", "{v}");
}
