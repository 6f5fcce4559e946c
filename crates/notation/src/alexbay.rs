//! The older 5d-chess-js / alexbay action notation (read only): `1w. 1:e2:e3`,
//! `2w. 2:Nb1<+1>1:b3`, `4w. 3+1:Qd1<>3+1:c2#`, `4+1:Qf3<+2>3+0:e2`, `7-1:0-0`.
//!
//! Each line is `<action><w|b>. <move>`; consecutive lines with the same prefix form one action
//! (moves may also be separated by `;`). A move is `<T>[<L>]:[piece]<square>`, then an optional
//! `<[new L]>`, the destination turn and timeline when they differ from the source, `:`, then
//! `[x][promotion]<square>[e.p.][+|#|=]`.
//!
//! Records of the alexbay client are read under our rules, which that client did not always
//! follow: `tools-v2/reflected-checkmate.alexbay` (corpus) has a black pawn that had moved
//! (h7-h6) step two timelines (`8b. 4:h6<>+2:h6`). The rules allow two steps along y or L to an
//! unmoved pawn only (rules.md, "Pawns"), as 5d-chess-js 1.2.1 does (it offers `(0T4)h6>(1T4)h6`
//! only), so the record is refused, and the message says why: "only an unmoved pawn may step
//! two ranks or two timelines, and this one has moved".

use crate::coords::{BoardRef, Timeline};
use crate::error::{Error, ParseError, Reason, Span};
use crate::replay::{self, Written};
use crate::scan::Scanner;
use crate::{start, Format, LoadedGame};
use chess5d_rules::{Color, Coord, Game, MoveKind, Position, Role, Square};

/// A move of the alexbay notation, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AlexbayMove {
    /// The source board (turn, timeline).
    pub from_board: BoardRef,
    /// The piece letter, if written.
    pub piece: Option<Role>,
    /// The source square (unused when castling).
    pub from: Square,
    /// The destination board.
    pub to_board: BoardRef,
    /// The destination square.
    pub to: Square,
    /// A promotion letter.
    pub promotion: Option<Role>,
    /// `0-0` (`Some(true)`) or `0-0-0` (`Some(false)`).
    pub castle: Option<bool>,
}

/// Whether a line starts like an alexbay move (`1w. 1:`).
pub fn looks_like(line: &str) -> bool {
    let mut s = Scanner::new(line.trim());
    if prefix(&mut s).is_none() {
        return false;
    }
    s.skip_spaces();
    if s.number().is_none() {
        return false;
    }
    if matches!(s.peek(), Some('+' | '-')) && Timeline::parse(&mut s).is_err() {
        return false;
    }
    s.peek() == Some(':')
}

fn prefix(s: &mut Scanner) -> Option<(u32, Color)> {
    let n = s.number()?;
    let c = match s.bump()? {
        'w' => Color::White,
        'b' => Color::Black,
        _ => return None,
    };
    s.eat('.').then_some((n, c))
}

fn square(s: &mut Scanner) -> Result<Square, ParseError> {
    let text: String = [s.peek(), s.peek_nth(1)].iter().flatten().collect();
    let sq = Square::parse(&text).ok_or_else(|| s.error("a square like e4"))?;
    s.bump();
    s.bump();
    Ok(sq)
}

fn board(s: &mut Scanner) -> Result<BoardRef, ParseError> {
    let turn = s.number().ok_or_else(|| s.error("a turn number"))?;
    let timeline = if matches!(s.peek(), Some('+' | '-')) {
        Timeline::parse(s)?
    } else {
        Timeline { sign: None, number: 0 }
    };
    Ok(BoardRef { timeline, turn })
}

impl AlexbayMove {
    fn parse(s: &mut Scanner) -> Result<AlexbayMove, ParseError> {
        let from_board = board(s)?;
        if !s.eat(':') {
            return Err(s.error("':' after the source board"));
        }
        let mut mv = AlexbayMove {
            from_board,
            piece: None,
            from: Square::new(0, 0),
            to_board: from_board,
            to: Square::new(0, 0),
            promotion: None,
            castle: None,
        };
        if s.eat_str("0-0-0") || s.eat_str("O-O-O") {
            mv.castle = Some(false);
        } else if s.eat_str("0-0") || s.eat_str("O-O") {
            mv.castle = Some(true);
        } else {
            if let Some(c) = s.peek().filter(char::is_ascii_uppercase) {
                mv.piece = Role::from_letter(c);
                if mv.piece.is_none() {
                    return Err(s.error("a piece letter or a square"));
                }
                s.bump();
            }
            mv.from = square(s)?;
            if s.eat('<') {
                while s.peek().is_some_and(|c| c != '>') {
                    s.bump();
                }
                if !s.eat('>') {
                    return Err(s.error("'>' closing the new timeline"));
                }
            }
            if s.peek().is_some_and(|c| c.is_ascii_digit()) {
                mv.to_board.turn = s.number().ok_or_else(|| s.error("a turn number"))?;
            }
            if matches!(s.peek(), Some('+' | '-')) {
                mv.to_board.timeline = Timeline::parse(s)?;
            }
            if !s.eat(':') {
                return Err(s.error("':' before the destination square"));
            }
            s.eat('x');
            if let Some(c) = s.peek().filter(char::is_ascii_uppercase) {
                mv.promotion = Some(Role::from_letter(c).ok_or_else(|| s.error("a promotion letter"))?);
                s.bump();
            }
            mv.to = square(s)?;
            if s.eat('=') {
                let c = s.peek().ok_or_else(|| s.error("a promotion letter"))?;
                mv.promotion = Some(Role::from_letter(c).ok_or_else(|| s.error("a promotion letter"))?);
                s.bump();
            }
        }
        s.eat_str("e.p.");
        while s.peek().is_some_and(|c| matches!(c, '+' | '#' | '=' | '!' | '?' | '~')) {
            s.bump();
        }
        Ok(mv)
    }

    /// The move of the position it stands for.
    pub fn resolve(&self, pos: &Position) -> Result<chess5d_rules::Move, Reason> {
        let even = pos.even();
        let color = pos.to_move();
        let from_board = self.from_board.id(even, color);
        if let Some(short) = self.castle {
            let mut moves = Vec::new();
            pos.moves_from(from_board, &mut moves);
            return moves
                .into_iter()
                .find(|m| matches!(m.kind, MoveKind::Castle { .. }) && (m.to.square.x() > m.from.square.x()) == short)
                .ok_or_else(|| {
                    Reason::NoMatch(format!("{color} cannot castle on board {}", pos.board_name(from_board)))
                });
        }
        let from = Coord {
            board: from_board,
            square: self.from,
        };
        let to = Coord {
            board: self.to_board.id(even, color),
            square: self.to,
        };
        pos.find_move(from, to, self.promotion).map_err(Reason::Illegal)
    }
}

/// Reads a single move, without its `1w.` action prefix, from a whole string.
impl std::str::FromStr for AlexbayMove {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<AlexbayMove, ParseError> {
        crate::scan::whole(text, AlexbayMove::parse)
    }
}

struct Entry {
    key: (u32, Color),
    mv: AlexbayMove,
    text: String,
    span: Span,
}

type Headers = Vec<(String, String)>;

fn parse_lines(text: &str) -> Result<(Headers, Vec<Entry>), Error> {
    let mut headers = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        // Boards are not part of this notation; headers name the variant.
        if crate::pgn::header_line(trimmed, i, &mut headers, &mut Vec::new())? {
            continue;
        }
        let indent = line.chars().take_while(|c| c.is_whitespace()).count();
        let mut s = Scanner::at(trimmed, Span::new(i + 1, indent + 1));
        let mut key = entries.last().map(|e| e.key);
        loop {
            s.skip_spaces();
            if s.at_end() {
                break;
            }
            let mut probe = s.clone();
            if let Some(k) = prefix(&mut probe) {
                key = Some(k);
                s = probe;
                s.skip_spaces();
            }
            let key = key.ok_or_else(|| s.error("an action prefix like 1w."))?;
            let span = s.span();
            let start = s.offset();
            let mv = AlexbayMove::parse(&mut s)?;
            let text = s.slice(start).to_string();
            s.skip_spaces();
            if !s.at_end() && !s.eat(';') {
                return Err(s.error("';' or the end of the line after the move").into());
            }
            entries.push(Entry { key, mv, text, span });
        }
    }
    Ok((headers, entries))
}

/// Reads a game in alexbay notation (headers as in 5DPGN; `Variant` names the board).
pub fn read(text: &str) -> Result<LoadedGame, Error> {
    let (headers, entries) = parse_lines(text)?;
    let start = start::position(&headers, &[])?;
    let mut game = Game::new(start.clone());
    let mut warnings = Vec::new();
    let mut i = 0;
    let mut number = 0;
    while i < entries.len() {
        let key = entries[i].key;
        let mut j = i;
        while j < entries.len() && entries[j].key == key {
            j += 1;
        }
        number += 1;
        let written: Vec<Written<'_, AlexbayMove>> = entries[i..j]
            .iter()
            .map(|e| Written {
                item: &e.mv,
                text: &e.text,
                span: e.span,
            })
            .collect();
        replay::play_action(&mut game, number, Some(key.1), &written, &mut warnings, |m, pos| {
            m.resolve(pos).map(|m| (m, None))
        })?;
        i = j;
    }
    let tree = crate::GameTree::from_game(&game);
    Ok(LoadedGame::read(
        Format::Alexbay,
        headers,
        tree,
        Some(game),
        crate::replay::into_warnings(warnings),
    ))
}
