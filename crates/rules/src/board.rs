//! One board of the multiverse: a mailbox of 64 squares plus occupancy masks.

use crate::types::{Color, Piece, Role, Size, Square};
use std::fmt;

/// Per-(square, piece code) random keys for board hashes.
pub(crate) static ZOBRIST: [[u64; 64]; 64] = zobrist_table();

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn zobrist_table() -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut code = 0;
        while code < 64 {
            t[sq][code] = splitmix((sq * 64 + code) as u64 * 0x1234_5677 + 17);
            code += 1;
        }
        sq += 1;
    }
    t
}

/// Mixes a board hash with its place in the multiverse.
#[inline]
pub(crate) fn place_hash(board_hash: u64, l: i32, t: i32) -> u64 {
    splitmix(board_hash ^ splitmix(((l as i64 as u64) << 32) ^ (t as u32 as u64)))
}

/// One board: what stands on each square, at one time on one timeline.
///
/// Boards never change once they are part of a multiverse: every move makes new ones.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    squares: [Option<Piece>; 64],
    by_color: [u64; 2],
    royals: [u64; 2],
    /// En passant: the square a pawn skipped and the square of that pawn, if the move that made
    /// this board was a double step along y.
    ep: Option<(Square, Square)>,
    hash: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    /// A board with no pieces.
    pub fn empty() -> Board {
        Board {
            squares: [None; 64],
            by_color: [0; 2],
            royals: [0; 2],
            ep: None,
            hash: 0,
        }
    }

    /// The piece on a square.
    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Puts a piece on a square (or clears it), keeping masks and hash up to date.
    #[inline]
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let i = sq.index();
        if let Some(old) = self.squares[i] {
            self.by_color[old.color().index()] &= !(1u64 << i);
            self.royals[old.color().index()] &= !(1u64 << i);
            self.hash ^= ZOBRIST[i][old.code() as usize & 63];
        }
        if let Some(new) = piece {
            self.by_color[new.color().index()] |= 1u64 << i;
            if new.role().is_royal() {
                self.royals[new.color().index()] |= 1u64 << i;
            }
            self.hash ^= ZOBRIST[i][new.code() as usize & 63];
        }
        self.squares[i] = piece;
    }

    /// Squares occupied by a colour, as a bit mask over `Square::index`.
    #[inline]
    pub fn occupied_by(&self, color: Color) -> u64 {
        self.by_color[color.index()]
    }

    /// Squares of the royal pieces (kings, royal queens) of a colour.
    #[inline]
    pub fn royals(&self, color: Color) -> u64 {
        self.royals[color.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// The pieces of the board with their squares.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        BitIter(self.occupied()).map(move |i| (Square::from_index(i), self.squares[i].expect("mask")))
    }

    /// The en passant information `(skipped square, pawn square)`, if any.
    #[inline]
    pub fn en_passant(&self) -> Option<(Square, Square)> {
        self.ep
    }

    /// Sets the en passant information.
    #[inline]
    pub fn set_en_passant(&mut self, ep: Option<(Square, Square)>) {
        self.ep = ep;
    }

    /// A hash of the pieces (not of the en passant state).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether a royal piece of `color` stands on the board.
    pub fn has_royal(&self, color: Color) -> bool {
        self.royals[color.index()] != 0
    }

    /// The piece placement in 5DFEN (ranks from the top, `*` on unmoved pawns, brawns, kings
    /// and rooks), for a board of the given size.
    pub fn fen(&self, size: Size) -> String {
        let mut out = String::new();
        for y in (0..size.height).rev() {
            let mut empty = 0;
            for x in 0..size.width {
                match self.get(Square::new(x, y)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(p.fen_char());
                        if p.unmoved() && matches!(p.role(), Role::Pawn | Role::Brawn | Role::King | Role::Rook) {
                            out.push('*');
                        }
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if y > 0 {
                out.push('/');
            }
        }
        out
    }

    /// Reads a 5DFEN piece placement for a board of the given size.
    ///
    /// Returns the byte offset and a message on error. Unmoved flags are taken from `*` only.
    pub fn from_fen(s: &str, size: Size) -> Result<Board, (usize, String)> {
        let mut board = Board::empty();
        let ranks: Vec<&str> = s.split('/').collect();
        if ranks.len() != size.height as usize {
            return Err((
                0,
                format!(
                    "expected {} ranks for a {} board, found {}",
                    size.height,
                    size,
                    ranks.len()
                ),
            ));
        }
        let mut offset = 0;
        for (i, rank) in ranks.iter().enumerate() {
            let y = size.height as i32 - 1 - i as i32;
            let mut x: i32 = 0;
            let bytes = rank.as_bytes();
            let mut j = 0;
            while j < bytes.len() {
                let c = bytes[j] as char;
                if c.is_ascii_digit() {
                    let start = j;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    let n: i32 = rank[start..j]
                        .parse()
                        .map_err(|_| (offset + start, "bad number".to_string()))?;
                    x += n;
                    if x > size.width as i32 {
                        return Err((offset + start, format!("rank {} is wider than {}", y + 1, size.width)));
                    }
                    continue;
                }
                if c == '+' {
                    j += 1;
                    continue;
                }
                let role = Role::from_letter(c).ok_or_else(|| (offset + j, format!("unknown piece letter '{c}'")))?;
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                j += 1;
                let mut unmoved = false;
                if j < bytes.len() && bytes[j] == b'*' {
                    unmoved = true;
                    j += 1;
                }
                if x >= size.width as i32 {
                    return Err((offset + j - 1, format!("rank {} is wider than {}", y + 1, size.width)));
                }
                board.set(Square::new(x as u8, y as u8), Some(Piece::new(role, color, unmoved)));
                x += 1;
            }
            if x != size.width as i32 {
                return Err((
                    offset,
                    format!("rank {} has {} squares, expected {}", y + 1, x, size.width),
                ));
            }
            offset += rank.len() + 1;
        }
        Ok(board)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.fen(Size::STANDARD))
    }
}

/// Iterates over the set bits of a mask, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter(pub u64);

impl Iterator for BitIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}
