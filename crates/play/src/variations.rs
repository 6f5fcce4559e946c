//! The variations kept with an imported game: the tree read from its Branched 5DPGN, its main
//! line kept in step with the game's actions, so that the game's export writes them again. The
//! view lists them line by line (API.md's `variations`), each move numbered so that a request
//! can show the position after it (`?variation=k`).
//!
//! Moves are numbered by the tree's shape alone, so that a game read back from its stored form
//! numbers them the same: the lines branching from the main line in the order of the actions
//! they branch from, each line's moves, then the lines branching from them, and so on. Actions
//! added to the main line later (the game played on) add no variation.

use crate::cache::{raw, MoveView};
use crate::terms::color_name;
use chess5d_notation::pgn::{self, Movetext};
use chess5d_notation::{GameTree, NodeId};
use chess5d_rules::{Budget, Game, Outcome, Position};
use serde::Serialize;
use serde_json::value::RawValue;

/// One action of a variation as the view lists it.
#[derive(Debug, Serialize)]
struct MoveEntry {
    /// Its number among the game's variation moves (`?variation=k`).
    node: usize,
    /// The turn number written before it.
    number: u32,
    color: &'static str,
    /// As 5DPGN writes it, without the `~` of jumps (as the main line's list).
    text: String,
}

/// One line of variations: a variation's actions along their main continuation.
#[derive(Debug, Serialize)]
struct LineEntry {
    /// The main line's action count where it (or the line it branches from) leaves the game.
    at: usize,
    /// 1 for a line branching from the main line, 2 for one branching from such a line...
    depth: usize,
    /// The variation move it branches after (`None`: it branches from the main line at `at`).
    parent: Option<usize>,
    moves: Vec<MoveEntry>,
}

/// The variations of a game.
#[derive(Clone, Debug)]
pub(crate) struct Variations {
    /// The tree: the game's main line (up to its last action) and the variations.
    tree: GameTree,
    /// The variation moves, as numbered (see the module's doc).
    nodes: Vec<NodeId>,
    /// The stored form: the tree as read, in Branched 5DPGN without headers.
    pub(crate) stored: String,
    /// The view's `variations`, written once.
    pub(crate) list: Box<RawValue>,
}

impl Variations {
    /// The variations of a tree read from an import, `None` if it has none.
    pub(crate) fn new(tree: GameTree) -> Option<Variations> {
        let main = tree.main_line().len();
        if tree.len() == main + 1 {
            return None;
        }
        let stored = pgn::write_tree(&tree, &[], None);
        let mut v = Variations {
            tree,
            nodes: Vec::new(),
            stored,
            list: crate::cache::empty_list(),
        };
        let lines = v.number();
        v.list = raw(&lines);
        Some(v)
    }

    /// The variations stored with a game (their [`Variations::stored`] form), on the game's
    /// main line: an error says why they do not fit it.
    pub(crate) fn restore(stored: &str, game: &Game) -> Result<Option<Variations>, String> {
        if stored.trim().is_empty() {
            return Ok(None);
        }
        let loaded = chess5d_notation::load(stored).map_err(|e| e.to_string())?;
        let main = loaded.tree().main_line();
        let fits = loaded.tree().start().hash() == game.start().hash()
            && main.len() <= game.actions().len()
            && main
                .iter()
                .zip(game.actions())
                .all(|(&n, a)| loaded.tree().action(n) == a);
        if !fits {
            return Err("its main line is not the game's".into());
        }
        let mut v = Variations::new(loaded.into_tree()).ok_or("it has no variation")?;
        v.stored = stored.to_string();
        v.follow(game);
        Ok(Some(v))
    }

    /// How many variation moves (actions) there are.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Plays the game's actions past the tree's main line on it (the game played on).
    pub(crate) fn follow(&mut self, game: &Game) {
        let main = self.tree.main_line();
        let mut node = main.last().copied().unwrap_or(GameTree::ROOT);
        for a in game.actions().iter().skip(main.len()) {
            match self.tree.play(node, &a.moves, true) {
                Ok(n) => node = n,
                // Not met: the game's actions are legal; the export then stops there.
                Err(_) => return,
            }
        }
    }

    /// The game with its variations as 5DPGN (see [`pgn::write_tree`]).
    pub(crate) fn write(&self, headers: &[(String, String)], result: Option<&str>) -> String {
        pgn::write_tree(&self.tree, headers, result)
    }

    /// The game after variation move `k`: its action count, position and last action (as the
    /// view writes it); `None` if there is no move `k`.
    pub(crate) fn shown(&self, k: usize) -> Option<(usize, Position, Box<RawValue>)> {
        let node = *self.nodes.get(k)?;
        let parent = self.tree.parent(node)?;
        let before = self.tree.game_at(parent).position().clone();
        let mut pos = before.clone();
        let moves = &self.tree.action(node).moves;
        let last: Vec<MoveView> = moves.iter().map(|m| MoveView::new(&before, m)).collect();
        for m in moves {
            pos.play_unchecked(m);
        }
        pos.submit_unchecked();
        Some((self.tree.depth(node), pos, raw(&last)))
    }

    /// Numbers the variation moves and writes the lines the view lists.
    fn number(&mut self) -> Vec<LineEntry> {
        let mut lines = Vec::new();
        let mut main = vec![GameTree::ROOT];
        main.extend(self.tree.main_line());
        for (at, &m) in main.iter().enumerate() {
            let branches: Vec<NodeId> = self.tree.children(m).iter().skip(1).copied().collect();
            for v in branches {
                self.line(v, at, 1, None, &mut lines);
            }
        }
        lines
    }

    /// Numbers the line starting at `first` (a variation's first action) and those branching
    /// from it, writing them to `lines`.
    fn line(&mut self, first: NodeId, at: usize, depth: usize, parent: Option<usize>, lines: &mut Vec<LineEntry>) {
        let tree = &self.tree;
        let from = tree.parent(first).unwrap_or(GameTree::ROOT);
        let mut text = Movetext::new(tree.game_at(from).position());
        let mut nodes = vec![first];
        while let Some(&next) = tree.children(*nodes.last().unwrap_or(&first)).first() {
            nodes.push(next);
        }
        let base = self.nodes.len();
        let mut moves = Vec::new();
        for (i, &n) in nodes.iter().enumerate() {
            let action = &tree.action(n).moves;
            let leaf = i + 1 == nodes.len();
            let mate = leaf && {
                let mut p = text.position().clone();
                for m in action {
                    p.play_unchecked(m);
                }
                p.submit_unchecked();
                p.outcome(Budget::DEFAULT) == Outcome::Checkmate
            };
            let (number, color) = tree.serial(tree.depth(n) - 1);
            let written = text.push(action, mate).join(" ").replace('~', "");
            moves.push(MoveEntry {
                node: base + i,
                number,
                color: color_name(color),
                text: written,
            });
        }
        self.nodes.extend(&nodes);
        lines.push(LineEntry {
            at,
            depth,
            parent,
            moves,
        });
        for (i, &n) in nodes.iter().enumerate() {
            let branches: Vec<NodeId> = self.tree.children(n).iter().skip(1).copied().collect();
            for v in branches {
                self.line(v, at, depth + 1, Some(base + i), lines);
            }
        }
    }
}
