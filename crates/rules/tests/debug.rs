//! Debugging aids for one oracle record at a time (run with `--ignored`, `RECORD=<id>`).

use super::oracle::{oracle_long, replay};
use serde_json::Value;

fn record() -> Option<Value> {
    let want = std::env::var("RECORD").ok()?;
    for file in ["public.jsonl", "public-variants.jsonl"] {
        let text = std::fs::read_to_string(format!("{}/tests/data/oracle/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for line in text.lines() {
            let rec: Value = serde_json::from_str(line).unwrap();
            if rec["id"] == want.as_str() {
                return Some(rec);
            }
        }
    }
    None
}

fn seq(moves: &[chess5d_rules::Move], even: bool) -> String {
    moves
        .iter()
        .map(|m| format!("{} [{:?}]", oracle_long(m, even), m.kind))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
#[ignore]
fn diff_debug() {
    let Some(rec) = record() else { return };
    let pos = replay(&rec);
    println!("{}", pos.describe());
    let bmap = super::brute::legal_action_map(&pos, 50_000_000).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut shown = 0;
    for a in pos.legal_actions(chess5d_rules::Budget::UNLIMITED) {
        let mut p = pos.clone();
        for m in &a {
            p.play_unchecked(m);
        }
        let h = p.hash();
        let dup = !seen.insert(h);
        if (dup || !bmap.contains_key(&h)) && shown < 10 {
            shown += 1;
            println!(
                "FAST dup={dup} in_brute={}: {}",
                bmap.contains_key(&h),
                seq(&a, pos.even())
            );
        }
    }
    for (h, s) in &bmap {
        if !seen.contains(h) && shown < 20 {
            shown += 1;
            println!("MISSING: {}", seq(s, pos.even()));
        }
    }
    println!("brute {} fast {}", bmap.len(), seen.len());
}
