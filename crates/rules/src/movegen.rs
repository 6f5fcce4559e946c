//! Per-board move generation and attack detection through time and timelines.

use crate::board::{BitIter, Board};
use crate::dirs::Dirs;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::tables;
use crate::types::{BoardId, Color, Coord, Piece, Role, Square};

/// The eight unit steps `(dx, dy)` within a board, for the ray tables.
const UNIT_STEPS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Of squares on one ray of unit step `d` (an index into [`UNIT_STEPS`]), the nearest to the
/// ray's start.
#[inline]
fn nearest(squares: u64, d: usize) -> usize {
    let (dx, dy) = UNIT_STEPS[d];
    if dy * 8 + dx > 0 {
        squares.trailing_zeros() as usize
    } else {
        63 - squares.leading_zeros() as usize
    }
}

/// Whether a piece of this role slides within its board along a diagonal (or a row or column).
#[inline]
fn slides_along(role: Role, diagonal: bool) -> bool {
    matches!(role, Role::Queen | Role::RoyalQueen | Role::Princess)
        || (diagonal && role == Role::Bishop)
        || (!diagonal && role == Role::Rook)
}

/// For each unit step and square of an 8x8 board, the squares beyond it that way (a table
/// written at build time: [`crate::tables`]).
#[inline]
fn unit_rays() -> &'static [[u64; 64]; 8] {
    &tables::UNIT_RAYS
}

impl Dirs {
    /// The squares a piece on `sq` reaches without leaving its board: `occupied` stops
    /// sliders (the blocker itself included), `area` is the board's squares.
    #[inline]
    fn spatial_targets(&self, sq: usize, occupied: u64, area: u64) -> u64 {
        if !self.slides {
            return self.leaps[sq] & area;
        }
        let rays = unit_rays();
        let mut out = 0;
        for &d in self.rays {
            let mut r = rays[d][sq] & area;
            let blockers = r & occupied;
            if blockers != 0 {
                r &= !rays[d][nearest(blockers, d)];
            }
            out |= r;
        }
        out
    }
}

/// The directions of `role` (a table written at build time: [`crate::tables`]).
#[inline]
pub(crate) fn dirs(role: Role) -> &'static Dirs {
    &tables::DIRS[role as usize - 1]
}

/// Forward along y for a colour.
#[inline]
pub(crate) fn forward_y(c: Color) -> i32 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Forward along L for a colour: White toward lower timelines.
#[inline]
pub(crate) fn forward_l(c: Color) -> i32 {
    match c {
        Color::White => -1,
        Color::Black => 1,
    }
}

/// An opponent move capturing a royal piece, with the squares it passes through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    /// The attacking piece's square.
    pub from: Coord,
    /// The royal piece's square.
    pub to: Coord,
    /// The attacking piece.
    pub piece: Piece,
    /// The squares strictly between, each of which must be empty.
    pub path: Vec<Coord>,
}

impl Position {
    /// Pseudo-legal moves from one board, for the side whose colour the board has. Moves may
    /// leave a royal piece capturable: legality is a property of whole actions.
    pub fn moves_from(&self, id: BoardId, out: &mut Vec<Move>) {
        let Some(board) = self.board(id) else { return };
        let steps = self.board_steps(id);
        for i in BitIter(board.occupied_by(id.color())) {
            let sq = Square::from_index(i);
            let piece = board.get(sq).expect("occupied square");
            self.gen_piece_moves(Coord { board: id, square: sq }, piece, steps, out);
        }
    }

    /// Pseudo-legal moves from every mandatory board (what the seed library's `moves()` lists).
    pub fn present_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for b in self.mandatory_boards() {
            self.moves_from(b, &mut out);
        }
        out
    }

    /// Pseudo-legal moves from every playable board of the side to move.
    pub fn playable_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for b in self.playable_boards() {
            self.moves_from(b, &mut out);
        }
        out
    }

    #[inline]
    fn make_move(&self, from: Coord, piece: Piece, to: Coord, captured: Option<Piece>, kind: MoveKind) -> Move {
        let kind = if from.board != to.board && kind == MoveKind::Normal {
            if self.timeline_end(to.board.l) == Some(to.board.t) {
                MoveKind::Hop
            } else {
                MoveKind::Branch
            }
        } else {
            kind
        };
        Move {
            from,
            to,
            piece,
            captured,
            promotion: None,
            kind,
        }
    }

    /// Pseudo-legal moves of one piece standing at `from`.
    /// Which board steps `(dt, dl)`, each in `-2..=2`, lead from board `id` to an existing
    /// board: bit `(dt + 2) * 5 + dl + 2`. Rays whose first step finds no board are skipped.
    pub(crate) fn board_steps(&self, id: BoardId) -> u32 {
        let mut m = 0;
        for dl in -2..=2 {
            let Some(line) = self.line(id.l + dl) else { continue };
            for dt in -2..=2 {
                let t = id.t + 2 * dt;
                if t >= line.start && t <= line.end() {
                    m |= step_bit(dt, dl);
                }
            }
        }
        m
    }

    /// Pseudo-legal moves of one piece standing at `from` (`steps` from [`Position::board_steps`]).
    pub(crate) fn gen_piece_moves(&self, from: Coord, piece: Piece, steps: u32, out: &mut Vec<Move>) {
        let role = piece.role();
        if role.is_pawnlike() {
            self.gen_pawn_moves(from, piece, steps, out);
            return;
        }
        let mover = piece.color();
        let size = self.size();
        let d = dirs(role);
        let home = self.board(from.board).expect("source board");
        // Within the board.
        let own = home.occupied_by(mover);
        let targets = d.spatial_targets(from.square.index(), home.occupied(), size.area()) & !own;
        for i in BitIter(targets) {
            let sq = Square::from_index(i);
            out.push(Move {
                from,
                to: Coord {
                    board: from.board,
                    square: sq,
                },
                piece,
                captured: home.get(sq),
                promotion: None,
                kind: MoveKind::Normal,
            });
        }
        // Through time and timelines.
        self.walk_rays(from, d, steps, |to, _, captured| {
            if captured.is_none_or(|p| p.color() != mover) {
                out.push(self.make_move(from, piece, to, captured, MoveKind::Normal));
            }
            false
        });
        if role == Role::King && piece.unmoved() {
            self.gen_castling(from, piece, home, out);
        }
    }

    fn gen_castling(&self, from: Coord, king: Piece, board: &Board, out: &mut Vec<Move>) {
        let size = self.size();
        let mover = king.color();
        let (x0, y0) = (from.square.x(), from.square.y());
        for dir in [-1, 1] {
            let mut x = x0 + dir;
            let mut found = None;
            while size.contains(x, y0) {
                if let Some(p) = board.get(Square::new(x as u8, y0 as u8)) {
                    found = Some((x, p));
                    break;
                }
                x += dir;
            }
            // The first piece along the rank must be an unmoved rook of the mover at least two
            // squares away. At exactly two, the king lands on the rook's square (the one case
            // where a piece moves onto a square of its own side) and the rook on the square
            // the king crosses, as at any distance.
            let Some((xr, rook)) = found else { continue };
            if rook.color() != mover || rook.role() != Role::Rook || !rook.unmoved() || (xr - x0).abs() < 2 {
                continue;
            }
            let cross = Square::new((x0 + dir) as u8, y0 as u8);
            let dest = Square::new((x0 + 2 * dir) as u8, y0 as u8);
            // Only attacks on this board count; castling into an attack on this board is left
            // out too, as it could never be part of a legal action.
            if [from.square, cross, dest]
                .iter()
                .any(|&s| attacked_in_board(board, s, mover.other()))
            {
                continue;
            }
            let to = Coord {
                board: from.board,
                square: dest,
            };
            out.push(Move {
                from,
                to,
                piece: king,
                captured: None,
                promotion: None,
                kind: MoveKind::Castle {
                    rook_from: Square::new(xr as u8, y0 as u8),
                    rook_to: cross,
                },
            });
        }
    }

    fn push_pawn_move(&self, out: &mut Vec<Move>, mv: Move) {
        let last = match mv.piece.color() {
            Color::White => self.size().height as i32 - 1,
            Color::Black => 0,
        };
        if mv.to.square.y() == last {
            for &r in self.promotions() {
                out.push(Move {
                    promotion: Some(r),
                    ..mv
                });
            }
        } else {
            out.push(mv);
        }
    }

    fn gen_pawn_moves(&self, from: Coord, piece: Piece, steps: u32, out: &mut Vec<Move>) {
        let mover = piece.color();
        let size = self.size();
        let f = forward_y(mover);
        let fl = forward_l(mover);
        let (x0, y0) = (from.square.x(), from.square.y());
        let (l0, t0) = (from.board.l, from.board.t);
        let home = self.board(from.board).expect("source board");
        let sq_at = |x: i32, y: i32| Square::new(x as u8, y as u8);
        // Along y.
        if size.contains(x0, y0 + f) && home.get(sq_at(x0, y0 + f)).is_none() {
            let to = Coord::new(l0, t0, sq_at(x0, y0 + f));
            self.push_pawn_move(out, self.make_move(from, piece, to, None, MoveKind::Normal));
            if piece.unmoved() && size.contains(x0, y0 + 2 * f) && home.get(sq_at(x0, y0 + 2 * f)).is_none() {
                let to = Coord::new(l0, t0, sq_at(x0, y0 + 2 * f));
                self.push_pawn_move(out, self.make_move(from, piece, to, None, MoveKind::DoubleStep));
            }
        }
        for dx in [-1, 1] {
            let (x, y) = (x0 + dx, y0 + f);
            if !size.contains(x, y) {
                continue;
            }
            let sq = sq_at(x, y);
            match home.get(sq) {
                Some(p) if p.color() != mover => {
                    let to = Coord::new(l0, t0, sq);
                    self.push_pawn_move(out, self.make_move(from, piece, to, Some(p), MoveKind::Normal));
                }
                None => {
                    if let Some((skipped, pawn_sq)) = home.en_passant() {
                        if skipped == sq {
                            if let Some(p) = home.get(pawn_sq) {
                                if p.color() != mover && p.role().is_pawnlike() {
                                    let to = Coord::new(l0, t0, sq);
                                    out.push(self.make_move(from, piece, to, Some(p), MoveKind::EnPassant));
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        // Along L (`steps` tells which neighbouring boards exist).
        if steps & (step_bit(0, fl) | step_bit(1, fl) | step_bit(-1, fl) | step_bit(-1, 0)) == 0 {
            return;
        }
        if let Some(b1) = self.board_at(l0 + fl, t0) {
            if b1.get(from.square).is_none() {
                let to = Coord::new(l0 + fl, t0, from.square);
                self.push_pawn_move(out, self.make_move(from, piece, to, None, MoveKind::Normal));
                if piece.unmoved() {
                    if let Some(b2) = self.board_at(l0 + 2 * fl, t0) {
                        if b2.get(from.square).is_none() {
                            let to = Coord::new(l0 + 2 * fl, t0, from.square);
                            self.push_pawn_move(out, self.make_move(from, piece, to, None, MoveKind::Normal));
                        }
                    }
                }
            }
        }
        for dt in [-1, 1] {
            if let Some(b) = self.board_at(l0 + fl, t0 + 2 * dt) {
                if let Some(p) = b.get(from.square) {
                    if p.color() != mover {
                        let to = Coord::new(l0 + fl, t0 + 2 * dt, from.square);
                        self.push_pawn_move(out, self.make_move(from, piece, to, Some(p), MoveKind::Normal));
                    }
                }
            }
        }
        if piece.role() == Role::Brawn {
            for (dl, dt, dx, dy) in [(fl, 0, -1, 0), (fl, 0, 1, 0), (fl, 0, 0, f), (0, -1, 0, f)] {
                let (x, y) = (x0 + dx, y0 + dy);
                if !size.contains(x, y) {
                    continue;
                }
                if let Some(b) = self.board_at(l0 + dl, t0 + 2 * dt) {
                    if let Some(p) = b.get(sq_at(x, y)) {
                        if p.color() != mover {
                            let to = Coord::new(l0 + dl, t0 + 2 * dt, sq_at(x, y));
                            self.push_pawn_move(out, self.make_move(from, piece, to, Some(p), MoveKind::Normal));
                        }
                    }
                }
            }
        }
    }

    /// The opponent's moves that capture a royal piece of the side to move if it passed now: the
    /// boards it must play are copied forward unplayed (without en passant), and every move of
    /// the opponent from its latest boards that takes a royal piece is listed (the seed
    /// library's `checks()`).
    pub fn checks_after_pass(&self) -> Vec<Move> {
        let mover = self.to_move();
        let mut setup = self.to_setup();
        for id in self.mandatory_boards() {
            if let Some(board) = self.board(id) {
                let mut copy = board.clone();
                copy.set_en_passant(None);
                setup.boards.push((BoardId::new(id.l, id.t + 1), copy));
            }
        }
        // A pass is no game position: the opponent may well capture a king in it.
        let Ok(passed) = Position::from_setup_unreachable(setup) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for id in passed.latest_boards_of(mover.other()) {
            let mut moves = Vec::new();
            passed.moves_from(id, &mut moves);
            found.extend(
                moves
                    .into_iter()
                    .filter(|m| m.captured.is_some_and(|p| p.is_royal_of(mover))),
            );
        }
        found
    }

    /// Finds a move of `attacker` from one of its playable boards (latest boards of its colour,
    /// active or not) that captures a royal piece of the other side.
    pub fn find_attack(&self, attacker: Color) -> Option<Attack> {
        let mut path = Vec::new();
        self.latest_boards()
            .filter(|b| b.color() == attacker)
            .find_map(|b| self.find_attack_from(b, None, &mut path))
    }

    /// Like [`Position::find_attack`], for a position that differs from one without any
    /// attack only by new boards (those for which `is_new` holds, all latest boards): only
    /// attacks from a new board, or through or onto one, are looked for.
    pub(crate) fn find_new_attack(&self, attacker: Color, is_new: impl Fn(BoardId) -> bool) -> Option<Attack> {
        let mut path = Vec::new();
        // New boards are few (two per move at most); past a fixed number, look everywhere.
        const MAX_NEW: usize = 32;
        let mut new = [BoardId::new(0, 0); MAX_NEW];
        let mut count = 0;
        for b in self.latest_boards().filter(|&b| b.color() == attacker && is_new(b)) {
            if count == MAX_NEW {
                return self.find_attack(attacker);
            }
            if let Some(a) = self.find_attack_from(b, None, &mut path) {
                return Some(a);
            }
            new[count] = b;
            count += 1;
        }
        let new = &new[..count];
        for b in self.latest_boards().filter(|&b| b.color() == attacker && !is_new(b)) {
            let steps = new.iter().fold(0, |m, &n| m | steps_toward(b, n));
            if steps != 0 {
                if let Some(a) = self.find_attack_from(b, Some(steps), &mut path) {
                    return Some(a);
                }
            }
        }
        None
    }

    /// Finds a royal capture by a piece of board `id`'s colour standing on board `id`; with
    /// `only_steps`, just the captures leaving the board along those board steps.
    pub(crate) fn find_attack_from(
        &self,
        id: BoardId,
        only_steps: Option<u32>,
        path: &mut Vec<Coord>,
    ) -> Option<Attack> {
        let board = self.board(id)?;
        let attacker = id.color();
        let victim = attacker.other();
        let targets = self.royal_targets(attacker);
        let royals = if only_steps.is_some() { 0 } else { board.royals(victim) };
        // Royal pieces on this very board: look backwards from each of them.
        for i in BitIter(royals) {
            let target = Square::from_index(i);
            path.clear();
            if let Some((sq, piece)) = in_board_attacker(board, target, attacker, path, id) {
                return Some(Attack {
                    from: Coord { board: id, square: sq },
                    to: Coord {
                        board: id,
                        square: target,
                    },
                    piece,
                    path: path.clone(),
                });
            }
        }
        // Attacks leaving the board, by the pieces whose reach meets a royal square of some
        // board (the neighbouring boards are looked up once, for the first such piece).
        let mut steps = None;
        for i in BitIter(board.occupied_by(attacker) & cross_board_sources(targets)) {
            let sq = Square::from_index(i);
            let piece = board.get(sq).expect("occupied");
            if cross_board_reach(piece, sq) & targets == 0 {
                continue;
            }
            let steps = *steps.get_or_insert_with(|| self.board_steps(id) & only_steps.unwrap_or(!0));
            let from = Coord { board: id, square: sq };
            if let Some(a) = self.cross_board_attack(from, piece, steps, path) {
                return Some(a);
            }
        }
        None
    }

    fn cross_board_attack(&self, from: Coord, piece: Piece, steps: u32, path: &mut Vec<Coord>) -> Option<Attack> {
        let attacker = piece.color();
        let victim = attacker.other();
        let size = self.size();
        let (x0, y0) = (from.square.x(), from.square.y());
        let (l0, t0) = (from.board.l, from.board.t);
        let role = piece.role();
        if role.is_pawnlike() {
            let f = forward_y(attacker);
            let fl = forward_l(attacker);
            let brawn = role == Role::Brawn;
            let cands: [(bool, i32, i32, i32, i32); 5] = [
                (true, fl, -1, 0, 0),
                (true, fl, 1, 0, 0),
                (brawn, fl, 0, -1, 0),
                (brawn, fl, 0, 1, 0),
                (brawn, fl, 0, 0, f),
            ];
            let back = (brawn, 0, -1, 0, f);
            for (on, dl, dt, dx, dy) in cands.into_iter().chain(std::iter::once(back)) {
                if !on || steps & step_bit(dt, dl) == 0 || !size.contains(x0 + dx, y0 + dy) {
                    continue;
                }
                let Some(b) = self.board_at(l0 + dl, t0 + 2 * dt) else {
                    continue;
                };
                let sq = Square::new((x0 + dx) as u8, (y0 + dy) as u8);
                if b.royals(victim) & (1u64 << sq.index()) != 0 {
                    path.clear();
                    return Some(Attack {
                        from,
                        to: Coord::new(l0 + dl, t0 + 2 * dt, sq),
                        piece,
                        path: Vec::new(),
                    });
                }
            }
            return None;
        }
        let mut found = None;
        self.walk_rays(from, dirs(role), steps, |to, _, p| {
            if p.is_some_and(|p| p.is_royal_of(victim)) {
                found = Some(to);
                return true;
            }
            false
        });
        let to = found?;
        // The squares between, on the line from `from` to `to` (none for leapers).
        let k = if !dirs(role).slides {
            1
        } else {
            (to.board.t - from.board.t)
                .abs()
                .max(2 * (to.board.l - from.board.l).abs())
                .max(2 * (to.square.x() - x0).abs())
                .max(2 * (to.square.y() - y0).abs())
                / 2
        };
        path.clear();
        for i in 1..k {
            path.push(Coord::new(
                l0 + i * (to.board.l - l0) / k,
                t0 + i * (to.board.t - t0) / k,
                Square::new(
                    (x0 + i * (to.square.x() - x0) / k) as u8,
                    (y0 + i * (to.square.y() - y0) / k) as u8,
                ),
            ));
        }
        Some(Attack {
            from,
            to,
            piece,
            path: path.clone(),
        })
    }

    /// Walks the rays of a piece that leave its board. Rays sharing a board step `(dt, dl)`
    /// advance together, so each board is looked up once and a missing board ends them all; a
    /// ray ends at the board's edge or at the first piece it meets (after showing it to `visit`),
    /// and leapers take one step. `visit` gets the square reached, its board and what stands
    /// there; returning `true` stops the walk.
    fn walk_rays(
        &self,
        from: Coord,
        d: &Dirs,
        steps: u32,
        mut visit: impl FnMut(Coord, &Board, Option<Piece>) -> bool,
    ) -> bool {
        let size = self.size();
        let (x0, y0) = (from.square.x(), from.square.y());
        let (l0, t0) = (from.board.l, from.board.t);
        // Only the groups whose first step finds a board.
        for b in BitIter(u64::from(steps & d.step_mask)) {
            let (dt, dl, dxys) = &d.groups[d.group_at[b] as usize];
            let mut alive: u32 = (1u32 << dxys.len()) - 1;
            let mut k = 1;
            while alive != 0 {
                let (l, t) = (l0 + k * dl, t0 + 2 * k * dt);
                let Some(b) = self.board_at(l, t) else { break };
                let mut bits = alive;
                while bits != 0 {
                    let j = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let (dx, dy) = dxys[j];
                    let (x, y) = (x0 + k * dx, y0 + k * dy);
                    if !size.contains(x, y) {
                        alive &= !(1 << j);
                        continue;
                    }
                    let sq = Square::new(x as u8, y as u8);
                    let piece = b.get(sq);
                    if piece.is_some() {
                        alive &= !(1 << j);
                    }
                    if visit(Coord::new(l, t, sq), b, piece) {
                        return true;
                    }
                }
                if !d.slides {
                    break;
                }
                k += 1;
            }
        }
        false
    }
}

/// The board steps (bits of [`step_bit`]) of the rays from board `from` that meet board `to`:
/// a leaper's single step, or a slider's unit step repeated.
fn steps_toward(from: BoardId, to: BoardId) -> u32 {
    let dl = to.l - from.l;
    let dt = (to.t - from.t) / 2;
    if (dl, dt) == (0, 0) {
        return 0;
    }
    let mut bits = 0;
    if dl.abs() <= 2 && dt.abs() <= 2 {
        bits |= step_bit(dt, dl);
    }
    let k = dl.abs().max(dt.abs());
    if (dl == 0 || dl.abs() == k) && (dt == 0 || dt.abs() == k) {
        bits |= step_bit(dt.signum(), dl.signum());
    }
    bits
}

/// The bit of a board step in [`Position::board_steps`].
#[inline]
fn step_bit(dt: i32, dl: i32) -> u32 {
    1 << ((dt + 2) * 5 + dl + 2)
}

/// The bit of square `(x, y)` on an 8x8 board, or 0 off it.
#[inline]
fn square_mask(x: i32, y: i32) -> u64 {
    if (0..8).contains(&x) && (0..8).contains(&y) {
        1 << (y * 8 + x)
    } else {
        0
    }
}

/// The squares (as if on an 8x8 board) a piece of `role` on `sq` could land on with a move that
/// leaves its board, over all boards: the spatial shadow of its rays through time and
/// timelines.
#[inline]
fn cross_board_reach(piece: Piece, sq: Square) -> u64 {
    let role = piece.role();
    if role.is_pawnlike() {
        // Pawns capture across boards onto their own square; brawns also one square aside or
        // ahead.
        let (x, y) = (sq.x(), sq.y());
        let mut reach = square_mask(x, y);
        if role == Role::Brawn {
            let f = forward_y(piece.color());
            reach |= square_mask(x - 1, y) | square_mask(x + 1, y) | square_mask(x, y + f);
        }
        return reach;
    }
    tables::CROSS_BOARD_REACH[role as usize - 1][sq.index()]
}

/// The squares from which some piece could reach one of `targets` by leaving its board: the
/// union of [`cross_board_reach`] turned around, over all roles and both colours.
fn cross_board_sources(targets: u64) -> u64 {
    BitIter(targets).fold(0, |m, t| m | tables::CROSS_BOARD_SOURCES[t])
}

/// For each square of an 8x8 board, the squares from which some piece could capture on it
/// without leaving the board: its lines and its knight squares.
#[inline]
fn in_board_reach() -> &'static [u64; 64] {
    &tables::IN_BOARD_REACH
}

/// The attacker of colour `by` on this board that could capture on `target` without leaving the
/// board, with the empty squares between (pushed onto `path`).
fn in_board_attacker(
    board: &Board,
    target: Square,
    by: Color,
    path: &mut Vec<Coord>,
    id: BoardId,
) -> Option<(Square, Piece)> {
    // Squares off the board hold no pieces, so the 8x8 tables serve every size.
    let theirs = board.occupied_by(by);
    let t = target.index();
    if theirs & in_board_reach()[t] == 0 {
        return None;
    }
    let piece_at = |i: usize| {
        (
            Square::from_index(i),
            board.get(Square::from_index(i)).expect("occupied square"),
        )
    };
    for i in BitIter(dirs(Role::Knight).leaps[t] & theirs) {
        let (sq, p) = piece_at(i);
        if p.role() == Role::Knight {
            return Some((sq, p));
        }
    }
    let f = forward_y(by);
    for dx in [-1, 1] {
        let m = square_mask(target.x() + dx, target.y() - f) & theirs;
        if m != 0 {
            let (sq, p) = piece_at(m.trailing_zeros() as usize);
            if p.role().is_pawnlike() {
                return Some((sq, p));
            }
        }
    }
    let rays = unit_rays();
    let occupied = board.occupied();
    for (d, &(dx, dy)) in UNIT_STEPS.iter().enumerate() {
        let ray = rays[d][t];
        let blockers = ray & occupied;
        if blockers & theirs == 0 {
            continue;
        }
        let first = nearest(blockers, d);
        if theirs >> first & 1 == 0 {
            continue;
        }
        let (sq, p) = piece_at(first);
        let r = p.role();
        let between = ray & !rays[d][first] & !(1u64 << first);
        if slides_along(r, dx != 0 && dy != 0) || (between == 0 && matches!(r, Role::King | Role::CommonKing)) {
            // The empty squares between, recorded only for the attack found.
            path.extend(BitIter(between).map(|i| Coord {
                board: id,
                square: Square::from_index(i),
            }));
            return Some((sq, p));
        }
    }
    None
}

/// The pieces of `color` that stand between one of its royal pieces and an enemy piece sliding
/// along that line on this board: the only non-royal pieces whose leaving can expose a royal
/// piece on the board.
pub(crate) fn shielding_in_board(board: &Board, color: Color) -> u64 {
    let rays = unit_rays();
    let occupied = board.occupied();
    let (ours, theirs) = (board.occupied_by(color), board.occupied_by(color.other()));
    let mut out = 0;
    for r in BitIter(board.royals(color)) {
        for (d, &(dx, dy)) in UNIT_STEPS.iter().enumerate() {
            let blockers = rays[d][r] & occupied;
            if blockers & theirs == 0 {
                continue;
            }
            let first = nearest(blockers, d);
            if ours >> first & 1 == 0 {
                continue;
            }
            let beyond = blockers & rays[d][first];
            if beyond == 0 {
                continue;
            }
            let second = nearest(beyond, d);
            if theirs >> second & 1 == 0 {
                continue;
            }
            let role = board.get(Square::from_index(second)).expect("occupied square").role();
            if slides_along(role, dx != 0 && dy != 0) {
                out |= 1 << first;
            }
        }
    }
    out
}

impl Board {
    /// Whether a royal piece of `color` could be captured by an enemy piece of this board
    /// without that piece leaving the board.
    pub fn royal_attacked(&self, color: Color) -> bool {
        BitIter(self.royals(color)).any(|r| attacked_in_board(self, Square::from_index(r), color.other()))
    }
}

/// Whether a piece of colour `by` standing on this board could capture on `sq` without leaving
/// the board (used for castling, which only looks at its own board).
pub(crate) fn attacked_in_board(board: &Board, sq: Square, by: Color) -> bool {
    let mut path = Vec::new();
    in_board_attacker(board, sq, by, &mut path, BoardId::new(0, 0)).is_some()
}

/// The tables of [`crate::tables`] against their computation from the rules' directions: they
/// are data so that a program's first position (a page's WebAssembly, in its baseline
/// compiler's code) neither builds nor compiles them. `CHESS5D_WRITE_TABLES=1 cargo test -p
/// chess5d-rules --lib tables` writes the file again.
#[cfg(test)]
mod table_check {
    use super::*;

    /// A direction `[dx, dy, dt, dl]`, `dt` in whole turns (two half-turns).
    type Vector = [i32; 4];

    /// A [`crate::dirs::StepGroup`] as computed.
    type Group = (i32, i32, Vec<(i32, i32)>);

    /// [`Dirs`] as computed.
    #[derive(Debug, PartialEq)]
    struct Made {
        slides: bool,
        groups: Vec<Group>,
        step_mask: u32,
        group_at: [u8; 25],
        leaps: Vec<u64>,
        rays: Vec<usize>,
    }

    impl Made {
        fn of(d: &Dirs) -> Made {
            Made {
                slides: d.slides,
                groups: d.groups.iter().map(|&(t, l, v)| (t, l, v.to_vec())).collect(),
                step_mask: d.step_mask,
                group_at: d.group_at,
                leaps: d.leaps.to_vec(),
                rays: d.rays.to_vec(),
            }
        }

        /// The struct as a Rust literal of [`Dirs`].
        fn literal(&self) -> String {
            let groups: Vec<String> = self
                .groups
                .iter()
                .map(|(t, l, v)| format!("({t}, {l}, &{v:?})"))
                .collect();
            format!(
                "    Dirs {{ slides: {}, groups: &[{}], step_mask: {:#x}, group_at: {:?}, leaps: {}, rays: &{:?} }},\n",
                self.slides,
                groups.join(", "),
                self.step_mask,
                self.group_at,
                row(&self.leaps.clone().try_into().unwrap()),
                self.rays,
            )
        }
    }

    fn all_unit_vectors() -> Vec<Vector> {
        let mut out = Vec::with_capacity(80);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dt in -1..=1 {
                    for dl in -1..=1 {
                        if (dx, dy, dt, dl) != (0, 0, 0, 0) {
                            out.push([dx, dy, dt, dl]);
                        }
                    }
                }
            }
        }
        out
    }

    fn axes(v: &Vector) -> usize {
        v.iter().filter(|&&c| c != 0).count()
    }

    fn make_dirs(mut vectors: Vec<Vector>, slides: bool) -> Made {
        vectors.sort_by_key(|v| (v[2] != 0 || v[3] != 0, *v));
        let spatial = vectors.iter().filter(|v| v[2] == 0 && v[3] == 0).count();
        // At most 24 board steps (dt, dl), each with at most 9 (dx, dy).
        let mut groups: Vec<Group> = Vec::with_capacity(24);
        for v in &vectors[spatial..] {
            match groups.iter_mut().find(|g| g.0 == v[2] && g.1 == v[3]) {
                Some(g) => g.2.push((v[0], v[1])),
                None => {
                    let mut dxys = Vec::with_capacity(9);
                    dxys.push((v[0], v[1]));
                    groups.push((v[2], v[3], dxys));
                }
            }
        }
        let in_board = &vectors[..spatial];
        let leaps = (0..64)
            .map(|i| {
                let (x0, y0) = (i % 8, i / 8);
                in_board.iter().fold(0, |m, v| m | square_mask(x0 + v[0], y0 + v[1]))
            })
            .collect();
        let rays = UNIT_STEPS
            .iter()
            .enumerate()
            .filter(|(_, &(dx, dy))| in_board.iter().any(|v| (v[0], v[1]) == (dx, dy)))
            .map(|(d, _)| d)
            .collect();
        let mut step_mask = 0;
        let mut group_at = [u8::MAX; 25];
        for (i, g) in groups.iter().enumerate() {
            let b = step_bit(g.0, g.1);
            step_mask |= b;
            group_at[b.trailing_zeros() as usize] = i as u8;
        }
        Made {
            slides,
            groups,
            step_mask,
            group_at,
            leaps,
            rays,
        }
    }

    /// Each role's directions (by code - 1), computed.
    fn all_dirs() -> Vec<Made> {
        let units = all_unit_vectors();
        Role::ALL
            .iter()
            .map(|&r| {
                let with = |n: &[usize]| {
                    let mut out = Vec::with_capacity(units.len());
                    out.extend(units.iter().copied().filter(|v| n.contains(&axes(v))));
                    out
                };
                match r {
                    Role::Rook => make_dirs(with(&[1]), true),
                    Role::Bishop => make_dirs(with(&[2]), true),
                    Role::Unicorn => make_dirs(with(&[3]), true),
                    Role::Dragon => make_dirs(with(&[4]), true),
                    Role::Princess => make_dirs(with(&[1, 2]), true),
                    Role::Queen | Role::RoyalQueen => make_dirs(units.clone(), true),
                    Role::King | Role::CommonKing => make_dirs(units.clone(), false),
                    Role::Knight => {
                        let mut v = Vec::with_capacity(48);
                        for a in 0..4 {
                            for b in 0..4 {
                                if a == b {
                                    continue;
                                }
                                for sa in [-2, 2] {
                                    for sb in [-1, 1] {
                                        let mut vec = [0; 4];
                                        vec[a] = sa;
                                        vec[b] = sb;
                                        v.push(vec);
                                    }
                                }
                            }
                        }
                        make_dirs(v, false)
                    }
                    Role::Pawn | Role::Brawn => make_dirs(Vec::new(), false),
                }
            })
            .collect()
    }

    fn unit_rays() -> [[u64; 64]; 8] {
        let mut t = [[0u64; 64]; 8];
        for (d, &(dx, dy)) in UNIT_STEPS.iter().enumerate() {
            for (i, m) in t[d].iter_mut().enumerate() {
                let (x0, y0) = ((i % 8) as i32, (i / 8) as i32);
                let mut k = 1;
                while square_mask(x0 + k * dx, y0 + k * dy) != 0 {
                    *m |= square_mask(x0 + k * dx, y0 + k * dy);
                    k += 1;
                }
            }
        }
        t
    }

    /// For each role (by code - 1) and square: the spatial shadow of its moves that leave the
    /// board (pawns and brawns are answered without the table).
    fn cross_board_reach() -> Vec<[u64; 64]> {
        Role::ALL
            .iter()
            .map(|&r| {
                let d = dirs(r);
                let mut row = [0u64; 64];
                for (i, m) in row.iter_mut().enumerate() {
                    let (x0, y0) = ((i % 8) as i32, (i / 8) as i32);
                    for (_, _, dxys) in d.groups {
                        for &(dx, dy) in *dxys {
                            let mut k = 1;
                            loop {
                                let bit = square_mask(x0 + k * dx, y0 + k * dy);
                                *m |= bit;
                                if bit == 0 || !d.slides || (dx, dy) == (0, 0) {
                                    break;
                                }
                                k += 1;
                            }
                        }
                    }
                }
                row
            })
            .collect()
    }

    fn cross_board_sources() -> [u64; 64] {
        let mut inv = [0u64; 64];
        for s in 0..64 {
            let sq = Square::from_index(s);
            let mut reach = 0;
            for &role in Role::ALL.iter() {
                for color in [Color::White, Color::Black] {
                    reach |= super::cross_board_reach(Piece::new(role, color, false), sq);
                }
            }
            for t in BitIter(reach) {
                inv[t] |= 1 << s;
            }
        }
        inv
    }

    fn in_board_reach() -> [u64; 64] {
        let rays = unit_rays();
        let knight = &dirs(Role::Knight).leaps;
        std::array::from_fn(|i| rays.iter().fold(knight[i], |m, r| m | r[i]))
    }

    fn row(t: &[u64; 64]) -> String {
        let cells: Vec<String> = t.iter().map(|x| format!("{x:#x}")).collect();
        format!("[{}]", cells.join(", "))
    }

    fn rows(t: &[[u64; 64]]) -> String {
        let lines: Vec<String> = t.iter().map(|r| format!("    {},\n", row(r))).collect();
        format!("[\n{}]", lines.concat())
    }

    /// The file `src/tables.rs` as the computation writes it.
    fn file() -> String {
        let dirs = all_dirs();
        let reach = cross_board_reach();
        format!(
            "//! Tables of the move generator, written by `CHESS5D_WRITE_TABLES=1 cargo test -p chess5d-rules \
             --lib tables`\n//! from the rules' directions (`movegen::table_check`, which checks them): data, not \
             code that builds them\n//! on a program's first position.\n\n\
             use crate::dirs::Dirs;\n\n\
             /// Each role's directions (by its code - 1).\n\
             #[rustfmt::skip]\npub(crate) static DIRS: [Dirs; {}] = [\n{}];\n\n\
             /// For each unit step `(dx, dy)` of `movegen::UNIT_STEPS` and square of an 8x8 board, the squares beyond it.\n\
             #[rustfmt::skip]\npub(crate) static UNIT_RAYS: [[u64; 64]; 8] = {};\n\n\
             /// For each role (by its code - 1) and square: the squares (of an 8x8 board) it could land on with a move \
             that\n/// leaves its board, over all boards (pawns' and brawns' rows are unused).\n\
             #[rustfmt::skip]\npub(crate) static CROSS_BOARD_REACH: [[u64; 64]; {}] = {};\n\n\
             /// For each square: the squares from which some piece could reach it by leaving its board.\n\
             #[rustfmt::skip]\npub(crate) static CROSS_BOARD_SOURCES: [u64; 64] = {};\n\n\
             /// For each square: the squares from which some piece could capture on it without leaving the board.\n\
             #[rustfmt::skip]\npub(crate) static IN_BOARD_REACH: [u64; 64] = {};\n",
            dirs.len(),
            dirs.iter().map(Made::literal).collect::<String>(),
            rows(&unit_rays()),
            reach.len(),
            rows(&reach),
            row(&cross_board_sources()),
            row(&in_board_reach()),
        )
    }

    #[test]
    fn tables_are_the_computed_ones() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tables.rs");
        if std::env::var_os("CHESS5D_WRITE_TABLES").is_some() {
            std::fs::write(path, file()).unwrap();
        }
        let dirs: Vec<Made> = tables::DIRS.iter().map(Made::of).collect();
        assert_eq!(all_dirs(), dirs);
        assert_eq!(unit_rays(), tables::UNIT_RAYS);
        assert_eq!(cross_board_reach(), tables::CROSS_BOARD_REACH.to_vec());
        assert_eq!(cross_board_sources(), tables::CROSS_BOARD_SOURCES);
        assert_eq!(in_board_reach(), tables::IN_BOARD_REACH);
        assert_eq!(
            std::fs::read_to_string(path).unwrap(),
            file(),
            "src/tables.rs: CHESS5D_WRITE_TABLES=1 writes it"
        );
    }
}
