//! Moves and actions.

use crate::types::{timeline_label, Coord, Piece, Role, Square};
use std::fmt;

/// What kind of move a move is, beyond source and destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move within one board.
    Normal,
    /// A pawn or brawn moving two squares along y (allows en passant next half-turn).
    DoubleStep,
    /// A pawn or brawn capturing en passant.
    EnPassant,
    /// Castling, described by the king's move; the rook moves too.
    Castle {
        /// Where the rook starts.
        rook_from: Square,
        /// Where the rook ends.
        rook_to: Square,
    },
    /// A jump onto another timeline's playable board (`>` in 5DPGN).
    Hop,
    /// A jump onto a past board, creating a new timeline (`>>` in 5DPGN).
    Branch,
}

/// One move of one piece: from a square of a playable board to a square of an existing board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece starts.
    pub from: Coord,
    /// Where the piece lands: a square of the board it moves onto.
    pub to: Coord,
    /// The piece, as it stood before moving.
    pub piece: Piece,
    /// The piece captured, if any (the pawn taken en passant included).
    pub captured: Option<Piece>,
    /// The role a pawn or brawn promotes to.
    pub promotion: Option<Role>,
    /// The kind of move.
    pub kind: MoveKind,
}

impl Move {
    /// The piece the move puts down where it lands (promoted, and marked as moved).
    pub fn placed(&self) -> Piece {
        match self.promotion {
            Some(r) => Piece::new(r, self.piece.color(), false),
            None => self.piece.moved(),
        }
    }

    /// Whether the piece leaves its board (a hop or a branch).
    #[inline]
    pub fn is_jump(&self) -> bool {
        self.from.board != self.to.board
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.captured.is_some()
    }

    /// Whether two moves are the same move: same squares, same promotion.
    #[inline]
    pub fn same(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.promotion == other.promotion
    }

    /// The long coordinate form, e.g. `(0T1)e2(0T1)e4`, `(0T9)g7(0T9)g8=Q`: the one writer of
    /// it (notation's `long` module and 5DUCI's text write through [`Move::long_as`]).
    pub fn long(&self, even: bool) -> String {
        self.long_as(even, true)
    }

    /// The long coordinate form with the promotion letter after `=` (notation.md §4:
    /// `(0T9)g7(0T9)g8=Q`) or, `promotion_sign` false, without (the 5DUCI draft: `g8Q`, whose
    /// timeline numbers are the labels of an odd game, `even` false).
    pub fn long_as(&self, even: bool, promotion_sign: bool) -> String {
        let mut s = format!("{}{}", place(self.from, even), place(self.to, even));
        if let Some(r) = self.promotion {
            if promotion_sign {
                s.push('=');
            }
            s.push(r.letter());
        }
        s
    }

    /// A sentence describing the move, e.g. "white knight from (0T2)b1 to (0T1)b3, creating a
    /// timeline".
    pub fn describe(&self, even: bool) -> String {
        let mut s = format!(
            "{} {} from {} to {}",
            self.piece.color(),
            self.piece.role(),
            place(self.from, even),
            place(self.to, even)
        );
        if let Some(c) = self.captured {
            s.push_str(&format!(", capturing a {}", c.role()));
        }
        if let Some(r) = self.promotion {
            s.push_str(&format!(", promoting to a {r}"));
        }
        match self.kind {
            MoveKind::Castle { .. } => s.push_str(", castling"),
            MoveKind::EnPassant => s.push_str(", en passant"),
            MoveKind::Hop => s.push_str(", onto another timeline"),
            MoveKind::Branch => s.push_str(", creating a timeline"),
            _ => {}
        }
        s
    }
}

/// A square of a board as written in notation, e.g. `(-1T4)e5`.
fn place(c: Coord, even: bool) -> String {
    format!("({}T{}){}", timeline_label(c.board.l, even), c.board.turn(), c.square)
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.long(false))
    }
}

/// One player's whole submission: the moves played between two submits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Action {
    /// The moves, in the order they were played.
    pub moves: Vec<Move>,
}

impl Action {
    /// An action of these moves.
    pub fn new(moves: Vec<Move>) -> Action {
        Action { moves }
    }

    /// The moves in long form, separated by spaces.
    pub fn long(&self, even: bool) -> String {
        self.moves.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" ")
    }
}
