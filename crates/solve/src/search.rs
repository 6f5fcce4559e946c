//! Depth-first proof-number search (df-pn) with the 1+epsilon trick, over whole actions.
//!
//! An OR node is a position with the attacker to move and `k >= 1` of its actions left; an AND
//! node has the defender to move and `k` attacker actions left after it. The leaves are the
//! rules crate's verdicts: no legal action (checkmate: a loss for the side to move; stalemate: a
//! draw, so no win), and at an AND node with no attacker action left, the defender's
//! [`Position::outcome`] (mated, or it has an action). A list of legal actions the rules'
//! budget could not finish makes a *tainted* disproof: the search goes on past it, but a result
//! that rests on one is "unknown", never a claim.

use crate::table::{Entry, Table, INF};
use crate::{Config, Progress, Tree};
use chess5d_rules::{Budget, Color, LegalActions, Move, Outcome, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

/// How much the 1+epsilon trick widens a child's threshold: 1/4.
const EPS_NUM: u64 = 5;
const EPS_DEN: u64 = 4;

/// A child of a node being searched.
struct Child {
    moves: Vec<Move>,
    key: u64,
}

/// What expanding a node gives.
enum Expansion {
    /// A leaf, with its proof and disproof numbers and whether its verdict is tainted.
    Leaf(u32, u32, bool),
    /// Its children (the attacker's actions at an OR node, the defences at an AND node).
    Inner(Vec<Child>),
}

/// The search's state.
pub(crate) struct Search<'a> {
    pub attacker: Color,
    pub table: Table,
    pub nodes: u64,
    pub tests: u64,
    pub node_limit: u64,
    pub list_budget: u64,
    pub aborted: bool,
    pub start: Instant,
    pub last_report: u64,
    pub progress: Option<&'a mut dyn FnMut(&Progress)>,
    pub depth: u32,
    pub root_key: u64,
    pub max_tests: u64,
    pub cancel: Option<&'a AtomicBool>,
}

/// The key of a node: the position's hash (side to move included) mixed with the actions left.
fn node_key(hash: u64, k: u32) -> u64 {
    let key = hash ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    if key == 0 {
        1
    } else {
        key
    }
}

/// The hash of the position after `moves` (played, submitted, then taken back).
fn child_hash(pos: &mut Position, moves: &[Move]) -> u64 {
    for m in moves {
        pos.play_unchecked(m);
    }
    let h = pos.with_submitted(|p| p.hash());
    pos.undo_action_moves();
    h
}

/// Runs `f` on the position after `moves`, then takes them back.
fn after<R>(pos: &mut Position, moves: &[Move], f: impl FnOnce(&mut Position) -> R) -> R {
    for m in moves {
        pos.play_unchecked(m);
    }
    let r = pos.with_submitted(f);
    pos.undo_action_moves();
    r
}

impl Search<'_> {
    pub fn new<'a>(attacker: Color, config: &Config, progress: Option<&'a mut dyn FnMut(&Progress)>) -> Search<'a> {
        Search {
            attacker,
            table: Table::new(config.table_entries),
            nodes: 0,
            tests: 0,
            node_limit: config.nodes,
            list_budget: config.list_budget,
            aborted: false,
            start: Instant::now(),
            last_report: 0,
            progress,
            depth: 0,
            root_key: 0,
            max_tests: config.max_tests,
            cancel: None,
        }
    }

    /// The numbers of a node: from the table, else those of a node not yet searched.
    fn lookup(&self, key: u64) -> Entry {
        self.table.get(key).unwrap_or(Entry {
            key,
            pn: 1,
            dn: 1,
            tainted: false,
            work: 0,
        })
    }

    /// The legal actions of the side to move, or `None` if the rules' budget ran out.
    fn actions(&mut self, pos: &Position) -> Option<Vec<Vec<Move>>> {
        let mut it = pos.legal_actions(Budget::tests(self.list_budget));
        let all: Vec<Vec<Move>> = it.by_ref().collect();
        self.tests += it.tests();
        (!it.exhausted()).then_some(all)
    }

    /// The verdict at an AND node with no attacker action left: is the defender mated?
    fn last_leaf(&mut self, pos: &Position) -> (u32, u32, bool) {
        match pos.outcome(Budget::tests(self.list_budget)) {
            Outcome::Checkmate => (0, INF, false),
            Outcome::Stalemate | Outcome::Ongoing(_) => (INF, 0, false),
            Outcome::Unknown => (INF, 0, true),
        }
    }

    /// A mating action of the attacker (to move): `Some(Some(action))`, `Some(None)` if it has
    /// none, `None` if the rules' budget ran out first. Actions are listed lazily, those that
    /// move only on the boards that must be played first: a multiverse of many timelines has
    /// millions of actions, and a mate is found without listing them all.
    fn mate_in_one(&mut self, pos: &mut Position) -> Option<Option<Vec<Move>>> {
        let mut unknown = false;
        for present_only in [true, false] {
            let budget = Budget::tests(self.list_budget);
            let mut it = if present_only {
                LegalActions::present_only(pos, budget)
            } else {
                pos.legal_actions(budget)
            };
            let mut found = None;
            for moves in it.by_ref() {
                let (pn, _, tainted) = after(pos, &moves, |p| self.last_leaf(p));
                unknown |= tainted;
                if pn == 0 {
                    found = Some(moves);
                    break;
                }
            }
            self.tests += it.tests();
            if found.is_some() {
                return Some(found);
            }
            if it.exhausted() {
                return None;
            }
        }
        (!unknown).then_some(None)
    }

    fn expand(&mut self, pos: &mut Position, k: u32) -> Expansion {
        let or = pos.to_move() == self.attacker;
        if !or && k == 0 {
            let (pn, dn, t) = self.last_leaf(pos);
            return Expansion::Leaf(pn, dn, t);
        }
        if or && k == 1 {
            return match self.mate_in_one(pos) {
                Some(Some(_)) => Expansion::Leaf(0, INF, false),
                Some(None) => Expansion::Leaf(INF, 0, false),
                None => Expansion::Leaf(INF, 0, true),
            };
        }
        let Some(actions) = self.actions(pos) else {
            return Expansion::Leaf(INF, 0, true);
        };
        if actions.is_empty() {
            // The side to move has no action: mated or stalemated. Only the defender's
            // checkmate is a win.
            return if !or && pos.in_check() {
                Expansion::Leaf(0, INF, false)
            } else {
                Expansion::Leaf(INF, 0, false)
            };
        }
        let ck = if or { k - 1 } else { k };
        let mut children = Vec::with_capacity(actions.len());
        for moves in actions {
            let key = node_key(child_hash(pos, &moves), ck);
            children.push(Child { moves, key });
        }
        Expansion::Inner(children)
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || self.tests >= self.max_tests
            || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        if self.nodes - self.last_report >= 20_000 {
            self.last_report = self.nodes;
            let root = self.lookup(self.root_key);
            let p = Progress {
                depth: self.depth,
                nodes: self.nodes,
                root_pn: root.pn,
                root_dn: root.dn,
                table: self.table.len(),
                seconds: self.start.elapsed().as_secs_f64(),
            };
            if let Some(f) = self.progress.as_mut() {
                f(&p);
            }
        }
    }

    /// Searches the node at `pos` (`k` attacker actions left) until its proof number reaches
    /// `thpn` or its disproof number `thdn`, or the node budget is spent; returns its entry.
    pub fn mid(&mut self, pos: &mut Position, k: u32, thpn: u32, thdn: u32) -> Entry {
        let key = node_key(pos.hash(), k);
        let known = self.lookup(key);
        if known.pn == 0 || known.dn == 0 || self.aborted {
            return known;
        }
        let start_nodes = self.nodes;
        self.tick();
        let or = pos.to_move() == self.attacker;
        let children = match self.expand(pos, k) {
            Expansion::Leaf(pn, dn, tainted) => {
                let e = Entry {
                    key,
                    pn,
                    dn,
                    tainted,
                    work: 1,
                };
                self.table.put(e);
                return e;
            }
            Expansion::Inner(c) => c,
        };
        let ck = if or { k - 1 } else { k };
        loop {
            // OR: pn = min, dn = sum; AND: pn = sum, dn = min. "phi" is the number the side
            // to move minimises, "delta" the one it sums.
            let (mut best, mut phi1, mut phi2, mut delta_sum, mut best_delta) = (0, INF, INF, 0u32, 0);
            // Taint: a disproof of an OR node needs every child disproven (tainted if one is);
            // of an AND node one disproven child (tainted if every such child is).
            let (mut some_tainted, mut some_clean) = (false, false);
            for (i, c) in children.iter().enumerate() {
                let e = self.lookup(c.key);
                let (phi, delta) = if or { (e.pn, e.dn) } else { (e.dn, e.pn) };
                if phi < phi1 {
                    phi2 = phi1;
                    phi1 = phi;
                    best = i;
                    best_delta = delta;
                } else if phi < phi2 {
                    phi2 = phi;
                }
                delta_sum = delta_sum.saturating_add(delta).min(INF);
                if e.dn == 0 {
                    some_tainted |= e.tainted;
                    some_clean |= !e.tainted;
                }
            }
            let (pn, dn) = if or { (phi1, delta_sum) } else { (delta_sum, phi1) };
            let tainted = dn == 0 && if or { some_tainted } else { !some_clean };
            if pn >= thpn || dn >= thdn || pn == 0 || dn == 0 || self.aborted {
                let e = Entry {
                    key,
                    pn,
                    dn,
                    tainted,
                    work: self.nodes - start_nodes,
                };
                self.table.put(e);
                return e;
            }
            // The thresholds of the best child, the second best widened by 1 + epsilon.
            let (th_phi, th_delta) = if or { (thpn, thdn) } else { (thdn, thpn) };
            let widened = ((phi2 as u64 * EPS_NUM).div_ceil(EPS_DEN)).min(INF as u64) as u32;
            let c_phi = th_phi.min(widened.max(phi1 + 1));
            let c_delta = th_delta
                .saturating_sub(delta_sum.saturating_sub(best_delta))
                .max(best_delta + 1)
                .min(INF);
            let (cpn, cdn) = if or { (c_phi, c_delta) } else { (c_delta, c_phi) };
            after(pos, &children[best].moves, |p| {
                self.mid(p, ck, cpn, cdn);
            });
        }
    }

    /// Solves the root within `k` attacker actions (or until the budget is spent).
    pub fn solve(&mut self, pos: &mut Position, k: u32) -> Entry {
        self.depth = k;
        self.root_key = node_key(pos.hash(), k);
        self.mid(pos, k, INF, INF)
    }

    /// The numbers of the node after `moves`, searched to the end if the table lost them
    /// (`None` if the node budget ran out first).
    fn settled_child(&mut self, pos: &mut Position, moves: &[Move], ck: u32) -> Option<Entry> {
        let key = node_key(child_hash(pos, moves), ck);
        if let Some(e) = self.table.get(key).filter(|e| e.pn == 0 || e.dn == 0) {
            return Some(e);
        }
        let e = after(pos, moves, |p| self.mid(p, ck, INF, INF));
        (e.pn == 0 || e.dn == 0).then_some(e)
    }

    /// The proof (`win`: every defence answered) or disproof (every attacker action answered)
    /// of the node at `pos`, as its children; `None` if the node budget ran out.
    pub fn tree(&mut self, pos: &mut Position, k: u32, win: bool) -> Option<Vec<Tree>> {
        let or = pos.to_move() == self.attacker;
        if !or && k == 0 {
            return Some(Vec::new());
        }
        let even = pos.even();
        if or && k == 1 && win {
            let moves = self.mate_in_one(pos)??;
            return Some(vec![Tree {
                action: moves.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" "),
                children: Vec::new(),
            }]);
        }
        let actions = self.actions(pos)?;
        let text = |moves: &[Move]| moves.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" ");
        let ck = if or { k - 1 } else { k };
        let mut out = Vec::new();
        // The side whose every action is answered: the defender in a proof, the attacker in
        // a disproof. The other side's one answer is a child whose verdict holds.
        let all = or != win;
        let holds = |e: &Entry| if win { e.pn == 0 } else { e.dn == 0 && !e.tainted };
        let chosen: Vec<&Vec<Move>> = if all {
            actions.iter().collect()
        } else {
            // One answer: one the table already holds as settled, else the first that
            // settles so.
            let known = actions.iter().find(|m| {
                self.table
                    .get(node_key(child_hash(pos, m), ck))
                    .is_some_and(|e| holds(&e))
            });
            match known {
                Some(m) => vec![m],
                None => {
                    let mut found = None;
                    for m in &actions {
                        if holds(&self.settled_child(pos, m, ck)?) {
                            found = Some(m);
                            break;
                        }
                    }
                    found.into_iter().collect()
                }
            }
        };
        for moves in chosen {
            let e = self.settled_child(pos, moves, ck)?;
            if !holds(&e) {
                return None;
            }
            let children = after(pos, moves, |p| self.tree(p, ck, win))?;
            out.push(Tree {
                action: text(moves),
                children,
            });
        }
        (all || !out.is_empty() || actions.is_empty()).then_some(out)
    }
}
