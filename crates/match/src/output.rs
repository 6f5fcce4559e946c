//! What a match writes: progress lines, the result and 5DPGN game records.

use crate::{elo, GameRecord, MatchConfig, SprtStatus};
use chess5d_protocol::StartPos;
use chess5d_rules::{Color, Position};
use std::fmt;

impl GameRecord {
    /// The game in 5DPGN: headers, the 5DFEN of custom starts, and the actions in long form.
    pub fn to_5dpgn(&self, config: &MatchConfig, date: &str) -> String {
        let start = self.opening.start.position().ok();
        let even = start.as_ref().is_some_and(Position::even);
        let mut s = String::new();
        let mut header = |k: &str, v: &str| s.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
        header("Event", &config.event);
        header("Date", date);
        header("Round", &self.round.to_string());
        header("White", &config.engines[self.white].name);
        header("Black", &config.engines[1 - self.white].name);
        header("Result", self.result.pgn());
        header("Termination", &self.termination);
        header("Mode", "5D");
        header("Board", &self.opening.board);
        if let Some(p) = &start {
            header("Size", &p.size().to_string());
        }
        if let (StartPos::Fen(_), Some(p)) = (&self.opening.start, &start) {
            s.push_str(&chess5d_protocol::write_fen_boards(&p.to_setup()));
            s.push('\n');
        }
        s.push('\n');
        let first_black = start.as_ref().is_some_and(|p| p.to_move() == Color::Black);
        let mut turn = 1;
        for (i, a) in self.actions.iter().enumerate() {
            let text = a.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" ");
            let black = (i % 2 == 1) != first_black;
            if !black {
                s.push_str(&format!("{turn}. {text}"));
            } else if i == 0 {
                s.push_str(&format!("{turn}b. {text}\n"));
                turn += 1;
            } else {
                s.push_str(&format!(" / {text}\n"));
                turn += 1;
            }
        }
        if !s.ends_with('\n') {
            s.push('\n');
        }
        s.push_str(self.result.pgn());
        s.push_str("\n\n");
        s
    }
}

/// Progress after each game.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    /// Games finished.
    pub played: usize,
    /// Games planned.
    pub total: usize,
    /// Wins, draws and losses of the first engine.
    pub wdl: (usize, usize, usize),
    /// The game just finished.
    pub game: &'a GameRecord,
    /// The SPRT state, if one runs.
    pub sprt: Option<SprtStatus>,
}

impl Progress<'_> {
    /// A one-line summary.
    pub fn line(&self) -> String {
        let (w, d, l) = self.wdl;
        let mut s = format!(
            "game {}/{}: {} ({}) | {} W {} D {} L",
            self.played,
            self.total,
            self.game.result.pgn(),
            self.game.termination,
            w,
            d,
            l
        );
        if let Some((e, m)) = elo(w, d, l) {
            s.push_str(&format!(" | Elo {e:+.0} +/- {m:.0}"));
        }
        if let Some(st) = self.sprt {
            s.push_str(&format!(" | SPRT {st:?}"));
        }
        s
    }
}

/// The result of a match.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Wins of the first engine.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses of the first engine.
    pub losses: usize,
    /// Elo of the first engine over the second and its 95% margin, when defined.
    pub elo: Option<(f64, f64)>,
    /// The SPRT verdict, if one ran.
    pub sprt: Option<SprtStatus>,
    /// Every game, in the order they finished.
    pub games: Vec<GameRecord>,
}

impl fmt::Display for MatchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.wins + self.draws + self.losses;
        write!(f, "{n} games: +{} ={} -{}", self.wins, self.draws, self.losses)?;
        if n > 0 {
            let score = (self.wins as f64 + self.draws as f64 / 2.0) / n as f64;
            write!(f, " ({:.1}%)", score * 100.0)?;
        }
        if let Some((e, m)) = self.elo {
            write!(f, ", Elo {e:+.1} +/- {m:.1}")?;
        }
        if let Some(s) = self.sprt {
            write!(f, ", SPRT {s:?}")?;
        }
        Ok(())
    }
}

pub(crate) fn today() -> String {
    // Days since the epoch to a civil date (proleptic Gregorian).
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}
