//! The fast search against the brute-force reference on thousands of small random positions:
//! same legal actions in both counting conventions, same verdict.

use super::brute::{self, OrderingKey};
use chess5d_rules::{ActionCount, Budget, Convention, Outcome, Position, Variant};
use std::collections::HashSet;

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// Compares one position; `None` if it is too big for the brute force. The numbers of legal
/// actions: distinct positions, and sets of moves with an order of new timelines.
fn compare(pos: &Position) -> Option<(usize, usize)> {
    let reference = brute::legal_action_results(pos, 30_000)?;
    let mut seen = HashSet::new();
    let mut it = pos.legal_actions(Budget::UNLIMITED);
    for action in it.by_ref() {
        let mut p = pos.clone();
        for m in &action {
            p.play(m).expect("yielded moves are playable");
        }
        assert!(
            p.can_submit().is_ok(),
            "yielded an action that cannot be submitted:\n{}",
            pos.describe()
        );
        assert!(seen.insert(p.hash()), "yielded one position twice:\n{}", pos.describe());
    }
    assert!(!it.exhausted());
    assert_eq!(
        seen,
        reference,
        "fast {} vs brute force {}:\n{}",
        seen.len(),
        reference.len(),
        pos.describe()
    );
    // The orderings convention: every set of moves with every order of its new timelines.
    let orderings = brute::legal_action_orderings(pos, 60_000)?;
    let mut keys = HashSet::new();
    for action in pos.legal_actions_by(Budget::UNLIMITED, Convention::Orderings) {
        let key = OrderingKey::of(pos, &action);
        assert!(!keys.contains(&key), "yielded {key:?} twice:\n{}", pos.describe());
        keys.insert(key);
    }
    assert_eq!(keys, orderings, "orderings convention:\n{}", pos.describe());
    assert_eq!(
        pos.count_actions(u64::MAX, Budget::UNLIMITED),
        ActionCount::Exact(orderings.len() as u64)
    );
    let outcome = pos.outcome(Budget::DEFAULT);
    match (reference.is_empty(), &outcome) {
        (false, Outcome::Ongoing(_)) => {}
        (true, Outcome::Checkmate) => assert!(pos.in_check()),
        (true, Outcome::Stalemate) => assert!(!pos.in_check()),
        _ => panic!(
            "outcome {} with {} legal actions:\n{}",
            outcome.name(),
            reference.len(),
            pos.describe()
        ),
    }
    Some((reference.len(), orderings.len()))
}

#[test]
fn fast_search_matches_brute_force_on_random_small_games() {
    let variants = [
        "Very Small",
        "Very Small - Open",
        "Focused - Just Kings",
        "Focused - Just Knights",
        "Focused - Just Rooks",
        "Focused - Just Brawns",
        "Focused - Just Unicorns",
        "Misc - Timeline Tactitian",
        "Misc - Timeline Formations",
        "Misc - Timeline Fragments",
        "Small - Open",
        "Misc - King of Kings",
    ];
    let mut rng = Rng::new(2026);
    let (mut compared, mut mates, mut multi, mut differ) = (0, 0, 0, 0);
    for game in 0..200 {
        let name = variants[game % variants.len()];
        let mut pos = Variant::by_name(name).expect("variant").position();
        for _ in 0..10 {
            let Some((n, by_order)) = compare(&pos) else { break };
            compared += 1;
            differ += usize::from(by_order != n);
            if pos.timeline_count() > 2 {
                multi += 1;
            }
            if n == 0 {
                mates += 1;
                break;
            }
            // Pick one of the first few dozen legal actions at random.
            let actions: Vec<_> = pos.legal_actions(Budget::DEFAULT).take(48).collect();
            let pick = &actions[rng.below(actions.len())];
            for m in pick {
                pos.play(m).expect("legal");
            }
            pos.submit().expect("legal action submits");
        }
    }
    assert!(compared >= 1000, "compared only {compared} positions");
    assert!(multi >= 150, "only {multi} positions with three or more timelines");
    assert!(mates >= 1, "no position without legal actions");
    println!(
        "compared {compared} positions ({multi} with 3+ timelines, {mates} without legal actions, \
         {differ} where the conventions differ)"
    );
}
