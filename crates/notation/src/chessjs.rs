//! The 5DPGN dialect of 5d-chess-js 1.2 (the npm library), written: its move texts, its
//! record export and the `5dpgn` format tokens of its `moves()`, `actions()`, `checks()` and
//! `export()` (`5dpgn_active_timeline`, `5dpgn_inline`...). Scripts written against that
//! library match on these strings, so they follow it exactly, where it differs from our
//! canonical 5DPGN ([`crate::pgn`]):
//!
//! - castling is the king's move (`Kg1`), never `O-O`;
//! - a pawn's promotion names its square (`a7a8=Q`, `b7xc8=Q`; Black's captures repeat the
//!   file, `d2dxe1=Q`) whenever the library would offer several pieces (every piece type of
//!   the boards among B, N, R, Q, S, C: so in Standard, though the rules promote to a queen
//!   only), else it is the pawn's move (`b8=N`); Black's pawn captures that need telling apart repeat the file
//!   (`eexf4`);
//! - boards are named once a game has two timelines, or with the `superphysical` token;
//!   in games with an even number of starting timelines, new timelines have no `+` (`(1T3)`);
//! - `~` marks every jump that makes an active timeline; the `timeline` token adds `(>L1)`
//!   after it, and the `active` token `(~T3)` after a branch that wakes an older timeline;
//! - the princess is `S`.
//!
//! ```
//! use chess5d_notation::chessjs::{self, Tokens};
//! use chess5d_rules::Position;
//!
//! let pos = Position::standard();
//! let e4 = pos.present_moves().into_iter().find(|m| m.to.square.to_string() == "e4").unwrap();
//! assert_eq!(chessjs::move_text(&pos, &e4, Tokens::default()), "e4");
//! let long = Tokens::parse("5dpgn_superphysical").unwrap();
//! assert_eq!(chessjs::move_text(&pos, &e4, long), "(0T1)e4");
//! ```

use crate::coords::{BoardRef, Timeline};
use chess5d_rules::{BoardId, Color, Game, Move, MoveKind, Position, Role};
use std::fmt::Write;

/// The tokens of a `5dpgn` format argument (`5dpgn_active_superphysical`): what the text
/// includes beyond the plain moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tokens {
    /// `(~T3)` after a branch that makes an older timeline active again (see
    /// `present_token`; the `~` on jumps that make an active timeline is always written).
    pub active: bool,
    /// `(>L1)` after a move that makes a timeline.
    pub timeline: bool,
    /// Every move names its board, even in a game of one timeline.
    pub superphysical: bool,
    /// Actions of an export separated by a space instead of a newline.
    pub inline: bool,
}

impl Tokens {
    /// Reads a format argument as the library reads it, by the words it contains (any order,
    /// any separator: `5dpgn_active_timeline`, `'5dpgn active timeline'`, `notation_inline`):
    /// a text format when it contains `notation` or `5dpgn`, with each token it contains.
    /// `None` for anything else (`object`, `json` and unknown words: not text).
    pub fn parse(format: &str) -> Option<Tokens> {
        if !(format.contains("notation") || format.contains("5dpgn")) {
            return None;
        }
        Some(Tokens {
            active: format.contains("active"),
            timeline: format.contains("timeline"),
            superphysical: format.contains("superphysical"),
            inline: format.contains("inline"),
        })
    }
}

/// Reads a record as the library reads its own: any text [`crate::load`] reads, with the
/// passes of its 5DPGN (see [`crate::pgn::PgnGame::play_passing`]).
pub fn load(text: &str) -> Result<crate::LoadedGame, crate::Error> {
    let text = text.trim_start_matches('\u{feff}');
    if crate::detect(text) == crate::Format::Pgn {
        return crate::pgn::PgnGame::parse_at(text, 1)?.play_passing();
    }
    crate::load(text)
}

/// The letter the library gives a role in its objects and notation (`""` for a pawn).
pub fn role_letter(role: Role) -> &'static str {
    match role {
        Role::Pawn => "",
        Role::Knight => "N",
        Role::Bishop => "B",
        Role::Rook => "R",
        Role::Queen => "Q",
        Role::King => "K",
        Role::Unicorn => "U",
        Role::Dragon => "D",
        Role::Princess => "S",
        Role::Brawn => "W",
        Role::CommonKing => "C",
        Role::RoyalQueen => "Y",
    }
}

/// The role of a letter of [`role_letter`] (and `P` for a princess, as older texts write it).
pub fn role_of_letter(letter: &str) -> Option<Role> {
    match letter {
        "" => Some(Role::Pawn),
        "P" => Some(Role::Princess),
        "N" => Some(Role::Knight),
        "B" => Some(Role::Bishop),
        "R" => Some(Role::Rook),
        "Q" => Some(Role::Queen),
        "K" => Some(Role::King),
        "U" => Some(Role::Unicorn),
        "D" => Some(Role::Dragon),
        "S" => Some(Role::Princess),
        "W" => Some(Role::Brawn),
        "C" => Some(Role::CommonKing),
        "Y" => Some(Role::RoyalQueen),
        _ => None,
    }
}

/// A timeline's number as the library writes it in its objects and labels: in games with an
/// even number of starting timelines the start ones are `-0` and `+0` (internal -1 and 0), new
/// ones `1`, `-1`...
pub fn timeline_label(pos: &Position, l: i32) -> String {
    if pos.even() && l >= 1 {
        l.to_string()
    } else {
        Timeline::of_index(l, pos.even()).to_string()
    }
}

/// A timeline's number in the library's objects: our index in games with an odd number of
/// starting timelines; in even games `-0` is -1, `+0` is 1, and the others move away from 0
/// by one (our index `l >= 0` is `l + 1`).
pub fn timeline_number(l: i32, even: bool) -> i32 {
    if even && l >= 0 {
        l + 1
    } else {
        l
    }
}

/// Our timeline index of a number of [`timeline_number`] (`None` for 0 in an even game).
pub fn timeline_index(n: i32, even: bool) -> Option<i32> {
    match (even, n) {
        (false, n) => Some(n),
        (true, 0) => None,
        (true, n) if n > 0 => Some(n - 1),
        (true, n) => Some(n),
    }
}

/// A board as the library names it: `(0T1)`, `(-0T2)`, `(1T3)`.
pub fn board_label(pos: &Position, b: BoardId) -> String {
    let r = BoardRef::of_id(b, pos.even());
    format!("({}T{})", timeline_label(pos, b.l), r.turn)
}

/// One move as the library writes it, played from `pos` (the position before it).
pub fn move_text(pos: &Position, m: &Move, tokens: Tokens) -> String {
    let mut text = move_body(pos, m, tokens.superphysical);
    if !(tokens.timeline || tokens.active) || m.kind != MoveKind::Branch {
        return text;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.timeline_count() == pos.timeline_count() {
        return text;
    }
    let made = if pos.to_move() == Color::White {
        after.max_timeline()
    } else {
        after.min_timeline()
    };
    if tokens.active {
        if let Some(turn) = present_token(pos, &after, made) {
            let _ = write!(text, " (~T{turn})");
        }
    }
    if tokens.timeline {
        // The token gives the timeline's number in the library's objects (in an even game
        // `+1` is 2), not its label.
        let _ = write!(text, " (>L{})", timeline_number(made, after.even()));
    }
    text
}

/// The turn of the library's `(~T<n>)` token after a branch that made timeline `made`: written
/// when the branch makes an older timeline active again whose last board is more than one
/// half-turn behind the new timeline's; the turn is counted from its last board in the
/// library's half-turn slots (from T1 White, or from T0 White in a game that starts at turn 0,
/// so there one more), as the library counts it. Of several timelines made active, the last
/// in the library's raw order.
fn present_token(before: &Position, after: &Position, made: i32) -> Option<i32> {
    let even = after.even();
    let woken = after
        .timelines()
        .filter(|&l| l != made && after.is_active(l) && !before.is_active(l))
        .max_by_key(|&l| raw_timeline(timeline_number(l, even)))?;
    let (woken_end, made_end) = (after.timeline_end(woken)?, after.timeline_end(made)?);
    if woken_end + 1 >= made_end {
        return None;
    }
    Some((half_turn_slot(woken_end, starts_at_turn_zero(after)) + 2).div_euclid(2))
}

fn move_body(pos: &Position, m: &Move, superphysical: bool) -> String {
    let prefix = superphysical || pos.timeline_count() > 1 || m.is_jump();
    let board = if prefix {
        board_label(pos, m.from.board)
    } else {
        String::new()
    };
    if matches!(m.kind, MoveKind::Castle { .. }) {
        return format!("{board}K{}{}", plain_hint(pos, m), m.to.square);
    }
    if m.is_jump() {
        let mut text = relabel(pos, crate::san::write(pos, m, true));
        if m.kind == MoveKind::Branch {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let made = if pos.to_move() == Color::White {
                after.max_timeline()
            } else {
                after.min_timeline()
            };
            if after.is_active(made) {
                text.push('~');
            }
        }
        return text;
    }
    if m.piece.role() == Role::Brawn && m.is_capture() {
        // A brawn's capture names no file unless another brawn could make it.
        let mut others = Vec::new();
        pos.moves_from(m.from.board, &mut others);
        let rivals = others
            .iter()
            .any(|o| o.from != m.from && o.to == m.to && o.piece.role() == Role::Brawn && !o.is_jump());
        if !rivals {
            let promotion = m.promotion.map(|r| format!("={}", role_letter(r))).unwrap_or_default();
            return format!("{board}Wx{}{promotion}", m.to.square);
        }
    }
    if m.piece.role() != Role::Pawn {
        if castling_rival(pos, m) {
            // The library tells a castling apart from plain king moves to its square, never
            // a plain move from a castling: `Kb2` beside the castling `Kdb2`.
            let capture = if m.is_capture() { "x" } else { "" };
            let promotion = m.promotion.map(|r| format!("={}", role_letter(r))).unwrap_or_default();
            let (letter, hint) = (role_letter(m.piece.role()), plain_hint(pos, m));
            return format!("{board}{letter}{hint}{capture}{}{promotion}", m.to.square);
        }
        return relabel(pos, crate::san::write(pos, m, prefix));
    }
    let black = m.piece.color() == Color::Black;
    let file = (b'a' + m.from.square.x() as u8) as char;
    let capture = m.is_capture();
    let mut text = board;
    // With one piece to promote to, a promotion is the pawn's move and `=Q`; with several,
    // the library names the source square (its moves to the same square differ only there).
    // The library's pieces are those of the game's boards (see `library_promotes_to_several`),
    // so a Standard game writes `b7xc8=Q` though our rules promote to a queen only.
    if let Some(r) = m
        .promotion
        .filter(|_| pos.promotions().len() <= 1 && !library_promotes_to_several(pos))
    {
        text.push_str(&pawn_text(pos, m, black, file));
        text.push('=');
        text.push_str(role_letter(r));
        return text;
    }
    if let Some(r) = m.promotion {
        text.push_str(&m.from.square.to_string());
        if capture {
            if black {
                text.push(file);
            }
            text.push('x');
        }
        text.push_str(&m.to.square.to_string());
        text.push('=');
        text.push_str(role_letter(r));
        return text;
    }
    text.push_str(&pawn_text(pos, m, black, file));
    text
}

/// Whether a castling of another piece of `m`'s kind lands on `m`'s square (several kings).
fn castling_rival(pos: &Position, m: &Move) -> bool {
    let mut others = Vec::new();
    pos.moves_from(m.from.board, &mut others);
    others.iter().any(|o| {
        o.from != m.from
            && o.to == m.to
            && o.piece.role() == m.piece.role()
            && matches!(o.kind, MoveKind::Castle { .. })
    })
}

/// The source hint (file, else rank, else square) the library writes before a move's square:
/// counted against the plain moves (no castling, no jump) of other pieces of its kind to the
/// same square, as SAN does; 1.2.1 writes the castling `Kdb2` beside a plain `Kb2`.
fn plain_hint(pos: &Position, m: &Move) -> String {
    let mut others = Vec::new();
    pos.moves_from(m.from.board, &mut others);
    let rivals: Vec<&Move> = others
        .iter()
        .filter(|o| {
            o.from != m.from
                && o.to == m.to
                && o.piece.role() == m.piece.role()
                && !o.is_jump()
                && !matches!(o.kind, MoveKind::Castle { .. })
        })
        .collect();
    let (x, y) = (m.from.square.x(), m.from.square.y());
    let file = (b'a' + x as u8) as char;
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|o| o.from.square.x() != x) {
        file.to_string()
    } else if rivals.iter().all(|o| o.from.square.y() != y) {
        (y + 1).to_string()
    } else {
        format!("{file}{}", y + 1)
    }
}

/// Whether the library offers several pieces to promote to in this game: it promotes to each
/// piece type of its boards among bishop, knight, rook, queen, princess and common king (not
/// pawns, kings, brawns, royal queens, unicorns or dragons), so it writes a promotion with its
/// source square (`b7xc8=Q`, `b7b8=Q`) unless the boards hold one of these types only.
fn library_promotes_to_several(pos: &Position) -> bool {
    let mut seen: Option<Role> = None;
    for (_, board) in pos.boards() {
        for (_, piece) in board.pieces() {
            let role = piece.role();
            if matches!(
                role,
                Role::Bishop | Role::Knight | Role::Rook | Role::Queen | Role::Princess | Role::CommonKing
            ) {
                match seen {
                    None => seen = Some(role),
                    Some(r) if r != role => return true,
                    Some(_) => {}
                }
            }
        }
    }
    false
}

/// A move of the moves under way as the library's `print()` lists it under `Move Stack:`:
/// the board when the game has several timelines or the move leaves its board, the piece's
/// letter, no disambiguation, a pawn's capture with its file, `>` for every jump (no `>>`,
/// no `~`), no check mark.
pub fn stack_text(pos: &Position, m: &Move) -> String {
    let prefix = pos.timeline_count() > 1 || m.is_jump();
    let mut text = if prefix {
        board_label(pos, m.from.board)
    } else {
        String::new()
    };
    if matches!(m.kind, MoveKind::Castle { .. }) {
        let _ = write!(text, "K{}", m.to.square);
        return text;
    }
    let letter = role_letter(m.piece.role());
    if m.is_jump() {
        let letter = if m.piece.role() == Role::Pawn { "P" } else { letter };
        let _ = write!(text, "{letter}{}>", m.from.square);
        if m.is_capture() {
            text.push('x');
        }
        let _ = write!(text, "{}{}", board_label(pos, m.to.board), m.to.square);
    } else {
        text.push_str(letter);
        if m.is_capture() {
            if m.piece.role() == Role::Pawn {
                text.push((b'a' + m.from.square.x() as u8) as char);
            }
            text.push('x');
        }
        let _ = write!(text, "{}", m.to.square);
    }
    if let Some(r) = m.promotion {
        let _ = write!(text, "={}", role_letter(r));
    }
    text
}

/// A pawn's move within a board as the library writes it: `e4`, `exd5`; Black's captures
/// that need telling apart repeat the file (`eexf4`).
fn pawn_text(pos: &Position, m: &Move, black: bool, file: char) -> String {
    let mut text = String::new();
    if m.is_capture() {
        text.push(file);
        if black {
            let mut others = Vec::new();
            pos.moves_from(m.from.board, &mut others);
            let rivals = others.iter().any(|o| {
                o.from != m.from && o.to == m.to && o.piece.role() == Role::Pawn && o.is_capture() && !o.is_jump()
            });
            if rivals {
                text.push(file);
            }
        }
        text.push('x');
    }
    text.push_str(&m.to.square.to_string());
    text
}

/// Our 5DPGN text of a move with the boards relabelled as the library labels them.
fn relabel(pos: &Position, text: String) -> String {
    if !pos.even() || !text.contains("(+") {
        return text;
    }
    let mut out = text;
    for l in 1..=pos.max_timeline() + 1 {
        out = out.replace(&format!("(+{l}T"), &format!("({l}T"));
    }
    out
}

/// The moves of an action as the library writes them, separated by spaces (each written in
/// the position its predecessors made).
pub fn action_text(pos: &Position, moves: &[Move], tokens: Tokens) -> String {
    let mut p = pos.clone();
    let mut texts = Vec::with_capacity(moves.len());
    for m in moves {
        texts.push(move_text(&p, m, tokens));
        p.play_unchecked(m);
    }
    texts.join(" ")
}

/// The library's action number of the action that follows `played` actions from `start`: the
/// turn, counted from 1, White's and Black's action of a turn sharing it (1, 1, 2, 2...).
pub fn action_number(start: &Position, played: usize) -> i32 {
    let first = start.present_turn().max(1);
    let n = played as i32 + i32::from(start.to_move() == Color::Black);
    first + n / 2
}

/// A game's record as the library's `export('5dpgn...')` writes it: its headers (each
/// `[Name "Value"]` on a line), then the actions, a turn per line (`1. e4 / e5`; with the
/// `inline` token on one line), without a final newline. An action that ended with a pass is
/// written as its moves (the boards it passed have no text: a pass without a move is an empty
/// action, as the library writes it).
pub fn write_record(game: &Game, headers: &[(String, String)], tokens: Tokens) -> String {
    let mut out = String::new();
    for (k, v) in headers {
        let _ = writeln!(out, "[{k} \"{v}\"]");
    }
    let mut pos = game.start().clone();
    let mut turns: Vec<String> = Vec::new();
    for (i, a) in game.actions().iter().enumerate() {
        let text = action_text(&pos, &a.moves, tokens);
        let number = action_number(game.start(), i);
        match pos.to_move() {
            Color::White => turns.push(format!("{number}. {text}")),
            Color::Black if i == 0 => turns.push(format!("{number}. / {text}")),
            Color::Black => {
                if let Some(last) = turns.last_mut() {
                    let _ = write!(last, " / {text}");
                }
            }
        }
        for m in &a.moves {
            pos.play_unchecked(m);
        }
        if game.is_pass(i) {
            pos.pass_unchecked();
        } else {
            pos.submit_unchecked();
        }
    }
    out.push_str(&turns.join(if tokens.inline { " " } else { "\n" }));
    out
}

/// A timeline's index in the library's raw numbering (0, then -1, +1, -2, +2... as 1, 2, 3,
/// 4...), from its number in the library's objects.
fn raw_timeline(number: i32) -> i32 {
    if number >= 0 {
        2 * number
    } else {
        -2 * number - 1
    }
}

/// The library's slot of half-turn `t` (ours: T1 White is 2) in its timeline arrays: counted
/// from T0 White in a game whose boards start at turn 0 (`zero`, see [`starts_at_turn_zero`]),
/// else from T1 White.
fn half_turn_slot(t: i32, zero: bool) -> i32 {
    if zero {
        t
    } else {
        t - 2
    }
}

/// Whether a board of the position stands before T1 White (Turn Zero and the like).
fn starts_at_turn_zero(pos: &Position) -> bool {
    pos.timelines().filter_map(|l| pos.timeline_start(l)).min().unwrap_or(2) < 2
}

/// The position drawn as the library's `print()` draws it: who moves and the action number,
/// the moves under way under `Move Stack:` (`stack`: each move's [`stack_text`], in the order
/// played; none, no section), then a row of boards per timeline number (from the farthest
/// negative reach to the last positive one, an empty row where a number has no timeline),
/// each board boxed with its raw timeline and half-turn slot (`╔2,1═════╗`), pieces as
/// letters (`.` empty).
pub fn diagram(pos: &Position, action_number: i32, stack: &[String]) -> String {
    // The library draws every board as 8x8 (the squares off a smaller board empty) and knows
    // the letters of the standard pieces and the princess only.
    const SIDE: usize = 8;
    let even = pos.even();
    let mut out = format!(
        "Current Player: {}\nAction Number: {action_number}\n",
        if pos.to_move() == Color::White {
            "White"
        } else {
            "Black"
        }
    );
    if !stack.is_empty() {
        out.push_str("Move Stack:\n");
        for text in stack {
            let _ = writeln!(out, "  {text}");
        }
    }
    let zero = starts_at_turn_zero(pos);
    let half_turn = |t: i32| half_turn_slot(t, zero);
    // One row per timeline number from the farthest negative reach (as far as the farthest
    // timeline on either side) to the last positive one: a number without a timeline is an
    // empty row.
    let numbers = || pos.timelines().map(|l| timeline_number(l, even));
    let lowest = -numbers().map(i32::abs).max().unwrap_or(0);
    let highest = numbers().max().unwrap_or(0);
    for n in lowest..=highest {
        let line = timeline_index(n, even).filter(|l| pos.timeline_start(*l).is_some());
        let Some(l) = line else {
            for _ in 0..SIDE + 2 {
                out.push('\n');
            }
            continue;
        };
        let start = pos.timeline_start(l).unwrap_or(0);
        let end = pos.timeline_end(l).unwrap_or(start);
        let indent = " ".repeat(half_turn(start).max(0) as usize * (SIDE + 2));
        let mut rows = vec![indent; SIDE + 2];
        for t in start..=end {
            let Some(board) = pos.board(BoardId::new(l, t)) else {
                continue;
            };
            let label = format!("{},{}", raw_timeline(n), half_turn(t));
            let fill = SIDE.saturating_sub(label.chars().count());
            let _ = write!(rows[0], "╔{label}{}╗", "═".repeat(fill));
            for y in 0..SIDE {
                let row = &mut rows[SIDE - y];
                row.push('║');
                for x in 0..SIDE {
                    let piece = (x < usize::from(pos.size().width) && y < usize::from(pos.size().height))
                        .then(|| board.get(chess5d_rules::Square::new(x as u8, y as u8)))
                        .flatten();
                    row.push(match piece.map(|p| (p.color(), p.role())) {
                        Some((color, role)) => {
                            let c = match role {
                                Role::Pawn => 'P',
                                Role::Knight
                                | Role::Bishop
                                | Role::Rook
                                | Role::Queen
                                | Role::King
                                | Role::Princess => role.letter(),
                                _ => '.',
                            };
                            if color == Color::White {
                                c
                            } else {
                                c.to_ascii_lowercase()
                            }
                        }
                        None => '.',
                    });
                }
                row.push('║');
            }
            let _ = write!(rows[SIDE + 1], "╚{}╝", "═".repeat(SIDE.max(label.chars().count())));
        }
        for r in rows {
            out.push_str(&r);
            out.push('\n');
        }
    }
    out
}

/// The 5DFEN boards of a position in the library's order: by raw timeline (0, -1, +1, -2...;
/// `-0`, `+0`, -1, +1... in even games), then by turn, each with a final newline.
pub fn fen_lines(pos: &Position) -> String {
    let even = pos.even();
    let mut boards: Vec<(BoardId, String)> = pos
        .boards()
        .map(|(id, b)| (id, crate::fen::write_board(b, id, pos.size(), even)))
        .collect();
    boards.sort_by_key(|(id, _)| (raw_timeline(timeline_number(id.l, even)), id.t));
    let mut out = String::new();
    for (_, line) in boards {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The variants 5d-chess-js 1.2 has built in, by name; it loads every other start as custom
/// 5DFEN boards.
pub const BUILTIN_VARIANTS: [&str; 7] = [
    "Standard",
    "Standard - Defended Pawn",
    "Standard - Half Reflected",
    "Standard - Princess",
    "Standard - Turn Zero",
    "Standard - Two Timelines",
    "Standard - Reversed Royalty",
];

/// The variant a start is, if it is one of the library's own ([`BUILTIN_VARIANTS`]).
pub fn builtin_variant(start: &Position) -> Option<&'static chess5d_rules::Variant> {
    crate::start::variant_of(start).filter(|v| BUILTIN_VARIANTS.contains(&v.name))
}

/// A game as the library's `export('5dpgn...')` writes it: the [`export_headers`], for a
/// custom start its 5DFEN boards ([`fen_lines`]), then the record ([`write_record`]).
pub fn export(game: &Game, tokens: Tokens) -> String {
    export_as(game, tokens, false)
}

/// [`export`], with `custom`: the game was read as a custom start (`[Board "Custom"]` and
/// 5DFEN boards), which the library writes back so even when the boards are a variant's start.
pub fn export_as(game: &Game, tokens: Tokens, custom: bool) -> String {
    let start = game.start();
    let mut out = export_headers(game, custom);
    if custom || builtin_variant(start).is_none() {
        out.push_str(&fen_lines(start));
    }
    out + &write_record(game, &[], tokens)
}

/// The headers of the library's export, all that its `export()` gives for a format it does not
/// know: `[Board "..."]` (one of its variants by name, else, or with `custom`, `Custom`),
/// `[Mode "5D"]`, and for a custom start its `[Size]`.
pub fn export_headers(game: &Game, custom: bool) -> String {
    let start = game.start();
    match builtin_variant(start).filter(|_| !custom) {
        Some(v) => format!("[Board \"{}\"]\n[Mode \"5D\"]\n", v.name),
        None => {
            let size = start.size();
            format!(
                "[Board \"Custom\"]\n[Mode \"5D\"]\n[Size \"{}x{}\"]\n",
                size.width, size.height
            )
        }
    }
}
