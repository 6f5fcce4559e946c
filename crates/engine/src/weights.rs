//! The weights of the evaluation (see [`Weights`] for what each one means).
//!
//! Provenance: the hand-set values of the engine up to session 7 (not fitted yet).

use crate::eval::Weights;

/// The weights the engine evaluates with.
pub const WEIGHTS: Weights = Weights {
    pawn: 100,
    knight: 300,
    bishop: 300,
    rook: 500,
    queen: 900,
    princess: 700,
    unicorn: 350,
    dragon: 400,
    brawn: 120,
    common_king: 300,
    king: 0,
    royal_queen: 0,
    active_timeline: -250,
    inactive_timeline: -60,
    royal_danger: 14,
    royal_shield: 5,
    in_check: 45,
    traveller: 4,
    tempo: 12,
    pawn_advance: 6,
    centre: 4,
};

/// The hand-set weights the engine used before they were fitted on games (kept to compare).
pub const HAND_WEIGHTS: Weights = Weights {
    pawn: 100,
    knight: 300,
    bishop: 300,
    rook: 500,
    queen: 900,
    princess: 700,
    unicorn: 350,
    dragon: 400,
    brawn: 120,
    common_king: 300,
    king: 0,
    royal_queen: 0,
    active_timeline: -250,
    inactive_timeline: -60,
    royal_danger: 14,
    royal_shield: 5,
    in_check: 45,
    traveller: 4,
    tempo: 12,
    pawn_advance: 6,
    centre: 4,
};
