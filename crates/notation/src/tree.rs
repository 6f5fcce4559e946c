//! Game trees: a start position and, from each node, the actions tried there. The first child of
//! a node is its main continuation, the others are variations (as Branched 5DPGN and PGN's RAV
//! write them).

use chess5d_rules::{Action, ActionError, Color, Game, Move, Position};

/// A node of a [`GameTree`]: an index into the tree (the root, before any action, is
/// [`GameTree::ROOT`]).
pub type NodeId = usize;

#[derive(Clone, Debug)]
struct Node {
    parent: Option<NodeId>,
    action: Action,
    /// Whether the action ended with a pass ([`Game::pass`]) rather than a submit.
    pass: bool,
    /// The position hash after the action (variations reaching the same position are merged).
    hash: u64,
    depth: usize,
    children: Vec<NodeId>,
    result: Option<String>,
    /// Comments written with the action: `(k, text)` follows its `k`-th move (from 1).
    comments: Vec<(usize, String)>,
    /// Annotation glyphs written on the action's moves (`!`, `?`, `?!`...): `(k, glyph)` is on
    /// its `k`-th move (from 1).
    glyphs: Vec<(usize, String)>,
}

/// A game with variations: the start position and a tree of actions.
///
/// The main line follows the first child of every node. Two children of one node never reach
/// the same position: adding one that would returns the existing node.
#[derive(Clone, Debug)]
pub struct GameTree {
    start: Position,
    nodes: Vec<Node>,
}

impl GameTree {
    /// The root: the start position, before any action.
    pub const ROOT: NodeId = 0;

    /// A tree with only the start position.
    pub fn new(start: Position) -> GameTree {
        let hash = start.hash();
        GameTree {
            start,
            nodes: vec![Node {
                parent: None,
                action: Action::default(),
                pass: false,
                hash,
                depth: 0,
                children: Vec::new(),
                result: None,
                comments: Vec::new(),
                glyphs: Vec::new(),
            }],
        }
    }

    /// A tree whose only line is the game's actions.
    pub fn from_game(game: &Game) -> GameTree {
        let mut tree = GameTree::new(game.start().clone());
        let mut pos = game.start().clone();
        let mut node = GameTree::ROOT;
        for (i, action) in game.actions().iter().enumerate() {
            for m in &action.moves {
                pos.play_unchecked(m);
            }
            // A pass leaves the boards it did not play to the next half-turn.
            if game.is_pass(i) {
                pos.pass_unchecked();
            } else {
                pos.submit_unchecked();
            }
            node = tree.add(node, action.clone(), game.is_pass(i), pos.hash(), true).0;
        }
        tree
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The number of nodes, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no action at all.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// The actions tried from a node, the main continuation first.
    pub fn children(&self, node: NodeId) -> &[NodeId] {
        &self.nodes[node].children
    }

    /// The node an action was played from (`None` for the root).
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        self.nodes[node].parent
    }

    /// The action leading to a node (empty for the root).
    pub fn action(&self, node: NodeId) -> &Action {
        &self.nodes[node].action
    }

    /// Whether the action leading to a node ended with a pass ([`Game::pass`]): replaying it
    /// means playing its moves, then passing instead of submitting.
    pub fn is_pass(&self, node: NodeId) -> bool {
        self.nodes[node].pass
    }

    /// How many actions lead from the root to a node.
    pub fn depth(&self, node: NodeId) -> usize {
        self.nodes[node].depth
    }

    /// The result written after a node's action (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub fn result(&self, node: NodeId) -> Option<&str> {
        self.nodes[node].result.as_deref()
    }

    /// The comments written with a node's action: `(k, text)` follows its `k`-th move
    /// (counted from 1), in the order written.
    pub fn comments(&self, node: NodeId) -> &[(usize, String)] {
        &self.nodes[node].comments
    }

    /// Sets the comments written with a node's action (see [`GameTree::comments`]).
    pub fn set_comments(&mut self, node: NodeId, comments: Vec<(usize, String)>) {
        self.nodes[node].comments = comments;
    }

    /// The annotation glyphs written on a node's action (`!`, `?`, `!?`, `?!`, `??`...):
    /// `(k, glyph)` is written on its `k`-th move (counted from 1).
    pub fn glyphs(&self, node: NodeId) -> &[(usize, String)] {
        &self.nodes[node].glyphs
    }

    /// Sets the annotation glyphs of a node's action (see [`GameTree::glyphs`]).
    pub fn set_glyphs(&mut self, node: NodeId, glyphs: Vec<(usize, String)>) {
        self.nodes[node].glyphs = glyphs;
    }

    /// Sets the result written after a node.
    pub fn set_result(&mut self, node: NodeId, result: Option<String>) {
        self.nodes[node].result = result;
    }

    /// The player who plays the action leading to a node (`None` for the root).
    pub fn player(&self, node: NodeId) -> Option<Color> {
        let depth = self.nodes[node].depth;
        (depth > 0).then(|| self.serial(depth - 1).1)
    }

    /// The turn number (as written before it, `N.`) and player of an action played from a
    /// node `depth` actions after the start.
    pub fn serial(&self, depth: usize) -> (u32, Color) {
        serial(&self.start, depth)
    }

    /// The nodes of the main line, after the root.
    pub fn main_line(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut node = GameTree::ROOT;
        while let Some(&next) = self.nodes[node].children.first() {
            out.push(next);
            node = next;
        }
        out
    }

    /// The main line as a game.
    pub fn main_game(&self) -> Game {
        self.game_at(self.main_line().last().copied().unwrap_or(GameTree::ROOT))
    }

    /// The game from the start to a node.
    pub fn game_at(&self, node: NodeId) -> Game {
        let mut path = Vec::new();
        let mut n = node;
        while let Some(p) = self.nodes[n].parent {
            path.push(n);
            n = p;
        }
        let mut game = Game::new(self.start.clone());
        for n in path.into_iter().rev() {
            let node = &self.nodes[n];
            let played = if node.pass {
                // A pass: the moves, then the boards left to the next half-turn.
                let moved = node.action.moves.iter().all(|m| game.make_move(m).is_ok());
                moved && game.pass().is_ok()
            } else {
                game.play_action(&node.action.moves).is_ok()
            };
            assert!(played, "the actions of a tree were checked when added");
        }
        game
    }

    /// Every node, depth first, each node before its children and main continuations before
    /// variations; the root first.
    pub fn walk(&self) -> Walk<'_> {
        Walk {
            tree: self,
            stack: vec![GameTree::ROOT],
        }
    }

    /// Plays an action from `parent`, checked by the rules, as its main continuation (`main`)
    /// or as its last variation; returns the node reached. When a child of `parent` already
    /// reaches that position, nothing is added: that child is returned (moved first if `main`).
    pub fn play(&mut self, parent: NodeId, moves: &[Move], main: bool) -> Result<NodeId, ActionError> {
        let mut game = self.game_at(parent);
        game.play_action(moves)?;
        let action = game.actions().last().cloned().unwrap_or_default();
        Ok(self.add(parent, action, false, game.position().hash(), main).0)
    }

    /// Adds an action (already checked, ended with a pass if `pass`) from `parent` reaching a
    /// position of hash `hash`, as the main continuation (`main`) or as the last variation. When a child of `parent`
    /// already reaches that position, nothing is added: that child is returned (moved first if
    /// `main`) with `false`.
    pub(crate) fn add(&mut self, parent: NodeId, action: Action, pass: bool, hash: u64, main: bool) -> (NodeId, bool) {
        let existing = self.nodes[parent]
            .children
            .iter()
            .position(|&c| self.nodes[c].hash == hash);
        let children_index = match existing {
            Some(i) => {
                let id = self.nodes[parent].children[i];
                if main && i != 0 {
                    let children = &mut self.nodes[parent].children;
                    children.remove(i);
                    children.insert(0, id);
                }
                return (id, false);
            }
            None if main => 0,
            None => self.nodes[parent].children.len(),
        };
        let id = self.nodes.len();
        let depth = self.nodes[parent].depth + 1;
        self.nodes.push(Node {
            parent: Some(parent),
            action,
            pass,
            hash,
            depth,
            children: Vec::new(),
            result: None,
            comments: Vec::new(),
            glyphs: Vec::new(),
        });
        self.nodes[parent].children.insert(children_index, id);
        (id, true)
    }

    /// Drops the results written on nodes that have continuations (a result ends a line).
    pub(crate) fn keep_results_on_leaves(&mut self) {
        for node in &mut self.nodes {
            if !node.children.is_empty() {
                node.result = None;
            }
        }
    }

    /// Whether two trees have the same start, the same actions in the same order at every node
    /// and the same results.
    pub fn same_as(&self, other: &GameTree) -> bool {
        self.start.hash() == other.start.hash()
            && self.len() == other.len()
            && self.walk().zip(other.walk()).all(|(a, b)| {
                self.action(a) == other.action(b)
                    && self.is_pass(a) == other.is_pass(b)
                    && self.result(a) == other.result(b)
                    && self.children(a).len() == other.children(b).len()
            })
    }
}

/// The iterator of [`GameTree::walk`].
#[derive(Debug)]
pub struct Walk<'a> {
    tree: &'a GameTree,
    stack: Vec<NodeId>,
}

impl Iterator for Walk<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let node = self.stack.pop()?;
        self.stack.extend(self.tree.children(node).iter().rev());
        Some(node)
    }
}

/// The turn number (as a record writes it, `N.`) and player of the action played `depth`
/// actions after `start`.
pub fn serial(start: &Position, depth: usize) -> (u32, Color) {
    let k = depth + usize::from(start.to_move() == Color::Black);
    let turn = (start.present_turn().max(0) as u32).saturating_add((k / 2) as u32);
    (turn, if k & 1 == 0 { Color::White } else { Color::Black })
}
