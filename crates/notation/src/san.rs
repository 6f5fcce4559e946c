//! One physical move of 5DPGN: SAN with board prefixes, jumps, long SAN, castling; read,
//! resolve against a position, write.

use crate::coords::{board_name, MoveBoard};
use crate::error::{ParseError, Reason};
use crate::scan::Scanner;
use chess5d_rules::{BoardId, Color, Move, MoveKind, Position, Role, Square};
use std::fmt;

/// A jump mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Jump {
    /// `>`: onto a playable board of another timeline.
    Hop,
    /// `>>`: onto a past board, creating a timeline.
    Branch,
}

/// Castling side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Castle {
    /// `O-O`: toward the higher files.
    Short,
    /// `O-O-O`: toward the lower files.
    Long,
}

/// The marks after a move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Suffix {
    /// `+`.
    pub check: bool,
    /// `*`.
    pub softmate: bool,
    /// `#`.
    pub mate: bool,
    /// `~`: the present moved.
    pub present_moved: bool,
    /// `!`, `?`, `!?`...
    pub annotation: String,
}

/// A destination board written relative to the source board, as Branched 5DPGN allows:
/// `$(L+1T-1)` is one timeline up and one turn back; `=` (or nothing) keeps a coordinate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RelativeBoard {
    /// Timelines to add (in the rules' indices: `-0` to `+0` is one step).
    pub timelines: i32,
    /// Turns to add.
    pub turns: i32,
}

impl RelativeBoard {
    /// Reads `$(L<d>T<d>)` where each `<d>` is `=` or a signed number; either part may be left
    /// out.
    pub(crate) fn parse(s: &mut Scanner) -> Result<RelativeBoard, ParseError> {
        if !s.eat_str("$(") {
            return Err(s.error("a relative board like $(L+1T-1)"));
        }
        let mut rel = RelativeBoard::default();
        let mut any = false;
        for (letters, field) in [(['L', 'l'], 0), (['T', 't'], 1)] {
            s.skip_spaces();
            if !(s.eat(letters[0]) || s.eat(letters[1])) {
                continue;
            }
            any = true;
            let value = if s.eat('=') {
                0
            } else {
                let negative = match s.peek() {
                    Some('-') => true,
                    Some('+') => false,
                    _ => return Err(s.error("'=', or a sign and a number, in a relative board like $(L+1T-1)")),
                };
                s.bump();
                let n = s
                    .number()
                    .filter(|&n| n <= 10_000)
                    .ok_or_else(|| s.error("a number in a relative board like $(L+1T-1)"))?
                    as i32;
                if negative {
                    -n
                } else {
                    n
                }
            };
            if field == 0 {
                rel.timelines = value;
            } else {
                rel.turns = value;
            }
        }
        s.skip_spaces();
        if !any || !s.eat(')') {
            return Err(s.error("a relative board like $(L+1T-1)"));
        }
        Ok(rel)
    }
}

/// A 5DPGN physical move as written, not yet resolved: a piece's move, a castle or a null
/// move (the three kinds of shakmaty's `San`, with 5D's boards).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SanMove {
    /// A piece's move: `e4`, `Nf3`, `exd5`, `(0T2)Nb1>>(0T1)b3`, `(0T1)e2e4`.
    Normal(NormalSan),
    /// `O-O` or `O-O-O`.
    Castle {
        /// The board of the castling king, if written.
        from_board: Option<MoveBoard>,
        /// Which side.
        side: Castle,
        /// Check marks and annotations.
        suffix: Suffix,
    },
    /// `0000`, a null move (not supported by the rules).
    Null {
        /// The board, if written.
        from_board: Option<MoveBoard>,
        /// Check marks and annotations.
        suffix: Suffix,
    },
}

/// A piece's move as written: what is not written is `None`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NormalSan {
    /// The board the piece starts on, if written.
    pub from_board: Option<MoveBoard>,
    /// The piece letter, if written (none: pawn).
    pub piece: Option<Role>,
    /// The source file (0 = a), if written.
    pub from_file: Option<u8>,
    /// The source rank (0 = rank 1), if written.
    pub from_rank: Option<u8>,
    /// `>` or `>>`.
    pub jump: Option<Jump>,
    /// An `x` was written.
    pub capture: bool,
    /// The board the piece lands on, if written.
    pub to_board: Option<MoveBoard>,
    /// The board the piece lands on, written relative to its source board (`$(L+1T-1)`).
    pub to_relative: Option<RelativeBoard>,
    /// The destination square.
    pub to: Square,
    /// `=X`.
    pub promotion: Option<Role>,
    /// Check marks and annotations.
    pub suffix: Suffix,
}

fn role_at(s: &Scanner) -> Option<(Role, usize)> {
    let a = s.peek()?;
    let b = s.peek_nth(1);
    let two = match (a, b) {
        ('R', Some('Q')) => Some(Role::RoyalQueen),
        ('P', Some('R')) => Some(Role::Princess),
        ('B', Some('R')) => Some(Role::Brawn),
        ('C', Some('K')) => Some(Role::CommonKing),
        _ => None,
    };
    if let Some(r) = two {
        return Some((r, 2));
    }
    if a.is_ascii_uppercase() && a != 'O' {
        return Role::from_letter(a).map(|r| (r, 1));
    }
    None
}

fn read_role(s: &mut Scanner) -> Option<Role> {
    let (role, n) = role_at(s)?;
    for _ in 0..n {
        s.bump();
    }
    Some(role)
}

fn is_file(c: char) -> bool {
    ('a'..='h').contains(&c)
}

/// Reads a run of files, ranks and `x` marks, e.g. `exd5`, `g2gxh1`, `e2e4`, `Nbd2`'s `bd2`.
fn coords_run(s: &mut Scanner) -> (String, bool) {
    let mut run = String::new();
    let mut capture = false;
    while let Some(c) = s.peek() {
        if is_file(c) || ('1'..='8').contains(&c) {
            run.push(c);
        } else if c == 'x' || c == 'X' && s.peek_nth(1).is_some_and(is_file) {
            capture = true;
        } else {
            break;
        }
        s.bump();
    }
    (run, capture)
}

/// Splits a run of files and ranks into (file, rank) hints; repeated identical files are
/// tolerated (the 5d-chess-js `eexf6` bug).
fn hints(run: &str) -> Option<(Option<u8>, Option<u8>)> {
    let mut file = None;
    let mut rank = None;
    for c in run.chars() {
        if is_file(c) {
            let f = c as u8 - b'a';
            if file.is_some_and(|old| old != f) {
                return None;
            }
            file = Some(f);
        } else {
            let r = c as u8 - b'1';
            if rank.is_some_and(|old| old != r) {
                return None;
            }
            rank = Some(r);
        }
    }
    Some((file, rank))
}

fn split_square(run: &str) -> Option<(&str, Square)> {
    let n = run.len();
    if n < 2 {
        return None;
    }
    let (head, tail) = run.split_at(n - 2);
    Square::parse(tail).map(|sq| (head, sq))
}

impl SanMove {
    /// The board the move starts on, if written.
    pub fn from_board(&self) -> Option<MoveBoard> {
        match self {
            SanMove::Normal(n) => n.from_board,
            SanMove::Castle { from_board, .. } | SanMove::Null { from_board, .. } => *from_board,
        }
    }

    /// The marks after the move.
    pub fn suffix(&self) -> &Suffix {
        match self {
            SanMove::Normal(n) => &n.suffix,
            SanMove::Castle { suffix, .. } | SanMove::Null { suffix, .. } => suffix,
        }
    }

    /// Whether it is `0000`.
    pub fn is_null(&self) -> bool {
        matches!(self, SanMove::Null { .. })
    }

    /// Reads one move. The scanner is on its first character; it stops after the suffixes.
    pub(crate) fn parse(s: &mut Scanner) -> Result<SanMove, ParseError> {
        let begin = s.clone();
        let from_board = if s.peek() == Some('(') {
            Some(MoveBoard::parse(s)?)
        } else {
            None
        };
        if s.eat_str("0000") {
            let suffix = Suffix::parse(s);
            return Ok(SanMove::Null { from_board, suffix });
        }
        for (long, short, side) in [("O-O-O", "0-0-0", Castle::Long), ("O-O", "0-0", Castle::Short)] {
            if s.eat_str(long) || s.eat_str(short) {
                let suffix = Suffix::parse(s);
                return Ok(SanMove::Castle {
                    from_board,
                    side,
                    suffix,
                });
            }
        }
        let mut mv = NormalSan {
            from_board,
            piece: read_role(s),
            from_file: None,
            from_rank: None,
            jump: None,
            capture: false,
            to_board: None,
            to_relative: None,
            to: Square::new(0, 0),
            promotion: None,
            suffix: Suffix::default(),
        };
        let start = s.span();
        let (run, x1) = coords_run(s);
        mv.capture |= x1;
        let jump = if s.eat_str(">>") {
            Some(Jump::Branch)
        } else if s.eat('>') {
            Some(Jump::Hop)
        } else {
            None
        };
        mv.jump = jump;
        let dest_run;
        if jump.is_some() || s.peek() == Some('(') || s.rest().starts_with("$(") {
            // `<src><jump>[x]<board><square>` or `<src><board><square>`.
            let (f, r) = hints(&run).ok_or_else(|| ParseError::new(start, "a source square", run.clone()))?;
            mv.from_file = f;
            mv.from_rank = r;
            if s.eat('x') {
                mv.capture = true;
            }
            if s.rest().starts_with("$(") {
                if mv.from_board.is_none() {
                    return Err(s.error("a source board before a relative destination like $(L+1T-1)"));
                }
                mv.to_relative = Some(RelativeBoard::parse(s)?);
            } else if s.peek() != Some('(') {
                return Err(s.error("the destination board, like (0T1)"));
            } else {
                mv.to_board = Some(MoveBoard::parse(s)?);
            }
            let (run2, x2) = coords_run(s);
            mv.capture |= x2;
            dest_run = run2;
            let sq = Square::parse(&dest_run)
                .ok_or_else(|| ParseError::new(s.span(), "a square like e4", dest_run.clone()))?;
            mv.to = sq;
        } else {
            let (head, sq) =
                split_square(&run).ok_or_else(|| begin.error("a move like e4, Nf3 or (0T1)Nb1>>(0T1)b3"))?;
            let (f, r) =
                hints(head).ok_or_else(|| ParseError::new(start, "a source file or rank", head.to_string()))?;
            mv.from_file = f;
            mv.from_rank = r;
            mv.to = sq;
        }
        if s.eat('=') {
            mv.promotion = Some(read_role(s).ok_or_else(|| s.error("a piece letter after '='"))?);
        }
        mv.suffix = Suffix::parse(s);
        Ok(SanMove::Normal(mv))
    }

    /// Finds the unique move of the position this text stands for.
    ///
    /// Returns the move and whether a capture mark was written on a move that captures nothing.
    pub fn resolve(&self, pos: &Position) -> Result<(Move, bool), Reason> {
        if self.is_null() {
            return Err(Reason::Unsupported(
                "null moves (0000) cannot be played by the rules".into(),
            ));
        }
        let even = pos.even();
        let from_board = match self.from_board() {
            Some(b) => Some(
                b.id(pos)
                    .ok_or_else(|| Reason::NoMatch(format!("there is no timeline {b}")))?,
            ),
            None => None,
        };
        let moves = pos.playable_moves();
        let on_board = |m: &&Move| from_board.is_none_or(|b| m.from.board == b);
        let candidates: Vec<Move> = match self {
            SanMove::Null { .. } => Vec::new(),
            SanMove::Castle { side, .. } => moves
                .iter()
                .filter(on_board)
                .filter(|m| matches!(m.kind, MoveKind::Castle { .. }))
                .filter(|m| (m.to.square.x() > m.from.square.x()) == (*side == Castle::Short))
                .copied()
                .collect(),
            SanMove::Normal(n) => {
                let to_board = n.destination(from_board, pos);
                if let (Some(b), None) = (n.to_board, to_board) {
                    return Err(Reason::NoMatch(format!("there is no timeline {b}")));
                }
                n.candidates(&moves, from_board, to_board, pos)
            }
        };
        let capture = matches!(self, SanMove::Normal(n) if n.capture);
        match candidates.as_slice() {
            [m] => Ok((*m, capture && !m.is_capture())),
            [] => Err(self.explain(pos, from_board)),
            many => Err(Reason::Ambiguous(many.iter().map(|m| m.long(even)).collect())),
        }
    }

    /// Why nothing matched: the rules' own reason when the move is fully specified.
    fn explain(&self, pos: &Position, from_board: Option<BoardId>) -> Reason {
        let even = pos.even();
        if let (SanMove::Normal(n), Some(fb)) = (self, from_board) {
            if let Some(e) = n.illegal(pos, fb) {
                return Reason::Illegal(e);
            }
        }
        if let Some(fb) = from_board {
            if pos.board(fb).is_none() {
                return Reason::Illegal(chess5d_rules::IllegalMove::NoSuchBoard(pos.board_name(fb)));
            }
            if !pos.is_playable(fb) {
                return Reason::Illegal(chess5d_rules::IllegalMove::NotPlayable(pos.board_name(fb)));
            }
        }
        if let SanMove::Normal(n) = self {
            if let Some(r) = n.promotion {
                let relaxed = SanMove::Normal(NormalSan {
                    promotion: None,
                    ..n.clone()
                });
                if (relaxed.resolve(pos).is_ok() || n.piece.is_none()) && !pos.promotions().contains(&r) {
                    return Reason::Illegal(chess5d_rules::IllegalMove::BadPromotion(r));
                }
            }
        }
        let who = match pos.to_move() {
            Color::White => "white",
            Color::Black => "black",
        };
        let what = match self {
            SanMove::Castle {
                side: Castle::Short, ..
            } => format!("{who} cannot castle short (O-O) here"),
            SanMove::Castle { side: Castle::Long, .. } => format!("{who} cannot castle long (O-O-O) here"),
            SanMove::Normal(n) => {
                let piece = n.piece.unwrap_or(Role::Pawn);
                let dest = match n.to_board {
                    Some(b) => format!("{b}{}", n.to),
                    None => n.to.to_string(),
                };
                format!("no {who} {piece} can move to {dest}")
            }
            SanMove::Null { .. } => "a null move cannot be played".to_string(),
        };
        let on = from_board
            .map(|b| format!(" from board {}", board_name(b, even)))
            .unwrap_or_default();
        Reason::NoMatch(format!("{what}{on}"))
    }
}

impl NormalSan {
    /// The destination board, if written (absolute, or relative to the source board).
    fn destination(&self, from_board: Option<BoardId>, pos: &Position) -> Option<BoardId> {
        match (self.to_board, self.to_relative, from_board) {
            (Some(b), _, _) => b.id(pos),
            (None, Some(r), Some(fb)) => Some(BoardId::new(
                fb.l.saturating_add(r.timelines),
                fb.t.saturating_add(2 * r.turns),
            )),
            _ => None,
        }
    }

    /// The playable moves this text may stand for, of the likeliest piece that has any.
    fn candidates(
        &self,
        moves: &[Move],
        from_board: Option<BoardId>,
        to_board: Option<BoardId>,
        pos: &Position,
    ) -> Vec<Move> {
        let base: Vec<Move> = moves
            .iter()
            .filter(|m| from_board.is_none_or(|b| m.from.board == b))
            .filter(|m| m.to.square == self.to)
            .filter(|m| match to_board {
                Some(b) => m.to.board == b,
                None => !m.is_jump(),
            })
            .filter(|m| self.jump.is_none() || m.is_jump())
            .filter(|m| self.from_file.is_none_or(|f| m.from.square.x() == f as i32))
            .filter(|m| self.from_rank.is_none_or(|r| m.from.square.y() == r as i32))
            .filter(|m| match self.promotion {
                Some(r) => m.promotion == Some(r),
                None => m.promotion.is_none() || m.promotion == pos.promotions().first().copied(),
            })
            .copied()
            .collect();
        // The roles a letter may stand for, most likely first: no letter is a pawn (or a
        // brawn); 5d-chess-js writes the princess `P`.
        // A move written with both full squares and no letter (the long form inside a
        // 5DPGN file) names its piece by its square.
        let full_source = self.from_file.is_some() && self.from_rank.is_some();
        let roles: Vec<Role> = match self.piece {
            None if full_source => Role::ALL.to_vec(),
            None => vec![Role::Pawn, Role::Brawn],
            Some(Role::Pawn) => vec![Role::Pawn, Role::Brawn, Role::Princess],
            Some(r) => vec![r],
        };
        roles
            .iter()
            .map(|&role| {
                base.iter()
                    .filter(|m| m.piece.role() == role)
                    .copied()
                    .collect::<Vec<_>>()
            })
            .find(|c| !c.is_empty())
            .unwrap_or_default()
    }

    /// The rules' reason a fully written move (source board and square) is not legal.
    fn illegal(&self, pos: &Position, fb: BoardId) -> Option<chess5d_rules::IllegalMove> {
        let (f, r) = (self.from_file?, self.from_rank?);
        let from_sq = Square::try_new(f as i32, r as i32)?;
        let to_board = self.destination(Some(fb), pos).unwrap_or(fb);
        let from = chess5d_rules::Coord {
            board: fb,
            square: from_sq,
        };
        let to = chess5d_rules::Coord {
            board: to_board,
            square: self.to,
        };
        pos.find_move(from, to, self.promotion).err()
    }
}

impl Suffix {
    fn parse(s: &mut Scanner) -> Suffix {
        let mut suffix = Suffix::default();
        while let Some(c) = s.peek() {
            match c {
                '+' => suffix.check = true,
                '*' => suffix.softmate = true,
                '#' => suffix.mate = true,
                '~' => suffix.present_moved = true,
                '!' | '?' => suffix.annotation.push(c),
                _ => {
                    if s.eat_str("e.p.") {
                        continue;
                    }
                    break;
                }
            }
            s.bump();
        }
        suffix
    }
}

impl fmt::Display for Suffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mate {
            f.write_str("#")?;
        } else if self.softmate {
            f.write_str("*")?;
        } else if self.check {
            f.write_str("+")?;
        }
        if self.present_moved {
            f.write_str("~")?;
        }
        f.write_str(&self.annotation)
    }
}

/// Whether a move is written `O-O`/`O-O-O`: a castling king starting on e1 or e8.
fn writes_castle(mv: &Move) -> Option<Castle> {
    if !matches!(mv.kind, MoveKind::Castle { .. }) {
        return None;
    }
    let from = mv.from.square;
    if from.x() != 4 || !(from.y() == 0 || from.y() == 7) {
        return None;
    }
    Some(if mv.to.square.x() > from.x() {
        Castle::Short
    } else {
        Castle::Long
    })
}

/// Writes a move in canonical 5DPGN SAN for the position it is played from: board prefix if
/// `prefix` (always for jumps), minimal disambiguation, `x`, `>`/`>>`, `=X`. No suffix.
pub fn write(pos: &Position, mv: &Move, prefix: bool) -> String {
    let even = pos.even();
    let mut out = String::new();
    if prefix || mv.is_jump() {
        out.push_str(&board_name(mv.from.board, even));
    }
    match writes_castle(mv) {
        Some(Castle::Short) => {
            out.push_str("O-O");
            return out;
        }
        Some(Castle::Long) => {
            out.push_str("O-O-O");
            return out;
        }
        None => {}
    }
    let role = mv.piece.role();
    if mv.is_jump() {
        out.push(role.letter());
        out.push_str(&mv.from.square.to_string());
        let hop = pos.timeline_end(mv.to.board.l) == Some(mv.to.board.t);
        out.push_str(if hop { ">" } else { ">>" });
        if mv.is_capture() {
            out.push('x');
        }
        out.push_str(&board_name(mv.to.board, even));
    } else {
        if role != Role::Pawn {
            out.push(role.letter());
        }
        if matches!(mv.kind, MoveKind::Castle { .. }) {
            // A castling king not on e1/e8: the long form `Kd1f1`.
            out.push_str(&mv.from.square.to_string());
        } else {
            out.push_str(&disambiguation(pos, mv));
        }
        if mv.is_capture() {
            out.push('x');
        }
    }
    out.push_str(&mv.to.square.to_string());
    if let Some(r) = mv.promotion {
        out.push('=');
        out.push(r.letter());
    }
    out
}

/// The minimal source hint: none, file, rank or square; pawn captures always give the file.
fn disambiguation(pos: &Position, mv: &Move) -> String {
    let role = mv.piece.role();
    let mut others = Vec::new();
    pos.moves_from(mv.from.board, &mut others);
    let rivals: Vec<&Move> = others
        .iter()
        .filter(|o| o.from != mv.from && o.to == mv.to && o.piece.role() == role && !o.is_jump())
        .collect();
    let file = (b'a' + mv.from.square.x() as u8) as char;
    let rank = mv.from.square.y() + 1;
    let pawn_capture = role.is_pawnlike() && mv.from.square.x() != mv.to.square.x();
    if rivals.is_empty() {
        return if pawn_capture { file.to_string() } else { String::new() };
    }
    if rivals.iter().all(|o| o.from.square.x() != mv.from.square.x()) {
        file.to_string()
    } else if !pawn_capture && rivals.iter().all(|o| o.from.square.y() != mv.from.square.y()) {
        rank.to_string()
    } else {
        format!("{file}{rank}")
    }
}

/// Reads a single move from a whole string.
impl std::str::FromStr for SanMove {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<SanMove, ParseError> {
        let mut s = Scanner::new(text);
        let mv = SanMove::parse(&mut s)?;
        if !s.at_end() {
            return Err(s.error("the end of the move"));
        }
        Ok(mv)
    }
}
