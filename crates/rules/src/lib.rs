//! The rules of *5D Chess With Multiverse Time Travel*.
//!
//! A [`Position`] is a multiverse of timelines of [`Board`]s. Each player, in turn, plays an
//! *action*: one or more [`Move`]s on the boards they may play, then a submit. This crate
//! generates moves through time and timelines, tells when a player is in check, and decides
//! checkmate and stalemate by a search that either proves its answer or says it ran out of
//! [`Budget`].
//!
//! ```
//! use chess5d_rules::{Position, Outcome, Budget, Variant};
//!
//! let mut pos = Position::standard();
//! assert_eq!(pos.present_moves().len(), 20);
//! // 1. e4: play the move, then submit the action.
//! let e4 = pos.present_moves().into_iter().find(|m| m.long(false) == "(0T1)e2(0T1)e4").unwrap();
//! pos.play(&e4).unwrap();
//! pos.submit().unwrap();
//! assert!(!pos.in_check());
//! assert!(matches!(pos.outcome(Budget::DEFAULT), Outcome::Ongoing(_)));
//!
//! let tz = Variant::by_name("standard - turn zero").unwrap().position();
//! assert_eq!(tz.timeline_count(), 1);
//! ```
//!
//! # Impossible positions
//!
//! A plain [`Setup`] becomes a [`Position`] only through [`Position::from_setup`], which refuses,
//! besides malformed setups, what no game can reach, naming the rule and the place:
//!
//! - **A royal piece the side to move can capture** (on any board, by any move through time or
//!   across timelines): the other side's last action would have left it in check, which no
//!   action may. `the black king on (0T1)a8 can be captured by the side to move: (0T1)a1`.
//! - **A pawn or brawn on the rank where it promotes** (White's last rank, Black's first): it
//!   would have promoted. Its own first rank is allowed: official variants start pawns there.
//!
//! These two hold with or without royal pieces on the board.
//!
//! ```
//! use chess5d_rules::{Board, BoardId, Position, Role, Setup, SetupError, Size};
//!
//! let size = Size::new(8, 8).unwrap();
//! // Black's king on the rook's file, White to move.
//! let board = Board::from_fen("k7/8/8/8/8/8/8/R3K3", size).unwrap();
//! let setup = Setup { size, even: false, boards: vec![(BoardId::new(0, 2), board)], promotions: vec![Role::Queen] };
//! let err = Position::from_setup(setup).unwrap_err();
//! assert_eq!(err.to_string(), "the black king on (0T1)a8 can be captured by the side to move: (0T1)a1");
//! assert!(matches!(err, SetupError::RoyalCapturable { .. }));
//! ```
//!
//! # Positions without a royal piece
//!
//! A side may have no royal piece (king or royal queen) on any board: teaching positions (a few
//! brawns on a 4x4 board, one piece alone to show how it moves) and puzzles have none, and
//! 5d-chess-js 1.2.1 accepts them. The rules of check and mate (rules.md, section 5) then read
//! as follows, and [`Position::from_setup`] accepts such setups for every door:
//!
//! - Check is the threat to capture a royal piece, so **a side without a royal piece is never in
//!   check** ([`Position::in_check`] is false), no action of it is illegal for exposing a royal
//!   piece, and **it cannot be checkmated**.
//! - "A player with no legal action is checkmated if in check and stalemated otherwise": a side
//!   without a royal piece that has **no legal action** (no piece left, or every piece blocked,
//!   or an empty board it must play on) **is stalemated**, a draw.
//! - The other side is checked and mated as usual, if it has a royal piece.
//!
//! ```
//! use chess5d_rules::{Board, Budget, Outcome, Position, Setup, Size};
//!
//! // Four brawns each on a 4x4 board: eight legal actions, nobody ever in check.
//! let size = Size::new(4, 4).unwrap();
//! let board = Board::from_fen("w*w*w*w*/4/4/W*W*W*W*", size).unwrap();
//! let pos = Position::from_setup(Setup::single(size, board)).unwrap();
//! assert!(!pos.in_check());
//! assert_eq!(pos.legal_actions(Budget::DEFAULT).count(), 8);
//!
//! // A lone white knight: once it has moved, Black, with no piece, is stalemated.
//! let size = Size::new(5, 5).unwrap();
//! let board = Board::from_fen("5/5/2N2/5/5", size).unwrap();
//! let mut pos = Position::from_setup(Setup::single(size, board)).unwrap();
//! let Outcome::Ongoing(action) = pos.outcome(Budget::DEFAULT) else { panic!() };
//! for mv in &action {
//!     pos.play(mv).unwrap();
//! }
//! pos.submit().unwrap();
//! assert_eq!(pos.outcome(Budget::DEFAULT), Outcome::Stalemate);
//! ```
#![deny(missing_docs)]

mod board;
mod dirs;
mod error;
mod game;
mod movegen;
mod moves;
mod position;
mod search;
mod tables;
mod types;
mod variants;

pub use board::{BitIter, Board};
pub use error::{IllegalMove, SetupError, SubmitError};
pub use game::{ActionError, Game};
pub use movegen::Attack;
pub use moves::{Action, Move, MoveKind};
pub use position::{Position, Setup, SubmitTest};
pub use search::{ActionCount, Budget, Convention, LegalActions, Outcome};
pub use types::{
    parse_timeline, timeline_index, timeline_label, timeline_sign, BoardId, Color, Coord, Piece, Role, Size, Square,
};
pub use variants::{Variant, VARIANTS};

impl Position {
    /// The legal actions of the side to move, lazily, each resulting position once
    /// ([`Convention::DistinctPositions`]).
    pub fn legal_actions(&self, budget: Budget) -> LegalActions {
        LegalActions::new(self, budget)
    }

    /// The legal actions of the side to move, lazily, as `convention` counts them: with
    /// [`Convention::Orderings`] the orders of new timelines that reach one position come out
    /// once each.
    pub fn legal_actions_by(&self, budget: Budget, convention: Convention) -> LegalActions {
        LegalActions::with_convention(self, budget, convention)
    }

    /// Whether the side to move has a legal action, and if not whether it is mated.
    pub fn outcome(&self, budget: Budget) -> Outcome {
        let mut it = LegalActions::new(self, budget);
        match it.next() {
            Some(a) => Outcome::Ongoing(a),
            None if it.exhausted() => Outcome::Unknown,
            None if self.in_check() => Outcome::Checkmate,
            None => Outcome::Stalemate,
        }
    }

    /// Counts the legal actions, stopping at `cap`, as the other implementations count them
    /// ([`Convention::Orderings`]).
    pub fn count_actions(&self, cap: u64, budget: Budget) -> ActionCount {
        self.count_actions_by(cap, budget, Convention::default())
    }

    /// Counts the legal actions as `convention` says, stopping at `cap`.
    pub fn count_actions_by(&self, cap: u64, budget: Budget, convention: Convention) -> ActionCount {
        let mut it = LegalActions::with_convention(self, budget, convention);
        let n = it.count_up_to(cap);
        if n == cap {
            ActionCount::AtLeast(n)
        } else if it.exhausted() {
            ActionCount::Unknown(n)
        } else {
            ActionCount::Exact(n)
        }
    }

    /// The number of legal action sequences of `depth` actions, each action counted as the
    /// other implementations count it ([`Convention::Orderings`]); `None` if a budget ran out.
    pub fn perft(&self, depth: u32, budget: Budget) -> Option<u64> {
        self.perft_by(depth, budget, Convention::default())
    }

    /// The number of legal action sequences of `depth` actions, each action counted as
    /// `convention` says (`None` if a budget ran out).
    pub fn perft_by(&self, depth: u32, budget: Budget, convention: Convention) -> Option<u64> {
        self.clone().perft_in_place(depth, budget, convention)
    }

    fn perft_in_place(&mut self, depth: u32, budget: Budget, convention: Convention) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        let mut it = LegalActions::with_convention(self, budget, convention);
        if depth == 1 {
            let n = it.count_up_to(u64::MAX);
            return (!it.exhausted()).then_some(n);
        }
        let mut total = 0;
        for action in it.by_ref() {
            for m in &action {
                self.play_unchecked(m);
            }
            let submitted = self.submit_for_take_back();
            let sub = self.perft_in_place(depth - 1, budget, convention);
            self.take_back(submitted);
            total += sub?;
        }
        if it.exhausted() {
            return None;
        }
        Some(total)
    }
}
