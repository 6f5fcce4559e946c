//! A game: a starting position, the actions played, and the action being built.

use crate::error::{IllegalMove, SubmitError};
use crate::moves::{Action, Move};
use crate::position::Position;
use crate::search::{Budget, LegalActions, Outcome};
use crate::types::Color;
use std::fmt;

/// Why a whole action cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// Move number `index` (0-based) of the action is illegal.
    Move {
        /// Which move of the action.
        index: usize,
        /// Why.
        error: IllegalMove,
    },
    /// The moves were played but cannot be submitted.
    Submit(SubmitError),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::Move { index, error } => write!(f, "move {} of the action: {error}", index + 1),
            ActionError::Submit(e) => write!(f, "cannot submit: {e}"),
        }
    }
}

impl std::error::Error for ActionError {}

/// A game in progress: make moves, undo them, submit, ask for the outcome.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    actions: Vec<Action>,
    /// Which actions ended with a pass ([`Game::pass`]), by index.
    passes: Vec<bool>,
}

impl Game {
    /// A game from a starting position.
    pub fn new(start: Position) -> Game {
        Game {
            pos: start.clone(),
            start,
            actions: Vec::new(),
            passes: Vec::new(),
        }
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position, including the moves of the action being built.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The submitted actions.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The player whose action is being built.
    pub fn to_move(&self) -> Color {
        self.pos.to_move()
    }

    /// Plays one move of the current action (checked to be pseudo-legal).
    pub fn make_move(&mut self, mv: &Move) -> Result<Move, IllegalMove> {
        self.pos.play(mv)
    }

    /// Takes back the last move of the current action.
    pub fn undo_move(&mut self) -> Option<Move> {
        self.pos.undo_move()
    }

    /// The moves of the action being built.
    pub fn pending_moves(&self) -> Vec<Move> {
        self.pos.action_moves().copied().collect()
    }

    /// Submits the current action.
    pub fn submit(&mut self) -> Result<(), SubmitError> {
        let moves = self.pos.submit()?;
        self.actions.push(Action::new(moves));
        self.passes.push(false);
        Ok(())
    }

    /// Ends the current action with a pass (see [`Position::pass`]): not a move of the game,
    /// but engines and the 5d-chess-js API use it.
    pub fn pass(&mut self) -> Result<(), SubmitError> {
        let moves = self.pos.pass()?;
        self.actions.push(Action::new(moves));
        self.passes.push(true);
        Ok(())
    }

    /// Whether submitted action `index` ended with a pass: replaying it means playing its
    /// moves, then [`Position::pass_unchecked`] instead of [`Position::submit_unchecked`].
    pub fn is_pass(&self, index: usize) -> bool {
        self.passes.get(index).copied().unwrap_or(false)
    }

    /// Whether any submitted action ended with a pass.
    pub fn has_pass(&self) -> bool {
        self.passes.contains(&true)
    }

    /// Plays and submits a whole action; on error the game is left as it was.
    pub fn play_action(&mut self, moves: &[Move]) -> Result<(), ActionError> {
        let before = self.pos.action_len();
        for (index, mv) in moves.iter().enumerate() {
            if let Err(error) = self.pos.play(mv) {
                while self.pos.action_len() > before {
                    self.pos.undo_move();
                }
                return Err(ActionError::Move { index, error });
            }
        }
        self.submit().map_err(|e| {
            while self.pos.action_len() > before {
                self.pos.undo_move();
            }
            ActionError::Submit(e)
        })
    }

    /// Takes back the last submitted action (and any moves of the current one).
    pub fn undo_action(&mut self) -> Option<Action> {
        self.pos.undo_action_moves();
        let last = self.actions.pop()?;
        self.passes.pop();
        let mut pos = self.start.clone();
        for (i, a) in self.actions.iter().enumerate() {
            for m in &a.moves {
                pos.play_unchecked(m);
            }
            if self.is_pass(i) {
                pos.pass_unchecked();
            } else {
                pos.submit_unchecked();
            }
        }
        self.pos = pos;
        Some(last)
    }

    /// Pseudo-legal moves from the mandatory boards.
    pub fn moves(&self) -> Vec<Move> {
        self.pos.present_moves()
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    /// Checkmate, stalemate or ongoing, with the default budget.
    pub fn outcome(&self) -> Outcome {
        self.pos.outcome(Budget::DEFAULT)
    }

    /// The legal actions from the current position.
    pub fn legal_actions(&self) -> LegalActions {
        LegalActions::new(&self.pos, Budget::DEFAULT)
    }

    /// A hash of the current position.
    pub fn hash(&self) -> u64 {
        self.pos.hash()
    }
}
