//! The game service's contract (`tests/data/contract.json`): the same requests through both
//! doors, the server over HTTP and the static site's `crates/local` (the functions its wasm
//! build exports, called natively), give the same answers on the fields named and the same
//! refusals (kind and code), the engine's thinking state, clocks, draws, resignations, analysis
//! boards and puzzle proofs included.

use super::*;
use chess5d_local::Backend;
use chess5d_play::call::Call;

/// Whether `got` has every field of `want` (objects compared field by field, recursively).
fn fits(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w.iter().all(|(k, v)| g.get(k).is_some_and(|x| fits(x, v))),
        _ => got == want,
    }
}

fn steps() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/contract.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["steps"].as_array().unwrap().clone()
}

/// The server over HTTP, at the call's URL (`Call::http`): a refusal's kind and code are in
/// its JSON body.
async fn server_answer(app: &Api, step: &Value) -> Value {
    if let Some(id) = step["engine"].as_i64() {
        let v = wait_for(app, id, |v| v["human_to_move"] == true || v["result"].is_string()).await;
        return json!({ "status": 200, "ok": v });
    }
    let h = Call::read(&step["call"].to_string()).unwrap().http();
    let body = (!h.body.is_empty()).then_some(h.body.as_str());
    let (status, v) = call(app, h.method, &h.path, body).await;
    if status.is_success() {
        json!({ "status": status.as_u16(), "ok": v })
    } else {
        json!({ "status": status.as_u16(), "error": { "kind": v["kind"], "code": v["code"], "message": v["error"] } })
    }
}

/// A refusal of the static site's door with its HTTP status beside it, as the server's.
fn refused(r: Value) -> Value {
    json!({ "status": r["error"]["status"], "error": r["error"] })
}

const NOW: &str = "2026-01-02 03:04:05";

/// The static site's door, doing what `backend/local.js` does with the effects: the engine's
/// search and the puzzle proof (the worker's functions).
fn local_answer(b: &mut Backend, step: &Value) -> Value {
    if let Some(id) = step["engine"].as_i64() {
        let v: Value = serde_json::from_str(&b.call(&json!({ "call": "game", "id": id }).to_string(), NOW)).unwrap();
        return json!({ "status": v["status"], "ok": v["ok"] });
    }
    let r: Value = serde_json::from_str(&b.call(&step["call"].to_string(), NOW)).unwrap();
    if r.get("error").is_some() {
        return refused(r);
    }
    let fx = &r["effects"];
    for t in fx["think"].as_array().unwrap() {
        let a = chess5d_local::engine_think(
            t["start"].as_str().unwrap(),
            t["actions"].as_str().unwrap(),
            t["bot"].as_str().unwrap(),
            &t["budget"].to_string(),
        )
        .unwrap();
        let a: Value = serde_json::from_str(&a).unwrap();
        b.engine_done(
            t["game"].as_u64().unwrap() as u32,
            t["version"].as_f64().unwrap(),
            a["moves"].as_str().unwrap(),
            a["info"].as_str().unwrap(),
            None,
            NOW,
        );
    }
    if let Some(p) = fx["prove"].as_object() {
        let made = chess5d_local::make_puzzle(
            p["text"].as_str().unwrap(),
            p["from_game"].as_bool().unwrap(),
            p["mate_in"].as_u64().map(|n| n as u32),
            p["name"].as_str().map(str::to_string),
        );
        let v: Value = serde_json::from_str(&made).unwrap();
        if v.get("error").is_some() {
            return refused(v);
        }
        return serde_json::from_str(&b.puzzle_made(&made)).unwrap();
    }
    r
}

/// The contract makes every call both doors answer (`call::NAMES`, which a test of
/// crates/play holds to the enum).
#[test]
fn the_contract_makes_every_call() {
    let made: std::collections::BTreeSet<String> = steps()
        .iter()
        .filter_map(|s| s["call"]["call"].as_str().map(str::to_string))
        .collect();
    let missing: Vec<&str> = chess5d_play::call::NAMES
        .iter()
        .copied()
        .filter(|n| !made.contains(*n))
        .collect();
    assert!(missing.is_empty(), "calls the contract never makes: {missing:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_doors_keep_the_contract() {
    let s = server();
    let mut local = Backend::new(&chess5d_server::builtin_puzzles_json());
    let mut broken = Vec::new();
    for (i, step) in steps().iter().enumerate() {
        let what = if step["engine"].is_null() {
            step["call"].to_string()
        } else {
            step.to_string()
        };
        let want = &step["expect"];
        let doors = [
            ("server", server_answer(&s.app, step).await),
            ("static site", local_answer(&mut local, step)),
        ];
        for (door, got) in doors {
            if !fits(&got, want) {
                let text = got.to_string();
                let shown = if got.get("error").is_some() {
                    text
                } else {
                    text.chars().take(300).collect()
                };
                broken.push(format!("step {i} {what} ({door}): want {want}, got {shown}"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
