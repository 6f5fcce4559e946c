//! Iterative-deepening principal-variation alpha-beta (negamax) over whole actions.

use crate::eval::{evaluate_checked, piece_value, placement, timeline_weight};
use crate::options::EngineOptions;
use crate::report::{Score, SearchInfo};
use crate::tt::{Bound, Table};
use chess5d_rules::{Budget, Move, MoveKind, Position, Role, Square, SubmitTest};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use web_time::Instant;

/// The score of being mated now; mate in `n` plies scores `MATE - n`.
pub(crate) const MATE: i32 = 1_000_000;
/// Scores beyond this (in absolute value) are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - 10_000;
const INF: i32 = MATE + 1;
pub(crate) const MAX_PLY: usize = 128;

/// A key identifying an action (its moves' squares and promotions, in order); never 0.
pub(crate) fn action_key(action: &[Move]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    for m in action {
        let a = ((m.from.board.l as i64 as u64) << 40)
            ^ ((m.from.board.t as u32 as u64) << 8)
            ^ m.from.square.index() as u64;
        let b = ((m.to.board.l as i64 as u64) << 40)
            ^ ((m.to.board.t as u32 as u64) << 8)
            ^ m.to.square.index() as u64
            ^ ((m.promotion.map_or(0, |r| r as u64)) << 62);
        h = mix(h ^ a);
        h = mix(h ^ b);
    }
    h | 1
}

/// splitmix64's finaliser: a well-spread 64-bit value from any input.
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays a whole action on a copy of `pos` and hands the turn over.
pub(crate) fn child_of(pos: &Position, action: &[Move]) -> Position {
    let mut child = pos.clone();
    for m in action {
        child.play_unchecked(m);
    }
    child.submit_unchecked();
    child
}

/// Finds legal actions with the full legal-action search (which also finds actions with
/// optional moves and proves that there is none), at most `cap` of them, skipping those whose
/// order-independent key is in `seen`. The budget starts at `budget` tests and, while nothing is
/// found and the budget runs out, grows fourfold up to `max_budget` as long as the next round
/// is expected to end before `until`. Returns the actions and whether the list may be
/// incomplete because a budget ran out (with no action found: nothing is proven).
pub(crate) fn full_actions(
    pos: &Position,
    cap: usize,
    budget: u64,
    max_budget: u64,
    until: Option<Instant>,
    seen: &mut HashSet<u64>,
) -> (Vec<Vec<Move>>, bool) {
    let mut b = budget.max(1).min(max_budget.max(1));
    if let Some(u) = until {
        // Before any measure, assume a slow position (50 us per test) for the first round.
        let left = u.saturating_duration_since(Instant::now()).as_micros() as u64;
        b = b.min((left / 50).max(MIN_ROUND_BUDGET));
    }
    loop {
        let t0 = Instant::now();
        let mut it = pos.legal_actions(Budget::tests(b));
        let mut out = Vec::new();
        while out.len() < cap {
            if !out.is_empty() && until.is_some_and(|u| Instant::now() >= u) {
                return (out, true);
            }
            match it.next() {
                Some(a) => {
                    let k = action_set_key(&a);
                    if seen.contains(&k) {
                        continue;
                    }
                    if let Some(a) = playable_order(pos, a) {
                        seen.insert(k);
                        out.push(a);
                    }
                }
                None => break,
            }
        }
        if !out.is_empty() || !it.exhausted() || b >= max_budget {
            return (out, it.exhausted());
        }
        // Nothing found and the budget ran out: try again with more, if it fits in the time.
        let mut next = b.saturating_mul(4).min(max_budget);
        if let Some(u) = until {
            let per_test = (t0.elapsed().as_nanos() / u128::from(it.tests().max(1))).max(1);
            let left = u.saturating_duration_since(Instant::now()).as_nanos();
            let fits = (left / per_test) as u64;
            if fits < b.saturating_mul(2) {
                return (out, true);
            }
            next = next.min(fits);
        }
        b = next;
    }
}

/// Up to `cap` legal actions for the simple bots: the quick generator's, else the full
/// search's (given all the time until `until` to find one when there is one).
pub(crate) fn gather_actions(
    pos: &Position,
    cap: usize,
    deadline: Option<Instant>,
    until: Option<Instant>,
) -> Vec<Vec<Move>> {
    let out = QuickGen::new(cap, cap as u64 * 16 + 256, deadline).run(pos);
    if !out.is_empty() {
        return out;
    }
    full_actions(pos, cap, FIRST_FIND_BUDGET, MAX_FIND_BUDGET, until, &mut HashSet::new()).0
}

/// The smallest round of the full search under a clock.
const MIN_ROUND_BUDGET: u64 = 200;
/// The first budget of the full search when the quick generator found nothing.
const FIRST_FIND_BUDGET: u64 = 20_000;
/// The largest budget spent to find one action (without a clock, this bounds the time taken
/// in the rare positions the legal-action search cannot decide).
pub(crate) const MAX_FIND_BUDGET: u64 = 50_000_000;

/// The action in an order in which its moves can be played one by one and submitted, if there
/// is one. The full legal-action search may list the moves of an action in an order that
/// cannot be played one by one (two pieces hopping onto each other's boards).
pub(crate) fn playable_order(pos: &Position, action: Vec<Move>) -> Option<Vec<Move>> {
    if replays(pos, &action) {
        return Some(action);
    }
    // Play any move that can be played, until all are (a few moves: quadratic is fine).
    let mut p = pos.clone();
    let mut left = action;
    let mut out = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let i = left.iter().position(|m| {
            let mut q = p.clone();
            q.play(m).is_ok()
        })?;
        let m = left.remove(i);
        p.play(&m).ok()?;
        out.push(m);
    }
    submittable(&p).then_some(out)
}

/// Whether the action built so far may be submitted ([`Position::can_submit`] without the
/// error's description, which costs more than the test).
pub(crate) fn submittable(p: &Position) -> bool {
    p.action_len() > 0 && p.mandatory_boards().is_empty() && p.find_attack(p.to_move().other()).is_none()
}

/// Whether an action can be played move after move and submitted.
pub(crate) fn replays(pos: &Position, action: &[Move]) -> bool {
    let mut p = pos.clone();
    action.iter().all(|m| p.play(m).is_ok()) && submittable(&p)
}

/// A budget for the full legal-action search that fits in the time left before `deadline`
/// even in a big multiverse (at 200 us per candidate test; small positions test in a few).
pub(crate) fn time_budget(deadline: Instant) -> u64 {
    let ms = deadline.saturating_duration_since(Instant::now()).as_millis() as u64;
    (ms * 5).clamp(50, Budget::DEFAULT.tests)
}

/// An order-independent key of an action (the same moves in another order give the same key).
pub(crate) fn action_set_key(action: &[Move]) -> u64 {
    let mut keys: Vec<u64> = action.iter().map(|m| action_key(std::slice::from_ref(m))).collect();
    keys.sort_unstable();
    keys.iter().fold(0x51_7CC1_B727_220A, |h, k| mix(h ^ k)) | 1
}

/// Finds actions quickly by playing one move on each mandatory board in turn (no optional
/// moves on other boards) and keeping the combinations that can be submitted. Captures come
/// first. Returns the actions and whether the space of such combinations was covered.
///
/// This is much cheaper than the full legal-action search in positions with several timelines,
/// and finds most of the actions that matter; the full search is used to prove that a position
/// has no action at all.
pub(crate) struct QuickGen {
    pub cap: usize,
    pub max_tries: u64,
    pub tries: u64,
    pub deadline: Option<Instant>,
    pub complete: bool,
    visits: u64,
    /// Most actions found (and a twelfth of the tries) below each move of the first board.
    per_first: usize,
    /// Whether `per_first` grows when the first board has few moves.
    pub spread: bool,
    /// The ordering bonus of a move that checks on the board it lands on (0: not tested).
    pub check_bonus: i32,
    /// The submission test prepared on the position the actions start from.
    test: Option<SubmitTest>,
    /// Actions found so far.
    found: usize,
    /// Whether a move that leaves its mover's royal capturable on a board it made is skipped.
    pub prune: bool,
    /// Whether the visitor asked to stop.
    stopped: bool,
}

impl QuickGen {
    pub fn new(cap: usize, max_tries: u64, deadline: Option<Instant>) -> QuickGen {
        QuickGen {
            cap,
            max_tries,
            tries: 0,
            deadline,
            complete: true,
            visits: 0,
            per_first: 4,
            spread: false,
            check_bonus: 0,
            test: None,
            found: 0,
            prune: true,
            stopped: false,
        }
    }

    pub fn run(&mut self, pos: &Position) -> Vec<Vec<Move>> {
        let mut out = Vec::new();
        self.each(pos, &mut |_, action| {
            out.push(action.to_vec());
            false
        });
        out
    }

    /// Hands every action found to `visit`, in the order found, with the position it leads to
    /// (before the turn is handed over); `visit` returns true to stop the generation (a search
    /// that has refuted the position needs no more actions). Returns how many were found.
    pub fn each(&mut self, pos: &Position, visit: &mut dyn FnMut(&mut Position, &[Move]) -> bool) -> usize {
        let mut work = pos.clone();
        let mut acc = Vec::new();
        self.test = Some(pos.submit_test());
        self.found = 0;
        self.dfs(&mut work, &mut acc, visit);
        self.found
    }

    /// Plays a move on the first mandatory board and recurses. Below the first board, each
    /// subtree stops after a few actions or tries, so that the first board's moves all get a
    /// turn instead of one of them taking the whole cap with combinations of the others.
    fn dfs(&mut self, pos: &mut Position, acc: &mut Vec<Move>, visit: &mut dyn FnMut(&mut Position, &[Move]) -> bool) {
        // The mover's boards in the same order for both colours (White's timelines count up,
        // Black's down), so that mirrored positions get mirrored actions.
        let mandatory = pos.mandatory_boards();
        let board = match pos.to_move() {
            chess5d_rules::Color::White => mandatory.first(),
            chess5d_rules::Color::Black => mandatory.last(),
        };
        let Some(&board) = board else {
            if !acc.is_empty() {
                self.tries += 1;
                let test = self.test.expect("prepared by each");
                if pos.submittable_with(test) {
                    self.found += 1;
                    if visit(pos, acc) {
                        self.stopped = true;
                    }
                }
            }
            return;
        };
        let level = acc.len();
        let (found0, tries0) = (self.found, self.tries);
        let mut moves = Vec::new();
        pos.moves_from(board, &mut moves);
        let (w, h) = (pos.size().width as i32, pos.size().height as i32);
        let check_bonus = self.check_bonus;
        moves.sort_by_cached_key(|m| {
            let bonus = if check_bonus != 0 && checks_on_board(pos, m) {
                check_bonus
            } else {
                0
            };
            std::cmp::Reverse(move_score(m, w, h) + bonus)
        });
        if level == 0 && self.spread && !moves.is_empty() {
            // Share the cap among the first board's moves: with few of them, each gets more
            // combinations of the other boards (a mate across timelines often needs a quiet
            // move on one board and a check on another, far down the second board's order).
            self.per_first = (self.cap / moves.len()).clamp(4, 16);
        }
        for m in moves {
            if self.stopped {
                return;
            }
            if self.found >= self.cap || self.tries >= self.max_tries {
                self.complete = false;
                return;
            }
            if level > 0 && (self.found - found0 >= self.per_first || self.tries - tries0 >= 12 * self.per_first as u64)
            {
                self.complete = false;
                return;
            }
            self.visits += 1;
            if self.visits & 7 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.complete = false;
                self.max_tries = 0;
                return;
            }
            pos.play_unchecked(&m);
            if self.prune && pos.last_move_exposes_royal() {
                // No action that goes on from here can be submitted.
                pos.undo_move();
                continue;
            }
            acc.push(m);
            self.dfs(pos, acc, visit);
            acc.pop();
            pos.undo_move();
        }
    }
}

/// Tactical actions the quick generator does not list: a move on a board the mover need not
/// play (the latest board of another timeline) that captures a piece worth at least a minor
/// one or gives check, completed by up to `per_move` of the quick generator's actions on the
/// mandatory boards. A mate or a defence across timelines often needs such a move, which the
/// quick generator (mandatory boards only) never plays. At most `cap` actions.
pub(crate) fn optional_tactics(
    pos: &Position,
    per_move: usize,
    cap: usize,
    deadline: Option<Instant>,
) -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    let mandatory = pos.mandatory_boards();
    let optional: Vec<_> = pos
        .playable_boards()
        .into_iter()
        .filter(|b| !mandatory.contains(b))
        .collect();
    if optional.is_empty() {
        return out;
    }
    let mut work = pos.clone();
    let mut moves = Vec::new();
    for b in optional {
        moves.clear();
        work.moves_from(b, &mut moves);
        for m in &moves {
            if out.len() >= cap {
                return out;
            }
            let capture = m
                .captured
                .is_some_and(|c| c.role().is_royal() || piece_value(c.role()) >= 300);
            work.play_unchecked(m);
            let first = QuickGen::new(1, 64, deadline).run(&work);
            let keep = first.first().is_some_and(|a| {
                capture || {
                    let mut child = work.clone();
                    for x in a {
                        child.play_unchecked(x);
                    }
                    child.submit_unchecked();
                    child.in_check()
                }
            });
            if keep {
                let rest = if per_move > 1 {
                    QuickGen::new(per_move, per_move as u64 * 8 + 32, deadline).run(&work)
                } else {
                    first
                };
                for a in rest {
                    let mut full = Vec::with_capacity(a.len() + 1);
                    full.push(*m);
                    full.extend(a);
                    out.push(full);
                }
            }
            work.undo_move();
        }
    }
    out
}

/// Whether `action` checks the opponent, played on `work` (a position between actions, left
/// as it was).
fn gives_check(work: &mut Position, action: &[Move]) -> bool {
    for m in action {
        work.play_unchecked(m);
    }
    let check = work.with_submitted(Position::in_check_mut);
    work.undo_action_moves();
    check
}

/// Whether the piece `m` moves attacks an enemy royal piece on the board it lands on, within
/// that board (a check seen without playing the action; blocking is read on the board before
/// the move, with the square left empty when the move stays on its board). A jump to a past
/// board that checks there is how many mates across timelines start: such moves must not fall
/// under a generator's cap.
pub(crate) fn checks_on_board(pos: &Position, m: &Move) -> bool {
    let Some(board) = pos.board(m.to.board) else {
        return false;
    };
    let piece = m.placed();
    let mut royals = board.royals(piece.color().other());
    if royals == 0 {
        return false;
    }
    let (fx, fy) = (m.to.square.x(), m.to.square.y());
    let vacated = (m.from.board == m.to.board).then_some(m.from.square);
    let occupied =
        |x: i32, y: i32| Square::try_new(x, y).is_some_and(|sq| Some(sq) != vacated && board.get(sq).is_some());
    let clear = |dx: i32, dy: i32| {
        let (sx, sy) = (dx.signum(), dy.signum());
        let n = dx.abs().max(dy.abs());
        (1..n).all(|k| !occupied(fx + k * sx, fy + k * sy))
    };
    while royals != 0 {
        let i = royals.trailing_zeros() as usize;
        royals &= royals - 1;
        let r = Square::from_index(i);
        let (dx, dy) = (r.x() - fx, r.y() - fy);
        let (ax, ay) = (dx.abs(), dy.abs());
        let line = (dx == 0 || dy == 0) && clear(dx, dy);
        let diagonal = ax == ay && clear(dx, dy);
        let hit = match piece.role() {
            Role::Knight => (ax == 1 && ay == 2) || (ax == 2 && ay == 1),
            Role::King | Role::CommonKing => ax.max(ay) == 1,
            Role::Rook => line,
            Role::Bishop => diagonal,
            Role::Queen | Role::RoyalQueen | Role::Princess => line || diagonal,
            Role::Pawn | Role::Brawn => {
                let forward = if piece.color() == chess5d_rules::Color::White {
                    1
                } else {
                    -1
                };
                ax == 1 && dy == forward
            }
            Role::Unicorn | Role::Dragon => false,
        };
        if hit {
            return true;
        }
    }
    false
}

/// An ordering score for one move on a board of `size`: [`cheap_order`], plus the change of
/// the moving piece's placement bonus for moves within a board, minus a cost for branching
/// jumps that capture nothing (the engine does not create timelines for nothing).
pub(crate) fn move_score(m: &Move, w: i32, h: i32) -> i32 {
    let mut s = cheap_order(std::slice::from_ref(m));
    if m.from.board == m.to.board {
        s += placement(m.placed(), m.to.square, w, h) - placement(m.piece, m.from.square, w, h);
    } else if m.captured.is_none() {
        s -= 60;
    }
    s
}

/// A cheap ordering score for an action: captures of valuable pieces first (royal captures
/// above all), promotions, then jumps.
pub(crate) fn cheap_order(action: &[Move]) -> i32 {
    let mut s = 0;
    for m in action {
        if let Some(c) = m.captured {
            s += if c.role().is_royal() {
                100_000
            } else {
                1_000 + 10 * piece_value(c.role())
            };
            s -= piece_value(m.piece.role()) / 10;
        }
        if let Some(p) = m.promotion {
            s += 500 + piece_value(p);
        }
        match m.kind {
            MoveKind::Branch => s += 40,
            MoveKind::Hop => s += 20,
            MoveKind::Castle { .. } => s += 15,
            _ => {}
        }
    }
    s
}

/// Converts an internal score to a reported one.
pub(crate) fn to_score(v: i32) -> Score {
    if v > MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v < -MATE_BOUND {
        Score::Mate(-((MATE + v) / 2))
    } else {
        Score::Cp(v)
    }
}

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

/// A search's part in a parallel search (`Threads`).
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

/// What the threads of a parallel search share besides the table: the main thread's depth, and
/// the nodes of its principal line whose later actions the helpers may scout, one per ply. A
/// node is offered once its first action is searched (the young-brothers-wait condition, so
/// that its bound is known); the main thread takes its actions from the front, the helpers from
/// the back, and the main thread finds the helpers' results in the table. Sharing the table
/// alone (Lazy SMP) did not shorten the time to a depth: the main thread's first action, which
/// takes most of an iteration, was searched twice (`LADDER.md`, session 17).
pub(crate) struct Team {
    depth: AtomicU32,
    nodes: Vec<Mutex<Option<Shared>>>,
}

/// The plies of the principal line offered to the helpers.
const SHARED_PLIES: usize = 24;

/// A node of the main thread's principal line offered to the helpers.
struct Shared {
    pos: Position,
    actions: Vec<Vec<Move>>,
    depth: i32,
    alpha: i32,
    beta: i32,
    /// The action the main thread is at.
    front: usize,
    /// How many actions the helpers took from the back.
    back: usize,
}

impl Shared {
    /// The next action from the back, if the main thread has not reached it (and the bound is
    /// not a mate's, which needs no help).
    fn next(&self) -> Option<usize> {
        let n = self.actions.len();
        (self.back < n && n - 1 - self.back > self.front && self.alpha.abs() < MATE_BOUND).then(|| n - 1 - self.back)
    }
}

/// Scouting work for a helper: a child of a shared node, its depth and ply, and the window.
struct Scout {
    child: Position,
    depth: i32,
    ply: usize,
    alpha: i32,
    beta: i32,
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
    fn node(&self, ply: usize) -> MutexGuard<'_, Option<Shared>> {
        // A helper that panicked holding the lock left whole fields: the node is still usable.
        self.nodes[ply].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Offers the node at `ply`, the main thread being at action `front` of `actions`.
    #[allow(clippy::too_many_arguments)]
    fn offer(
        &self,
        ply: usize,
        pos: &Position,
        actions: Vec<Vec<Move>>,
        depth: i32,
        alpha: i32,
        beta: i32,
        front: usize,
    ) {
        *self.node(ply) = Some(Shared {
            pos: pos.clone(),
            actions,
            depth,
            alpha,
            beta,
            front,
            back: 0,
        });
    }

    /// The main thread is at action `front` of the node at `ply`, with the bound `alpha`.
    fn advance(&self, ply: usize, front: usize, alpha: i32) {
        if let Some(node) = self.node(ply).as_mut() {
            node.front = front;
            node.alpha = node.alpha.max(alpha);
        }
    }

    /// The main thread left the node at `ply`.
    fn withdraw(&self, ply: usize) {
        *self.node(ply) = None;
    }

    fn has_work(&self) -> bool {
        (0..SHARED_PLIES).any(|ply| self.node(ply).as_ref().is_some_and(|n| n.next().is_some()))
    }

    /// Work for a helper, from the shallowest node that has some (the biggest subtrees).
    fn take(&self) -> Option<Scout> {
        (0..SHARED_PLIES).find_map(|ply| {
            let mut guard = self.node(ply);
            let node = guard.as_mut()?;
            let i = node.next()?;
            node.back += 1;
            Some(Scout {
                child: child_of(&node.pos, &node.actions[i]),
                depth: node.depth - 1,
                ply: ply + 1,
                alpha: node.alpha,
                beta: node.beta,
            })
        })
    }
}

/// The best action of a node so far: its score, its key and its moves.
struct NodeBest {
    score: i32,
    key: u64,
    action: Option<Vec<Move>>,
}

impl NodeBest {
    fn new() -> NodeBest {
        NodeBest {
            score: -INF,
            key: 0,
            action: None,
        }
    }

    /// Takes the score `s` of `action` (key `key`); when it also beats `alpha`, raises alpha
    /// and makes the line `pv` the action followed by `rest` (the child's line).
    fn offer(
        &mut self,
        s: i32,
        key: u64,
        action: &[Move],
        alpha: &mut i32,
        pv: &mut Vec<Vec<Move>>,
        rest: &mut Vec<Vec<Move>>,
    ) {
        if s <= self.score {
            return;
        }
        self.score = s;
        self.key = key;
        self.action = Some(action.to_vec());
        if s > *alpha {
            *alpha = s;
            pv.clear();
            pv.push(action.to_vec());
            pv.append(rest);
        }
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

    /// The actions to search at an interior node: the quick generator's, else (to prove mate or
    /// stalemate, or find the actions it cannot) the full legal-action search's. The flag is true
    /// when no action was found but the budget ran out, so nothing is proven.
    fn gen(&mut self, pos: &Position, in_check: bool) -> (Vec<Vec<Move>>, bool) {
        let cap = self.p.node_cap;
        let mut quick = QuickGen::new(cap, cap as u64 * 16 + 256, self.p.deadline);
        quick.spread = self.p.o.quick_spread;
        quick.check_bonus = self.p.o.check_bonus;
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
        let mut quick = QuickGen::new(cap, cap as u64 * 16 + 256, quick_deadline);
        quick.spread = self.p.o.quick_spread;
        quick.check_bonus = self.p.o.check_bonus;
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

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv: &mut Vec<Vec<Move>>,
    ) -> i32 {
        pv.clear();
        if self.check_abort() {
            return 0;
        }
        self.nodes += 1;
        if depth <= 0 || ply >= MAX_PLY {
            return self.leaf(&mut pos.clone(), ply);
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = pos.hash();
        let mut tt_best = 0;
        if let Some(e) = self.tt.probe(key) {
            tt_best = e.best;
            if e.depth as i32 >= depth {
                let s = score_from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let in_check = pos.in_check();
        let alpha0 = alpha;
        let mut best = NodeBest::new();
        let mut child_pv = Vec::new();
        // Reverse futility: near the leaves, a static score far above beta stands.
        if self.p.o.futility > 0 && depth <= self.p.o.futility_depth && ply > 0 && !in_check && beta.abs() < MATE_BOUND
        {
            let stand = evaluate_checked(pos, false, &self.p.o.weights);
            if stand - self.p.o.futility * depth >= beta {
                return stand - self.p.o.futility * depth;
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
            self.passed[ply + 1] = true;
            let s = -null.with_passed(|c| self.negamax(c, depth - 1 - r, ply + 1, -beta, -beta + 1, &mut child_pv));
            self.passed[ply + 1] = false;
            if self.aborted {
                return 0;
            }
            if s >= beta {
                return if s > MATE_BOUND { beta } else { s };
            }
        }
        // The stored best action first, before any generation: when it refutes the position
        // (most often it does), the generator's work is saved.
        let mut searched = 0;
        if let Some((child, action)) = self.stored_action(pos, key, tt_best) {
            let s = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, &mut child_pv);
            if self.aborted {
                return 0;
            }
            searched = 1;
            best.offer(s, tt_best, &action, &mut alpha, pv, &mut child_pv);
            if alpha >= beta {
                return self.finish(key, best, alpha0, beta, depth, ply);
            }
        }
        if depth == 1 && self.p.o.optional_tactics == 0 {
            // The last ply before the leaves: each action is scored as soon as the generator
            // finds it, so that a refutation ends the generation too.
            let cap = self.p.node_cap;
            let mut quick = QuickGen::new(cap, cap as u64 * 16 + 256, self.p.deadline);
            quick.spread = self.p.o.quick_spread;
            quick.check_bonus = self.p.o.check_bonus;
            let mut keys: HashSet<u64> = (searched > 0).then_some(tt_best).into_iter().collect();
            let mut found = quick.each(pos, &mut |work, action| {
                let k = action_set_key(action);
                keys.insert(k);
                if searched > 0 && k == tt_best {
                    return false;
                }
                if self.check_abort() {
                    return true;
                }
                let s = self.last_ply_score(work, ply);
                best.offer(s, k, action, &mut alpha, pv, &mut Vec::new());
                alpha >= beta
            });
            if self.aborted {
                return 0;
            }
            if found > 0 && alpha < beta && self.short(&quick, found) {
                let mut work = pos.clone();
                for action in self.fill(pos, found, &mut keys) {
                    if self.check_abort() {
                        return 0;
                    }
                    found += 1;
                    for m in &action {
                        work.play_unchecked(m);
                    }
                    let s = self.last_ply_score(&mut work, ply);
                    work.undo_action_moves();
                    best.offer(s, action_set_key(&action), &action, &mut alpha, pv, &mut Vec::new());
                    if alpha >= beta {
                        break;
                    }
                }
            }
            self.actions += found as u64;
            if found > 0 || searched > 0 {
                return self.finish(key, best, alpha0, beta, depth, ply);
            }
        }
        let (mut actions, unknown) = self.gen(pos, in_check);
        if self.check_abort() {
            return 0;
        }
        if searched > 0 {
            actions.retain(|a| action_set_key(a) != tt_best);
        }
        if actions.is_empty() && searched == 0 {
            return if unknown {
                evaluate_checked(pos, in_check, &self.p.o.weights)
            } else if in_check {
                -MATE + ply as i32
            } else {
                0
            };
        }
        let actions = self.order(pos, actions, tt_best, ply, depth);
        // A node of the principal line is offered to the helpers once its first action is searched.
        let team = self
            .leads()
            .filter(|_| beta > alpha0 + 1 && depth >= 3 && ply < SHARED_PLIES);
        let mut offered = false;
        for (k, (a, tactical)) in actions.iter().enumerate() {
            let i = k + searched;
            if let (Some(team), true) = (team, i > 0) {
                if offered {
                    team.advance(ply, k, alpha);
                } else {
                    let list = actions.iter().map(|(a, _)| a.clone()).collect();
                    team.offer(ply, pos, list, depth, alpha, beta, k);
                    offered = true;
                }
            }
            if self.p.o.late_move_prune > 0
                && depth == 2
                && i >= self.p.o.late_move_prune
                && !in_check
                && !tactical
                && best.score > -MATE_BOUND
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
                return 0;
            }
            best.offer(s, action_set_key(a), a, &mut alpha, pv, &mut child_pv);
            if alpha >= beta {
                break;
            }
        }
        if let (Some(team), true) = (team, offered) {
            team.withdraw(ply);
        }
        self.finish(key, best, alpha0, beta, depth, ply)
    }

    /// Ends a node searched with the window `alpha0..beta`: remembers a refutation as a
    /// killer, stores the result, and returns the node's score.
    fn finish(&mut self, key: u64, best: NodeBest, alpha0: i32, beta: i32, depth: i32, ply: usize) -> i32 {
        if best.score >= beta {
            self.cutoff(ply, best.key);
        }
        let bound = Bound::of(best.score, alpha0, beta);
        let stored = score_to_tt(best.score, ply);
        self.tt
            .store(key, best.key, best.action.as_deref(), stored, depth, bound);
        best.score
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
        let Some(Scout {
            child,
            depth,
            ply,
            alpha,
            beta,
        }) = team.take()
        else {
            return false;
        };
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
        let mut child_pv = Vec::new();
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
                Part::Main(team) => team.depth.store(depth as u32, Ordering::Relaxed),
                Part::Helper(team) => depth = depth.max(team.depth.load(Ordering::Relaxed) as i32 + 1),
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
            // An iteration that cannot end before the hard limit (predicted from the last two)
            // would be cut: keep its time on the clock for later actions.
            if self.p.o.predict_iterations && depth > 2 {
                if let (Some(d), Some(last)) = (self.p.deadline, iter_times.last()) {
                    let prev = iter_times.len().checked_sub(2).map_or(*last, |i| iter_times[i]);
                    let growth = (last.as_secs_f64() / prev.as_secs_f64().max(1e-6)).clamp(2.0, 50.0);
                    let need = last.mul_f64(growth);
                    if Instant::now() + need > d {
                        break;
                    }
                }
            }
            let iter_start = Instant::now();
            let lines = self.p.o.multipv.max(1);
            // Aspiration: a window around the last score first, widened on the side it fails.
            let asp = self.p.o.aspiration;
            let (mut lo, mut hi) = if asp > 0 && lines == 1 && depth >= 3 && found.score.abs() < MATE_BOUND {
                (found.score - asp, found.score + asp)
            } else {
                (-INF, INF)
            };
            let mut alpha;
            let mut beta;
            let mut best_i;
            let mut iter_pv = Vec::new();
            let mut scores;
            let mut top: Vec<(i32, Vec<Vec<Move>>)> = Vec::new();
            loop {
                alpha = lo;
                beta = hi;
                best_i = None;
                iter_pv.clear();
                scores = vec![-INF; actions.len()];
                top.clear();
                // With several lines (MultiPV), every action that may enter the best `lines` gets an
                // exact score: `floor` is the worst score among the best `lines` found so far.
                for (i, a) in actions.iter().enumerate() {
                    let floor = if lines == 1 {
                        alpha
                    } else if top.len() < lines {
                        -INF
                    } else {
                        top[lines - 1].0
                    };
                    if let (Some(team), true) = (self.leads(), lines == 1 && depth >= 3 && i > 0) {
                        if i == 1 {
                            team.offer(0, pos, actions.clone(), depth, alpha, beta, i);
                        } else {
                            team.advance(0, i, alpha);
                        }
                    }
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
                    scores[i] = s;
                    if lines > 1 && s > floor {
                        let mut line = vec![a.clone()];
                        line.extend(child_pv.iter().cloned());
                        let at = top.iter().position(|t| t.0 < s).unwrap_or(top.len());
                        top.insert(at, (s, line));
                        top.truncate(lines);
                    }
                    if s > alpha {
                        alpha = s;
                        best_i = Some(i);
                        iter_pv.clear();
                        iter_pv.push(a.clone());
                        iter_pv.append(&mut child_pv);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
                if self.aborted {
                    break;
                }
                if alpha >= hi && hi < INF {
                    hi = INF;
                    continue;
                }
                if best_i.is_none() && lo > -INF {
                    lo = -INF;
                    continue;
                }
                break;
            }
            if let Some(team) = self.leads() {
                team.withdraw(0);
            }
            let complete = !self.aborted;
            if let Some(bi) = best_i {
                // A partial iteration still improves on the last one if its best action was
                // searched fully and beats the previous best, which is searched first.
                if complete || bi > 0 || found.depth == 0 {
                    found.best = Some(actions[bi].clone());
                    found.score = alpha;
                    found.pv = iter_pv.clone();
                    if complete {
                        found.depth = depth as u32;
                    } else {
                        // The action played is this partial iteration's: report its line, so
                        // that the last line reported always starts with the action played.
                        on_info(&SearchInfo {
                            depth: depth as u32,
                            multipv: (lines > 1).then_some(1),
                            score: to_score(found.score),
                            nodes: self.nodes,
                            actions: self.actions,
                            time: self.elapsed(),
                            pv: found.pv.clone(),
                            hashfull: self.tt.hashfull(),
                        });
                    }
                }
            }
            if !complete {
                break;
            }
            iter_times.push(iter_start.elapsed());
            let bi = best_i.unwrap_or(0);
            self.tt.store(
                pos.hash(),
                action_set_key(&actions[bi]),
                Some(&actions[bi]),
                alpha,
                depth,
                Bound::Exact,
            );
            let elapsed = self.elapsed();
            if lines == 1 {
                on_info(&SearchInfo {
                    depth: depth as u32,
                    multipv: None,
                    score: to_score(found.score),
                    nodes: self.nodes,
                    actions: self.actions,
                    time: elapsed,
                    pv: found.pv.clone(),
                    hashfull: self.tt.hashfull(),
                });
            } else {
                for (k, (score, line)) in top.iter().enumerate() {
                    on_info(&SearchInfo {
                        depth: depth as u32,
                        multipv: Some(k as u32 + 1),
                        score: to_score(*score),
                        nodes: self.nodes,
                        actions: self.actions,
                        time: elapsed,
                        pv: line.clone(),
                        hashfull: self.tt.hashfull(),
                    });
                }
            }
            // Best first, then by this iteration's scores.
            let mut idx: Vec<usize> = (0..actions.len()).collect();
            idx.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
            if let Some(bi) = best_i {
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
    use chess5d_rules::{Board, Setup, Size};

    fn moves_of(fen: &str) -> (Position, Vec<Move>) {
        let size = Size::new(8, 8).unwrap();
        let board = Board::from_fen(fen, size).unwrap();
        let pos = Position::from_setup(Setup::single(size, board)).unwrap();
        let mut moves = Vec::new();
        for b in pos.playable_boards() {
            pos.moves_from(b, &mut moves);
        }
        (pos, moves)
    }

    fn checking(fen: &str) -> Vec<String> {
        let (pos, moves) = moves_of(fen);
        let mut v: Vec<String> = moves
            .iter()
            .filter(|m| checks_on_board(&pos, m))
            .map(|m| format!("{}{}", m.from.square, m.to.square))
            .collect();
        v.sort();
        v
    }

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

    /// The helpers take a shared node's actions from the back, never one the main thread has
    /// reached, with the main thread's latest bound, shallowest node first; a withdrawn node
    /// and a mate bound give no work.
    #[test]
    fn helpers_take_the_principal_line_from_the_back() {
        let (pos, moves) = moves_of("4k3/8/8/8/8/8/8/R3K3");
        let actions: Vec<Vec<Move>> = moves.iter().take(6).map(|m| vec![*m]).collect();
        let key = |p: &Position| p.hash();
        let child_keys: Vec<u64> = actions.iter().map(|a| key(&child_of(&pos, a))).collect();
        let team = Team::default();
        assert!(team.take().is_none() && !team.has_work());
        team.offer(0, &pos, actions.clone(), 4, 10, 50, 1);
        let scout = team.take().expect("work");
        assert_eq!(key(&scout.child), child_keys[5]);
        assert_eq!((scout.depth, scout.ply, scout.alpha, scout.beta), (3, 1, 10, 50));
        team.advance(0, 2, 20);
        assert_eq!(key(&team.take().expect("work").child), child_keys[4]);
        let scout = team.take().expect("work");
        assert_eq!((key(&scout.child), scout.alpha), (child_keys[3], 20));
        // Action 2 is the main thread's own.
        assert!(team.take().is_none() && !team.has_work());
        // A deeper node waits while a shallower one has work.
        team.offer(3, &pos, actions.clone(), 2, 0, 1, 0);
        team.offer(0, &pos, actions.clone(), 4, 10, 50, 4);
        assert_eq!(
            (key(&team.take().unwrap().child), team.take().unwrap().ply),
            (child_keys[5], 4)
        );
        team.withdraw(3);
        assert!(team.take().is_none());
        team.offer(1, &pos, actions, 4, MATE_BOUND + 1, MATE, 0);
        assert!(!team.has_work());
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
        team.offer(0, &pos, actions.clone(), 3, 0, 1, 0);
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
        let mut game = chess5d_rules::Game::new(loaded.start.clone());
        for a in loaded.game.actions() {
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

    #[test]
    fn checks_on_the_landing_board_are_seen() {
        // The rook checks along the eighth rank only; the king's own moves check nothing.
        assert_eq!(checking("4k3/8/8/8/8/8/8/4K2R"), vec!["h1h8"]);
        // A knight's two checking squares; a queen's lines (files, ranks and diagonals).
        assert_eq!(checking("4k3/8/8/8/4N3/8/8/4K3"), vec!["e4d6", "e4f6"]);
        assert_eq!(
            checking("k7/8/8/8/8/8/8/3QK3"),
            vec!["d1a1", "d1a4", "d1d5", "d1d8", "d1f3"]
        );
        // A blocked line does not check.
        assert_eq!(checking("k7/1p6/8/8/8/3B4/8/6K1"), Vec::<String>::new());
        // A pawn checks diagonally forward.
        assert_eq!(checking("8/8/8/3k4/8/4P3/8/4K3"), vec!["e3e4"]);
    }
}
