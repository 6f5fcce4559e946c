//! The transposition table: one entry per slot, keyed by `Position::hash`, replaced by depth
//! and age. Each slot also keeps its best action's moves, so that a search can play it before
//! generating the position's actions (often it alone refutes the position).

use chess5d_rules::Move;

/// What the stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// What a search's best score `best` says, searched with the window `alpha..beta`.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub key: u64,
    /// A hash of the best action found (see `action_key`), 0 if none.
    pub best: u64,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    pub age: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    best: 0,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    age: 0,
};

#[derive(Debug)]
pub(crate) struct Table {
    slots: Vec<Entry>,
    /// The moves of each slot's best action (empty if none), in a playable order.
    actions: Vec<Vec<Move>>,
    age: u8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> Table {
        let per_slot = std::mem::size_of::<Entry>() + std::mem::size_of::<Vec<Move>>();
        let n = (mb.max(1) * 1024 * 1024 / per_slot).max(1);
        Table {
            slots: vec![EMPTY; n],
            actions: vec![Vec::new(); n],
            age: 0,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(EMPTY);
        self.actions.iter_mut().for_each(Vec::clear);
        self.age = 0;
    }

    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.slots[self.index(key)];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    /// The moves of the best action stored for `key`, if any.
    pub fn action(&self, key: u64) -> Option<&[Move]> {
        let i = self.index(key);
        let e = &self.slots[i];
        (e.key == key && e.depth >= 0 && e.best != 0 && !self.actions[i].is_empty()).then(|| &self.actions[i][..])
    }

    /// Stores a search's result; `action` is the best action's moves (`best` its key), if any.
    pub fn store(&mut self, key: u64, best: u64, action: Option<&[Move]>, score: i32, depth: i32, bound: Bound) {
        let i = self.index(key);
        let old = &mut self.slots[i];
        if old.key != key && old.age == self.age && old.depth as i32 > depth {
            return;
        }
        let keep = best == 0 && old.key == key;
        let best = if keep { old.best } else { best };
        if !keep {
            let moves = &mut self.actions[i];
            moves.clear();
            if best != 0 {
                moves.extend_from_slice(action.unwrap_or_default());
            }
        }
        *old = Entry {
            key,
            best,
            score,
            depth: depth.clamp(0, i16::MAX as i32) as i16,
            bound,
            age: self.age,
        };
    }

    /// Permille of slots filled by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|e| e.depth >= 0 && e.age == self.age)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}
