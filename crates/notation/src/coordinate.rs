//! The seed GUI's notations (read only): coordinate moves `(x,y,T,L)(x,y,T,L)` (1-based `x`
//! file and `y` rank, `;` between the moves of an action, `=Q`, `O-O,L`, `0000`), one action per
//! line; and its FEN proposal (see [`read_gui_fen`]).

use crate::coords::{BoardRef, Timeline};
use crate::error::{Error, ParseError, Reason, Span, StartError};
use crate::replay;
use crate::scan::Scanner;
use crate::{Format, LoadedGame};
use chess5d_rules::{Board, BoardId, Color, Coord, MoveKind, Piece, Position, Role, Setup, Size, Square};

/// A move of the coordinate notation, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CoordMove {
    /// `(x,y,T,L)(x,y,T,L)[=X]`.
    Move {
        /// Source board.
        from_board: BoardRef,
        /// Source square.
        from: Square,
        /// Destination board.
        to_board: BoardRef,
        /// Destination square.
        to: Square,
        /// Promotion.
        promotion: Option<Role>,
    },
    /// `O-O,L` (`short`) or `O-O-O,L` on timeline `L`.
    Castle {
        /// Kingside.
        short: bool,
        /// The timeline.
        timeline: Timeline,
    },
    /// `0000`.
    Null,
}

fn point(s: &mut Scanner) -> Result<(BoardRef, Square), ParseError> {
    if !s.eat('(') {
        return Err(s.error("'(' starting a coordinate like (1,2,1,0)"));
    }
    let mut nums = [0u32; 3];
    for (i, n) in nums.iter_mut().enumerate() {
        s.skip_spaces();
        *n = s
            .number()
            .ok_or_else(|| s.error(["a file number", "a rank number", "a turn number"][i]))?;
        s.skip_spaces();
        if !s.eat(',') {
            return Err(s.error("','"));
        }
    }
    s.skip_spaces();
    let timeline = Timeline::parse(s)?;
    s.skip_spaces();
    if !s.eat(')') {
        return Err(s.error("')' closing the coordinate"));
    }
    let [x, y, turn] = nums;
    let square = Square::try_new(x as i32 - 1, y as i32 - 1)
        .ok_or_else(|| ParseError::new(s.span(), "file and rank numbers from 1 to 8", format!("{x},{y}")))?;
    Ok((BoardRef { timeline, turn }, square))
}

impl CoordMove {
    fn parse(s: &mut Scanner) -> Result<CoordMove, ParseError> {
        if s.eat_str("0000") {
            return Ok(CoordMove::Null);
        }
        for (text, short) in [("O-O-O,", false), ("O-O,", true), ("0-0-0,", false), ("0-0,", true)] {
            if s.eat_str(text) {
                let timeline = Timeline::parse(s)?;
                return Ok(CoordMove::Castle { short, timeline });
            }
        }
        let (from_board, from) = point(s)?;
        let (to_board, to) = point(s)?;
        let promotion = if s.eat('=') {
            let r = s
                .peek()
                .and_then(Role::from_letter)
                .ok_or_else(|| s.error("a piece letter after '='"))?;
            s.bump();
            Some(r)
        } else {
            None
        };
        Ok(CoordMove::Move {
            from_board,
            from,
            to_board,
            to,
            promotion,
        })
    }

    /// The move of the position it stands for.
    pub fn resolve(&self, pos: &Position) -> Result<chess5d_rules::Move, Reason> {
        let even = pos.even();
        let color = pos.to_move();
        match *self {
            CoordMove::Null => Err(Reason::Unsupported(
                "null moves (0000) cannot be played by the rules".into(),
            )),
            CoordMove::Castle { short, timeline } => {
                let l = timeline.index(even);
                let t = pos
                    .timeline_end(l)
                    .ok_or_else(|| Reason::NoMatch(format!("there is no timeline {timeline}")))?;
                let mut moves = Vec::new();
                pos.moves_from(BoardId::new(l, t), &mut moves);
                moves
                    .into_iter()
                    .filter(|m| m.piece.color() == color)
                    .find(|m| {
                        matches!(m.kind, MoveKind::Castle { .. }) && (m.to.square.x() > m.from.square.x()) == short
                    })
                    .ok_or_else(|| Reason::NoMatch(format!("{color} cannot castle on timeline {timeline}")))
            }
            CoordMove::Move {
                from_board,
                from,
                to_board,
                to,
                promotion,
            } => {
                let from = Coord {
                    board: from_board.id(even, color),
                    square: from,
                };
                let to = Coord {
                    board: to_board.id(even, color),
                    square: to,
                };
                pos.find_move(from, to, promotion).map_err(Reason::Illegal)
            }
        }
    }
}

/// Reads a single move (one move of an action, no `;`) from a whole string.
impl std::str::FromStr for CoordMove {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<CoordMove, ParseError> {
        crate::scan::whole(text, CoordMove::parse)
    }
}

/// Reads a game in coordinate notation: optional 5DPGN headers, then one action per line.
/// The start position is `start`, or the one the headers give (standard by default).
pub fn read(text: &str, start: Option<Position>) -> Result<LoadedGame, Error> {
    let mut headers = Vec::new();
    let mut boards = Vec::new();
    let mut actions: Vec<Vec<(CoordMove, String, Span)>> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if crate::pgn::header_line(trimmed, i, &mut headers, &mut boards)? {
            continue;
        }
        let indent = line.chars().take_while(|c| c.is_whitespace()).count();
        let mut s = Scanner::at(trimmed, Span::new(i + 1, indent + 1));
        let mut action = Vec::new();
        loop {
            s.skip_spaces();
            if s.at_end() {
                break;
            }
            let span = s.span();
            let off = s.offset();
            let m = CoordMove::parse(&mut s)?;
            action.push((m, s.slice(off).to_string(), span));
            s.skip_spaces();
            if !s.at_end() && !s.eat(';') {
                return Err(s.error("';' between the moves of an action").into());
            }
        }
        actions.push(action);
    }
    replay::play_all(Format::Coordinate, headers, &boards, start, &actions, |m, pos| {
        m.resolve(pos).map(|m| (m, None))
    })
}

/// Whether a line looks like the first line of the FEN proposal (`8;8;1;0...`).
pub fn looks_like_gui_fen(line: &str) -> bool {
    let mut fields = line.split(';');
    let a = fields.next().unwrap_or("");
    let b = fields.next();
    !a.is_empty()
        && a.bytes().all(|c| c.is_ascii_digit())
        && b.is_some_and(|b| !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()))
}

fn field_error(line: usize, column: usize, expected: &str, found: &str) -> Error {
    Error::Parse(ParseError::new(Span::new(line, column), expected, found))
}

/// Reads the seed GUI's FEN proposal: a first line
/// `width;height[;timelines;min timeline[;colour[;T|F]]]`, then one line per timeline, lowest
/// first: `placement;castling;en passant;start (w1/b1)[;moves;...]`.
///
/// What is well defined is read: sizes, timelines, placements, castling rights (`KQkq`: the
/// king and the corner rook keep their unmoved flags), start turns. Pawns on their second rank
/// may double step. En passant squares and move lists are rejected with an error.
pub fn read_gui_fen(text: &str) -> Result<LoadedGame, Error> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let Some(&(hl, head)) = lines.first() else {
        return Err(field_error(1, 1, "a first line like 8;8;1;0", ""));
    };
    let fields: Vec<&str> = head.split(';').collect();
    let num = |i: usize, what: &str| -> Result<u8, Error> {
        let f = fields.get(i).copied().unwrap_or("");
        f.trim().parse::<u8>().map_err(|_| field_error(hl, 1, what, f))
    };
    let width = num(0, "the board width")?;
    let height = num(1, "the board height")?;
    let size = Size::new(width, height).ok_or_else(|| field_error(hl, 1, "a size from 1x1 to 8x8", head))?;
    let count = match fields.get(2) {
        Some(f) => f
            .trim()
            .parse::<usize>()
            .map_err(|_| field_error(hl, 1, "the number of timelines", f))?,
        None => 1,
    };
    let min_label = fields.get(3).copied().unwrap_or("0").trim();
    let min = Timeline::parse(&mut Scanner::new(min_label))
        .map_err(|_| field_error(hl, 1, "the lowest timeline, like 0 or -1", min_label))?;
    let even = match fields.get(5).map(|f| f.trim()) {
        Some("T") => true,
        Some("F") | None => min.is_signed_zero(),
        Some(f) => return Err(field_error(hl, 1, "T or F for the even-timelines flag", f)),
    };
    if fields.len() > 6 {
        return Err(field_error(hl, 1, "at most 6 fields on the first line", head));
    }
    let board_lines = &lines[1..];
    if board_lines.len() != count {
        return Err(field_error(
            hl,
            1,
            &format!("{count} timeline lines after the first line"),
            &board_lines.len().to_string(),
        ));
    }
    let mut boards = Vec::new();
    let min_l = min.index(even);
    for (k, &(ln, line)) in board_lines.iter().enumerate() {
        let f: Vec<&str> = line.split(';').collect();
        if f.len() < 4 {
            return Err(field_error(ln, 1, "placement;castling;en passant;start", line));
        }
        let fb = crate::fen::FenBoard {
            placement: f[0].to_string(),
            timeline: Timeline::of_index(min_l + k as i32, even),
            turn: 0,
            color: Color::White,
            span: Span::new(ln, 1),
        };
        let mut board = fb.board(size)?;
        set_rights(&mut board, size, f[1]).map_err(|c| field_error(ln, 1, "castling rights from KQkq or -", &c))?;
        if !matches!(f[2], "" | "-") {
            return Err(field_error(ln, 1, "'-' (en passant squares are not supported)", f[2]));
        }
        let st = f[3];
        let (color, turn) = match (st.chars().next(), st.get(1..).and_then(|t| t.parse::<i32>().ok())) {
            (Some('w'), Some(t)) => (Color::White, t),
            (Some('b'), Some(t)) => (Color::Black, t),
            _ => return Err(field_error(ln, 1, "a start like w1 or b1", st)),
        };
        let moves_given = f.get(4).is_some_and(|n| !matches!(n.trim(), "" | "0"))
            || f.len() > 6
            || f.get(5).is_some_and(|m| !m.trim().is_empty());
        if moves_given {
            return Err(field_error(
                ln,
                1,
                "no moves (move lists in the FEN proposal are not well defined)",
                line,
            ));
        }
        boards.push((
            BoardId::new(min_l + k as i32, 2 * turn.clamp(0, 100_000) + color.index() as i32),
            board,
        ));
    }
    let setup = Setup {
        size,
        even,
        boards,
        promotions: vec![Role::Queen],
    };
    let pos = Position::from_setup(setup).map_err(|e| Error::Setup(StartError::Invalid(e)))?;
    Ok(LoadedGame::new(Format::GuiFen, pos))
}

/// Sets unmoved flags from castling rights, and on pawns on their second rank.
fn set_rights(board: &mut Board, size: Size, rights: &str) -> Result<(), String> {
    let top = size.height as i32 - 1;
    let pieces: Vec<(Square, Piece)> = board.pieces().collect();
    for (sq, p) in &pieces {
        let second = match p.color() {
            Color::White => 1,
            Color::Black => top - 1,
        };
        if p.role().is_pawnlike() && sq.y() == second {
            board.set(*sq, Some(p.with_unmoved(true)));
        }
    }
    if matches!(rights, "" | "-") {
        return Ok(());
    }
    for c in rights.chars() {
        let (color, short) = match c {
            'K' => (Color::White, true),
            'Q' => (Color::White, false),
            'k' => (Color::Black, true),
            'q' => (Color::Black, false),
            _ => return Err(rights.to_string()),
        };
        let y = if color == Color::White { 0 } else { top };
        let row: Vec<(Square, Piece)> = board
            .pieces()
            .filter(|(s, p)| s.y() == y && p.color() == color)
            .collect();
        let king = row.iter().find(|(_, p)| p.role() == Role::King).copied();
        let rook = if short {
            row.iter()
                .filter(|(_, p)| p.role() == Role::Rook)
                .max_by_key(|(s, _)| s.x())
        } else {
            row.iter()
                .filter(|(_, p)| p.role() == Role::Rook)
                .min_by_key(|(s, _)| s.x())
        };
        match (king, rook) {
            (Some((ks, kp)), Some(&(rs, rp))) => {
                board.set(ks, Some(kp.with_unmoved(true)));
                board.set(rs, Some(rp.with_unmoved(true)));
            }
            _ => return Err(rights.to_string()),
        }
    }
    Ok(())
}
