//! The multiverse: timelines of boards, the side to move and the action being built.

use crate::board::{place_hash, BitIter, Board};
use crate::error::{IllegalMove, SetupError, SubmitError};
use crate::moves::{Move, MoveKind};
use crate::types::{timeline_label, BoardId, Color, Coord, Piece, Role, Size, Square};
use std::fmt;

/// Plain data describing a position: board size, starting boards and rules options.
///
/// Anything can be written into a `Setup`; [`Position::from_setup`] checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The size of every board.
    pub size: Size,
    /// Whether the game started with an even number of timelines (`-0` and `+0`).
    pub even: bool,
    /// The boards, in any order. Each timeline's boards must cover consecutive half-turns.
    pub boards: Vec<(BoardId, Board)>,
    /// The roles a pawn or brawn may promote to, in order of preference. Empty: no promotion,
    /// so pawns cannot enter the last rank at all.
    pub promotions: Vec<Role>,
}

impl Setup {
    /// A setup with a single board at turn 1, White to move.
    pub fn single(size: Size, board: Board) -> Setup {
        Setup {
            size,
            even: false,
            boards: vec![(BoardId::new(0, 2), board)],
            promotions: vec![Role::Queen],
        }
    }
}

/// One timeline: consecutive boards starting at half-turn `start`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub(crate) start: i32,
    pub(crate) boards: Vec<Board>,
    /// The board the jump that created this timeline landed on, if a move created it.
    pub(crate) origin: Option<BoardId>,
}

impl Clone for Line {
    /// A copy with room for a few more boards: a copied position is usually played on at
    /// once (a search's child), and a full vector would be copied again at the first move.
    fn clone(&self) -> Line {
        let mut boards = Vec::with_capacity(self.boards.len() + 4);
        boards.extend_from_slice(&self.boards);
        Line {
            start: self.start,
            boards,
            origin: self.origin,
        }
    }
}

impl Line {
    #[inline]
    pub(crate) fn end(&self) -> i32 {
        self.start + self.boards.len() as i32 - 1
    }
}

/// What one played move added, so that it can be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Undo {
    /// One board on the source timeline.
    Physical,
    /// One board on the source and one on the destination timeline.
    Hop,
    /// One board on the source timeline and a new timeline.
    Branch { new_l: i32 },
}

/// What [`Position::submittable_with`] needs to know of the position an action started from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubmitTest {
    /// Whether a royal piece of the mover was capturable there before any move.
    attacked: bool,
}

/// A submitted action that can be taken back (see [`Position::take_back`]).
#[derive(Debug)]
pub(crate) struct Submitted(Vec<(Move, Undo)>);

/// A validated multiverse with the side to move and the moves of its unfinished action.
///
/// Reachable only through [`Position::from_setup`] (or the variants), so that every
/// `Position` is well formed.
#[derive(Clone)]
pub struct Position {
    size: Size,
    even: bool,
    promotions: Vec<Role>,
    lines: Vec<Line>,
    min_l: i32,
    initial_lines: (i32, i32),
    to_move: Color,
    hash: u64,
    action: Vec<(Move, Undo)>,
    /// Where a piece of each colour could capture a royal piece, over every board: for a colour
    /// `c`, the squares holding a royal piece of the other colour on some board where `c` is to
    /// move (captures land on boards of the mover's colour). Kept with per-square counts so that
    /// taking a board back clears a square only when no board holds a royal there any more.
    royal_targets: RoyalTargets,
}

/// See [`Position::royal_targets`].
#[derive(Clone)]
struct RoyalTargets {
    mask: [u64; 2],
    count: [[u32; 64]; 2],
}

impl RoyalTargets {
    fn new() -> RoyalTargets {
        RoyalTargets {
            mask: [0; 2],
            count: [[0; 64]; 2],
        }
    }

    /// Adds (`add`) or removes a board at half-turn `t`.
    fn update(&mut self, t: i32, board: &Board, add: bool) {
        let c = Color::of_time(t);
        for i in BitIter(board.royals(c.other())) {
            let n = &mut self.count[c.index()][i];
            if add {
                *n += 1;
                self.mask[c.index()] |= 1 << i;
            } else {
                *n -= 1;
                if *n == 0 {
                    self.mask[c.index()] &= !(1 << i);
                }
            }
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("size", &self.size)
            .field("to_move", &self.to_move)
            .field("timelines", &self.lines.len())
            .field("present", &self.present())
            .finish()
    }
}

impl Position {
    /// Checks a setup and makes a position of it. The side to move is the colour of the present.
    ///
    /// This is the one place where a setup becomes a playable position, for every door (files,
    /// the command line, the server, the bindings): it refuses malformed setups and the
    /// impossible positions listed in the crate docs ("Impossible positions"), and accepts a
    /// side without a royal piece (crate docs, "Positions without a royal piece": such a side
    /// is never in check, so it cannot be mated; with no legal action it is stalemated).
    pub fn from_setup(setup: Setup) -> Result<Position, SetupError> {
        let pos = Position::build(setup)?;
        pos.check_possible()?;
        Ok(pos)
    }

    /// The position of a setup whose shape is valid (sizes, boards, timelines, promotions).
    fn build(setup: Setup) -> Result<Position, SetupError> {
        let Setup {
            size,
            even,
            mut boards,
            promotions,
        } = setup;
        if Size::new(size.width, size.height).is_none() {
            return Err(SetupError::BadSize(size));
        }
        if boards.is_empty() {
            return Err(SetupError::NoBoards);
        }
        if promotions.iter().any(|r| r.is_royal() || r.is_pawnlike()) {
            return Err(SetupError::BadPromotion);
        }
        boards.sort_by_key(|(id, _)| (id.l, id.t));
        for w in boards.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(SetupError::DuplicateBoard(w[0].0.l, w[0].0.t));
            }
        }
        for (id, board) in &boards {
            for (sq, _) in board.pieces() {
                if !size.contains(sq.x(), sq.y()) {
                    return Err(SetupError::PieceOffBoard(id.l, id.t, sq.to_string()));
                }
            }
        }
        let min_l = boards[0].0.l;
        let max_l = boards[boards.len() - 1].0.l;
        if max_l - min_l > 10_000 {
            return Err(SetupError::TooManyTimelines);
        }
        let mut lines: Vec<Line> = Vec::new();
        for (id, board) in boards {
            let idx = (id.l - min_l) as usize;
            if idx >= lines.len() {
                if idx != lines.len() {
                    return Err(SetupError::MissingTimeline(min_l + lines.len() as i32));
                }
                lines.push(Line {
                    start: id.t,
                    boards: Vec::new(),
                    origin: None,
                });
            }
            let line = &mut lines[idx];
            if id.t != line.start + line.boards.len() as i32 {
                return Err(SetupError::Gap(id.l, id.t));
            }
            line.boards.push(board);
        }
        let mut pos = Position {
            size,
            even,
            promotions,
            lines,
            min_l,
            initial_lines: (min_l, max_l),
            to_move: Color::White,
            hash: 0,
            action: Vec::new(),
            royal_targets: RoyalTargets::new(),
        };
        for line in &pos.lines {
            for (j, b) in line.boards.iter().enumerate() {
                pos.royal_targets.update(line.start + j as i32, b, true);
            }
        }
        pos.to_move = Color::of_time(pos.present());
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// [`Position::from_setup`] without the checks of what games can reach (only the setup's
    /// shape is checked): for views that are not game positions, such as the multiverse after a
    /// pass that [`Position::checks_after_pass`] looks at. Never for a position to play from.
    pub fn from_setup_unreachable(setup: Setup) -> Result<Position, SetupError> {
        Position::build(setup)
    }

    /// Refuses what no game can reach (crate docs, "Impossible positions"): a pawn or brawn on
    /// the rank where it promotes, and a position where the side to move can capture a royal
    /// piece. A side without a royal piece is accepted ("Positions without a royal piece").
    fn check_possible(&self) -> Result<(), SetupError> {
        let last_rank = self.size.height as i32 - 1;
        for (id, board) in self.boards() {
            for (sq, p) in board.pieces() {
                // (Its own first rank is not refused: official variants start pawns there.)
                let promotion_rank = match p.color() {
                    Color::White => last_rank,
                    Color::Black => 0,
                };
                if p.role().is_pawnlike() && last_rank > 0 && sq.y() == promotion_rank {
                    let piece = format!("{} {}", p.color().name(), p.role().name());
                    return Err(SetupError::PawnOnEndRank(
                        piece,
                        self.coord_name(Coord { board: id, square: sq }),
                    ));
                }
            }
        }
        if let Some(a) = self.find_attack(self.to_move) {
            let royal = self.piece_at(a.to).map_or_else(
                || "royal piece".to_string(),
                |p| format!("{} {}", p.color().name(), p.role().name()),
            );
            return Err(SetupError::RoyalCapturable {
                royal: format!("{royal} on {}", self.coord_name(a.to)),
                from: self.coord_name(a.from),
            });
        }
        Ok(())
    }

    /// The setup this position would be built from (every board, as a starting board).
    pub fn to_setup(&self) -> Setup {
        let mut boards = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            for (j, b) in line.boards.iter().enumerate() {
                boards.push((BoardId::new(self.min_l + i as i32, line.start + j as i32), b.clone()));
            }
        }
        Setup {
            size: self.size,
            even: self.even,
            boards,
            promotions: self.promotions.clone(),
        }
    }

    fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (i, line) in self.lines.iter().enumerate() {
            for (j, b) in line.boards.iter().enumerate() {
                h ^= place_hash(b.hash(), self.min_l + i as i32, line.start + j as i32);
            }
        }
        h
    }

    /// The size of the boards.
    #[inline]
    pub fn size(&self) -> Size {
        self.size
    }

    /// Whether the game started with an even number of timelines.
    #[inline]
    pub fn even(&self) -> bool {
        self.even
    }

    /// The roles pawns promote to (the first is the default).
    #[inline]
    pub fn promotions(&self) -> &[Role] {
        &self.promotions
    }

    /// Sets the promotion roles (royal and pawn-like roles are ignored).
    pub fn set_promotions(&mut self, roles: &[Role]) {
        self.promotions = roles
            .iter()
            .copied()
            .filter(|r| !r.is_royal() && !r.is_pawnlike())
            .collect();
    }

    /// The player whose action is being built.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// A hash of every board and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
            ^ if self.to_move == Color::Black {
                0x5bd1_e995_7f4a_7c15
            } else {
                0
            }
    }

    /// The lowest timeline index.
    #[inline]
    pub fn min_timeline(&self) -> i32 {
        self.min_l
    }

    /// The highest timeline index.
    #[inline]
    pub fn max_timeline(&self) -> i32 {
        self.min_l + self.lines.len() as i32 - 1
    }

    /// The timeline indices of the starting position.
    pub fn initial_timelines(&self) -> (i32, i32) {
        self.initial_lines
    }

    /// All timeline indices, lowest first.
    pub fn timelines(&self) -> std::ops::RangeInclusive<i32> {
        self.min_timeline()..=self.max_timeline()
    }

    /// The number of timelines.
    #[inline]
    pub fn timeline_count(&self) -> usize {
        self.lines.len()
    }

    #[inline]
    pub(crate) fn line(&self, l: i32) -> Option<&Line> {
        let idx = l.wrapping_sub(self.min_l);
        if idx < 0 {
            None
        } else {
            self.lines.get(idx as usize)
        }
    }

    /// The first half-turn of a timeline.
    pub fn timeline_start(&self, l: i32) -> Option<i32> {
        self.line(l).map(|line| line.start)
    }

    /// The half-turn of a timeline's latest board.
    pub fn timeline_end(&self, l: i32) -> Option<i32> {
        self.line(l).map(Line::end)
    }

    /// The board a branching jump landed on to create this timeline, if one did.
    pub fn timeline_origin(&self, l: i32) -> Option<BoardId> {
        self.line(l).and_then(|line| line.origin)
    }

    /// The board at `(l, t)`, if it exists.
    #[inline]
    pub fn board(&self, id: BoardId) -> Option<&Board> {
        self.board_at(id.l, id.t)
    }

    /// The squares where a piece of `attacker` could capture a royal piece on some board.
    #[inline]
    pub(crate) fn royal_targets(&self, attacker: Color) -> u64 {
        self.royal_targets.mask[attacker.index()]
    }

    #[inline]
    pub(crate) fn board_at(&self, l: i32, t: i32) -> Option<&Board> {
        let line = self.line(l)?;
        let j = t.wrapping_sub(line.start);
        if j < 0 {
            None
        } else {
            line.boards.get(j as usize)
        }
    }

    /// The piece on a coordinate, if the board exists and the square is on it.
    pub fn piece_at(&self, c: Coord) -> Option<Piece> {
        if !self.size.contains(c.square.x(), c.square.y()) {
            return None;
        }
        self.board(c.board)?.get(c.square)
    }

    /// Every board, timeline by timeline, earliest first.
    pub fn boards(&self) -> impl Iterator<Item = (BoardId, &Board)> + '_ {
        self.lines.iter().enumerate().flat_map(move |(i, line)| {
            let l = self.min_l + i as i32;
            line.boards
                .iter()
                .enumerate()
                .map(move |(j, b)| (BoardId::new(l, line.start + j as i32), b))
        })
    }

    /// The label of a timeline as written in notation (`0`, `-1`, `+0`...).
    pub fn timeline_label(&self, l: i32) -> String {
        timeline_label(l, self.even)
    }

    fn black_magnitude(&self, l: i32) -> i32 {
        if self.even {
            -l - 1
        } else {
            -l
        }
    }

    /// How many timelines each side has beyond the neutral ones: the largest magnitude on White's
    /// side and on Black's side.
    fn magnitudes(&self) -> (i32, i32) {
        let max_l = self.max_timeline();
        let wmax = max_l.max(0);
        let bmax = if self.min_l < 0 {
            self.black_magnitude(self.min_l).max(0)
        } else {
            0
        };
        (wmax, bmax)
    }

    /// Whether a timeline is active: a side's timeline counts only if that side is at most one
    /// timeline ahead of the other.
    pub fn is_active(&self, l: i32) -> bool {
        let (wmax, bmax) = self.magnitudes();
        self.active_with(l, wmax, bmax)
    }

    #[inline]
    fn active_with(&self, l: i32, wmax: i32, bmax: i32) -> bool {
        if l > 0 || (self.even && l == 0) {
            l <= bmax + 1
        } else if l < 0 {
            self.black_magnitude(l) <= wmax + 1
        } else {
            true
        }
    }

    /// Whether timeline `l` would be active if the timelines were `min_l..=max_l`.
    pub(crate) fn active_in(&self, l: i32, min_l: i32, max_l: i32) -> bool {
        let wmax = max_l.max(0);
        let bmax = if min_l < 0 {
            self.black_magnitude(min_l).max(0)
        } else {
            0
        };
        self.active_with(l, wmax, bmax)
    }

    /// The present: the earliest half-turn among the latest boards of the active timelines.
    pub fn present(&self) -> i32 {
        let (wmax, bmax) = self.magnitudes();
        let mut p = i32::MAX;
        for (i, line) in self.lines.iter().enumerate() {
            let l = self.min_l + i as i32;
            if self.active_with(l, wmax, bmax) {
                p = p.min(line.end());
            }
        }
        p
    }

    /// The turn number of the present, as displayed.
    pub fn present_turn(&self) -> i32 {
        self.present().div_euclid(2)
    }

    /// The number of active timelines.
    pub fn active_count(&self) -> usize {
        self.timelines().filter(|&l| self.is_active(l)).count()
    }

    /// Whether a board is playable for the side to move: the latest of its timeline, and of that
    /// side's colour.
    pub fn is_playable(&self, id: BoardId) -> bool {
        self.line(id.l).is_some_and(|line| line.end() == id.t) && id.color() == self.to_move
    }

    /// The boards the side to move may move on (every timeline, active or not).
    pub fn playable_boards(&self) -> Vec<BoardId> {
        self.latest_boards_of(self.to_move)
    }

    /// The latest board of every timeline.
    pub(crate) fn latest_boards(&self) -> impl Iterator<Item = BoardId> + '_ {
        self.lines
            .iter()
            .enumerate()
            .map(|(i, line)| BoardId::new(self.min_l + i as i32, line.end()))
    }

    /// The latest boards of every timeline whose latest board is of `color`.
    pub fn latest_boards_of(&self, color: Color) -> Vec<BoardId> {
        let mut out = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            if Color::of_time(line.end()) == color {
                out.push(BoardId::new(self.min_l + i as i32, line.end()));
            }
        }
        out
    }

    /// The boards the side to move must still play before submitting: its playable boards on
    /// active timelines at the present. Empty when the present is the opponent's.
    pub fn mandatory_boards(&self) -> Vec<BoardId> {
        self.mandatory().collect()
    }

    /// [`Position::mandatory_boards`], one at a time.
    fn mandatory(&self) -> impl Iterator<Item = BoardId> + '_ {
        let p = self.present();
        let ours = Color::of_time(p) == self.to_move;
        let (wmax, bmax) = self.magnitudes();
        self.lines.iter().enumerate().filter_map(move |(i, line)| {
            let l = self.min_l + i as i32;
            (ours && line.end() == p && self.active_with(l, wmax, bmax)).then_some(BoardId::new(l, p))
        })
    }

    /// The index the next timeline created by `color` gets.
    #[inline]
    pub fn next_timeline(&self, color: Color) -> i32 {
        match color {
            Color::White => self.max_timeline() + 1,
            Color::Black => self.min_l - 1,
        }
    }

    /// The moves of the action being built, in the order they were played.
    pub fn action_moves(&self) -> impl Iterator<Item = &Move> + '_ {
        self.action.iter().map(|(m, _)| m)
    }

    /// The number of moves in the action being built.
    pub fn action_len(&self) -> usize {
        self.action.len()
    }

    /// Plays a move after checking that it is one of the pseudo-legal moves of a playable board.
    /// The move is looked up by source, destination and promotion; the other fields are filled in.
    pub fn play(&mut self, mv: &Move) -> Result<Move, IllegalMove> {
        let found = self.find_move(mv.from, mv.to, mv.promotion)?;
        self.play_unchecked(&found);
        Ok(found)
    }

    /// Finds the pseudo-legal move with this source, destination and promotion (the default
    /// promotion if `None` and the move promotes).
    pub fn find_move(&self, from: Coord, to: Coord, promotion: Option<Role>) -> Result<Move, IllegalMove> {
        if self.board(from.board).is_none() {
            return Err(IllegalMove::NoSuchBoard(self.board_name(from.board)));
        }
        if self.board(to.board).is_none() {
            return Err(IllegalMove::NoSuchBoard(self.board_name(to.board)));
        }
        if !self.is_playable(from.board) {
            return Err(IllegalMove::NotPlayable(self.board_name(from.board)));
        }
        let piece = match self.piece_at(from) {
            None => return Err(IllegalMove::NoPiece(self.coord_name(from))),
            Some(p) => p,
        };
        if piece.color() != self.to_move {
            return Err(IllegalMove::NotYourPiece(self.coord_name(from)));
        }
        let mut moves = Vec::new();
        self.gen_piece_moves(from, piece, self.board_steps(from.board), &mut moves);
        let candidates: Vec<&Move> = moves.iter().filter(|m| m.to == to).collect();
        if candidates.is_empty() {
            // Say why when the move is a first move's two-step, made by a pawn that has moved.
            if piece.role().is_pawnlike() && !piece.unmoved() {
                let mut first = Vec::new();
                self.gen_piece_moves(from, piece.with_unmoved(true), self.board_steps(from.board), &mut first);
                if first.iter().any(|m| m.to == to) {
                    return Err(IllegalMove::NotFirstMove {
                        piece,
                        from: self.coord_name(from),
                        to: self.coord_name(to),
                    });
                }
            }
            return Err(IllegalMove::CannotReach {
                piece,
                from: self.coord_name(from),
                to: self.coord_name(to),
            });
        }
        match promotion {
            Some(r) => candidates
                .into_iter()
                .find(|m| m.promotion == Some(r))
                .copied()
                .ok_or(IllegalMove::BadPromotion(r)),
            None => {
                // The first generated promotion is the default one.
                Ok(*candidates[0])
            }
        }
    }

    /// Plays a move that the caller knows to be pseudo-legal here (from [`Position::moves_from`]
    /// or [`Position::find_move`]). Whether a jump hops or branches is decided by the current
    /// position, not by `mv.kind`.
    pub fn play_unchecked(&mut self, mv: &Move) {
        let from = mv.from;
        let to = mv.to;
        let mover = mv.piece.color();
        let placed = mv.placed();
        let src = self.board(from.board).expect("source board exists");
        let ep = src.en_passant();
        let mut next = src.clone();
        next.set_en_passant(None);
        if from.board == to.board {
            play_within(&mut next, ep, mv);
            if mv.kind == MoveKind::DoubleStep {
                let mid = Square::new(from.square.x() as u8, ((from.square.y() + to.square.y()) / 2) as u8);
                next.set_en_passant(Some((mid, to.square)));
            }
            self.push_board(from.board.l, next);
            self.action.push((*mv, Undo::Physical));
            return;
        }
        next.set(from.square, None);
        let mut dest = self.board(to.board).expect("destination board exists").clone();
        dest.set_en_passant(None);
        dest.set(to.square, Some(placed));
        let hop = self.timeline_end(to.board.l) == Some(to.board.t);
        self.push_board(from.board.l, next);
        if hop {
            self.push_board(to.board.l, dest);
            let mut played = *mv;
            played.kind = MoveKind::Hop;
            self.action.push((played, Undo::Hop));
        } else {
            let new_l = self.next_timeline(mover);
            let line = Line {
                start: to.board.t + 1,
                boards: vec![dest],
                origin: Some(to.board),
            };
            self.hash ^= place_hash(line.boards[0].hash(), new_l, to.board.t + 1);
            self.royal_targets.update(line.start, &line.boards[0], true);
            if new_l < self.min_l {
                self.lines.insert(0, line);
                self.min_l = new_l;
            } else {
                self.lines.push(line);
            }
            let mut played = *mv;
            played.kind = MoveKind::Branch;
            self.action.push((played, Undo::Branch { new_l }));
        }
    }

    fn push_board(&mut self, l: i32, board: Board) {
        let idx = (l - self.min_l) as usize;
        let line = &mut self.lines[idx];
        let t = line.end() + 1;
        self.hash ^= place_hash(board.hash(), l, t);
        self.royal_targets.update(t, &board, true);
        line.boards.push(board);
    }

    fn pop_board(&mut self, l: i32) {
        let idx = (l - self.min_l) as usize;
        let line = &mut self.lines[idx];
        let t = line.end();
        let b = line.boards.pop().expect("a board to pop");
        self.hash ^= place_hash(b.hash(), l, t);
        self.royal_targets.update(t, &b, false);
    }

    /// Whether the last move of the action being built left a royal piece of its mover
    /// capturable within a board that move made: the new board is the opponent's to play and no
    /// later move of the action can change it, so no action that goes on from here can be
    /// submitted. A cheap early test for generators that build actions move by move.
    pub fn last_move_exposes_royal(&self) -> bool {
        let Some((mv, undo)) = self.action.last() else {
            return false;
        };
        let mover = mv.piece.color();
        // The board a move made is the last of its timeline.
        let exposed = |l: i32| {
            self.line(l)
                .and_then(|line| line.boards.last())
                .is_some_and(|b| b.royal_attacked(mover))
        };
        match *undo {
            Undo::Physical => exposed(mv.from.board.l),
            Undo::Hop => exposed(mv.from.board.l) || exposed(mv.to.board.l),
            Undo::Branch { new_l } => exposed(mv.from.board.l) || exposed(new_l),
        }
    }

    /// Takes back the last move of the action being built.
    pub fn undo_move(&mut self) -> Option<Move> {
        let (mv, undo) = self.action.pop()?;
        match undo {
            Undo::Physical => self.pop_board(mv.from.board.l),
            Undo::Hop => {
                self.pop_board(mv.to.board.l);
                self.pop_board(mv.from.board.l);
            }
            Undo::Branch { new_l } => {
                let line = if new_l == self.min_l {
                    self.min_l += 1;
                    self.lines.remove(0)
                } else {
                    self.lines.pop().expect("the new timeline")
                };
                self.hash ^= place_hash(line.boards[0].hash(), new_l, line.start);
                self.royal_targets.update(line.start, &line.boards[0], false);
                self.pop_board(mv.from.board.l);
            }
        }
        Some(mv)
    }

    /// Takes back every move of the action being built.
    pub fn undo_action_moves(&mut self) {
        while self.undo_move().is_some() {}
    }

    /// Whether the action built so far may be submitted: at least one move, no mandatory board
    /// left, and no royal piece of the mover capturable.
    pub fn can_submit(&self) -> Result<(), SubmitError> {
        if self.action.is_empty() {
            return Err(SubmitError::NoMove);
        }
        if let Some(b) = self.mandatory_boards().first() {
            return Err(SubmitError::MandatoryBoard(self.board_name(*b)));
        }
        if let Some(att) = self.find_attack(self.to_move.other()) {
            return Err(SubmitError::RoyalCapturable {
                from: self.coord_name(att.from),
                to: self.coord_name(att.to),
            });
        }
        Ok(())
    }

    /// Prepares [`Position::submittable_with`] for the actions built from this position: call
    /// it before the action's first move.
    pub fn submit_test(&self) -> SubmitTest {
        SubmitTest {
            attacked: self.find_attack(self.to_move.other()).is_some(),
        }
    }

    /// Whether the action built so far may be submitted, as [`Position::can_submit`] says,
    /// without describing why not. `test` must come from [`Position::submit_test`] on the
    /// position this action started from: when no royal piece of the mover was capturable
    /// there, only captures from, through or onto the action's new boards are looked for
    /// (an action only adds boards), which is much cheaper in a large multiverse.
    pub fn submittable_with(&self, test: SubmitTest) -> bool {
        if self.action.is_empty() || self.mandatory().next().is_some() {
            return false;
        }
        let attacker = self.to_move.other();
        let attack = if test.attacked {
            self.find_attack(attacker)
        } else {
            // A latest board is new when the action added a board to its timeline.
            self.find_new_attack(attacker, |b| {
                self.action.iter().any(|(m, undo)| {
                    m.from.board.l == b.l
                        || match *undo {
                            Undo::Physical => false,
                            Undo::Hop => m.to.board.l == b.l,
                            Undo::Branch { new_l } => new_l == b.l,
                        }
                })
            })
        };
        attack.is_none()
    }

    /// Submits the action built so far and hands the turn over.
    pub fn submit(&mut self) -> Result<Vec<Move>, SubmitError> {
        self.can_submit()?;
        Ok(self.submit_unchecked())
    }

    /// Submits the action (unchecked) so that [`Position::take_back`] can restore it.
    pub(crate) fn submit_for_take_back(&mut self) -> Submitted {
        self.to_move = self.to_move.other();
        Submitted(std::mem::take(&mut self.action))
    }

    /// Takes back an action submitted by [`Position::submit_for_take_back`], moves and all.
    pub(crate) fn take_back(&mut self, submitted: Submitted) {
        self.to_move = self.to_move.other();
        self.action = submitted.0;
        self.undo_action_moves();
    }

    /// Runs `f` on this position with the action built so far submitted (unchecked), then
    /// takes the submission back, leaving the action's moves played. `f` must leave the
    /// position as it found it (it may play moves and take them back). A search uses this to
    /// look at the position after an action without copying it.
    pub fn with_submitted<R>(&mut self, f: impl FnOnce(&mut Position) -> R) -> R {
        let action = std::mem::take(&mut self.action);
        self.to_move = self.to_move.other();
        let r = f(self);
        debug_assert!(self.action.is_empty(), "with_submitted: f left moves played");
        self.to_move = self.to_move.other();
        self.action = action;
        r
    }

    /// Runs `f` on this position (between actions) after a pass: every mandatory board is
    /// copied unchanged to the next half-turn and the turn handed over, as if the side to
    /// move had moved nothing (not a legal action: a search's null move). The pass is taken
    /// back afterwards; `f` must leave the position as it found it.
    pub fn with_passed<R>(&mut self, f: impl FnOnce(&mut Position) -> R) -> R {
        debug_assert!(self.action.is_empty(), "with_passed: an action is being built");
        let passed = self.push_pass();
        self.to_move = self.to_move.other();
        let r = f(self);
        self.to_move = self.to_move.other();
        self.pop_pass(&passed);
        r
    }

    /// Copies every mandatory board unchanged to the next half-turn (the side to move passes
    /// there) and returns them, for [`Position::pop_pass`].
    fn push_pass(&mut self) -> Vec<BoardId> {
        let mandatory = self.mandatory_boards();
        for &b in &mandatory {
            let mut copy = self.board(b).expect("mandatory board").clone();
            copy.set_en_passant(None);
            self.push_board(b.l, copy);
        }
        mandatory
    }

    /// Takes back the copies [`Position::push_pass`] added.
    fn pop_pass(&mut self, passed: &[BoardId]) {
        for b in passed.iter().rev() {
            self.pop_board(b.l);
        }
    }

    /// Whether [`Position::pass`] would succeed: the mover's royal pieces must be safe once
    /// every mandatory board left is copied unchanged.
    pub fn can_pass(&self) -> Result<(), SubmitError> {
        let mut p = self.clone();
        p.pass().map(|_| ())
    }

    /// Ends the action under way without moving on the mandatory boards left: each is copied
    /// unchanged to the next half-turn, then the turn is handed over, and the action's moves
    /// are returned. 5D Chess has no pass (a player must move on every board in the present);
    /// engines and the 5d-chess-js API use it. Refused, changing nothing, when a royal piece of
    /// the mover could then be captured.
    pub fn pass(&mut self) -> Result<Vec<Move>, SubmitError> {
        let passed = self.push_pass();
        if let Some(att) = self.find_attack(self.to_move.other()) {
            let err = SubmitError::RoyalCapturable {
                from: self.coord_name(att.from),
                to: self.coord_name(att.to),
            };
            self.pop_pass(&passed);
            return Err(err);
        }
        Ok(self.submit_unchecked())
    }

    /// [`Position::pass`] without the check, for replaying a recorded pass.
    pub fn pass_unchecked(&mut self) -> Vec<Move> {
        self.push_pass();
        self.submit_unchecked()
    }

    /// Hands the turn over without checking the action.
    pub fn submit_unchecked(&mut self) -> Vec<Move> {
        let moves = self.action.drain(..).map(|(m, _)| m).collect();
        self.to_move = self.to_move.other();
        moves
    }

    /// Whether the side to move is in check: if it made a null move on every mandatory board,
    /// could the opponent capture one of its royal pieces?
    pub fn in_check(&self) -> bool {
        self.checking_move().is_some()
    }

    /// [`Position::in_check`] without copying the position: the null moves are played on it
    /// and taken back, so that it is unchanged afterwards (for searches, which test check at
    /// every node).
    pub fn in_check_mut(&mut self) -> bool {
        let passed = self.push_pass();
        let check = self.find_attack(self.to_move.other()).is_some();
        self.pop_pass(&passed);
        check
    }

    /// An opponent capture of a royal piece that makes the side to move be in check, if any.
    pub fn checking_move(&self) -> Option<(Coord, Coord)> {
        let mut scratch = self.clone();
        scratch.push_pass();
        scratch.find_attack(self.to_move.other()).map(|a| (a.from, a.to))
    }

    /// A board as written in notation, e.g. `(-1T4)`.
    pub fn board_name(&self, b: BoardId) -> String {
        format!("({}T{})", self.timeline_label(b.l), b.turn())
    }

    /// A square of a board as written in notation, e.g. `(0T1)e2`.
    pub fn coord_name(&self, c: Coord) -> String {
        format!("{}{}", self.board_name(c.board), c.square)
    }

    /// Every board's label in 5DFEN order, for debugging and display.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for (id, b) in self.boards() {
            out.push_str(&format!(
                "[{}:{}:{}:{}]\n",
                b.fen(self.size),
                self.timeline_label(id.l),
                id.turn(),
                id.color().letter()
            ));
        }
        out
    }
}

/// Plays a move that stays on its board onto `board`, a copy of the board it starts from, whose
/// en passant information is `ep`.
pub(crate) fn play_within(board: &mut Board, ep: Option<(Square, Square)>, mv: &Move) {
    board.set(mv.from.square, None);
    match mv.kind {
        MoveKind::EnPassant => {
            if let Some((_, pawn)) = ep {
                board.set(pawn, None);
            }
        }
        MoveKind::Castle { rook_from, rook_to } => {
            let rook = board.get(rook_from);
            board.set(rook_from, None);
            board.set(rook_to, rook.map(Piece::moved));
        }
        _ => {}
    }
    board.set(mv.to.square, Some(mv.placed()));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The royal-target masks kept while moves are played and taken back equal the masks
    /// recomputed from every board.
    #[test]
    fn royal_targets_follow_play_and_undo() {
        fn fresh(pos: &Position) -> [u64; 2] {
            let mut t = RoyalTargets::new();
            for (id, b) in pos.boards() {
                t.update(id.t, b, true);
            }
            t.mask
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for variant in crate::VARIANTS.iter().take(12) {
            let mut pos = variant.position();
            for _ in 0..60 {
                let boards = pos.playable_boards();
                let mut moves = Vec::new();
                for b in boards {
                    pos.moves_from(b, &mut moves);
                }
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rand(moves.len())];
                pos.play_unchecked(&mv);
                assert_eq!(pos.royal_targets.mask, fresh(&pos), "{} after {mv:?}", variant.name);
                if rand(4) == 0 {
                    pos.undo_move();
                    assert_eq!(pos.royal_targets.mask, fresh(&pos), "{} after undo", variant.name);
                } else if pos.mandatory_boards().is_empty() {
                    pos.submit_unchecked();
                }
            }
        }
    }
}
