//! The two counting conventions: every set of moves with every order of its new timelines
//! (the default, as cwmtt and ftxi's engine count), or every distinct resulting position.

use super::scripted::play;
use chess5d_rules::{ActionCount, Budget, Convention, Position, Variant};
use std::collections::HashMap;

/// Focused - Just Kings after `1. Ka1a2 / Kc3c2 2. (0T2)Ka2>>(0T1)a2`: Black can jump both
/// kings onto `(0T1)c2`, in either order, reaching one multiverse.
fn just_kings_after_branch() -> Position {
    let mut pos = Variant::by_name("Focused - Just Kings").expect("variant").position();
    play(&mut pos, "(0T1)a1>(0T1)a2");
    play(&mut pos, "(0T1)c3>(0T1)c2");
    play(&mut pos, "(0T2)a2>(0T1)a2");
    pos
}

#[test]
fn two_jumps_onto_one_board_count_twice_by_default() {
    let pos = just_kings_after_branch();
    assert_eq!(pos.timeline_count(), 2);
    assert_eq!(pos.count_actions(u64::MAX, Budget::UNLIMITED), ActionCount::Exact(27));
    assert_eq!(
        pos.count_actions_by(u64::MAX, Budget::UNLIMITED, Convention::Orderings),
        ActionCount::Exact(27)
    );
    assert_eq!(
        pos.count_actions_by(u64::MAX, Budget::UNLIMITED, Convention::DistinctPositions),
        ActionCount::Exact(26)
    );
    assert_eq!(pos.perft(1, Budget::UNLIMITED), Some(27));
    assert_eq!(
        pos.perft_by(1, Budget::UNLIMITED, Convention::DistinctPositions),
        Some(26)
    );

    // The one position reached twice: both kings on (0T1)c2, in two new timelines.
    let mut reached: HashMap<u64, Vec<String>> = HashMap::new();
    for action in pos.legal_actions_by(Budget::UNLIMITED, Convention::Orderings) {
        let mut p = pos.clone();
        for m in &action {
            p.play(m).expect("yielded moves are playable");
        }
        let long: Vec<String> = action.iter().map(|m| m.long(false)).collect();
        reached.entry(p.hash()).or_default().push(long.join(" "));
    }
    let mut twice: Vec<Vec<String>> = reached.into_values().filter(|v| v.len() > 1).collect();
    assert_eq!(twice.len(), 1, "{twice:?}");
    let mut orders = twice.pop().expect("one");
    orders.sort();
    assert_eq!(
        orders,
        ["(0T2)c2(0T1)c2 (1T1)c3(0T1)c2", "(1T1)c3(0T1)c2 (0T2)c2(0T1)c2"]
    );
}

#[test]
fn orderings_is_the_default_and_names_are_stable() {
    // The JSON output and the command line use these names.
    assert_eq!(Convention::default(), Convention::Orderings);
    assert_eq!(Convention::Orderings.to_string(), "orderings");
    assert_eq!(Convention::DistinctPositions.to_string(), "distinct-positions");
}
