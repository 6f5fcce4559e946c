//! Legal actions, found by searching the space of per-board choices.
//!
//! Every playable board of the mover is an *axis*: its choices are "no move", one of its own
//! moves, or being the landing board of a hop from another board. Every timeline the mover could
//! create is an axis too (a *slot*, in creation order): "not created", or created by one of the
//! jumps. A point of the product space is a candidate action. The search keeps the candidates not
//! yet examined as a list of disjoint boxes (a set of choices per axis). It takes a point of a
//! box and tests it; if the point is illegal, the test returns the *reason* as a box of
//! candidates that all fail the same way (for a check: every choice on the boards involved that
//! keeps the attacker, the empty path and the royal piece where they are), and the search
//! removes that whole box at once. Legal points are yielded and removed one by one, so each
//! legal action comes out exactly once.
//!
//! The work is counted in candidate tests; a [`Budget`] caps it, and an exhausted budget gives
//! an "unknown" answer, never a guess.

use crate::board::Board;
use crate::movegen::Attack;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{BoardId, Color, Coord, Piece, Square};

/// How much work a search may do, counted in candidate actions tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The most candidate tests.
    pub tests: u64,
}

impl Budget {
    /// The default budget: enough for every position of the project's corpora.
    pub const DEFAULT: Budget = Budget { tests: 5_000_000 };

    /// A budget of `tests` candidate tests.
    pub fn tests(tests: u64) -> Budget {
        Budget { tests }
    }

    /// No limit.
    pub const UNLIMITED: Budget = Budget { tests: u64::MAX };
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// The state of the game for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A legal action exists; here is one.
    Ongoing(Vec<Move>),
    /// No legal action, and in check: the side to move has lost.
    Checkmate,
    /// No legal action, not in check: a draw.
    Stalemate,
    /// The budget ran out before the search could decide.
    Unknown,
}

impl Outcome {
    /// `ongoing`, `checkmate`, `stalemate` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Ongoing(_) => "ongoing",
            Outcome::Checkmate => "checkmate",
            Outcome::Stalemate => "stalemate",
            Outcome::Unknown => "unknown",
        }
    }
}

/// A count of legal actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionCount {
    /// Exactly this many.
    Exact(u64),
    /// At least this many: the cap was reached.
    AtLeast(u64),
    /// At least this many were found before the budget ran out.
    Unknown(u64),
}

impl ActionCount {
    /// The number counted.
    pub fn value(self) -> u64 {
        match self {
            ActionCount::Exact(n) | ActionCount::AtLeast(n) | ActionCount::Unknown(n) => n,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opt {
    /// No move on this board / no timeline in this slot.
    Pass,
    /// A move starting on this board (physical, or the departure of a jump).
    Play(u32),
    /// The landing of a hop from another board.
    Arrive(u32),
    /// A jump creating the timeline of this slot.
    Branch(u32),
}

#[derive(Clone, Debug)]
enum AxisKind {
    Board { id: BoardId, mandatory: bool },
    Slot { l: i32 },
}

#[derive(Clone, Debug)]
struct Axis {
    kind: AxisKind,
    opts: Vec<Opt>,
    /// Index of the pass option.
    pass: usize,
    /// First word of this axis in a box.
    word: usize,
    words: usize,
}

/// What a square of a board must hold for an attack to stay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    Piece(Piece),
    Empty,
    RoyalOf(Color),
}

type Region = Vec<u64>;

/// A box of candidates that fail for one reason: restricted axes with their allowed options.
type Reason = Vec<(usize, Region)>;

/// The squares an attack needs on one axis's board: axis, board half-turn, square needs.
type AxisNeeds = (usize, i32, Vec<(Square, Need)>);

/// The lazy iterator over legal actions; see the module documentation.
#[derive(Debug)]
pub struct LegalActions {
    pos: Position,
    mover: Color,
    moves: Vec<Move>,
    /// Axis of each move's source board.
    src_axis: Vec<usize>,
    /// Axis of each jump's landing board if that board is playable by the mover.
    hop_axis: Vec<Option<usize>>,
    axes: Vec<Axis>,
    board_axis_of_line: std::collections::HashMap<i32, usize>,
    first_slot: usize,
    boxes: Vec<Region>,
    base_moves: usize,
    base_min: i32,
    base_max: i32,
    budget: u64,
    tests: u64,
    yielded: std::collections::HashSet<u64>,
    exhausted: bool,
}

fn bit(r: &Region, word: usize, i: usize) -> bool {
    r[word + i / 64] >> (i % 64) & 1 != 0
}

fn set_bit(r: &mut Region, word: usize, i: usize) {
    r[word + i / 64] |= 1 << (i % 64);
}

fn first_bit(r: &Region, word: usize, words: usize) -> Option<usize> {
    (0..words).find_map(|w| {
        let v = r[word + w];
        (v != 0).then(|| w * 64 + v.trailing_zeros() as usize)
    })
}

fn axis_empty(r: &Region, word: usize, words: usize) -> bool {
    r[word..word + words].iter().all(|&w| w == 0)
}

fn board_after(base: &Board, opt: Opt, moves: &[Move], sq: Square) -> Option<Option<Piece>> {
    match opt {
        Opt::Pass | Opt::Branch(_) => None,
        Opt::Play(m) => {
            let m = &moves[m as usize];
            if m.is_jump() {
                return Some(if sq == m.from.square { None } else { base.get(sq) });
            }
            if sq == m.to.square {
                return Some(Some(placed(m)));
            }
            if sq == m.from.square {
                return Some(None);
            }
            match m.kind {
                MoveKind::EnPassant if base.en_passant().is_some_and(|(_, p)| p == sq) => {
                    return Some(None);
                }
                MoveKind::Castle { rook_from, rook_to } => {
                    if sq == rook_from {
                        return Some(None);
                    }
                    if sq == rook_to {
                        return Some(base.get(rook_from).map(Piece::moved));
                    }
                }
                _ => {}
            }
            Some(base.get(sq))
        }
        Opt::Arrive(m) => {
            let m = &moves[m as usize];
            Some(if sq == m.to.square {
                Some(placed(m))
            } else {
                base.get(sq)
            })
        }
    }
}

#[inline]
fn placed(m: &Move) -> Piece {
    match m.promotion {
        Some(r) => Piece::new(r, m.piece.color(), false),
        None => m.piece.moved(),
    }
}

fn satisfies(p: Option<Piece>, need: Need) -> bool {
    match need {
        Need::Empty => p.is_none(),
        Need::Piece(q) => p.is_some_and(|p| p.role() == q.role() && p.color() == q.color()),
        Need::RoyalOf(c) => p.is_some_and(|p| p.is_royal_of(c)),
    }
}

impl LegalActions {
    /// Sets up the search from a position, possibly in the middle of an action.
    pub fn new(pos: &Position, budget: Budget) -> LegalActions {
        let pos = pos.clone();
        let mover = pos.to_move();
        let mandatory = pos.mandatory_boards();
        let mut axes = Vec::new();
        let mut board_axis_of_line = std::collections::HashMap::new();
        let mut moves: Vec<Move> = Vec::new();
        let mut src_axis = Vec::new();
        for id in pos.playable_boards() {
            let is_mandatory = mandatory.contains(&id);
            board_axis_of_line.insert(id.l, axes.len());
            let mut list = Vec::new();
            pos.moves_from(id, &mut list);
            // Physical moves before jumps: they are tried first.
            list.sort_by_key(|m| m.is_jump());
            let mut opts = Vec::with_capacity(list.len() + 1);
            for m in list {
                opts.push(Opt::Play(moves.len() as u32));
                src_axis.push(axes.len());
                moves.push(m);
            }
            axes.push(Axis {
                kind: AxisKind::Board {
                    id,
                    mandatory: is_mandatory,
                },
                opts,
                pass: 0,
                word: 0,
                words: 0,
            });
        }
        let mut hop_axis = vec![None; moves.len()];
        let mut jumps = Vec::new();
        let mut jumping_axes = std::collections::HashSet::new();
        for (i, m) in moves.iter().enumerate() {
            if !m.is_jump() {
                continue;
            }
            jumping_axes.insert(src_axis[i]);
            jumps.push(i as u32);
            if pos.is_playable(m.to.board) {
                let a = board_axis_of_line[&m.to.board.l];
                hop_axis[i] = Some(a);
                axes[a].opts.push(Opt::Arrive(i as u32));
            }
        }
        for axis in &mut axes {
            // Mandatory boards try moves first; other boards try passing first.
            let mandatory = matches!(axis.kind, AxisKind::Board { mandatory: true, .. });
            if mandatory {
                axis.opts.push(Opt::Pass);
                axis.pass = axis.opts.len() - 1;
            } else {
                axis.opts.insert(0, Opt::Pass);
                axis.pass = 0;
            }
        }
        let first_slot = axes.len();
        let next = pos.next_timeline(mover);
        let step = if mover == Color::White { 1 } else { -1 };
        for k in 0..jumping_axes.len() as i32 {
            let mut opts = vec![Opt::Pass];
            opts.extend(jumps.iter().map(|&j| Opt::Branch(j)));
            axes.push(Axis {
                kind: AxisKind::Slot { l: next + step * k },
                opts,
                pass: 0,
                word: 0,
                words: 0,
            });
        }
        let mut words = 0;
        for axis in &mut axes {
            axis.word = words;
            axis.words = axis.opts.len().div_ceil(64);
            words += axis.words;
        }
        let mut full = vec![0u64; words];
        for axis in &axes {
            for i in 0..axis.opts.len() {
                set_bit(&mut full, axis.word, i);
            }
        }
        let base_moves = pos.action_len();
        let (base_min, base_max) = (pos.min_timeline(), pos.max_timeline());
        LegalActions {
            pos,
            mover,
            moves,
            src_axis,
            hop_axis,
            axes,
            board_axis_of_line,
            first_slot,
            boxes: vec![full],
            base_moves,
            base_min,
            base_max,
            budget: budget.tests,
            tests: 0,
            yielded: std::collections::HashSet::new(),
            exhausted: false,
        }
    }

    /// Whether the search stopped because its budget ran out (so the actions yielded so far may
    /// not be all of them).
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// The number of candidates tested so far.
    pub fn tests(&self) -> u64 {
        self.tests
    }

    fn pick(&self, region: &Region) -> Vec<usize> {
        let mut point: Vec<usize> = self
            .axes
            .iter()
            .map(|a| first_bit(region, a.word, a.words).expect("non-empty axis"))
            .collect();
        // Repair: give each jump a landing if the region allows one.
        let mut slot_used = vec![false; self.axes.len() - self.first_slot];
        for a in 0..self.first_slot {
            let Opt::Play(m) = self.axes[a].opts[point[a]] else {
                continue;
            };
            let mi = m as usize;
            if !self.moves[mi].is_jump() {
                continue;
            }
            if let Some(h) = self.hop_axis[mi] {
                if let Some(i) = self.axes[h].opts.iter().position(|o| *o == Opt::Arrive(m)) {
                    if bit(region, self.axes[h].word, i) && matches!(self.axes[h].opts[point[h]], Opt::Pass) {
                        point[h] = i;
                        continue;
                    }
                }
            }
            for (k, used) in slot_used.iter_mut().enumerate() {
                let s = self.first_slot + k;
                if *used {
                    continue;
                }
                if let Some(i) = self.axes[s].opts.iter().position(|o| *o == Opt::Branch(m)) {
                    if bit(region, self.axes[s].word, i) {
                        point[s] = i;
                        *used = true;
                        break;
                    }
                }
            }
        }
        point
    }

    /// A reason covering exactly the axes listed, each restricted to the given options.
    fn reason_of(&self, parts: &[(usize, Vec<usize>)]) -> Reason {
        parts
            .iter()
            .map(|(a, opts)| {
                let axis = &self.axes[*a];
                let mut r = vec![0u64; axis.words];
                for &o in opts {
                    set_bit(&mut r, 0, o);
                }
                (*a, r)
            })
            .collect()
    }

    fn all_but(&self, a: usize, region: &Region, keep_out: &[usize]) -> Vec<usize> {
        let axis = &self.axes[a];
        (0..axis.opts.len())
            .filter(|i| bit(region, axis.word, *i) && !keep_out.contains(i))
            .collect()
    }

    fn opt_index(&self, a: usize, o: Opt) -> Option<usize> {
        self.axes[a].opts.iter().position(|x| *x == o)
    }

    /// Tests a point. `Ok(moves)` if legal; otherwise the reason, as a box given by its
    /// restricted axes (all other axes are unrestricted).
    fn test(&mut self, region: &Region, point: &[usize]) -> Result<(Vec<Move>, u64), Reason> {
        let opts: Vec<Opt> = self.axes.iter().zip(point).map(|(a, &i)| a.opts[i]).collect();
        // At least one move.
        if self.base_moves == 0 && opts.iter().all(|o| *o == Opt::Pass) {
            let parts: Vec<(usize, Vec<usize>)> = (0..self.axes.len()).map(|a| (a, vec![point[a]])).collect();
            return Err(self.reason_of(&parts));
        }
        // Every jump departs once and lands once.
        for a in 0..self.first_slot {
            match opts[a] {
                Opt::Play(m) if self.moves[m as usize].is_jump() => {
                    let mi = m as usize;
                    let hop_ok = self.hop_axis[mi].is_some_and(|h| opts[h] == Opt::Arrive(m));
                    let slots: Vec<usize> = (self.first_slot..self.axes.len())
                        .filter(|&s| opts[s] == Opt::Branch(m))
                        .collect();
                    let landings = hop_ok as usize + slots.len();
                    if landings == 0 {
                        let mut parts = vec![(a, vec![point[a]])];
                        if let Some(h) = self.hop_axis[mi] {
                            let ai = self.opt_index(h, Opt::Arrive(m)).expect("arrive option");
                            parts.push((h, self.all_but(h, region, &[ai])));
                        }
                        for s in self.first_slot..self.axes.len() {
                            let bi = self.opt_index(s, Opt::Branch(m)).expect("branch option");
                            parts.push((s, self.all_but(s, region, &[bi])));
                        }
                        return Err(self.reason_of(&parts));
                    }
                    if landings > 1 {
                        let mut parts = Vec::new();
                        if hop_ok {
                            let h = self.hop_axis[mi].expect("hop");
                            parts.push((h, vec![point[h]]));
                        }
                        for &s in slots.iter().take(2 - parts.len()) {
                            parts.push((s, vec![point[s]]));
                        }
                        return Err(self.reason_of(&parts));
                    }
                }
                Opt::Arrive(m) => {
                    let src = self.src_axis[m as usize];
                    if opts[src] != Opt::Play(m) {
                        let pi = self.opt_index(src, Opt::Play(m)).expect("play option");
                        let parts = vec![(a, vec![point[a]]), (src, self.all_but(src, region, &[pi]))];
                        return Err(self.reason_of(&parts));
                    }
                }
                _ => {}
            }
        }
        for s in self.first_slot..self.axes.len() {
            if let Opt::Branch(m) = opts[s] {
                let mi = m as usize;
                let src = self.src_axis[mi];
                if opts[src] != Opt::Play(m) {
                    let pi = self.opt_index(src, Opt::Play(m)).expect("play option");
                    let parts = vec![(s, vec![point[s]]), (src, self.all_but(src, region, &[pi]))];
                    return Err(self.reason_of(&parts));
                }
                // A branch onto a playable board's current board needs that board played first:
                // by a move within it, a hop, or a branch that created an earlier timeline.
                if let Some(h) = self.hop_axis[mi] {
                    if opts[h] == Opt::Pass {
                        let parts = vec![(s, vec![point[s]]), (h, vec![self.axes[h].pass])];
                        return Err(self.reason_of(&parts));
                    }
                    if let Opt::Play(m2) = opts[h] {
                        if let Some(later) = (s + 1..self.axes.len()).find(|&k| opts[k] == Opt::Branch(m2)) {
                            let parts = vec![(s, vec![point[s]]), (later, vec![point[later]])];
                            return Err(self.reason_of(&parts));
                        }
                    }
                }
                if s > self.first_slot && opts[s - 1] == Opt::Pass {
                    let parts = vec![
                        (s, self.all_but(s, region, &[self.axes[s].pass])),
                        (s - 1, vec![self.axes[s - 1].pass]),
                    ];
                    return Err(self.reason_of(&parts));
                }
            }
        }
        // Play it: moves within boards and hops first, then the new timelines in order.
        let mut count = 0;
        for a in 0..self.first_slot {
            if let Opt::Play(m) = opts[a] {
                let mi = m as usize;
                let mv = self.moves[mi];
                let hop = self.hop_axis[mi].is_some_and(|h| opts[h] == Opt::Arrive(m));
                if !mv.is_jump() || hop {
                    self.pos.play_unchecked(&mv);
                    count += 1;
                }
            }
        }
        for o in &opts[self.first_slot..] {
            if let Opt::Branch(m) = *o {
                let mv = self.moves[m as usize];
                self.pos.play_unchecked(&mv);
                count += 1;
            }
        }
        let verdict = self.judge(region, point);
        let hash = self.pos.hash();
        let played: Vec<Move> = self.pos.action_moves().skip(self.base_moves).copied().collect();
        debug_assert_eq!(played.len(), count);
        for _ in 0..count {
            self.pos.undo_move();
        }
        match verdict {
            None => Ok((played, hash)),
            Some(r) => Err(r),
        }
    }

    /// With the point played on `self.pos`: `None` if legal, or the reason it is not.
    fn judge(&self, region: &Region, point: &[usize]) -> Option<Reason> {
        let p = self.pos.present();
        if Color::of_time(p) == self.mover {
            return Some(self.present_reason(region, point, p));
        }
        let attack = self.find_attack()?;
        Some(self.attack_reason(region, &attack))
    }

    fn present_reason(&self, region: &Region, point: &[usize], p: i32) -> Reason {
        // The present is the mover's: some active timeline's latest board at `p` was passed.
        let stuck = self
            .pos
            .mandatory_boards()
            .into_iter()
            .find_map(|b| self.board_axis_of_line.get(&b.l).copied())
            .expect("a mandatory board left unplayed has an axis");
        let mut parts = vec![(stuck, vec![point[stuck]])];
        let (base_min, base_max) = self.base_extremes();
        let stuck_l = match self.axes[stuck].kind {
            AxisKind::Board { id, .. } => id.l,
            AxisKind::Slot { .. } => unreachable!("slots hold opponent boards"),
        };
        let slot_count = self.axes.len() - self.first_slot;
        // The smallest number of new timelines that makes the stuck timeline active.
        let needed = (0..=slot_count).find(|&n| {
            let (mn, mx) = self.extremes_with(base_min, base_max, n);
            self.pos.active_in(stuck_l, mn, mx)
        });
        for k in 0..slot_count {
            let s = self.first_slot + k;
            let l_k = match self.axes[s].kind {
                AxisKind::Slot { l } => l,
                AxisKind::Board { .. } => unreachable!(),
            };
            let (mn, mx) = self.extremes_with(base_min, base_max, k + 1);
            let (pmn, pmx) = self.extremes_with(base_min, base_max, k);
            // Does creating this slot's timeline wake an opponent timeline that is earlier?
            let wakes_earlier = self.pos.timelines().any(|l| {
                self.pos.active_in(l, mn, mx)
                    && !self.pos.active_in(l, pmn, pmx)
                    && self.pos.timeline_end(l).is_some_and(|e| e < p)
            });
            let active = self.pos.active_in(l_k, mn, mx);
            let axis = &self.axes[s];
            let mut keep = Vec::new();
            for (i, o) in axis.opts.iter().enumerate() {
                if !bit(region, axis.word, i) {
                    continue;
                }
                let safe = match *o {
                    Opt::Pass => needed != Some(k + 1),
                    Opt::Branch(m) => !wakes_earlier && (!active || self.moves[m as usize].to.board.t + 1 >= p),
                    _ => false,
                };
                if safe {
                    keep.push(i);
                }
            }
            parts.push((s, keep));
        }
        self.reason_of(&parts)
    }

    fn base_extremes(&self) -> (i32, i32) {
        (self.base_min, self.base_max)
    }

    fn extremes_with(&self, base_min: i32, base_max: i32, n: usize) -> (i32, i32) {
        match self.mover {
            Color::White => (base_min, base_max + n as i32),
            Color::Black => (base_min - n as i32, base_max),
        }
    }

    fn find_attack(&self) -> Option<Attack> {
        self.pos.find_attack(self.mover.other())
    }

    /// Which axis decides the board `id` of the played position, if any.
    fn axis_of_board(&self, id: BoardId) -> Option<usize> {
        if let Some(&a) = self.board_axis_of_line.get(&id.l) {
            if let AxisKind::Board { id: base, .. } = self.axes[a].kind {
                return (id.t == base.t + 1).then_some(a);
            }
        }
        (self.first_slot..self.axes.len()).find(|&s| matches!(self.axes[s].kind, AxisKind::Slot { l } if l == id.l))
    }

    fn attack_reason(&self, region: &Region, attack: &Attack) -> Reason {
        let victim = self.mover;
        let mut needs: Vec<(Coord, Need)> = vec![
            (attack.from, Need::Piece(attack.piece)),
            (attack.to, Need::RoyalOf(victim)),
        ];
        needs.extend(attack.path.iter().map(|c| (*c, Need::Empty)));
        let mut per_axis: Vec<AxisNeeds> = Vec::new();
        for (c, need) in needs {
            if let Some(a) = self.axis_of_board(c.board) {
                match per_axis.iter_mut().find(|(x, _, _)| *x == a) {
                    Some(e) => e.2.push((c.square, need)),
                    None => per_axis.push((a, c.board.t, vec![(c.square, need)])),
                }
            }
        }
        let mut parts = Vec::new();
        for (a, t, list) in per_axis {
            let axis = &self.axes[a];
            let mut keep = Vec::new();
            match axis.kind {
                AxisKind::Board { id, .. } => {
                    let base = self.base_board(id);
                    for (i, o) in axis.opts.iter().enumerate() {
                        if !bit(region, axis.word, i) {
                            continue;
                        }
                        let ok = list
                            .iter()
                            .all(|&(sq, need)| match board_after(base, *o, &self.moves, sq) {
                                Some(p) => satisfies(p, need),
                                None => false,
                            });
                        if ok {
                            keep.push(i);
                        }
                    }
                }
                AxisKind::Slot { .. } => {
                    for (i, o) in axis.opts.iter().enumerate() {
                        if !bit(region, axis.word, i) {
                            continue;
                        }
                        let Opt::Branch(m) = *o else { continue };
                        let mv = &self.moves[m as usize];
                        if mv.to.board.t + 1 != t {
                            continue;
                        }
                        let origin = self.base_board(mv.to.board);
                        let ok = list.iter().all(|&(sq, need)| {
                            let p = if sq == mv.to.square {
                                Some(placed(mv))
                            } else {
                                origin.get(sq)
                            };
                            satisfies(p, need)
                        });
                        if ok {
                            keep.push(i);
                        }
                    }
                }
            }
            parts.push((a, keep));
        }
        self.reason_of(&parts)
    }

    /// A board of the position before the point was played (boards never change, so the played
    /// position still holds it).
    fn base_board(&self, id: BoardId) -> &Board {
        self.pos.board(id).expect("base board exists")
    }

    fn subtract(&mut self, region: Region, point: &[usize], mut reason: Reason) {
        // A reason must contain the point it was found for; if not, it is a bug, and removing
        // the point alone keeps the search exact and finite.
        let contains = reason.iter().all(|(a, mask)| bit(mask, 0, point[*a]));
        debug_assert!(contains, "reason does not contain its point");
        if !contains {
            let parts: Vec<(usize, Vec<usize>)> = (0..self.axes.len()).map(|a| (a, vec![point[a]])).collect();
            reason = self.reason_of(&parts);
        }
        let mut cur = region;
        for (a, mask) in reason {
            let axis = &self.axes[a];
            let (w0, n) = (axis.word, axis.words);
            let mut outside = cur.clone();
            let mut any = false;
            for w in 0..n {
                outside[w0 + w] = cur[w0 + w] & !mask[w];
                any |= outside[w0 + w] != 0;
            }
            if any {
                self.boxes.push(outside);
            }
            for w in 0..n {
                cur[w0 + w] &= mask[w];
            }
            if axis_empty(&cur, w0, n) {
                return;
            }
        }
    }
}

impl Iterator for LegalActions {
    type Item = Vec<Move>;

    fn next(&mut self) -> Option<Vec<Move>> {
        loop {
            if self.tests >= self.budget {
                self.exhausted = !self.boxes.is_empty();
                return None;
            }
            let region = self.boxes.pop()?;
            let point = self.pick(&region);
            self.tests += 1;
            let verdict = self.test(&region, &point);
            match verdict {
                Ok((moves, hash)) => {
                    let parts: Vec<(usize, Vec<usize>)> = (0..self.axes.len()).map(|a| (a, vec![point[a]])).collect();
                    let reason = self.reason_of(&parts);
                    self.subtract(region, &point, reason);
                    // Different pieces of one kind trading destinations reach the same position;
                    // an action is counted once per position.
                    if self.yielded.insert(hash) {
                        return Some(moves);
                    }
                }
                Err(reason) => self.subtract(region, &point, reason),
            }
        }
    }
}
