//! The random player of the test engines: a uniformly random legal action among the first ones
//! the rules find, its moves in an order that can be played one by one.

use chess5d_rules::{Budget, Move, Position};

/// How many legal actions the choice is made among.
const CAP: usize = 96;

/// A seeded stream of random numbers (xorshift64*).
pub struct Random(u64);

impl Random {
    /// A stream from `seed` (0 is taken as 1).
    pub fn new(seed: u64) -> Random {
        Random(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A random legal action of `pos` (between actions), if it has one.
    pub fn action(&mut self, pos: &Position) -> Option<Vec<Move>> {
        let mut actions: Vec<Vec<Move>> = pos.legal_actions(Budget::DEFAULT).take(CAP).collect();
        if actions.is_empty() {
            return None;
        }
        let i = (self.next() % actions.len() as u64) as usize;
        let action = actions.swap_remove(i);
        Some(playable(pos, &action).unwrap_or(action))
    }
}

/// The moves of `action` in an order in which they can be played one by one (the rules may
/// list two pieces hopping onto each other's boards in another).
fn playable(pos: &Position, action: &[Move]) -> Option<Vec<Move>> {
    let mut left = action.to_vec();
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let i = left.iter().position(|m| p.clone().play(m).is_ok())?;
        let m = left.remove(i);
        p.play(&m).ok()?;
        out.push(m);
    }
    Some(out)
}
