//! The rating library against the paper's worked example and lichess's facts.

use chess5d_rating::{Category, Glicko2, Outcome, Rating, Speed};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// Glickman's worked example (τ = 0.5): 1500/200/0.06 beats 1400/30, loses to 1550/100 and to
/// 1700/300 → 1464.06 / 151.52 / 0.05999 (1464.05 / 151.52 / 0.059996 without the paper's
/// intermediate rounding).
#[test]
fn paper_example() {
    let p = Rating {
        rating: 1500.0,
        rd: 200.0,
        volatility: 0.06,
    };
    let o = |r, rd| Rating {
        rating: r,
        rd,
        volatility: 0.06,
    };
    let games = [
        (o(1400.0, 30.0), Outcome::Win),
        (o(1550.0, 100.0), Outcome::Loss),
        (o(1700.0, 300.0), Outcome::Loss),
    ];
    let r = Glicko2::new(0.5).rate(p, &games);
    assert!(close(r.rating, 1464.05, 0.01), "{r:?}");
    assert!(close(r.rd, 151.52, 0.005), "{r:?}");
    assert!(close(r.volatility, 0.059996, 0.0000005), "{r:?}");
}

/// Two new players, one game, τ = 0.75: the winner to about 1662.3 (RD 290.3), the loser to
/// about 1337.7; a draw between equals moves neither rating.
#[test]
fn two_new_players() {
    let sys = Glicko2::new(0.75);
    let (w, l) = sys.game(Rating::default(), Rating::default(), Outcome::Win);
    assert!(close(w.rating, 1662.3, 0.05), "{w:?}");
    assert!(close(w.rd, 290.3, 0.05), "{w:?}");
    assert!(close(l.rating, 1337.7, 0.05), "{l:?}");
    assert!(close(l.rd, 290.3, 0.05), "{l:?}");
    assert!(w.provisional() && l.provisional());
    let (a, b) = sys.game(Rating::default(), Rating::default(), Outcome::Draw);
    assert!(close(a.rating, 1500.0, 1e-9) && close(b.rating, 1500.0, 1e-9));
    assert!(a.rd < 350.0);
}

/// A period without games only widens the RD: φ′ = √(φ² + σ²).
#[test]
fn no_games_widens_rd() {
    let p = Rating {
        rating: 1700.0,
        rd: 50.0,
        volatility: 0.06,
    };
    let r = Glicko2::default().rate(p, &[]);
    let want = ((50.0f64 / 173.7178).powi(2) + 0.06f64.powi(2)).sqrt() * 173.7178;
    assert!(close(r.rd, want, 1e-9) && r.rating == 1700.0 && r.volatility == 0.06);
    assert!(!p.provisional());
}

/// An upset moves the favourite down more than the expected win moves it up; both stay finite.
#[test]
fn upset_and_extremes() {
    let sys = Glicko2::default();
    let strong = Rating {
        rating: 2200.0,
        rd: 60.0,
        volatility: 0.06,
    };
    let weak = Rating {
        rating: 1300.0,
        rd: 60.0,
        volatility: 0.06,
    };
    let (s_win, _) = sys.game(strong, weak, Outcome::Win);
    let (s_loss, w_win) = sys.game(strong, weak, Outcome::Loss);
    assert!(s_win.rating - strong.rating < strong.rating - s_loss.rating);
    assert!(w_win.rating > weak.rating + 20.0);
    let far = Rating {
        rating: 3500.0,
        rd: 30.0,
        volatility: 0.06,
    };
    let (a, b) = sys.game(far, Rating::default(), Outcome::Loss);
    assert!(a.rating.is_finite() && b.rating.is_finite() && a.volatility.is_finite());
}

/// lichess's bounds on base + 40 × increment.
#[test]
fn speed_classes() {
    let cases = [
        ((15, 0), Speed::UltraBullet),
        ((29, 0), Speed::UltraBullet),
        ((30, 0), Speed::Bullet),
        ((60, 0), Speed::Bullet),
        ((120, 1), Speed::Bullet),
        ((180, 0), Speed::Blitz),
        ((180, 2), Speed::Blitz),
        ((300, 3), Speed::Blitz),
        ((300, 5), Speed::Rapid),
        ((600, 0), Speed::Rapid),
        ((900, 10), Speed::Rapid),
        ((1500, 0), Speed::Classical),
        ((1800, 20), Speed::Classical),
    ];
    for ((base, inc), want) in cases {
        assert_eq!(Speed::of_clock(base, inc), want, "{base}+{inc}");
    }
    assert_eq!(Category::of("Standard", Speed::Blitz).key(), "blitz");
    assert_eq!(Category::of("Standard", Speed::Correspondence).key(), "correspondence");
    assert_eq!(
        Category::of("Standard - Turn Zero", Speed::Blitz).key(),
        "standard-turn-zero"
    );
    assert_eq!(
        Category::of("Princess", Speed::Bullet),
        Category::Variant("princess".into())
    );
}
