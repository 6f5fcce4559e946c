//! A small character cursor that knows its line and column.

use crate::error::{ParseError, Span};

/// A cursor over a text, by characters.
#[derive(Clone, Debug)]
pub(crate) struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    column: usize,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(text: &'a str) -> Scanner<'a> {
        Scanner::at(text, Span::new(1, 1))
    }

    /// A scanner over `text`, whose first character is at `start`.
    pub(crate) fn at(text: &'a str, start: Span) -> Scanner<'a> {
        Scanner {
            text,
            pos: 0,
            line: start.line,
            column: start.column,
        }
    }

    pub(crate) fn span(&self) -> Span {
        Span::new(self.line, self.column)
    }

    pub(crate) fn offset(&self) -> usize {
        self.pos
    }

    pub(crate) fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    pub(crate) fn slice(&self, from: usize) -> &'a str {
        self.text.get(from..self.pos).unwrap_or("")
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub(crate) fn peek_nth(&self, n: usize) -> Option<char> {
        self.rest().chars().nth(n)
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    pub(crate) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    pub(crate) fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn eat_str(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            for _ in s.chars() {
                self.bump();
            }
            true
        } else {
            false
        }
    }

    pub(crate) fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
    }

    pub(crate) fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// Skips white space and PGN's escape lines: a line with `%` in its first column is
    /// ignored whole (tools write them as notes to themselves, PGN standard section 6).
    pub(crate) fn skip_pgn_space(&mut self) {
        loop {
            self.skip_whitespace();
            if self.column != 1 || self.peek() != Some('%') {
                return;
            }
            while self.peek().is_some_and(|c| c != '\n') {
                self.bump();
            }
        }
    }

    /// Reads a run of ASCII digits as a number (at most 9 digits).
    pub(crate) fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        let s = self.slice(start);
        if s.is_empty() || s.len() > 9 {
            return None;
        }
        s.parse().ok()
    }

    /// A short excerpt of what follows, for error messages.
    pub(crate) fn excerpt(&self) -> String {
        let rest = self.rest();
        if rest.starts_with(['\n', '\r']) {
            return "end of line".to_string();
        }
        let token: String = rest.chars().take_while(|c| !c.is_whitespace()).take(12).collect();
        if token.is_empty() {
            rest.chars().take(1).collect()
        } else {
            token
        }
    }

    pub(crate) fn error(&self, expected: impl Into<String>) -> ParseError {
        ParseError::new(self.span(), expected, self.excerpt())
    }
}

/// Reads one item with `parse` from the whole of `text`: anything left after it is an error.
pub(crate) fn whole<T>(text: &str, parse: impl FnOnce(&mut Scanner) -> Result<T, ParseError>) -> Result<T, ParseError> {
    let mut s = Scanner::new(text);
    let item = parse(&mut s)?;
    if !s.at_end() {
        return Err(s.error("the end of the move"));
    }
    Ok(item)
}
