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
//! Before the search, options that fail whatever the other axes choose are dropped: every board
//! an action makes is final (the opponent moves next on it), so a move, arrival or new timeline
//! whose own board leaves a royal piece of the mover capturable from that board is never part
//! of a legal action.
//!
//! The work is counted in candidate tests; a [`Budget`] caps it, and an exhausted budget gives
//! an "unknown" answer, never a guess.

use crate::board::{BitIter, Board};
use crate::movegen::{attacked_in_board, shielding_in_board, Attack};
use crate::moves::{Move, MoveKind};
use crate::position::{play_within, Position};
use crate::types::{BoardId, Color, Coord, Piece, Square};
use std::sync::Arc;

/// Hashing for keys that are already well mixed (position hashes) or small: one multiply
/// instead of SipHash, which showed in profiles.
#[derive(Clone, Copy, Debug, Default)]
struct MixHasher(u64);

impl std::hash::Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    fn write_i32(&mut self, x: i32) {
        self.write_u64(x as u32 as u64);
    }
}

type MixState = std::hash::BuildHasherDefault<MixHasher>;

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

/// What counts as one legal action when actions are counted (or listed).
///
/// Two conventions are in use. They differ only when two different move lists reach the same
/// multiverse: typically two jumps landing on the same past board (same square, same piece),
/// which create the same two new timelines whichever is played first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Convention {
    /// An action is a set of moves plus the order in which it creates new timelines: the two
    /// orders of two jumps onto the same past board are two actions. This is how the other
    /// implementations with published counts (cwmtt, ftxi's 5dchess_engine) count, so it is
    /// the default of [`Position::count_actions`] and [`Position::perft`].
    #[default]
    Orderings,
    /// An action is a distinct resulting position: actions reaching the same multiverse count
    /// once. What [`Position::legal_actions`] yields.
    DistinctPositions,
}

impl Convention {
    /// `orderings` or `distinct-positions`, as the command line and JSON output name it.
    pub fn name(self) -> &'static str {
        match self {
            Convention::Orderings => "orderings",
            Convention::DistinctPositions => "distinct-positions",
        }
    }
}

impl std::fmt::Display for Convention {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
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
    /// Words of its option bitset.
    words: usize,
    /// Its options that are jumps leaving the board, and arrivals of hops (board axes).
    jump_opts: Bits,
    arrive_opts: Bits,
}

/// What a square of a board must hold for an attack to stay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    Piece(Piece),
    Empty,
    RoyalOf(Color),
}

/// A set of options of one axis, as bits.
type Bits = Vec<u64>;

/// A box of candidates: one set of options per axis. Boxes made by splitting share the sets of
/// the axes they do not change.
type Region = Vec<Arc<Bits>>;

/// A box of candidates that fail for one reason: restricted axes with their allowed options.
type Reason = Vec<(usize, Bits)>;

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
    /// The board axis of each timeline that has one (index `l - base_min`).
    board_axis_of_line: Vec<Option<usize>>,
    first_slot: usize,
    /// The jumps among the moves.
    jumps: Vec<u32>,
    /// Runs of slot options `lo..hi` that are branches from one board axis: `(axis, lo, hi)`.
    branch_opts: Vec<(usize, usize, usize)>,
    /// The boxes still to search, as a stack. While looking for actions one by one, it only
    /// holds boxes whose candidates may create no new timeline; the others wait in `deferred`.
    boxes: Vec<Region>,
    /// Boxes whose candidates all create at least `k + 1` new timelines (slots that cannot stay
    /// empty), at index `k`, searched after the boxes that need fewer: the actions found in play
    /// mostly create few, and a box that needs many is often one where jumps must land on each
    /// other's boards in a cycle. The parts of a box never need fewer than the box itself.
    deferred: Vec<Vec<Region>>,
    base_moves: usize,
    base_min: i32,
    base_max: i32,
    budget: u64,
    tests: u64,
    /// What one action is: with [`Convention::DistinctPositions`], `yielded` holds the hashes
    /// of the positions reached so far and a point reaching one again is not yielded.
    convention: Convention,
    yielded: std::collections::HashSet<u64, MixState>,
    /// Per move: its option index on its source axis, on its landing axis (hops), and on every
    /// slot (`usize::MAX` where it has none).
    play_index: Vec<usize>,
    arrive_index: Vec<usize>,
    branch_index: Vec<usize>,
    exhausted: bool,
    /// How many candidates failed for each kind of reason (for tuning).
    stats: [u64; 10],
    /// With a single playable board and nothing played yet, every action is one move of it:
    /// the moves are tried one by one, with no boxes (`Some(next move index)`).
    single: Option<usize>,
    /// A box with one free axis, walked option by option without splitting boxes.
    line: Option<Line>,
    /// The last half-turn of each timeline when the search began (index `l - base_min`), and
    /// whether the opponent could capture a royal piece then already: if not, only attacks
    /// touching boards a candidate adds need looking for.
    base_ends: Vec<i32>,
    base_attacked: bool,
    /// Scratch space for the options of the point under test, and for box tightening.
    opts_buf: Vec<Opt>,
    scratch: (Bits, Bits),
    /// Set while counting: legal points are not turned into move lists.
    counting: bool,
    /// Shared one-option sets, made on first use (`singletons[axis][option]`).
    singletons: Vec<Vec<Option<Arc<Bits>>>>,
}

/// A box whose axes but one hold a single option: the candidates along the free axis. With
/// `derived`, the free axis is a board, the other boards are fixed to moves that are not jumps,
/// and the slots are not fixed: each option then has one consistent filling of the slots (its
/// new timeline if it is a branching jump, none otherwise), and every other point of the box
/// is inconsistent.
#[derive(Debug)]
struct Line {
    region: Region,
    point: Vec<usize>,
    axis: usize,
    rest: Bits,
    derived: bool,
}

#[inline]
fn bit(r: &Region, a: usize, i: usize) -> bool {
    r[a][i / 64] >> (i % 64) & 1 != 0
}

#[inline]
fn mask_bit(m: &Bits, i: usize) -> bool {
    m[i / 64] >> (i % 64) & 1 != 0
}

#[inline]
fn clear_bit(r: &mut Region, a: usize, i: usize) {
    Arc::make_mut(&mut r[a])[i / 64] &= !(1 << (i % 64));
}

#[inline]
fn set_mask_bit(m: &mut Bits, i: usize) {
    m[i / 64] |= 1 << (i % 64);
}

fn first_bit(r: &Region, a: usize) -> Option<usize> {
    first_set(&r[a])
}

/// Whether any of the bits `lo..hi` is set.
fn any_in_range(bits: &Bits, lo: usize, hi: usize) -> bool {
    if lo >= hi {
        return false;
    }
    let (wl, wh) = (lo / 64, (hi - 1) / 64);
    (wl..=wh).any(|w| {
        let mut x = bits[w];
        if w == wl {
            x &= !0u64 << (lo % 64);
        }
        if w == wh {
            x &= !0u64 >> (63 - (hi - 1) % 64);
        }
        x != 0
    })
}

/// The option of a set that holds exactly one.
fn single_option(bits: &Bits) -> Option<usize> {
    let mut found = None;
    for (w, &x) in bits.iter().enumerate() {
        if x != 0 {
            if found.is_some() || x & (x - 1) != 0 {
                return None;
            }
            found = Some(w * 64 + x.trailing_zeros() as usize);
        }
    }
    found
}

fn first_set(bits: &Bits) -> Option<usize> {
    bits.iter()
        .enumerate()
        .find_map(|(w, &v)| (v != 0).then(|| w * 64 + v.trailing_zeros() as usize))
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
                return Some(Some(m.placed()));
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
                Some(m.placed())
            } else {
                base.get(sq)
            })
        }
    }
}

/// The board a board option makes from its board `base` (an arrival: `base` is the landing board).
fn result_board(base: &Board, opt: Opt, moves: &[Move]) -> Board {
    let mut b = base.clone();
    match opt {
        Opt::Pass | Opt::Branch(_) => {}
        Opt::Arrive(m) => return arrival_board(base, &moves[m as usize]),
        Opt::Play(m) => {
            let m = &moves[m as usize];
            if m.is_jump() {
                b.set(m.from.square, None);
            } else {
                play_within(&mut b, base.en_passant(), m);
            }
        }
    }
    b
}

/// The board a jump makes where it lands, from the board it lands on.
fn arrival_board(target: &Board, m: &Move) -> Board {
    let mut b = target.clone();
    b.set(m.to.square, Some(m.placed()));
    b
}

fn satisfies(p: Option<Piece>, need: Need) -> bool {
    match need {
        Need::Empty => p.is_none(),
        Need::Piece(q) => p.is_some_and(|p| p.role() == q.role() && p.color() == q.color()),
        Need::RoyalOf(c) => p.is_some_and(|p| p.is_royal_of(c)),
    }
}

impl LegalActions {
    /// Sets up the search from a position, possibly in the middle of an action; each distinct
    /// resulting position is yielded once ([`Convention::DistinctPositions`]).
    pub fn new(pos: &Position, budget: Budget) -> LegalActions {
        LegalActions::with_convention(pos, budget, Convention::DistinctPositions)
    }

    /// Sets up the search, yielding actions as `convention` counts them.
    pub fn with_convention(pos: &Position, budget: Budget, convention: Convention) -> LegalActions {
        LegalActions::search(pos, budget, convention, false)
    }

    /// Sets up the search for the actions that move only on the boards that must be played (no
    /// optional move on another playable board), each distinct resulting position once: the
    /// seed library's `actions()` with `presentOnly`.
    pub fn present_only(pos: &Position, budget: Budget) -> LegalActions {
        LegalActions::search(pos, budget, Convention::DistinctPositions, true)
    }

    fn search(pos: &Position, budget: Budget, convention: Convention, present_only: bool) -> LegalActions {
        let pos = pos.clone();
        let mover = pos.to_move();
        let mandatory = pos.mandatory_boards();
        let mut axes = Vec::new();
        let (base_min, base_max) = (pos.min_timeline(), pos.max_timeline());
        let mut board_axis_of_line = vec![None; (base_max - base_min + 1) as usize];
        let mut moves: Vec<Move> = Vec::new();
        let mut src_axis = Vec::new();
        for id in pos.playable_boards() {
            let is_mandatory = mandatory.contains(&id);
            board_axis_of_line[(id.l - base_min) as usize] = Some(axes.len());
            let mut list = Vec::new();
            if is_mandatory || !present_only {
                pos.moves_from(id, &mut list);
            }
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
                words: 0,
                jump_opts: Vec::new(),
                arrive_opts: Vec::new(),
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
                let a = board_axis_of_line[(m.to.board.l - base_min) as usize].expect("playable board axis");
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
                words: 0,
                jump_opts: Vec::new(),
                arrive_opts: Vec::new(),
            });
        }
        let mut play_index = vec![usize::MAX; moves.len()];
        let mut arrive_index = vec![usize::MAX; moves.len()];
        let mut branch_index = vec![usize::MAX; moves.len()];
        for (a, axis) in axes.iter().enumerate() {
            for (i, o) in axis.opts.iter().enumerate() {
                match *o {
                    Opt::Play(m) => play_index[m as usize] = i,
                    Opt::Arrive(m) => arrive_index[m as usize] = i,
                    Opt::Branch(m) if a == first_slot => branch_index[m as usize] = i,
                    _ => {}
                }
            }
        }
        for axis in &mut axes {
            axis.words = axis.opts.len().div_ceil(64);
            axis.jump_opts = vec![0; axis.words];
            axis.arrive_opts = vec![0; axis.words];
            if matches!(axis.kind, AxisKind::Slot { .. }) {
                continue;
            }
            for (i, o) in axis.opts.iter().enumerate() {
                match *o {
                    Opt::Play(m) if moves[m as usize].is_jump() => set_mask_bit(&mut axis.jump_opts, i),
                    Opt::Arrive(_) => set_mask_bit(&mut axis.arrive_opts, i),
                    _ => {}
                }
            }
        }
        // Jumps are listed board by board, so each board's branches are a run of slot options.
        let mut branch_opts: Vec<(usize, usize, usize)> = Vec::new();
        if let Some(slot) = axes.get(first_slot) {
            for (i, o) in slot.opts.iter().enumerate() {
                let Opt::Branch(m) = *o else { continue };
                let a = src_axis[m as usize];
                match branch_opts.last_mut() {
                    Some((b, _, hi)) if *b == a && *hi == i => *hi = i + 1,
                    _ => branch_opts.push((a, i, i + 1)),
                }
            }
        }
        let base_moves = pos.action_len();
        let single = (first_slot == 1 && base_moves == 0).then_some(0);
        // Every board an action makes is final (the opponent moves next on it), so an option
        // whose own board leaves a royal piece capturable from that board fails in every
        // candidate: it is removed before the search (a single board tests each move anyway).
        let opponent = mover.other();
        let selfcheck = |board: &Board| {
            BitIter(board.royals(mover)).any(|i| attacked_in_board(board, Square::from_index(i), opponent))
        };
        // Cheap filters first: a board whose royal pieces are safe stays safe when a piece of
        // the mover lands on it (unless royal), or when a piece leaves a square that does not
        // shield a royal piece from a slider.
        let mut attacked_before: std::collections::HashMap<BoardId, bool, MixState> = Default::default();
        let mut royal_attacked_on = |id: BoardId| {
            *attacked_before
                .entry(id)
                .or_insert_with(|| pos.board(id).is_some_and(&selfcheck))
        };
        let doomed_arrival = |origin: &Board, m: &Move, origin_attacked: bool| {
            (origin_attacked || m.placed().role().is_royal()) && selfcheck(&arrival_board(origin, m))
        };
        let doomed_branch: Vec<bool> = if single.is_some() {
            Vec::new()
        } else {
            moves
                .iter()
                .map(|m| {
                    m.is_jump()
                        && pos.board(m.to.board).is_some_and(|origin| {
                            let attacked = royal_attacked_on(m.to.board);
                            doomed_arrival(origin, m, attacked)
                        })
                })
                .collect()
        };
        let full: Region = axes
            .iter()
            .map(|axis| {
                let mut bits = vec![0u64; axis.words];
                let base = match axis.kind {
                    AxisKind::Board { id, .. } if single.is_none() => pos
                        .board(id)
                        .map(|b| (b, royal_attacked_on(id), shielding_in_board(b, mover))),
                    _ => None,
                };
                for (i, &o) in axis.opts.iter().enumerate() {
                    let doomed = match (o, base) {
                        _ if single.is_some() => false,
                        (Opt::Branch(m), _) => doomed_branch[m as usize],
                        (Opt::Arrive(m), Some((b, attacked, _))) => doomed_arrival(b, &moves[m as usize], attacked),
                        (Opt::Play(m), Some((b, attacked, shielding))) => {
                            let mv = &moves[m as usize];
                            let exposes = attacked
                                || mv.piece.role().is_royal()
                                || mv.kind == MoveKind::EnPassant
                                || shielding >> mv.from.square.index() & 1 != 0;
                            exposes && selfcheck(&result_board(b, o, &moves))
                        }
                        _ => false,
                    };
                    if !doomed {
                        set_mask_bit(&mut bits, i);
                    }
                }
                Arc::new(bits)
            })
            .collect();
        let base_ends = pos
            .timelines()
            .map(|l| pos.timeline_end(l).expect("timeline"))
            .collect();
        let base_attacked = pos.find_attack(mover.other()).is_some();
        let axes_len = axes.len();
        LegalActions {
            pos,
            mover,
            moves,
            src_axis,
            hop_axis,
            axes,
            board_axis_of_line,
            first_slot,
            jumps,
            branch_opts,
            boxes: vec![full],
            deferred: Vec::new(),
            base_moves,
            base_min,
            base_max,
            budget: budget.tests,
            tests: 0,
            convention,
            yielded: std::collections::HashSet::default(),
            play_index,
            arrive_index,
            branch_index,
            single,
            line: None,
            base_ends,
            base_attacked,
            opts_buf: Vec::new(),
            scratch: (Vec::new(), Vec::new()),
            singletons: vec![Vec::new(); axes_len],
            counting: false,
            exhausted: false,
            stats: [0; 10],
        }
    }

    /// Whether the search stopped because its budget ran out (so the actions yielded so far may
    /// not be all of them).
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// Counts of failed candidates by kind of reason: `[judged (present or check), no move, jump
    /// without landing, double landing, hop without departure, branch without departure, branch
    /// onto an unplayed board, branch before its board's own branch, timeline gap, ...]`.
    pub fn failure_stats(&self) -> [u64; 10] {
        self.stats
    }

    /// The number of candidates tested so far.
    pub fn tests(&self) -> u64 {
        self.tests
    }

    fn pick(&self, region: &Region) -> Vec<usize> {
        let mut point: Vec<usize> = self
            .axes
            .iter()
            .enumerate()
            .map(|(a, _)| first_bit(region, a).expect("non-empty axis"))
            .collect();
        let slots = self.axes.len() - self.first_slot;
        let mut slot_taken = vec![false; slots];
        let mut fixed = vec![false; self.first_slot];
        // Slots that must be filled take jumps from the boards a matching gives them.
        let mut matched: Vec<(usize, usize)> = Vec::new();
        let required: Vec<usize> = (self.first_slot..self.axes.len())
            .filter(|&s| !bit(region, s, 0))
            .collect();
        if let Some(sources) = (!required.is_empty())
            .then(|| self.slot_matching(region, &required))
            .flatten()
        {
            for (&s, &a) in required.iter().zip(&sources) {
                let found = self.jumps.iter().map(|&m| m as usize).find(|&m| {
                    self.src_axis[m] == a && bit(region, s, self.branch_index[m]) && bit(region, a, self.play_index[m])
                });
                if let Some(m) = found {
                    point[a] = self.play_index[m];
                    point[s] = self.branch_index[m];
                    fixed[a] = true;
                    slot_taken[s - self.first_slot] = true;
                    matched.push((a, m));
                    self.play_branch_target(region, &mut point, &mut fixed, m);
                }
            }
        }
        // Give each other departing jump a landing the region allows: a hop if possible, else
        // a free slot (below); an arrival gets its departure.
        let mut pending: Vec<(usize, usize)> = Vec::new();
        for a in 0..self.first_slot {
            if fixed[a] {
                continue;
            }
            match self.axes[a].opts[point[a]] {
                Opt::Play(m) if self.moves[m as usize].is_jump() => {
                    let mi = m as usize;
                    if let Some(h) = self.hop_axis[mi] {
                        let i = self.arrive_index[mi];
                        if bit(region, h, i) && !fixed[h] {
                            point[h] = i;
                            fixed[h] = true;
                            fixed[a] = true;
                            continue;
                        }
                    }
                    self.play_branch_target(region, &mut point, &mut fixed, mi);
                    pending.push((a, mi));
                }
                Opt::Arrive(m) => {
                    let src = self.src_axis[m as usize];
                    let pi = self.play_index[m as usize];
                    if !fixed[src] && bit(region, src, pi) {
                        point[src] = pi;
                        fixed[src] = true;
                        fixed[a] = true;
                    }
                }
                _ => {}
            }
        }
        // New timelines in an order that works: a branch onto a board comes after the branch of
        // the jump leaving that board, which must have been played first. All branching jumps
        // are placed in that order if the box lets every slot that must be filled get one;
        // otherwise the matched jumps keep their slots and the others follow in that order.
        let all: Vec<(usize, usize)> = matched.iter().chain(&pending).copied().collect();
        let mut taken = vec![false; slots];
        let mut filling = self.fill_slots(region, &all, &mut taken);
        if required.iter().all(|&s| taken[s - self.first_slot]) {
            slot_taken = taken;
        } else {
            filling = self.fill_slots(region, &pending, &mut slot_taken);
        }
        for (j, bi) in filling {
            point[self.first_slot + j] = bi;
        }
        for (k, taken) in slot_taken.iter().enumerate() {
            let s = self.first_slot + k;
            if !taken && bit(region, s, 0) {
                point[s] = 0;
            }
        }
        point
    }

    /// Puts branching jumps `(source axis, move)` into free slots (`taken` marks the used ones),
    /// in [`Self::branch_order`], each in the first free slot the box allows it in; returns the
    /// `(slot index, option)` pairs.
    fn fill_slots(&self, region: &Region, jumps: &[(usize, usize)], taken: &mut [bool]) -> Vec<(usize, usize)> {
        let mut filling = Vec::with_capacity(jumps.len());
        for k in self.branch_order(jumps) {
            let bi = self.branch_index[jumps[k].1];
            if let Some(j) = (0..taken.len()).find(|&j| !taken[j] && bit(region, self.first_slot + j, bi)) {
                taken[j] = true;
                filling.push((j, bi));
            }
        }
        filling
    }

    /// An order of branching jumps `(source axis, move)` in which each comes after the jump
    /// leaving the board it lands on (when that one is in the list too), as indices.
    fn branch_order(&self, jumps: &[(usize, usize)]) -> Vec<usize> {
        let mut placed = vec![false; jumps.len()];
        let mut order = Vec::with_capacity(jumps.len());
        for start in 0..jumps.len() {
            let mut chain = Vec::new();
            let mut k = start;
            while !placed[k] && !chain.contains(&k) {
                chain.push(k);
                let target = self.hop_axis[jumps[k].1];
                match jumps.iter().position(|&(a, _)| Some(a) == target) {
                    Some(dep) => k = dep,
                    None => break,
                }
            }
            for &k in chain.iter().rev() {
                placed[k] = true;
                order.push(k);
            }
        }
        order
    }

    /// A branching jump `m` needs the board it lands on played first: if that board is left
    /// unplayed in the point, it gets a move of its own (not a jump) if the box has one.
    fn play_branch_target(&self, region: &Region, point: &mut [usize], fixed: &mut [bool], m: usize) {
        let Some(h) = self.hop_axis[m] else { return };
        let axis = &self.axes[h];
        if fixed[h] || point[h] != axis.pass {
            return;
        }
        let calm = (0..axis.opts.len()).find(|&i| {
            i != axis.pass && bit(region, h, i) && !mask_bit(&axis.jump_opts, i) && !mask_bit(&axis.arrive_opts, i)
        });
        if let Some(i) = calm {
            point[h] = i;
            fixed[h] = true;
        }
    }

    /// Shrinks a box to the points that can be consistent (every jump departs once and lands
    /// once, new timelines in order without gaps, at least one move), without splitting it:
    /// the points removed all fail one of those rules, whatever the other axes choose. Returns
    /// `false` if no point can be consistent.
    fn tighten(&mut self, r: &mut Region) -> bool {
        let mut scratch = std::mem::take(&mut self.scratch);
        let feasible = self.tighten_with(r, &mut scratch);
        self.scratch = scratch;
        feasible
    }

    fn tighten_with(&self, r: &mut Region, scratch: &mut (Bits, Bits)) -> bool {
        let slots = self.first_slot..self.axes.len();
        loop {
            let mut changed = false;
            // Timelines are created in order: a slot after a filled one is filled too, so a slot
            // followed by one that must be filled must be filled.
            for s in (self.first_slot..self.axes.len().saturating_sub(1)).rev() {
                if !bit(r, s + 1, 0) && bit(r, s, 0) {
                    clear_bit(r, s, 0);
                    changed = true;
                }
            }
            // A jump fixed to land somewhere (a slot or a hop) departs, and lands nowhere else.
            for a in 0..self.axes.len() {
                let Some(i) = single_option(&r[a]) else { continue };
                let m = match self.axes[a].opts[i] {
                    Opt::Branch(m) | Opt::Arrive(m) => m as usize,
                    _ => continue,
                };
                let src = self.src_axis[m];
                let pi = self.play_index[m];
                if single_option(&r[src]) != Some(pi) {
                    if !bit(r, src, pi) {
                        return false;
                    }
                    r[src] = Arc::new(self.only(src, &[pi]));
                    changed = true;
                }
                let bi = self.branch_index[m];
                for s in slots.clone() {
                    if s != a && bit(r, s, bi) {
                        clear_bit(r, s, bi);
                        changed = true;
                    }
                }
                if let Some(h) = self.hop_axis[m] {
                    let ai = self.arrive_index[m];
                    if h != a && bit(r, h, ai) {
                        clear_bit(r, h, ai);
                        changed = true;
                    }
                }
            }
            // And a slot after one left empty stays empty.
            for s in self.first_slot + 1..self.axes.len() {
                let filled = r[s][0] & !1 != 0 || r[s][1..].iter().any(|&w| w != 0);
                if single_option(&r[s - 1]) == Some(0) && filled {
                    let bits = Arc::make_mut(&mut r[s]);
                    bits[0] &= 1;
                    bits[1..].iter_mut().for_each(|w| *w = 0);
                    changed = true;
                }
            }
            // Every slot allows the same options: no timeline, or one of the jumps.
            let words = self.axes.get(self.first_slot).map_or(0, |a| a.words);
            let (allowed, landed) = scratch;
            allowed.clear();
            allowed.resize(words, 0);
            landed.clear();
            landed.resize(words, 0);
            if words > 0 {
                allowed[0] = 1;
                for s in slots.clone() {
                    for (l, x) in landed.iter_mut().zip(r[s].iter()) {
                        *l |= x;
                    }
                }
            }
            // Only the jumps and arrivals the box still allows are looked at.
            for a in 0..self.first_slot {
                for w in 0..self.axes[a].words {
                    for b in BitIter(r[a][w] & self.axes[a].jump_opts[w]) {
                        let i = w * 64 + b;
                        let Opt::Play(m) = self.axes[a].opts[i] else { continue };
                        let mi = m as usize;
                        let bi = self.branch_index[mi];
                        // A branch onto a playable board's current board needs that board played.
                        let target_played = self.hop_axis[mi].is_none_or(|h| {
                            let pass = self.axes[h].pass;
                            r[h].iter().enumerate().any(|(w, &x)| {
                                let x = if w == pass / 64 { x & !(1 << (pass % 64)) } else { x };
                                x != 0
                            })
                        });
                        if target_played {
                            set_mask_bit(allowed, bi);
                        }
                        let lands = (target_played && mask_bit(landed, bi))
                            || self.hop_axis[mi].is_some_and(|h| bit(r, h, self.arrive_index[mi]));
                        if !lands {
                            clear_bit(r, a, i);
                            changed = true;
                        }
                    }
                    for b in BitIter(r[a][w] & self.axes[a].arrive_opts[w]) {
                        let i = w * 64 + b;
                        let Opt::Arrive(m) = self.axes[a].opts[i] else { continue };
                        let mi = m as usize;
                        if !bit(r, self.src_axis[mi], self.play_index[mi]) {
                            clear_bit(r, a, i);
                            changed = true;
                        }
                    }
                }
            }
            for s in slots.clone() {
                if r[s].iter().zip(allowed.iter()).any(|(x, a)| x & !a != 0) {
                    for (x, a) in Arc::make_mut(&mut r[s]).iter_mut().zip(allowed.iter()) {
                        *x &= a;
                    }
                    changed = true;
                }
            }
            if r.iter().any(|b| b.iter().all(|&w| w == 0)) {
                return false;
            }
            if !changed {
                break;
            }
        }
        if self.base_moves == 0
            && self.axes.iter().enumerate().all(|(a, axis)| {
                r[a].iter().enumerate().all(|(w, &x)| {
                    let pass = if w == axis.pass / 64 {
                        1u64 << (axis.pass % 64)
                    } else {
                        0
                    };
                    x & !pass == 0
                })
            })
        {
            return false;
        }
        // The slots that must be filled need jumps from different boards.
        let required: Vec<usize> = slots.filter(|&s| !bit(r, s, 0)).collect();
        // The last round of the loop changed nothing: `landed` is what the slots allow.
        required.is_empty()
            || (self.slot_matching(r, &required).is_some() && self.can_branch(r, required.len(), &scratch.1))
    }

    /// Whether `required` boards can play branching jumps in the box, as far as the order of
    /// new timelines goes. A branch onto a playable board comes after that board's own move,
    /// so in a group of boards whose branches all land on each other's boards (none onto a
    /// board that could play something else, none onto an unplayable board), the first of the
    /// group to branch would land on a board still to branch later: one of the group does not
    /// branch. Boards jumping only onto each other form such cycles of new timelines.
    /// `landed`: the options some slot of the box allows.
    #[inline(never)]
    fn can_branch(&self, r: &Region, required: usize, landed: &Bits) -> bool {
        let n = self.first_slot;
        let count = (0..n).filter(|&a| self.branches(r, a, landed).next().is_some()).count();
        if count < required {
            return false;
        }
        // Each closed group has at least two boards: it only matters when many must branch.
        if 2 * required <= count {
            return true;
        }
        // Per board: whether it can branch, whether onto a board no move must come before
        // ("free"), and the playable boards its branches land on.
        let mut capable = vec![false; n];
        let mut free = vec![false; n];
        let mut targets: Vec<Vec<usize>> = vec![Vec::new(); n];
        for a in 0..n {
            for hop in self.branches(r, a, landed) {
                capable[a] = true;
                match hop {
                    None => free[a] = true,
                    Some(h) if !targets[a].contains(&h) => targets[a].push(h),
                    Some(_) => {}
                }
            }
        }
        // A board escapes if it can branch freely or after a board that does not branch.
        let escapes: Vec<bool> = (0..n)
            .map(|a| capable[a] && (free[a] || targets[a].iter().any(|&h| !capable[h])))
            .collect();
        // Reachability among capable boards, as bitsets.
        let bw = n.div_ceil(64);
        let mut reach: Vec<Bits> = (0..n)
            .map(|a| {
                let mut v = vec![0u64; bw];
                for &h in &targets[a] {
                    set_mask_bit(&mut v, h);
                }
                v
            })
            .collect();
        loop {
            let mut changed = false;
            for a in (0..n).filter(|&a| capable[a]) {
                let mut next = reach[a].clone();
                for h in (0..n).filter(|&h| mask_bit(&reach[a], h)) {
                    for (x, y) in next.iter_mut().zip(&reach[h]) {
                        *x |= y;
                    }
                }
                if next != reach[a] {
                    reach[a] = next;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // A closed group: a board that reaches no escaping board, and is reached back by every
        // board it reaches (its group is a sink); counted once, at its lowest board.
        let mut closed = 0;
        for a in (0..n).filter(|&a| capable[a]) {
            let reached: Vec<usize> = (0..n).filter(|&h| mask_bit(&reach[a], h)).collect();
            let sink = !escapes[a]
                && mask_bit(&reach[a], a)
                && reached.iter().all(|&h| !escapes[h] && mask_bit(&reach[h], a))
                && reached.iter().all(|&h| h >= a);
            if sink {
                closed += 1;
            }
        }
        count - closed >= required
    }

    /// The jumps of board axis `a` that the box lets branch (`landed`: the options some slot
    /// allows), as the board axes they land on if playable.
    fn branches<'a>(&'a self, r: &'a Region, a: usize, landed: &'a Bits) -> impl Iterator<Item = Option<usize>> + 'a {
        let axis = &self.axes[a];
        (0..axis.words).flat_map(move |w| {
            BitIter(r[a][w] & axis.jump_opts[w]).filter_map(move |b| match axis.opts[w * 64 + b] {
                Opt::Play(m) if mask_bit(landed, self.branch_index[m as usize]) => Some(self.hop_axis[m as usize]),
                _ => None,
            })
        })
    }

    /// A source board for each slot in `required`, all different, each able to play a jump the
    /// slot allows; `None` if there is no such matching.
    fn slot_matching(&self, r: &Region, required: &[usize]) -> Option<Vec<usize>> {
        // The boards each slot can take a jump from: those whose branches meet the slot's options.
        let sources: Vec<Vec<usize>> = required
            .iter()
            .map(|&s| {
                let mut v: Vec<usize> = Vec::new();
                for &(a, lo, hi) in &self.branch_opts {
                    if v.last() != Some(&a) && any_in_range(&r[s], lo, hi) {
                        v.push(a);
                    }
                }
                v
            })
            .collect();
        // Kuhn's augmenting paths: tiny graphs (at most one slot per jumping board).
        let mut owner: Vec<Option<usize>> = vec![None; self.first_slot];
        fn augment(k: usize, sources: &[Vec<usize>], owner: &mut [Option<usize>], seen: &mut [bool]) -> bool {
            for &a in &sources[k] {
                if seen[a] {
                    continue;
                }
                seen[a] = true;
                let free = match owner[a] {
                    None => true,
                    Some(j) => augment(j, sources, owner, seen),
                };
                if free {
                    owner[a] = Some(k);
                    return true;
                }
            }
            false
        }
        let mut seen = vec![false; self.first_slot];
        for k in 0..required.len() {
            seen.iter_mut().for_each(|x| *x = false);
            if !augment(k, &sources, &mut owner, &mut seen) {
                return None;
            }
        }
        let mut by_slot = vec![0; required.len()];
        for (a, k) in owner.iter().enumerate() {
            if let Some(k) = k {
                by_slot[*k] = a;
            }
        }
        Some(by_slot)
    }

    /// The options `opts` of axis `a`, as bits.
    fn only(&self, a: usize, opts: &[usize]) -> Bits {
        let mut r = vec![0u64; self.axes[a].words];
        for &o in opts {
            set_mask_bit(&mut r, o);
        }
        r
    }

    /// The options of axis `a` the box allows, but those in `keep_out`.
    fn all_but(&self, a: usize, region: &Region, keep_out: &[usize]) -> Bits {
        let mut r = region[a].to_vec();
        for &o in keep_out {
            r[o / 64] &= !(1 << (o % 64));
        }
        r
    }

    /// The reason that only the point itself fails.
    fn point_reason(&self, point: &[usize]) -> Reason {
        (0..self.axes.len()).map(|a| (a, self.only(a, &[point[a]]))).collect()
    }

    fn opt_index(&self, a: usize, o: Opt) -> Option<usize> {
        let i = match o {
            Opt::Play(m) if self.src_axis[m as usize] == a => self.play_index[m as usize],
            Opt::Arrive(m) if self.hop_axis[m as usize] == Some(a) => self.arrive_index[m as usize],
            Opt::Branch(m) if a >= self.first_slot => self.branch_index[m as usize],
            _ => return self.axes[a].opts.iter().position(|x| *x == o),
        };
        (i != usize::MAX).then_some(i)
    }

    /// Tests a point. `Ok(moves)` if legal; otherwise the reason, as a box given by its
    /// restricted axes (all other axes are unrestricted).
    fn test(&mut self, region: &Region, point: &[usize]) -> Result<(Vec<Move>, u64), Reason> {
        let mut opts = std::mem::take(&mut self.opts_buf);
        opts.clear();
        opts.extend(self.axes.iter().zip(point).map(|(a, &i)| a.opts[i]));
        let result = self.test_opts(region, point, &opts);
        self.opts_buf = opts;
        result
    }

    fn test_opts(&mut self, region: &Region, point: &[usize], opts: &[Opt]) -> Result<(Vec<Move>, u64), Reason> {
        // At least one move.
        if self.base_moves == 0 && opts.iter().all(|o| *o == Opt::Pass) {
            self.stats[1] += 1;
            return Err(self.point_reason(point));
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
                        let mut parts = vec![(a, self.only(a, &[point[a]]))];
                        if let Some(h) = self.hop_axis[mi] {
                            let ai = self.opt_index(h, Opt::Arrive(m)).expect("arrive option");
                            parts.push((h, self.all_but(h, region, &[ai])));
                        }
                        for s in self.first_slot..self.axes.len() {
                            let bi = self.opt_index(s, Opt::Branch(m)).expect("branch option");
                            parts.push((s, self.all_but(s, region, &[bi])));
                        }
                        self.stats[2] += 1;
                        return Err(parts);
                    }
                    if landings > 1 {
                        let mut parts = Vec::new();
                        if hop_ok {
                            let h = self.hop_axis[mi].expect("hop");
                            parts.push((h, self.only(h, &[point[h]])));
                        }
                        for &s in slots.iter().take(2 - parts.len()) {
                            parts.push((s, self.only(s, &[point[s]])));
                        }
                        self.stats[3] += 1;
                        return Err(parts);
                    }
                }
                Opt::Arrive(m) => {
                    let src = self.src_axis[m as usize];
                    if opts[src] != Opt::Play(m) {
                        let pi = self.opt_index(src, Opt::Play(m)).expect("play option");
                        let parts = vec![(a, self.only(a, &[point[a]])), (src, self.all_but(src, region, &[pi]))];
                        self.stats[4] += 1;
                        return Err(parts);
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
                    // Every branch from the same board that this board does not play fails here.
                    let slot = &self.axes[s];
                    let mut branches = Vec::new();
                    let mut excluded = Vec::new();
                    for (i, o) in slot.opts.iter().enumerate() {
                        if let Opt::Branch(m2) = *o {
                            if bit(region, s, i) && self.src_axis[m2 as usize] == src && opts[src] != Opt::Play(m2) {
                                branches.push(i);
                                excluded.push(self.play_index[m2 as usize]);
                            }
                        }
                    }
                    let parts = vec![
                        (s, self.only(s, &branches)),
                        (src, self.all_but(src, region, &excluded)),
                    ];
                    self.stats[5] += 1;
                    return Err(parts);
                }
                // A branch onto a playable board's current board needs that board played first:
                // by a move within it, a hop, or a branch that created an earlier timeline.
                if let Some(h) = self.hop_axis[mi] {
                    if opts[h] == Opt::Pass {
                        // No branch onto that board can be played in this slot.
                        let onto: Vec<usize> = self
                            .jumps
                            .iter()
                            .map(|&j| j as usize)
                            .filter(|&j| self.hop_axis[j] == Some(h))
                            .map(|j| self.branch_index[j])
                            .collect();
                        let parts = vec![(s, self.only(s, &onto)), (h, self.only(h, &[self.axes[h].pass]))];
                        self.stats[6] += 1;
                        return Err(parts);
                    }
                    if let Opt::Play(m2) = opts[h] {
                        let m2i = m2 as usize;
                        let lands_before = (self.first_slot..s).any(|k| opts[k] == Opt::Branch(m2))
                            || self.hop_axis[m2i].is_some_and(|h2| opts[h2] == Opt::Arrive(m2));
                        if self.moves[m2i].is_jump() && !lands_before {
                            // The board is left by a jump that has not landed yet when this
                            // branch is played: whether it lands later or never, the point
                            // fails, and so does every other jump of that board that cannot
                            // have landed before (no hop, no earlier slot).
                            let jumps: Bits = region[h]
                                .iter()
                                .zip(&self.axes[h].jump_opts)
                                .map(|(x, j)| x & j)
                                .collect();
                            let mut parts = vec![(s, self.only(s, &[point[s]])), (h, jumps.clone())];
                            let mut slot_out = Vec::new();
                            let mut hop_out: Vec<(usize, usize)> = Vec::new();
                            for (w, &word) in jumps.iter().enumerate() {
                                for b in BitIter(word) {
                                    let Opt::Play(j) = self.axes[h].opts[w * 64 + b] else {
                                        continue;
                                    };
                                    let j = j as usize;
                                    slot_out.push(self.branch_index[j]);
                                    if let Some(h2) = self.hop_axis[j] {
                                        hop_out.push((h2, self.arrive_index[j]));
                                    }
                                }
                            }
                            for k in self.first_slot..s {
                                parts.push((k, self.all_but(k, region, &slot_out)));
                            }
                            hop_out.sort_unstable();
                            for group in hop_out.chunk_by(|x, y| x.0 == y.0) {
                                let h2 = group[0].0;
                                let out: Vec<usize> = group.iter().map(|&(_, i)| i).collect();
                                parts.push((h2, self.all_but(h2, region, &out)));
                            }
                            self.stats[7] += 1;
                            return Err(parts);
                        }
                    }
                }
                if s > self.first_slot && opts[s - 1] == Opt::Pass {
                    let parts = vec![
                        (s, self.all_but(s, region, &[self.axes[s].pass])),
                        (s - 1, self.only(s - 1, &[self.axes[s - 1].pass])),
                    ];
                    self.stats[8] += 1;
                    return Err(parts);
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
        if verdict.is_some() {
            self.stats[0] += 1;
        }
        let hash = self.pos.hash();
        let played: Vec<Move> = match verdict {
            None if !self.counting => self.pos.action_moves().skip(self.base_moves).copied().collect(),
            _ => Vec::new(),
        };
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
            .find_map(|b| self.line_axis(b.l))
            .expect("a mandatory board left unplayed has an axis");
        let mut parts = vec![(stuck, self.only(stuck, &[point[stuck]]))];
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
                if !bit(region, s, i) {
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
            parts.push((s, self.only(s, &keep)));
        }
        parts
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
        if self.base_attacked {
            return self.pos.find_attack(self.mover.other());
        }
        self.pos.find_new_attack(self.mover.other(), |b| {
            let i = b.l - self.base_min;
            i < 0 || self.base_ends.get(i as usize) != Some(&b.t)
        })
    }

    /// The board axis of timeline `l`, if it has one.
    fn line_axis(&self, l: i32) -> Option<usize> {
        let i = usize::try_from(l - self.base_min).ok()?;
        self.board_axis_of_line.get(i).copied().flatten()
    }

    /// Which axis decides the board `id` of the played position, if any.
    fn axis_of_board(&self, id: BoardId) -> Option<usize> {
        if let Some(a) = self.line_axis(id.l) {
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
                        if !bit(region, a, i) {
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
                        if !bit(region, a, i) {
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
                                Some(mv.placed())
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
            parts.push((a, self.only(a, &keep)));
        }
        parts
    }

    /// A board of the position before the point was played (boards never change, so the played
    /// position still holds it).
    fn base_board(&self, id: BoardId) -> &Board {
        self.pos.board(id).expect("base board exists")
    }

    /// The set holding option `i` of axis `a` alone, shared.
    fn singleton(&mut self, a: usize, i: usize) -> Arc<Bits> {
        if self.singletons[a].is_empty() {
            self.singletons[a].resize(self.axes[a].opts.len(), None);
        }
        if self.singletons[a][i].is_none() {
            self.singletons[a][i] = Some(Arc::new(self.only(a, &[i])));
        }
        self.singletons[a][i].clone().expect("made above")
    }

    /// Removes one point from a box.
    fn subtract_point(&mut self, region: Region, point: &[usize]) {
        // The point is legal, so its slots hold exactly the jumps that branch. Once the boards
        // are fixed (they come first), a slot can only hold one of those not yet placed.
        let mut unplaced: Bits = Vec::new();
        if let Some(words) = self.axes.get(self.first_slot).map(|a| a.words) {
            unplaced.resize(words, 0);
            for &p in point.iter().skip(self.first_slot).filter(|&&p| p != 0) {
                set_mask_bit(&mut unplaced, p);
            }
        }
        let mut cur = region;
        for (a, &p) in point.iter().enumerate() {
            let (pw, pb) = (p / 64, 1u64 << (p % 64));
            let slot = a >= self.first_slot;
            let rest = cur[a].iter().enumerate().any(|(w, &x)| {
                let x = if slot { x & unplaced[w] } else { x };
                x & if w == pw { !pb } else { !0 } != 0
            });
            if rest {
                let mut bits = (*cur[a]).clone();
                if slot {
                    bits.iter_mut().zip(&unplaced).for_each(|(b, u)| *b &= u);
                }
                bits[pw] &= !pb;
                let mut outside = cur.clone();
                outside[a] = Arc::new(bits);
                self.push_box(outside);
            }
            if single_option(&cur[a]) != Some(p) {
                cur[a] = self.singleton(a, p);
            }
            if slot {
                unplaced[pw] &= !pb;
            }
        }
    }

    /// Puts a box among those still to search. While counting, every box is searched anyway:
    /// the order does not matter.
    #[inline]
    fn push_box(&mut self, region: Region) {
        if self.counting {
            self.boxes.push(region);
            return;
        }
        let required = region[self.first_slot..].iter().filter(|s| s[0] & 1 == 0).count();
        if required == 0 {
            self.boxes.push(region);
            return;
        }
        if self.deferred.len() < required {
            self.deferred.resize_with(required, Vec::new);
        }
        self.deferred[required - 1].push(region);
    }

    fn subtract(&mut self, region: Region, point: &[usize], mut reason: Reason) {
        // A reason must contain the point it was found for; if not, it is a bug, and removing
        // the point alone keeps the search exact and finite.
        let contains = reason.iter().all(|(a, mask)| mask_bit(mask, point[*a]));
        debug_assert!(contains, "reason does not contain its point");
        if !contains {
            reason = self.point_reason(point);
        }
        // The box splits into the part inside the reason (dropped) and, axis by axis, the parts
        // outside it. Inside is never empty: it holds the point.
        let mut cur = region;
        let last = reason.len().saturating_sub(1);
        for (k, (a, mask)) in reason.into_iter().enumerate() {
            if !cur[a].iter().zip(&mask).any(|(x, m)| x & !m != 0) {
                continue;
            }
            let outside: Bits = cur[a].iter().zip(&mask).map(|(x, m)| x & !m).collect();
            if k == last {
                cur[a] = Arc::new(outside);
                self.push_box(cur);
                return;
            }
            let inside: Bits = cur[a].iter().zip(&mask).map(|(x, m)| x & m).collect();
            let mut b = cur.clone();
            b[a] = Arc::new(outside);
            self.push_box(b);
            cur[a] = Arc::new(inside);
        }
    }
}

impl LegalActions {
    /// The single-board case: each move is an action; legal if it leaves the present to the
    /// opponent and no royal piece capturable.
    fn next_single(&mut self, mut i: usize) -> Option<Move> {
        while i < self.moves.len() {
            if self.tests >= self.budget {
                self.exhausted = true;
                return None;
            }
            self.tests += 1;
            let mv = self.moves[i];
            i += 1;
            self.single = Some(i);
            self.pos.play_unchecked(&mv);
            let legal = Color::of_time(self.pos.present()) != self.mover && self.find_attack().is_none();
            let played = self.pos.action_moves().last().copied();
            // Moves within the board make different boards; jumps onto two past boards of the
            // same content and time make the same new timeline.
            let fresh = !legal || !mv.is_jump() || self.first_time(self.pos.hash());
            self.pos.undo_move();
            if legal && fresh {
                return played;
            }
        }
        self.single = Some(i);
        None
    }

    /// Whether a legal point reaching the position of this hash is a new action: always with
    /// [`Convention::Orderings`] (each point is a set of moves with an order of new timelines),
    /// the first time the position is reached with [`Convention::DistinctPositions`].
    fn first_time(&mut self, hash: u64) -> bool {
        self.convention == Convention::Orderings || self.yielded.insert(hash)
    }

    /// Counts the legal actions not yet yielded, stopping at `cap`: what `count()` on the
    /// iterator gives, without building the actions when each is a single move.
    pub fn count_up_to(&mut self, cap: u64) -> u64 {
        // The actions found are not returned: no need to build them.
        self.counting = true;
        let mut n = 0;
        while n < cap {
            let found = match self.single {
                Some(i) => self.next_single(i).is_some(),
                None => self.next().is_some(),
            };
            if !found {
                break;
            }
            n += 1;
        }
        self.counting = false;
        n
    }
}

impl LegalActions {
    /// Tests the next candidate of a line; keeps the line for later calls unless it is done.
    fn step_line(&mut self, mut line: Line) -> Option<Vec<Move>> {
        loop {
            let i = first_set(&line.rest)?;
            line.rest[i / 64] &= !(1 << (i % 64));
            line.point[line.axis] = i;
            if !line.derived || self.derive_slots(&line.region, &mut line.point, line.axis) {
                break;
            }
            self.stats[9] += 1;
        }
        self.tests += 1;
        let verdict = self.test(&line.region, &line.point);
        let mut found = None;
        match verdict {
            Ok((moves, hash)) => {
                if self.first_time(hash) {
                    found = Some(moves);
                }
            }
            Err(reason) if line.derived => {
                // Each remaining option fails too if its own point lies in the reason.
                let mut point = line.point.clone();
                for w in 0..line.rest.len() {
                    for b in BitIter(line.rest[w]) {
                        let j = w * 64 + b;
                        point[line.axis] = j;
                        if self.derive_slots(&line.region, &mut point, line.axis)
                            && reason.iter().all(|(a, mask)| mask_bit(mask, point[*a]))
                        {
                            line.rest[w] &= !(1 << b);
                        }
                    }
                }
            }
            Err(reason) => {
                // The reason holds the fixed axes' options (it holds the point): along the line
                // it cuts its own options of the free axis, or all of them.
                match reason.iter().find(|(a, _)| *a == line.axis) {
                    Some((_, mask)) => {
                        for (r, m) in line.rest.iter_mut().zip(mask) {
                            *r &= !m;
                        }
                    }
                    None => line.rest.iter_mut().for_each(|r| *r = 0),
                }
            }
        }
        if line.rest.iter().any(|&w| w != 0) {
            self.line = Some(line);
        }
        found
    }

    /// Fills the slots of a derived line's point for the option on its free axis; `false` if
    /// that option has no consistent point in the box.
    fn derive_slots(&self, region: &Region, point: &mut [usize], axis: usize) -> bool {
        for p in &mut point[self.first_slot..] {
            *p = 0;
        }
        match self.axes[axis].opts[point[axis]] {
            Opt::Arrive(_) => return false,
            Opt::Play(m) if self.moves[m as usize].is_jump() => {
                if self.first_slot == self.axes.len() {
                    return false;
                }
                point[self.first_slot] = self.branch_index[m as usize];
            }
            _ => {}
        }
        (self.first_slot..self.axes.len()).all(|s| bit(region, s, point[s]))
    }
}

impl Iterator for LegalActions {
    type Item = Vec<Move>;

    fn next(&mut self) -> Option<Vec<Move>> {
        if let Some(i) = self.single {
            return self.next_single(i).map(|m| vec![m]);
        }
        loop {
            if self.tests >= self.budget {
                self.exhausted =
                    !self.boxes.is_empty() || self.deferred.iter().any(|b| !b.is_empty()) || self.line.is_some();
                return None;
            }
            if let Some(line) = self.line.take() {
                if let Some(found) = self.step_line(line) {
                    return Some(found);
                }
                continue;
            }
            let mut region = match self.boxes.pop() {
                Some(region) => region,
                None => self.deferred.iter_mut().find_map(Vec::pop)?,
            };
            if !self.tighten(&mut region) {
                self.tests += 1;
                self.stats[9] += 1;
                continue;
            }
            // A box free along one axis only is walked along it, with no splitting; so is a box
            // free along one board whose other boards play no jumps, whatever its slots allow.
            let is_free = |a: &usize| single_option(&region[*a]).is_none();
            let mut free_boards = (0..self.first_slot).filter(is_free);
            let mut free_slots = (self.first_slot..self.axes.len()).filter(is_free);
            let line_axis = match (
                free_boards.next(),
                free_boards.next(),
                free_slots.next(),
                free_slots.next(),
            ) {
                (Some(a), None, None, _) => Some((a, false)),
                (Some(a), None, Some(_), _) => {
                    let calm = (0..self.first_slot).filter(|&b| b != a).all(|b| {
                        region[b]
                            .iter()
                            .zip(self.axes[b].jump_opts.iter().zip(&self.axes[b].arrive_opts))
                            .all(|(x, (j, r))| x & (j | r) == 0)
                    });
                    calm.then_some((a, true))
                }
                (None, _, Some(s), None) => Some((s, false)),
                _ => None,
            };
            if let Some((axis, derived)) = line_axis {
                let point: Vec<usize> = (0..self.axes.len())
                    .map(|a| first_bit(&region, a).expect("non-empty axis"))
                    .collect();
                let rest = (*region[axis]).clone();
                self.line = Some(Line {
                    region,
                    point,
                    axis,
                    rest,
                    derived,
                });
                continue;
            }
            let point = self.pick(&region);
            self.tests += 1;
            let verdict = self.test(&region, &point);
            match verdict {
                Ok((moves, hash)) => {
                    self.subtract_point(region, &point);
                    // Different pieces of one kind trading destinations, or two jumps onto
                    // one past board in either order, reach the same position.
                    if self.first_time(hash) {
                        return Some(moves);
                    }
                }
                Err(reason) => self.subtract(region, &point, reason),
            }
        }
    }
}
