//! The weights of the evaluation (see [`Weights`] for what each one means).
//!
//! Fitted by Texel tuning (`chess5d tune`, crates/engine/src/tune.rs) on 2386 games, 67611 positions:
//!
//! - crates/engine/ladder/fairy-224.5dpgn (224 games, 6638 positions)
//! - crates/engine/ladder/fairy-240.5dpgn (240 games, 11566 positions)
//! - crates/engine/ladder/ladder-1-200.5dpgn (200 games, 5385 positions)
//! - crates/engine/ladder/ladder-1-sprt.5dpgn (93 games, 2414 positions)
//! - crates/engine/ladder/ladder-2-sprt.5dpgn (127 games, 2586 positions)
//! - crates/engine/ladder/ladder-3-200.5dpgn (200 games, 5316 positions)
//! - crates/engine/ladder/ladder-3-200b.5dpgn (200 games, 5336 positions)
//! - crates/engine/ladder/ladder-3-sprt.5dpgn (302 games, 8618 positions)
//! - crates/engine/ladder/selfplay-800.5dpgn (800 games, 19752 positions)
//!
//! The positions: every position of a game after its first 2 actions whose side to move is not
//! in check (9131 in check and 4772 early ones skipped), labelled with the game's [Result] from the
//! side to move's view. One game pair in 10 (254 games, 8108 positions) was held out.
//!
//! Command: `chess5d tune crates/engine/ladder/fairy-224.5dpgn crates/engine/ladder/fairy-240.5dpgn crates/engine/ladder/ladder-1-200.5dpgn crates/engine/ladder/ladder-1-sprt.5dpgn crates/engine/ladder/ladder-2-sprt.5dpgn crates/engine/ladder/ladder-3-200.5dpgn crates/engine/ladder/ladder-3-200b.5dpgn crates/engine/ladder/ladder-3-sprt.5dpgn crates/engine/ladder/selfplay-800.5dpgn --l2 0,0.0003,0.001,0.003,0.01 --out crates/engine/src/weights.rs`
//!
//! The ridge toward the weights before this fit: l2 = 0.0003, chosen among 5 by the loss on one pair in
//! 5 of the games fitted on, when fitted on the others (0: 0.098371, 0.0003: 0.097294, 0.001: 0.097361, 0.003: 0.097532, 0.01: 0.097779).
//!
//! K = 0.2195 (fitted with the weights before this fit); 700 Adam steps. Loss (mean squared error,
//! fitted on / held out): hand-set weights 0.124330 / 0.099946, weights before this fit
//! 0.124330 / 0.099946, these 0.121154 / 0.098133.
//!
//! Kept at their previous value: in_check (a weight whose feature is 0 in every position fitted on,
//! as in_check is: no position in check is kept; or one frozen with --freeze).
//!
//! Pieces in the positions fitted on:
//!
//! - pawn: on the board in 26665 positions, unequal in 14810
//! - knight: on the board in 23859 positions, unequal in 10353
//! - bishop: on the board in 22958 positions, unequal in 8842
//! - rook: on the board in 25812 positions, unequal in 5982
//! - queen: on the board in 21035 positions, unequal in 3979
//! - princess: on the board in 3759 positions, unequal in 1157
//! - unicorn: on the board in 2162 positions, unequal in 376
//! - dragon: on the board in 6935 positions, unequal in 307
//! - brawn: on the board in 2856 positions, unequal in 921
//! - common_king: on the board in 9154 positions, unequal in 855
//! - king: on the board in 56237 positions, unequal in 3425
//! - royal_queen: on the board in 3266 positions, unequal in 279

use crate::eval::Weights;

/// The weights the engine evaluates with.
pub const WEIGHTS: Weights = Weights {
    pawn: 98,
    knight: 320,
    bishop: 270,
    rook: 490,
    queen: 891,
    princess: 706,
    unicorn: 351,
    dragon: 395,
    brawn: 113,
    common_king: 304,
    king: -3,
    royal_queen: 0,
    active_timeline: -321,
    inactive_timeline: 31,
    royal_danger: 72,
    royal_shield: -18,
    in_check: 45,
    traveller: -18,
    tempo: 53,
    pawn_advance: -26,
    centre: 27,
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
