//! The computer review (`chess5d_engine::review`): lichess's classification and accuracy
//! math on tables of cases, the fitted curve's constant, a review of a short game and its
//! annotated record read back.

use chess5d_engine::review::{
    action_accuracy, annotate, win_probability, Class, Eval, ReviewOptions, Reviewer, LICHESS_K, WIN_K,
};
use chess5d_engine::{Limits, Score};
use chess5d_notation::{load, write_5dpgn, GameTree};
use chess5d_rules::Color;

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() <= eps
}

#[test]
fn drops_in_winning_chances_are_classed_as_lichess_classes_them() {
    // (drop of the mover's winning chances 2p-1, class)
    let cases = [
        (-0.5, None),
        (0.0, None),
        (0.0999, None),
        (0.1, Some(Class::Inaccuracy)),
        (0.1999, Some(Class::Inaccuracy)),
        (0.2, Some(Class::Mistake)),
        (0.2999, Some(Class::Mistake)),
        (0.3, Some(Class::Blunder)),
        (1.9, Some(Class::Blunder)),
    ];
    for (drop, class) in cases {
        assert_eq!(Class::of(drop), class, "drop {drop}");
    }
    let glyphs: Vec<&str> = [Class::Inaccuracy, Class::Mistake, Class::Blunder]
        .iter()
        .map(|c| c.glyph())
        .collect();
    assert_eq!(glyphs, ["?!", "?", "??"]);
}

#[test]
fn accuracy_is_lichess_formula_on_win_percentages() {
    // (win% before, win% after, accuracy): 103.1668 * exp(-0.04354 * (before - after)) - 3.1669,
    // clamped to 0..100 (values computed independently).
    let cases = [
        (50.0, 50.0, 99.9999),
        (60.0, 50.0, 63.582_619),
        (55.0, 52.0, 87.367_247),
        (80.0, 40.0, 14.912_029),
        (100.0, 0.0, 0.0),
        (40.0, 60.0, 100.0),
    ];
    for (before, after, want) in cases {
        let got = action_accuracy(before, after);
        assert!(close(got, want, 1e-4), "{before} -> {after}: {got}, not {want}");
    }
}

#[test]
fn winning_chances_follow_the_logistic_curve_and_are_clamped() {
    // lichess's winning chances 2 / (1 + exp(-0.00368208 * cp)) - 1.
    let cases = [
        (0.0, 0.0),
        (100.0, 0.182_052),
        (300.0, 0.502_251),
        (-300.0, -0.502_251),
        (1000.0, 0.950_895),
    ];
    for (cp, want) in cases {
        let chances = 2.0 * win_probability(cp, LICHESS_K) - 1.0;
        assert!(close(chances, want, 1e-5), "{cp}: {chances}");
    }
    // Clamped at 1000 of lichess's centipawns, as lichess does (and a mate counts as much).
    assert_eq!(win_probability(5000.0, LICHESS_K), win_probability(1000.0, LICHESS_K));
    let top = win_probability(1e9, WIN_K);
    assert!(close(top, win_probability(1000.0, LICHESS_K), 1e-12), "{top}");
    assert!(close(Eval::Mate(3).win_percent(Color::White, WIN_K), 100.0 * top, 1e-9));
    // Scores are the side to move's; evaluations White's.
    assert_eq!(Eval::from_score(Score::Cp(50), Color::Black), Eval::Cp(-50));
    assert_eq!(Eval::from_score(Score::Mate(2), Color::Black), Eval::Mate(-2));
    assert_eq!(Eval::Mate(-2).lichess().as_deref(), Some("#-2"));
    assert_eq!(Eval::Cp(-120).lichess().as_deref(), Some("-1.20"));
    assert!(close(
        Eval::Checkmate(Color::Black).win_percent(Color::Black, WIN_K),
        100.0,
        0.0
    ));
    assert!(close(Eval::Stalemate.win_percent(Color::White, WIN_K), 50.0, 0.0));
}

/// The fitted constant is a logistic scale of a centipawn evaluation: a pawn up is worth one
/// to thirty percent more, a queen up (900) clearly winning, and it is within a factor 5 of
/// lichess's (whose centipawns are Stockfish's).
#[test]
fn the_fitted_curve_constant_is_within_sane_bounds() {
    let k = std::hint::black_box(WIN_K);
    assert!((0.0005..0.02).contains(&k), "{k}");
    assert!(k / LICHESS_K > 0.2 && k / LICHESS_K < 5.0, "{k}");
    let pawn = win_probability(100.0, k);
    assert!(pawn > 0.51 && pawn < 0.8, "{pawn}");
    assert!(win_probability(900.0, k) > 0.7);
}

const SCHOLAR: &str =
    "[Board \"Standard\"]\n[Result \"1-0\"]\n\n1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n4. Qxf7#\n1-0\n";

fn options() -> ReviewOptions {
    ReviewOptions {
        limits: Limits::depth(3),
        ..ReviewOptions::default()
    }
}

#[test]
fn a_blunder_into_mate_is_found_and_the_annotated_record_reads_back() {
    let game = load(SCHOLAR).unwrap();
    let mut seen = Vec::new();
    let review = Reviewer::new(options()).review(&game, &mut |p| seen.push((p.searched, p.positions)));
    assert_eq!(seen.len(), 8);
    assert_eq!(seen.last(), Some(&(8, 8)));
    assert!(!review.cancelled);
    assert_eq!(review.actions.len(), 7);
    let nf6 = &review.actions[5];
    assert_eq!(
        (nf6.turn, nf6.player, nf6.played_text.as_str()),
        (3, Color::Black, "Nf6")
    );
    assert_eq!(nf6.class, Some(Class::Blunder), "{nf6:?}");
    assert_eq!(nf6.after, Eval::Mate(1));
    assert!(nf6.best_text.is_some() && nf6.line_text.as_deref().unwrap().starts_with("3b. "));
    let mate = &review.actions[6];
    assert_eq!((mate.after, mate.class), (Eval::Checkmate(Color::White), None));
    assert!(review.accuracy(Color::White).unwrap() > review.accuracy(Color::Black).unwrap());
    let json = review.json();
    assert_eq!(json["actions"][5]["class"], "blunder");
    assert_eq!(json["black"]["blunders"], 1);

    // The record: an evaluation after every action but the mate, `??` and a note on Nf6,
    // the engine's line as a variation; read back with every comment and glyph.
    let annotated = annotate(&game, &review, true);
    let text = write_5dpgn(&annotated);
    assert!(text.contains("Nf6?? {[%eval #1]} {("), "{text}");
    assert!(text.contains("Blunder. "), "{text}");
    assert_eq!(text.matches("[%eval").count(), 6, "{text}");
    let back = load(&text).unwrap();
    assert_eq!(back.game().actions(), game.game().actions());
    // Every node, in the order written, with its action, comments and glyphs.
    type Noted = (chess5d_rules::Action, Vec<(usize, String)>, Vec<(usize, String)>);
    let comments = |t: &GameTree| -> Vec<Noted> {
        t.walk()
            .map(|n| (t.action(n).clone(), t.comments(n).to_vec(), t.glyphs(n).to_vec()))
            .collect()
    };
    assert_eq!(comments(back.tree()), comments(annotated.tree()));
    assert!(back.tree().len() > game.tree().len(), "the variation is kept");
    // Written again, the same text; reviewed again, the old review's comments are replaced.
    assert_eq!(write_5dpgn(&back), text);
    let again = write_5dpgn(&annotate(&back, &review, true));
    assert_eq!(again, text);
    // Without variations, the line is in the note.
    let plain = write_5dpgn(&annotate(&game, &review, false));
    assert!(plain.contains("was best. Line: 3b. "), "{plain}");
    assert_eq!(load(&plain).unwrap().tree().len(), game.tree().len(), "{plain}");
    assert_eq!(again.matches("[%eval").count(), 6, "{again}");
}

#[test]
fn a_review_stops_when_cancelled() {
    let game = load(SCHOLAR).unwrap();
    let mut reviewer = Reviewer::new(options());
    let cancel = reviewer.canceller();
    let review = reviewer.review(&game, &mut |p| {
        if p.searched == 3 {
            cancel.cancel();
        }
    });
    assert!(review.cancelled);
    assert_eq!(review.actions.len(), 2);
    assert_eq!(review.total, 7);
    // A new review starts afresh.
    let review = reviewer.review(&game, &mut |_| {});
    assert!(!review.cancelled && review.actions.len() == 7);
}
