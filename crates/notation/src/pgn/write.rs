//! Canonical 5DPGN output.
//!
//! Headers first (`Board`, `Size`, `Promotions` unless queen only, then the caller's headers in
//! order), 5DFEN lines for a custom start, then one line per full turn `N. <white> / <black>`.
//! Board prefixes are written once the game has more than one timeline (and on every jump);
//! `>`/`>>`, and `~` on jumps that move the present back; `+` after an action that leaves the opponent in check, `#` after a
//! final action that mates. Comments read with an action (`{+0.25/6 1.02s}`) are written back after
//! the move they followed.

use crate::san;
use crate::start;
use crate::tree::{GameTree, NodeId};
use chess5d_rules::{Budget, Color, Game, Outcome, Position};

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game with the given extra headers (start headers are regenerated from the game).
pub fn write(game: &Game, headers: &[(String, String)], result: Option<&str>) -> String {
    write_tree(&GameTree::from_game(game), headers, result)
}

/// Writes a game tree in Branched 5DPGN: after an action, its variations (alternatives to the
/// next action) as blocks `( action subtree )`, then the main continuation. `result` is written
/// after the main line (each variation's own result inside its block).
pub fn write_tree(tree: &GameTree, headers: &[(String, String)], result: Option<&str>) -> String {
    let start_pos = tree.start();
    let mut writer = Writer {
        tree,
        out: head(start_pos, headers),
    };
    // Only a result token is written after the moves (a header may say anything).
    let main_result = result
        .filter(|r| super::parse::is_result(r))
        .or_else(|| tree.result(*tree.main_line().last().unwrap_or(&GameTree::ROOT)));
    writer.line(GameTree::ROOT, start_pos.clone(), true);
    finish(writer.out, main_result)
}

/// The headers (with the start's own) and the 5DFEN lines of a custom start, then a blank line.
fn head(start_pos: &Position, headers: &[(String, String)]) -> String {
    let (mut all, fens) = start::headers_for(start_pos);
    all.extend(headers.iter().filter(|(k, _)| !start::is_start_header(k)).cloned());
    let mut out = String::new();
    for (k, v) in &all {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(v)));
    }
    for f in &fens {
        out.push_str(f);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// Ends the movetext with a line break and the result token.
fn finish(mut out: String, result: Option<&str>) -> String {
    if !out.ends_with('\n') {
        out.push('\n');
    }
    if let Some(r) = result {
        out.push_str(r);
        out.push('\n');
    }
    out
}

/// A game's main line written one action at a time, as [`write()`] writes a game without
/// variations or comments: a game being played appends each action to the text it has
/// instead of writing the whole game again (which costs a server a replay of the game per
/// action).
#[derive(Clone, Debug)]
pub struct Movetext {
    start: Position,
    pos: Position,
    out: String,
    actions: usize,
}

impl Movetext {
    /// The empty main line of a game from `start`.
    pub fn new(start: &Position) -> Movetext {
        Movetext {
            start: start.clone(),
            pos: start.clone(),
            out: String::new(),
            actions: 0,
        }
    }

    /// Appends an action (its moves played from [`Movetext::position`]); `mate`: it ends the
    /// game by checkmate (written `#`). Gives the texts of its moves as written.
    pub fn push(&mut self, moves: &[chess5d_rules::Move], mate: bool) -> Vec<String> {
        let (turn, color) = crate::tree::serial(&self.start, self.actions);
        let serial = match color {
            Color::White => format!("{turn}."),
            Color::Black if self.actions == 0 => format!("{turn}b."),
            Color::Black => "/".to_string(),
        };
        // One full turn per line, as `write` does.
        if color == Color::White && self.actions > 0 {
            self.out.push('\n');
        } else if !self.out.is_empty() {
            self.out.push(' ');
        }
        let texts = action_text(&mut self.pos, moves, |_| mate);
        self.out.push_str(&format!("{serial} {}", texts.join(" ")));
        self.actions += 1;
        texts
    }

    /// The number of actions written.
    pub fn len(&self) -> usize {
        self.actions
    }

    /// Whether no action is written yet.
    pub fn is_empty(&self) -> bool {
        self.actions == 0
    }

    /// The position after the actions written.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The whole 5DPGN: `headers` (with the start's own), the main line and `result`, exactly
    /// as [`write()`] writes the same game.
    pub fn write(&self, headers: &[(String, String)], result: Option<&str>) -> String {
        let mut out = head(&self.start, headers);
        out.push_str(&self.out);
        finish(out, result.filter(|r| super::parse::is_result(r)))
    }
}

/// A line of actions played from `pos` as 5DPGN movetext, its first action numbered `first`
/// (a turn and its player, as [`GameTree::serial`] numbers the actions of a game): `12. a / b
/// 13. c`, or `12b. b 13. c` when the line starts with Black's action. The last action is
/// marked `#` if it mates. Actions that are not legal in turn are not checked: the line is
/// written as far as given.
pub fn write_line(pos: &Position, first: (u32, Color), actions: &[Vec<chess5d_rules::Move>]) -> String {
    let mut pos = pos.clone();
    let (mut turn, mut color) = first;
    let mut out = String::new();
    for (i, moves) in actions.iter().enumerate() {
        let serial = match color {
            Color::White => format!("{turn}. "),
            Color::Black if i == 0 => format!("{turn}b. "),
            Color::Black => "/ ".to_string(),
        };
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&serial);
        let last = i + 1 == actions.len();
        let texts = action_text(&mut pos, moves, |p| {
            last && p.outcome(Budget::DEFAULT) == Outcome::Checkmate
        });
        out.push_str(&texts.join(" "));
        if color == Color::Black {
            turn = turn.saturating_add(1);
        }
        color = color.other();
    }
    out
}

struct Writer<'t> {
    tree: &'t GameTree,
    out: String,
}

impl Writer<'_> {
    /// Writes the line from `node` (whose position is `pos`) along first children, with the
    /// variations of each node before its main continuation. `top`: the game's main line,
    /// written one full turn per line.
    fn line(&mut self, mut node: NodeId, mut pos: Position, top: bool) {
        while let Some((&main, variations)) = self.tree.children(node).split_first() {
            for &v in variations {
                self.space();
                self.out.push('(');
                let mut p = pos.clone();
                self.action(v, &mut p, true);
                self.line(v, p, false);
                if let Some(r) = self.tree.result(v).filter(|_| self.tree.children(v).is_empty()) {
                    self.out.push(' ');
                    self.out.push_str(r);
                }
                self.out.push(')');
            }
            if top && self.tree.player(node) == Some(Color::Black) {
                self.out.push('\n');
            }
            self.action(main, &mut pos, false);
            node = main;
            if !top && self.tree.children(node).is_empty() {
                if let Some(r) = self.tree.result(node) {
                    self.out.push(' ');
                    self.out.push_str(r);
                }
            }
        }
    }

    /// Writes a node's action with its turn serial (`N.`, `/`, or `Nb.` for Black's first
    /// action of the game), playing it on `pos`.
    fn action(&mut self, node: NodeId, pos: &mut Position, first_in_block: bool) {
        let depth = self.tree.depth(node);
        let serial = match self.tree.serial(depth - 1) {
            (turn, Color::White) => format!("{turn}."),
            (turn, Color::Black) if depth == 1 => format!("{turn}b."),
            _ => "/".to_string(),
        };
        if !first_in_block {
            self.space();
        }
        let leaf = self.tree.children(node).is_empty();
        let mut texts = action_text(pos, &self.tree.action(node).moves, |p| {
            leaf && p.outcome(Budget::DEFAULT) == Outcome::Checkmate
        });
        for (k, glyph) in self.tree.glyphs(node) {
            // Only the glyphs a reader takes back as one (`!`, `?`, and their pairs).
            if let Some(text) = texts.get_mut(k.saturating_sub(1)).filter(|_| is_glyph(glyph)) {
                text.push_str(glyph);
            }
        }
        for (k, comment) in self.tree.comments(node) {
            // Braces cannot nest in a comment: a stray closing one would end it early.
            let comment = comment.replace('}', ")");
            match texts.get_mut(k.saturating_sub(1)) {
                Some(text) => text.push_str(&format!(" {{{comment}}}")),
                None => texts.push(format!("{{{comment}}}")),
            }
        }
        self.out.push_str(&format!("{serial} {}", texts.join(" ")));
    }
}

/// Whether a text is an annotation glyph as 5DPGN writes it after a move: one or two of `!`
/// and `?`.
pub fn is_glyph(text: &str) -> bool {
    (1..=2).contains(&text.len()) && text.chars().all(|c| matches!(c, '!' | '?'))
}

impl Writer<'_> {
    /// A space, unless at the start of a line.
    fn space(&mut self) {
        if !(self.out.is_empty() || self.out.ends_with('\n')) {
            self.out.push(' ');
        }
    }
}

/// The moves of an action as written in `pos`, which it plays: board prefixes once there is
/// more than one timeline, `~` on jumps that move the present back, `+` when the action leaves
/// the opponent in check and `#` when `mates` says of the position after it that it is mate.
fn action_text(
    pos: &mut Position,
    moves: &[chess5d_rules::Move],
    mates: impl FnOnce(&Position) -> bool,
) -> Vec<String> {
    let mut texts = Vec::new();
    for mv in moves {
        let present = pos.present();
        let mut text = san::write(pos, mv, pos.timeline_count() > 1);
        pos.play_unchecked(mv);
        if mv.is_jump() && pos.present() < present {
            text.push('~');
        }
        texts.push(text);
    }
    pos.submit_unchecked();
    if let Some(last_text) = texts.last_mut() {
        let mate = mates(pos);
        let mark = if mate {
            Some('#')
        } else if pos.in_check() {
            Some('+')
        } else {
            None
        };
        if let Some(mark) = mark {
            // Before the `~`, as in `Qxc3+~`.
            match last_text.strip_suffix('~') {
                Some(stem) => *last_text = format!("{stem}{mark}~"),
                None => last_text.push(mark),
            }
        }
    }
    texts
}
