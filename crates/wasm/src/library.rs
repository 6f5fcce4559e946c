//! The state and verbs of 5d-chess-js 1.2's `Chess` class, in Rust: a game (start position,
//! submitted actions, the moves of the action under way) with that library's objects (as the
//! compact numbers of [`crate::objects`]) and notation (the dialect of
//! [`chess5d_notation::chessjs`]). The JavaScript class is a thin layer over this (see `js/`).

use crate::error::Error;
use crate::objects::{self, Marks};
use chess5d_notation::alexbay::{self, AlexbayMove};
use chess5d_notation::chessjs::{self, Tokens};
use chess5d_notation::json::read_action_moves;
use chess5d_notation::FenBoard;
use chess5d_notation::{LongMove, SanMove};
use chess5d_rules::{
    Board, BoardId, Budget, Color, Game, LegalActions, Move, Outcome, Piece, Position, Role, Setup, Size, Square,
    Variant, VARIANTS,
};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::str::FromStr;

/// The work allowed to prove checkmate, stalemate or a legal action: far more than any game
/// needs (a verdict the search cannot reach within it is reported as an error, never guessed).
pub const VERDICT_BUDGET: Budget = Budget { tests: 200_000_000 };

/// The most actions `actions()` lists without an explicit limit (beyond, the list itself
/// would not fit in memory: give a limit, or iterate).
pub const MAX_ACTIONS: usize = 200_000;

/// The variants 5d-chess-js 1.2 knows, by its short names, in the order of its `variants`.
pub const LIBRARY_VARIANTS: [&str; 7] = [
    "standard",
    "defended_pawn",
    "half_reflected",
    "princess",
    "turn_zero",
    "two_timelines",
    "reversed_royalty",
];

/// The short names of 5d-chess-js (`standard`, `defended_pawn`...), for every official variant.
pub fn short_name(v: &Variant) -> String {
    let name = v.name.strip_prefix("Standard - ").unwrap_or(v.name);
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// The variants as the `variants` field lists them (`{name, shortName}`): with `all`, every
/// official variant of chess5d and `Custom`; else the seven of 5d-chess-js 1.2 and `Custom`,
/// as that library lists them.
pub fn variants_json(all: bool) -> String {
    let mut list: Vec<Value> = VARIANTS
        .iter()
        .filter(|v| all || LIBRARY_VARIANTS.contains(&short_name(v).as_str()))
        .map(|v| json!({"name": v.name, "shortName": short_name(v)}))
        .collect();
    if !all {
        list.sort_by_key(|v| {
            LIBRARY_VARIANTS
                .iter()
                .position(|s| Some(*s) == v["shortName"].as_str())
        });
    }
    list.push(json!({"name": "Custom", "shortName": "custom"}));
    Value::Array(list).to_string()
}

/// A variant by its name (`Standard - Princess`), short name (`princess`) or `Board` header,
/// in any case.
fn variant_named(name: &str) -> Option<&'static Variant> {
    let n = name.trim();
    Variant::by_name(n).or_else(|| {
        VARIANTS
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(n) || short_name(v).eq_ignore_ascii_case(n))
    })
}

/// Whether a role keeps an "unmoved" mark in our rules (castling, double steps).
fn tracks_moves(role: Role) -> bool {
    matches!(role, Role::Pawn | Role::Brawn | Role::King | Role::Rook)
}

/// The start a `variant` argument names: empty (Standard), a variant's name or short name,
/// 5DPGN/5DFEN header text (a custom start), or a Board object in JSON.
pub fn start_of(variant: &str) -> Result<Position, Error> {
    let v = variant.trim();
    if v.is_empty() {
        return Ok(Position::standard());
    }
    if v.starts_with('{') {
        return board_object_start(v);
    }
    if v.starts_with('[') {
        let loaded = chess5d_notation::load(v).map_err(|e| Error::unreadable("the custom board", e))?;
        return Ok(loaded.start().clone());
    }
    if v.eq_ignore_ascii_case("custom") {
        return Err(Error::CustomNeedsBoard);
    }
    variant_named(v)
        .map(Variant::position)
        .ok_or_else(|| Error::UnknownVariant(v.to_string()))
}

/// A custom start from a Board object (`{width, height, timelines: [{timeline, turns: [{turn,
/// player, pieces: [{piece, player, position: {coordinate}, hasMoved}]}]}]}`); timeline
/// numbers as the library writes them (in an even game `-1` and `1` are `-0` and `+0`; label
/// strings `"-0"`, `"+0"` are read too).
fn board_object_start(text: &str) -> Result<Position, Error> {
    let bad = |why: String| Error::BadStart(why);
    let v: Value = serde_json::from_str(text).map_err(|e| Error::unreadable("the Board object", e))?;
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_i64);
    let width = num(&v, "width").unwrap_or(8);
    let height = num(&v, "height").unwrap_or(8);
    let size = u8::try_from(width)
        .ok()
        .zip(u8::try_from(height).ok())
        .and_then(|(w, h)| Size::new(w, h))
        .ok_or_else(|| {
            bad(format!(
                "the Board object's size {width}x{height} is not one of 1x1 to 8x8"
            ))
        })?;
    let timelines = v
        .get("timelines")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("the Board object has no 'timelines' list".into()))?;
    let label = |t: &Value| t.get("timeline").cloned().unwrap_or(Value::Null);
    let even = timelines.iter().any(|t| {
        let l = label(t);
        l.as_str().is_some_and(|s| s.len() == 2 && s.ends_with('0'))
    }) || (!timelines.iter().any(|t| label(t).as_i64() == Some(0))
        && timelines.iter().any(|t| label(t).as_i64().is_some()));
    let mut boards = Vec::new();
    for t in timelines {
        let l = match label(t) {
            Value::Number(n) => {
                let n = n
                    .as_i64()
                    .ok_or_else(|| bad("a timeline number must be an integer".into()))? as i32;
                objects::timeline_index(n, even)
                    .ok_or_else(|| bad(format!("timeline {n} cannot be in a game with an even start")))?
            }
            Value::String(s) => {
                chess5d_rules::parse_timeline(&s, even).ok_or_else(|| bad(format!("bad timeline '{s}'")))?
            }
            _ => return Err(bad("a Timeline object needs its 'timeline'".into())),
        };
        let turns = t
            .get("turns")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("a Timeline object needs 'turns'".into()))?;
        for turn in turns {
            let n = num(turn, "turn").ok_or_else(|| bad("a Turn object needs its 'turn'".into()))? as i32;
            let color = match turn.get("player").and_then(Value::as_str) {
                Some("black") => Color::Black,
                Some("white") => Color::White,
                _ => {
                    return Err(bad(format!(
                        "turn {n} of timeline {l}: 'player' must be 'white' or 'black'"
                    )))
                }
            };
            let t_index = 2 * n + i32::from(color == Color::Black);
            let mut board = Board::empty();
            for p in turn.get("pieces").and_then(Value::as_array).into_iter().flatten() {
                let letter = p.get("piece").and_then(Value::as_str).unwrap_or("");
                let role = chessjs::role_of_letter(letter).ok_or_else(|| bad(format!("unknown piece '{letter}'")))?;
                let pc = match p.get("player").and_then(Value::as_str) {
                    Some("black") => Color::Black,
                    _ => Color::White,
                };
                let pos = p.get("position");
                let sq = match pos.and_then(|pos| pos.get("coordinate")).and_then(Value::as_str) {
                    Some(c) => Square::parse(c).ok_or_else(|| bad(format!("bad square '{c}'")))?,
                    None => {
                        let rank = pos.and_then(|p| num(p, "rank"));
                        let file = pos.and_then(|p| num(p, "file"));
                        rank.zip(file)
                            .and_then(|(r, f)| Square::try_new(f as i32 - 1, r as i32 - 1))
                            .ok_or_else(|| bad("a Piece object needs position.coordinate or rank and file".into()))?
                    }
                };
                if sq.x() >= i32::from(size.width) || sq.y() >= i32::from(size.height) {
                    return Err(bad(format!("the square {sq} is off a {width}x{height} board")));
                }
                let moved = p.get("hasMoved").and_then(Value::as_bool).unwrap_or(false);
                board.set(sq, Some(Piece::new(role, pc, tracks_moves(role) && !moved)));
            }
            boards.push((BoardId::new(l, t_index), board));
        }
    }
    let promotions = vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
    Position::from_setup(Setup {
        size,
        even,
        boards,
        promotions,
    })
    .map_err(|e| bad(e.to_string()))
}

/// The `format` argument of `moves()`, `actions()`, `checks()` and `export()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Objects (compact numbers, built into objects by the caller).
    Object,
    /// JSON text of the objects (compact numbers here too: the caller writes the text).
    Json,
    /// 5DPGN text in the library's dialect, with its tokens.
    Text(Tokens),
}

impl Format {
    /// Reads the argument strictly (empty: `object`).
    pub fn parse(s: &str) -> Result<Format, Error> {
        match s {
            "" | "object" => Ok(Format::Object),
            "json" => Ok(Format::Json),
            other => Tokens::parse(other)
                .map(Format::Text)
                .ok_or_else(|| Error::UnknownFormat {
                    format: other.to_string(),
                }),
        }
    }

    /// Reads the argument as 5d-chess-js 1.2 does: text when it contains `5dpgn` or
    /// `notation` (with the tokens it contains), `json` exactly, anything else `object`.
    pub fn lenient(s: &str) -> Format {
        Format::parse(s).unwrap_or(Format::Object)
    }
}

/// What a list call gives: numbers for objects (the caller builds them) or text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Compact numbers (see [`crate::objects`]).
    Numbers(Vec<i32>),
    /// Text (notation, or JSON).
    Text(String),
    /// An empty array in every format (the library's answer in checkmate or stalemate).
    Nothing,
}

/// The game of a `Chess` object.
#[derive(Clone, Debug)]
pub struct Library {
    game: Game,
    /// The imported record's own headers (Event, White...), kept for export.
    headers: Vec<(String, String)>,
    /// The short name the game was started from (`standard`), for export's `Board` header.
    variant: Option<String>,
    /// Which pieces have moved, per board (5d-chess-js's `hasMoved`).
    marks: Marks,
}

impl Default for Library {
    fn default() -> Self {
        Library::from_game(Game::new(Position::standard()), Some("standard".into()))
    }
}

/// `1w. ` / `12b.` of the action notation: the number and colour, and the rest.
fn split_action_prefix(token: &str) -> (Option<(i32, Color)>, &str) {
    let t = token.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let rest = &t[digits..];
        let color = if rest.starts_with("w.") {
            Some(Color::White)
        } else if rest.starts_with("b.") {
            Some(Color::Black)
        } else {
            None
        };
        if let (Some(c), Ok(n)) = (color, t[..digits].parse::<i32>()) {
            return (Some((n, c)), rest[2..].trim_start());
        }
    }
    (None, t)
}

/// Reads one move written in any notation the library takes, for the position `pos`.
pub fn read_one_move(pos: &Position, text: &str) -> Result<Move, Error> {
    let t = text.trim();
    if t.is_empty() {
        return Err(Error::unreadable("the move", "it is empty"));
    }
    if t.starts_with('{') {
        let t = &renumber(t, pos.even());
        let jm = chess5d_notation::json::read_move(t).map_err(|e| Error::unreadable("the Move object", e))?;
        return jm.resolve(pos).map_err(|e| Error::illegal(t, e));
    }
    let (_, body) = split_action_prefix(t);
    let body = body.trim_end_matches(['+', '#', '=', '~']).trim_end();
    if body.contains(':') {
        let m = AlexbayMove::from_str(body).map_err(|e| Error::unreadable(format!("the move '{t}'"), e))?;
        return m.resolve(pos).map_err(|e| Error::illegal(t, e));
    }
    if let Ok(m) = LongMove::from_str(body) {
        return m.resolve(pos).map_err(|e| Error::illegal(t, e));
    }
    let san = SanMove::from_str(body).map_err(|e| Error::unreadable(format!("the move '{t}'"), e))?;
    san.resolve(pos).map(|(m, _)| m).or_else(|e| {
        // A text that fits several moves names the one the library writes so: 1.2.1 writes
        // a plain king move `Kb2` beside another king's castling `Kdb2` to the same square.
        let written = |m: &Move| {
            [
                Tokens::default(),
                Tokens::parse("5dpgn_superphysical").unwrap_or_default(),
            ]
            .iter()
            .any(|&k| chessjs::move_text(pos, m, k).trim_end_matches(['+', '#', '=', '~']) == body)
        };
        match &e {
            chess5d_notation::Reason::Ambiguous(_) => {
                let mut fits = pos.playable_moves().into_iter().filter(|m| written(m));
                match (fits.next(), fits.next()) {
                    (Some(m), None) => Ok(m),
                    _ => Err(Error::illegal(t, e)),
                }
            }
            _ => Err(Error::illegal(t, e)),
        }
    })
}

/// Splits an action's text into its moves: lines (or `;`), and in 5DPGN the moves of a line
/// (move numbers and `/` dropped).
fn split_action(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.split(['\n', ';']) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if split_action_prefix(line).1.contains(':') {
            out.push(line.to_string());
            continue;
        }
        for token in line.split_whitespace() {
            let numbered = token.trim_end_matches('.').bytes().all(|b| b.is_ascii_digit())
                || token.ends_with("b.") && token[..token.len() - 2].bytes().all(|b| b.is_ascii_digit());
            if token == "/" || numbered || token.starts_with("(>L") || token.starts_with("(~T") {
                continue;
            }
            out.push(token.to_string());
        }
    }
    out
}

impl Library {
    fn from_game(game: Game, variant: Option<String>) -> Library {
        Library::from_game_text(game, variant, "")
    }

    /// A library of a game read from `text` (whose 5DFEN boards give the unmoved marks).
    fn from_game_text(game: Game, variant: Option<String>, text: &str) -> Library {
        let builtin = chessjs::builtin_variant(game.start()).is_some();
        Library::from_game_marked(game, variant, text, builtin)
    }

    /// [`Library::from_game_text`] where the caller knows whether the start is one of the
    /// library's built-in variants (a named one: no start to write out and compare).
    fn from_game_marked(game: Game, variant: Option<String>, text: &str, builtin: bool) -> Library {
        let starred = if text.is_empty() {
            HashMap::new()
        } else {
            starred_squares(text, game.start().even())
        };
        let marks = Marks::of_game(&game, builtin, &starred);
        Library {
            game,
            headers: Vec::new(),
            variant,
            marks,
        }
    }

    /// A new game from `variant` (see [`start_of`]).
    pub fn new(variant: &str) -> Result<Library, Error> {
        if variant.trim().is_empty() {
            // The standard start (a plain `new Chess()`, the first answer of most programs):
            // as below, without the code that looks up a variant or scans a record for marks
            // (in WebAssembly each function is compiled on its first call).
            return Ok(Library::from_game_marked(
                Game::new(Position::standard()),
                Some("standard".into()),
                "",
                true,
            ));
        }
        let game = Game::new(start_of(variant)?);
        Ok(match named_builtin(variant) {
            // A named variant: whether it is built in is known from its name, without writing
            // its start's 5DFEN and the official starts' to compare (the first answer's work).
            Some(builtin) => Library::from_game_marked(game, variant_short(variant), variant, builtin),
            None => Library::from_game_text(game, variant_short(variant), variant),
        })
    }

    /// The position now (with the moves of the action under way).
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The result the imported record's `Result` header gives (`1-0`, `0-1`, `1/2-1/2`), if any.
    pub fn result(&self) -> Option<String> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Result"))
            .map(|(_, v)| v.trim().to_string())
            .filter(|r| ["1-0", "0-1", "1/2-1/2"].contains(&r.as_str()))
    }

    /// Whether the game was read as a custom start (`[Board "Custom"]` with 5DFEN boards, or
    /// the variant `custom`): the library's export writes it back so.
    fn read_as_custom(&self) -> bool {
        self.variant.as_deref() == Some("custom")
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn set_game(&mut self, game: Game, headers: Vec<(String, String)>, variant: Option<String>) {
        self.set_game_text(game, headers, variant, "");
    }

    fn set_game_text(&mut self, game: Game, headers: Vec<(String, String)>, variant: Option<String>, text: &str) {
        *self = Library::from_game_text(game, variant, text);
        self.headers = headers;
    }

    /// Back to the start of `variant` (empty: this game's start).
    pub fn reset(&mut self, variant: &str) -> Result<(), Error> {
        if variant.trim().is_empty() {
            let (start, v) = (self.game.start().clone(), self.variant.clone());
            self.set_game(Game::new(start), Vec::new(), v);
        } else {
            self.set_game_text(
                Game::new(start_of(variant)?),
                Vec::new(),
                variant_short(variant),
                variant,
            );
        }
        Ok(())
    }

    /// Replays a record from its start: any notation our notation crate reads (5DPGN with its
    /// headers and 5DFEN boards, the long form, the action notation `1w. 1:e2:e3`, the
    /// library's JSON action list). `variant` gives the start when the text does not
    /// (`custom` takes the text's own 5DFEN boards). On an error nothing changes.
    pub fn import(&mut self, text: &str, variant: &str) -> Result<(), Error> {
        let t = text.trim();
        if t.is_empty() {
            return self.reset(variant);
        }
        let has_start = t.contains("[Board") || t.contains(":w]") || t.contains(":b]");
        let custom = variant.trim().eq_ignore_ascii_case("custom");
        if t.starts_with('{') || (t.starts_with('[') && !has_start && serde_json::from_str::<Value>(t).is_ok()) {
            let start = start_of(variant)?;
            let mut loaded = chess5d_notation::json::read_actions(&renumber(t, start.even()), start)
                .map_err(|e| Error::unreadable("the record", e))?;
            let headers = std::mem::take(&mut loaded.headers);
            self.set_game(loaded.into_game(), headers, variant_short(variant));
            return Ok(());
        }
        if has_start {
            let mut loaded = chessjs::load(t).map_err(|e| Error::unreadable("the record", e))?;
            let board = chess5d_notation::start::header(&loaded.headers, "Board").map(str::to_string);
            let headers = std::mem::take(&mut loaded.headers)
                .into_iter()
                .filter(|(k, _)| !chess5d_notation::start::is_start_header(k))
                .collect();
            let short = board.as_deref().and_then(variant_named).map(short_name).or_else(|| {
                let written = board
                    .as_deref()
                    .is_some_and(|b| b.trim().eq_ignore_ascii_case("custom"));
                (custom || written).then(|| "custom".to_string())
            });
            self.set_game_text(loaded.into_game(), headers, short, t);
            return Ok(());
        }
        let start = start_of(variant)?;
        // Moves alone: replayed from the variant's start, one action per line in the action
        // notation, else as 5DPGN move text.
        if t.lines().all(|l| l.trim().is_empty() || alexbay::looks_like(l.trim())) {
            let mut lib = Library::from_game(Game::new(start), variant_short(variant));
            let mut current: Option<String> = None;
            for (n, line) in t.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let at = |e: Error| Error::unreadable(format!("line {}", n + 1), e);
                let line = line.trim();
                let serial = line.split('.').next().unwrap_or("").to_string();
                if current.as_ref().is_some_and(|c| *c != serial) {
                    lib.submit().map_err(at)?;
                }
                current = Some(serial);
                lib.play_move(line).map_err(at)?;
            }
            if current.is_some() && lib.position().can_submit().is_ok() {
                lib.submit()?;
            }
            *self = lib;
            return Ok(());
        }
        let (headers, fens) = chess5d_notation::start::headers_for(&start);
        let mut record = String::new();
        for (k, v) in &headers {
            record.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        for f in fens {
            record.push_str(&f);
            record.push('\n');
        }
        record.push('\n');
        let added = record.lines().count();
        record.push_str(t);
        let loaded =
            chessjs::load(&record).map_err(|e| Error::unreadable("the record", shift_lines(&e.to_string(), added)))?;
        self.set_game(loaded.into_game(), Vec::new(), variant_short(variant));
        Ok(())
    }

    /// The action number and colour of the action being played, as the action notation
    /// writes them (`1w.`).
    fn action_prefix(&self) -> String {
        format!("{}{}.", self.action_number(), self.game.to_move().letter())
    }

    /// Plays one move of the action under way.
    pub fn play_move(&mut self, text: &str) -> Result<(), Error> {
        let (prefix, _) = split_action_prefix(text);
        if let Some((n, c)) = prefix {
            if n != self.action_number() || c != self.game.to_move() {
                return Err(Error::WrongActionNumber {
                    written: format!("{n}{}.", c.letter()),
                    expected: self.action_prefix(),
                });
            }
        }
        let m = read_one_move(self.game.position(), text).map_err(|e| match e {
            Error::IllegalMove { text, why }
                if self.submittable() && self.game.position().mandatory_boards().is_empty() =>
            {
                Error::IllegalMove {
                    text,
                    why: format!("{why} (the action under way is complete: submit it first, or undo)"),
                }
            }
            e => e,
        })?;
        self.play(&m).map_err(|e| match e {
            Error::IllegalMove { why, .. } => Error::illegal(text, why),
            e => e,
        })
    }

    /// Plays a move already read.
    pub fn play(&mut self, m: &Move) -> Result<(), Error> {
        let (lines, mover) = (self.game.position().timeline_count(), self.game.to_move());
        self.game.make_move(m)?;
        self.marks.after_move(lines, mover, self.game.position(), m);
        Ok(())
    }

    /// Takes back the last move of the action under way.
    pub fn undo(&mut self) -> Result<(), Error> {
        self.game.undo_move().map(|_| ()).ok_or(Error::NothingToUndo)
    }

    /// Whether a move can be taken back.
    pub fn undoable(&self) -> bool {
        !self.game.pending_moves().is_empty()
    }

    /// Ends the action under way.
    pub fn submit(&mut self) -> Result<(), Error> {
        self.game.submit().map_err(Error::CannotSubmit)
    }

    /// Whether [`Library::submit`] would succeed.
    pub fn submittable(&self) -> bool {
        self.game.position().can_submit().is_ok()
    }

    /// Ends the action under way without moving on the boards left to play (they are copied
    /// to the next half-turn): refused when the mover would be in check and, with `detect`
    /// (the library's default, no `skipDetection`), when the side to move is checkmated or
    /// stalemated, as the library refuses it.
    pub fn pass(&mut self, detect: bool) -> Result<(), Error> {
        if detect {
            self.refuse_pass_when_over()?;
        }
        let marks = self.marks.clone();
        self.marks.after_pass(self.game.position());
        if let Err(e) = self.game.pass() {
            self.marks = marks;
            return Err(Error::CannotPass(e));
        }
        Ok(())
    }

    /// Whether [`Library::play_move`] would succeed (played and taken back).
    pub fn moveable(&mut self, text: &str) -> bool {
        if self.play_move(text).is_err() {
            return false;
        }
        let _ = self.undo();
        true
    }

    /// Whether [`Library::pass`] would succeed.
    pub fn passable(&self, detect: bool) -> bool {
        (!detect || self.refuse_pass_when_over().is_ok()) && self.game.position().can_pass().is_ok()
    }

    /// [`Error::GameOver`] when the side to move is checkmated or stalemated (proven; an
    /// undecided search refuses nothing).
    fn refuse_pass_when_over(&self) -> Result<(), Error> {
        match self.outcome() {
            Ok(Some(Outcome::Checkmate)) => Err(Error::GameOver(true)),
            Ok(Some(Outcome::Stalemate)) => Err(Error::GameOver(false)),
            _ => Ok(()),
        }
    }

    /// Plays a whole action (its moves in any notation, or Move objects in JSON) and submits
    /// it; on an error nothing changes.
    pub fn action(&mut self, text: &str) -> Result<(), Error> {
        let before = self.clone();
        let result = self.action_inner(text);
        if result.is_err() {
            *self = before;
        }
        result
    }

    fn action_inner(&mut self, text: &str) -> Result<(), Error> {
        let t = text.trim();
        if t.starts_with('{') || t.starts_with('[') && serde_json::from_str::<Value>(t).is_ok() {
            let t = &renumber(t, self.game.position().even());
            let moves = read_action_moves(t).map_err(|e| Error::unreadable("the action", e))?;
            for jm in moves {
                let m = jm.resolve(self.game.position()).map_err(|e| Error::illegal("", e))?;
                self.play(&m)?;
            }
        } else {
            for m in split_action(t) {
                self.play_move(&m)?;
            }
        }
        self.submit()
    }

    /// The proven outcome for the side to move (`None` while an action is under way).
    fn outcome(&self) -> Result<Option<Outcome>, Error> {
        if !self.game.pending_moves().is_empty() {
            return Ok(None);
        }
        match self.game.position().outcome(VERDICT_BUDGET) {
            Outcome::Unknown => Err(Error::Undecided),
            o => Ok(Some(o)),
        }
    }

    /// Whether the side to move has a legal action of one move, found without the search: with
    /// one board to play, a move on it after which the action can be submitted. `false` says
    /// nothing (the search decides). It spares `moves()` the search in most positions, and the
    /// first `moves()` of a program compiling the search's WebAssembly (`npm run bench`).
    fn has_quick_action(&self) -> bool {
        let pos = self.game.position();
        if !self.game.pending_moves().is_empty() || pos.mandatory_boards().len() != 1 {
            return false;
        }
        let mut after = pos.clone();
        pos.present_moves().iter().any(|m| {
            after.play_unchecked(m);
            let legal = after.can_submit().is_ok();
            after.undo_move();
            legal
        })
    }

    /// Whether the side to move is checkmated (proven).
    pub fn in_checkmate(&self) -> Result<bool, Error> {
        // No check, no mate: the search is needed only in check.
        if !self.game.position().in_check() || self.has_quick_action() {
            return Ok(false);
        }
        Ok(matches!(self.outcome()?, Some(Outcome::Checkmate)))
    }

    /// Whether the side to move is stalemated (proven).
    pub fn in_stalemate(&self) -> Result<bool, Error> {
        if self.game.position().in_check() || self.has_quick_action() {
            return Ok(false);
        }
        Ok(matches!(self.outcome()?, Some(Outcome::Stalemate)))
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.game.position().in_check()
    }

    /// The library's action number: the turn of the side to move's next action.
    pub fn action_number(&self) -> i32 {
        chessjs::action_number(self.game.start(), self.game.actions().len())
    }

    /// `white` or `black`.
    pub fn player(&self) -> &'static str {
        self.game.to_move().name()
    }

    /// A hash of the full position (the MD5 of its 5DFEN boards, notation.md §3).
    pub fn hash(&self) -> String {
        chess5d_notation::full_state_hash(self.game.position())
    }

    /// The moves of the side to move: from the boards that must be played (`present_only`),
    /// else from the playable boards of active timelines (`active_only`) or from every
    /// playable board; with `spatial_only`, no jump. Listed in 5d-chess-js's order, a
    /// promotion once per piece. With detection, none in checkmate or stalemate.
    pub fn moves(
        &self,
        format: Format,
        active_only: bool,
        present_only: bool,
        spatial_only: bool,
        detect: bool,
    ) -> Result<Listing, Error> {
        let pos = self.game.position();
        if detect && !self.has_quick_action() && self.outcome()?.is_some_and(|o| !matches!(o, Outcome::Ongoing(_))) {
            // As the library: an empty array, whatever the format.
            return Ok(Listing::Nothing);
        }
        let mut moves = if present_only {
            pos.present_moves()
        } else if active_only {
            let mut out = Vec::new();
            for b in pos.playable_boards().into_iter().filter(|b| pos.is_active(b.l)) {
                pos.moves_from(b, &mut out);
            }
            out
        } else {
            pos.playable_moves()
        };
        if spatial_only {
            moves.retain(|m| !m.is_jump());
        }
        chess5d_notation::chessjs_order::sort_moves(pos, &mut moves);
        Ok(self.moves_out(pos, &moves, format))
    }

    /// A list of moves of `pos` in a format.
    fn moves_out(&self, pos: &Position, moves: &[Move], format: Format) -> Listing {
        match format {
            Format::Text(tokens) => Listing::Text(lines(moves.iter().map(|m| chessjs::move_text(pos, m, tokens)))),
            Format::Object | Format::Json => {
                let mut out = Vec::with_capacity(moves.len() * objects::MOVE_LEN + 1);
                out.push(moves.len() as i32);
                for m in moves {
                    objects::push_move(&mut out, pos, m);
                }
                Listing::Numbers(out)
            }
        }
    }

    /// The legal actions of the side to move (our proven search), as [`LegalActions`]
    /// filtered: moves only on boards that must be played (`present_only`), only on active
    /// timelines (`active_only`), creating only active timelines (`new_active_only`).
    pub fn actions_iter(
        &self,
        active_only: bool,
        present_only: bool,
        new_active_only: bool,
    ) -> Result<ActionsIter, Error> {
        if !self.game.pending_moves().is_empty() {
            return Err(Error::ActionUnderWay);
        }
        let pos = self.game.position().clone();
        let it = if present_only {
            LegalActions::present_only(&pos, VERDICT_BUDGET)
        } else {
            LegalActions::new(&pos, VERDICT_BUDGET)
        };
        Ok(ActionsIter {
            mandatory: pos.mandatory_boards(),
            number: self.action_number(),
            pos,
            it,
            active_only,
            present_only,
            new_active_only,
        })
    }

    /// Every legal action, as [`Library::actions_iter`] lists them, in a format, at most
    /// `limit` of them (else [`MAX_ACTIONS`], beyond which it is an error).
    pub fn actions(
        &self,
        format: Format,
        active_only: bool,
        present_only: bool,
        new_active_only: bool,
        limit: Option<usize>,
    ) -> Result<Listing, Error> {
        let mut it = self.actions_iter(active_only, present_only, new_active_only)?;
        let mut list = Vec::new();
        while let Some(a) = it.next_action()? {
            if limit.is_some_and(|n| list.len() >= n) {
                break;
            }
            if limit.is_none() && list.len() >= MAX_ACTIONS {
                return Err(Error::TooManyActions(MAX_ACTIONS));
            }
            list.push(a);
        }
        Ok(it.listing(&list, format))
    }

    /// The opponent's moves that capture a royal piece if the side to move passed now (the
    /// library's `checks()`, see [`Position::checks_after_pass`]).
    pub fn checks(&self, format: Format) -> Listing {
        let pos = self.game.position();
        let mut checks = pos.checks_after_pass();
        // The checks are the opponent's moves after a pass: written in that position, in the
        // order of the library's moves() there.
        let mut after = pos.clone();
        after.pass_unchecked();
        chess5d_notation::chessjs_order::sort_moves(&after, &mut checks);
        self.moves_out(&after, &checks, format)
    }

    /// The actions played, as compact numbers (see [`objects::push_action`]).
    pub fn action_history(&self) -> Vec<i32> {
        let mut pos = self.game.start().clone();
        let mut out = vec![self.game.actions().len() as i32];
        for (i, a) in self.game.actions().iter().enumerate() {
            objects::push_action(&mut out, &pos, &a.moves, chessjs::action_number(self.game.start(), i));
            replay(&mut pos, &self.game, i);
        }
        out
    }

    /// The moves of the action under way, as compact numbers.
    pub fn move_buffer(&self) -> Vec<i32> {
        let mut pos = self.game.position().clone();
        let pending = self.game.pending_moves();
        pos.undo_action_moves();
        let mut out = vec![pending.len() as i32];
        for m in &pending {
            objects::push_move(&mut out, &pos, m);
            pos.play_unchecked(m);
        }
        out
    }

    /// The Board object of the position now, as compact numbers.
    pub fn board(&self) -> Vec<i32> {
        let mut out = Vec::new();
        objects::push_board(&mut out, self.game.position(), self.action_number(), &self.marks);
        out
    }

    /// The Board objects of the start and after every action (not the moves under way, as
    /// in the library), as compact numbers: their count, then each.
    pub fn board_history(&self) -> Vec<i32> {
        let start = self.game.start();
        let mut pos = start.clone();
        let mut out = vec![(self.game.actions().len() + 1) as i32];
        objects::push_board(&mut out, &pos, chessjs::action_number(start, 0), &self.marks);
        for i in 0..self.game.actions().len() {
            replay(&mut pos, &self.game, i);
            objects::push_board(&mut out, &pos, chessjs::action_number(start, i + 1), &self.marks);
        }
        out
    }

    /// The record: in the library's dialect (`5dpgn` with tokens, `notation`), its Action
    /// objects (`json`, `object`), our canonical 5DPGN (`canonical`) or the long form
    /// (`long`).
    pub fn export(&self, format: &str) -> Result<Listing, Error> {
        // As 5d-chess-js 1.2 (whose documentation says `object`), the JavaScript default is
        // `5dpgn`; the empty string is a format like any other without `5dpgn` or `notation`.
        match format {
            "object" | "json" => Ok(Listing::Numbers(self.action_history())),
            "canonical" => {
                if self.game.has_pass() {
                    return Err(Error::PassHasNoText);
                }
                let mut headers = vec![("Mode".to_string(), "5D".to_string())];
                headers.extend(self.headers.iter().filter(|(k, _)| k != "Mode").cloned());
                Ok(Listing::Text(chess5d_notation::pgn::write(&self.game, &headers, None)))
            }
            "long" => {
                if self.game.has_pass() {
                    return Err(Error::PassHasNoText);
                }
                Ok(Listing::Text(chess5d_notation::write_long(&self.game)))
            }
            other => {
                // As 5d-chess-js 1.2: a format with neither `5dpgn` nor `notation` in it
                // gives the headers alone.
                let Some(tokens) = Tokens::parse(other) else {
                    return Ok(Listing::Text(chessjs::export_headers(
                        &self.game,
                        self.read_as_custom(),
                    )));
                };
                Ok(Listing::Text(chessjs::export_as(
                    &self.game,
                    tokens,
                    self.read_as_custom(),
                )))
            }
        }
    }

    /// 5DFEN: the start's boards (with `full`, every board of the position now), one per line.
    pub fn fen(&self, full: bool) -> String {
        let pos = if full { self.game.position() } else { self.game.start() };
        chessjs::fen_lines(pos)
    }

    /// The library's `fen(text)`: the 5DFEN boards (with or without 5DPGN headers) are put
    /// into the position now, each replacing the board of its place or added (boards labelled
    /// `-0`/`+0` put into a game without them, or the reverse, replace them all); the game then
    /// starts from there (the library keeps its record, which no longer leads to the boards).
    /// Boards of another size, or a result that is no valid position, are refused and nothing
    /// changes.
    pub fn set_fen(&mut self, text: &str) -> Result<(), Error> {
        let t = text.trim();
        if t.is_empty() {
            // No board to put in: nothing changes (as the library).
            return Ok(());
        }
        let size = self.game.position().size();
        let record = if t.contains("[Board") {
            t.to_string()
        } else {
            format!("[Board \"custom\"]\n[Size \"{}x{}\"]\n{t}\n", size.width, size.height)
        };
        let loaded = chess5d_notation::load(&record).map_err(|e| Error::unreadable("the 5DFEN", e))?;
        let given = loaded.start();
        if given.size() != size {
            return Err(Error::BadStart(format!(
                "its boards are {}, the game's {size}",
                given.size()
            )));
        }
        // Boards labelled for the other kind of game (`-0`/`+0` put into a game of one middle
        // timeline, or the reverse) have no place among the boards there: they replace them.
        // The boards go into the position the action under way started from; its moves are
        // then played again (as the library keeps its move buffer).
        let pending = self.game.pending_moves();
        let mut base = self.game.position().clone();
        base.undo_action_moves();
        let replace_all = given.even() != base.even();
        let mut setup = if !replace_all {
            base.to_setup()
        } else {
            let mut setup = given.to_setup();
            setup.boards.clear();
            setup
        };
        for (id, board) in given.boards() {
            match setup.boards.iter_mut().find(|(b, _)| *b == id) {
                Some(slot) => slot.1 = board.clone(),
                None => setup.boards.push((id, board.clone())),
            }
        }
        let start = Position::from_setup(setup).map_err(|e| Error::BadStart(e.to_string()))?;
        let mut starred = if replace_all {
            HashMap::new()
        } else {
            self.marks_of_position()
        };
        starred.extend(starred_squares(t, start.even()));
        let mut game = Game::new(start);
        for m in &pending {
            game.make_move(m).map_err(|e| {
                Error::BadStart(format!(
                    "the move under way {} no longer fits: {e}",
                    m.long(game.position().even())
                ))
            })?;
        }
        self.marks = Marks::of_game(&game, false, &starred);
        self.game = game;
        self.headers.clear();
        self.variant = None;
        Ok(())
    }

    /// The unmoved squares of the position now's boards (for keeping them across `fen(text)`).
    fn marks_of_position(&self) -> HashMap<BoardId, u64> {
        self.game
            .position()
            .boards()
            .map(|(id, b)| {
                let mark = self.marks.get(id);
                let all: u64 = b.pieces().map(|(sq, _)| 1u64 << sq.index()).fold(0, |a, x| a | x);
                (id, all & !mark)
            })
            .collect()
    }

    /// The position drawn as the library's `print()` draws it ([`chessjs::diagram`]), or
    /// with `ours` as our diagram (boards side by side, timelines as rows, in our labels).
    pub fn print(&self, ours: bool) -> String {
        if ours {
            chess5d_notation::diagram(self.game.position())
        } else {
            // The library's drawing counts one action ahead of its `actionNumber` once an
            // action is played (1, 2, 2, 3, 3...).
            let number = chessjs::action_number(self.game.start(), self.game.actions().len() + 1);
            let first = chessjs::action_number(self.game.start(), 0);
            let shown = if self.game.actions().is_empty() { first } else { number };
            let pending = self.game.pending_moves();
            let mut pos = self.game.position().clone();
            for _ in &pending {
                pos.undo_move();
            }
            let mut stack = Vec::with_capacity(pending.len());
            for m in &pending {
                stack.push(chessjs::stack_text(&pos, m));
                pos.play_unchecked(m);
            }
            chessjs::diagram(self.game.position(), shown, &stack)
        }
    }

    /// The state as a JSON object: the start (5DPGN headers and 5DFEN boards), the actions in
    /// the long form with their passes, the moves under way, the record's headers.
    pub fn state(&self) -> String {
        let (headers, fens) = chess5d_notation::start::headers_for(self.game.start());
        let mut start = String::new();
        for (k, v) in &headers {
            start.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        for f in fens {
            start.push_str(&f);
            start.push('\n');
        }
        let mut pos = self.game.start().clone();
        let mut actions = Vec::new();
        for (i, a) in self.game.actions().iter().enumerate() {
            let moves: Vec<String> = a.moves.iter().map(|m| m.long(pos.even())).collect();
            actions.push(json!({"moves": moves, "pass": self.game.is_pass(i)}));
            replay(&mut pos, &self.game, i);
        }
        let pending: Vec<String> = self.game.pending_moves().iter().map(|m| m.long(pos.even())).collect();
        json!({
            "library": "chess5d",
            "start": start,
            "variant": self.variant,
            "headers": self.headers,
            "actions": actions,
            "pending": pending,
        })
        .to_string()
    }

    /// Restores a [`Library::state`]. On an error nothing changes.
    pub fn set_state(&mut self, text: &str) -> Result<(), Error> {
        let bad = |why: &str| Error::BadState(why.to_string());
        let v: Value = serde_json::from_str(text).map_err(|e| Error::BadState(e.to_string()))?;
        if v.get("library").and_then(Value::as_str) != Some("chess5d") {
            return Err(bad("it has no \"library\": \"chess5d\""));
        }
        let start = v.get("start").and_then(Value::as_str).ok_or_else(|| bad("no start"))?;
        let loaded = chess5d_notation::load(start).map_err(|e| Error::BadState(format!("its start: {e}")))?;
        let variant = v.get("variant").and_then(Value::as_str).map(str::to_string);
        let mut lib = Library::from_game(Game::new(loaded.start().clone()), variant);
        lib.headers = v
            .get("headers")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|h| Some((h.get(0)?.as_str()?.to_string(), h.get(1)?.as_str()?.to_string())))
            .collect();
        let play_long = |lib: &mut Library, text: &Value| -> Result<(), Error> {
            let t = text.as_str().ok_or_else(|| bad("a move is not a string"))?;
            let m = LongMove::from_str(t)
                .map_err(|e| Error::BadState(format!("the move '{t}': {e}")))?
                .resolve(lib.position())
                .map_err(|e| Error::BadState(format!("the move '{t}': {e}")))?;
            lib.play(&m)
        };
        for a in v.get("actions").and_then(Value::as_array).into_iter().flatten() {
            for m in a.get("moves").and_then(Value::as_array).into_iter().flatten() {
                play_long(&mut lib, m)?;
            }
            if a.get("pass").and_then(Value::as_bool).unwrap_or(false) {
                lib.pass(false)?;
            } else {
                lib.submit()?;
            }
        }
        for m in v.get("pending").and_then(Value::as_array).into_iter().flatten() {
            play_long(&mut lib, m)?;
        }
        *self = lib;
        Ok(())
    }
}

/// Plays submitted action `i` of `game` on `pos` (the position before it).
fn replay(pos: &mut Position, game: &Game, i: usize) {
    for m in &game.actions()[i].moves {
        pos.play_unchecked(m);
    }
    if game.is_pass(i) {
        pos.pass_unchecked();
    } else {
        pos.submit_unchecked();
    }
}

/// The short name of a `variant` argument naming an official variant.
fn variant_short(variant: &str) -> Option<String> {
    let v = variant.trim();
    if v.is_empty() {
        return Some("standard".into());
    }
    variant_named(v).map(short_name)
}

/// For a `variant` argument that names a variant (empty: Standard), whether its start is one
/// of the library's built-in variants, as [`chessjs::builtin_variant`] finds from the
/// position; `None` for anything else (a custom start, a Board object).
fn named_builtin(variant: &str) -> Option<bool> {
    let v = variant.trim();
    if v.is_empty() {
        return Some(true);
    }
    if v.starts_with(['{', '[']) {
        return None;
    }
    variant_named(v).map(|v| chessjs::BUILTIN_VARIANTS.contains(&v.name))
}

/// The squares of a record's 5DFEN boards whose piece is marked unmoved (`*`), by board: our
/// notation reader keeps the mark only where a rule reads it (pawns, brawns, kings, rooks),
/// the library's `hasMoved` reads it on every piece.
fn starred_squares(text: &str, even: bool) -> HashMap<BoardId, u64> {
    let mut out = HashMap::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']') else { break };
        let token = &rest[open..open + close + 1];
        rest = &rest[open + close + 1..];
        let Ok(b) = FenBoard::from_str(token) else { continue };
        let ranks: Vec<&str> = b.placement.split('/').collect();
        let height = ranks.len();
        let mut bits = 0u64;
        for (i, rank) in ranks.iter().enumerate() {
            let y = height - 1 - i;
            let (mut x, mut digits) = (0usize, 0usize);
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    digits = digits * 10 + d as usize;
                    continue;
                }
                x += digits;
                digits = 0;
                if c == '*' && x > 0 && x <= 8 && y < 8 {
                    bits |= 1 << (y * 8 + x - 1);
                } else if c.is_ascii_alphabetic() {
                    x += 1;
                }
            }
        }
        let t = 2 * b.turn as i32 + i32::from(b.color == Color::Black);
        out.insert(BoardId::new(b.timeline.index(even), t), bits);
    }
    out
}

/// Move and Action objects (JSON) with the library's timeline numbers turned into the labels our
/// reader takes: in a game with an even number of starting timelines the library numbers `-0`
/// -1, `+0` 1, `+1` 2... (see [`objects::timeline_number`]). Text that is no JSON is left as it is (its reader says why).
fn renumber(text: &str, even: bool) -> String {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for (k, x) in map.iter_mut() {
                    if k == "timeline" {
                        // As labels, which our reader takes: 1 is `+0`, -1 is `-0`, 2 is `+1`...
                        match x.as_i64() {
                            Some(n) if n > 0 => *x = json!(format!("+{}", n - 1)),
                            Some(n) if n < 0 => *x = json!(format!("-{}", -n - 1)),
                            _ => {}
                        }
                    } else {
                        walk(x);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    if !even {
        return text.to_string();
    }
    match serde_json::from_str::<Value>(text) {
        Ok(mut v) => {
            walk(&mut v);
            v.to_string()
        }
        Err(_) => text.to_string(),
    }
}

/// Lines joined as the library writes its lists: each line ends with a newline.
fn lines(items: impl Iterator<Item = String>) -> String {
    let mut out = String::new();
    for s in items {
        out.push_str(&s);
        out.push('\n');
    }
    out
}

/// The legal actions of a position, one at a time, filtered as [`Library::actions_iter`]
/// says.
#[derive(Debug)]
pub struct ActionsIter {
    pos: Position,
    it: LegalActions,
    mandatory: Vec<BoardId>,
    number: i32,
    active_only: bool,
    present_only: bool,
    new_active_only: bool,
}

impl ActionsIter {
    /// The next action, `None` at the end; an error when the search's budget ran out.
    pub fn next_action(&mut self) -> Result<Option<Vec<Move>>, Error> {
        for a in self.it.by_ref() {
            let mut p = self.pos.clone();
            let mut keep = true;
            for m in &a {
                if self.present_only && !self.mandatory.contains(&m.from.board)
                    || self.active_only && !p.is_active(m.from.board.l)
                {
                    keep = false;
                }
                p.play_unchecked(m);
            }
            if keep && self.new_active_only {
                keep = p
                    .timelines()
                    .all(|l| self.pos.timeline_end(l).is_some() || p.is_active(l));
            }
            if keep {
                return Ok(Some(a));
            }
        }
        if self.it.exhausted() {
            return Err(Error::Undecided);
        }
        Ok(None)
    }

    /// Actions of this position in a format.
    pub fn listing(&self, list: &[Vec<Move>], format: Format) -> Listing {
        match format {
            Format::Text(tokens) => {
                Listing::Text(lines(list.iter().map(|a| chessjs::action_text(&self.pos, a, tokens))))
            }
            Format::Object | Format::Json => {
                let mut out = vec![list.len() as i32];
                for a in list {
                    objects::push_action(&mut out, &self.pos, a, self.number);
                }
                Listing::Numbers(out)
            }
        }
    }
}

/// An error message about a text that had `added` lines put before it, with its line numbers
/// (`line N`) counted in the caller's text again.
fn shift_lines(msg: &str, added: usize) -> String {
    let mut out = String::new();
    let mut rest = msg;
    while let Some(i) = rest.find("line ") {
        out.push_str(&rest[..i + 5]);
        rest = &rest[i + 5..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        match rest[..digits].parse::<usize>() {
            Ok(n) if n > added => out.push_str(&(n - added).to_string()),
            _ => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_of_the_library() {
        let names: Vec<String> = VARIANTS.iter().take(7).map(short_name).collect();
        assert!(names.contains(&"standard".to_string()));
        assert!(names.contains(&"defended_pawn".to_string()));
        assert!(names.contains(&"turn_zero".to_string()));
        assert_eq!(
            variant_named("two_timelines").map(|v| v.name),
            Some("Standard - Two Timelines")
        );
    }

    #[test]
    fn a_named_variant_is_built_in_as_its_start_says() {
        // The name's answer (Library::new's short cut) is the position's, for every official
        // variant by name and short name, and for the empty name (Standard).
        assert_eq!(named_builtin(""), Some(true));
        assert_eq!(named_builtin(" [Board \"Custom\"]"), None);
        assert_eq!(named_builtin("{\"width\": 8}"), None);
        for v in VARIANTS.iter() {
            let by_position = chessjs::builtin_variant(&v.position()).is_some();
            assert_eq!(named_builtin(v.name), Some(by_position), "{}", v.name);
            assert_eq!(named_builtin(&short_name(v)), Some(by_position), "{}", v.name);
        }
        assert!(VARIANTS.iter().any(|v| named_builtin(v.name) == Some(false)));
    }

    #[test]
    fn a_quick_action_is_only_found_where_the_search_finds_one() {
        // Games of every official variant, each action picked among the legal ones by a
        // counter: wherever the short cut finds an action, the search finds one too; it finds
        // one in most positions, never in a checkmate.
        let (mut positions, mut quick) = (0, 0);
        for (i, v) in VARIANTS.iter().enumerate() {
            let mut lib = Library::new(v.name).unwrap();
            for step in 0..8 {
                let pos = lib.game.position().clone();
                let outcome = pos.outcome(VERDICT_BUDGET);
                positions += 1;
                if lib.has_quick_action() {
                    quick += 1;
                    assert!(matches!(outcome, Outcome::Ongoing(_)), "{} step {step}", v.name);
                }
                let actions: Vec<_> = pos.legal_actions(VERDICT_BUDGET).take(40).collect();
                let Some(action) = actions.get((i * 7 + step * 13) % actions.len().max(1)) else {
                    break;
                };
                for m in action {
                    lib.game.make_move(m).unwrap();
                }
                lib.game.submit().unwrap();
            }
        }
        assert!(quick * 2 > positions, "{quick} of {positions}");
        let mut mate = Library::new("").unwrap();
        for m in [
            "1w. 1:e2:e3",
            "1b. 1:f7:f6",
            "2w. 2:Qd1:e2",
            "2b. 2:Nb8:c6",
            "3w. 3:Qe2:h5",
        ] {
            mate.play_move(m).unwrap();
            mate.submit().unwrap();
        }
        assert!(!mate.has_quick_action());
        assert!(mate.in_checkmate().unwrap());
    }
}
