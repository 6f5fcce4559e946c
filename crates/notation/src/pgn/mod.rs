//! 5DPGN game records: [`PgnGame`] (the text's structure), reading into a game, writing.

mod parse;
mod write;

pub use write::write;

use crate::coords::Timeline;
use crate::error::{Error, ParseError, Span};
use crate::fen::FenBoard;
use crate::replay::{self, Written};
use crate::san::SanMove;
use crate::{start, Format, LoadedGame};
use chess5d_rules::{Color, Game};

/// A 5DPGN record as written: headers, 5DFEN boards, actions (main line) and result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The headers `[Name "Value"]`, in order.
    pub headers: Vec<(String, String)>,
    /// The 5DFEN boards among the headers.
    pub boards: Vec<FenBoard>,
    /// The actions of the main line, in order.
    pub actions: Vec<PgnAction>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if written.
    pub result: Option<String>,
}

/// One action: the moves one player submits together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnAction {
    /// The turn number written before it, if any.
    pub turn: Option<u32>,
    /// The player the text assigns it to (`1.` ... `/` ..., `1w.`, `1b.`, `1...`).
    pub color: Option<Color>,
    /// The moves.
    pub moves: Vec<PgnMove>,
    /// Comments not attached to a move.
    pub comments: Vec<String>,
    /// Parenthesised variations after it, as raw text (read, not played).
    pub variations: Vec<String>,
}

/// One move with its place in the text and the markers after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move.
    pub san: SanMove,
    /// The move as written.
    pub text: String,
    /// Where it is written.
    pub span: Span,
    /// `(>L1)`: the timeline the move created.
    pub new_timeline: Option<Timeline>,
    /// `(~T3)`: the turn the present moved to.
    pub present: Option<u32>,
    /// `{comments}` after it.
    pub comments: Vec<String>,
}

impl PgnGame {
    /// Reads 5DPGN text (syntax only; see [`PgnGame::play`]).
    pub fn parse(text: &str) -> Result<PgnGame, ParseError> {
        parse::parse(text)
    }

    /// Builds the start position and plays every action of the main line.
    pub fn play(&self) -> Result<LoadedGame, Error> {
        let mut start = start::position(&self.headers, &self.boards)?;
        let mut warnings = Vec::new();
        let mut skip = 0;
        for action in &self.actions {
            if action.moves.is_empty() || !action.moves.iter().all(|m| m.san.null) {
                break;
            }
            let even = start.even();
            let color = start.to_move();
            let boards: Vec<_> = action
                .moves
                .iter()
                .map(|m| m.san.from_board.map(|b| b.id(even, color)))
                .collect();
            start = replay::fold_nulls(&start, &boards)?;
            if let Some(m) = action.moves.first() {
                warnings.push((
                    m.span,
                    "null moves before the first action are folded into the start position".to_string(),
                ));
            }
            skip += 1;
        }
        let mut game = Game::new(start.clone());
        for (i, action) in self.actions.iter().enumerate().skip(skip) {
            let moves: Vec<Written<'_, SanMove>> = action
                .moves
                .iter()
                .map(|m| Written {
                    item: &m.san,
                    text: &m.text,
                    span: m.span,
                })
                .collect();
            replay::play_action(&mut game, i + 1, action.color, &moves, &mut warnings, |san, pos| {
                san.resolve(pos).map(|(m, bogus)| {
                    let warning = bogus.then(|| "capture mark 'x' on a move that captures nothing".to_string());
                    (m, warning)
                })
            })?;
        }
        Ok(LoadedGame {
            format: Format::Pgn,
            headers: self.headers.clone(),
            start,
            game,
            result: self.result.clone(),
            warnings: replay::into_warnings(warnings),
        })
    }
}

/// Reads a 5DPGN record and plays it.
pub fn read(text: &str) -> Result<LoadedGame, Error> {
    PgnGame::parse(text)?.play()
}
