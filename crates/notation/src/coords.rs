//! Notation coordinates: timeline labels and boards as written (`(0T1)`, `(-0T3)`, `(L1 T5)`),
//! kept apart from the rules' internal indices until a game's parity is known.

use crate::error::ParseError;
use crate::scan::Scanner;
use chess5d_rules::{BoardId, Color};
use std::fmt;

/// A timeline as written: sign (if any) and number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Timeline {
    /// `Some('-')`, `Some('+')` or `None`.
    pub sign: Option<char>,
    /// The number.
    pub number: u32,
}

impl Timeline {
    /// Whether the label is `-0` or `+0` (which makes a game even).
    pub fn is_signed_zero(self) -> bool {
        self.number == 0 && self.sign.is_some()
    }

    /// The internal timeline index, for a game with an even (`true`) or odd number of starting
    /// timelines (as [`chess5d_rules::parse_timeline`]).
    pub fn index(self, even: bool) -> i32 {
        chess5d_rules::timeline_index(self.sign == Some('-'), self.number.min(1_000_000) as i32, even)
    }

    /// The label of an internal index.
    pub fn of_index(l: i32, even: bool) -> Timeline {
        let (sign, number) = chess5d_rules::timeline_sign(l, even);
        Timeline { sign, number }
    }

    /// Reads `[+|-]digits`.
    pub(crate) fn parse(s: &mut Scanner) -> Result<Timeline, ParseError> {
        let sign = match s.peek() {
            Some(c @ ('+' | '-')) => {
                s.bump();
                Some(c)
            }
            _ => None,
        };
        let number = s
            .number()
            .ok_or_else(|| s.error("a timeline number like 0, -1 or +1"))?;
        Ok(Timeline { sign, number })
    }
}

impl fmt::Display for Timeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = self.sign {
            write!(f, "{c}")?;
        }
        write!(f, "{}", self.number)
    }
}

/// A board as written: timeline and turn number (`(0T1)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardRef {
    /// The timeline.
    pub timeline: Timeline,
    /// The turn as displayed.
    pub turn: u32,
}

impl BoardRef {
    /// The rules' board id, given the game's parity and the colour of the board.
    pub fn id(self, even: bool, color: Color) -> BoardId {
        let turn = self.turn.min(1_000_000) as i32;
        BoardId::new(self.timeline.index(even), 2 * turn + color.index() as i32)
    }

    /// The board of an id.
    pub fn of_id(id: BoardId, even: bool) -> BoardRef {
        BoardRef {
            timeline: Timeline::of_index(id.l, even),
            turn: id.turn().max(0) as u32,
        }
    }

    /// Whether the text at the scanner starts like a board: `(` then an optional `L`, a sign or
    /// a digit (or a timeline alone, `(L-1)`).
    pub(crate) fn starts(s: &Scanner) -> bool {
        s.peek() == Some('(') && matches!(s.peek_nth(1), Some('L' | 'l' | '+' | '-' | '0'..='9')) && {
            let mut probe = s.clone();
            MoveBoard::parse(&mut probe).is_ok()
        }
    }

    /// Reads `(LTT)`, also `(L1T5)`, `(L1 T5)`, `(+1T3)`.
    pub(crate) fn parse(s: &mut Scanner) -> Result<BoardRef, ParseError> {
        if !s.eat('(') {
            return Err(s.error("a board like (0T1)"));
        }
        s.skip_spaces();
        if !s.eat('L') {
            s.eat('l');
        }
        let timeline = Timeline::parse(s)?;
        s.skip_spaces();
        if !s.eat('T') && !s.eat('t') {
            return Err(s.error("'T' and a turn number in a board like (0T1)"));
        }
        let turn = s
            .number()
            .ok_or_else(|| s.error("a turn number in a board like (0T1)"))?;
        s.skip_spaces();
        if !s.eat(')') {
            return Err(s.error("')' closing a board like (0T1)"));
        }
        Ok(BoardRef { timeline, turn })
    }
}

impl fmt::Display for BoardRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}T{})", self.timeline, self.turn)
    }
}

/// A board as a move may write it: in full, or as a timeline alone (`(L-1)`, Branched 5DPGN),
/// which stands for that timeline's last board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveBoard {
    /// `(0T1)`.
    Board(BoardRef),
    /// `(L-1)`: the last board of the timeline.
    Latest(Timeline),
}

impl MoveBoard {
    /// Reads `(0T1)` (see [`BoardRef::parse`]) or `(L-1)`.
    pub(crate) fn parse(s: &mut Scanner) -> Result<MoveBoard, ParseError> {
        let mut probe = s.clone();
        if probe.eat('(') {
            probe.skip_spaces();
            if probe.eat('L') || probe.eat('l') {
                if let Ok(t) = Timeline::parse(&mut probe) {
                    probe.skip_spaces();
                    if probe.eat(')') {
                        *s = probe;
                        return Ok(MoveBoard::Latest(t));
                    }
                }
            }
        }
        BoardRef::parse(s).map(MoveBoard::Board)
    }

    /// The rules' board id in `pos`, for the player to move (`None`: no such timeline).
    pub fn id(self, pos: &chess5d_rules::Position) -> Option<BoardId> {
        let even = pos.even();
        match self {
            MoveBoard::Board(b) => Some(b.id(even, pos.to_move())),
            MoveBoard::Latest(t) => {
                let l = t.index(even);
                pos.timeline_end(l).map(|end| BoardId::new(l, end))
            }
        }
    }
}

impl fmt::Display for MoveBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveBoard::Board(b) => b.fmt(f),
            MoveBoard::Latest(t) => write!(f, "(L{t})"),
        }
    }
}

/// Writes a board id as in notation, e.g. `(-1T4)`.
pub(crate) fn board_name(id: BoardId, even: bool) -> String {
    BoardRef::of_id(id, even).to_string()
}
