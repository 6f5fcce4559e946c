//! The transposition table: one entry per slot, keyed by `Position::hash`, replaced by depth
//! and age.

/// What the stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
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
    age: u8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
        Table {
            slots: vec![EMPTY; n],
            age: 0,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(EMPTY);
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

    pub fn store(&mut self, key: u64, best: u64, score: i32, depth: i32, bound: Bound) {
        let i = self.index(key);
        let old = &mut self.slots[i];
        if old.key != key && old.age == self.age && old.depth as i32 > depth {
            return;
        }
        let best = if best == 0 && old.key == key { old.best } else { best };
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
