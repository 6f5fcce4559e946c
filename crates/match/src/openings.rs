//! Where games start: official variants and openings files.

use crate::MatchError;
use chess5d_protocol::{parse_fen_boards, StartPos};
use chess5d_rules::{Size, Variant};

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

    /// Reads an openings file: one opening per line, `#` comments and blank lines skipped.
    pub fn read_file(path: &str) -> Result<Vec<Opening>, MatchError> {
        let text = std::fs::read_to_string(path).map_err(|e| MatchError::Io(format!("{path}: {e}")))?;
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(Opening::parse_line)
            .collect()
    }
}
