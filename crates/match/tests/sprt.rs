//! The SPRT: a simulation of equal engines, and a self-play match that must not decide early.

use crate::*;

/// splitmix64: a small seeded generator for the simulation.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One game between equal engines, from the side with White: 35% wins, 40% draws, 25%
    /// losses (a draw rate and a first-move edge like those of engine matches).
    fn game_for_white(&mut self) -> f64 {
        let x = self.next();
        if x < 0.35 {
            1.0
        } else if x < 0.75 {
            0.5
        } else {
            0.0
        }
    }
}

/// 200 SPRTs (elo0 = 0, elo1 = 10, alpha = beta = 0.05) between equal engines, on game pairs:
/// H0 is true, so about 95% of them must accept it (Wald's bounds are conservative: at most
/// alpha accept H1), and none may decide within its first 20 pairs.
#[test]
fn equal_engines_accept_h0_at_the_configured_rate() {
    let test = Sprt::new(0.0, 10.0);
    let mut rng = Rng(2024);
    let (mut h0, mut h1, mut earliest) = (0, 0, usize::MAX);
    for _ in 0..200 {
        let mut p = Pentanomial::default();
        let mut pairs = 0;
        loop {
            // Engine A has White in the first game of the pair, B in the second.
            let a_first = rng.game_for_white();
            let a_second = 1.0 - rng.game_for_white();
            p.add(a_first, a_second);
            pairs += 1;
            let status = test.status(test.llr_pairs(&p));
            if status.decided() {
                earliest = earliest.min(pairs);
                match status {
                    SprtStatus::H0(_) => h0 += 1,
                    _ => h1 += 1,
                }
                break;
            }
            assert!(pairs < 100_000, "an SPRT that never ends");
        }
    }
    assert!(earliest > 20, "a test decided after {earliest} pairs");
    // alpha = 0.05 of 200 is 10 (sd 3.1): between 1 and 20 false positives.
    assert!((180..=199).contains(&h0), "H0 accepted {h0} times, H1 {h1} times");
}

/// Unpaired games (trinomial) of equal engines: the same property.
#[test]
fn equal_engines_accept_h0_on_unpaired_games() {
    let test = Sprt::new(0.0, 10.0);
    let mut rng = Rng(7);
    let (mut h0, mut earliest) = (0, usize::MAX);
    for _ in 0..200 {
        let mut t = Trinomial::default();
        let mut games = 0;
        loop {
            let white = rng.game_for_white();
            t.add(if games % 2 == 0 { white } else { 1.0 - white });
            games += 1;
            let status = test.status(test.llr_games(&t));
            if status.decided() {
                earliest = earliest.min(games);
                h0 += usize::from(matches!(status, SprtStatus::H0(_)));
                break;
            }
        }
    }
    assert!(earliest > 40, "a test decided after {earliest} games");
    assert!((180..=199).contains(&h0), "H0 accepted {h0} times");
}

/// Our engine against itself with `--sprt elo0=0 elo1=10`: no verdict in 40 games (a verdict
/// would stop the match early).
#[test]
fn self_play_does_not_decide_in_40_games() {
    let started = std::time::Instant::now();
    let mut c = config(ours(&[("Hash", "2")]), ours(&[("Hash", "2")]), 40);
    c.engines[1].name = "chess5d-b".into();
    c.openings = vec![Opening::variant("Very Small").unwrap()];
    c.tc = TimeControl::Clock {
        base: Duration::from_millis(400),
        inc: Duration::from_millis(10),
    };
    c.margin = Duration::from_secs(2);
    c.max_actions = 16;
    c.sprt = Some(Sprt::new(0.0, 10.0));
    let r = run_match(&c, &mut |_| {}).unwrap();
    assert_eq!(r.games.len(), 40, "{r}");
    assert!(matches!(r.sprt, Some(SprtStatus::Continue(_))), "{r}");
    assert_eq!(r.pentanomial.pairs(), 20);
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
}

#[test]
fn sprt_stops_the_match_early() {
    // A random engine against one that plays an illegal move: H1 is accepted quickly.
    let mut c = config(fake("random"), fake("illegal:3"), 60);
    c.max_actions = 8;
    c.margin = Duration::from_secs(2);
    c.sprt = Some(Sprt {
        elo0: -400.0,
        elo1: 0.0,
        alpha: 0.1,
        beta: 0.1,
    });
    let r = run_match(&c, &mut |_| {}).unwrap();
    assert!(r.games.len() < 60, "{}", r.games.len());
    assert!(matches!(r.sprt, Some(SprtStatus::H1(_))), "{r}");
}
