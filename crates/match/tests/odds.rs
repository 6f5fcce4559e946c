//! Time odds: each engine plays at its own time control. The engines run behind `tee`, which
//! logs every command they receive, and the tests read the `go` commands from those logs: what
//! each engine was told about its own clock and its opponent's.

use super::*;

/// `tee -a LOG | COMMAND`: the engine, with every line sent to it appended to `log`.
fn logged(log: &std::path::Path, command: &str) -> String {
    format!("tee -a '{}' | {command}", log.display())
}

/// The `go` lines of a log, each as its `key value` pairs (values in ms).
fn gos(log: &std::path::Path) -> Vec<HashMap<String, u64>> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("go "))
        .map(|args| {
            let w: Vec<&str> = args.split_whitespace().collect();
            w.chunks(2)
                .filter_map(|p| Some((p[0].to_string(), p.get(1)?.parse().ok()?)))
                .collect()
        })
        .collect()
}

use std::collections::HashMap;

fn words(s: &str) -> Vec<String> {
    s.split('\n').map(String::from).collect()
}

/// Our engine at 0.5+0.01 (given fastchess-style, `cmd=... tc=...`) against our engine at the
/// match's 5+0.1: every `go` each receives has its own clock and increment on its side and
/// the other engine's on the other, in both colours; the games record both controls.
#[test]
fn each_engine_is_told_its_own_clock_and_its_opponents() {
    let (log_a, log_b) = (temp("odds-a.log"), temp("odds-b.log"));
    let a = EngineSpec::from_words(
        &words(&format!(
            "cmd={}\nname=fast\ntc=0.5+0.01\noption.Hash=2",
            logged(&log_a, &example("match_engine"))
        )),
        "engine A",
    )
    .unwrap();
    assert_eq!(a.tc, Some(TimeControl::parse_clock("0.5+0.01").unwrap()));
    let mut b = spec("slow", logged(&log_b, &example("match_engine")));
    b.options = vec![("Hash".into(), "2".into())];
    let mut c = config(a, b, 2);
    c.tc = TimeControl::parse_clock("5+0.1").unwrap();
    c.concurrency = 1;
    c.max_actions = 6;
    c.margin = Duration::from_secs(2);
    let r = run_match(&c, &mut |_| {}).unwrap();
    assert_eq!(r.games.len(), 2);
    for g in &r.games {
        assert!(!g.termination.contains("lost on time"), "{}", g.termination);
    }
    assert!(std::fs::read_to_string(&log_a)
        .unwrap()
        .contains("setoption name Hash value 2"));

    // (own time, own inc, other's time, other's inc) of every `go`, whatever the colour.
    let sides = |log: &std::path::Path, own_inc: u64| -> Vec<(u64, u64, u64, u64, bool)> {
        gos(log)
            .into_iter()
            .map(|g| {
                let white = g["winc"] == own_inc;
                let (mine, theirs) = if white { ("w", "b") } else { ("b", "w") };
                let v = |side: &str, k: &str| g[&format!("{side}{k}")];
                (
                    v(mine, "time"),
                    v(mine, "inc"),
                    v(theirs, "time"),
                    v(theirs, "inc"),
                    white,
                )
            })
            .collect()
    };
    let fast = sides(&log_a, 10);
    let slow = sides(&log_b, 100);
    // Three actions each per game (six actions), two games.
    assert!(fast.len() >= 6 && slow.len() >= 6, "{fast:?} {slow:?}");
    for &(own, own_inc, other, other_inc, _) in &fast {
        assert_eq!((own_inc, other_inc), (10, 100), "{fast:?}");
        assert!(own <= 500 + 3 * 10 && other > 1000, "{fast:?}");
    }
    for &(own, own_inc, other, other_inc, _) in &slow {
        assert_eq!((own_inc, other_inc), (100, 10), "{slow:?}");
        assert!(own > 1000 && own <= 5000 + 3 * 100 && other <= 500 + 3 * 10, "{slow:?}");
    }
    // Both colours, and the very first `go` of the game A opens is both full clocks.
    assert!(fast.iter().any(|s| s.4) && fast.iter().any(|s| !s.4), "{fast:?}");
    assert!(slow.iter().any(|s| s.4) && slow.iter().any(|s| !s.4), "{slow:?}");
    assert!(fast.contains(&(500, 10, 5000, 100, true)), "{fast:?}");

    // The records: each colour's control.
    for g in &r.games {
        let text = g.to_5dpgn(&c, "2026.01.01");
        let (w, b) = if g.white == 0 {
            ("0.5+0.01", "5+0.1")
        } else {
            ("5+0.1", "0.5+0.01")
        };
        assert!(
            text.contains(&format!("[WhiteTimeControl \"{w}\"]\n[BlackTimeControl \"{b}\"]\n")),
            "{text}"
        );
        assert!(!text.contains("[TimeControl "), "{text}");
        chess5d_notation::load(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
    let _ = (std::fs::remove_file(log_a), std::fs::remove_file(log_b));
}

/// The draft engine (no clock extension: the runner turns its own clock into a `movetime`,
/// and it overshoots that by 150 ms) at 0.25+0 against the draft engine at the match's 20+0.5:
/// the short clock loses on time in every game, with either colour; the long one never does,
/// and the `movetime`s each was sent follow its own clock.
#[test]
fn the_short_clock_of_an_odds_match_loses_on_time() {
    let (log_a, log_b) = (temp("forfeit-a.log"), temp("forfeit-b.log"));
    let draft = |log: &std::path::Path, seed: u32| {
        logged(
            log,
            &format!("{} --overshoot-ms 150 --seed {seed}", example("match_draft_engine")),
        )
    };
    let mut a = spec("short", draft(&log_a, 1));
    a.tc = Some(TimeControl::parse_clock("0.25").unwrap());
    let b = spec("long", draft(&log_b, 2));
    let mut c = config(a, b, 2);
    c.openings = vec![Opening::variant("Standard").unwrap()];
    c.tc = TimeControl::parse_clock("20+0.5").unwrap();
    c.margin = Duration::from_millis(50);
    c.max_actions = 40;
    let r = run_match(&c, &mut |_| {}).unwrap();
    assert_eq!(r.games.len(), 2);
    let mut colours = Vec::new();
    for g in &r.games {
        assert_eq!(g.ending, Ending::TimeForfeit, "{}", g.termination);
        let colour = if g.white == 0 { "white" } else { "black" };
        assert!(
            g.termination.starts_with(&format!("short ({colour}) lost on time")),
            "{}",
            g.termination
        );
        assert_eq!(g.score_of_first(), 0.0);
        colours.push(colour);
        let text = g.to_5dpgn(&c, "2026.01.01");
        assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
    }
    colours.sort();
    assert_eq!(colours, ["black", "white"]);
    assert_eq!((r.wins, r.losses), (0, 2));
    let movetimes = |log: &std::path::Path| -> Vec<u64> { gos(log).iter().map(|g| g["movetime"]).collect() };
    let (short, long) = (movetimes(&log_a), movetimes(&log_b));
    assert!(!short.is_empty() && short.iter().all(|&t| t < 100), "{short:?}");
    assert!(!long.is_empty() && long.iter().all(|&t| t > 500), "{long:?}");
    let _ = (std::fs::remove_file(log_a), std::fs::remove_file(log_b));
}
