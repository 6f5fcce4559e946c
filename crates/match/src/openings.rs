//! Where games start: official variants and openings files (5DPGN games, several to a file,
//! or one opening per line).

use crate::MatchError;
use chess5d_protocol::{parse_fen_boards, StartPos};
use chess5d_rules::{Size, Variant, VARIANTS};

/// Where games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The `Board` header: a variant name or `custom`.
    pub board: String,
    /// The start sent to the engines.
    pub start: StartPos,
}

impl Opening {
    /// An official variant by name.
    pub fn variant(name: &str) -> Result<Opening, MatchError> {
        let v = Variant::by_name(name).ok_or_else(|| MatchError::Config(format!("unknown variant '{name}'")))?;
        Ok(Opening {
            board: v.name.to_string(),
            start: StartPos::Variant(v.name.to_string()),
        })
    }

    /// One line of an openings file: a variant name, 5DFEN boards (`[...:0:1:w]`), or 5DPGN
    /// headers on one line (`[Size "5x5"] [Board "custom"] [4k/5/5/5/K1R2:0:1:w]`).
    pub fn parse_line(line: &str) -> Result<Opening, MatchError> {
        let line = line.trim();
        if !line.starts_with('[') {
            return Opening::variant(line);
        }
        let mut size = None;
        let mut board = None;
        let mut fens = Vec::new();
        for block in line
            .split('[')
            .map(|b| b.trim().trim_end_matches(']').trim())
            .filter(|b| !b.is_empty())
        {
            if let Some((name, value)) = block.split_once(' ').filter(|(_, v)| v.trim().starts_with('"')) {
                let value = value.trim().trim_matches('"');
                match name {
                    "Size" => {
                        size = value
                            .split_once('x')
                            .and_then(|(w, h)| Size::new(w.parse().ok()?, h.parse().ok()?));
                    }
                    "Board" => board = Some(value.to_string()),
                    _ => {}
                }
            } else {
                fens.push(format!("[{block}]"));
            }
        }
        if fens.is_empty() {
            return Opening::variant(board.as_deref().unwrap_or("Standard"));
        }
        let setup = parse_fen_boards(&fens.join(" "), size, None).map_err(|e| MatchError::Config(e.to_string()))?;
        let start = StartPos::Fen(setup);
        start.position().map_err(|e| MatchError::Config(e.to_string()))?;
        Ok(Opening {
            board: "custom".into(),
            start,
        })
    }

    /// Every official variant, in the order of `chess5d_rules::VARIANTS` (`--variants`).
    pub fn all_variants() -> Vec<Opening> {
        VARIANTS
            .iter()
            .map(|v| Opening {
                board: v.name.to_string(),
                start: StartPos::Variant(v.name.to_string()),
            })
            .collect()
    }

    /// An opening from a 5DPGN game: the position after its actions (sent as 5DFEN), or the
    /// named variant itself when the game has no action and an official `Board`.
    pub fn from_5dpgn(text: &str) -> Result<Opening, String> {
        let game = chess5d_notation::load(text).map_err(|e| e.to_string())?;
        if game.game().actions().is_empty() {
            if let Some(v) = game.header("Board").and_then(Variant::by_name) {
                return Opening::variant(v.name).map_err(|e| e.to_string());
            }
        }
        Ok(Opening {
            board: "custom".into(),
            start: StartPos::Fen(game.game().position().to_setup()),
        })
    }

    /// Reads an openings file: 5DPGN (one or more games, each a header block and its moves;
    /// a header `[Name "value"]` alone on a line marks the format) or one opening per line
    /// (see [`Opening::parse_line`]; `#` comments and blank lines skipped).
    pub fn read_file(path: &str) -> Result<Vec<Opening>, MatchError> {
        let text = std::fs::read_to_string(path).map_err(|e| MatchError::Io(format!("{path}: {e}")))?;
        let openings = if text.lines().any(is_header_line) {
            split_games(&text)
                .into_iter()
                .enumerate()
                .map(|(k, (line, game))| {
                    Opening::from_5dpgn(&game)
                        .map_err(|e| MatchError::Config(format!("{path}: game {} (line {line}): {e}", k + 1)))
                })
                .collect::<Result<Vec<_>, _>>()?
        } else {
            text.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with('#'))
                .map(|(n, l)| Opening::parse_line(l).map_err(|e| MatchError::Config(format!("{path}:{}: {e}", n + 1))))
                .collect::<Result<Vec<_>, _>>()?
        };
        if openings.is_empty() {
            return Err(MatchError::Config(format!("{path}: no opening in the file")));
        }
        Ok(openings)
    }
}

/// Whether a line is one 5DPGN header alone: `[Name "value"]`.
fn is_header_line(line: &str) -> bool {
    let line = line.trim();
    let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
        return false;
    };
    let Some((name, value)) = inner.split_once(' ') else {
        return false;
    };
    let value = value.trim();
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && value.len() >= 2
        && value.starts_with('"')
        && value.ends_with('"')
        && !value[1..value.len() - 1].contains('"')
}

/// Splits a multi-game 5DPGN text into games: a line starting with `[` after the moves, or
/// after the blank line that ends a header block, starts the next game. Returns each game with
/// the line it starts on (1-based).
fn split_games(text: &str) -> Vec<(usize, String)> {
    #[derive(PartialEq)]
    enum State {
        Headers,
        Gap,
        Moves,
    }
    let mut games: Vec<(usize, String)> = Vec::new();
    let mut state = State::Moves;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            if state != State::Headers || games.is_empty() {
                games.push((n + 1, String::new()));
            }
            state = State::Headers;
        } else if t.is_empty() {
            if state == State::Headers {
                state = State::Gap;
            }
        } else if games.is_empty() {
            games.push((n + 1, String::new()));
            state = State::Moves;
        } else {
            state = State::Moves;
        }
        if let Some((_, g)) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines() {
        assert!(is_header_line("[Board \"Standard\"]"));
        assert!(is_header_line("  [Size \"5x5\"]  "));
        assert!(!is_header_line(
            "[Size \"5x5\"] [Board \"custom\"] [4k/5/5/5/K1R2:0:1:w]"
        ));
        assert!(!is_header_line("[4k/5/5/5/K1R2:0:1:w]"));
        assert!(!is_header_line("1. e4 / e5"));
    }

    #[test]
    fn games_split_on_header_blocks() {
        let text = "[Board \"Standard\"]\n\n1. e4 / e5\n\n[Board \"Standard\"]\n[Result \"*\"]\n\n1. d4\n[Board \"Very Small\"]\n\n[Board \"custom\"]\n[Size \"5x5\"]\n[k4/ppp2/5/2PPP/4K:0:1:w]\n";
        let games = split_games(text);
        let starts: Vec<usize> = games.iter().map(|g| g.0).collect();
        assert_eq!(starts, vec![1, 5, 9, 11]);
        assert!(games[1].1.contains("1. d4") && games[1].1.contains("[Result"));
        assert!(games[3].1.contains("[k4/ppp2/5/2PPP/4K:0:1:w]"));
        let openings: Vec<Opening> = games.iter().map(|g| Opening::from_5dpgn(&g.1).unwrap()).collect();
        assert_eq!(openings[0].board, "custom");
        assert_eq!(openings[2], Opening::variant("Very Small").unwrap());
        assert_eq!(openings[3].board, "custom");
        // The position after 1. e4 / e5 has three boards on the main timeline.
        let pos = openings[0].start.position().unwrap();
        assert_eq!(pos.to_setup().boards.len(), 3);
    }

    #[test]
    fn lines_and_errors() {
        assert_eq!(Opening::parse_line("Very Small").unwrap().board, "Very Small");
        assert!(Opening::parse_line("Nonexistent Variant").is_err());
        assert!(Opening::from_5dpgn("[Board \"Standard\"]\n\n1. e5\n").is_err());
        assert_eq!(Opening::all_variants().len(), VARIANTS.len());
        let e = Opening::read_file("/nonexistent/openings").unwrap_err();
        assert!(e.to_string().contains("/nonexistent/openings"), "{e}");
    }
}
