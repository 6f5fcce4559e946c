//! Match runner tests: real games between fake and real engines, adjudication, 5DPGN output
//! read back, the SPRT (formulas and simulation), shards, and the command line.

mod draft_engine;
mod games;
mod odds;
mod output;
mod shards;
mod sprt;

use chess5d_match::*;
use std::path::PathBuf;
use std::time::Duration;

pub(crate) fn example(name: &str) -> String {
    let mut p: PathBuf = std::env::current_exe().unwrap();
    p.pop();
    if p.ends_with("deps") {
        p.pop();
    }
    p.join("examples").join(name).display().to_string()
}

pub(crate) fn spec(name: &str, command: String) -> EngineSpec {
    EngineSpec {
        name: name.into(),
        ..EngineSpec::new(command)
    }
}

pub(crate) fn fake(mode: &str) -> EngineSpec {
    spec(
        &format!("fake-{mode}"),
        format!("{} {mode}", example("match_fake_engine")),
    )
}

/// Our engine (the `match_engine` example) with these options.
pub(crate) fn ours(options: &[(&str, &str)]) -> EngineSpec {
    let mut spec = spec("chess5d", example("match_engine"));
    spec.options = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    spec
}

pub(crate) fn config(a: EngineSpec, b: EngineSpec, games: usize) -> MatchConfig {
    MatchConfig {
        engines: [a, b],
        games,
        openings: vec![Opening::variant("Very Small").unwrap()],
        tc: TimeControl::MoveTime(Duration::from_millis(30)),
        concurrency: 2,
        max_actions: 16,
        margin: Duration::from_millis(1500),
        ..MatchConfig::default()
    }
}

pub(crate) fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("chess5d-match-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}
