//! Reading 5DPGN text into [`PgnGame`] (syntax only).

use super::{PgnAction, PgnGame, PgnMove, PgnVariation};
use crate::coords::{BoardRef, Timeline};
use crate::error::{ParseError, Span};
use crate::fen::FenBoard;
use crate::san::SanMove;
use crate::scan::Scanner;
use chess5d_rules::Color;

/// How deeply variations may nest (deeper input is refused rather than overflowing the stack).
const MAX_DEPTH: usize = 100;

/// Reads headers, 5DFEN boards and movetext; the text's first line is line `first_line`.
pub(crate) fn parse(text: &str, first_line: usize) -> Result<PgnGame, ParseError> {
    let mut s = Scanner::at(text, Span::new(first_line.max(1), 1));
    let mut game = PgnGame::default();
    parse_headers(&mut s, &mut game)?;
    let line = Movetext::default().run(&mut s, 0)?;
    game.actions = line.actions;
    game.result = line.result;
    game.leading = line.leading;
    Ok(game)
}

fn parse_headers(s: &mut Scanner, game: &mut PgnGame) -> Result<(), ParseError> {
    loop {
        s.skip_pgn_space();
        if s.peek() == Some('{') {
            skip_comment(s)?;
            continue;
        }
        if s.peek() != Some('[') {
            return Ok(());
        }
        // A header `[Name "Value"]` or a 5DFEN board `[...:L:T:c]`.
        let is_header = s.peek_nth(1).is_some_and(|c| c.is_ascii_alphanumeric()) && {
            let rest = s.rest();
            let line = rest.split('\n').next().unwrap_or("");
            let name_end = line[1..]
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .map(|i| i + 1);
            name_end.is_some_and(|i| line[i..].trim_start().starts_with('"'))
        };
        if is_header {
            s.bump();
            let start = s.offset();
            while s.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                s.bump();
            }
            let name = s.slice(start).to_string();
            s.skip_spaces();
            if !s.eat('"') {
                return Err(s.error("'\"' opening the header value"));
            }
            let vstart = s.offset();
            while s.peek().is_some_and(|c| c != '"' && c != '\n') {
                // `\"` and `\\` are escapes; a backslash never hides the end of the line.
                if s.peek() == Some('\\') && s.peek_nth(1) != Some('\n') {
                    s.bump();
                }
                s.bump();
            }
            let value = s.slice(vstart).replace("\\\"", "\"").replace("\\\\", "\\");
            if !s.eat('"') {
                return Err(s.error("'\"' closing the header value"));
            }
            s.skip_spaces();
            if !s.eat(']') {
                return Err(s.error(format!("']' closing the header [{name} \"{value}\"")));
            }
            game.headers.push((name, value));
        } else {
            game.boards.push(FenBoard::parse(s)?);
        }
    }
}

fn skip_comment(s: &mut Scanner) -> Result<String, ParseError> {
    let span = s.span();
    s.bump();
    let start = s.offset();
    while s.peek().is_some_and(|c| c != '}') {
        s.bump();
    }
    let body = s.slice(start).trim().to_string();
    if !s.eat('}') {
        return Err(ParseError::new(span, "'}' closing the comment", "{"));
    }
    Ok(body)
}

const RESULTS: [&str; 5] = ["1/2-1/2", "1-0", "0-1", "½-½", "*"];

/// Whether a text is a result token (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`).
pub fn is_result(text: &str) -> bool {
    RESULTS.contains(&text)
}

fn ends_token(c: Option<char>) -> bool {
    c.is_none_or(|c| c.is_whitespace() || matches!(c, '{' | '(' | ')' | '/' | ';'))
}

#[derive(Default)]
struct Movetext {
    line: PgnVariation,
    current: PgnAction,
    turn: Option<u32>,
    color: Option<Color>,
    slash: bool,
    /// Turn numbers read since the last action.
    numbers: u32,
}

impl Movetext {
    fn finish(&mut self) {
        let mut action = std::mem::take(&mut self.current);
        if !action.moves.is_empty() {
            action.turn = self.turn;
            action.color = self.color;
            action.after_slash = self.slash;
            action.numbers = self.numbers;
            self.slash = false;
            self.numbers = 0;
            self.line.actions.push(action);
        } else if let Some(last) = self.line.actions.last_mut() {
            // Comments or variations with no move of their own belong to the previous action.
            last.comments.append(&mut action.comments);
            last.variations.append(&mut action.variations);
        } else {
            // Before the first action: alternatives to it.
            self.line.leading.append(&mut action.variations);
        }
    }

    fn last_move(&mut self) -> Option<&mut PgnMove> {
        if self.current.moves.is_empty() {
            self.line.actions.last_mut().and_then(|a| a.moves.last_mut())
        } else {
            self.current.moves.last_mut()
        }
    }

    /// Reads movetext up to the end (`depth` 0) or to the `)` closing a variation, which it
    /// consumes.
    fn run(mut self, s: &mut Scanner, depth: usize) -> Result<PgnVariation, ParseError> {
        loop {
            s.skip_pgn_space();
            let Some(c) = s.peek() else {
                if depth > 0 {
                    return Err(ParseError::new(self.line.span, "')' closing the variation", "("));
                }
                break;
            };
            match c {
                '{' => {
                    let comment = skip_comment(s)?;
                    match self.last_move() {
                        Some(m) => m.comments.push(comment),
                        None => self.current.comments.push(comment),
                    }
                }
                ';' => {
                    while s.peek().is_some_and(|c| c != '\n') {
                        s.bump();
                    }
                }
                '$' if s.peek_nth(1) == Some('(') => {
                    return Err(s.error("a move (a relative board like $(L+1T-1) only follows a move's source)"))
                }
                '$' => {
                    s.bump();
                    s.number();
                }
                '[' => return Err(s.error("moves (headers must come before the moves)")),
                '/' => {
                    s.bump();
                    self.finish();
                    self.color = None;
                    self.slash = true;
                }
                ')' if depth > 0 => {
                    s.bump();
                    break;
                }
                ')' => return Err(s.error("a move ('(' opening a variation is missing)")),
                '(' if BoardRef::starts(s) => self.read_move(s)?,
                '(' if matches!(s.peek_nth(1), Some('>' | '~')) => self.read_marker(s)?,
                '(' => {
                    if depth + 1 > MAX_DEPTH {
                        return Err(s.error(format!("at most {MAX_DEPTH} nested variations")));
                    }
                    let span = s.span();
                    s.bump();
                    let inner = Movetext {
                        line: PgnVariation {
                            span,
                            ..PgnVariation::default()
                        },
                        ..Movetext::default()
                    };
                    let v = inner.run(s, depth + 1)?;
                    self.current.variations.push(v);
                }
                _ => {
                    if let Some(r) = RESULTS.iter().find(|r| s.rest().starts_with(**r)) {
                        let mut probe = s.clone();
                        probe.eat_str(r);
                        if ends_token(probe.peek()) {
                            *s = probe;
                            self.finish();
                            self.line.result = Some(r.to_string());
                            continue;
                        }
                    }
                    if c.is_ascii_digit() && !s.rest().starts_with("0000") && !s.rest().starts_with("0-0") {
                        self.read_number(s)?;
                    } else {
                        self.read_move(s)?;
                    }
                }
            }
        }
        self.finish();
        Ok(self.line)
    }

    /// `12.`, `12...`, `12w.`, `12b.`.
    fn read_number(&mut self, s: &mut Scanner) -> Result<(), ParseError> {
        let span = s.span();
        let n = s
            .number()
            .ok_or_else(|| ParseError::new(span, "a turn number", s.excerpt()))?;
        let color = if s.eat('w') {
            Some(Color::White)
        } else if s.eat('b') {
            Some(Color::Black)
        } else {
            None
        };
        if !s.eat('.') {
            return Err(s.error("'.' after the turn number"));
        }
        let dots = s.eat_str("..");
        self.finish();
        self.slash = false;
        self.numbers = self.numbers.saturating_add(1);
        self.turn = Some(n);
        // Only explicit colours are checked: `N.` may start a black-first game.
        self.color = match (color, dots) {
            (Some(c), _) => Some(c),
            (None, true) => Some(Color::Black),
            (None, false) => None,
        };
        Ok(())
    }

    fn read_move(&mut self, s: &mut Scanner) -> Result<(), ParseError> {
        let span = s.span();
        let start = s.offset();
        let san = SanMove::parse(s)?;
        if !ends_token(s.peek()) {
            return Err(s.error("a space or the end of the move"));
        }
        self.current.moves.push(PgnMove {
            san,
            text: s.slice(start).to_string(),
            span,
            new_timeline: None,
            present: None,
            comments: Vec::new(),
        });
        Ok(())
    }

    /// `(>L1)` or `(~T3)` after a move.
    fn read_marker(&mut self, s: &mut Scanner) -> Result<(), ParseError> {
        let span = s.span();
        s.bump();
        let kind = s.bump();
        s.skip_spaces();
        let mut timeline = None;
        let mut present = None;
        if kind == Some('>') {
            if !s.eat('L') {
                s.eat('l');
            }
            timeline = Some(Timeline::parse(s)?);
        } else {
            if !s.eat('T') && !s.eat('t') {
                return Err(s.error("'T' in a present marker like (~T3)"));
            }
            present = Some(s.number().ok_or_else(|| s.error("a turn number"))?);
        }
        s.skip_spaces();
        if !s.eat(')') {
            return Err(s.error("')' closing the marker"));
        }
        match self.last_move() {
            Some(m) => {
                m.new_timeline = m.new_timeline.or(timeline);
                m.present = m.present.or(present);
                Ok(())
            }
            None => Err(ParseError::new(span, "a move before the marker", "(")),
        }
    }
}
