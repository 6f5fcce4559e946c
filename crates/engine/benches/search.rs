//! Search speed on fixed positions: nodes/s and generated actions/s.
//!
//! Run with `cargo bench -p chess5d-engine` (prints one line per position).

use chess5d_engine::{Engine, Limits};
use chess5d_rules::{Position, Variant};
use std::time::Duration;

fn main() {
    let mut positions: Vec<(String, Position)> = [
        "Standard",
        "Standard - Two Timelines",
        "Small",
        "Very Small",
        "Misc - Timeline Battlegrounds",
    ]
    .iter()
    .map(|n| (n.to_string(), Variant::by_name(n).unwrap().position()))
    .collect();
    // A position with time travel: a few greedy actions into Turn Zero.
    let mut pos = Variant::by_name("Standard - Turn Zero").unwrap().position();
    let mut greedy = Engine::default();
    greedy.set_option("Bot", "greedy").unwrap();
    for _ in 0..6 {
        let Some(a) = greedy.search(&pos, &Limits::depth(1), &mut |_| {}).best else {
            break;
        };
        for m in &a {
            pos.play(m).unwrap();
        }
        pos.submit().unwrap();
    }
    positions.push(("Turn Zero after 6 greedy actions".into(), pos));
    for (name, pos) in positions {
        let mut engine = Engine::default();
        let r = engine.search(&pos, &Limits::movetime(Duration::from_secs(2)), &mut |_| {});
        println!(
            "{name:40} depth {:2} nodes {:8} actions {:8} time {:5} ms  {:7} nodes/s {:8} actions/s",
            r.depth,
            r.nodes,
            r.actions,
            r.time.as_millis(),
            r.nps(),
            r.actions_per_second()
        );
    }
}
