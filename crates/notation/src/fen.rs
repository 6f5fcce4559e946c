//! 5DFEN: one `[<pieces>:<L>:<T>:<w|b>]` string per board, and the MD5 "full state" hash.

use crate::coords::Timeline;
use crate::error::{Error, ParseError, Span};
use crate::scan::Scanner;
use chess5d_rules::{timeline_label, Board, BoardId, Color, Position, Role, Setup, Size};
use md5::{Digest, Md5};

/// One 5DFEN board string, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenBoard {
    /// The piece placement, ranks from the top, e.g. `4k/5/5/5/K1R2`.
    pub placement: String,
    /// The timeline label.
    pub timeline: Timeline,
    /// The turn as displayed.
    pub turn: u32,
    /// Whose move it is on the board.
    pub color: Color,
    /// Where the placement starts in the text (for error messages).
    pub span: Span,
}

impl FenBoard {
    /// Reads `[<pieces>:<L>:<T>:<w|b>]`; the scanner is on the `[`.
    pub(crate) fn parse(s: &mut Scanner) -> Result<FenBoard, ParseError> {
        FenBoard::parse_as(s, false)
    }

    /// Reads a board; with `side_optional` (5DUCI's draft) the colour may be left out (then
    /// White's: `[<pieces>:<L>:<T>]`).
    fn parse_as(s: &mut Scanner, side_optional: bool) -> Result<FenBoard, ParseError> {
        if !s.eat('[') {
            return Err(s.error("'[' starting a 5DFEN board"));
        }
        let span = s.span();
        let start = s.offset();
        while s
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '/' || c == '*' || c == '+')
        {
            s.bump();
        }
        let placement = s.slice(start).to_string();
        if placement.is_empty() {
            return Err(s.error("a piece placement like 4k/5/5/5/K1R2"));
        }
        if !s.eat(':') {
            return Err(s.error("':' after the piece placement"));
        }
        let timeline = Timeline::parse(s)?;
        if !s.eat(':') {
            return Err(s.error("':' after the timeline"));
        }
        let turn = s.number().ok_or_else(|| s.error("a turn number"))?;
        let color = if side_optional && s.peek() == Some(']') {
            Color::White
        } else {
            if !s.eat(':') {
                return Err(s.error("':' after the turn"));
            }
            let color = match s.peek() {
                Some('w' | 'W') => Color::White,
                Some('b' | 'B') => Color::Black,
                _ => return Err(s.error("the colour to move, 'w' or 'b'")),
            };
            s.bump();
            color
        };
        if !s.eat(']') {
            return Err(s.error("']' closing the 5DFEN board"));
        }
        Ok(FenBoard {
            placement,
            timeline,
            turn,
            color,
            span,
        })
    }

    /// The size the placement describes: number of ranks, and squares in the first rank.
    pub fn implied_size(&self) -> Option<Size> {
        let ranks: Vec<&str> = self.placement.split('/').collect();
        let first = ranks.first()?;
        let mut width: u32 = 0;
        let mut digits = String::new();
        for c in first.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                width += digits.parse::<u32>().ok()?;
                digits.clear();
            }
            if c.is_ascii_alphabetic() {
                width += 1;
            }
        }
        if !digits.is_empty() {
            width += digits.parse::<u32>().ok()?;
        }
        Size::new(u8::try_from(width).ok()?, u8::try_from(ranks.len()).ok()?)
    }

    /// The board of the placement, for boards of `size`.
    pub fn board(&self, size: Size) -> Result<Board, ParseError> {
        if Size::new(size.width, size.height).is_none() {
            return Err(ParseError::new(
                self.span,
                "a board size between 1x1 and 8x8",
                size.to_string(),
            ));
        }
        let mut board = Board::from_fen(&self.placement, size).map_err(|(offset, msg)| {
            ParseError::new(
                self.span.shifted(offset.min(self.placement.len())),
                format!("a valid {size} piece placement ({msg})"),
                self.placement.clone(),
            )
        })?;
        // `*` only means something on pawns, brawns, kings and rooks; elsewhere it is dropped so
        // that reading and writing agree.
        let pieces: Vec<_> = board.pieces().collect();
        for (sq, p) in pieces {
            if p.unmoved() && !matches!(p.role(), Role::Pawn | Role::Brawn | Role::King | Role::Rook) {
                board.set(sq, Some(p.moved()));
            }
        }
        Ok(board)
    }
}

/// Builds a setup from 5DFEN boards; the game is even if any label is `-0` or `+0`.
pub fn setup(boards: &[FenBoard], size: Size, promotions: Vec<Role>) -> Result<Setup, Error> {
    Ok(setup_as(boards, size, None, promotions)?)
}

/// Builds a setup from 5DFEN boards, even if `even` says so or (`None`) if a label is `-0`
/// or `+0`.
fn setup_as(boards: &[FenBoard], size: Size, even: Option<bool>, promotions: Vec<Role>) -> Result<Setup, ParseError> {
    let even = even.unwrap_or_else(|| boards.iter().any(|b| b.timeline.is_signed_zero()));
    let mut out = Vec::with_capacity(boards.len());
    for b in boards {
        let turn = b.turn.min(100_000) as i32;
        let id = BoardId::new(b.timeline.index(even), 2 * turn + b.color.index() as i32);
        out.push((id, b.board(size)?));
    }
    Ok(Setup {
        size,
        even,
        boards: out,
        promotions,
    })
}

/// Reads a whole position written as 5DFEN board strings (whitespace between them allowed),
/// for boards of `size`, or of the size implied by the first board.
pub fn read_position(text: &str, size: Option<Size>) -> Result<Position, Error> {
    Ok(Position::from_setup(read_setup(text, size, None, false)?)?)
}

/// The 5DFEN reader: board strings `[<pieces>:<L>:<T>:<w|b>]` (whitespace between them
/// allowed) into a setup whose promotions are a queen. The boards are of `size`, or of the size
/// the first board implies; the game is even if `even` says so, or (`None`) if a label is `-0`
/// or `+0`. With `side_optional`, as 5DUCI's draft allows, a board may leave out whose move it
/// is (`[<pieces>:<L>:<T>]`: White's).
///
/// ```
/// use chess5d_notation::fen::read_setup;
///
/// let setup = read_setup("[4k/5/5/5/K1R2:0:1]", None, None, true).unwrap();
/// assert_eq!((setup.size.to_string(), setup.boards.len()), ("5x5".to_string(), 1));
/// let e = read_setup("[4k/5/5/5/K1R2:0:1]", None, None, false).unwrap_err();
/// assert_eq!((e.span.column, e.expected.as_str()), (19, "':' after the turn"));
/// ```
pub fn read_setup(
    text: &str,
    size: Option<Size>,
    even: Option<bool>,
    side_optional: bool,
) -> Result<Setup, ParseError> {
    let mut s = Scanner::new(text);
    let mut boards = Vec::new();
    s.skip_whitespace();
    while !s.at_end() {
        boards.push(FenBoard::parse_as(&mut s, side_optional)?);
        s.skip_whitespace();
    }
    let first = boards
        .first()
        .ok_or_else(|| ParseError::new(s.span(), "a 5DFEN board like [4k/5/5/5/K1R2:0:1:w]", ""))?;
    let size = size.or_else(|| first.implied_size()).ok_or_else(|| {
        ParseError::new(
            first.span,
            "a placement of 1 to 8 ranks and files",
            first.placement.clone(),
        )
    })?;
    setup_as(&boards, size, even, vec![Role::Queen])
}

/// One board in 5DFEN, e.g. `[4k/5/5/5/K1R2:0:1:w]`.
pub fn write_board(board: &Board, id: BoardId, size: Size, even: bool) -> String {
    // notation.md §3 writes positive timelines with their sign (`:+1:`), as the spec's full
    // state hash (and 5d-chess-js's `hash`) reads them.
    let timeline = Timeline::of_index(id.l, even);
    let sign = if timeline.sign.is_none() && id.l > 0 { "+" } else { "" };
    block(board, &format!("{sign}{timeline}"), id, size)
}

/// The one form of a 5DFEN board string, its timeline label as given.
fn block(board: &Board, label: &str, id: BoardId, size: Size) -> String {
    format!("[{}:{label}:{}:{}]", board.fen(size), id.turn(), id.color().letter())
}

/// Every board of a setup in 5DFEN, sorted by timeline then turn, separated by spaces: what
/// 5DUCI's `position ... fen` sends. The labels are the rules' ([`timeline_label`]: `1`, not
/// `+1`, in an odd game), as 5DUCI has always sent them.
pub fn write_setup(setup: &Setup) -> String {
    let mut boards: Vec<_> = setup.boards.iter().collect();
    boards.sort_by_key(|(id, _)| (id.l, id.t));
    boards
        .iter()
        .map(|(id, b)| block(b, &timeline_label(id.l, setup.even), *id, setup.size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every board of a position in 5DFEN, sorted by timeline then turn, one per line.
pub fn write_boards(pos: &Position) -> Vec<String> {
    pos.boards()
        .map(|(id, b)| write_board(b, id, pos.size(), pos.even()))
        .collect()
}

/// The MD5 hex digest of a 5DFEN text with its whitespace removed (the spec's board hash).
pub fn md5_hex(fen: &str) -> String {
    let clean: String = fen.chars().filter(|c| !c.is_whitespace()).collect();
    let digest = Md5::digest(clean.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The "full state" hash of notation.md §3: MD5 of every board's 5DFEN, sorted by timeline then
/// turn, concatenated.
pub fn full_state_hash(pos: &Position) -> String {
    md5_hex(&write_boards(pos).concat())
}

/// Reads one board string such as `[4k/5/5/5/K1R2:0:1:w]` (surrounding whitespace allowed).
impl std::str::FromStr for FenBoard {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<FenBoard, ParseError> {
        let mut s = Scanner::new(text);
        s.skip_whitespace();
        let b = FenBoard::parse(&mut s)?;
        s.skip_whitespace();
        if !s.at_end() {
            return Err(s.error("the end of the 5DFEN board"));
        }
        Ok(b)
    }
}
