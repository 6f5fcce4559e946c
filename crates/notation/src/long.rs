//! The long coordinate form of notation.md §4: `(0T1)e2(0T1)e4`, `(0T1)e2>(0T1)e4`,
//! `(0T1)e2e4`, `(0T9)g7(0T9)g8=Q` (and the 5DUCI draft's `g8Q`); one action per line, moves
//! separated by spaces. [`LongMove`] is the one reader of the form (5DUCI's text reads through
//! it); [`Move::long_as`] is the one writer.

use crate::coords::BoardRef;
use crate::error::{Error, ParseError, Reason, Span};
use crate::replay;
use crate::scan::Scanner;
use crate::{Format, LoadedGame};
use chess5d_rules::{Coord, Move, Position, Role, Square};
use std::fmt;

/// A move in long form, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LongMove {
    /// The source board.
    pub from_board: BoardRef,
    /// The source square.
    pub from: Square,
    /// The destination board (the source board in the short same-board form).
    pub to_board: BoardRef,
    /// The destination square.
    pub to: Square,
    /// `=X`.
    pub promotion: Option<Role>,
}

fn square(s: &mut Scanner) -> Result<Square, ParseError> {
    let span = s.span();
    let a = s.peek();
    let b = s.peek_nth(1);
    let text: String = [a, b].iter().flatten().collect();
    match Square::parse(&text) {
        Some(sq) => {
            s.bump();
            s.bump();
            Ok(sq)
        }
        None => Err(ParseError::new(span, "a square like e4", s.excerpt())),
    }
}

impl LongMove {
    pub(crate) fn parse(s: &mut Scanner) -> Result<LongMove, ParseError> {
        let from_board = BoardRef::parse(s)?;
        let from = square(s)?;
        if !s.eat_str(">>") {
            s.eat('>');
        }
        let to_board = if s.peek() == Some('(') {
            BoardRef::parse(s)?
        } else {
            from_board
        };
        let to = square(s)?;
        // `=Q` (notation.md §4) or the 5DUCI draft's bare `Q` (section 2.1.5).
        let promotion = if s.eat('=') {
            let c = s.peek().ok_or_else(|| s.error("a piece letter after '='"))?;
            let r = Role::from_letter(c).ok_or_else(|| s.error("a piece letter after '='"))?;
            s.bump();
            Some(r)
        } else if let Some(r) = s.peek().and_then(Role::from_letter) {
            s.bump();
            Some(r)
        } else {
            None
        };
        Ok(LongMove {
            from_board,
            from,
            to_board,
            to,
            promotion,
        })
    }

    /// The move of the position it stands for (boards take the colour of the side to move).
    pub fn resolve(&self, pos: &Position) -> Result<Move, Reason> {
        let even = pos.even();
        let color = pos.to_move();
        let from = Coord {
            board: self.from_board.id(even, color),
            square: self.from,
        };
        let to = Coord {
            board: self.to_board.id(even, color),
            square: self.to,
        };
        pos.find_move(from, to, self.promotion).map_err(Reason::Illegal)
    }
}

impl fmt::Display for LongMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}{}", self.from_board, self.from, self.to_board, self.to)?;
        if let Some(r) = self.promotion {
            write!(f, "={}", r.letter())?;
        }
        Ok(())
    }
}

/// Whether a line looks like long-form moves.
pub fn looks_like(line: &str) -> bool {
    let mut words = line.split_whitespace().peekable();
    words.peek().is_some() && words.all(|w| w.parse::<LongMove>().is_ok())
}

/// Reads one action: moves separated by whitespace.
pub fn parse_action(text: &str) -> Result<Vec<LongMove>, ParseError> {
    parse_line(text, Span::new(1, 1)).map(|v| v.into_iter().map(|(m, _, _)| m).collect())
}

fn parse_line(text: &str, at: Span) -> Result<Vec<(LongMove, String, Span)>, ParseError> {
    let mut s = Scanner::at(text, at);
    let mut out = Vec::new();
    loop {
        s.skip_spaces();
        if s.at_end() || s.peek() == Some('\r') {
            return Ok(out);
        }
        let span = s.span();
        let start = s.offset();
        let m = LongMove::parse(&mut s)?;
        if !s.at_end() && !s.peek().is_some_and(char::is_whitespace) {
            return Err(s.error("a space between moves"));
        }
        out.push((m, s.slice(start).to_string(), span));
    }
}

/// One move in long form, e.g. `(0T1)e2(0T1)e4` (written by the rules' [`Move::long`]).
pub fn write_move(mv: &Move, even: bool) -> String {
    mv.long(even)
}

/// An action in long form, moves separated by spaces.
pub fn write_action(moves: &[Move], even: bool) -> String {
    moves.iter().map(|m| write_move(m, even)).collect::<Vec<_>>().join(" ")
}

/// Reads a game: optional headers (as in 5DPGN, giving the start position unless `start` is
/// given), then one action per line.
pub fn read_game(text: &str, start: Option<Position>) -> Result<LoadedGame, Error> {
    let mut headers = Vec::new();
    let mut boards = Vec::new();
    let mut actions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = Span::new(i + 1, 1);
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        if crate::pgn::header_line(trimmed, i, &mut headers, &mut boards)? {
            continue;
        }
        let indent = line.len() - trimmed.len();
        actions.push(parse_line(trimmed, at.shifted(indent))?);
    }
    replay::play_all(Format::Long, headers, &boards, start, &actions, |m, pos| {
        m.resolve(pos).map(|m| (m, None))
    })
}

/// Reads one move from a whole string.
impl std::str::FromStr for LongMove {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<LongMove, ParseError> {
        let mut s = Scanner::new(text.trim());
        let m = LongMove::parse(&mut s)?;
        if !s.at_end() {
            return Err(s.error("the end of the move"));
        }
        Ok(m)
    }
}
