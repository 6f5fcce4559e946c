//! Ratings for chess5d: Glicko-2 exactly as Mark Glickman's "Example of the Glicko-2 system"
//! defines it (the volatility found by the Illinois iteration to ε = 0.000001), applied as lichess
//! applies it (each game its own rating period), and the categories a player is rated in.
//!
//! ```
//! use chess5d_rating::{Glicko2, Rating, Outcome};
//! let sys = Glicko2::new(0.75);
//! let (w, l) = sys.game(Rating::default(), Rating::default(), Outcome::Win);
//! assert_eq!((w.rating.round(), l.rating.round()), (1662.0, 1338.0));
//! assert!(w.provisional());
//! ```
#![deny(missing_docs)]

mod category;

pub use category::{Category, Speed, CORRESPONDENCE_DAYS};

use std::f64::consts::PI;

/// The factor between the Glicko scale (1500 ± RD) and the Glicko-2 scale (0 ± φ).
pub const SCALE: f64 = 173.7178;
/// Convergence tolerance of the volatility iteration (the paper's ε).
pub const EPSILON: f64 = 0.000_001;
/// The RD above which a rating is provisional (shown with a `?`), as on lichess.
pub const PROVISIONAL_RD: f64 = 110.0;
/// lichess's system constant τ, the one chess5d rates with.
pub const TAU: f64 = 0.75;

/// A player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating r (1500 for a new player).
    pub rating: f64,
    /// The rating deviation RD (350 for a new player).
    pub rd: f64,
    /// The volatility σ (0.06 for a new player).
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player: 1500 / 350 / 0.06.
    fn default() -> Self {
        Rating {
            rating: 1500.0,
            rd: 350.0,
            volatility: 0.06,
        }
    }
}

impl Rating {
    /// Whether the rating is provisional (RD above 110).
    pub fn provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }
}

/// A game's result for the player being rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A win (score 1).
    Win,
    /// A draw (score ½).
    Draw,
    /// A loss (score 0).
    Loss,
}

impl Outcome {
    /// The score s_j: 1, ½ or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }
    /// The same game seen from the opponent.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// The Glicko-2 system with its constant τ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko2 {
    /// The system constant τ: how fast the volatility may change.
    pub tau: f64,
}

impl Default for Glicko2 {
    /// τ = 0.75, as lichess.
    fn default() -> Self {
        Glicko2 { tau: TAU }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko2 {
    /// The system with constant `tau`.
    pub fn new(tau: f64) -> Self {
        Glicko2 { tau }
    }

    /// The player's rating after one rating period with these games (opponent, outcome);
    /// no game: the RD grows by the volatility, the rest stays (step 6 of the paper).
    pub fn rate(&self, player: Rating, games: &[(Rating, Outcome)]) -> Rating {
        let mu = (player.rating - 1500.0) / SCALE;
        let phi = player.rd / SCALE;
        let sigma = player.volatility;
        if games.is_empty() {
            let phi2 = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                rating: player.rating,
                rd: phi2 * SCALE,
                volatility: sigma,
            };
        }
        // Steps 3 and 4: the estimated variance v and improvement Δ.
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for (opp, outcome) in games {
            let mu_j = (opp.rating - 1500.0) / SCALE;
            let phi_j = opp.rd / SCALE;
            let (gj, e) = (g(phi_j), expected(mu, mu_j, phi_j));
            inv_v += gj * gj * e * (1.0 - e);
            sum += gj * (outcome.score() - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma2 = self.volatility(phi, sigma, v, delta);
        // Steps 6 and 7.
        let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
        let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu2 = mu + phi2 * phi2 * sum;
        // Step 8.
        Rating {
            rating: SCALE * mu2 + 1500.0,
            rd: SCALE * phi2,
            volatility: sigma2,
        }
    }

    /// One game as its own rating period: the new ratings of the first and second player, the
    /// first having `outcome`.
    pub fn game(&self, first: Rating, second: Rating, outcome: Outcome) -> (Rating, Rating) {
        (
            self.rate(first, &[(second, outcome)]),
            self.rate(second, &[(first, outcome.flip())]),
        )
    }

    /// Step 5 of the paper: σ′ by the Illinois algorithm on f(x), x = ln σ².
    fn volatility(&self, phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
        let tau = self.tau;
        let a = (sigma * sigma).ln();
        let (phi2, d2) = (phi * phi, delta * delta);
        let f = |x: f64| {
            let ex = x.exp();
            ex * (d2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex).powi(2)) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if d2 > phi2 + v {
            (d2 - phi2 - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        // The iteration converges in a handful of steps; the bound only guards against NaN input.
        let mut steps = 0;
        while (big_b - big_a).abs() > EPSILON && steps < 1000 {
            steps += 1;
            let big_c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(big_c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = big_c;
            fb = fc;
        }
        (big_a / 2.0).exp()
    }
}
