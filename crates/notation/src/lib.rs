//! Notations of *5D Chess With Multiverse Time Travel*: read and write 5DPGN, 5DFEN and the
//! long coordinate form; read the dialects met in the wild (5d-chess-js, alexbay's action
//! notation, the seed GUI's coordinate notation and FEN proposal) and the 5d-chess-js JSON.
//!
//! Text is first parsed into notation structures ([`PgnGame`], [`SanMove`], [`LongMove`],
//! [`FenBoard`]...), which know nothing of the rules; they are then *resolved* against a
//! [`Position`] of the rules crate. Syntax errors ([`ParseError`]) carry a line and column;
//! legality errors ([`ResolveError`]) carry the action number, the move text, its place and the
//! rules' reason.
//!
//! [`chessjs_order::sort_moves`] puts moves in the order the JavaScript library 5d-chess-js
//! 1.2.1 lists them.
//!
//! ```
//! use chess5d_notation::{load, write_5dpgn, full_state_hash};
//!
//! let text = "[Board \"Standard\"]\n\n1. e4 / e5\n2. Nf3 / (0T2)Nb8>>(0T1)b6~\n";
//! let loaded = load(text).unwrap();
//! assert_eq!(loaded.game().actions().len(), 4);
//! assert_eq!(loaded.game().position().timeline_count(), 2);
//!
//! // Canonical output reads back to the same position.
//! let written = write_5dpgn(&loaded);
//! assert!(written.contains("2. Nf3 / (0T2)Nb8>>(0T1)b6~"));
//! let again = load(&written).unwrap();
//! assert_eq!(full_state_hash(again.game().position()), full_state_hash(loaded.game().position()));
//! ```
#![deny(missing_docs)]

pub mod alexbay;
pub mod chessjs;
pub mod chessjs_order;
pub mod coordinate;
mod coords;
mod diagram;
mod error;
pub mod fen;
pub mod json;
pub mod long;
pub mod multi;
pub mod pgn;
mod replay;
pub mod san;
mod scan;
pub mod start;
mod tree;

pub use coords::{BoardRef, MoveBoard, Timeline};
pub use diagram::diagram;
pub use error::{Error, ParseError, Reason, ResolveError, Span, StartError, Warning};
pub use fen::{full_state_hash, FenBoard};
pub use long::LongMove;
pub use multi::{GameText, Games};
pub use pgn::PgnGame;
pub use san::{NormalSan, RelativeBoard, SanMove};
pub use tree::{serial, GameTree, NodeId, Walk};

use std::sync::OnceLock;

use chess5d_rules::{Game, Move, Position};

/// The notation a text was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// 5DPGN (and its dialects: 5d-chess-js export, game recorder long SAN).
    Pgn,
    /// Only 5DFEN boards, no moves.
    Fen,
    /// The 5d-chess-js / alexbay action notation (`1w. 1:e2:e3`).
    Alexbay,
    /// The long coordinate form, one action per line.
    Long,
    /// The seed GUI's coordinate notation `(x,y,T,L)(x,y,T,L)`.
    Coordinate,
    /// The seed GUI's FEN proposal.
    GuiFen,
    /// The 5d-chess-js JSON export (a list of actions), or this crate's JSON game object.
    Json,
}

/// A game read from text: headers, start position and every line read.
///
/// The tree is the one truth of the actions: [`game`](Self::game) is its main line (with the
/// moves of an unfinished last action, if the record ended in one), replayed on first use and
/// forgotten whenever the tree is changed ([`tree_mut`](Self::tree_mut),
/// [`set_game`](Self::set_game)).
#[derive(Clone, Debug)]
pub struct LoadedGame {
    /// The notation it was read from.
    pub format: Format,
    /// The headers, in order, as written.
    pub headers: Vec<(String, String)>,
    /// Every line read (the main line and its variations), from the start position.
    tree: GameTree,
    /// The moves of an action left under way after the main line's last action (a
    /// 5d-chess-js record can end in its move buffer); no tree node holds them.
    pending: Vec<Move>,
    /// The tree's main line as a game, `pending` played: a cache, filled by the readers that
    /// played it anyway or on first use.
    game: OnceLock<Game>,
    /// The result token written at the end of the moves, if any.
    pub result: Option<String>,
    /// Remarks made while reading (e.g. a capture mark on a move that captures nothing).
    pub warnings: Vec<Warning>,
}

impl LoadedGame {
    /// A loaded game for a start position with no action, no header.
    pub fn new(format: Format, start: Position) -> LoadedGame {
        LoadedGame::read(format, Vec::new(), GameTree::new(start), None, Vec::new())
    }

    /// A loaded game with one line: `game`'s actions (and the moves of its action under way).
    pub fn of_game(format: Format, game: Game) -> LoadedGame {
        let mut loaded = LoadedGame::new(format, game.start().clone());
        loaded.set_game(game);
        loaded
    }

    /// What a reader made: its tree (the start is the tree's), with the main line's game if
    /// the reader played it (the same actions, so it is kept rather than replayed; the moves
    /// it left under way are kept too).
    pub(crate) fn read(
        format: Format,
        headers: Vec<(String, String)>,
        tree: GameTree,
        game: Option<Game>,
        warnings: Vec<Warning>,
    ) -> LoadedGame {
        debug_assert!(game.as_ref().is_none_or(|g| {
            let main = tree.main_line();
            tree.start().hash() == g.start().hash()
                && main.len() == g.actions().len()
                && main.iter().zip(g.actions()).all(|(&n, a)| tree.action(n) == a)
        }));
        LoadedGame {
            format,
            headers,
            tree,
            pending: game.as_ref().map(Game::pending_moves).unwrap_or_default(),
            game: game.map(OnceLock::from).unwrap_or_default(),
            result: None,
            warnings,
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        self.tree.start()
    }

    /// The game: the start position plus the actions of the tree's main line, then the moves
    /// of the action left under way (those that still play after a change of the tree).
    pub fn game(&self) -> &Game {
        self.game.get_or_init(|| LoadedGame::replay(&self.tree, &self.pending))
    }

    /// The game, taken out (see [`game`](Self::game)).
    pub fn into_game(self) -> Game {
        match self.game.into_inner() {
            Some(game) => game,
            None => LoadedGame::replay(&self.tree, &self.pending),
        }
    }

    fn replay(tree: &GameTree, pending: &[Move]) -> Game {
        let mut game = tree.main_game();
        for m in pending {
            if game.make_move(m).is_err() {
                break;
            }
        }
        game
    }

    /// Every line read: the main line (the [`game`](Self::game)) and its variations.
    pub fn tree(&self) -> &GameTree {
        &self.tree
    }

    /// Every line read, taken out (see [`tree`](Self::tree)).
    pub fn into_tree(self) -> GameTree {
        self.tree
    }

    /// The tree, to change: the game is replayed from it when next asked for.
    pub fn tree_mut(&mut self) -> &mut GameTree {
        self.game = OnceLock::new();
        &mut self.tree
    }

    /// Replaces every line by `game`'s (variations and comments are dropped, the start becomes
    /// the game's; the moves of its action under way are kept).
    pub fn set_game(&mut self, game: Game) {
        self.tree = GameTree::from_game(&game);
        self.pending = game.pending_moves();
        self.game = OnceLock::from(game);
    }

    /// A header's value, by name, ignoring case.
    pub fn header(&self, name: &str) -> Option<&str> {
        start::header(&self.headers, name)
    }
}

/// Guesses the notation of a text.
pub fn detect(text: &str) -> Format {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') || (trimmed.starts_with('[') && trimmed[1..].trim_start().starts_with(['{', ']'])) {
        return Format::Json;
    }
    let movetext: Vec<&str> = trimmed
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('['))
        .collect();
    if let Some(first) = movetext.first() {
        if alexbay::looks_like(first) {
            return Format::Alexbay;
        }
        if first.starts_with("(") && first.contains(',') && !first.contains('T') {
            return Format::Coordinate;
        }
        if coordinate::looks_like_gui_fen(first) {
            return Format::GuiFen;
        }
        if long::looks_like(first) && movetext.iter().all(|l| long::looks_like(l)) {
            return Format::Long;
        }
        return Format::Pgn;
    }
    if trimmed.contains(":") && !trimmed.contains('"') {
        return Format::Fen;
    }
    Format::Pgn
}

/// Reads a game in any supported notation (see [`detect`]).
pub fn load(text: &str) -> Result<LoadedGame, Error> {
    load_at(text, 1)
}

/// Reads a game that starts on line `first_line` of a larger text (one game of a multi-game
/// file, see [`Games`]): 5DPGN errors and spans count lines of that text.
pub fn load_at(text: &str, first_line: usize) -> Result<LoadedGame, Error> {
    let text = text.trim_start_matches('\u{feff}');
    match detect(text) {
        Format::Json => json::read(text),
        Format::Alexbay => alexbay::read(text),
        Format::Coordinate => coordinate::read(text, None),
        Format::GuiFen => coordinate::read_gui_fen(text),
        Format::Long => long::read_game(text, None),
        Format::Fen => fen::read_position(text, None).map(|p| LoadedGame::new(Format::Fen, p)),
        Format::Pgn => {
            if xel_like(text) {
                return Err(Error::Parse(ParseError::new(
                    Span::new(first_line.max(1), 1),
                    "5DPGN; this looks like the .4xel notation, whose boardless moves cannot be read reliably",
                    text.split_whitespace().next().unwrap_or(""),
                )));
            }
            pgn::PgnGame::parse_at(text, first_line)?.play()
        }
    }
}

fn xel_like(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    (first.starts_with('w') || first.starts_with('b')) && first.contains('T') && first.ends_with('.')
}

/// The game as canonical 5DPGN, variations included (see [`pgn::write_tree`]).
pub fn write_5dpgn(game: &LoadedGame) -> String {
    let result = game.result.as_deref().or_else(|| game.header("Result"));
    pgn::write_tree(game.tree(), &game.headers, result)
}

/// The current position (every board) as a custom-board 5DPGN header block.
pub fn write_5dfen(pos: &Position) -> String {
    let mut out = format!("[Board \"custom\"]\n[Size \"{}\"]\n", pos.size());
    if pos.promotions() != [chess5d_rules::Role::Queen] {
        let letters: Vec<String> = pos.promotions().iter().map(|r| r.letter().to_string()).collect();
        out.push_str(&format!("[Promotions \"{}\"]\n", letters.join(",")));
    }
    for b in fen::write_boards(pos) {
        out.push_str(&b);
        out.push('\n');
    }
    out
}

/// The actions of a game in long form, one action per line.
pub fn write_long(game: &Game) -> String {
    let even = game.start().even();
    let mut out = String::new();
    for a in game.actions() {
        out.push_str(&long::write_action(&a.moves, even));
        out.push('\n');
    }
    out
}

/// The game as JSON: the 5d-chess-js action list wrapped with the start position (see
/// [`json::write_game`]).
pub fn write_json(game: &LoadedGame) -> String {
    json::write_game(game)
}
