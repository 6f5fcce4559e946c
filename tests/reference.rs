//! The reference suite of `data/reference/`: `chess5d reference check` recomputes every line
//! with the rules as they are now and must find no difference; the suite covers what its README
//! promises.

use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/reference/positions.jsonl");

fn lines() -> Vec<Value> {
    std::fs::read_to_string(SUITE)
        .expect("the suite")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn recomputing_the_suite_finds_no_difference() {
    let out = Command::new(env!("CARGO_BIN_EXE_chess5d"))
        .args(["reference", "check", SUITE])
        .output()
        .expect("binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let n = lines().len();
    assert!(
        stdout.contains(&format!("{n} positions checked, 0 differences")),
        "{stdout}"
    );
}

#[test]
fn the_suite_covers_every_variant_many_timelines_and_both_conventions() {
    let lines = lines();
    assert!(lines.len() >= 400, "{} positions", lines.len());
    let variants: BTreeSet<&str> = lines.iter().map(|l| l["variant"].as_str().unwrap()).collect();
    for v in chess5d_rules::VARIANTS {
        assert!(variants.contains(v.name), "no position of {}", v.name);
    }
    let most = lines.iter().map(|l| l["timelines"].as_u64().unwrap()).max().unwrap();
    assert!(most >= 40, "at most {most} timelines");
    let outcomes: BTreeSet<&str> = lines.iter().map(|l| l["outcome"].as_str().unwrap()).collect();
    assert_eq!(outcomes, BTreeSet::from(["checkmate", "ongoing", "stalemate"]));
    let differ = lines
        .iter()
        .filter(|l| l["actions_orderings"] != l["actions_distinct_positions"])
        .count();
    assert!(differ >= 10, "the conventions differ in {differ} positions");
    let example = lines
        .iter()
        .find(|l| l["id"] == "example/just-kings-two-jumps-onto-one-board")
        .expect("the README's example");
    assert_eq!(
        (&example["actions_orderings"], &example["actions_distinct_positions"]),
        (&27.into(), &26.into())
    );
    let ids: BTreeSet<&str> = lines.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), lines.len(), "ids are unique");
}

/// A line whose value was changed by hand is reported, with its place and field.
#[test]
fn a_wrong_value_is_reported() {
    let first = &lines()[0];
    let mut wrong = first.clone();
    let n = wrong["actions_orderings"].as_u64().unwrap();
    wrong["actions_orderings"] = (n + 1).into();
    let dir = std::env::temp_dir().join(format!("chess5d-reference-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong.jsonl");
    std::fs::write(&file, format!("{wrong}\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chess5d"))
        .args(["reference", "check", file.to_str().unwrap()])
        .output()
        .expect("binary runs");
    std::fs::remove_dir_all(&dir).unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(
        stdout.contains(&format!(
            ":1 ({}): actions_orderings: file {}, recomputed {n}",
            first["id"].as_str().unwrap(),
            n + 1
        )),
        "{stdout}"
    );
}
