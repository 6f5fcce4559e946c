//! The helpers a search uses to avoid copying positions (`submit_test`/`submittable_with`,
//! `in_check_mut`, `with_submitted`, `with_passed`) against the plain API, on random games of
//! every official variant: same answers, and the position left exactly as it was. And the early
//! test of move-by-move generators (`last_move_exposes_royal`): a move it flags leaves a check
//! that no completion of the action removes.

use super::crosscheck::Rng;
use chess5d_rules::{Budget, Move, Position, VARIANTS};

/// Every partial action of up to two moves from `pos` (all first moves, a few second ones).
fn partial_actions(pos: &Position) -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    let mut firsts = Vec::new();
    for b in pos.playable_boards() {
        pos.moves_from(b, &mut firsts);
    }
    for m in &firsts {
        out.push(vec![*m]);
        let mut p = pos.clone();
        p.play_unchecked(m);
        let mut seconds = Vec::new();
        for b in p.playable_boards() {
            p.moves_from(b, &mut seconds);
        }
        out.extend(seconds.iter().take(6).map(|s| vec![*m, *s]));
    }
    out
}

#[test]
fn the_search_helpers_agree_with_the_plain_api() {
    let mut rng = Rng::new(77);
    let (mut tested, mut submittable, mut attacked_starts, mut checks, mut exposed) = (0, 0, 0, 0, 0);
    for (game, variant) in VARIANTS.iter().cycle().take(2 * VARIANTS.len()).enumerate() {
        let mut pos = variant.position();
        for _ in 0..(4 + game % 8) {
            let hash = pos.hash();
            let fen = pos.describe();
            // Check, without a copy and with one.
            let in_check = pos.in_check();
            checks += usize::from(in_check);
            assert_eq!(pos.in_check_mut(), in_check, "in_check_mut:\n{fen}");
            assert_eq!(pos.hash(), hash, "in_check_mut changed the position:\n{fen}");
            // Submission tests of partial actions.
            let test = pos.submit_test();
            attacked_starts += usize::from(pos.find_attack(pos.to_move().other()).is_some());
            for action in partial_actions(&pos) {
                let mut p = pos.clone();
                for m in &action {
                    p.play_unchecked(m);
                }
                if p.last_move_exposes_royal() {
                    exposed += 1;
                    assert!(
                        p.find_attack(pos.to_move().other()).is_some(),
                        "exposed without an attack {action:?}:\n{fen}"
                    );
                    // Any completion (here: the first move of each board still to play) fails.
                    let mut q = p.clone();
                    let mut moves = Vec::new();
                    while let Some(&b) = q.mandatory_boards().first() {
                        moves.clear();
                        q.moves_from(b, &mut moves);
                        let Some(m) = moves.first() else { break };
                        q.play_unchecked(m);
                    }
                    assert!(q.can_submit().is_err(), "exposed yet submittable {action:?}:\n{fen}");
                }
                let plain = p.can_submit().is_ok();
                assert_eq!(p.submittable_with(test), plain, "submittable_with {action:?}:\n{fen}");
                submittable += usize::from(plain);
                tested += 1;
                if plain {
                    // The position after it, seen without submitting.
                    let before = p.hash();
                    let mut submitted = p.clone();
                    submitted.submit_unchecked();
                    let (h, c) = p.with_submitted(|q| (q.hash(), q.in_check_mut()));
                    assert_eq!(
                        (h, c),
                        (submitted.hash(), submitted.in_check()),
                        "with_submitted:\n{fen}"
                    );
                    assert_eq!(p.hash(), before);
                    assert_eq!(p.action_len(), action.len());
                }
            }
            // A pass: the boards copied, the turn handed over, all taken back.
            if !in_check {
                let mover = pos.to_move();
                let seen = pos.with_passed(|q| (q.to_move(), q.hash() != hash));
                assert_eq!(seen.0, mover.other());
                assert!(seen.1, "a pass changes the position:\n{fen}");
                assert_eq!(pos.hash(), hash, "with_passed left the position changed:\n{fen}");
                assert_eq!(pos.to_move(), mover);
            }
            // On to a random legal action.
            let actions: Vec<_> = pos.legal_actions(Budget::DEFAULT).take(32).collect();
            if actions.is_empty() {
                break;
            }
            for m in &actions[rng.below(actions.len())] {
                pos.play(m).expect("legal");
            }
            pos.submit().expect("a legal action submits");
        }
    }
    assert!(tested >= 20_000, "tested only {tested} partial actions");
    assert!(
        submittable >= 1_000 && submittable < tested,
        "{submittable} of {tested} submittable"
    );
    assert!(checks >= 1, "no position in check");
    assert!(exposed >= 100, "only {exposed} moves exposed a royal piece");
    println!(
        "{tested} partial actions ({submittable} submittable), {checks} checks, {attacked_starts} attacked starts, {exposed} exposing"
    );
}
