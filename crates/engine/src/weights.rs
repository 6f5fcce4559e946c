//! The weights of the evaluation (see [`Weights`] for what each one means).
//!
//! Fitted by Texel tuning (`chess5d tune`, crates/engine/src/tune.rs) on 2627 games, 75029 positions:
//!
//! - data/ladder/records/fairy-224.5dpgn (224 games, 6638 positions)
//! - data/ladder/records/fairy-240.5dpgn (240 games, 11566 positions)
//! - data/ladder/records/fairy-241.5dpgn (241 games, 7418 positions)
//! - data/ladder/records/ladder-1-200.5dpgn (200 games, 5385 positions)
//! - data/ladder/records/ladder-1-sprt.5dpgn (93 games, 2414 positions)
//! - data/ladder/records/ladder-2-sprt.5dpgn (127 games, 2586 positions)
//! - data/ladder/records/ladder-3-200.5dpgn (200 games, 5316 positions)
//! - data/ladder/records/ladder-3-200b.5dpgn (200 games, 5336 positions)
//! - data/ladder/records/ladder-3-sprt.5dpgn (302 games, 8618 positions)
//! - data/ladder/records/selfplay-800.5dpgn (800 games, 19752 positions)
//!
//! The positions: every position of a game after its first 2 actions whose side to move is not
//! in check (10080 in check and 5254 early ones skipped), labelled with the game's [Result] from the
//! side to move's view. One game pair in 10 (236 games, 9069 positions) was held out.
//!
//! Command: `chess5d tune data/ladder/records/fairy-224.5dpgn data/ladder/records/fairy-240.5dpgn data/ladder/records/fairy-241.5dpgn data/ladder/records/ladder-1-200.5dpgn data/ladder/records/ladder-1-sprt.5dpgn data/ladder/records/ladder-2-sprt.5dpgn data/ladder/records/ladder-3-200.5dpgn data/ladder/records/ladder-3-200b.5dpgn data/ladder/records/ladder-3-sprt.5dpgn data/ladder/records/selfplay-800.5dpgn --from hand --l2 0,0.0001,0.0003,0.001,0.003 --no-ridge princess,unicorn,dragon,common_king --out crates/engine/src/weights.rs`
//!
//! The ridge toward the hand-set weights: l2 = 0.0001, chosen among 5 by the 5-fold cross-validated loss
//! on the games fitted on (folds of game pairs: 0: 0.126523, 0.0001: 0.125605, 0.0003: 0.125701, 0.001: 0.126035, 0.003: 0.126580).
//! Not held by the ridge (fitted on the data alone): princess, unicorn, dragon, common_king.
//!
//! K = 0.2197 (fitted with the hand-set weights); 3200 Adam steps. Loss (mean squared error, fitted on /
//! held out): the hand-set weights 0.127578 / 0.093976, these 0.123457 / 0.092935.
//!
//! Kept at their starting value: in_check (frozen with --freeze, or a weight whose feature is 0 in
//! every position fitted on: in_check, as no position in check is kept).
//!
//! Pieces in the positions fitted on:
//!
//! - pawn: on the board in 29331 positions, unequal in 16261
//! - knight: on the board in 26990 positions, unequal in 11629
//! - bishop: on the board in 25965 positions, unequal in 10172
//! - rook: on the board in 29408 positions, unequal in 6578
//! - queen: on the board in 22108 positions, unequal in 4231
//! - princess: on the board in 4590 positions, unequal in 1217
//! - unicorn: on the board in 2620 positions, unequal in 439
//! - dragon: on the board in 8458 positions, unequal in 886
//! - brawn: on the board in 3424 positions, unequal in 1004
//! - common_king: on the board in 11095 positions, unequal in 974
//! - king: on the board in 61786 positions, unequal in 3855
//! - royal_queen: on the board in 4174 positions, unequal in 325

use crate::terms::Weights;

/// The weights the engine evaluates with (version 8): the hand-set ones but for the positional
/// weights, fitted in session 19 with every material weight frozen (`chess5d tune --from hand
/// --freeze` the pieces, pawn_advance and centre, on the 11,281 games of sessions 13 to 18; the
/// command is in data/ladder/records/tuning-session19.txt; held-out loss 0.148361 to 0.144528). An extra
/// active timeline costs 448 (250), an inactive one nothing (60), an enemy piece near a royal
/// one 56 (14), a shield nothing (5), a non-pawn piece on a timeline with a past 100 less (4
/// more), and having the move is worth 60 (12). Against version 7, two SPRTs on fresh openings
/// accepted H1 (+28.6 ± 23.0 and +25.6 ± 20.1 Elo) and their confirmations scored 49.8% and
/// 53.8% (crates/engine/LADDER.md, session 19). The whole fit of session 8 ([`FITTED_WEIGHTS`])
/// did not play better than the hand-set weights (+3.5 ± 39 Elo, fit 1 +10.4 ± 39), and with it
/// the tactics suite missed the Timeline Invasion defence at its node budget.
pub const WEIGHTS: Weights = Weights {
    active_timeline: -448,
    inactive_timeline: 9,
    royal_danger: 56,
    royal_shield: -1,
    traveller: -100,
    tempo: 60,
    ..HAND_WEIGHTS
};

/// The weights fitted on games by the command above.
pub const FITTED_WEIGHTS: Weights = Weights {
    pawn: 92,
    knight: 317,
    bishop: 261,
    rook: 485,
    queen: 891,
    princess: 1138,
    unicorn: 1257,
    dragon: 2,
    brawn: 100,
    common_king: 533,
    king: -5,
    royal_queen: 2,
    active_timeline: -398,
    inactive_timeline: 44,
    royal_danger: 86,
    royal_shield: -23,
    in_check: 45,
    traveller: -42,
    tempo: 60,
    pawn_advance: -42,
    centre: 35,
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
