//! The transposition table: proof and disproof numbers of positions already searched, keyed by
//! the position's hash and the attacker's actions left, in a fixed number of two-slot buckets.

/// Proof and disproof numbers at or above this are infinite.
pub(crate) const INF: u32 = u32::MAX / 4;

/// What the table knows of one node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The node's key (0: an empty slot).
    pub key: u64,
    /// Its proof number (0: proven a win for the attacker).
    pub pn: u32,
    /// Its disproof number (0: no win within the actions left).
    pub dn: u32,
    /// A disproof that rests on a list of legal actions the rules' budget could not finish
    /// (so it proves nothing).
    pub tainted: bool,
    /// The nodes searched below it, the worth of keeping it.
    pub work: u64,
}

/// The table: a power of two of two-slot buckets. A new entry replaces its own key, else an
/// empty slot, else the slot that cost less work to find (the deeper searches stay).
#[derive(Debug)]
pub(crate) struct Table {
    slots: Vec<Entry>,
    mask: usize,
    used: usize,
}

impl Table {
    /// A table of at most `entries` entries (rounded down to a power of two, at least 2).
    pub fn new(entries: usize) -> Table {
        let buckets = (entries / 2).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Table {
            slots: vec![Entry::default(); buckets * 2],
            mask: buckets - 1,
            used: 0,
        }
    }

    fn bucket(&self, key: u64) -> usize {
        ((key >> 7) as usize & self.mask) * 2
    }

    /// The entry of `key`, if kept.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + 2].iter().find(|e| e.key == key).copied()
    }

    /// Stores an entry.
    pub fn put(&mut self, entry: Entry) {
        debug_assert_ne!(entry.key, 0);
        let b = self.bucket(entry.key);
        let slot = if self.slots[b].key == entry.key {
            b
        } else if self.slots[b + 1].key == entry.key {
            b + 1
        } else if self.slots[b].key == 0 {
            self.used += 1;
            b
        } else if self.slots[b + 1].key == 0 {
            self.used += 1;
            b + 1
        } else if self.slots[b].work <= self.slots[b + 1].work {
            b
        } else {
            b + 1
        };
        self.slots[slot] = entry;
    }

    /// The entries held.
    pub fn len(&self) -> usize {
        self.used
    }

    /// The entries it can hold.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }
}
