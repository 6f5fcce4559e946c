//! Shards: two halves of a match, merged, count what the whole match counts.

use crate::*;

fn seeded_match(games: usize) -> MatchConfig {
    // Our random bot: its moves depend only on the Seed the runner derives from the match
    // seed and the game number.
    let random = |name: &str| {
        let mut s = spec(name, format!("{} --bot random", example("match_engine")));
        s.options = vec![("Hash".into(), "1".into())];
        s
    };
    let mut c = config(random("r1"), random("r2"), games);
    c.openings = vec![
        Opening::variant("Very Small").unwrap(),
        Opening::variant("Small").unwrap(),
        Opening::variant("Standard").unwrap(),
    ];
    c.tc = TimeControl::Nodes(1);
    c.max_actions = 30;
    c.seed = 77;
    c.concurrency = 2;
    c
}

#[test]
fn two_shards_merged_equal_the_single_run() {
    let single = run_match(&seeded_match(10), &mut |_| {}).unwrap();
    let mut parts = Vec::new();
    let mut rounds = Vec::new();
    for k in 1..=2 {
        let mut c = seeded_match(10);
        c.shard = Some(Shard { index: k, count: 2 });
        let path = temp(&format!("shard{k}.json"));
        c.summary = Some(path.clone());
        let r = run_match(&c, &mut |_| {}).unwrap();
        for g in &r.games {
            // The same game as in the single run, move for move.
            let same = single.games.iter().find(|s| s.round == g.round).unwrap();
            assert_eq!(same.actions, g.actions, "game {}", g.round);
            rounds.push(g.round);
        }
        let text = std::fs::read_to_string(&path).unwrap();
        parts.push(Summary::from_json(&text, "shard").unwrap());
        let _ = std::fs::remove_file(path);
    }
    rounds.sort();
    assert_eq!(rounds, (1..=10).collect::<Vec<_>>());
    let (total, note) = merge(&parts).unwrap();
    assert_eq!(note, None);
    assert_eq!(total.trinomial, single.trinomial);
    assert_eq!(total.pentanomial, single.pentanomial);
    assert_eq!(total.pentanomial.pairs(), 5);
    // The whole run's own summary has the same fingerprint as the shards'.
    assert_eq!(total.fingerprint, fingerprint(&seeded_match(10)));
    // A shard of another match does not merge.
    let mut other = seeded_match(10);
    other.seed = 78;
    let wrong = Summary {
        fingerprint: fingerprint(&other),
        ..parts[1].clone()
    };
    assert!(merge(&[parts[0].clone(), wrong]).is_err());
}

#[test]
fn shards_play_whole_pairs() {
    let mut c = seeded_match(7);
    c.shard = Some(Shard { index: 2, count: 3 });
    // Pairs 1 and 4 (0-based) are games 3, 4 and 9 ... 7 games: pair 3 is game 7 alone.
    assert_eq!(schedule(&c), vec![2, 3]);
    c.shard = Some(Shard { index: 1, count: 3 });
    assert_eq!(schedule(&c), vec![0, 1, 6]);
    c.paired = false;
    assert_eq!(schedule(&c), vec![0, 3, 6]);
}
