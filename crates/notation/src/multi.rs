//! Files of several games (match runners and databases write thousands): each game starts with
//! its own header block. [`Games`] reads them one by one from a [`BufRead`], holding at most one
//! game in memory, so a file of any size can be read.

use crate::error::Error;
use crate::LoadedGame;
use std::fmt;
use std::io::BufRead;

/// The largest game [`Games`] holds by default (a longer one is reported and skipped).
pub const MAX_GAME_BYTES: usize = 32 << 20;

/// One game of a multi-game file, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The line of the file it starts on, from 1.
    pub line: usize,
    /// Its text, from its first line.
    pub text: String,
}

impl GameText {
    /// Reads the game (see [`load_at`](crate::load_at)): errors name lines of the whole file.
    pub fn load(&self) -> Result<LoadedGame, Error> {
        crate::load_at(&self.text, self.line)
    }
}

/// A game of a multi-game file that could not even be cut out as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The line it starts on (or where reading failed).
    pub line: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} (line {}): {}", self.number, self.line, self.message)
    }
}

impl std::error::Error for GameError {}

/// The games of a stream, in order (see the [module docs](self)).
///
/// A new game starts at a header line `[Name "Value"]` that follows moves, or that repeats a
/// header of the game being read. A game too large or not in UTF-8 is returned as an error,
/// and reading goes on with the next one; an I/O error ends the iteration after it is returned.
#[derive(Debug)]
pub struct Games<R> {
    reader: R,
    limit: usize,
    /// Lines read so far.
    line: usize,
    /// Games returned so far.
    number: usize,
    /// The game being gathered.
    current: Vec<u8>,
    start_line: usize,
    names: Vec<String>,
    has_moves: bool,
    in_comment: bool,
    too_large: bool,
    /// The first line of the next game, read while looking for the end of the current one.
    pending: Option<Vec<u8>>,
    done: bool,
}

impl<R: BufRead> Games<R> {
    /// Games read from `reader`, each at most [`MAX_GAME_BYTES`] long.
    pub fn new(reader: R) -> Games<R> {
        Games::with_limit(reader, MAX_GAME_BYTES)
    }

    /// Games read from `reader`, each at most `limit` bytes long.
    pub fn with_limit(reader: R, limit: usize) -> Games<R> {
        Games {
            reader,
            limit,
            line: 0,
            number: 0,
            current: Vec::new(),
            start_line: 0,
            names: Vec::new(),
            has_moves: false,
            in_comment: false,
            too_large: false,
            pending: None,
            done: false,
        }
    }

    /// Whether the start of another game has been read after the last one returned.
    pub fn more(&self) -> bool {
        self.pending.is_some()
    }

    /// The reader the games are read from.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The bytes this reader holds (its buffers' capacity), not counting the reader it wraps.
    pub fn held(&self) -> usize {
        self.current.capacity() + self.pending.as_ref().map_or(0, Vec::capacity)
    }

    /// Reads one line (with its `\n`) into `out`, keeping at most `room` bytes of it; `false`
    /// at the end of the input.
    fn read_line(&mut self, out: &mut Vec<u8>, room: usize) -> std::io::Result<(bool, bool)> {
        let mut any = false;
        let mut cut = false;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok((any, cut));
            }
            any = true;
            let (take, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let keep = take.min(room.saturating_sub(out.len()));
            cut |= keep < take;
            out.extend_from_slice(&buf[..keep]);
            self.reader.consume(take);
            if end {
                return Ok((true, cut));
            }
        }
    }

    /// Adds a line to the current game, noting its headers, moves and comments.
    fn take(&mut self, line: &[u8]) {
        let trimmed = line.trim_ascii();
        // An escape line (`%` in the first column, outside a comment) is no part of a game:
        // dropped before one starts, kept as text inside one (its reader skips it).
        let body = match self.line {
            1 => line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line),
            _ => line,
        };
        let escape = body.first() == Some(&b'%') && !self.in_comment;
        if self.current.is_empty() && (trimmed.is_empty() || escape) {
            return;
        }
        if escape {
            self.append(line);
            return;
        }
        if self.current.is_empty() {
            self.start_line = self.line;
        }
        if !self.in_comment {
            if let Some(name) = header_name(trimmed) {
                self.names.push(name.to_ascii_lowercase());
            } else if !trimmed.is_empty() && !trimmed.starts_with(b"[") {
                self.has_moves = true;
            }
        }
        if !trimmed.starts_with(b"[") || self.in_comment {
            for &b in trimmed {
                match b {
                    b'{' => self.in_comment = true,
                    b'}' => self.in_comment = false,
                    b';' if !self.in_comment => break,
                    _ => {}
                }
            }
        }
        self.append(line);
    }

    /// Adds a line's bytes to the current game, or marks it too large.
    fn append(&mut self, line: &[u8]) {
        if self.current.len() + line.len() > self.limit {
            self.too_large = true;
        } else {
            self.current.extend_from_slice(line);
        }
    }

    /// Whether `line` starts the next game.
    fn starts_game(&self, line: &[u8]) -> bool {
        if self.in_comment {
            return false;
        }
        match header_name(line.trim_ascii()) {
            Some(name) => self.has_moves || self.names.iter().any(|n| n.eq_ignore_ascii_case(name)),
            None => false,
        }
    }

    /// The game gathered so far, and a fresh start for the next.
    fn finish(&mut self) -> Option<Result<GameText, GameError>> {
        let text = std::mem::take(&mut self.current);
        let too_large = std::mem::take(&mut self.too_large);
        self.names.clear();
        self.has_moves = false;
        self.in_comment = false;
        // Nothing but white space (Unicode's, which also counts the vertical tab that ASCII
        // trimming keeps) is no game.
        let blank = std::str::from_utf8(&text).is_ok_and(|t| t.trim_start_matches('\u{feff}').trim().is_empty());
        if blank && !too_large {
            return None;
        }
        self.number += 1;
        let (number, line) = (self.number, self.start_line);
        if too_large {
            return Some(Err(GameError {
                number,
                line,
                message: format!("the game is longer than {} bytes; skipped", self.limit),
            }));
        }
        Some(match String::from_utf8(text) {
            Ok(mut text) => {
                if number == 1 && text.starts_with('\u{feff}') {
                    text.drain(..3);
                }
                Ok(GameText { number, line, text })
            }
            Err(e) => {
                let bad = e.utf8_error().valid_up_to();
                let bytes = e.into_bytes();
                let at = line + bytes[..bad].iter().filter(|&&b| b == b'\n').count();
                Err(GameError {
                    number,
                    line,
                    message: format!("line {at} is not valid UTF-8"),
                })
            }
        })
    }
}

impl<R: BufRead> Iterator for Games<R> {
    type Item = Result<GameText, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(first) = self.pending.take() {
            self.take(&first);
        }
        while !self.done {
            let mut line = Vec::new();
            let room = self.limit.saturating_sub(self.current.len()).saturating_add(1);
            match self.read_line(&mut line, room) {
                Ok((false, _)) => self.done = true,
                Ok((true, cut)) => {
                    self.line += 1;
                    if cut {
                        if self.current.is_empty() && !self.too_large {
                            self.start_line = self.line;
                        }
                        self.too_large = true;
                        continue;
                    }
                    if self.starts_game(&line) {
                        self.pending = Some(line);
                        if let Some(game) = self.finish() {
                            return Some(game);
                        }
                        let first = self.pending.take().unwrap_or_default();
                        self.take(&first);
                    } else {
                        self.take(&line);
                    }
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(GameError {
                        number: self.number + 1,
                        line: self.line + 1,
                        message: format!("cannot read: {e}"),
                    }));
                }
            }
        }
        self.finish()
    }
}

/// The name of a header line `[Name "Value"]`.
fn header_name(line: &[u8]) -> Option<&str> {
    let rest = line.strip_prefix(b"[")?;
    let end = rest.iter().position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))?;
    if end == 0 || !rest[end..].trim_ascii_start().starts_with(b"\"") {
        return None;
    }
    std::str::from_utf8(&rest[..end]).ok()
}
