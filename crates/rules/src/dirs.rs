//! The type of the move generator's direction tables: its own home, so that the generated
//! `tables.rs` and `movegen.rs`, which reads them, both take it from here (no circle).

/// Vectors leaving the board that share a board step: `(dt, dl, [(dx, dy)...])`.
pub(crate) type StepGroup = (i32, i32, &'static [(i32, i32)]);

/// The directions of one role and whether it slides along them.
#[derive(Debug)]
pub(crate) struct Dirs {
    pub(crate) slides: bool,
    /// The vectors leaving the board, grouped by their board step `(dt, dl)`, each with its
    /// `(dx, dy)` parts.
    pub(crate) groups: &'static [StepGroup],
    /// The board steps of the groups, as bits of `step_bit`; `group_at[bit]` is the group.
    pub(crate) step_mask: u32,
    pub(crate) group_at: [u8; 25],
    /// For leapers: the squares (of an 8x8 board) each square reaches within the board.
    pub(crate) leaps: [u64; 64],
    /// For sliders: the indices into `movegen::UNIT_STEPS` of the directions within the board.
    pub(crate) rays: &'static [usize],
}
