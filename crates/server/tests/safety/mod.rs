//! Issue 45: fair shares of every pool, a budget on every answer, nothing a stranger can erase,
//! nothing the server forgets. Each test is one item of the issue.

use super::*;

async fn post_from(s: &Server, client: &str, uri: &str, body: Value) -> (StatusCode, Value) {
    call_as(&s.app.router, "POST", uri, Some(&body.to_string()), &from(client, None)).await
}

mod shares {
    use super::*;

    /// Item 1: 8 addresses took all 32 engine places (4 each) and every game against the
    /// computer was refused to everyone. Now they get most of them, and a newcomer is served.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn engine_places_held_by_a_few_addresses_leave_one_to_a_newcomer() {
        let s = proxied(&[]);
        let engine = json!({ "white": {"type": "human"}, "black": {"type": "engine", "movetime_ms": 10} });
        for i in 1..=8 {
            for _ in 0..5 {
                let _ = post_from(&s, &format!("10.8.0.{i}"), "/api/games", engine.clone()).await;
            }
        }
        assert!(s.state.engine_players() < 32, "{}", s.state.engine_players());
        let r = post_from(&s, "10.9.9.9", "/api/games", engine.clone()).await;
        assert_eq!(r.0, StatusCode::CREATED, "the newcomer is refused: {}", r.1);
        // IPv6: a /64 is one client; another /64 is a newcomer.
        let r = post_from(&s, "2001:db8:0:7::1", "/api/games", engine).await;
        assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    }

    /// Item 1: 8 addresses took the 16 analysis boards until a restart. Now a newcomer is
    /// served, and boards nobody watches or asks for go back to the pool.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn boards_held_by_a_few_addresses_leave_one_to_a_newcomer_and_idle_ones_end() {
        let mut cfg = Config {
            behind_proxy: true,
            idle_unload: Duration::from_secs(1),
            ..config(temp_db())
        };
        cfg.limits.set("analysis-idle-secs=2").unwrap();
        let s = server_with(cfg);
        let board = json!({ "import": "[Board \"Standard\"]\n" });
        for i in 1..=8 {
            for _ in 0..2 {
                let _ = post_from(&s, &format!("10.8.1.{i}"), "/api/analysis", board.clone()).await;
            }
        }
        let r = post_from(&s, "10.9.9.9", "/api/analysis", board.clone()).await;
        assert_eq!(r.0, StatusCode::CREATED, "the newcomer is refused: {}", r.1);
        let id = r.1["analysis"]["id"].as_i64().unwrap();
        let token = r.1["analysis"]["token"].as_str().unwrap().to_string();
        // Nobody asks for the boards: they end within a few seconds (the newcomer's, which it
        // asks for, stays).
        let mut left = u64::MAX;
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(250)).await;
            let r = call_as(
                &s.app.router,
                "GET",
                &format!("/api/analysis/{id}"),
                None,
                &from("10.9.9.9", Some(&token)),
            )
            .await;
            assert_eq!(r.0, StatusCode::OK, "{}", r.1);
            left = s.state.analysis_boards();
            if left == 1 {
                break;
            }
        }
        assert_eq!(left, 1, "idle boards are still held");
    }
}

mod accounts {
    use super::*;

    /// How many of `tries` requests `POST uri` as `headers` are answered 201 (or 200).
    async fn served(s: &Server, headers: &[(&'static str, String)], uri: &str, body: &Value, tries: usize) -> usize {
        let mut n = 0;
        for _ in 0..tries {
            let r = call_as(&s.app.router, "POST", uri, Some(&body.to_string()), headers).await;
            if r.0.is_success() {
                n += 1;
            } else {
                assert_eq!(r.0, StatusCode::TOO_MANY_REQUESTS, "{}", r.1);
            }
        }
        n
    }

    /// A logged-in account's headers from `ip`.
    fn as_account(cookie: &[(&'static str, String)], ip: &str) -> Vec<(&'static str, String)> {
        let mut h = from(ip, None);
        h.extend(cookie.iter().filter(|(k, _)| *k == "cookie").cloned());
        h
    }

    /// Issue 47 point 7, issue 45 point 1: each logged-in account is a client of its own,
    /// whatever its address: several accounts behind one address each get their share, twice
    /// what an anonymous address may hold, and an account is one client from any address.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_account_behind_one_address_gets_its_own_share() {
        let s = proxied(&[]);
        let nat = "10.47.0.1";
        let engine = json!({ "white": {"type": "human"}, "black": {"type": "engine", "movetime_ms": 10} });
        // The anonymous address takes its 4 engine players (`engines-per-client`).
        assert_eq!(served(&s, &from(nat, None), "/api/games", &engine, 6).await, 4);
        let alice = crate::people::sign_up(&s.app.router, "alice", "password-a", nat).await;
        let bob = crate::people::sign_up(&s.app.router, "bob", "password-b", nat).await;
        // Behind the same address, each account gets its own: twice the address's 4.
        let a = served(&s, &as_account(&alice, nat), "/api/games", &engine, 10).await;
        assert_eq!(a, 8, "alice behind the address");
        let b = served(&s, &as_account(&bob, nat), "/api/games", &engine, 10).await;
        assert_eq!(b, 8, "bob behind the address");
        // An account is one client from any address: from another, alice has no more.
        let r = call_as(
            &s.app.router,
            "POST",
            "/api/games",
            Some(&engine.to_string()),
            &as_account(&alice, "10.47.9.9"),
        )
        .await;
        assert_error(&r, StatusCode::TOO_MANY_REQUESTS, "your account");
        // The anonymous newcomer there is served.
        assert_eq!(served(&s, &from("10.47.9.9", None), "/api/games", &engine, 1).await, 1);
        // The pairing pool: an anonymous address (each request a new visitor) holds a few
        // entries, not the pool; an account behind it still joins.
        let mut joined = 0;
        for m in 1..=10 {
            let body = json!({ "clock": format!("{m}+0") });
            joined += served(&s, &from("10.47.0.3", None), "/api/pairing", &body, 1).await;
        }
        assert_eq!(joined, 4, "anonymous entries of one address");
        let body = json!({ "clock": "11+0" });
        assert_eq!(
            served(&s, &as_account(&alice, "10.47.0.3"), "/api/pairing", &body, 1).await,
            1
        );
    }
}

mod small_pools {
    use super::*;

    /// Starts a review of game `id` as `client`, holding the game's seats (`token`).
    async fn review(s: &Server, id: i64, client: &str, token: &str) -> (StatusCode, Value) {
        let uri = format!("/api/games/{id}/review");
        call_as(&s.app.router, "POST", &uri, Some("{}"), &from(client, Some(token))).await
    }

    /// Issue 45 point 1, the small pools: two clients held both review places (long reviews,
    /// started again as soon as they end) and every other client was refused. Now a newcomer
    /// is served: it waits its turn, and the review that has run longest gives its place up.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_newcomer_served_while_two_clients_hold_the_review_places() {
        let s = proxied(&["review-turn-secs=1"]);
        let (mut ids, mut tokens) = (Vec::new(), Vec::new());
        for (i, client) in ["10.45.2.1", "10.45.2.2", "10.45.2.3"].iter().enumerate() {
            let n = if i < 2 { 60 } else { 2 };
            let body = json!({ "import": shuffle(n) }).to_string();
            let (status, v) = call_as(&s.app.router, "POST", "/api/games", Some(&body), &from(client, None)).await;
            assert_eq!(status, StatusCode::CREATED, "{v}");
            ids.push(v["id"].as_i64().unwrap());
            tokens.push(v["seat"]["token"].as_str().unwrap().to_string());
        }
        for (i, client) in ["10.45.2.1", "10.45.2.2"].iter().enumerate() {
            let r = review(&s, ids[i], client, &tokens[i]).await;
            assert_eq!(r.0, StatusCode::ACCEPTED, "{}", r.1);
        }
        assert_eq!(s.state.reviews_running(), 2);
        let started = std::time::Instant::now();
        let r = review(&s, ids[2], "10.45.2.3", &tokens[2]).await;
        assert_eq!(r.0, StatusCode::ACCEPTED, "the newcomer is refused: {}", r.1);
        assert!(started.elapsed() < Duration::from_secs(8), "{:?}", started.elapsed());
        // The first review gave its place up, saying why; the second runs on.
        let uri = format!("/api/games/{}/review", ids[0]);
        let mut first = Value::Null;
        for _ in 0..100 {
            first = call_as(&s.app.router, "GET", &uri, None, &from("10.45.2.1", None))
                .await
                .1;
            if first["status"] != "running" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(first["status"], "cancelled", "{}", first["reason"]);
        assert!(
            first["reason"].as_str().unwrap_or("").contains("review-turn-secs"),
            "{}",
            first["reason"]
        );
        let uri = format!("/api/games/{}/review", ids[1]);
        let second = call_as(&s.app.router, "GET", &uri, None, &from("10.45.2.2", None))
            .await
            .1;
        assert_eq!(second["status"], "running", "{}", second["reason"]);
    }
}

mod watchers {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// Issue 45 point 3: a watcher that never reads what it is sent is cut once its queue
    /// stays full for `socket-send-secs`, and its socket's place goes back.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_watcher_that_does_not_read_is_cut() {
        let mut cfg = config(temp_db());
        cfg.limits.set("socket-send-secs=1").unwrap();
        let state = AppState::open(cfg).unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(chess5d_server::serve(listener, state.clone(), async move {
            let _ = stopped.await;
        }));
        let app = Api::new(chess5d_server::router(state.clone()));
        // A game of 400 actions: each state sent is large.
        let id = new_game(&app, json!({ "import": shuffle(50) })).await;
        // The watcher: a small receive window, and it reads nothing, not even the handshake.
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.set_recv_buffer_size(4096).unwrap();
        let mut w = sock.connect(addr).await.unwrap();
        let req = format!(
            "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        );
        w.write_all(req.as_bytes()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        // The game goes on: every action is sent to the watcher as the whole state, which it
        // leaves unread for longer than `socket-send-secs`.
        for t in 101..111 {
            let (a, b) = if t % 2 == 1 { ("g1", "f3") } else { ("f3", "g1") };
            let (c, d) = if t % 2 == 1 { ("g8", "f6") } else { ("f6", "g8") };
            play(&app, id, &[&format!("(0T{t}){a}(0T{t}){b}")]).await;
            submit(&app, id).await;
            play(&app, id, &[&format!("(0T{t}){c}(0T{t}){d}")]).await;
            submit(&app, id).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        // The server has closed it: reading now finds the end of what was queued.
        let mut buf = vec![0u8; 1 << 16];
        let mut total = 0;
        let cut = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                match w.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => total += n,
                }
            }
        })
        .await;
        assert!(
            cut.is_ok(),
            "the watcher that does not read is still served ({total} bytes read)"
        );
        // Its place among the sockets went back.
        for _ in 0..100 {
            if state.sockets_open() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(state.sockets_open(), 0);
        drop(w);
        let _ = stop.send(());
    }
}

mod writes {
    use super::*;

    /// Scholar's mate: a finished game whose review takes a few seconds.
    const SCHOLAR: &str = "[Board \"Standard\"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n";

    async fn review(s: &Api, method: &str, id: i64, client: &str) -> (StatusCode, Value) {
        let body = (method == "POST").then_some("{}");
        call_as(
            &s.router,
            method,
            &format!("/api/games/{id}/review"),
            body,
            &from(client, None),
        )
        .await
    }

    /// Item 5: a stranger erased the stored review of a finished game by starting a review and
    /// cancelling it. Now the finished review stays, in memory and across a restart.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_cancelled_review_leaves_the_finished_one_as_it_was() {
        let s = proxied(&[]);
        let body = json!({ "import": SCHOLAR }).to_string();
        let (status, v) = call_as(
            &s.app.router,
            "POST",
            "/api/games",
            Some(&body),
            &from("10.5.0.1", None),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let id = v["id"].as_i64().unwrap();
        assert_eq!(review(&s.app, "POST", id, "10.5.0.1").await.0, StatusCode::ACCEPTED);
        let mut done = Value::Null;
        for _ in 0..1200 {
            let (_, v) = review(&s.app, "GET", id, "10.5.0.1").await;
            if v["status"] == "done" {
                done = v;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(done["status"], "done", "the review did not end");
        // A stranger starts one and cancels it at once.
        let r = review(&s.app, "POST", id, "10.6.6.6").await;
        assert_eq!(r.0, StatusCode::ACCEPTED, "{}", r.1);
        let r = review(&s.app, "DELETE", id, "10.6.6.6").await;
        assert_eq!(r.0, StatusCode::OK, "{}", r.1);
        let mut last = Value::Null;
        for _ in 0..200 {
            let (_, v) = review(&s.app, "GET", id, "10.5.0.1").await;
            last = v;
            if last["status"] != "running" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(
            last["status"], "done",
            "the finished review was replaced: {}",
            last["reason"]
        );
        assert_eq!(last["review"], done["review"]);
        let app = s.restarted();
        let (_, v) = review(&app, "GET", id, "10.5.0.1").await;
        assert_eq!(v["status"], "done", "after a restart: {}", v["reason"]);
    }

    /// Item 6: a friend's name given on join was answered 200 and never stored.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_join_name_is_stored_and_survives_a_restart() {
        let s = server();
        let (status, v) = post(&s.app, "/api/games", json!({ "seat": "white" })).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let id = v["id"].as_i64().unwrap();
        let invite = v["invite"]["token"].as_str().unwrap().to_string();
        let headers = vec![("content-type", "application/json".to_string()), (TOKEN_HEADER, invite)];
        let join = format!("/api/games/{id}/join");
        let r = call_as(&s.app.router, "POST", &join, Some(r#"{"name": "Bob"}"#), &headers).await;
        assert_eq!(r.0, StatusCode::OK, "{}", r.1);
        let app = s.restarted();
        let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(v["players"]["black"]["display"], "Bob", "{}", v["players"]);
        let (_, list) = call(&app, "GET", "/api/games", None).await;
        let listed = list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .cloned();
        assert_eq!(listed.unwrap()["black"], "Bob");
        let (_, pgn) = call(&app, "GET", &format!("/api/games/{id}/pgn"), None).await;
        assert!(pgn.as_str().unwrap().contains("[Black \"Bob\"]"), "{pgn}");
    }

    /// Item 8: a DELETE refused by a full disk (500) removed the game from memory until a
    /// restart. Now the game stays, in memory and on disk, and a later DELETE works.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_delete_refused_by_the_disk_leaves_the_game() {
        let s = server();
        let id = new_game(&s.app, json!({})).await;
        play(&s.app, id, &["(0T1)e2(0T1)e4"]).await;
        let c = rusqlite::Connection::open(&s.db).unwrap();
        c.execute_batch("CREATE TRIGGER refuse BEFORE DELETE ON games BEGIN SELECT RAISE(ABORT, 'disk full'); END;")
            .unwrap();
        let r = call(&s.app, "DELETE", &format!("/api/games/{id}"), None).await;
        assert_eq!(r.0, StatusCode::INTERNAL_SERVER_ERROR, "{}", r.1);
        let (status, v) = call(&s.app, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK, "the refused DELETE removed the game: {v}");
        assert_eq!(v["pending"].as_array().map(Vec::len), Some(1), "{v}");
        // It is still played and stored.
        let v = submit(&s.app, id).await;
        assert_eq!(v["action_count"], 1, "{v}");
        c.execute_batch("DROP TRIGGER refuse;").unwrap();
        let app = s.restarted();
        let (status, v) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["action_count"], 1, "{v}");
        let r = call(&app, "DELETE", &format!("/api/games/{id}"), None).await;
        assert_eq!(r.0, StatusCode::OK, "{}", r.1);
        assert_eq!(
            call(&app, "GET", &format!("/api/games/{id}"), None).await.0,
            StatusCode::NOT_FOUND
        );
    }
}

mod budgets {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    const SCHOLAR: &str = "[Board \"Standard\"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n";

    async fn reviewed(s: &Server, client: &str) -> (i64, Value) {
        let body = json!({ "import": SCHOLAR }).to_string();
        let (status, v) = call_as(&s.app.router, "POST", "/api/games", Some(&body), &from(client, None)).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let id = v["id"].as_i64().unwrap();
        let uri = format!("/api/games/{id}/review");
        let r = call_as(&s.app.router, "POST", &uri, Some("{}"), &from(client, None)).await;
        assert_eq!(r.0, StatusCode::ACCEPTED, "{}", r.1);
        for _ in 0..1200 {
            let (_, v) = call_as(&s.app.router, "GET", &uri, None, &from(client, None)).await;
            if v["status"] == "done" {
                return (id, v);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the review did not end");
    }

    /// Items 2 and 4: the review's answer is under the reading budget, may be asked for from an
    /// action on, and an ended review is kept as its bytes (kilobytes per action).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_review_is_read_under_the_budget_by_range_and_kept_as_bytes() {
        let s = proxied(&[]);
        let (id, done) = reviewed(&s, "10.4.0.1").await;
        let n = done["actions"].as_array().unwrap().len();
        assert_eq!(n, 7, "{done}");
        let kept = s.state.reviews_kept_bytes();
        assert!(kept > 0 && kept < n * 16 * 1024, "{kept} bytes kept for {n} actions");
        let uri = format!("/api/games/{id}/review?from=5");
        let (status, part) = call_as(&s.app.router, "GET", &uri, None, &from("10.4.0.2", None)).await;
        assert_eq!(status, StatusCode::OK, "{part}");
        assert_eq!(part["actions"].as_array().unwrap().len(), 2, "{part}");
        assert_eq!(part["review"]["actions"].as_array().unwrap().len(), 2);
        assert_eq!(part["actions"][0], done["actions"][5]);
        let bad = call_as(
            &s.app.router,
            "GET",
            &format!("/api/games/{id}/review?from=x"),
            None,
            &from("10.4.0.2", None),
        )
        .await;
        assert_eq!(bad.0, StatusCode::BAD_REQUEST, "{}", bad.1);
        // A reader of a tiny budget: its first read is answered, the next ones refused.
        let mut cfg = Config {
            behind_proxy: true,
            db: s.db.clone(),
            ..config(temp_db())
        };
        cfg.limits.set("state-bytes-per-sec=100").unwrap();
        s.state.shutdown();
        let tiny = server_with(cfg);
        let uri = format!("/api/games/{id}/review");
        let first = call_as(&tiny.app.router, "GET", &uri, None, &from("10.4.0.3", None)).await;
        assert_eq!(first.0, StatusCode::OK, "{}", first.1);
        assert_eq!(first.1["status"], "done");
        let next = call_as(&tiny.app.router, "GET", &uri, None, &from("10.4.0.3", None)).await;
        assert_error(&next, StatusCode::TOO_MANY_REQUESTS, "state-bytes-per-sec");
        // Another reader has its own budget.
        let other = call_as(&tiny.app.router, "GET", &uri, None, &from("10.4.0.4", None)).await;
        assert_eq!(other.0, StatusCode::OK, "{}", other.1);
    }

    /// Item 7: a board made from a game reads the game under the reading budget.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_board_from_a_game_is_under_the_reading_budget() {
        let s = proxied(&["state-bytes-per-sec=100"]);
        let id = new_game(&s.app, json!({ "import": SCHOLAR })).await;
        let body = json!({ "game": id });
        let r = post_from(&s, "10.4.1.1", "/api/analysis", body.clone()).await;
        assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
        let r = post_from(&s, "10.4.1.1", "/api/analysis", body).await;
        assert_error(&r, StatusCode::TOO_MANY_REQUESTS, "state-bytes-per-sec");
    }

    /// Opens a WebSocket on `path`: the status line of the answer.
    async fn open(addr: std::net::SocketAddr, path: &str) -> (String, tokio::net::TcpStream) {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            head.push(s.read_u8().await.unwrap());
        }
        let line = String::from_utf8_lossy(&head).lines().next().unwrap_or("").to_string();
        (line, s)
    }

    /// Item 7: the state sent when a game's WebSocket opens is under the reading budget.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_sockets_opening_state_is_under_the_reading_budget() {
        let mut cfg = config(temp_db());
        cfg.limits.set("state-bytes-per-sec=100").unwrap();
        let (addr, _stop) = super::super::online::listen(cfg).await;
        let mut c = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        );
        c.write_all(req.as_bytes()).await.unwrap();
        let mut answer = String::new();
        c.read_to_string(&mut answer).await.unwrap();
        let id: i64 = answer
            .split("\"id\":")
            .nth(1)
            .and_then(|t| t.split(',').next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("no id in {answer}"));
        let path = format!("/api/games/{id}/ws");
        let (first, mut sock) = open(addr, &path).await;
        assert!(first.starts_with("HTTP/1.1 101"), "{first}");
        // Its state arrives (a few kB: more than the budget's 800-byte burst).
        let mut buf = vec![0u8; 1 << 16];
        let n = tokio::time::timeout(Duration::from_secs(5), sock.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        assert!(n > 0);
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (second, _) = open(addr, &path).await;
        assert!(second.starts_with("HTTP/1.1 429"), "{second}");
    }
}

mod turns {
    use super::*;

    /// `POST /api/games/{id}/move` then submit, as `client` holding `token`.
    async fn act(s: &Server, id: i64, client: &str, token: &str, m: &str) {
        for (uri, body) in [
            (format!("/api/games/{id}/move"), json!({ "move": m }).to_string()),
            (format!("/api/games/{id}/submit"), "{}".to_string()),
        ] {
            let r = call_as(&s.app.router, "POST", &uri, Some(&body), &from(client, Some(token))).await;
            assert_eq!(r.0, StatusCode::OK, "{uri}: {}", r.1);
        }
    }

    /// The newcomer bar, engine places: 40 clients (more than the 32 places) each hold a game
    /// against the computer, waiting for its player, and nothing freed a place: every newcomer
    /// was refused for as long as they held. Now a game nobody used for `engine-turn-secs`
    /// gives its place to a client holding none, and when its own player moves, its engine takes
    /// a place again (from another unused game) and answers: nothing is lost.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_newcomer_served_while_many_clients_hold_the_engine_places() {
        let s = proxied(&["engine-turn-secs=3"]);
        let engine = json!({ "white": {"type": "human"}, "black": {"type": "engine", "movetime_ms": 10} });
        let mut games = Vec::new();
        for i in 1..=40 {
            let client = format!("10.47.0.{i}");
            let (st, v) = post_from(&s, &client, "/api/games", engine.clone()).await;
            if st == StatusCode::CREATED {
                games.push((
                    client,
                    v["id"].as_i64().unwrap(),
                    v["seat"]["token"].as_str().unwrap().to_string(),
                ));
            }
        }
        assert_eq!(s.state.engine_players(), 32, "the places are not all held");
        // Just used: no place is given away yet.
        let r = post_from(&s, "10.47.1.1", "/api/games", engine.clone()).await;
        assert_eq!(r.0, StatusCode::TOO_MANY_REQUESTS, "{}", r.1);
        tokio::time::sleep(Duration::from_millis(3500)).await;
        for k in 1..=3 {
            let r = post_from(&s, &format!("10.47.1.{k}"), "/api/games", engine.clone()).await;
            assert_eq!(r.0, StatusCode::CREATED, "newcomer {k} is refused: {}", r.1);
        }
        assert_eq!(s.state.engine_players(), 32);
        // The first games gave their places; their players move, and their engines answer.
        for (client, id, token) in games.iter().take(2) {
            act(&s, *id, client, token, "(0T1)e2(0T1)e4").await;
        }
        for (_, id, _) in games.iter().take(2) {
            let v = wait_for(&s.app, *id, |v| v["action_count"] == 2 || !v["engine_error"].is_null()).await;
            assert_eq!(v["engine_error"], Value::Null, "{v}");
            assert_eq!(v["to_move"], "white", "{v}");
        }
        assert!(s.state.engine_players() <= 32, "{}", s.state.engine_players());
    }

    /// The newcomer bar, analysis boards: 40 clients hold the 16 boards, and nothing freed
    /// one before `analysis-idle-secs` (3 minutes). Now the board untouched longest (past
    /// `analysis-turn-secs`) gives way to a client holding none; asked for, it says why.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_newcomer_served_while_many_clients_hold_the_boards() {
        let s = proxied(&["analysis-turn-secs=3"]);
        let board = json!({ "import": "[Board \"Standard\"]\n" });
        let mut boards = Vec::new();
        for i in 1..=40 {
            let client = format!("10.47.2.{i}");
            let (st, v) = post_from(&s, &client, "/api/analysis", board.clone()).await;
            if st == StatusCode::CREATED {
                let a = &v["analysis"];
                boards.push((
                    client,
                    a["id"].as_i64().unwrap(),
                    a["token"].as_str().unwrap().to_string(),
                ));
            }
        }
        assert_eq!(s.state.analysis_boards(), 16, "the boards are not all held");
        let r = post_from(&s, "10.47.3.1", "/api/analysis", board.clone()).await;
        assert_eq!(r.0, StatusCode::TOO_MANY_REQUESTS, "{}", r.1);
        tokio::time::sleep(Duration::from_millis(2000)).await;
        // The last board is used meanwhile: it stays.
        let (client, id, token) = boards.last().unwrap().clone();
        let uri = format!("/api/analysis/{id}");
        assert_eq!(
            call_as(&s.app.router, "GET", &uri, None, &from(&client, Some(&token)))
                .await
                .0,
            StatusCode::OK
        );
        tokio::time::sleep(Duration::from_millis(1600)).await;
        for k in 1..=3 {
            let r = post_from(&s, &format!("10.47.3.{k}"), "/api/analysis", board.clone()).await;
            assert_eq!(r.0, StatusCode::CREATED, "newcomer {k} is refused: {}", r.1);
        }
        assert_eq!(s.state.analysis_boards(), 16);
        let r = call_as(&s.app.router, "GET", &uri, None, &from(&client, Some(&token))).await;
        assert_eq!(r.0, StatusCode::OK, "the board in use was ended: {}", r.1);
        let (client, id, token) = boards.first().unwrap().clone();
        let r = call_as(
            &s.app.router,
            "GET",
            &format!("/api/analysis/{id}"),
            None,
            &from(&client, Some(&token)),
        )
        .await;
        assert_eq!(
            r.0,
            StatusCode::NOT_FOUND,
            "the board untouched longest still holds: {}",
            r.1
        );
    }
}
