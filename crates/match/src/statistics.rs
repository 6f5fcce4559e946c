//! Match statistics: Elo with its margin and the sequential probability ratio test.

/// A sequential probability ratio test: H0 "the first engine is `elo0` stronger" against H1
/// "`elo1` stronger", with error rates `alpha` and `beta`.
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
    /// The (lower, upper) log-likelihood ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
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

fn elo_of(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The Elo difference of a score of `w` wins, `d` draws, `l` losses, with the 95% margin;
/// `None` for a perfect or null score (infinite Elo) or no game.
pub fn elo(w: usize, d: usize, l: usize) -> Option<(f64, f64)> {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return None;
    }
    let p = (w as f64 + d as f64 / 2.0) / n;
    if p <= 0.0 || p >= 1.0 {
        return None;
    }
    let var = (w as f64 * (1.0 - p).powi(2) + d as f64 * (0.5 - p).powi(2) + l as f64 * p.powi(2)) / n;
    let se = (var / n).sqrt();
    let lo = (p - 1.96 * se).clamp(1e-6, 1.0 - 1e-6);
    let hi = (p + 1.96 * se).clamp(1e-6, 1.0 - 1e-6);
    Some((elo_of(p), (elo_of(hi) - elo_of(lo)) / 2.0))
}

/// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for these results, by the usual
/// normal approximation of the trinomial (GSPRT): `(s1 - s0) (2 x - s0 - s1) n / (2 var)`.
pub fn sprt_llr(w: usize, d: usize, l: usize, elo0: f64, elo1: f64) -> f64 {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return 0.0;
    }
    let x = (w as f64 + d as f64 / 2.0) / n;
    // A floor on the variance keeps one-sided results (all wins, all draws) from stalling the
    // test at an undefined ratio: they count as strong evidence, as they are.
    let var = ((w as f64 * (1.0 - x).powi(2) + d as f64 * (0.5 - x).powi(2) + l as f64 * x.powi(2)) / n).max(1e-3);
    let s = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    let (s0, s1) = (s(elo0), s(elo1));
    (s1 - s0) * (2.0 * x - s0 - s1) * n / (2.0 * var)
}

pub(crate) fn sprt_status(s: &Sprt, w: usize, d: usize, l: usize) -> SprtStatus {
    let llr = sprt_llr(w, d, l, s.elo0, s.elo1);
    let (lo, hi) = s.bounds();
    if llr >= hi {
        SprtStatus::H1(llr)
    } else if llr <= lo {
        SprtStatus::H0(llr)
    } else {
        SprtStatus::Continue(llr)
    }
}
