//! chess5d-local natively: a game made as the page makes it, saved as a record and restored
//! whole, the engine's action for the worker played back, the puzzle maker and the analysis.
//! (Its refusals are `JsError`s, which exist only in wasm: the static site's browser tests
//! cover them, tests/browser/static.)

use chess5d_local::{engine_analyse, engine_think, info, make_puzzle, LocalGame};
use serde_json::{json, Value};

fn json(s: &str) -> Value {
    serde_json::from_str(s).expect("JSON")
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
fn a_game_against_the_engine_is_saved_and_restored_whole() {
    let body = r#"{"variant": "Standard", "black": {"type": "engine", "bot": "greedy", "movetime_ms": 50}}"#;
    let mut g = LocalGame::create(body, 3, "2026-01-02 03:04:05").expect("create");
    g.act("move", r#"{"move": "(0T1)e2(0T1)e4"}"#).expect("e4");
    g.act("submit", "").expect("submit");
    assert!(g.engine_to_move());
    let task = json(&g.engine_task());
    assert_eq!(task["bot"], "greedy");
    let answer = json(
        &engine_think(
            task["start"].as_str().unwrap(),
            task["actions"].as_str().unwrap(),
            "greedy",
            50,
        )
        .expect("think"),
    );
    g.engine_apply(answer["moves"].as_str().unwrap(), answer["info"].as_str().unwrap())
        .expect("apply");
    g.act("move", r#"{"move": "(0T2)d2(0T2)d4"}"#).expect("d4 pending");
    let v = json(&g.view(None));
    assert_eq!(v["action_count"], 2);
    let restored = LocalGame::restore(&g.record("2026-01-02 03:05:00")).expect("restore");
    let w = json(&restored.view(None));
    for k in ["action_count", "actions", "pending", "players", "boards", "pgn"] {
        assert_eq!(v[k], w[k], "{k}");
    }
    assert_eq!(json(&restored.summary("x"))["black"], "chess5d (greedy)");
}

#[test]
fn the_puzzle_maker_and_the_analysis_answer_as_the_server() {
    let text = "[Board \"custom\"]\n[Size \"5x5\"]\n[Promotions \"Q,R,B,N\"]\n[4k*/5/4K*/5/R*4:0:1:w]\n";
    let made = json(&make_puzzle(text, false, Some(1), Some("Corner".into())).expect("proven"));
    assert_eq!(made["mate_in"], 1);
    assert_eq!(made["to_move"], "white");
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
