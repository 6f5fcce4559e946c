//! What a match writes: progress lines in the cutechess/fastchess habits, the result, and
//! 5DPGN game records with per-action comments.

use crate::statistics::{elo_of_counts, EloEstimate, Pentanomial, Trinomial};
use crate::{Ending, GameRecord, GameResult, MatchConfig, Sprt, SprtStatus};
use chess5d_protocol::StartPos;
use chess5d_rules::{Color, Position};
use std::fmt;
use std::time::Duration;

impl GameRecord {
    /// The game in 5DPGN: headers (`Event`, `Date`, `Round`, `White`, `Black`, `Result`,
    /// `Termination`, `TimeControl` (or `WhiteTimeControl` and `BlackTimeControl` when the
    /// engines' differ), `PlyCount` (actions), `Board`, `Size`), the 5DFEN of
    /// custom starts, the actions in long form with a `{eval/depth time}` comment each, and
    /// the reason the game ended as a last comment.
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
        header("Termination", self.ending.pgn());
        // One `TimeControl` when both engines play at the same; `WhiteTimeControl` and
        // `BlackTimeControl` (as cutechess writes them) for time odds.
        let (w, b) = (config.tc_of(self.white), config.tc_of(1 - self.white));
        if w == b {
            header("TimeControl", &w.to_string());
        } else {
            header("WhiteTimeControl", &w.to_string());
            header("BlackTimeControl", &b.to_string());
        }
        header("PlyCount", &self.actions.len().to_string());
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
        // Turns are numbered from the start's present, as the notation crate writes them.
        let mut turn = start.as_ref().map_or(1, |p| p.present_turn().max(0));
        for (i, a) in self.actions.iter().enumerate() {
            let mut text = a.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" ");
            if let Some(c) = self.comments.get(i).filter(|c| !c.is_empty()) {
                text.push_str(&format!(" {{{c}}}"));
            }
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
        s.push_str(&format!(
            "{{{}}} {}\n\n",
            self.comment().replace(['{', '}'], ""),
            self.result.pgn()
        ));
        s
    }

    /// Why the game ended, as cutechess says it: `White mates`, `Draw by stalemate`,
    /// `Draw by adjudication: 200 actions`, or the engine failure.
    pub fn comment(&self) -> String {
        match (self.ending, self.result) {
            (Ending::Checkmate, GameResult::WhiteWins) => "White mates".into(),
            (Ending::Checkmate, _) => "Black mates".into(),
            (Ending::Stalemate, _) => "Draw by stalemate".into(),
            (Ending::Adjudication, _) => {
                let why = self.termination.trim_start_matches("adjudicated: ");
                format!("Draw by adjudication: {why}")
            }
            _ => self.termination.clone(),
        }
    }
}

/// The comment of one action from the engine's last `info` line and the time it took, as
/// cutechess writes it: `+0.35/12 1.2s` (score in pawns from the engine's side, depth),
/// `+M3/7 0.05s` for a mate, just the time when the engine sent no score.
pub fn info_comment(info: Option<&str>, took: Duration) -> String {
    let time = format!("{:.2}s", took.as_secs_f64());
    let Some(info) = info else { return time };
    let toks: Vec<&str> = info.split_whitespace().collect();
    let after = |key: &str| {
        toks.iter()
            .position(|t| *t == key)
            .and_then(|k| toks.get(k + 1))
            .copied()
    };
    let depth = after("depth").and_then(|d| d.parse::<u32>().ok());
    let score = toks.windows(3).find(|w| w[0] == "score").and_then(|w| {
        let n: i64 = w[2].parse().ok()?;
        match w[1] {
            "cp" => Some(format!("{:+.2}", n as f64 / 100.0)),
            "mate" if n >= 0 => Some(format!("+M{n}")),
            "mate" => Some(format!("-M{}", -n)),
            _ => None,
        }
    });
    match (score, depth) {
        (Some(s), Some(d)) => format!("{s}/{d} {time}"),
        (Some(s), None) => format!("{s} {time}"),
        _ => time,
    }
}

/// `Started game 3 of 100 (White vs Black)`.
pub fn started_line(round: usize, total: usize, white: &str, black: &str) -> String {
    format!("Started game {round} of {total} ({white} vs {black})")
}

/// The score report: `Score of A vs B: W - L - D  [ratio] N`, the pentanomial counts for
/// paired games, `Elo difference: ...`, and the SPRT line when a test runs.
pub fn report_lines(
    names: &[String; 2],
    t: &Trinomial,
    p: &Pentanomial,
    paired: bool,
    sprt: Option<(Sprt, SprtStatus)>,
) -> Vec<String> {
    let n = t.games();
    let ratio = if n == 0 {
        0.0
    } else {
        (t.wins as f64 + t.draws as f64 / 2.0) / n as f64
    };
    let mut lines = vec![format!(
        "Score of {} vs {}: {} - {} - {}  [{ratio:.3}] {n}",
        names[0], names[1], t.wins, t.losses, t.draws
    )];
    if paired {
        let c = p.counts;
        lines.push(format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}], {} pairs",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            p.pairs()
        ));
    }
    let est = elo_of_counts(paired, t, p);
    let draws = if n == 0 { 0.0 } else { t.draws as f64 / n as f64 * 100.0 };
    lines.push(match est {
        Some(e) => format!("{e}, DrawRatio: {draws:.1} %"),
        None => format!(
            "Elo difference: undefined (score {:.1} %), DrawRatio: {draws:.1} %",
            ratio * 100.0
        ),
    });
    if let Some((test, status)) = sprt {
        lines.push(test.line(status));
    }
    lines
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
    /// The engines' names (the first one's results are counted).
    pub names: &'a [String; 2],
    /// The games so far.
    pub trinomial: Trinomial,
    /// The complete pairs so far.
    pub pentanomial: Pentanomial,
    /// Whether the statistics count pairs.
    pub paired: bool,
}

impl Progress<'_> {
    /// `Finished game 3 (White vs Black): 1-0 {White mates}`.
    pub fn line(&self) -> String {
        let g = self.game;
        format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            g.round,
            self.names[g.white],
            self.names[1 - g.white],
            g.result.pgn(),
            g.comment()
        )
    }

    /// The score report at this point (see [`report_lines`]); `test` is the match's SPRT.
    pub fn report(&self, test: Option<Sprt>) -> Vec<String> {
        let sprt = test.zip(self.sprt);
        report_lines(self.names, &self.trinomial, &self.pentanomial, self.paired, sprt)
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
    /// Elo of the first engine over the second and the half width of its 95% interval, when
    /// defined (from the pairs when the match is paired).
    pub elo: Option<(f64, f64)>,
    /// The SPRT verdict, if one ran.
    pub sprt: Option<SprtStatus>,
    /// Every game, in the order they finished.
    pub games: Vec<GameRecord>,
    /// The engines' names as used in the games.
    pub names: [String; 2],
    /// The games' results.
    pub trinomial: Trinomial,
    /// The complete pairs' results.
    pub pentanomial: Pentanomial,
    /// The Elo estimate with its likelihood of superiority.
    pub estimate: Option<EloEstimate>,
    /// Whether the statistics count pairs.
    pub paired: bool,
    /// Games under way that a stop (a second Ctrl-C) abandoned: not counted anywhere.
    pub abandoned: usize,
    /// Games that repeated an earlier game of the match move for move.
    pub repeats: usize,
}

impl MatchResult {
    /// An empty result.
    pub fn new(names: [String; 2]) -> MatchResult {
        MatchResult {
            wins: 0,
            draws: 0,
            losses: 0,
            elo: None,
            sprt: None,
            games: vec![],
            abandoned: 0,
            repeats: 0,
            names,
            trinomial: Trinomial::default(),
            pentanomial: Pentanomial::default(),
            estimate: None,
            paired: true,
        }
    }
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
            write!(f, ", SPRT {s}")?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineSpec, Opening, TimeControl};
    use chess5d_rules::Budget;

    #[test]
    fn score_report() {
        let names = ["a".to_string(), "b".to_string()];
        let t = Trinomial {
            wins: 7,
            draws: 2,
            losses: 1,
        };
        let p = Pentanomial {
            counts: [0, 1, 1, 1, 2],
        };
        let test = Sprt::new(0.0, 10.0);
        let lines = report_lines(&names, &t, &p, true, Some((test, SprtStatus::Continue(0.5))));
        // Pair scores 0.25, 0.5, 0.75, 1, 1: mean 0.7 (147.19 Elo), se 0.1304, interval
        // 0.4444..0.9556 (-38.8..+533.0 Elo), LOS 93.75% (computed by hand, checked in Python).
        assert_eq!(
            lines,
            vec![
                "Score of a vs b: 7 - 1 - 2  [0.800] 10",
                "Ptnml(0-2): [0, 1, 1, 1, 2], 5 pairs",
                "Elo difference: 147.2 +/- 285.9, LOS: 93.7 %, DrawRatio: 20.0 %",
                "SPRT: llr 0.50 (17.0%), lbound -2.94, ubound 2.94 [elo0 0, elo1 10, alpha 0.05, beta 0.05]",
            ]
        );
        let games = report_lines(&names, &Trinomial { wins: 3, ..t }, &p, false, None);
        assert_eq!(games.len(), 2);
        assert!(games[1].starts_with("Elo difference: "), "{}", games[1]);
        let perfect = report_lines(
            &names,
            &Trinomial {
                wins: 2,
                draws: 0,
                losses: 0,
            },
            &Pentanomial::default(),
            true,
            None,
        );
        assert_eq!(
            perfect[2],
            "Elo difference: undefined (score 100.0 %), DrawRatio: 0.0 %"
        );
        assert_eq!(started_line(3, 100, "x", "y"), "Started game 3 of 100 (x vs y)");
    }

    #[test]
    fn a_black_first_game_in_5dpgn() {
        let opening = Opening::parse_line("[Size \"5x5\"] [Board \"custom\"] [k4/ppp2/5/2PPP/4K:0:1:b]").unwrap();
        let mut pos = opening.start.position().unwrap();
        let mut actions = Vec::new();
        for _ in 0..3 {
            let a = pos.legal_actions(Budget::DEFAULT).next().unwrap();
            for m in &a {
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
            actions.push(a);
        }
        let record = GameRecord {
            round: 3,
            white: 1,
            opening,
            actions,
            result: GameResult::BlackWins,
            termination: "checkmate".into(),
            ending: Ending::Checkmate,
            comments: vec!["+0.35/12 1.20s".into(), String::new(), "-M2/3 0.01s".into()],
        };
        let spec = |n: &str| EngineSpec {
            name: n.into(),
            ..EngineSpec::new("x")
        };
        let config = MatchConfig {
            engines: [spec("first"), spec("second")],
            ..MatchConfig::default()
        };
        let text = record.to_5dpgn(&config, "2026.01.02");
        let head = "[Event \"chess5d match\"]\n[Date \"2026.01.02\"]\n[Round \"3\"]\n[White \"second\"]\n[Black \"first\"]\n[Result \"0-1\"]\n[Termination \"normal\"]\n[TimeControl \"10+0.1\"]\n[PlyCount \"3\"]\n";
        assert!(text.starts_with(head), "{text}");
        assert!(text.contains("[k4/ppp2/5/2PPP/4K:0:1:b]\n\n1b. "), "{text}");
        assert!(text.contains(" {+0.35/12 1.20s}\n2. "), "{text}");
        assert!(text.contains(" {-M2/3 0.01s}\n{Black mates} 0-1\n\n"), "{text}");
        assert_eq!(record.comment(), "Black mates");
        let loaded = chess5d_notation::load(&text).unwrap();
        assert_eq!(loaded.game().actions().len(), 3);

        // Time odds: each colour's control (engine 1, "second", has White here), and the
        // game still reads back.
        let mut odds = config.clone();
        odds.engines[1].tc = Some(TimeControl::parse_clock("1+0.01").unwrap());
        let text = record.to_5dpgn(&odds, "2026.01.02");
        assert!(
            text.contains(
                "[Termination \"normal\"]\n[WhiteTimeControl \"1+0.01\"]\n[BlackTimeControl \"10+0.1\"]\n[PlyCount"
            ),
            "{text}"
        );
        assert!(!text.contains("[TimeControl "), "{text}");
        assert_eq!(chess5d_notation::load(&text).unwrap().game().actions().len(), 3);
        // The same control given to both engines is one `TimeControl`.
        odds.engines[0].tc = odds.engines[1].tc;
        let text = record.to_5dpgn(&odds, "2026.01.02");
        assert!(text.contains("[TimeControl \"1+0.01\"]\n"), "{text}");
        assert!(!text.contains("WhiteTimeControl"), "{text}");
    }
}
