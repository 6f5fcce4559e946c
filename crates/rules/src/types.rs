//! Small domain nouns: colours, roles, pieces, squares, board sizes and coordinates.

use std::fmt;
use std::num::NonZeroU8;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; its pawns go up the board and toward lower timelines.
    White = 0,
    /// Moves second; its pawns go down the board and toward higher timelines.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other player.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour of the board at half-turn `t` (even: White, odd: Black).
    #[inline]
    pub fn of_time(t: i32) -> Color {
        if t.rem_euclid(2) == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// `w` or `b`, as in 5DFEN.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `white` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece, independent of its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// Steps forward along y or L, captures diagonally (x+y or L+T).
    Pawn = 1,
    /// Two along one axis and one along another.
    Knight = 2,
    /// Any distance along exactly two axes equally.
    Bishop = 3,
    /// Any distance along exactly one axis.
    Rook = 4,
    /// Any distance along any number of axes equally.
    Queen = 5,
    /// One step along any number of axes; royal.
    King = 6,
    /// Any distance along exactly three axes equally.
    Unicorn = 7,
    /// Any distance along all four axes equally.
    Dragon = 8,
    /// Rook and bishop combined.
    Princess = 9,
    /// A pawn with extra captures.
    Brawn = 10,
    /// Moves like a king but is not royal and never castles.
    CommonKing = 11,
    /// Moves like a queen and is royal.
    RoyalQueen = 12,
}

impl Role {
    /// Every role, in code order.
    pub const ALL: [Role; 12] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Unicorn,
        Role::Dragon,
        Role::Princess,
        Role::Brawn,
        Role::CommonKing,
        Role::RoyalQueen,
    ];

    /// The upper-case letter of 5DPGN and 5DFEN (`P N B R Q K U D S W C Y`).
    pub fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
            Role::Unicorn => 'U',
            Role::Dragon => 'D',
            Role::Princess => 'S',
            Role::Brawn => 'W',
            Role::CommonKing => 'C',
            Role::RoyalQueen => 'Y',
        }
    }

    /// The role of a letter, either case.
    pub fn from_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            'U' => Role::Unicorn,
            'D' => Role::Dragon,
            'S' => Role::Princess,
            'W' => Role::Brawn,
            'C' => Role::CommonKing,
            'Y' => Role::RoyalQueen,
            _ => return None,
        })
    }

    /// The English name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Unicorn => "unicorn",
            Role::Dragon => "dragon",
            Role::Princess => "princess",
            Role::Brawn => "brawn",
            Role::CommonKing => "common king",
            Role::RoyalQueen => "royal queen",
        }
    }

    /// Whether losing this piece loses the game (king, royal queen).
    #[inline]
    pub fn is_royal(self) -> bool {
        matches!(self, Role::King | Role::RoyalQueen)
    }

    /// Whether the piece moves like a pawn (pawn, brawn).
    #[inline]
    pub fn is_pawnlike(self) -> bool {
        matches!(self, Role::Pawn | Role::Brawn)
    }

    fn from_code(code: u8) -> Role {
        Role::ALL[(code - 1) as usize]
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const COLOR_BIT: u8 = 0x10;
const UNMOVED_BIT: u8 = 0x20;
const ROLE_MASK: u8 = 0x0f;

/// A piece: role, colour and the "unmoved" flag, packed in one byte.
///
/// `Option<Piece>` is one byte too, which keeps boards small.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// A piece of this role and colour; `unmoved` matters for pawns, brawns, kings and rooks.
    #[inline]
    pub fn new(role: Role, color: Color, unmoved: bool) -> Piece {
        let mut code = role as u8;
        if color == Color::Black {
            code |= COLOR_BIT;
        }
        if unmoved {
            code |= UNMOVED_BIT;
        }
        Piece(NonZeroU8::new(code).expect("role codes start at 1"))
    }

    /// The role.
    #[inline]
    pub fn role(self) -> Role {
        Role::from_code(self.0.get() & ROLE_MASK)
    }

    /// The colour.
    #[inline]
    pub fn color(self) -> Color {
        if self.0.get() & COLOR_BIT != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Whether the piece has never moved (`*` in 5DFEN).
    #[inline]
    pub fn unmoved(self) -> bool {
        self.0.get() & UNMOVED_BIT != 0
    }

    /// The same piece with the unmoved flag cleared.
    #[inline]
    pub fn moved(self) -> Piece {
        Piece(NonZeroU8::new(self.0.get() & !UNMOVED_BIT).expect("role bits kept"))
    }

    /// The same piece with the unmoved flag set.
    #[inline]
    pub fn with_unmoved(self, unmoved: bool) -> Piece {
        if unmoved {
            Piece(NonZeroU8::new(self.0.get() | UNMOVED_BIT).expect("nonzero"))
        } else {
            self.moved()
        }
    }

    /// Whether this is a royal piece of the given colour.
    #[inline]
    pub fn is_royal_of(self, color: Color) -> bool {
        self.color() == color && self.role().is_royal()
    }

    /// The byte encoding (role code, colour bit 0x10, unmoved bit 0x20); used for hashing.
    #[inline]
    pub fn code(self) -> u8 {
        self.0.get()
    }

    /// The 5DFEN letter: upper case for White, lower case for Black (no `*`).
    pub fn fen_char(self) -> char {
        let c = self.role().letter();
        match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())?;
        if self.unmoved() {
            f.write_str("*")?;
        }
        Ok(())
    }
}

/// The size of every board of a game, from 1x1 to 8x8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    /// Number of files (x), 1 to 8.
    pub width: u8,
    /// Number of ranks (y), 1 to 8.
    pub height: u8,
}

impl Size {
    /// The standard 8x8 size.
    pub const STANDARD: Size = Size { width: 8, height: 8 };

    /// The squares of a board of this size, as a mask over square indices (`y * 8 + x`).
    #[inline]
    pub fn area(self) -> u64 {
        let row: u64 = if self.width >= 8 { 0xff } else { (1 << self.width) - 1 };
        let rows: u64 = if self.height >= 8 {
            !0
        } else {
            (1 << (8 * self.height)) - 1
        };
        (row * 0x0101_0101_0101_0101) & rows
    }

    /// A size, if both sides are within 1..=8.
    pub fn new(width: u8, height: u8) -> Option<Size> {
        ((1..=8).contains(&width) && (1..=8).contains(&height)).then_some(Size { width, height })
    }

    /// Whether file `x` and rank `y` (0-based) are on the board.
    #[inline]
    pub fn contains(self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width as i32 && y < self.height as i32
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// A square of a board: file `x` and rank `y`, 0-based, stored as `y * 8 + x`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at file `x` (0 = `a`) and rank `y` (0 = rank 1); both must be below 8.
    #[inline]
    pub fn new(x: u8, y: u8) -> Square {
        debug_assert!(x < 8 && y < 8);
        Square(y * 8 + x)
    }

    /// The square at `x`, `y` if both are within 0..8.
    #[inline]
    pub fn try_new(x: i32, y: i32) -> Option<Square> {
        ((0..8).contains(&x) && (0..8).contains(&y)).then(|| Square((y * 8 + x) as u8))
    }

    /// The square with index `y * 8 + x`.
    #[inline]
    pub fn from_index(i: usize) -> Square {
        debug_assert!(i < 64);
        Square(i as u8)
    }

    /// `y * 8 + x`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 = `a`.
    #[inline]
    pub fn x(self) -> i32 {
        (self.0 & 7) as i32
    }

    /// The rank, 0 = rank 1.
    #[inline]
    pub fn y(self) -> i32 {
        (self.0 >> 3) as i32
    }

    /// Parses `e4`-style names.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Some(Square::new(b[0] - b'a', b[1] - b'1'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x() as u8) as char, self.y() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Which board: timeline index `l` and half-turn `t`.
///
/// `l` is the internal timeline index: in games with an odd number of starting timelines it is
/// the timeline number itself; with an even number, `+0` is 0, `-0` is -1 and Black's `-n` is
/// `-n-1` (the numbering of the 5DUCI draft). `t = 2 * turn + (0 for White, 1 for Black)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardId {
    /// Internal timeline index.
    pub l: i32,
    /// Half-turn index.
    pub t: i32,
}

impl BoardId {
    /// A board id.
    #[inline]
    pub fn new(l: i32, t: i32) -> BoardId {
        BoardId { l, t }
    }

    /// The turn number as displayed (`t / 2`, rounded down).
    #[inline]
    pub fn turn(self) -> i32 {
        self.t.div_euclid(2)
    }

    /// Whose turn it is on this board.
    #[inline]
    pub fn color(self) -> Color {
        Color::of_time(self.t)
    }
}

/// A square on a given board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    /// The board.
    pub board: BoardId,
    /// The square on it.
    pub square: Square,
}

impl Coord {
    /// A coordinate.
    #[inline]
    pub fn new(l: i32, t: i32, square: Square) -> Coord {
        Coord {
            board: BoardId { l, t },
            square,
        }
    }
}

/// How a timeline index is written: `0`, `1`, `-1`, or `-0`, `+0`, `+1`, `-1` in games that
/// start with an even number of timelines.
pub fn timeline_label(l: i32, even: bool) -> String {
    match timeline_sign(l, even) {
        (Some(sign), n) => format!("{sign}{n}"),
        (None, n) => format!("{n}"),
    }
}

/// The sign (`+`, `-` or none) and the number a timeline index is written with: the one home of
/// the labels' arithmetic ([`timeline_label`], [`parse_timeline`] and notation's `Timeline`).
pub fn timeline_sign(l: i32, even: bool) -> (Option<char>, u32) {
    match (even, l >= 0) {
        (true, true) => (Some('+'), l as u32),
        (true, false) => (Some('-'), (-(l + 1)) as u32),
        (false, true) => (None, l as u32),
        (false, false) => (Some('-'), l.unsigned_abs()),
    }
}

/// The internal index of the timeline written with this sign and number (`-0` is the first
/// black timeline of an even game, the same as `0` in an odd one).
pub fn timeline_index(negative: bool, number: i32, even: bool) -> i32 {
    match (even, negative) {
        (true, true) => -number - 1,
        (_, true) => -number,
        (_, false) => number,
    }
}

/// Reads a timeline label (`0`, `+1`, `-2`, `-0`, `+0`) into an internal index.
///
/// `-0` and `+0` only exist in even games; in odd games they are read as `0`.
pub fn parse_timeline(s: &str, even: bool) -> Option<i32> {
    let (neg, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i32 = digits.parse().ok()?;
    Some(timeline_index(neg, n, even))
}
