//! 5DPGN game records: [`PgnGame`] (the text's structure), reading into a game, writing.
//!
//! Besides moves, the reader takes `{...}` comments (kept with their move) and skips `;` comments
//! to the end of their line and PGN's escape lines, which have `%` in their first column.

mod parse;
mod write;

pub use parse::is_result;
pub use write::{is_glyph, write, write_line, write_tree, Movetext};

use crate::coords::Timeline;
use crate::error::{Error, ParseError, Reason, ResolveError, Span};
use crate::fen::FenBoard;
use crate::replay::{self, Written};
use crate::san::SanMove;
use crate::tree::{GameTree, NodeId};
use crate::{start, Format, LoadedGame};
use chess5d_rules::{Color, Game};

/// A 5DPGN record as written: headers, 5DFEN boards, actions (main line) and result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The headers `[Name "Value"]`, in order.
    pub headers: Vec<(String, String)>,
    /// The 5DFEN boards among the headers.
    pub boards: Vec<FenBoard>,
    /// The actions of the main line, in order.
    pub actions: Vec<PgnAction>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if written.
    pub result: Option<String>,
    /// Variations written before the first action: alternatives to it.
    pub leading: Vec<PgnVariation>,
}

/// A parenthesised variation as written: a line of actions (each with its own variations).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnVariation {
    /// Where its `(` is.
    pub span: Span,
    /// Its actions, in order.
    pub actions: Vec<PgnAction>,
    /// The result written at its end, if any.
    pub result: Option<String>,
    /// Variations written before its first action: alternatives to it.
    pub leading: Vec<PgnVariation>,
}

/// One action: the moves one player submits together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnAction {
    /// The turn number written before it, if any.
    pub turn: Option<u32>,
    /// The player the text assigns it to (`1.` ... `/` ..., `1w.`, `1b.`, `1...`).
    pub color: Option<Color>,
    /// The moves.
    pub moves: Vec<PgnMove>,
    /// Whether it was introduced by `/` (Black's action of the current turn).
    pub after_slash: bool,
    /// How many turn numbers were written since the action before it (`4. / 5. g3`: 2).
    pub numbers: u32,
    /// Comments not attached to a move.
    pub comments: Vec<String>,
    /// Parenthesised variations written after it: alternatives to the next action (Branched
    /// 5DPGN) or to this one (PGN's RAV), told apart by their turn serials.
    pub variations: Vec<PgnVariation>,
}

/// One move with its place in the text and the markers after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move.
    pub san: SanMove,
    /// The move as written.
    pub text: String,
    /// Where it is written.
    pub span: Span,
    /// `(>L1)`: the timeline the move created.
    pub new_timeline: Option<Timeline>,
    /// `(~T3)`: the turn the present moved to.
    pub present: Option<u32>,
    /// `{comments}` after it.
    pub comments: Vec<String>,
}

impl PgnGame {
    /// Reads 5DPGN text (syntax only; see [`PgnGame::play`]).
    pub fn parse(text: &str) -> Result<PgnGame, ParseError> {
        parse::parse(text, 1)
    }

    /// Reads 5DPGN text whose first line is line `first_line` of a larger file (errors and
    /// spans then count lines in that file).
    pub fn parse_at(text: &str, first_line: usize) -> Result<PgnGame, ParseError> {
        parse::parse(text, first_line)
    }

    /// Builds the start position and plays every action of the main line.
    pub fn play(&self) -> Result<LoadedGame, Error> {
        self.play_with(false)
    }

    /// [`play`](Self::play) for records that 5d-chess-js writes after a pass (its API ends an
    /// action without moving on every board left): an action whose moves leave boards to
    /// play, an empty action before `/` (`1. / e5`) and an action numbered as the next turn
    /// while Black is to move (`1. e4 / 2. d4`) are read as passes ([`Game::pass`]), but for
    /// the last action of the main line, whose moves stay under way (the library writes its
    /// move buffer there). A pass at the very end cannot be told from a turn not played yet
    /// (the library ends its records with `2. ` or `2. e4 / ` either way): it is not read.
    /// 5DPGN has no pass: [`play`](Self::play) refuses them.
    pub fn play_passing(&self) -> Result<LoadedGame, Error> {
        self.play_with(true)
    }

    fn play_with(&self, passes: bool) -> Result<LoadedGame, Error> {
        let mut start = start::position(&self.headers, &self.boards)?;
        let mut warnings = Vec::new();
        let mut skip = 0;
        for action in &self.actions {
            if action.moves.is_empty() || !action.moves.iter().all(|m| m.san.is_null()) {
                break;
            }
            let boards: Vec<_> = action
                .moves
                .iter()
                .map(|m| m.san.from_board().and_then(|b| b.id(&start)))
                .collect();
            start = replay::fold_nulls(&start, &boards)?;
            if let Some(m) = action.moves.first() {
                warnings.push((
                    m.span,
                    "null moves before the first action are folded into the start position".to_string(),
                ));
            }
            skip += 1;
        }
        let mut tree = GameTree::new(start.clone());
        let mut player = Player {
            tree: &mut tree,
            warnings: &mut warnings,
            offset: skip,
            drift: 0,
            last_turn: None,
            passes,
        };
        let root = Game::new(start.clone());
        for v in &self.leading {
            player.variation(&root, GameTree::ROOT, v)?;
        }
        let (last, played) = player.line(root, GameTree::ROOT, &self.actions[skip..], true)?;
        // The main line ends with its result token, or the header's (as written back).
        let result = self.result.clone().or_else(|| {
            start::header(&self.headers, "Result")
                .filter(|r| parse::is_result(r))
                .map(str::to_string)
        });
        // On the main line's end, which variations may have carried past the last action
        // written outside them.
        let end = tree.main_line().last().copied().unwrap_or(GameTree::ROOT);
        tree.set_result(end, result);
        tree.keep_results_on_leaves();
        // The game played is the main line's unless a variation carried the main line on.
        let game = (end == last).then_some(played);
        let mut loaded = LoadedGame::read(
            Format::Pgn,
            self.headers.clone(),
            tree,
            game,
            replay::into_warnings(warnings),
        );
        loaded.result = self.result.clone();
        Ok(loaded)
    }
}

/// Plays written lines into a tree.
struct Player<'t> {
    tree: &'t mut GameTree,
    warnings: &'t mut Vec<(Span, String)>,
    /// Actions of the record before the start (null moves folded into it).
    offset: usize,
    /// Whether passes are read (see [`PgnGame::play_passing`]).
    passes: bool,
    /// How far the record's turn numbers run behind ours (see `check_turn`), on the line being
    /// played.
    drift: i32,
    /// The last turn number written on the line being played.
    last_turn: Option<u32>,
}

/// Where a variation branches off: after the action it follows, or before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Branch {
    /// Branched 5DPGN: an alternative to the next action.
    Next,
    /// PGN's RAV: an alternative to the action it follows.
    Replaced,
}

impl Player<'_> {
    /// Plays `actions` from `node` (reached by `game`); the first action is `node`'s main
    /// continuation if `main`, a variation otherwise. Returns the last node and its game.
    fn line(
        &mut self,
        mut game: Game,
        mut node: NodeId,
        actions: &[PgnAction],
        main: bool,
    ) -> Result<(NodeId, Game), Error> {
        let mut fresh = false;
        for (i, action) in actions.iter().enumerate() {
            let before = (!action.variations.is_empty()).then(|| game.clone());
            if self.passes {
                node = self.passes_before(action, &mut game, node)?;
            }
            let number = self.offset + self.tree.depth(node) + 1;
            self.check_turn(action, node, number, &game)?;
            let moves: Vec<Written<'_, SanMove>> = action
                .moves
                .iter()
                .map(|m| Written {
                    item: &m.san,
                    text: &m.text,
                    span: m.span,
                })
                .collect();
            let played = replay::play_action(&mut game, number, action.color, &moves, self.warnings, |san, pos| {
                san.resolve(pos).map(|(m, bogus)| {
                    let warning = bogus.then(|| "capture mark 'x' on a move that captures nothing".to_string());
                    (m, warning)
                })
            });
            match played {
                // Moves that leave boards to play: a pass, but for the last action of the
                // record, whose moves stay under way (the library writes its move buffer there).
                Err(e) if self.passes && matches!(e.reason, Reason::Submit(_)) && game.position().action_len() > 0 => {
                    if main && i + 1 == actions.len() {
                        break;
                    }
                    game.pass().map_err(|_| Error::Resolve(e))?;
                }
                other => other?,
            }
            let played = game.actions().last().cloned().unwrap_or_default();
            let pass = game.actions().len().checked_sub(1).is_some_and(|i| game.is_pass(i));
            // A line's continuation is the main one of the nodes it made; where a variation runs
            // into nodes already there, it is appended as one of their variations.
            let (child, new) = self
                .tree
                .add(node, played, pass, game.position().hash(), main || (i > 0 && fresh));
            fresh = new;
            if new {
                self.tree.set_comments(child, comments_of(action));
                self.tree.set_glyphs(child, glyphs_of(action));
            }
            if !new && i == 0 && !main {
                if let Some(m) = action.moves.first() {
                    self.warnings.push((
                        m.span,
                        format!("action {number}: this variation reaches the same position as another one from the same place; they are kept once"),
                    ));
                }
            }
            let parent = node;
            node = child;
            for v in &action.variations {
                match self.branch(v, parent, node)? {
                    Branch::Next => self.variation(&game, node, v)?,
                    Branch::Replaced => {
                        let before = before.as_ref().expect("kept when the action has variations");
                        self.variation(before, parent, v)?
                    }
                }
            }
        }
        Ok((node, game))
    }

    /// Plays the passes written before `action` as actions left empty (`1. / e5`,
    /// `1. e4 / 2. d4`, `4. / 5. g3`): while the action's written turn serial is ahead of the
    /// game's, a pass; at most two per turn number written since the action before (so a
    /// number that only skips ahead is still refused by `check_turn`).
    fn passes_before(&mut self, action: &PgnAction, game: &mut Game, mut node: NodeId) -> Result<NodeId, Error> {
        let black = action.after_slash || action.color == Some(Color::Black);
        let (now_turn, _) = self.serial(self.tree.depth(node));
        let Some(turn) = action.turn.or(black.then_some(now_turn)) else {
            return Ok(node);
        };
        let written = (turn, u8::from(black));
        let mut budget = 2 * action.numbers.max(1);
        loop {
            let (t, c) = self.serial(self.tree.depth(node));
            if (t, u8::from(c == Color::Black)) >= written || budget == 0 {
                return Ok(node);
            }
            node = self.pass(game, node)?;
            budget -= 1;
        }
    }

    /// Ends the action under way in `game` with a pass, as a node after `node`.
    fn pass(&mut self, game: &mut Game, node: NodeId) -> Result<NodeId, Error> {
        let number = self.offset + self.tree.depth(node) + 1;
        game.pass().map_err(|e| {
            Error::Resolve(ResolveError {
                action: number,
                text: String::new(),
                span: Span::default(),
                reason: Reason::Submit(e),
            })
        })?;
        let played = game.actions().last().cloned().unwrap_or_default();
        Ok(self.tree.add(node, played, true, game.position().hash(), true).0)
    }

    /// Refuses an action whose written turn number is not its own (`1. e4 / e5 3. Nf3`): a
    /// number that skips or goes back means a lost or misplaced action. One quirk of exports
    /// from elsewhere is let through with a warning: a White turn numbered as the one before it
    /// (seen after a jump that moves the present back); the numbers after it count from there.
    fn check_turn(&mut self, action: &PgnAction, node: NodeId, number: usize, game: &Game) -> Result<(), Error> {
        let Some(written) = action.turn else {
            return Ok(());
        };
        let (turn, color) = self.serial(self.tree.depth(node));
        if written == turn {
            self.last_turn = Some(written);
            return Ok(());
        }
        let m = action.moves.first();
        if color == Color::White && turn > 1 && written == turn - 1 && self.last_turn == Some(written) {
            self.drift -= 1;
            self.warnings.push((
                m.map(|m| m.span).unwrap_or_default(),
                format!("action {number}: turn {written} is numbered twice; the turns after it are counted from here"),
            ));
            return Ok(());
        }
        Err(Error::Resolve(ResolveError {
            action: number,
            text: m.map(|m| m.text.clone()).unwrap_or_default(),
            span: m.map(|m| m.span).unwrap_or_default(),
            // After the end, that is what is wrong (`4. Qxf7# 5. Nf3`).
            reason: replay::game_over(game).unwrap_or_else(|| {
                Reason::TurnNumber(format!(
                    "the action is numbered {written}, but it is {color}'s action of turn {turn}"
                ))
            }),
        }))
    }

    /// The turn serial of an action played `depth` actions after the tree's start, as the
    /// record numbers it (with its drift).
    fn serial(&self, depth: usize) -> (u32, Color) {
        let (turn, color) = self.tree.serial(depth);
        (turn.saturating_add_signed(self.drift), color)
    }

    /// Plays a variation from `node` (reached by `game`) as an alternative to its main
    /// continuation.
    fn variation(&mut self, game: &Game, node: NodeId, v: &PgnVariation) -> Result<(), Error> {
        for inner in &v.leading {
            self.variation(game, node, inner)?;
        }
        if v.actions.is_empty() {
            return Ok(());
        }
        // The line it branches from goes on counting as before.
        let saved = (self.drift, self.last_turn);
        let played = self.line(game.clone(), node, &v.actions, false);
        (self.drift, self.last_turn) = saved;
        let (last, _) = played?;
        if v.result.is_some() {
            self.tree.set_result(last, v.result.clone());
        }
        Ok(())
    }

    /// Tells a variation written after the action reaching `node` (from `parent`) apart:
    /// its first action's turn serial fits the next action (Branched 5DPGN) or the one it
    /// follows (RAV).
    fn branch(&self, v: &PgnVariation, parent: NodeId, node: NodeId) -> Result<Branch, Error> {
        let Some(first) = v.actions.first() else {
            return Ok(Branch::Next);
        };
        let next = self.serial(self.tree.depth(node));
        let replaced = self.serial(self.tree.depth(parent));
        let fits = |(turn, color): (u32, Color)| {
            first.turn.is_none_or(|t| t == turn)
                && first.color.is_none_or(|c| c == color)
                && (!first.after_slash || color == Color::Black)
        };
        let serial_given = first.turn.is_some() || first.color.is_some() || first.after_slash;
        match (fits(next), fits(replaced)) {
            (true, false) => Ok(Branch::Next),
            (false, true) => Ok(Branch::Replaced),
            // `N.` alone is White's; no serial at all is PGN's habit (RAV).
            (true, true) if serial_given => Ok(if next.1 == Color::White {
                Branch::Next
            } else {
                Branch::Replaced
            }),
            (true, true) => Ok(Branch::Replaced),
            (false, false) => {
                let m = first.moves.first();
                Err(Error::Resolve(ResolveError {
                    action: self.offset + self.tree.depth(node) + 1,
                    text: m.map(|m| m.text.clone()).unwrap_or_default(),
                    span: m.map_or(v.span, |m| m.span),
                    reason: Reason::Variation(format!(
                        "the variation's turn serial fits neither the action after the one it follows ({}, Branched 5DPGN) nor that action ({}, PGN RAV)",
                        serial_name(next),
                        serial_name(replaced)
                    )),
                }))
            }
        }
    }
}

/// The comments of an action as the tree keeps them: each move's after it, the action's own
/// after its last move.
fn comments_of(action: &PgnAction) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, m) in action.moves.iter().enumerate() {
        out.extend(m.comments.iter().map(|c| (i + 1, c.clone())));
    }
    out.extend(action.comments.iter().map(|c| (action.moves.len(), c.clone())));
    out
}

/// The annotation glyphs of an action's moves (`?!` on its `k`-th move is `(k, "?!")`).
fn glyphs_of(action: &PgnAction) -> Vec<(usize, String)> {
    let glyphs = action.moves.iter().enumerate();
    glyphs
        .filter(|(_, m)| !m.san.suffix().annotation.is_empty())
        .map(|(i, m)| (i + 1, m.san.suffix().annotation.clone()))
        .collect()
}

fn serial_name((turn, color): (u32, Color)) -> String {
    match color {
        Color::White => format!("{turn}."),
        Color::Black => format!("{turn}b. or /"),
    }
}

/// Reads a header or 5DFEN line (`[...]`, line number `index` from 0) of a move-list format
/// into `headers` and `boards`; `false` if the line is not one.
pub(crate) fn header_line(
    trimmed: &str,
    index: usize,
    headers: &mut Vec<(String, String)>,
    boards: &mut Vec<FenBoard>,
) -> Result<bool, crate::ParseError> {
    if !trimmed.starts_with('[') {
        return Ok(false);
    }
    let g = PgnGame::parse(trimmed).map_err(|mut e| {
        e.span.line = index + 1;
        e
    })?;
    headers.extend(g.headers);
    boards.extend(g.boards);
    Ok(true)
}

/// Reads a 5DPGN record and plays it.
pub fn read(text: &str) -> Result<LoadedGame, Error> {
    PgnGame::parse(text)?.play()
}
