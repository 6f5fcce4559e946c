//! What a game keeps written out for its view (API.md's game state): the JSON of each board's
//! pieces, of its actions' texts and of a move, so that a view is written without walking the
//! game's history again (the view is a loaded server's hot path).

use crate::terms::color_name;
use chess5d_rules::{Board, BoardId, Coord, Move, MoveKind, Position, Square};
use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;
use std::sync::Mutex;

/// A square's coordinates with the names the page shows.
#[derive(Debug, Serialize)]
pub(crate) struct CoordView {
    l: i32,
    t: i32,
    label: String,
    turn: i32,
    #[serde(serialize_with = "as_text")]
    sq: Square,
    name: String,
}

impl CoordView {
    pub(crate) fn new(pos: &Position, c: Coord) -> CoordView {
        CoordView {
            l: c.board.l,
            t: c.board.t,
            label: pos.timeline_label(c.board.l),
            turn: c.board.turn(),
            sq: c.square,
            name: pos.coord_name(c),
        }
    }
}

/// A move as the API writes it.
#[derive(Debug, Serialize)]
pub(crate) struct MoveView {
    from: CoordView,
    to: CoordView,
    long: String,
    promotion: Option<char>,
    kind: &'static str,
    capture: bool,
}

impl MoveView {
    pub(crate) fn new(pos: &Position, m: &Move) -> MoveView {
        MoveView {
            from: CoordView::new(pos, m.from),
            to: CoordView::new(pos, m.to),
            long: chess5d_notation::long::write_move(m, pos.even()),
            promotion: m.promotion.map(|r| r.letter()),
            kind: match m.kind {
                MoveKind::Normal | MoveKind::DoubleStep => "normal",
                MoveKind::EnPassant => "en-passant",
                MoveKind::Castle { .. } => "castle",
                MoveKind::Hop => "hop",
                MoveKind::Branch => "branch",
            },
            capture: m.captured.is_some(),
        }
    }
}

/// One piece on a board.
#[derive(Debug, Serialize)]
struct PieceView {
    #[serde(serialize_with = "as_text")]
    sq: Square,
    p: char,
    c: &'static str,
}

/// The pieces of the boards shown, written out once per board: a board never changes once it
/// is in the multiverse, and writing the pieces of every board took most of a view's time.
/// Kept by board id with the board itself, since the board at an id changes when moves of the
/// action being built are taken back and played otherwise.
#[derive(Debug, Default)]
pub(crate) struct PieceCache {
    boards: Mutex<HashMap<BoardId, (Board, Box<RawValue>)>>,
    /// The length of the last view written (the next one is written into that much room).
    pub(crate) last_len: AtomicUsize,
}

/// A copy starts empty (a cache: the copy writes its boards again when asked).
impl Clone for PieceCache {
    fn clone(&self) -> PieceCache {
        PieceCache::default()
    }
}

impl PieceCache {
    /// About the bytes the cache holds: each board kept with its written pieces.
    pub(crate) fn bytes(&self) -> usize {
        let cache = self.boards.lock().unwrap_or_else(|e| e.into_inner());
        let entry = std::mem::size_of::<(BoardId, (Board, Box<RawValue>))>();
        cache.values().map(|(_, raw)| entry + raw.get().len()).sum()
    }

    /// Writes the boards of `pos` as a list, each by `board` with its cached pieces (adding what
    /// is missing).
    pub(crate) fn write<S: Serializer>(
        &self,
        pos: &Position,
        s: S,
        board: impl Fn(BoardId, &RawValue, &mut S::SerializeSeq) -> Result<(), S::Error>,
    ) -> Result<S::Ok, S::Error> {
        let mut cache = self.boards.lock().unwrap_or_else(|e| e.into_inner());
        let mut seq = s.serialize_seq(None)?;
        let mut shown = 0;
        for (id, b) in pos.boards() {
            let entry = cache.entry(id).or_insert_with(|| (b.clone(), pieces(b)));
            if entry.0 != *b {
                *entry = (b.clone(), pieces(b));
            }
            board(id, &entry.1, &mut seq)?;
            shown += 1;
        }
        // Boards taken back (the game's or a reviewed position's) are forgotten now and then.
        if cache.len() > 2 * shown + 64 {
            cache.clear();
        }
        seq.end()
    }
}

/// The pieces of a board as the page reads them.
fn pieces(b: &Board) -> Box<RawValue> {
    let list: Vec<PieceView> = b
        .pieces()
        .map(|(sq, p)| PieceView {
            sq,
            p: p.role().letter(),
            c: color_name(p.color()),
        })
        .collect();
    raw(&list)
}

fn as_text<S: Serializer>(v: &impl std::fmt::Display, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// `[]` as a raw JSON value.
pub(crate) fn empty_list() -> Box<RawValue> {
    RawValue::from_string("[]".into()).expect("[] is JSON")
}

/// Writes `v` as a raw JSON value.
pub(crate) fn raw(v: &impl Serialize) -> Box<RawValue> {
    serde_json::value::to_raw_value(v).unwrap_or_else(|_| empty_list())
}

/// The cached texts of a game's actions: the list the page shows and the moves of the last
/// action, both written out once per submitted action.
#[derive(Clone, Debug)]
pub(crate) struct ActionTexts {
    /// The entries of the list, written and joined by commas.
    entries: String,
    pub(crate) list: Box<RawValue>,
    pub(crate) last: Box<RawValue>,
}

impl Default for ActionTexts {
    fn default() -> Self {
        ActionTexts {
            entries: String::new(),
            list: empty_list(),
            last: empty_list(),
        }
    }
}

impl ActionTexts {
    /// The bytes of its texts.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() + self.list.get().len() + self.last.get().len()
    }

    /// Appends an entry to the list.
    pub(crate) fn push(&mut self, entry: &Value) {
        if !self.entries.is_empty() {
            self.entries.push(',');
        }
        self.entries.push_str(&entry.to_string());
        self.list = RawValue::from_string(format!("[{}]", self.entries)).unwrap_or_else(|_| empty_list());
    }
}
