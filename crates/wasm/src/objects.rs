//! The objects of 5d-chess-js 1.2 (Position, Move, Action, Board...) as compact lists of
//! numbers, which cross the WebAssembly boundary as one `Int32Array` and are built into
//! objects by the JavaScript layer (`js/src/chess.js`, `decode*`): no JSON text is written
//! or parsed on the way. The layouts, each a flat run of `i32`:
//!
//! - Position, [`POS_LEN`]: timeline number (as the library numbers it, see
//!   [`timeline_number`]), turn, colour (0 white, 1 black), file x, rank y (0-based).
//! - Move, [`MOVE_LEN`]: player, promotion role (0 none, else [`Role`](chess5d_rules::Role) as `u8`), start, end,
//!   realEnd (positions), en passant flag and position, castling flag and the rook's start,
//!   end and realEnd.
//! - Action: action number, player, move count, the moves.
//! - Board: action number, player, width, height, timeline count; each timeline: number,
//!   maker's colour, active, present, board count; each board: turn, colour, piece count;
//!   each piece: x, y, role, colour, has moved.

use chess5d_rules::{BoardId, Color, Coord, Game, Move, MoveKind, Position, Square};
use std::collections::HashMap;

/// Numbers per position.
pub const POS_LEN: usize = 5;
/// Numbers per move.
pub const MOVE_LEN: usize = 2 + 3 * POS_LEN + 1 + POS_LEN + 1 + 3 * POS_LEN;

pub use chess5d_notation::chessjs::{timeline_index, timeline_number};

fn color_code(c: Color) -> i32 {
    i32::from(c == Color::Black)
}

fn push_pos(out: &mut Vec<i32>, even: bool, board: BoardId, square: Square) {
    out.extend([
        timeline_number(board.l, even),
        board.turn(),
        color_code(board.color()),
        square.x(),
        square.y(),
    ]);
}

fn push_coord(out: &mut Vec<i32>, even: bool, c: Coord) {
    push_pos(out, even, c.board, c.square);
}

/// The board a move's piece stands on once it is played from `pos`: the next board of its
/// landing board's timeline, or of the timeline a branch makes.
fn real_end(pos: &Position, m: &Move) -> BoardId {
    let to = m.to.board;
    if m.kind == MoveKind::Branch {
        let l = if pos.to_move() == Color::White {
            pos.max_timeline() + 1
        } else {
            pos.min_timeline() - 1
        };
        BoardId::new(l, to.t + 1)
    } else {
        BoardId::new(to.l, to.t + 1)
    }
}

/// Appends a Move of `pos` (the position it is played from).
pub fn push_move(out: &mut Vec<i32>, pos: &Position, m: &Move) {
    let even = pos.even();
    out.push(color_code(m.piece.color()));
    out.push(m.promotion.map_or(0, |r| r as i32));
    push_coord(out, even, m.from);
    push_coord(out, even, m.to);
    push_pos(out, even, real_end(pos, m), m.to.square);
    if m.kind == MoveKind::EnPassant {
        out.push(1);
        let sq = Square::new(m.to.square.x() as u8, m.from.square.y() as u8);
        push_pos(out, even, m.to.board, sq);
    } else {
        out.push(0);
        out.extend([0; POS_LEN]);
    }
    if let MoveKind::Castle { rook_from, rook_to } = m.kind {
        out.push(1);
        push_pos(out, even, m.from.board, rook_from);
        push_pos(out, even, m.from.board, rook_to);
        push_pos(out, even, real_end(pos, m), rook_to);
    } else {
        out.push(0);
        out.extend([0; 3 * POS_LEN]);
    }
}

/// Appends an Action: the moves played one after the other from `pos`.
pub fn push_action(out: &mut Vec<i32>, pos: &Position, moves: &[Move], number: i32) {
    out.push(number);
    out.push(color_code(pos.to_move()));
    out.push(moves.len() as i32);
    let mut p = pos.clone();
    for m in moves {
        push_move(out, &p, m);
        p.play_unchecked(m);
    }
}

/// The order the library lists timelines in: 0 (or `-0`, `+0`), then -1, +1, -2, +2...
fn timeline_order(n: i32) -> (i32, bool) {
    (n.abs(), n > 0)
}

/// Appends the Board object of `pos` (`action`: the library's action number).
pub fn push_board(out: &mut Vec<i32>, pos: &Position, action: i32, marks: &Marks) {
    let even = pos.even();
    let size = pos.size();
    let mandatory = pos.mandatory_boards();
    out.extend([
        action,
        color_code(pos.to_move()),
        i32::from(size.width),
        i32::from(size.height),
        pos.timeline_count() as i32,
    ]);
    let mut lines: Vec<i32> = pos.timelines().collect();
    lines.sort_by_key(|&l| timeline_order(timeline_number(l, even)));
    for l in lines {
        let start = pos.timeline_start(l).unwrap_or(0);
        let end = pos.timeline_end(l).unwrap_or(start);
        let maker = if l < 0 { Color::Black } else { Color::White };
        out.extend([
            timeline_number(l, even),
            color_code(maker),
            i32::from(pos.is_active(l)),
            i32::from(mandatory.iter().any(|b| b.l == l)),
            end - start + 1,
        ]);
        for t in start..=end {
            let id = BoardId::new(l, t);
            let mark = marks.get(id);
            let count_at = out.len() + 2;
            out.extend([id.turn(), color_code(id.color()), 0]);
            let mut n = 0;
            if let Some(board) = pos.board(id) {
                for (sq, p) in board.pieces() {
                    out.extend([
                        sq.x(),
                        sq.y(),
                        p.role() as i32,
                        color_code(p.color()),
                        i32::from(mark & (1 << sq.index()) != 0),
                    ]);
                    n += 1;
                }
            }
            out[count_at] = n;
        }
    }
}

/// Which pieces have moved, per board: the library's `hasMoved`, true for any piece that has
/// moved (our rules keep an "unmoved" mark only where a rule reads it: pawns, brawns, kings,
/// rooks). A board's mark has a bit set for every square a piece has left or reached.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    moved: HashMap<BoardId, u64>,
}

impl Marks {
    /// The marks of a game's boards, its start and every move since. At the start of one of
    /// the library's own variants (`builtin`) nothing has moved; in a custom start (5DFEN)
    /// every piece has, unless marked unmoved (`*`).
    ///
    /// `starred`: squares known unmoved by board (the `*` of the record's 5DFEN, which our
    /// reader keeps only where a rule reads it).
    pub fn of_game(game: &Game, builtin: bool, starred: &HashMap<BoardId, u64>) -> Marks {
        let mut marks = Marks::default();
        let start = game.start();
        for (id, board) in start.boards() {
            let mut bits = 0u64;
            for (sq, p) in board.pieces() {
                let tracked = matches!(
                    p.role(),
                    chess5d_rules::Role::Pawn
                        | chess5d_rules::Role::Brawn
                        | chess5d_rules::Role::King
                        | chess5d_rules::Role::Rook
                );
                let star = starred.get(&id).is_some_and(|b| b & (1 << sq.index()) != 0);
                if (tracked || !builtin) && !p.unmoved() && !star {
                    bits |= 1 << sq.index();
                }
            }
            marks.moved.insert(id, bits);
        }
        let mut pos = start.clone();
        for (i, a) in game.actions().iter().enumerate() {
            for m in &a.moves {
                let (lines, mover) = (pos.timeline_count(), pos.to_move());
                pos.play_unchecked(m);
                marks.after_move(lines, mover, &pos, m);
            }
            if game.is_pass(i) {
                marks.after_pass(&pos);
                pos.pass_unchecked();
            } else {
                pos.submit_unchecked();
            }
        }
        for m in game.pending_moves() {
            let (lines, mover) = (pos.timeline_count(), pos.to_move());
            pos.play_unchecked(&m);
            marks.after_move(lines, mover, &pos, &m);
        }
        marks
    }

    /// The mark of a board.
    pub fn get(&self, id: BoardId) -> u64 {
        self.moved.get(&id).copied().unwrap_or(0)
    }

    /// Marks the boards `m` made, played by `mover` from a position of `lines_before`
    /// timelines to `after`.
    pub fn after_move(&mut self, lines_before: usize, mover: Color, after: &Position, m: &Move) {
        let from = m.from.board;
        let mut bits = self.get(from) | 1 << m.from.square.index();
        if !m.is_jump() {
            bits |= 1 << m.to.square.index();
            if let MoveKind::Castle { rook_from, rook_to } = m.kind {
                bits |= 1 << rook_from.index() | 1 << rook_to.index();
            }
        }
        self.moved.insert(BoardId::new(from.l, from.t + 1), bits);
        if m.is_jump() {
            let to = m.to.board;
            let l = if after.timeline_count() > lines_before {
                if mover == Color::White {
                    after.max_timeline()
                } else {
                    after.min_timeline()
                }
            } else {
                to.l
            };
            let bits = self.get(to) | 1 << m.to.square.index();
            self.moved.insert(BoardId::new(l, to.t + 1), bits);
        }
    }

    /// Marks the copies a pass is about to make of `before`'s mandatory boards.
    pub fn after_pass(&mut self, before: &Position) {
        for b in before.mandatory_boards() {
            let bits = self.get(b);
            self.moved.insert(BoardId::new(b.l, b.t + 1), bits);
        }
    }
}
