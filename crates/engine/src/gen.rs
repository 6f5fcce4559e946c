//! Finding actions: the quick generator (one move on each board the mover must play), the
//! full legal-action search under a budget, tactical extras, and cheap ordering scores.

use crate::eval::{piece_value, placement};
use chess5d_rules::{Budget, Move, MoveKind, Position, Role, Square, SubmitTest};
use std::collections::HashSet;
use web_time::Instant;

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
pub(crate) const FIRST_FIND_BUDGET: u64 = 20_000;
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

/// The moves the quick generator may play per try it is allowed (a count of work). Tries are
/// counted at whole actions only; with many timelines, moves on most boards can leave a royal
/// piece capturable, and the combinations of the boards before them then make millions of
/// moves without one try (seconds to minutes for one node of Timeline Marauders, unbounded
/// without a clock: a balance search of the match book, `go depth`). 64 per try also stopped
/// the search's own generations in ordinary games (main-line actions lost: 78 stops in 60
/// games); 1,024 stops only the mate probe's, whose verdict the full search gives anyway (11).
const VISITS_PER_TRY: u64 = 1024;

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
            if self.visits > self.max_tries.saturating_mul(VISITS_PER_TRY)
                || (self.visits & 7 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
            {
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
            let keep = first.first().is_some_and(|a| capture || child_of(&work, a).in_check());
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
pub(crate) fn gives_check(work: &mut Position, action: &[Move]) -> bool {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use chess5d_rules::{Board, Setup, Size};

    /// The position of one 8x8 board `fen` (White to move) and its moves.
    pub(crate) fn moves_of(fen: &str) -> (Position, Vec<Move>) {
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

    #[test]
    fn the_quick_generation_is_bounded_by_its_tries() {
        // Timeline Marauders, reached by the engine: most moves leave a king capturable on
        // some board, so whole actions (tries) are rare among the moves played. Without the
        // visit cap, one generation allowed 96 tries played 220,488 moves before its 96th.
        let text = include_str!("../tests/data/marauders-quick.5dfen");
        let pos = chess5d_notation::load(text).expect("a valid 5DFEN").start().clone();
        let mut quick = QuickGen::new(1, 96, None);
        let found = quick.run(&pos);
        assert!(quick.visits <= 96 * VISITS_PER_TRY + 1, "{} moves played", quick.visits);
        assert!(found.is_empty() && !quick.complete, "stopped by the cap, nothing found");
        // The cap grows with the tries allowed.
        let mut roomy = QuickGen::new(1, 4000, None);
        roomy.run(&pos);
        assert!(roomy.visits > 96 * VISITS_PER_TRY, "{} moves played", roomy.visits);
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
