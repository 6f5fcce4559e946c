//! Iterative-deepening principal-variation alpha-beta (negamax) over whole actions.

use crate::eval::{evaluate_checked, piece_value, timeline_weight};
use crate::gen::{
    action_set_key, child_of, full_actions, gives_check, move_score, optional_tactics, replays, submittable,
    time_budget, QuickGen, FIRST_FIND_BUDGET, MAX_FIND_BUDGET,
};
use crate::options::EngineOptions;
use crate::report::{to_score, SearchInfo, MATE, MATE_BOUND};
use crate::team::{Lead, Node, Part, Team};
use crate::tt::{Bound, Table};
use chess5d_rules::{Budget, Move, MoveKind, Position};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

const INF: i32 = MATE + 1;
pub(crate) const MAX_PLY: usize = 128;

fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v + ply as i32
    } else if v < -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn score_from_tt(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v - ply as i32
    } else if v < -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// The knobs of one search.
#[derive(Clone)]
pub(crate) struct Params {
    /// No new node after this.
    pub deadline: Option<Instant>,
    /// No new iteration after this.
    pub soft: Option<Instant>,
    /// The latest time to answer when no legal action is known yet (finding one may take
    /// longer than the planned time: an action a little late beats no action).
    pub emergency: Option<Instant>,
    pub max_depth: u32,
    pub max_nodes: Option<u64>,
    pub node_cap: usize,
    pub root_cap: usize,
    pub node_budget: Budget,
    /// The engine's options: the search reads its switches, margins and shares from them.
    pub o: EngineOptions,
}

/// The state of one search.
pub(crate) struct Searcher<'a> {
    tt: &'a Table,
    stop: &'a AtomicBool,
    p: Params,
    start: Instant,
    pub nodes: u64,
    pub actions: u64,
    aborted: bool,
    killers: Vec<[u64; 2]>,
    /// Whether the action leading to the node at each ply was a pass (a null move).
    passed: Vec<bool>,
    /// This search's part in a parallel search.
    part: Part<'a>,
    /// A helper searching ahead of the main thread, which stops for scouting work.
    ahead: bool,
}

/// A node being searched: its window and its best action so far (score, key and moves).
struct Frame {
    /// The window's lower bound when the node's actions started (after mate distance pruning).
    alpha0: i32,
    /// The window, raised as actions beat it.
    alpha: i32,
    beta: i32,
    score: i32,
    key: u64,
    action: Option<Vec<Move>>,
}

impl Frame {
    fn new(alpha: i32, beta: i32) -> Frame {
        Frame {
            alpha0: alpha,
            alpha,
            beta,
            score: -INF,
            key: 0,
            action: None,
        }
    }

    /// Takes the score `s` of `action` (key `key`); when it also beats alpha, raises alpha and
    /// makes the line `pv` the action followed by `rest` (the child's line).
    fn offer(&mut self, s: i32, key: u64, action: &[Move], pv: &mut Vec<Vec<Move>>, rest: &mut Vec<Vec<Move>>) {
        if s <= self.score {
            return;
        }
        self.score = s;
        self.key = key;
        self.action = Some(action.to_vec());
        if s > self.alpha {
            self.alpha = s;
            pv.clear();
            pv.push(action.to_vec());
            pv.append(rest);
        }
    }

    /// Whether the node is refuted (a beta cutoff).
    fn cut(&self) -> bool {
        self.alpha >= self.beta
    }
}

/// The result of a search, before it is turned into the public type.
pub(crate) struct Found {
    pub best: Option<Vec<Move>>,
    pub score: i32,
    pub depth: u32,
    pub pv: Vec<Vec<Move>>,
}

/// Positions with at most this many timelines get the more expensive move ordering (checks).
const ORDER_CHECKS_MAX_TIMELINES: usize = 12;

impl<'a> Searcher<'a> {
    pub fn new(tt: &'a Table, stop: &'a AtomicBool, p: Params, start: Instant) -> Searcher<'a> {
        Searcher {
            tt,
            stop,
            p,
            start,
            nodes: 0,
            actions: 0,
            aborted: false,
            killers: vec![[0; 2]; MAX_PLY + 1],
            passed: vec![false; MAX_PLY + 2],
            part: Part::Alone,
            ahead: false,
        }
    }

    /// The same search as a part of a parallel one.
    pub fn with_part(mut self, part: Part<'a>) -> Searcher<'a> {
        self.part = part;
        self
    }

    /// The team this search leads, if it is a parallel search's main thread.
    fn leads(&self) -> Option<&'a Team> {
        match self.part {
            Part::Main(team) => Some(team),
            _ => None,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the search must stop now (stop flag, deadline or node limit).
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.aborted = self.stop.load(Ordering::Relaxed)
            || self.p.max_nodes.is_some_and(|n| self.nodes >= n)
            || self.p.deadline.is_some_and(|d| Instant::now() >= d)
            || (self.ahead && self.nodes & 127 == 0 && matches!(self.part, Part::Helper(t) if t.has_work()));
        self.aborted
    }

    /// The quick generator with this search's settings, for at most `cap` actions.
    fn quick(&self, cap: usize, deadline: Option<Instant>) -> QuickGen {
        let mut quick = QuickGen::new(cap, cap as u64 * 16 + 256, deadline);
        quick.spread = self.p.o.quick_spread;
        quick.check_bonus = self.p.o.check_bonus;
        quick
    }

    /// The actions to search at an interior node: the quick generator's, else (to prove mate or
    /// stalemate, or find the actions it cannot) the full legal-action search's. The flag is true
    /// when no action was found but the budget ran out, so nothing is proven.
    fn gen(&mut self, pos: &Position, in_check: bool) -> (Vec<Vec<Move>>, bool) {
        let cap = self.p.node_cap;
        let mut quick = self.quick(cap, self.p.deadline);
        let mut out = quick.run(pos);
        if !out.is_empty() {
            if self.short(&quick, out.len()) {
                let mut seen = out.iter().map(|a| action_set_key(a)).collect();
                out.extend(self.fill(pos, out.len(), &mut seen));
            }
            if self.p.o.optional_tactics > 0 {
                let more = optional_tactics(pos, self.p.o.optional_tactics, cap / 2, self.p.deadline);
                out.extend(more);
            }
            self.actions += out.len() as u64;
            return (out, false);
        }
        if self.p.deadline.is_some_and(|d| Instant::now() >= d) {
            return (out, true);
        }
        // A mate must be proven: allow more work when in check.
        let mut budget = self.p.node_budget.tests;
        if in_check {
            budget = budget.saturating_mul(4);
        }
        if let Some(d) = self.p.deadline {
            budget = budget.min(time_budget(d));
        }
        let (out, unknown) = full_actions(pos, cap, budget, budget, self.p.deadline, &mut HashSet::new());
        self.actions += out.len() as u64;
        let unknown = out_is_unknown(&out, unknown);
        (out, unknown)
    }

    /// Whether the quick generator gave up with `found` actions, too few to search.
    fn short(&self, quick: &QuickGen, found: usize) -> bool {
        !quick.complete && (found as u64) * 100 < u64::from(self.p.o.fill_actions) * self.p.node_cap as u64
    }

    /// More actions for a node whose quick generation was short, from the full legal-action
    /// search (which cuts whole regions of failing combinations at once), skipping `seen`.
    fn fill(&mut self, pos: &Position, found: usize, seen: &mut HashSet<u64>) -> Vec<Vec<Move>> {
        let mut budget = self.p.node_budget.tests;
        if let Some(d) = self.p.deadline {
            budget = budget.min(time_budget(d));
        }
        let room = self.p.node_cap.saturating_sub(found);
        full_actions(pos, room, budget, budget, self.p.deadline, seen).0
    }

    /// The root's actions: the quick generator's, completed by the full legal-action search
    /// (actions with optional moves). When neither finds one in the planned time, the search
    /// goes on, with growing budgets, until the emergency deadline. The flag is true when no
    /// action was found and nothing is proven.
    fn root_gen(&mut self, pos: &Position) -> (Vec<Vec<Move>>, bool) {
        let cap = self.p.root_cap;
        let quick_deadline = match (self.p.soft, self.p.deadline) {
            (Some(s), _) => Some(s),
            (None, d) => d,
        };
        let mut quick = self.quick(cap, quick_deadline);
        let mut out = quick.run(pos);
        let mut seen: HashSet<u64> = out.iter().map(|a| action_set_key(a)).collect();
        if !out.is_empty() {
            // More actions (optional moves on other boards), within a small part of the time.
            let budget = match self.p.soft {
                Some(s) => time_budget(s) / 2,
                None => self.p.node_budget.tests.saturating_mul(10),
            };
            let room = cap.saturating_sub(out.len()).max(cap / 4);
            let (more, _) = full_actions(pos, room, budget, budget, self.p.soft, &mut seen);
            out.extend(more);
            self.actions += out.len() as u64;
            return (out, false);
        }
        let (out, unknown) = full_actions(
            pos,
            cap,
            FIRST_FIND_BUDGET,
            MAX_FIND_BUDGET,
            self.p.emergency,
            &mut seen,
        );
        self.actions += out.len() as u64;
        let unknown = out_is_unknown(&out, unknown);
        (out, unknown)
    }

    /// The actions best first, each with whether it is tactical (a capture, a promotion, a
    /// check as far as tested, the stored best or a killer), which late-move reductions spare.
    fn order(
        &self,
        pos: &Position,
        actions: Vec<Vec<Move>>,
        tt_best: u64,
        ply: usize,
        depth: i32,
    ) -> Vec<(Vec<Move>, bool)> {
        let killers = self.killers[ply.min(MAX_PLY)];
        let checks = depth >= 2 && pos.timeline_count() <= ORDER_CHECKS_MAX_TIMELINES;
        let (w, h) = (pos.size().width as i32, pos.size().height as i32);
        let mut work = pos.clone();
        let mut scored: Vec<(i32, Vec<Move>, bool)> = actions
            .into_iter()
            .enumerate()
            .map(|(i, a)| {
                let k = action_set_key(&a);
                let mut s: i32 = a.iter().map(|m| move_score(m, w, h)).sum();
                let mut tactical = a.iter().any(|m| m.captured.is_some() || m.promotion.is_some());
                if k == tt_best {
                    s += 1 << 28;
                    tactical = true;
                } else if k == killers[0] || k == killers[1] {
                    s += 900;
                    tactical = true;
                }
                // Checks, where the subtree is worth the test.
                if checks && i < 48 && gives_check(&mut work, &a) {
                    s += 700;
                    tactical = true;
                }
                (s, a, tactical)
            })
            .collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        scored.into_iter().map(|(_, a, t)| (a, t)).collect()
    }

    /// The score of a leaf: the static evaluation, unless the side to move is in check and has
    /// no legal action (mated: found here so that the search sees mates on its horizon).
    fn leaf(&mut self, pos: &mut Position, ply: usize) -> i32 {
        let in_check = pos.in_check_mut();
        if in_check && self.mated(pos) {
            return -MATE + ply as i32;
        }
        let stand = evaluate_checked(pos, in_check, &self.p.o.weights);
        if self.p.o.leaf_threat > 0 && !in_check && pos.timeline_count() <= self.p.o.leaf_threat_lines {
            stand + capture_gain(pos) * self.p.o.leaf_threat / 100
        } else {
            stand
        }
    }

    /// The score, for the side to move at `ply`, of the action played on `work` (a node of the
    /// last ply before the leaves): its leaf, seen without a copy.
    fn last_ply_score(&mut self, work: &mut Position, ply: usize) -> i32 {
        self.nodes += 1;
        -work.with_submitted(|child| self.leaf(child, ply + 1))
    }

    /// Whether the side to move (in check) provably has no legal action.
    fn mated(&mut self, pos: &Position) -> bool {
        if !QuickGen::new(1, 96, self.p.deadline).run(pos).is_empty() {
            return false;
        }
        let mut budget = self.p.node_budget.tests.saturating_mul(2);
        if let Some(d) = self.p.deadline {
            budget = budget.min(time_budget(d));
        }
        let mut it = pos.legal_actions(Budget::tests(budget));
        loop {
            match it.next() {
                Some(a) => {
                    if replays(pos, &a) {
                        return false;
                    }
                }
                None => return !it.exhausted(),
            }
        }
    }

    /// The score of `pos` searched `depth` plies deep with the window `alpha..beta`, its line
    /// in `pv` (0 when the search was stopped).
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv: &mut Vec<Vec<Move>>,
    ) -> i32 {
        pv.clear();
        self.node(pos, depth, ply, alpha, beta, pv).unwrap_or(0)
    }

    /// [`negamax`](Self::negamax)'s work. This and the parts below return `None` when the search
    /// was stopped (whatever they found is then left out of the table).
    fn node(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv: &mut Vec<Vec<Move>>,
    ) -> Option<i32> {
        if self.check_abort() {
            return None;
        }
        self.nodes += 1;
        if depth <= 0 || ply >= MAX_PLY {
            return Some(self.leaf(&mut pos.clone(), ply));
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Some(alpha);
        }
        let key = pos.hash();
        let tt_best = match self.probe(key, depth, ply, alpha, beta) {
            Ok(best) => best,
            Err(stored) => return Some(stored),
        };
        let in_check = pos.in_check();
        if let Some(s) = self.prune(pos, depth, ply, beta, in_check)? {
            return Some(s);
        }
        let mut f = Frame::new(alpha, beta);
        // The stored best action first, before any generation: when it refutes the position
        // (most often it does), the generator's work is saved.
        let mut searched = 0;
        if let Some((child, action)) = self.stored_action(pos, key, tt_best) {
            let mut child_pv = Vec::new();
            let s = -self.negamax(&child, depth - 1, ply + 1, -f.beta, -f.alpha, &mut child_pv);
            if self.aborted {
                return None;
            }
            searched = 1;
            f.offer(s, tt_best, &action, pv, &mut child_pv);
            if f.cut() {
                return Some(self.finish(key, f, depth, ply));
            }
        }
        if depth == 1 && self.p.o.optional_tactics == 0 {
            let stored = (searched > 0).then_some(tt_best);
            if self.last_ply(pos, ply, stored, &mut f, pv)? > 0 || searched > 0 {
                return Some(self.finish(key, f, depth, ply));
            }
        }
        let (mut actions, unknown) = self.gen(pos, in_check);
        if self.check_abort() {
            return None;
        }
        if searched > 0 {
            actions.retain(|a| action_set_key(a) != tt_best);
        }
        if actions.is_empty() && searched == 0 {
            return Some(if unknown {
                evaluate_checked(pos, in_check, &self.p.o.weights)
            } else if in_check {
                -MATE + ply as i32
            } else {
                0
            });
        }
        let actions = self.order(pos, actions, tt_best, ply, depth);
        self.each_action(pos, &actions, depth, ply, searched, in_check, &mut f, pv)?;
        Some(self.finish(key, f, depth, ply))
    }

    /// The table's entry for `pos` (hash `key`): its stored score when it decides the node at
    /// `depth` with the window `alpha..beta` (`Err`), else its best action's key (0 for none).
    fn probe(&self, key: u64, depth: i32, ply: usize, alpha: i32, beta: i32) -> Result<u64, i32> {
        let Some(e) = self.tt.probe(key) else {
            return Ok(0);
        };
        if e.depth as i32 >= depth {
            let s = score_from_tt(e.score, ply);
            match e.bound {
                Bound::Exact => return Err(s),
                Bound::Lower if s >= beta => return Err(s),
                Bound::Upper if s <= alpha => return Err(s),
                _ => {}
            }
        }
        Ok(e.best)
    }

    /// The score that ends a node before any action is searched, if one does: reverse futility
    /// and the null move.
    fn prune(&mut self, pos: &Position, depth: i32, ply: usize, beta: i32, in_check: bool) -> Option<Option<i32>> {
        // Reverse futility: near the leaves, a static score far above beta stands.
        if self.p.o.futility > 0 && depth <= self.p.o.futility_depth && ply > 0 && !in_check && beta.abs() < MATE_BOUND
        {
            let stand = evaluate_checked(pos, false, &self.p.o.weights);
            if stand - self.p.o.futility * depth >= beta {
                return Some(Some(stand - self.p.o.futility * depth));
            }
        }
        // Null move: if passing still beats beta in a reduced search, so will some action (not
        // when in check, where passing is no action at all, nor twice in a row).
        if self.p.o.null_move
            && depth >= self.p.o.null_min_depth
            && ply > 0
            && !in_check
            && !self.passed[ply]
            && beta.abs() < MATE_BOUND
            && evaluate_checked(pos, false, &self.p.o.weights) >= beta
        {
            let r = if depth >= 6 { 3 } else { 2 };
            let mut null = pos.clone();
            let mut child_pv = Vec::new();
            self.passed[ply + 1] = true;
            let s = -null.with_passed(|c| self.negamax(c, depth - 1 - r, ply + 1, -beta, -beta + 1, &mut child_pv));
            self.passed[ply + 1] = false;
            if self.aborted {
                return None;
            }
            if s >= beta {
                return Some(Some(if s > MATE_BOUND { beta } else { s }));
            }
        }
        Some(None)
    }

    /// The last ply before the leaves: each action is scored as soon as the generator finds it,
    /// so that a refutation ends the generation too. `stored` is the key of the stored action
    /// already searched, if one was. Returns how many actions were found.
    fn last_ply(
        &mut self,
        pos: &Position,
        ply: usize,
        stored: Option<u64>,
        f: &mut Frame,
        pv: &mut Vec<Vec<Move>>,
    ) -> Option<usize> {
        let mut quick = self.quick(self.p.node_cap, self.p.deadline);
        let mut keys: HashSet<u64> = stored.into_iter().collect();
        let mut found = quick.each(pos, &mut |work, action| {
            let k = action_set_key(action);
            keys.insert(k);
            if stored == Some(k) {
                return false;
            }
            if self.check_abort() {
                return true;
            }
            let s = self.last_ply_score(work, ply);
            f.offer(s, k, action, pv, &mut Vec::new());
            f.cut()
        });
        if self.aborted {
            return None;
        }
        if found > 0 && !f.cut() && self.short(&quick, found) {
            let mut work = pos.clone();
            for action in self.fill(pos, found, &mut keys) {
                if self.check_abort() {
                    return None;
                }
                found += 1;
                for m in &action {
                    work.play_unchecked(m);
                }
                let s = self.last_ply_score(&mut work, ply);
                work.undo_action_moves();
                f.offer(s, action_set_key(&action), &action, pv, &mut Vec::new());
                if f.cut() {
                    break;
                }
            }
        }
        self.actions += found as u64;
        Some(found)
    }

    /// Searches the ordered `actions` of a node after the `searched` ones already searched (the
    /// stored action), with late-move pruning and reductions, until one refutes it.
    #[allow(clippy::too_many_arguments)]
    fn each_action(
        &mut self,
        pos: &Position,
        actions: &[(Vec<Move>, bool)],
        depth: i32,
        ply: usize,
        searched: usize,
        in_check: bool,
        f: &mut Frame,
        pv: &mut Vec<Vec<Move>>,
    ) -> Option<()> {
        let mut child_pv = Vec::new();
        // A node of the principal line is shared with the helpers (see `Lead::reach`).
        let mut lead = Lead::new(self.leads().filter(|_| f.beta > f.alpha0 + 1 && depth >= 3), ply);
        for (k, (a, tactical)) in actions.iter().enumerate() {
            let i = k + searched;
            let (alpha, beta) = (f.alpha, f.beta);
            lead.reach(i, k, alpha, || Node {
                pos: Arc::new(pos.clone()),
                actions: actions.iter().map(|(a, _)| a.clone()).collect(),
                depth,
                alpha,
                beta,
            });
            if self.p.o.late_move_prune > 0
                && depth == 2
                && i >= self.p.o.late_move_prune
                && !in_check
                && !tactical
                && f.score > -MATE_BOUND
            {
                continue;
            }
            let child = child_of(pos, a);
            let mut s;
            if i == 0 {
                s = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, &mut child_pv);
            } else {
                // Late quiet actions: a shallower look first.
                let reduce = self.p.o.lmr && depth >= 3 && i >= 3 && !in_check && !tactical;
                if reduce {
                    let r = if depth >= 5 && i >= 12 { 2 } else { 1 };
                    s = -self.negamax(&child, depth - 1 - r, ply + 1, -alpha - 1, -alpha, &mut child_pv);
                } else {
                    s = alpha + 1;
                }
                if s > alpha && !self.aborted {
                    s = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha, &mut child_pv);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, &mut child_pv);
                }
            }
            if self.aborted {
                return None;
            }
            f.offer(s, action_set_key(a), a, pv, &mut child_pv);
            if f.cut() {
                break;
            }
        }
        Some(())
    }

    /// Ends a node: remembers a refutation as a killer, stores the result, and returns the
    /// node's score.
    fn finish(&mut self, key: u64, f: Frame, depth: i32, ply: usize) -> i32 {
        if f.score >= f.beta {
            self.cutoff(ply, f.key);
        }
        let bound = Bound::of(f.score, f.alpha0, f.beta);
        let stored = score_to_tt(f.score, ply);
        self.tt.store(key, f.key, f.action.as_deref(), stored, depth, bound);
        f.score
    }

    /// Moves the soft limit `percent` per cent further from the start (never past the hard one).
    fn extend_soft(&mut self, percent: u32) {
        if let (Some(soft), Some(hard)) = (self.p.soft, self.p.deadline) {
            let span = soft.saturating_duration_since(self.start);
            self.p.soft = Some((self.start + span * (100 + percent) / 100).min(hard));
        }
    }

    /// Remembers an action that refuted a position at `ply` (a killer).
    fn cutoff(&mut self, ply: usize, key: u64) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != key {
            k[1] = k[0];
            k[0] = key;
        }
    }

    /// The position after the best action stored for `pos` (hash `key`, action key `best`),
    /// with the action, when it is still legal here (a stored entry may belong to another
    /// position with the same hash).
    fn stored_action(&self, pos: &Position, key: u64, best: u64) -> Option<(Position, Vec<Move>)> {
        if best == 0 {
            return None;
        }
        let stored = self.tt.action(key)?;
        let mut child = pos.clone();
        let mut action = Vec::with_capacity(stored.len());
        for m in stored {
            let found = child.find_move(m.from, m.to, m.promotion).ok()?;
            child.play_unchecked(&found);
            action.push(found);
        }
        if !submittable(&child) || action_set_key(&action) != best {
            return None;
        }
        child.submit_unchecked();
        Some((child, action))
    }

    /// The root's actions (generated once for all the threads of a search).
    pub fn root_actions(&mut self, pos: &Position) -> Vec<Vec<Move>> {
        self.root_gen(pos).0
    }

    /// A helper's work (see [`Part::Helper`]) at the root `pos` with `actions`, until stopped;
    /// returns the deepest iteration it finished when searching ahead, if any.
    pub fn help(&mut self, pos: &Position, actions: &[Vec<Move>]) -> Option<Found> {
        let Part::Helper(team) = self.part else { return None };
        let mut deepest: Option<Found> = None;
        while !self.check_abort() {
            if !self.scout(team) {
                // Nothing to scout: search ahead until there is.
                self.ahead = true;
                let found = self.root_search(pos, actions.to_vec(), &mut |_| {});
                if found.best.is_some() && found.depth > deepest.as_ref().map_or(0, |f| f.depth) {
                    deepest = Some(found);
                }
                self.ahead = false;
                if !self.aborted {
                    // Every depth allowed is searched: wait for scouting work or the end.
                    std::thread::sleep(Duration::from_micros(100));
                }
                self.aborted = false;
            }
        }
        deepest
    }

    /// Scouts one action of the team's principal line, if one is waiting; false if none is.
    fn scout(&mut self, team: &Team) -> bool {
        let Some(scout) = team.take() else {
            return false;
        };
        let child = child_of(&scout.node.pos, scout.action());
        let (depth, ply, alpha, beta) = (scout.node.depth - 1, scout.ply, scout.node.alpha, scout.node.beta);
        // The main thread will search this action with a null window at `alpha` first, and with
        // the whole window when it beats alpha: store both.
        let mut pv = Vec::new();
        let s = -self.negamax(&child, depth, ply, -alpha - 1, -alpha, &mut pv);
        if s > alpha && s < beta && !self.aborted {
            self.negamax(&child, depth, ply, -beta, -alpha, &mut pv);
        }
        true
    }

    /// Iterative deepening over the root's `actions`; `on_info` is called after every finished
    /// depth.
    pub fn root_search(
        &mut self,
        pos: &Position,
        actions: Vec<Vec<Move>>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Found {
        if actions.is_empty() {
            let score = if pos.in_check() { -MATE } else { 0 };
            return Found {
                best: None,
                score,
                depth: 0,
                pv: Vec::new(),
            };
        }
        let tt_best = self.tt.probe(pos.hash()).map_or(0, |e| e.best);
        let mut actions: Vec<Vec<Move>> = self
            .order(pos, actions, tt_best, 0, 2)
            .into_iter()
            .map(|(a, _)| a)
            .collect();
        let mut found = Found {
            best: Some(actions[0].clone()),
            score: 0,
            depth: 0,
            pv: vec![actions[0].clone()],
        };
        if actions.len() == 1 && self.p.max_depth > 1 && self.p.deadline.is_some() {
            // Only one legal action: no need to think (but give a score from a shallow look).
            self.p.max_depth = 1;
        }
        let lines = self.p.o.multipv.max(1);
        let mut iter_times: Vec<Duration> = Vec::new();
        // Critical actions get more time: in check or with several timelines at the start, and
        // whenever an iteration changes its mind (another best action, or a falling score).
        let critical = self.p.o.time_critical;
        if critical > 0 && (pos.in_check() || pos.timeline_count() > 2) {
            self.extend_soft(critical);
        }
        let mut last: Option<(u64, i32)> = None;
        let mut depth = 0;
        loop {
            depth += 1;
            match self.part {
                Part::Alone => {}
                Part::Main(team) => team.set_depth(depth as u32),
                Part::Helper(team) => depth = depth.max(team.depth() as i32 + 1),
            }
            if depth > self.p.max_depth as i32 {
                break;
            }
            if let (Some((key, score)), true) = (last, critical > 0 && depth > 3) {
                let best = found.best.as_deref().map_or(0, action_set_key);
                if key != best || found.score < score - 60 {
                    self.extend_soft(critical / 2);
                }
            }
            last = Some((found.best.as_deref().map_or(0, action_set_key), found.score));
            if depth > 1 && self.p.soft.is_some_and(|s| Instant::now() >= s) {
                break;
            }
            if self.p.o.predict_iterations && depth > 2 && self.next_iteration_is_cut(&iter_times) {
                break;
            }
            let iter_start = Instant::now();
            let pass = self.root_iteration(pos, &actions, depth, lines, found.score);
            let complete = !self.aborted;
            if let Some(bi) = pass.best {
                // A partial iteration still improves on the last one if its best action was
                // searched fully and beats the previous best, which is searched first.
                if complete || bi > 0 || found.depth == 0 {
                    found.best = Some(actions[bi].clone());
                    found.score = pass.alpha;
                    found.pv = pass.pv.clone();
                    if complete {
                        found.depth = depth as u32;
                    } else {
                        // The action played is this partial iteration's: report its line, so
                        // that the last line reported always starts with the action played.
                        let multipv = (lines > 1).then_some(1);
                        on_info(&self.info(depth, multipv, found.score, found.pv.clone()));
                    }
                }
            }
            if !complete {
                break;
            }
            iter_times.push(iter_start.elapsed());
            let bi = pass.best.unwrap_or(0);
            self.tt.store(
                pos.hash(),
                action_set_key(&actions[bi]),
                Some(&actions[bi]),
                pass.alpha,
                depth,
                Bound::Exact,
            );
            if lines == 1 {
                on_info(&self.info(depth, None, found.score, found.pv.clone()));
            } else {
                for (k, (score, line)) in pass.top.iter().enumerate() {
                    on_info(&self.info(depth, Some(k as u32 + 1), *score, line.clone()));
                }
            }
            // Best first, then by this iteration's scores.
            let mut idx: Vec<usize> = (0..actions.len()).collect();
            idx.sort_by_key(|&i| std::cmp::Reverse(pass.scores[i]));
            if let Some(bi) = pass.best {
                idx.retain(|&i| i != bi);
                idx.insert(0, bi);
            }
            actions = idx.into_iter().map(|i| actions[i].clone()).collect();
            // A proven mate needs no deeper look.
            if found.score.abs() > MATE_BOUND && (MATE - found.score.abs()) <= depth {
                break;
            }
        }
        found
    }

    /// Whether an iteration started now would be cut by the hard limit, predicted from the
    /// times of the last two: its time is then kept on the clock for later actions.
    fn next_iteration_is_cut(&self, iter_times: &[Duration]) -> bool {
        let (Some(d), Some(last)) = (self.p.deadline, iter_times.last()) else {
            return false;
        };
        let prev = iter_times.len().checked_sub(2).map_or(*last, |i| iter_times[i]);
        let growth = (last.as_secs_f64() / prev.as_secs_f64().max(1e-6)).clamp(2.0, 50.0);
        Instant::now() + last.mul_f64(growth) > d
    }

    /// One iteration at the root: the root's `actions` searched to `depth`, in an aspiration
    /// window around the last iteration's `score` (widened on the side it fails) when the
    /// `Aspiration` option is set.
    fn root_iteration(&mut self, pos: &Position, actions: &[Vec<Move>], depth: i32, lines: usize, score: i32) -> Pass {
        let asp = self.p.o.aspiration;
        let (mut lo, mut hi) = if asp > 0 && lines == 1 && depth >= 3 && score.abs() < MATE_BOUND {
            (score - asp, score + asp)
        } else {
            (-INF, INF)
        };
        loop {
            let pass = self.root_pass(pos, actions, depth, lines, lo, hi);
            if self.aborted {
                return pass;
            }
            if pass.alpha >= hi && hi < INF {
                hi = INF;
            } else if pass.best.is_none() && lo > -INF {
                lo = -INF;
            } else {
                return pass;
            }
        }
    }

    /// The root's `actions` searched once to `depth` with the window `lo..hi`. With several
    /// lines (MultiPV), every action that may enter the best `lines` gets an exact score.
    fn root_pass(&mut self, pos: &Position, actions: &[Vec<Move>], depth: i32, lines: usize, lo: i32, hi: i32) -> Pass {
        let mut pass = Pass {
            alpha: lo,
            best: None,
            pv: Vec::new(),
            scores: vec![-INF; actions.len()],
            top: Vec::new(),
        };
        let beta = hi;
        let mut child_pv = Vec::new();
        // The root is shared with the helpers as any node of the principal line is.
        let mut lead = Lead::new(self.leads().filter(|_| lines == 1 && depth >= 3), 0);
        for (i, a) in actions.iter().enumerate() {
            let alpha = pass.alpha;
            // The worst score among the best `lines` found so far.
            let floor = if lines == 1 {
                alpha
            } else if pass.top.len() < lines {
                -INF
            } else {
                pass.top[lines - 1].0
            };
            lead.reach(i, i, alpha, || Node {
                pos: Arc::new(pos.clone()),
                actions: actions.into(),
                depth,
                alpha,
                beta,
            });
            let child = child_of(pos, a);
            let mut s;
            if floor == -INF {
                s = -self.negamax(&child, depth - 1, 1, -beta, -floor, &mut child_pv);
            } else {
                s = -self.negamax(&child, depth - 1, 1, -floor - 1, -floor, &mut child_pv);
                if s > floor && !self.aborted {
                    s = -self.negamax(&child, depth - 1, 1, -beta, -floor, &mut child_pv);
                }
            }
            if self.aborted {
                break;
            }
            pass.scores[i] = s;
            if lines > 1 && s > floor {
                let mut line = vec![a.clone()];
                line.extend(child_pv.iter().cloned());
                let at = pass.top.iter().position(|t| t.0 < s).unwrap_or(pass.top.len());
                pass.top.insert(at, (s, line));
                pass.top.truncate(lines);
            }
            if s > pass.alpha {
                pass.alpha = s;
                pass.best = Some(i);
                pass.pv.clear();
                pass.pv.push(a.clone());
                pass.pv.append(&mut child_pv);
            }
            if pass.alpha >= beta {
                break;
            }
        }
        pass
    }

    /// What the search reports of a line at `depth` (`multipv`: its rank, with several lines).
    fn info(&self, depth: i32, multipv: Option<u32>, score: i32, pv: Vec<Vec<Move>>) -> SearchInfo {
        SearchInfo {
            depth: depth as u32,
            multipv,
            score: to_score(score),
            nodes: self.nodes,
            actions: self.actions,
            time: self.elapsed(),
            pv,
            hashfull: self.tt.hashfull(),
        }
    }
}

/// One pass of an iteration over the root's actions.
struct Pass {
    /// The best score (the window's lower bound when no action beat it).
    alpha: i32,
    /// The index of the best action, if one beat the window's lower bound.
    best: Option<usize>,
    /// Its line.
    pv: Vec<Vec<Move>>,
    /// Each action's score (`-INF` for those not searched).
    scores: Vec<i32>,
    /// With several lines (MultiPV), the best ones, best first.
    top: Vec<(i32, Vec<Vec<Move>>)>,
}

/// The best gain of a capture the side to move can make on a playable board with a piece worth
/// less than its victim (the victim's value less the capturer's, a lower bound whatever the
/// recapture), weighted as the evaluation weighs the material of the victim's timeline; 0 when
/// there is none. Branching captures (onto a past board) and royal capturers are not counted.
pub(crate) fn capture_gain(pos: &Position) -> i32 {
    let mut total = 0i32;
    for l in pos.timelines() {
        if pos.timeline_end(l).is_some() {
            total += timeline_weight(pos.is_active(l));
        }
    }
    if total == 0 {
        return 0;
    }
    let mut best = 0i32;
    let mut moves = Vec::new();
    for b in pos.playable_boards() {
        moves.clear();
        pos.moves_from(b, &mut moves);
        for m in &moves {
            let Some(c) = m.captured else { continue };
            if c.role().is_royal() || m.piece.role().is_royal() || m.kind == MoveKind::Branch {
                continue;
            }
            let mut gain = piece_value(c.role()) - piece_value(m.piece.role());
            if let Some(p) = m.promotion {
                gain += piece_value(p) - piece_value(m.piece.role());
            }
            if gain <= 0 {
                continue;
            }
            best = best.max(gain * timeline_weight(pos.is_active(m.to.board.l)) / total);
        }
    }
    best
}

fn out_is_unknown(out: &[Vec<Move>], exhausted: bool) -> bool {
    out.is_empty() && exhausted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::tests::moves_of;

    /// The engine's default caps and generator settings, without limits and without the
    /// pruning switches (which the generator tested here does not read).
    fn params(fill: u32) -> Params {
        let o = EngineOptions {
            null_move: false,
            lmr: false,
            fill_actions: fill,
            futility: 0,
            ..EngineOptions::default()
        };
        Params {
            deadline: None,
            soft: None,
            emergency: None,
            max_depth: 1,
            max_nodes: None,
            node_cap: o.action_cap,
            root_cap: o.action_cap * 4,
            node_budget: Budget::DEFAULT,
            o,
        }
    }

    /// A helper's scouts are in the table for the main thread: every action after the main
    /// thread's has an entry at the depth the main thread needs, one that the main thread's
    /// null window at the same bound cuts at once.
    #[test]
    fn a_helpers_scouts_reach_the_table() {
        let (pos, _) = moves_of("r3k3/8/8/8/8/8/8/R3K2R");
        let tt = Table::new(1);
        let stop = AtomicBool::new(false);
        let actions = Searcher::new(&tt, &stop, params(25), Instant::now()).root_actions(&pos);
        assert!(actions.len() > 8);
        let team = Team::default();
        let mut lead = Lead::new(Some(&team), 0);
        lead.reach(1, 0, 0, || Node {
            pos: Arc::new(pos.clone()),
            actions: actions.as_slice().into(),
            depth: 3,
            alpha: 0,
            beta: 1,
        });
        let mut h = Searcher::new(&tt, &stop, params(25), Instant::now()).with_part(Part::Helper(&team));
        let mut scouted = 0;
        while h.scout(&team) {
            scouted += 1;
        }
        assert_eq!(scouted, actions.len() - 1);
        for a in &actions[1..] {
            let e = tt.probe(child_of(&pos, a).hash()).expect("scouted");
            let s = score_from_tt(e.score, 1);
            assert!(e.depth >= 2, "{e:?}");
            // The child is searched with the window -1..0 by the main thread's null window.
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= 0,
                Bound::Upper => s <= -1,
            };
            assert!(cut, "{e:?}");
        }
        assert!(!h.scout(&team));
    }

    #[test]
    fn a_short_quick_generation_is_filled_by_the_full_search() {
        // A match game of session 9 in Timeline Battlegrounds: Black to move on eight
        // timelines, where most combinations of per-board moves leave a king in check across
        // time. The quick generator gives up after a few actions, none of them one of Black's
        // mates in one; the fill finds them.
        let pgn = include_str!("../tests/data/fill-battlegrounds.5dpgn");
        let loaded = chess5d_notation::load(pgn).expect("the game reads");
        let mut game = chess5d_rules::Game::new(loaded.start().clone());
        for a in loaded.game().actions() {
            game.play_action(&a.moves).expect("legal");
        }
        let pos = game.position().clone();
        assert_eq!(pos.timeline_count(), 8);
        let mates = |actions: &[Vec<Move>]| {
            actions
                .iter()
                .filter(|a| {
                    let child = child_of(&pos, a);
                    child.in_check() && child.legal_actions(Budget::DEFAULT).next().is_none()
                })
                .count()
        };
        let stop = AtomicBool::new(false);
        let generated = |fill: u32| {
            let tt = Table::new(1);
            let mut s = Searcher::new(&tt, &stop, params(fill), Instant::now());
            s.gen(&pos, false)
        };
        let (quick, _) = generated(0);
        let (filled, unknown) = generated(25);
        assert!(!unknown);
        assert!(quick.len() < 24, "the quick generator found {} actions", quick.len());
        assert_eq!(filled.len(), 96, "filled up to the cap");
        assert_eq!(filled[..quick.len()], quick[..], "the quick actions come first");
        assert!(mates(&filled) >= 1, "no mate among the filled actions");
        let keys: HashSet<u64> = filled.iter().map(|a| action_set_key(a)).collect();
        assert_eq!(keys.len(), filled.len(), "no action twice");
    }
}
