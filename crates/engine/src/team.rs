//! The threads of a parallel search (`Threads`): what they share besides the table.
//!
//! The main thread shares its depth and the nodes of its principal line, one per ply. A node is
//! offered once its first action is searched (the young-brothers-wait condition, so that its
//! bound is known); the main thread takes its actions from the front, the helpers from the back,
//! and the main thread finds the helpers' results in the table. Sharing the table alone (Lazy
//! SMP) did not shorten the time to a depth: the main thread's first action, which takes most of
//! an iteration, was searched twice (`LADDER.md`, session 17).

use crate::report::MATE_BOUND;
use chess5d_rules::{Move, Position};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A search's part in a parallel search.
#[derive(Clone, Copy)]
pub(crate) enum Part<'a> {
    /// The only thread.
    Alone,
    /// The main thread: it answers, and shares its depth and principal line with the helpers.
    Main(&'a Team),
    /// A helper: it scouts the later actions of the main thread's principal line, and when there
    /// are none, searches a depth ahead of the main thread. What it finds reaches the main thread
    /// through the table.
    Helper(&'a Team),
}

/// What the threads of a parallel search share besides the table (see the module's doc).
pub(crate) struct Team {
    depth: AtomicU32,
    nodes: Vec<Mutex<Option<Shared>>>,
}

/// The plies of the principal line offered to the helpers.
pub(crate) const SHARED_PLIES: usize = 24;

/// A node of the main thread's principal line: its position, its actions in the main thread's
/// order, its depth and window.
#[derive(Clone)]
pub(crate) struct Node {
    pub pos: Arc<Position>,
    pub actions: Arc<[Vec<Move>]>,
    pub depth: i32,
    pub alpha: i32,
    pub beta: i32,
}

/// A node offered to the helpers, with how far each end has come.
struct Shared {
    node: Node,
    /// The action the main thread is at.
    front: usize,
    /// How many actions the helpers took from the back.
    back: usize,
}

impl Shared {
    /// The next action from the back, if the main thread has not reached it (and the bound is
    /// not a mate's, which needs no help).
    fn next(&self) -> Option<usize> {
        let n = self.node.actions.len();
        (self.back < n && n - 1 - self.back > self.front && self.node.alpha.abs() < MATE_BOUND)
            .then(|| n - 1 - self.back)
    }
}

/// Scouting work for a helper: action `index` of a shared node (with the main thread's latest
/// bound), whose child is at `ply`.
pub(crate) struct Scout {
    pub node: Node,
    pub index: usize,
    pub ply: usize,
}

impl Scout {
    /// The action to search.
    pub fn action(&self) -> &[Move] {
        &self.node.actions[self.index]
    }
}

impl Default for Team {
    fn default() -> Team {
        Team {
            depth: AtomicU32::new(0),
            nodes: (0..SHARED_PLIES).map(|_| Mutex::new(None)).collect(),
        }
    }
}

impl Team {
    fn slot(&self, ply: usize) -> MutexGuard<'_, Option<Shared>> {
        // A helper that panicked holding the lock left whole fields: the node is still usable.
        self.nodes[ply].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The depth of the main thread's iteration.
    pub fn depth(&self) -> u32 {
        self.depth.load(Ordering::Relaxed)
    }

    /// The main thread starts the iteration of `depth`.
    pub fn set_depth(&self, depth: u32) {
        self.depth.store(depth, Ordering::Relaxed);
    }

    /// Offers `node` at `ply`, the main thread being at action `front`.
    fn offer(&self, ply: usize, node: Node, front: usize) {
        let old = self.slot(ply).replace(Shared { node, front, back: 0 });
        // The node replaced is freed after the lock is released.
        drop(old);
    }

    /// The main thread is at action `front` of the node at `ply`, with the bound `alpha`.
    fn advance(&self, ply: usize, front: usize, alpha: i32) {
        if let Some(shared) = self.slot(ply).as_mut() {
            shared.front = front;
            shared.node.alpha = shared.node.alpha.max(alpha);
        }
    }

    /// The main thread left the node at `ply`.
    fn withdraw(&self, ply: usize) {
        let old = self.slot(ply).take();
        drop(old);
    }

    /// Whether a helper has anything to scout.
    pub fn has_work(&self) -> bool {
        (0..SHARED_PLIES).any(|ply| self.slot(ply).as_ref().is_some_and(|n| n.next().is_some()))
    }

    /// Work for a helper, from the shallowest node that has some (the biggest subtrees). Only
    /// counters and shared pointers move under the lock: the helper builds the child.
    pub fn take(&self) -> Option<Scout> {
        (0..SHARED_PLIES).find_map(|ply| {
            let mut guard = self.slot(ply);
            let shared = guard.as_mut()?;
            let index = shared.next()?;
            shared.back += 1;
            Some(Scout {
                node: shared.node.clone(),
                index,
                ply: ply + 1,
            })
        })
    }
}

/// The main thread's hold on one node of its principal line: the node is offered when the main
/// thread reaches its second action, advanced at every later one, and withdrawn when the hold
/// is dropped (the node searched, cut off, or the search stopped).
pub(crate) struct Lead<'t> {
    team: Option<&'t Team>,
    ply: usize,
    offered: bool,
}

impl<'t> Lead<'t> {
    /// A hold on the node at `ply` for `team` (`None`: nothing is shared, as in a search of one
    /// thread, or at a node too shallow or too deep to share).
    pub fn new(team: Option<&'t Team>, ply: usize) -> Lead<'t> {
        Lead {
            team: team.filter(|_| ply < SHARED_PLIES),
            ply,
            offered: false,
        }
    }

    /// The main thread is about to search the action at `index` of the node's list, having
    /// searched `searched` of the node's actions before it, with the bound `alpha`. Once one
    /// action is searched, so that the bound is known (the young-brothers-wait condition), the
    /// node (built by `node`, only then) is offered; after that, it is advanced.
    pub fn reach(&mut self, searched: usize, index: usize, alpha: i32, node: impl FnOnce() -> Node) {
        let Some(team) = self.team else { return };
        if searched == 0 {
            return;
        }
        if self.offered {
            team.advance(self.ply, index, alpha);
        } else {
            team.offer(self.ply, node(), index);
            self.offered = true;
        }
    }
}

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        if let (Some(team), true) = (self.team, self.offered) {
            team.withdraw(self.ply);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node of `n` actions (the team never looks into them) in the standard position.
    fn node(n: usize, depth: i32, alpha: i32, beta: i32) -> Node {
        Node {
            pos: Arc::new(Position::standard()),
            actions: (0..n).map(|_| Vec::new()).collect(),
            depth,
            alpha,
            beta,
        }
    }

    /// The helpers take a shared node's actions from the back, never one the main thread has
    /// reached, with the main thread's latest bound, shallowest node first; a withdrawn node
    /// and a mate bound give no work.
    #[test]
    fn helpers_take_the_principal_line_from_the_back() {
        let team = Team::default();
        assert!(team.take().is_none() && !team.has_work());
        team.offer(0, node(6, 4, 10, 50), 1);
        let scout = team.take().expect("work");
        assert_eq!(scout.index, 5);
        assert!(std::ptr::eq(scout.action(), &scout.node.actions[5][..]));
        assert_eq!(
            (scout.node.depth, scout.ply, scout.node.alpha, scout.node.beta),
            (4, 1, 10, 50)
        );
        team.advance(0, 2, 20);
        assert_eq!(team.take().expect("work").index, 4);
        let scout = team.take().expect("work");
        assert_eq!((scout.index, scout.node.alpha), (3, 20));
        // Action 2 is the main thread's own.
        assert!(team.take().is_none() && !team.has_work());
        // A deeper node waits while a shallower one has work.
        team.offer(3, node(6, 2, 0, 1), 0);
        team.offer(0, node(6, 4, 10, 50), 4);
        let (first, second) = (team.take().unwrap(), team.take().unwrap());
        assert_eq!((first.index, first.ply, second.ply), (5, 1, 4));
        team.withdraw(3);
        assert!(team.take().is_none());
        team.offer(1, node(6, 4, MATE_BOUND + 1, MATE_BOUND + 2), 0);
        assert!(!team.has_work());
    }

    /// The main thread's hold offers a node at its second action (not before), advances it
    /// after, withdraws it when dropped, and shares nothing without a team or below the
    /// shared plies.
    #[test]
    fn a_lead_offers_at_the_second_action_and_withdraws_when_dropped() {
        let team = Team::default();
        let mut built = 0;
        {
            let mut lead = Lead::new(Some(&team), 2);
            // The stored action was searched first, so the list's action 0 is the second.
            lead.reach(0, 0, 5, || {
                unreachable!("nothing is offered before one action is searched")
            });
            assert!(!team.has_work());
            for k in 0..3 {
                lead.reach(k + 1, k, 5 + k as i32, || {
                    built += 1;
                    node(6, 4, 5, 50)
                });
            }
            assert_eq!(built, 1, "the node is built once");
            let scout = team.take().expect("offered");
            assert_eq!((scout.index, scout.ply, scout.node.alpha), (5, 3, 7));
            assert_eq!(team.take().expect("work").index, 4);
            assert_eq!(team.take().expect("work").index, 3);
            assert!(team.take().is_none(), "action 2 is the main thread's");
        }
        assert!(team.slot(2).is_none(), "withdrawn when the hold is dropped");
        let mut lead = Lead::new(None, 0);
        lead.reach(1, 1, 0, || unreachable!("no team"));
        let mut lead = Lead::new(Some(&team), SHARED_PLIES);
        lead.reach(1, 1, 0, || unreachable!("too deep to share"));
    }
}
