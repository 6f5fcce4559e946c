//! The transposition table: one entry per slot, keyed by `Position::hash`, replaced by depth
//! and age. Each slot also keeps its best action's moves, so that a search can play it before
//! generating the position's actions (often it alone refutes the position).

use chess5d_rules::Move;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, MutexGuard};

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

/// A share of the table's slots behind one lock: the threads of a parallel search share
/// the table, and a slot's entry and its action's moves change together.
#[derive(Debug)]
struct Stripe {
    slots: Vec<Entry>,
    /// The moves of each slot's best action (empty if none), in a playable order.
    actions: Vec<Vec<Move>>,
}

/// The most stripes (locks) of a table: with a few threads, two rarely want the same one.
const STRIPES: usize = 1024;

#[derive(Debug)]
pub(crate) struct Table {
    stripes: Vec<Mutex<Stripe>>,
    /// Slots per stripe (the last one may hold fewer).
    per: usize,
    /// Slots in all: a key's slot depends on it alone, not on the number of stripes.
    len: usize,
    age: AtomicU8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> Table {
        let per_slot = std::mem::size_of::<Entry>() + std::mem::size_of::<Vec<Move>>();
        let len = (mb.max(1) * 1024 * 1024 / per_slot).max(1);
        let per = len.div_ceil(STRIPES.min(len));
        let stripes = (0..len.div_ceil(per))
            .map(|k| {
                let n = per.min(len - k * per);
                Mutex::new(Stripe {
                    slots: vec![EMPTY; n],
                    actions: vec![Vec::new(); n],
                })
            })
            .collect();
        Table {
            stripes,
            per,
            len,
            age: AtomicU8::new(0),
        }
    }

    /// Whether the table has no slots ([`Table::empty`], not yet made).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A table of no slots: an engine's until its first search makes the one its `Hash` asks
    /// for (probing it would panic: the search makes it first).
    pub fn empty() -> Table {
        Table {
            stripes: Vec::new(),
            per: 1,
            len: 0,
            age: AtomicU8::new(0),
        }
    }

    pub fn clear(&mut self) {
        for stripe in &mut self.stripes {
            let stripe = stripe.get_mut().unwrap_or_else(|e| e.into_inner());
            stripe.slots.fill(EMPTY);
            stripe.actions.iter_mut().for_each(Vec::clear);
        }
        *self.age.get_mut() = 0;
    }

    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    /// The stripe of `key`'s slot, locked, and the slot's index in it.
    #[inline]
    fn slot(&self, key: u64) -> (MutexGuard<'_, Stripe>, usize) {
        let i = ((key as u128 * self.len as u128) >> 64) as usize;
        // A thread that panicked holding a stripe left whole entries (they are written at once).
        let stripe = self.stripes[i / self.per].lock().unwrap_or_else(|e| e.into_inner());
        (stripe, i % self.per)
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let (stripe, i) = self.slot(key);
        let e = stripe.slots[i];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    /// The moves of the best action stored for `key`, if any.
    pub fn action(&self, key: u64) -> Option<Vec<Move>> {
        let (stripe, i) = self.slot(key);
        let e = &stripe.slots[i];
        (e.key == key && e.depth >= 0 && e.best != 0 && !stripe.actions[i].is_empty())
            .then(|| stripe.actions[i].clone())
    }

    /// Stores a search's result; `action` is the best action's moves (`best` its key), if any.
    pub fn store(&self, key: u64, best: u64, action: Option<&[Move]>, score: i32, depth: i32, bound: Bound) {
        let age = self.age();
        let (mut guard, i) = self.slot(key);
        let stripe = &mut *guard;
        let old = &mut stripe.slots[i];
        if old.key != key && old.age == age && old.depth as i32 > depth {
            return;
        }
        let keep = best == 0 && old.key == key;
        let best = if keep { old.best } else { best };
        if !keep {
            let moves = &mut stripe.actions[i];
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
            age,
        };
    }

    /// Permille of slots filled by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let n = self.len.min(1000);
        let mut used = 0;
        let mut seen = 0;
        for stripe in &self.stripes {
            let stripe = stripe.lock().unwrap_or_else(|e| e.into_inner());
            for e in stripe.slots.iter().take(n - seen) {
                used += usize::from(e.depth >= 0 && e.age == age);
            }
            seen += stripe.slots.len().min(n - seen);
            if seen == n {
                break;
            }
        }
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key finds its slot whatever the table's size (the last stripe may be short), and
    /// threads storing at once leave whole entries.
    #[test]
    fn stripes_cover_every_slot_and_threads_share_them() {
        for mb in [1, 3, 7] {
            let t = Table::new(mb);
            assert_eq!(
                t.stripes.iter().map(|s| s.lock().unwrap().slots.len()).sum::<usize>(),
                t.len
            );
            for key in [0, 1, u64::MAX, u64::MAX / 3, 0x9e37_79b9_7f4a_7c15] {
                t.store(key, 0, None, 7, 3, Bound::Exact);
                let e = t.probe(key).expect("stored");
                assert_eq!((e.score, e.depth, e.bound), (7, 3, Bound::Exact));
            }
        }
        let t = Table::new(1);
        std::thread::scope(|s| {
            for th in 0..2u64 {
                let t = &t;
                s.spawn(move || {
                    for k in 0..20_000u64 {
                        let key = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                        t.store(key, 0, None, (th as i32) * 1000 + 1, 1, Bound::Lower);
                    }
                });
            }
        });
        let mut filled = 0;
        for stripe in &t.stripes {
            for e in stripe.lock().unwrap().slots.iter().filter(|e| e.depth >= 0) {
                assert!(e.score == 1 || e.score == 1001, "{e:?}");
                assert_eq!((e.depth, e.bound), (1, Bound::Lower));
                filled += 1;
            }
        }
        assert!(filled > 10_000, "{filled} slots filled");
    }
}
