//! Games leave memory when idle and come back from the database whole: the number of games
//! held stays bounded over a long run.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_come_back_whole() {
    let s = server();
    let mut held = Vec::new();
    let mut ids = Vec::new();
    // A long run: 240 games, each left with a move of an action under way; every 20 games the
    // idle ones are unloaded (as the ticker does after the idle time).
    for i in 0..240 {
        let id = new_game(&s.app, json!({})).await;
        play(&s.app, id, &["(0T1)e2(0T1)e4"]).await;
        ids.push(id);
        if i % 20 == 19 {
            s.state.unload_idle(Duration::ZERO);
        }
        held.push(s.state.games_in_memory());
    }
    // A game a request still has in hand (its answer just sent) stays for the next round.
    let most = held.iter().copied().max().unwrap();
    assert!(most <= 40, "games held grew to {most}: {held:?}");
    assert!(held[200..].iter().any(|&n| n <= 1), "{held:?}");
    // A game that left comes back whole: the move of its action under way, and its seat.
    let first = ids[0];
    let (status, v) = call(&s.app, "GET", &format!("/api/games/{first}"), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["pending"].as_array().map(Vec::len), Some(1), "{v}");
    let v = submit(&s.app, first).await;
    assert_eq!(v["action_count"], 1, "{v}");
    let (status, v) = call_as(
        &s.app.router,
        "POST",
        &format!("/api/games/{first}/submit"),
        None,
        &[("x-chess5d-seat", "0123456789abcdef0123456789abcdef".into())],
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "the seats came back too: {v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_a_running_clock_stays_until_it_ends() {
    let s = server();
    let clocked = new_game(
        &s.app,
        json!({ "variant": "Standard", "clock": {"initial_ms": 60000, "increment_ms": 0} }),
    )
    .await;
    let plain = new_game(&s.app, json!({})).await;
    assert_eq!(s.state.games_in_memory(), 2);
    // Not idle long enough: both stay.
    assert_eq!(s.state.unload_idle(Duration::from_secs(3600)), 0);
    // Idle: the plain one leaves; the clocked one must stay for the ticker to flag it.
    assert_eq!(s.state.unload_idle(Duration::ZERO), 1);
    assert_eq!(s.state.games_in_memory(), 1);
    let (status, v) = call(&s.app, "GET", &format!("/api/games/{clocked}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["clock"]["running"], true, "{v}");
    let (status, _) = call(&s.app, "GET", &format!("/api/games/{plain}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s.state.games_in_memory(), 2);
}
