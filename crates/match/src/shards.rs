//! Matches split over machines: a shard plays every N-th game pair, writes its games and a
//! JSON summary; [`merge`] adds shard summaries up into the statistics of the whole match.
//!
//! A shard's share depends only on the pair index (pair `p` belongs to shard `p mod N + 1`),
//! and a game's opening, colours and engine seed only on its number, so the games of shard K
//! are exactly the games a single run would play for those pairs.

use crate::output::report_lines;
use crate::statistics::{Pentanomial, Trinomial};
use crate::{MatchConfig, MatchError, MatchResult, Sprt, SprtStatus};
use serde_json::{json, Value};
use std::path::Path;

/// The K-th of N shares of a match (K from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, 1 to `count`.
    pub index: usize,
    /// How many shares.
    pub count: usize,
}

impl Shard {
    /// Reads `K/N`.
    pub fn parse(s: &str) -> Result<Shard, MatchError> {
        let bad = || MatchError::Config(format!("--shard wants K/N with 1 <= K <= N, got '{s}'"));
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let shard = Shard {
            index: k.trim().parse().map_err(|_| bad())?,
            count: n.trim().parse().map_err(|_| bad())?,
        };
        shard.validate().map_err(|_| bad())?;
        Ok(shard)
    }

    /// Checks `1 <= index <= count`.
    pub fn validate(&self) -> Result<(), MatchError> {
        if self.index == 0 || self.index > self.count {
            return Err(MatchError::Config(format!(
                "shard {}/{}: K must be between 1 and N",
                self.index, self.count
            )));
        }
        Ok(())
    }

    /// Whether this shard plays pair (or unpaired game) `unit`, 0-based.
    pub fn owns(&self, unit: usize) -> bool {
        unit % self.count == self.index - 1
    }
}

/// FNV-1a, 64 bits: a hash that is the same on every machine and build.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What decides a match's games and statistics, as text: engines (command, options, given
/// name, own time control), games, openings, time control, limits, pairing, seed and SPRT. Not the shard, the
/// output files, the concurrency or the reporting interval.
pub fn config_text(config: &MatchConfig) -> String {
    let mut s = String::new();
    for e in &config.engines {
        s.push_str(&format!("engine {:?} {:?} {:?}\n", e.command, e.options, e.name));
        // Only when set, so that the fingerprints of matches without odds stay as they were.
        if let Some(tc) = e.tc {
            s.push_str(&format!("engine-tc {tc}\n"));
        }
    }
    s.push_str(&format!(
        "games {} tc {} max-actions {} margin-ms {} paired {} seed {}\n",
        config.games,
        config.tc,
        config.max_actions,
        config.margin.as_millis(),
        config.paired,
        config.seed
    ));
    if let Some(t) = config.sprt {
        s.push_str(&format!("sprt {} {} {} {}\n", t.elo0, t.elo1, t.alpha, t.beta));
    }
    for o in &config.openings {
        s.push_str(&format!("opening {} {:?}\n", o.board, o.start));
    }
    s
}

/// The fingerprint of a match's configuration (see [`config_text`]), in hex.
pub fn fingerprint(config: &MatchConfig) -> String {
    format!("{:016x}", fnv1a(&config_text(config)))
}

/// A shard's (or a whole match's) results, as written to and read from JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The configuration's fingerprint: only equal ones merge.
    pub fingerprint: String,
    /// The shard, if the run was one.
    pub shard: Option<Shard>,
    /// The engines' names.
    pub names: [String; 2],
    /// Games planned in the whole match.
    pub games_planned: usize,
    /// Whether the statistics count pairs.
    pub paired: bool,
    /// The SPRT of the match, if any.
    pub sprt: Option<Sprt>,
    /// Game results.
    pub trinomial: Trinomial,
    /// Complete pairs.
    pub pentanomial: Pentanomial,
}

impl Summary {
    /// The summary of a run.
    pub fn of(config: &MatchConfig, result: &MatchResult) -> Summary {
        Summary {
            fingerprint: fingerprint(config),
            shard: config.shard,
            names: result.names.clone(),
            games_planned: config.games,
            paired: config.paired,
            sprt: config.sprt,
            trinomial: result.trinomial,
            pentanomial: result.pentanomial,
        }
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        let t = &self.trinomial;
        let v = json!({
            "fingerprint": self.fingerprint,
            "shard": self.shard.map(|s| json!({"index": s.index, "count": s.count})),
            "engines": self.names,
            "games_planned": self.games_planned,
            "paired": self.paired,
            "sprt": self.sprt.map(|s| json!({"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta})),
            "trinomial": {"wins": t.wins, "draws": t.draws, "losses": t.losses},
            "pentanomial": self.pentanomial.counts,
        });
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    }

    /// Writes the JSON to `path`.
    pub fn write(&self, path: &Path) -> Result<(), MatchError> {
        std::fs::write(path, self.to_json()).map_err(|e| MatchError::Io(format!("{}: {e}", path.display())))
    }

    /// Reads a summary; `source` names it in errors.
    pub fn from_json(text: &str, source: &str) -> Result<Summary, MatchError> {
        let bad = |what: &str| MatchError::Config(format!("{source}: not a match summary ({what})"));
        let v: Value = serde_json::from_str(text).map_err(|e| MatchError::Config(format!("{source}: {e}")))?;
        let num = |v: &Value, what: &str| v.as_u64().ok_or_else(|| bad(what));
        let float = |v: &Value, what: &str| v.as_f64().ok_or_else(|| bad(what));
        let shard = match &v["shard"] {
            Value::Null => None,
            s => Some(Shard {
                index: num(&s["index"], "shard.index")? as usize,
                count: num(&s["count"], "shard.count")? as usize,
            }),
        };
        let sprt = match &v["sprt"] {
            Value::Null => None,
            s => Some(Sprt {
                elo0: float(&s["elo0"], "sprt.elo0")?,
                elo1: float(&s["elo1"], "sprt.elo1")?,
                alpha: float(&s["alpha"], "sprt.alpha")?,
                beta: float(&s["beta"], "sprt.beta")?,
            }),
        };
        let name = |k: usize| v["engines"][k].as_str().map(String::from).ok_or_else(|| bad("engines"));
        let penta = v["pentanomial"]
            .as_array()
            .filter(|a| a.len() == 5)
            .ok_or_else(|| bad("pentanomial"))?;
        let mut counts = [0; 5];
        for (c, x) in counts.iter_mut().zip(penta) {
            *c = num(x, "pentanomial")?;
        }
        let t = &v["trinomial"];
        Ok(Summary {
            fingerprint: v["fingerprint"].as_str().ok_or_else(|| bad("fingerprint"))?.to_string(),
            shard,
            names: [name(0)?, name(1)?],
            games_planned: num(&v["games_planned"], "games_planned")? as usize,
            paired: v["paired"].as_bool().ok_or_else(|| bad("paired"))?,
            sprt,
            trinomial: Trinomial {
                wins: num(&t["wins"], "trinomial.wins")?,
                draws: num(&t["draws"], "trinomial.draws")?,
                losses: num(&t["losses"], "trinomial.losses")?,
            },
            pentanomial: Pentanomial { counts },
        })
    }

    /// The score report of these counts (see [`report_lines`]).
    pub fn report(&self) -> Vec<String> {
        let sprt = self.sprt_status().and_then(|st| self.sprt.map(|s| (s, st)));
        report_lines(&self.names, &self.trinomial, &self.pentanomial, self.paired, sprt)
    }

    /// The SPRT state of these counts, if the match has a test.
    pub fn sprt_status(&self) -> Option<SprtStatus> {
        self.sprt
            .map(|s| s.status_of(self.paired, &self.trinomial, &self.pentanomial))
    }
}

/// Adds shard summaries up. Refuses summaries of different configurations, the same shard
/// twice, or shards of different splits; returns the merged summary (no shard) and a note
/// listing missing shards, if any.
pub fn merge(parts: &[Summary]) -> Result<(Summary, Option<String>), MatchError> {
    let first = parts
        .first()
        .ok_or_else(|| MatchError::Config("merge needs at least one summary".into()))?;
    let mut total = Summary {
        shard: None,
        trinomial: Trinomial::default(),
        pentanomial: Pentanomial::default(),
        ..first.clone()
    };
    let mut seen = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if p.fingerprint != first.fingerprint {
            return Err(MatchError::Config(format!(
                "summary {} is of another match configuration (fingerprint {} vs {})",
                i + 1,
                p.fingerprint,
                first.fingerprint
            )));
        }
        if let Some(s) = p.shard {
            if first.shard.is_some_and(|f| f.count != s.count) {
                return Err(MatchError::Config(format!(
                    "summary {} splits the match in {} shards, summary 1 in {}",
                    i + 1,
                    s.count,
                    first.shard.map_or(0, |f| f.count)
                )));
            }
            if seen.contains(&s.index) {
                return Err(MatchError::Config(format!("shard {}/{} given twice", s.index, s.count)));
            }
            seen.push(s.index);
        } else if parts.len() > 1 {
            return Err(MatchError::Config(format!(
                "summary {} is a whole match, not a shard: nothing to merge it with",
                i + 1
            )));
        }
        total.trinomial.wins += p.trinomial.wins;
        total.trinomial.draws += p.trinomial.draws;
        total.trinomial.losses += p.trinomial.losses;
        for (t, c) in total.pentanomial.counts.iter_mut().zip(p.pentanomial.counts) {
            *t += c;
        }
    }
    let note = first.shard.and_then(|f| {
        let missing: Vec<String> = (1..=f.count)
            .filter(|k| !seen.contains(k))
            .map(|k| k.to_string())
            .collect();
        (!missing.is_empty()).then(|| format!("shards missing: {} of {}", missing.join(", "), f.count))
    });
    Ok((total, note))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(shard: Option<Shard>, wins: u64, counts: [u64; 5]) -> Summary {
        Summary {
            fingerprint: "00ff".into(),
            shard,
            names: ["a".into(), "b".into()],
            games_planned: 20,
            paired: true,
            sprt: Some(Sprt::new(0.0, 10.0)),
            trinomial: Trinomial {
                wins,
                draws: 2,
                losses: 1,
            },
            pentanomial: Pentanomial { counts },
        }
    }

    #[test]
    fn shard_arguments() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, count: 3 });
        for bad in ["0/3", "4/3", "1", "a/b", "1/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let s = Shard { index: 2, count: 3 };
        let owned: Vec<usize> = (0..9).filter(|&u| s.owns(u)).collect();
        assert_eq!(owned, vec![1, 4, 7]);
    }

    #[test]
    fn summaries_round_trip_through_json() {
        let s = summary(Some(Shard { index: 1, count: 2 }), 3, [1, 2, 3, 4, 5]);
        assert_eq!(Summary::from_json(&s.to_json(), "x").unwrap(), s);
        let e = Summary::from_json("{\"fingerprint\": \"1\"}", "f.json").unwrap_err();
        assert!(e.to_string().starts_with("f.json: not a match summary"), "{e}");
        assert!(Summary::from_json("nonsense", "g.json")
            .unwrap_err()
            .to_string()
            .starts_with("g.json: "));
    }

    #[test]
    fn merging_adds_counts_and_refuses_mixtures() {
        let a = summary(Some(Shard { index: 1, count: 2 }), 3, [1, 0, 2, 0, 1]);
        let b = summary(Some(Shard { index: 2, count: 2 }), 4, [0, 1, 1, 1, 1]);
        let (m, note) = merge(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(m.trinomial.wins, 7);
        assert_eq!(m.trinomial.draws, 4);
        assert_eq!(m.pentanomial.counts, [1, 1, 3, 1, 2]);
        assert_eq!(note, None);
        assert!(m.report()[0].starts_with("Score of a vs b: 7 - 2 - 4"));
        let (_, note) = merge(std::slice::from_ref(&a)).unwrap();
        assert_eq!(note.as_deref(), Some("shards missing: 2 of 2"));
        let other = Summary {
            fingerprint: "1234".into(),
            ..b.clone()
        };
        assert!(merge(&[a.clone(), other])
            .unwrap_err()
            .to_string()
            .contains("another match configuration"));
        assert!(merge(&[a.clone(), a.clone()])
            .unwrap_err()
            .to_string()
            .contains("given twice"));
        let split3 = Summary {
            shard: Some(Shard { index: 2, count: 3 }),
            ..b
        };
        assert!(merge(&[a, split3]).is_err());
        assert!(merge(&[]).is_err());
    }

    #[test]
    fn fingerprints_follow_what_decides_the_games() {
        let c = MatchConfig::default();
        let mut d = c.clone();
        d.shard = Some(Shard { index: 1, count: 2 });
        d.concurrency = 8;
        assert_eq!(fingerprint(&c), fingerprint(&d));
        d.seed = 7;
        assert_ne!(fingerprint(&c), fingerprint(&d));
        // Time odds are part of the match; without them, the text is as it always was.
        assert!(!config_text(&c).contains("engine-tc"));
        let mut odds = c.clone();
        odds.engines[1].tc = Some(crate::TimeControl::parse_clock("1+0.01").unwrap());
        assert_ne!(fingerprint(&c), fingerprint(&odds));
        assert!(config_text(&odds).contains("engine-tc 1+0.01\n"));
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
