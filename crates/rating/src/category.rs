//! The categories a player is rated in: one per speed class of Standard (from the clock's
//! estimated duration, base + 40 × increment, with lichess's bounds), correspondence, and one per
//! other variant.

use std::fmt;

/// The days-per-move choices of a correspondence clock.
pub const CORRESPONDENCE_DAYS: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// A speed class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Estimated duration under 30 s.
    UltraBullet,
    /// Under 180 s.
    Bullet,
    /// Under 480 s.
    Blitz,
    /// Under 1500 s.
    Rapid,
    /// 1500 s or more.
    Classical,
    /// Days per move.
    Correspondence,
}

impl Speed {
    /// The class of a real-time clock of `base` seconds plus `increment` seconds a move: its
    /// estimated duration base + 40 × increment against lichess's bounds.
    pub fn of_clock(base: u64, increment: u64) -> Speed {
        let estimate = base.saturating_add(increment.saturating_mul(40));
        match estimate {
            0..=29 => Speed::UltraBullet,
            30..=179 => Speed::Bullet,
            180..=479 => Speed::Blitz,
            480..=1499 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The class's key: `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical`, `correspondence`.
    pub fn key(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

/// A rating category: a speed class of Standard, or another variant (all speeds together).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Standard at a speed.
    Standard(Speed),
    /// Another official variant, by its key (its name in lower case, words joined by `-`).
    Variant(String),
}

impl Category {
    /// The category of a game of `variant` (its name, as the rules library spells it) at `speed`.
    pub fn of(variant: &str, speed: Speed) -> Category {
        let key = variant_key(variant);
        if key == "standard" {
            Category::Standard(speed)
        } else {
            Category::Variant(key)
        }
    }

    /// The category's key, as the API and the database name it.
    pub fn key(&self) -> String {
        match self {
            Category::Standard(s) => s.key().to_string(),
            Category::Variant(v) => v.clone(),
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

/// A variant's name as a key: lower case, runs of anything but letters and digits as one `-`.
pub fn variant_key(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}
