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

/// Positions where a side has no royal piece (rules crate, "Positions without a royal piece"):
/// the static site imports them, plays them to a stalemate, the engine thinks on them, and the
/// puzzle maker proves a mate given by a side without a king.
#[test]
fn positions_without_a_royal_piece_are_accepted() {
    let knight = "[Board \"custom\"]\n[Size \"5x5\"]\n[5/5/2N2/5/5:0:1:w]\n";
    let body = json!({ "import": knight }).to_string();
    let mut g = LocalGame::create(&body, 1, "2026-01-02 03:04:05").expect("create");
    let v = json(&g.view(None));
    assert!(!v["check"].is_object(), "{v}");
    g.act("move", r#"{"move": "(0T1)c3(0T1)b1"}"#).expect("Nb1");
    g.act("submit", "").expect("submit");
    let v = json(&g.view(None));
    assert_eq!(
        (&v["result"], &v["termination"]),
        (&json!("1/2-1/2"), &json!("stalemate")),
        "{v}"
    );

    let brawns = "[Board \"custom\"]\n[Size \"4x4\"]\n[w*w*w*w*/4/4/W*W*W*W*:0:1:w]\n";
    let answer = json(&engine_think(brawns, "", "alphabeta", 100).expect("think"));
    assert!(
        answer["moves"].as_str().is_some_and(|m| m.starts_with("(0T1)")),
        "{answer}"
    );
    let a = json(&engine_analyse(brawns, "", 100, 2).expect("analyse"));
    assert_eq!(a["lines"].as_array().map(Vec::len), Some(2), "{a}");

    let two_rooks = "[Board \"custom\"]\n[Size \"8x8\"]\n[k7/7R/8/8/8/8/8/6R1:0:1:w]\n";
    let made = json(&make_puzzle(two_rooks, false, Some(1), Some("Two rooks".into())).expect("proven"));
    assert_eq!(made["mate_in"], 1);
    assert!(made["pgn"].as_str().unwrap().contains("(1. Rg8)"), "{made}");
}
