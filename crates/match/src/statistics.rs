//! Match statistics: result counts, Elo with its interval, and the sequential probability
//! ratio test.
//!
//! **Elo model: logistic.** An Elo difference `e` means an expected score per game of
//! `1 / (1 + 10^(-e/400))`, the classic definition cutechess prints and fastchess uses by
//! default. (fishtest's default "normalized Elo", which scales by the spread of the results,
//! is not implemented.)
//!
//! **SPRT: the GSPRT of fishtest.** Hypotheses are expected scores `s0`, `s1` (from `elo0`,
//! `elo1`). For the observed outcome frequencies `p_i` (scores `a_i`), the maximum-likelihood
//! distribution with expectation `s` is `p_i / (1 + θ (a_i - s))`, `θ` solving
//! `Σ p_i (a_i - s) / (1 + θ (a_i - s)) = 0`; the log-likelihood ratio is
//! `N Σ p_i ln(p1_i / p0_i)`. Empty outcome classes count as 0.001 (fishtest's
//! regularisation), so a lone decisive game moves the ratio by about `ln(s1/s0)`, not by the
//! whole bound. Game **pairs** (each opening with both colours) use the pentanomial outcomes
//! (pair score 0, 0.5, 1, 1.5, 2: `a_i` = 0, 1/4, 1/2, 3/4, 1), which accounts for the
//! correlation of the two games of an opening; unpaired games use the trinomial one
//! (loss, draw, win). The bounds are Wald's: `ln(β/(1-α))` and `ln((1-β)/α)`.

use std::fmt;

/// Per-game results of the first engine: wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won by the first engine.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost by the first engine.
    pub losses: u64,
}

impl Trinomial {
    /// Adds one game of score 0, 0.5 or 1 for the first engine.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Counts by score: loss, draw, win, with the per-game scores 0, 1/2, 1.
    fn outcomes(&self) -> [(f64, f64); 3] {
        [
            (0.0, self.losses as f64),
            (0.5, self.draws as f64),
            (1.0, self.wins as f64),
        ]
    }
}

/// Per-pair results of the first engine (one opening, both colours): `counts[k]` is the
/// number of pairs in which it scored `k` half points (0 = two losses ... 4 = two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by the first engine's score in half points, 0 to 4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair from the first engine's two game scores (each 0, 0.5 or 1).
    pub fn add(&mut self, a: f64, b: f64) {
        let half_points = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[half_points] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Counts by score per game: 0, 1/4, 1/2, 3/4, 1.
    fn outcomes(&self) -> [(f64, f64); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, self.counts[k] as f64))
    }
}

/// The expected score per game of an Elo difference (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score per game (logistic model).
pub fn elo_of_score(score: f64) -> f64 {
    // `+ 0.0` turns the -0 of an even score into 0 (printed `-0.0` otherwise).
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// A sequential probability ratio test: H0 "the first engine is `elo0` stronger" against H1
/// "`elo1` stronger" (logistic Elo), with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

impl Sprt {
    /// The usual test for a patch: `elo0`, `elo1` with α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// Checks that the test makes sense: `elo0 < elo1`, error rates in (0, 0.5).
    pub fn validate(&self) -> Result<(), String> {
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(format!("SPRT wants elo0 < elo1, got {} and {}", self.elo0, self.elo1));
        }
        for (name, v) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("SPRT {name} must be in (0, 0.5), got {v}"));
            }
        }
        Ok(())
    }

    /// The (lower, upper) log-likelihood ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these game pairs.
    pub fn llr_pairs(&self, p: &Pentanomial) -> f64 {
        gsprt_llr(&p.outcomes(), score_of_elo(self.elo0), score_of_elo(self.elo1))
    }

    /// The log-likelihood ratio of H1 against H0 for these unpaired games.
    pub fn llr_games(&self, t: &Trinomial) -> f64 {
        gsprt_llr(&t.outcomes(), score_of_elo(self.elo0), score_of_elo(self.elo1))
    }

    /// The state of the test on a match's counts: its pairs when `paired`, else its games.
    pub fn status_of(&self, paired: bool, t: &Trinomial, p: &Pentanomial) -> SprtStatus {
        self.status(if paired { self.llr_pairs(p) } else { self.llr_games(t) })
    }

    /// The state of the test at this log-likelihood ratio.
    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtStatus::H1(llr)
        } else if llr <= lo {
            SprtStatus::H0(llr)
        } else {
            SprtStatus::Continue(llr)
        }
    }

    /// The cutechess-style line: `SPRT: llr 0.52 (17.7%), lbound -2.94, ubound 2.94` plus the
    /// hypotheses and, once decided, the verdict.
    pub fn line(&self, status: SprtStatus) -> String {
        let (lo, hi) = self.bounds();
        let llr = status.llr();
        let share = if llr >= 0.0 { llr / hi } else { llr / -lo };
        let mut s = format!(
            "SPRT: llr {llr:.2} ({:.1}%), lbound {lo:.2}, ubound {hi:.2} [elo0 {}, elo1 {}, alpha {}, beta {}]",
            share * 100.0,
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta
        );
        match status {
            SprtStatus::H0(_) => s.push_str(" - H0 was accepted"),
            SprtStatus::H1(_) => s.push_str(" - H1 was accepted"),
            SprtStatus::Continue(_) => {}
        }
        s
    }
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtStatus {
    /// No decision yet; the current log-likelihood ratio.
    Continue(f64),
    /// H0 accepted.
    H0(f64),
    /// H1 accepted.
    H1(f64),
}

impl SprtStatus {
    /// The log-likelihood ratio.
    pub fn llr(self) -> f64 {
        match self {
            SprtStatus::Continue(x) | SprtStatus::H0(x) | SprtStatus::H1(x) => x,
        }
    }

    /// Whether a bound was crossed.
    pub fn decided(self) -> bool {
        !matches!(self, SprtStatus::Continue(_))
    }
}

impl fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtStatus::Continue(x) => write!(f, "LLR {x:.2}, continue"),
            SprtStatus::H0(x) => write!(f, "LLR {x:.2}, H0 accepted"),
            SprtStatus::H1(x) => write!(f, "LLR {x:.2}, H1 accepted"),
        }
    }
}

/// The weight an empty outcome class gets (fishtest's `regularize`).
const EMPTY_CLASS: f64 = 1e-3;

/// The generalized log-likelihood ratio `N Σ p_i ln(p1_i / p0_i)` of expectation `s1` against
/// `s0`, `p_j` being the maximum-likelihood distributions with those expectations (see the
/// module documentation). `outcomes` are (score, count) pairs. 0 with no result.
fn gsprt_llr(outcomes: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let n: f64 = outcomes.iter().map(|o| o.1).sum();
    if n == 0.0 {
        return 0.0;
    }
    let reg: Vec<(f64, f64)> = outcomes.iter().map(|&(a, c)| (a, c.max(EMPTY_CLASS))).collect();
    let total: f64 = reg.iter().map(|o| o.1).sum();
    let pdf: Vec<(f64, f64)> = reg.iter().map(|&(a, c)| (a, c / total)).collect();
    let (t0, t1) = (mle_theta(&pdf, s0), mle_theta(&pdf, s1));
    n * pdf
        .iter()
        .map(|&(a, p)| p * ((1.0 + t0 * (a - s0)).ln() - (1.0 + t1 * (a - s1)).ln()))
        .sum::<f64>()
}

/// The `θ` of the maximum-likelihood distribution with expectation `s` (strictly between the
/// smallest and largest score of `pdf`): the root of the decreasing
/// `f(θ) = Σ p_i (a_i - s) / (1 + θ (a_i - s))` on the interval where every `1 + θ (a_i - s)`
/// is positive, found by bisection.
fn mle_theta(pdf: &[(f64, f64)], s: f64) -> f64 {
    let lo_a = pdf.iter().map(|o| o.0).fold(f64::INFINITY, f64::min);
    let hi_a = pdf.iter().map(|o| o.0).fold(f64::NEG_INFINITY, f64::max);
    let f = |t: f64| pdf.iter().map(|&(a, p)| p * (a - s) / (1.0 + t * (a - s))).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / (hi_a - s), 1.0 / (s - lo_a));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// An Elo estimate: the difference, the half width of its 95% interval, and the likelihood of
/// superiority (the chance, under a normal approximation, that the true difference is positive).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The Elo difference of the first engine over the second.
    pub elo: f64,
    /// Half the width of the 95% interval (the interval itself is not symmetric in Elo; this is
    /// the mean of its two sides, as cutechess prints).
    pub margin: f64,
    /// The likelihood of superiority, 0 to 1.
    pub los: f64,
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %",
            self.elo,
            self.margin,
            self.los * 100.0
        )
    }
}

/// Elo from (score, count) outcomes; `None` with no result or a score of 0% or 100%.
fn estimate(outcomes: &[(f64, f64)]) -> Option<EloEstimate> {
    let n: f64 = outcomes.iter().map(|o| o.1).sum();
    if n == 0.0 {
        return None;
    }
    let mean = outcomes.iter().map(|&(a, c)| a * c).sum::<f64>() / n;
    if mean <= 0.0 || mean >= 1.0 {
        return None;
    }
    let var = outcomes.iter().map(|&(a, c)| c * (a - mean).powi(2)).sum::<f64>() / n;
    let se = (var / n).sqrt();
    let lo = (mean - 1.96 * se).clamp(1e-6, 1.0 - 1e-6);
    let hi = (mean + 1.96 * se).clamp(1e-6, 1.0 - 1e-6);
    let los = if se > 0.0 {
        0.5 * (1.0 + erf((mean - 0.5) / (se * std::f64::consts::SQRT_2)))
    } else if mean > 0.5 {
        1.0
    } else if mean < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(EloEstimate {
        elo: elo_of_score(mean),
        margin: (elo_of_score(hi) - elo_of_score(lo)) / 2.0,
        los,
    })
}

/// Elo of a match's counts: from its pairs when `paired` (and there is one), else its games.
pub fn elo_of_counts(paired: bool, t: &Trinomial, p: &Pentanomial) -> Option<EloEstimate> {
    if paired && p.pairs() > 0 {
        elo_pairs(p)
    } else {
        elo_games(t)
    }
}

/// Elo of unpaired games.
pub fn elo_games(t: &Trinomial) -> Option<EloEstimate> {
    estimate(&t.outcomes())
}

/// Elo of game pairs: the interval comes from the spread of the pair scores.
pub fn elo_pairs(p: &Pentanomial) -> Option<EloEstimate> {
    estimate(&p.outcomes())
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// The Elo difference of a score of `w` wins, `d` draws, `l` losses, with the half width of
/// its 95% interval; `None` for a perfect or null score (infinite Elo) or no game.
pub fn elo(w: usize, d: usize, l: usize) -> Option<(f64, f64)> {
    let t = Trinomial {
        wins: w as u64,
        draws: d as u64,
        losses: l as u64,
    };
    elo_games(&t).map(|e| (e.elo, e.margin))
}

/// The GSPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for unpaired games.
pub fn sprt_llr(w: usize, d: usize, l: usize, elo0: f64, elo1: f64) -> f64 {
    let t = Trinomial {
        wins: w as u64,
        draws: d as u64,
        losses: l as u64,
    };
    Sprt::new(elo0, elo1).llr_games(&t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} is not {b} (within {tol})");
    }

    fn tri(w: u64, d: u64, l: u64) -> Trinomial {
        Trinomial {
            wins: w,
            draws: d,
            losses: l,
        }
    }

    #[test]
    fn logistic_elo() {
        close(score_of_elo(0.0), 0.5, 1e-12);
        close(score_of_elo(10.0), 0.514_387_2, 1e-7);
        close(elo_of_score(0.75), 190.848_501_9, 1e-6);
        close(elo_of_score(score_of_elo(-37.0)), -37.0, 1e-9);
        assert_eq!(format!("{:.1}", elo_of_score(0.5)), "0.0");
    }

    #[test]
    fn wald_bounds() {
        let (lo, hi) = Sprt::new(0.0, 10.0).bounds();
        // ln(0.05/0.95) and its opposite.
        close(lo, -2.944_438_98, 1e-8);
        close(hi, 2.944_438_98, 1e-8);
        assert!(Sprt::new(10.0, 0.0).validate().is_err());
        assert!(Sprt {
            alpha: 0.0,
            ..Sprt::new(0.0, 5.0)
        }
        .validate()
        .is_err());
        assert!(Sprt::new(0.0, 5.0).validate().is_ok());
    }

    #[test]
    fn one_decisive_game_is_weak_evidence() {
        // The old floored-variance formula gave about 7 here. One win of one game: the MLE
        // distributions put mass s on the win, so the ratio is close to ln(s1/s0) = 0.0284.
        let llr = Sprt::new(0.0, 10.0).llr_games(&tri(1, 0, 0));
        assert!(llr > 0.0 && llr < 0.03, "{llr}");
        let llr = Sprt::new(0.0, 10.0).llr_pairs(&Pentanomial {
            counts: [0, 0, 0, 0, 1],
        });
        assert!(llr > 0.0 && llr < 0.03, "{llr}");
        assert_eq!(Sprt::new(0.0, 10.0).llr_games(&Trinomial::default()), 0.0);
    }

    #[test]
    fn llr_known_values() {
        // Expected values computed independently (Python, bisection on the Lagrange condition;
        // large samples agree with the normal approximation (s1-s0)(2x-s0-s1)N/(2 var)).
        let s = Sprt::new(0.0, 10.0);
        close(s.llr_games(&tri(120, 60, 60)), 2.173_425, 1e-4);
        close(s.llr_games(&tri(1000, 1000, 1000)), -1.863_499, 1e-4);
        close(
            s.llr_pairs(&Pentanomial {
                counts: [50, 200, 400, 220, 60],
            }),
            0.824_541,
            1e-4,
        );
        close(
            s.llr_pairs(&Pentanomial {
                counts: [10, 20, 40, 20, 10],
            }),
            -0.137_899,
            1e-4,
        );
        let s = Sprt::new(-5.0, 5.0);
        close(
            s.llr_pairs(&Pentanomial {
                counts: [3, 97, 1203, 110, 4],
            }),
            5.096_744,
            1e-4,
        );
    }

    #[test]
    fn llr_matches_the_normal_approximation_on_large_samples() {
        let p = Pentanomial {
            counts: [500, 2000, 4000, 2200, 600],
        };
        let (s0, s1) = (score_of_elo(0.0), score_of_elo(10.0));
        let n = p.pairs() as f64;
        let mean = p.outcomes().iter().map(|&(a, c)| a * c).sum::<f64>() / n;
        let var = p.outcomes().iter().map(|&(a, c)| c * (a - mean).powi(2)).sum::<f64>() / n;
        let approx = (s1 - s0) * (2.0 * mean - s0 - s1) * n / (2.0 * var);
        close(Sprt::new(0.0, 10.0).llr_pairs(&p), approx, 0.02 * approx.abs());
    }

    #[test]
    fn elo_estimates() {
        assert_eq!(elo(0, 0, 0), None);
        assert_eq!(elo(3, 0, 0), None);
        let (e, m) = elo(10, 10, 10).unwrap();
        // Score 0.5, sd per game sqrt(1/6), se 0.0745: the interval 0.354..0.646 is
        // -104.56..+104.56 Elo.
        close(e, 0.0, 1e-9);
        close(m, 104.56, 0.01);
        close(elo(75, 0, 25).unwrap().0, 190.85, 0.01);
        let p = elo_pairs(&Pentanomial {
            counts: [0, 10, 20, 10, 0],
        })
        .unwrap();
        close(p.elo, 0.0, 1e-9);
        close(p.los, 0.5, 1e-9);
        // Pair scores sd sqrt(1/32) = 0.1768 over 40 pairs: se 0.02795, interval +/-0.05478.
        close(p.margin, 38.221, 0.01);
        let e = elo_pairs(&Pentanomial {
            counts: [5, 10, 20, 10, 15],
        })
        .unwrap();
        assert!(e.elo > 0.0 && e.los > 0.9 && e.los < 1.0, "{e:?}");
    }

    #[test]
    fn erf_values() {
        close(erf(0.0), 0.0, 1e-7);
        close(erf(1.0), 0.842_700_79, 2e-7);
        close(erf(-0.5), -0.520_499_88, 2e-7);
    }

    #[test]
    fn status_and_lines() {
        let s = Sprt::new(0.0, 10.0);
        assert_eq!(s.status(3.0), SprtStatus::H1(3.0));
        assert_eq!(s.status(-3.0), SprtStatus::H0(-3.0));
        assert!(!s.status(0.5).decided());
        let line = s.line(s.status(1.472));
        assert!(
            line.starts_with("SPRT: llr 1.47 (50.0%), lbound -2.94, ubound 2.94"),
            "{line}"
        );
        assert!(s.line(s.status(-3.0)).ends_with("H0 was accepted"));
    }
}
