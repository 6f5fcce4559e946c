//! Computer reviews of games (`/api/games/:id/review`): the result's shape, who may ask for
//! one, and the job's budget: caps per client and in all, a newer review replacing an older one,
//! cancellation (asked, the game deleted, the page gone).

use super::*;

/// Scholar's mate: Black's 3... Nf6 lets 4. Qxf7 mate (a blunder), White wins by checkmate.
const SCHOLAR: &str = "[Board \"Standard\"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n";

/// A finished game of 35 actions (each position searched for up to 1.2 s: a review of it runs
/// for seconds).
fn long_game() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/hard-match-games/match-game-359.5dpgn"
    ))
    .unwrap()
}

/// A game imported by `client`: its id and creator's token.
async fn import(s: &Server, client: &str, text: &str) -> (i64, String) {
    let body = json!({ "import": text }).to_string();
    let (status, v) = call_as(&s.app.router, "POST", "/api/games", Some(&body), &from(client, None)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    (
        v["id"].as_i64().unwrap(),
        v["seat"]["token"].as_str().unwrap_or("").to_string(),
    )
}

async fn review(s: &Server, method: &str, id: i64, client: &str) -> (StatusCode, Value) {
    let body = (method == "POST").then_some("{}");
    call_as(
        &s.app.router,
        method,
        &format!("/api/games/{id}/review"),
        body,
        &from(client, None),
    )
    .await
}

/// Polls the review of game `id` until `done` holds (at most a minute).
async fn wait_review(s: &Server, id: i64, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..1200 {
        let (status, v) = review(s, "GET", id, "10.7.0.1").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if done(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the review of game {id} did not get there");
}

async fn until_running(s: &Server, n: usize) {
    for _ in 0..200 {
        if s.state.reviews_running() == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{} reviews run, not {n}", s.state.reviews_running());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_and_the_blunder_marked() {
    let s = server();
    let id = new_game(&s.app, json!({ "import": SCHOLAR })).await;
    let uri = format!("/api/games/{id}/review");
    let (status, v) = call(&s.app, "GET", &uri, None).await;
    assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("none")), "{v}");
    let (status, v) = call(&s.app, "POST", &uri, Some("{}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    assert_eq!(
        (v["status"].as_str(), v["positions"].as_u64()),
        (Some("running"), Some(8)),
        "{v}"
    );
    assert_eq!(v["budget"]["nodes"], 200_000, "{v}");
    let v = wait_review(&s, id, |v| v["status"] != "running").await;
    assert_eq!(v["status"], "done", "{v}");
    assert_eq!(
        (v["searched"].as_u64(), v["positions"].as_u64()),
        (Some(8), Some(8)),
        "{v}"
    );
    let r = &v["review"];
    assert_eq!((r["reviewed"].as_u64(), r["total"].as_u64()), (Some(7), Some(7)), "{r}");
    assert_eq!(
        (r["result"].as_str(), r["cancelled"].as_bool()),
        (Some("1-0"), Some(false)),
        "{r}"
    );
    let actions = r["actions"].as_array().unwrap();
    assert_eq!(&v["actions"], &r["actions"]);
    let nf6 = &actions[5];
    assert_eq!(
        (nf6["played"].as_str(), nf6["player"].as_str()),
        (Some("Nf6"), Some("black")),
        "{nf6}"
    );
    assert_eq!(nf6["class"], "blunder", "{nf6}");
    assert!(nf6["best"].is_string() && nf6["line"].is_string(), "{nf6}");
    // The engine's line as moves (for the page's arrows), from the position before Nf6.
    let pv = nf6["pv"].as_array().unwrap();
    assert_eq!(pv[0]["text"], nf6["best"], "{nf6}");
    assert_eq!(pv[0]["color"], "black", "{nf6}");
    assert!(pv[0]["moves"][0]["from"]["sq"].is_string(), "{nf6}");
    assert_eq!(actions[6]["pv"], json!([]), "the mate was the engine's choice");
    assert_eq!(nf6["after"], json!({ "mate": 1 }), "{nf6}");
    assert_eq!(actions[6]["after"], json!({ "checkmate": "white" }));
    assert_eq!(r["black"]["blunders"], 1, "{r}");
    assert_eq!(r["white"]["blunders"], 0, "{r}");
    assert!(
        r["white"]["accuracy"].as_f64().unwrap() > r["black"]["accuracy"].as_f64().unwrap(),
        "{r}"
    );
    for a in actions {
        assert!(a["nodes"].as_u64().unwrap() <= 200_000 + 10_000, "{a}");
        assert!(a["white_after"].is_number(), "{a}");
    }
    // Kept with the game: asked again (a page reloaded), the same review.
    let (_, again) = call(&s.app, "GET", &uri, None).await;
    assert_eq!(again["review"], v["review"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_what_nobody_else_still_plays_is_reviewed() {
    let s = server();
    let empty = new_game(&s.app, json!({})).await;
    let r = call(&s.app, "POST", &format!("/api/games/{empty}/review"), Some("{}")).await;
    assert_error(&r, StatusCode::CONFLICT, "no action to review");
    assert_eq!(r.1["code"], "nothing_to_review");
    // An online game: its creator plays White, someone else Black. No review while it runs.
    let online = new_game(&s.app, json!({ "seat": "white" })).await;
    play(&s.app, online, &["(0T1)e2(0T1)e4"]).await;
    submit(&s.app, online).await;
    let uri = format!("/api/games/{online}/review");
    let r = call(&s.app, "POST", &uri, Some("{}")).await;
    assert_error(&r, StatusCode::CONFLICT, "still being played");
    assert_eq!(r.1["code"], "review_while_playing");
    let r = call_as(
        &s.app.router,
        "POST",
        &uri,
        Some("{}"),
        &[("content-type", "application/json".into())],
    )
    .await;
    assert_eq!(r.0, StatusCode::CONFLICT, "{}", r.1);
    // Over, it may be reviewed by anyone.
    post(&s.app, &format!("/api/games/{online}/resign"), json!({})).await;
    let r = call_as(
        &s.app.router,
        "POST",
        &uri,
        Some("{}"),
        &[("content-type", "application/json".into())],
    )
    .await;
    assert_eq!(r.0, StatusCode::ACCEPTED, "{}", r.1);
    // One person's game at one board, unfinished: its player may.
    let own = new_game(&s.app, json!({})).await;
    play(&s.app, own, &["(0T1)e2(0T1)e4"]).await;
    submit(&s.app, own).await;
    let r = call(&s.app, "POST", &format!("/api/games/{own}/review"), Some("{}")).await;
    assert_eq!(r.0, StatusCode::ACCEPTED, "{}", r.1);
    // Bad ids and bodies.
    assert_error(
        &call(&s.app, "GET", "/api/games/999/review", None).await,
        StatusCode::NOT_FOUND,
        "no game",
    );
    assert_error(
        &call(
            &s.app,
            "POST",
            &format!("/api/games/{own}/review"),
            Some("{\"depth\": 99}"),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "unknown field",
    );
    assert_error(
        &call(&s.app, "DELETE", &format!("/api/games/{empty}/review"), None).await,
        StatusCode::CONFLICT,
        "no action to review",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_are_capped_replaced_and_cancelled() {
    let s = proxied(&["imports-per-minute=100", "review-turn-secs=1"]);
    let long = long_game();
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(import(&s, "10.8.0.1", &long).await);
    }
    let [(g1, _), (g2, _), (g3, _), (g4, t4)] = <[(i64, String); 4]>::try_from(games).unwrap();
    // Client A's second review replaces its first (one per client by default).
    assert_eq!(review(&s, "POST", g1, "10.8.0.1").await.0, StatusCode::ACCEPTED);
    assert_eq!(review(&s, "POST", g2, "10.8.0.1").await.0, StatusCode::ACCEPTED);
    let v = wait_review(&s, g1, |v| v["status"] != "running").await;
    assert_eq!(v["status"], "cancelled", "{v}");
    assert!(v["reason"].as_str().unwrap().contains("replaced"), "{v}");
    assert_eq!(v["review"]["cancelled"], true, "{v}");
    assert!(v["review"]["reviewed"].as_u64().unwrap() < 35, "{v}");
    until_running(&s, 1).await;
    // Client B fills the server's two; client C, holding none, waits its turn: the oldest
    // review (A's) gives its place up after `review-turn-secs`, B's runs on.
    assert_eq!(review(&s, "POST", g3, "10.8.0.2").await.0, StatusCode::ACCEPTED);
    let r = review(&s, "POST", g4, "10.8.0.3").await;
    assert_eq!(r.0, StatusCode::ACCEPTED, "{}", r.1);
    let v = wait_review(&s, g2, |v| v["status"] != "running").await;
    assert_eq!(v["status"], "cancelled", "{v}");
    assert!(v["reason"].as_str().unwrap().contains("review-turn-secs"), "{v}");
    until_running(&s, 2).await;
    // A review under way by another client is answered as it stands, not restarted.
    let (status, v) = review(&s, "POST", g3, "10.8.0.3").await;
    assert_eq!(
        (status, v["status"].as_str()),
        (StatusCode::ACCEPTED, Some("running")),
        "{v}"
    );
    assert_eq!(s.state.reviews_running(), 2);
    // Cancelled when asked, by the client that started it alone.
    assert_error(
        &review(&s, "DELETE", g3, "10.8.0.3").await,
        StatusCode::FORBIDDEN,
        "another client",
    );
    let (status, v) = review(&s, "DELETE", g3, "10.8.0.2").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let v = wait_review(&s, g3, |v| v["status"] != "running").await;
    assert_eq!(
        (v["status"].as_str(), v["reason"].as_str()),
        (Some("cancelled"), Some("cancelled")),
        "{v}"
    );
    let r = review(&s, "DELETE", g3, "10.8.0.2").await;
    assert_error(&r, StatusCode::CONFLICT, "no review under way");
    assert_eq!(r.1["code"], "no_review_running");
    // Cancelled and forgotten when its game is deleted.
    let (status, v) = call_as(
        &s.app.router,
        "DELETE",
        &format!("/api/games/{g4}"),
        None,
        &from("10.8.0.1", Some(&t4)),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    until_running(&s, 0).await;
    assert_eq!(review(&s, "GET", g4, "10.8.0.3").await.0, StatusCode::NOT_FOUND);
    // Room again for client C.
    assert_eq!(review(&s, "POST", g1, "10.8.0.3").await.0, StatusCode::ACCEPTED);
    review(&s, "DELETE", g1, "10.8.0.3").await;
    until_running(&s, 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_nobody_watches_is_cancelled_and_positions_have_a_node_budget() {
    let s = proxied(&["review-idle-secs=1", "review-nodes=3000"]);
    let (id, _) = import(&s, "10.9.0.1", &long_game()).await;
    let (status, v) = review(&s, "POST", id, "10.9.0.1").await;
    assert_eq!(
        (status, v["budget"]["nodes"].as_u64()),
        (StatusCode::ACCEPTED, Some(3000)),
        "{v}"
    );
    // Nobody asks for its progress: it stops after a second (at the end of a position's search).
    until_running(&s, 0).await;
    let (_, v) = review(&s, "GET", id, "10.9.0.1").await;
    assert_eq!(v["status"], "cancelled", "{v}");
    assert!(v["reason"].as_str().unwrap().contains("review-idle-secs"), "{v}");
    // Each position's search kept to its budget of nodes.
    let (_, v) = review(&s, "POST", id, "10.9.0.1").await;
    assert_eq!(v["status"], "running", "{v}");
    let v = wait_review(&s, id, |v| {
        v["searched"].as_u64() >= Some(4) || v["status"] != "running"
    })
    .await;
    for a in v["actions"].as_array().unwrap() {
        assert!(a["nodes"].as_u64().unwrap() <= 3000 + 2048, "{a}");
    }
    review(&s, "DELETE", id, "10.9.0.1").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_is_kept_with_its_game_across_restarts_and_leaves_with_it() {
    // One review kept in memory: the second game's review pushes the first one's out of it.
    let s = proxied(&["reviews-kept=1"]);
    let (a, _) = import(&s, "10.10.0.1", SCHOLAR).await;
    let (b, tb) = import(&s, "10.10.0.1", SCHOLAR).await;
    assert_eq!(review(&s, "POST", a, "10.10.0.1").await.0, StatusCode::ACCEPTED);
    let first = wait_review(&s, a, |v| v["status"] == "done").await;
    assert_eq!(review(&s, "POST", b, "10.10.0.1").await.0, StatusCode::ACCEPTED);
    let second = wait_review(&s, b, |v| v["status"] == "done").await;
    // Out of memory, still answered (from the database), whole.
    let (status, v) = review(&s, "GET", a, "10.10.0.2").await;
    assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("done")));
    assert!(v == first, "not the same review");
    // A restarted server answers both as they were.
    let api = s.restarted();
    for (id, was) in [(a, &first), (b, &second)] {
        let (status, v) = call_as(
            &api.router,
            "GET",
            &format!("/api/games/{id}/review"),
            None,
            &from("10.10.0.3", None),
        )
        .await;
        assert_eq!(
            (status, v["status"].as_str()),
            (StatusCode::OK, Some("done")),
            "game {id}"
        );
        assert!(&v == was, "game {id}: not the same review");
        assert_eq!(v["review"]["black"]["blunders"], 1, "{v}");
    }
    // A deleted game's review goes with it.
    let (status, v) = call_as(
        &api.router,
        "DELETE",
        &format!("/api/games/{b}"),
        None,
        &from("10.10.0.1", Some(&tb)),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let conn = rusqlite::Connection::open(&s.db).unwrap();
    let kept = |id: i64| -> i64 {
        conn.query_row("SELECT count(*) FROM reviews WHERE game = ?1", [id], |r| r.get(0))
            .unwrap()
    };
    assert_eq!((kept(a), kept(b)), (1, 0));
}

/// A request of `client` with `token` (a seat's), on the server's router.
async fn act(s: &Server, client: &str, token: &str, uri: &str, body: Value) -> (StatusCode, Value) {
    let body = body.to_string();
    call_as(&s.app.router, "POST", uri, Some(&body), &from(client, Some(token))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judging_a_mistakes_answer_takes_a_place_in_the_reviews_quota() {
    // One review place per client (the default), two in all.
    let s = proxied(&["imports-per-minute=100", "reviews=2"]);
    let a = "10.11.0.1";
    let (scholar, owner) = import(&s, a, SCHOLAR).await;
    assert_eq!(review(&s, "POST", scholar, a).await.0, StatusCode::ACCEPTED);
    wait_review(&s, scholar, |v| v["status"] == "done").await;
    // Black's 3... Nf6 (action 5) as a puzzle: the answer is judged by a search.
    let (status, v) = act(&s, a, &owner, &format!("/api/games/{scholar}/mistakes/5"), json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (puzzle, token) = (
        v["id"].as_i64().unwrap(),
        v["seat"]["token"].as_str().unwrap().to_string(),
    );
    let (status, v) = act(
        &s,
        a,
        &token,
        &format!("/api/games/{puzzle}/move"),
        json!({ "move": "(0T3)d8(0T3)e7" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // The client already holds its share (a review of a long game under way): its answer is
    // refused, not searched beside it.
    let (long, _) = import(&s, a, &long_game()).await;
    assert_eq!(review(&s, "POST", long, a).await.0, StatusCode::ACCEPTED);
    until_running(&s, 1).await;
    let submit = format!("/api/games/{puzzle}/submit");
    let refused = act(&s, a, &token, &submit, json!({})).await;
    assert_eq!(refused.0, StatusCode::TOO_MANY_REQUESTS, "{}", refused.1);
    assert!(
        refused.1["error"].as_str().unwrap().contains("reviews-per-client"),
        "{}",
        refused.1
    );
    // Nothing was judged: the answer waits, still to submit.
    let (_, v) = call_as(
        &s.app.router,
        "GET",
        &format!("/api/games/{puzzle}"),
        None,
        &from(a, Some(&token)),
    )
    .await;
    assert!(v["puzzle"]["better"]["answer"].is_null(), "{v}");
    // Its review over, the client's answer is judged.
    review(&s, "DELETE", long, a).await;
    until_running(&s, 0).await;
    let (status, v) = act(&s, a, &token, &submit, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["puzzle"]["better"]["answer"]["win"].is_number(), "{v}");
}
