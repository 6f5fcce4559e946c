//! chess5d-local natively: the static site's door answers the page's requests with the game
//! service; a game against the engine is stored and restored whole, the engine's answer played
//! back; refusals are typed; the worker's entry points search and prove.

use chess5d_local::{engine_analyse, engine_think, info, make_puzzle, Backend};
use serde_json::{json, Value};

fn json(s: &str) -> Value {
    serde_json::from_str(s).expect("JSON")
}

const NOW: &str = "2026-01-02 03:04:05";

/// A call's `{ok, effects}` or `{error}`.
fn call(b: &mut Backend, call: Value) -> Value {
    json(&b.call(&call.to_string(), NOW))
}

#[test]
fn info_names_the_engine_and_every_variant() {
    let i = json(&info());
    assert_eq!(i["engines"][0], "chess5d");
    assert!(i["variants"]
        .as_array()
        .is_some_and(|v| v.iter().any(|v| v["name"] == "Standard" && v["size"] == "8x8")));
}

#[test]
fn a_game_against_the_engine_thinks_is_stored_and_restored_whole() {
    let mut b = Backend::new("{}");
    let body = json!({"variant": "Standard", "black": {"type": "engine", "bot": "greedy", "movetime_ms": 50}});
    let g = call(&mut b, json!({"call": "create_game", "body": body}));
    let id = g["ok"]["id"].as_i64().expect("id");
    call(
        &mut b,
        json!({"call": "act", "id": id, "action": "move", "body": {"move": "(0T1)e2(0T1)e4"}}),
    );
    let r = call(&mut b, json!({"call": "act", "id": id, "action": "submit", "body": {}}));
    // The engine's turn: the answer says it is thinking, and the search is asked for.
    assert_eq!(r["ok"]["engine_busy"], true, "{r}");
    assert_eq!(r["ok"]["human_to_move"], false);
    let task = &r["effects"]["think"][0];
    assert_eq!(task["bot"], "greedy");
    let answer = json(
        &engine_think(
            task["start"].as_str().unwrap(),
            task["actions"].as_str().unwrap(),
            "greedy",
            &task["budget"].to_string(),
        )
        .expect("think"),
    );
    let done = json(&b.engine_done(
        id as u32,
        task["version"].as_f64().unwrap(),
        answer["moves"].as_str().unwrap(),
        answer["info"].as_str().unwrap(),
        None,
        NOW,
    ));
    let stored = done["effects"]["store"][0]["record"]
        .as_str()
        .expect("stored")
        .to_string();
    let r = call(
        &mut b,
        json!({"call": "act", "id": id, "action": "move", "body": {"move": "(0T2)d2(0T2)d4"}}),
    );
    let v = &r["ok"];
    assert_eq!(v["action_count"], 2);
    let record = r["effects"]["store"][0]["record"].as_str().expect("stored");
    let mut again = Backend::new("{}");
    again.load_game(record).expect("restore");
    let w = call(&mut again, json!({"call": "game", "id": id}));
    for k in ["action_count", "actions", "pending", "players", "boards", "pgn"] {
        assert_eq!(v[k], w["ok"][k], "{k}");
    }
    again.load_game(&stored).expect("restore the earlier row");
    let list = call(&mut again, json!({"call": "games"}));
    // The computer's seat names its level (the home page's level 2 is the greedy bot).
    assert_eq!(list["ok"]["games"][0]["black"], "chess5d, level 2");
}

#[test]
fn refusals_are_typed() {
    let mut b = Backend::new("{}");
    let e = call(
        &mut b,
        json!({"call": "create_game", "body": {"variant": "Standard", "import": "x"}}),
    );
    assert_eq!(e["error"]["kind"], "invalid", "{e}");
    assert_eq!(e["error"]["code"], "either_or");
    assert_eq!(e["error"]["message"], "give either 'variant' or 'import', not both");
    let e = call(&mut b, json!({"call": "game", "id": 7}));
    assert_eq!(
        (&e["error"]["kind"], &e["error"]["code"]),
        (&json!("not_found"), &json!("no_game"))
    );
    let id = call(&mut b, json!({"call": "create_game", "body": {}}))["ok"]["id"]
        .as_i64()
        .unwrap();
    let e = call(&mut b, json!({"call": "act", "id": id, "action": "undo", "body": {}}));
    assert_eq!(e["error"]["kind"], "conflict", "{e}");
    // An unknown call, or a call with a field it does not take, is a bad request.
    let e = call(&mut b, json!({"call": "nowhere"}));
    assert_eq!(
        (&e["error"]["kind"], &e["error"]["code"]),
        (&json!("invalid"), &json!("bad_body")),
        "{e}"
    );
    let e = call(&mut b, json!({"call": "games", "id": 1}));
    assert_eq!(e["error"]["code"], "bad_body", "{e}");
    // An action the service has not is refused as the server refuses its URL.
    let e = call(&mut b, json!({"call": "act", "id": id, "action": "fly"}));
    assert_eq!(e["error"]["code"], "no_request", "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains(&format!("/api/games/{id}/fly"))),
        "{e}"
    );
}

#[test]
fn the_puzzle_maker_and_the_analysis_answer_as_the_server() {
    let text = "[Board \"custom\"]\n[Size \"5x5\"]\n[Promotions \"Q,R,B,N\"]\n[4k*/5/4K*/5/R*4:0:1:w]\n";
    let made = json(&make_puzzle(text, false, Some(1), Some("Corner".into())));
    assert_eq!(made["mate_in"], 1);
    assert_eq!(made["to_move"], "white");
    let refused = json(&make_puzzle(text, false, Some(4), None));
    assert_eq!(refused["error"]["code"], "goal_out_of_range", "{refused}");
    let fen = "[4k*/5/4K*/5/R*4:0:1:w]";
    let start = format!("[Board \"custom\"]\n[Size \"5x5\"]\n[Promotions \"Q,R,B,N\"]\n{fen}\n");
    let a = json(&engine_analyse(&start, "", 200, 3).expect("analyse"));
    assert!(a["eval"].as_str().is_some_and(|e| e.starts_with("mate")), "{a}");
    assert_eq!(a["pv"][0]["text"], "Ra5");
    // The three best lines, as the server's: the mate first, three different first actions.
    let lines = a["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{a}");
    assert_eq!(
        (&lines[0]["rank"], &lines[0]["eval"], &lines[0]["text"]),
        (&json!(1), &a["eval"], &json!("1. Ra5"))
    );
    let firsts: std::collections::HashSet<&str> = lines.iter().map(|l| l["pv"][0]["text"].as_str().unwrap()).collect();
    assert_eq!(firsts.len(), 3, "{a}");
    let one = json(&engine_analyse(&start, "", 100, 1).expect("analyse"));
    assert_eq!(one["lines"].as_array().map(Vec::len), Some(1), "{one}");
}

/// Positions where a side has no royal piece (rules crate, "Positions without a royal piece"):
/// the static site imports them, plays them to a stalemate, the engine thinks on them, and the
/// puzzle maker proves a mate given by a side without a king.
#[test]
fn positions_without_a_royal_piece_are_accepted() {
    let mut b = Backend::new("{}");
    let knight = "[Board \"custom\"]\n[Size \"5x5\"]\n[5/5/2N2/5/5:0:1:w]\n";
    let g = call(&mut b, json!({"call": "create_game", "body": { "import": knight }}));
    assert!(!g["ok"]["check"].is_object(), "{g}");
    let id = g["ok"]["id"].as_i64().unwrap();
    call(
        &mut b,
        json!({"call": "act", "id": id, "action": "move", "body": {"move": "(0T1)c3(0T1)b1"}}),
    );
    let v = &call(&mut b, json!({"call": "act", "id": id, "action": "submit", "body": {}}))["ok"];
    assert_eq!(
        (&v["result"], &v["termination"]),
        (&json!("1/2-1/2"), &json!("stalemate")),
        "{v}"
    );

    let brawns = "[Board \"custom\"]\n[Size \"4x4\"]\n[w*w*w*w*/4/4/W*W*W*W*:0:1:w]\n";
    let answer = json(&engine_think(brawns, "", "alphabeta", r#"{"move_time":{"ms":100}}"#).expect("think"));
    assert!(
        answer["moves"].as_str().is_some_and(|m| m.starts_with("(0T1)")),
        "{answer}"
    );
    // 1 s, not 100 ms: on a loaded CI machine 100 ms of wall time once gave the search no
    // finished depth (no lines).
    let a = json(&engine_analyse(brawns, "", 1000, 2).expect("analyse"));
    assert_eq!(a["lines"].as_array().map(Vec::len), Some(2), "{a}");

    let two_rooks = "[Board \"custom\"]\n[Size \"8x8\"]\n[k7/7R/8/8/8/8/8/6R1:0:1:w]\n";
    let made = json(&make_puzzle(two_rooks, false, Some(1), Some("Two rooks".into())));
    assert_eq!(made["mate_in"], 1);
    assert!(made["pgn"].as_str().unwrap().contains("(1. Rg8)"), "{made}");
}

/// The engine's budget on a clock is the clock itself, as the server hands it to its engine
/// (`ThinkBudget::limits`, one rule for both doors), not a share of it worked out here.
#[test]
fn a_clocked_engine_gets_the_clock_as_the_server_gives_it() {
    let mut b = Backend::new("{}");
    let body = json!({
        "variant": "Standard", "clock": {"initial_ms": 300000, "increment_ms": 2000},
        "white": {"type": "engine", "bot": "greedy"},
    });
    let g = call(&mut b, json!({"call": "create_game", "body": body}));
    let task = &g["effects"]["think"][0];
    let budget: chess5d_play::ThinkBudget = serde_json::from_value(task["budget"].clone()).expect("a budget");
    assert_eq!(
        budget,
        chess5d_play::ThinkBudget::Clock {
            remaining_ms: [300_000, 300_000],
            increment_ms: 2000
        },
        "{task}"
    );
    let go = budget.limits(Some(5000));
    assert_eq!(go.wtime, Some(std::time::Duration::from_secs(300)));
    assert_eq!(go.winc, Some(std::time::Duration::from_secs(2)));
    assert_eq!((go.movetime, go.nodes), (None, Some(5000)));
    let answer = json(
        &engine_think(
            task["start"].as_str().unwrap(),
            "",
            "greedy",
            &task["budget"].to_string(),
        )
        .expect("think"),
    );
    assert!(answer["moves"].as_str().is_some_and(|m| !m.is_empty()), "{answer}");
}
