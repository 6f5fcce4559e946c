//! `LegalActions::present_only` lists exactly the legal actions whose moves all start on boards
//! that must be played, each resulting position once: checked against the full search filtered,
//! on the oracle positions small enough to enumerate.

use super::oracle::replay;
use chess5d_rules::{Budget, LegalActions};
use serde_json::Value;
use std::collections::BTreeSet;

#[test]
fn present_only_is_the_full_search_filtered() {
    let text =
        std::fs::read_to_string(format!("{}/tests/data/oracle/public.jsonl", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut compared = 0;
    for line in text.lines() {
        let rec: Value = serde_json::from_str(line).unwrap();
        if rec["timelines"].as_u64().unwrap() > 2 {
            continue;
        }
        let pos = replay(&rec);
        let mandatory = pos.mandatory_boards();
        let hash_of = |a: &Vec<chess5d_rules::Move>| {
            let mut p = pos.clone();
            for m in a {
                p.play_unchecked(m);
            }
            p.hash()
        };
        let mut all = pos.legal_actions(Budget::UNLIMITED);
        let filtered: BTreeSet<u64> = all
            .by_ref()
            .take(50_000)
            .filter(|a| a.iter().all(|m| mandatory.contains(&m.from.board)))
            .map(|a| hash_of(&a))
            .collect();
        if all.next().is_some() {
            continue; // too many to enumerate here
        }
        let mut fast = LegalActions::present_only(&pos, Budget::UNLIMITED);
        let listed: Vec<u64> = fast.by_ref().map(|a| hash_of(&a)).collect();
        assert!(!fast.exhausted());
        let distinct: BTreeSet<u64> = listed.iter().copied().collect();
        assert_eq!(distinct.len(), listed.len(), "{}: a position listed twice", rec["id"]);
        assert_eq!(distinct, filtered, "{}", rec["id"]);
        compared += 1;
    }
    assert!(compared > 100, "compared {compared}");
}
