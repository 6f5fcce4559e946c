//! The state and verbs of the seed library's `Chess` class, in Rust: a game (start position,
//! submitted actions, the moves of the action under way) with the 5d-chess-js objects and
//! notations as JSON and text. The JavaScript class is a thin layer over this (see `js/`).

use chess5d_notation::alexbay::{self, AlexbayMove};
use chess5d_notation::json::{coord_object, move_object, read_action_moves, read_move};
use chess5d_notation::{BoardRef, LongMove, SanMove};
use chess5d_rules::{
    Board, BoardId, Budget, Color, Coord, Game, Move, MoveKind, Outcome, Piece, Position, Role, Setup, Size, Square,
    Variant, VARIANTS,
};
use serde_json::{json, Value};
use std::str::FromStr;

/// The work allowed to prove checkmate, stalemate or a legal action: far more than any game
/// needs (a verdict the search cannot reach within it is reported as an error, never guessed).
const VERDICT_BUDGET: Budget = Budget { tests: 200_000_000 };

/// The most actions `actions()` lists (beyond, the list itself would not fit in memory).
const MAX_ACTIONS: usize = 200_000;

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

/// The variants as the library's `variants` field lists them (`{name, shortName}`), every
/// official variant and `Custom`.
pub fn variants_json() -> String {
    let mut list: Vec<Value> = VARIANTS
        .iter()
        .map(|v| json!({"name": v.name, "shortName": short_name(v)}))
        .collect();
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

/// The letter the library gives a role: pawns have none, the princess is `P`.
fn library_letter(role: Role) -> String {
    match role {
        Role::Pawn => String::new(),
        Role::Princess => "P".into(),
        r => r.letter().to_string(),
    }
}

fn role_of_library_letter(letter: &str) -> Option<Role> {
    match letter {
        "" => Some(Role::Pawn),
        "P" | "S" => Some(Role::Princess),
        l if l.chars().count() == 1 => l.chars().next().and_then(Role::from_letter),
        _ => None,
    }
}

/// Whether a role keeps an "unmoved" mark (castling, double steps).
fn tracks_moves(role: Role) -> bool {
    matches!(role, Role::Pawn | Role::Brawn | Role::King | Role::Rook)
}

/// A start position from the `variant` argument: empty (Standard), a variant's name or short
/// name, 5DPGN/5DFEN header text (a custom start), or a Board object in JSON (a custom start
/// with those pieces).
pub fn start_of(variant: &str) -> Result<Position, String> {
    let v = variant.trim();
    if v.is_empty() {
        return Ok(Position::standard());
    }
    if v.starts_with('{') {
        return board_object_start(v);
    }
    if v.starts_with('[') {
        let loaded = chess5d_notation::load(v).map_err(|e| format!("cannot read the custom board: {e}"))?;
        return Ok(loaded.game.start().clone());
    }
    if v.eq_ignore_ascii_case("custom") {
        return Err("the variant 'custom' needs a board: give a Board object or 5DFEN headers instead".into());
    }
    variant_named(v)
        .map(Variant::position)
        .ok_or_else(|| format!("unknown variant '{v}' (see the variants field for the names)"))
}

/// A custom start from a Board object (`{width, height, timelines: [{timeline, turns: [{turn,
/// player, pieces: [{piece, player, position: {coordinate}, hasMoved}]}]}]}`).
fn board_object_start(text: &str) -> Result<Position, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("the Board object is not valid JSON: {e}"))?;
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_i64);
    let width = num(&v, "width").unwrap_or(8);
    let height = num(&v, "height").unwrap_or(8);
    let size = u8::try_from(width)
        .ok()
        .zip(u8::try_from(height).ok())
        .and_then(|(w, h)| Size::new(w, h))
        .ok_or_else(|| format!("the Board object's size {width}x{height} is not one of 1x1 to 8x8"))?;
    let timelines = v
        .get("timelines")
        .and_then(Value::as_array)
        .ok_or("the Board object has no 'timelines' list")?;
    // Timelines written as label strings (`"-0"`, `"+0"`) make the game even.
    let even = timelines.iter().any(|t| {
        t.get("timeline")
            .and_then(Value::as_str)
            .is_some_and(|s| s.ends_with('0') && s.len() == 2)
    });
    let mut boards = Vec::new();
    for t in timelines {
        let l = match t.get("timeline") {
            Some(Value::Number(n)) => n.as_i64().ok_or("a timeline number must be an integer")? as i32,
            Some(Value::String(s)) => {
                chess5d_rules::parse_timeline(s, even).ok_or_else(|| format!("bad timeline '{s}'"))?
            }
            _ => return Err("a Timeline object needs its 'timeline'".into()),
        };
        for turn in t
            .get("turns")
            .and_then(Value::as_array)
            .ok_or("a Timeline object needs 'turns'")?
        {
            let n = num(turn, "turn").ok_or("a Turn object needs its 'turn'")? as i32;
            let color = match turn.get("player").and_then(Value::as_str) {
                Some("black") => Color::Black,
                Some("white") => Color::White,
                _ => return Err(format!("turn {n} of timeline {l}: 'player' must be 'white' or 'black'")),
            };
            let t_index = 2 * n + i32::from(color == Color::Black);
            let mut board = Board::empty();
            for p in turn.get("pieces").and_then(Value::as_array).into_iter().flatten() {
                let letter = p.get("piece").and_then(Value::as_str).unwrap_or("");
                let role = role_of_library_letter(letter).ok_or_else(|| format!("unknown piece '{letter}'"))?;
                let pc = match p.get("player").and_then(Value::as_str) {
                    Some("black") => Color::Black,
                    _ => Color::White,
                };
                let coord = p
                    .get("position")
                    .and_then(|pos| pos.get("coordinate"))
                    .and_then(Value::as_str)
                    .ok_or("a Piece object needs position.coordinate")?;
                let sq = Square::parse(coord).ok_or_else(|| format!("bad square '{coord}'"))?;
                if sq.x() >= i32::from(size.width) || sq.y() >= i32::from(size.height) {
                    return Err(format!("the square {coord} is off a {width}x{height} board"));
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
    .map_err(|e| format!("the Board object is not a valid position: {e}"))
}

/// The `format` argument: `object` (JSON here, parsed by the JavaScript layer), `json`,
/// `notation` or `notation_short` (text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Objects (JSON text, parsed by the caller).
    Object,
    /// JSON text.
    Json,
    /// Notation text, one item per line.
    Notation,
}

impl Format {
    /// Reads the argument (`undefined`/empty: `object`).
    pub fn parse(s: &str) -> Result<Format, String> {
        match s {
            "" | "object" => Ok(Format::Object),
            "json" => Ok(Format::Json),
            "notation" | "notation_short" => Ok(Format::Notation),
            other => Err(format!(
                "unknown format '{other}': use 'object', 'json', 'notation' or 'notation_short'"
            )),
        }
    }
}

/// The game of a `Chess` object.
#[derive(Clone, Debug)]
pub struct Library {
    game: Game,
    /// The imported record's own headers (Event, White...), kept for export.
    headers: Vec<(String, String)>,
}

impl Default for Library {
    fn default() -> Self {
        Library {
            game: Game::new(Position::standard()),
            headers: Vec::new(),
        }
    }
}

fn strip_action_prefix(token: &str) -> &str {
    // `1w. ` / `12b.` of alexbay's notation.
    let t = token.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let rest = &t[digits..];
        if let Some(r) = rest.strip_prefix("w.").or_else(|| rest.strip_prefix("b.")) {
            return r.trim_start();
        }
    }
    t
}

/// Reads one move written in any notation the library takes, for the position `pos`.
pub fn read_one_move(pos: &Position, text: &str) -> Result<Move, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("an empty move".into());
    }
    if t.starts_with('{') {
        let jm = read_move(t).map_err(|e| format!("cannot read the Move object: {e}"))?;
        return jm.resolve(pos).map_err(|e| format!("illegal move {t}: {e}"));
    }
    let body = strip_action_prefix(t);
    let body = body.trim_end_matches(['+', '#', '=']).trim_end();
    let fail = |why: String| format!("illegal move '{t}': {why}");
    if body.contains(':') {
        let m = AlexbayMove::from_str(body).map_err(|e| format!("cannot read the move '{t}': {e}"))?;
        return m.resolve(pos).map_err(|e| fail(e.to_string()));
    }
    if let Ok(m) = LongMove::from_str(body) {
        return m.resolve(pos).map_err(|e| fail(e.to_string()));
    }
    let san = SanMove::from_str(body).map_err(|e| format!("cannot read the move '{t}': {e}"))?;
    san.resolve(pos).map(|(m, _)| m).map_err(|e| fail(e.to_string()))
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
        if strip_action_prefix(line).contains(':') {
            out.push(line.to_string());
            continue;
        }
        for token in line.split_whitespace() {
            let numbered = token.trim_end_matches('.').bytes().all(|b| b.is_ascii_digit())
                || token.ends_with("b.") && token[..token.len() - 2].bytes().all(|b| b.is_ascii_digit());
            if token == "/" || numbered {
                continue;
            }
            out.push(token.to_string());
        }
    }
    out
}

impl Library {
    /// A new game from `variant` (see [`start_of`]).
    pub fn new(variant: &str) -> Result<Library, String> {
        Ok(Library {
            game: Game::new(start_of(variant)?),
            headers: Vec::new(),
        })
    }

    /// The position now (with the moves of the action under way).
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Back to the start of `variant` (empty: this game's start).
    pub fn reset(&mut self, variant: &str) -> Result<(), String> {
        let start = if variant.trim().is_empty() {
            self.game.start().clone()
        } else {
            start_of(variant)?
        };
        self.game = Game::new(start);
        self.headers.clear();
        Ok(())
    }

    /// Replays a record from its start: any notation our notation crate reads (5DPGN with its
    /// headers, 5DFEN, the long form, alexbay's `1w. 1:e2:e3`, the library's JSON action
    /// list). `variant` gives the start when the text does not.
    pub fn import(&mut self, text: &str, variant: &str) -> Result<(), String> {
        let t = text.trim();
        if t.is_empty() {
            return self.reset(variant);
        }
        let has_start = t.contains("[Board") || t.contains(":w]") || t.contains(":b]");
        let start = start_of(variant)?;
        if t.starts_with('{') || (t.starts_with('[') && !has_start && serde_json::from_str::<Value>(t).is_ok()) {
            let loaded = chess5d_notation::json::read_actions(t, start).map_err(|e| format!("cannot import: {e}"))?;
            self.game = loaded.game;
            self.headers = loaded.headers;
            return Ok(());
        }
        if has_start {
            let loaded = chess5d_notation::load(t).map_err(|e| format!("cannot import: {e}"))?;
            self.game = loaded.game;
            self.headers = loaded
                .headers
                .into_iter()
                .filter(|(k, _)| !chess5d_notation::start::is_start_header(k))
                .collect();
            return Ok(());
        }
        // Moves alone: replayed from the variant's start, one action per line in alexbay's
        // notation, else as 5DPGN move text.
        let mut game = Game::new(start.clone());
        if t.lines().all(|l| l.trim().is_empty() || alexbay::looks_like(l.trim())) {
            let mut current: Option<String> = None;
            for (n, line) in t.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let line = line.trim();
                let serial = line.split('.').next().unwrap_or("").to_string();
                if current.as_ref().is_some_and(|c| *c != serial) {
                    game.submit()
                        .map_err(|e| format!("cannot import: line {}: {e}", n + 1))?;
                }
                current = Some(serial);
                let m =
                    read_one_move(game.position(), line).map_err(|e| format!("cannot import: line {}: {e}", n + 1))?;
                game.make_move(&m)
                    .map_err(|e| format!("cannot import: line {}: {e}", n + 1))?;
            }
            if current.is_some() && game.position().can_submit().is_ok() {
                game.submit().map_err(|e| format!("cannot import: {e}"))?;
            }
            self.game = game;
            self.headers.clear();
            return Ok(());
        }
        let (headers, _) = chess5d_notation::start::headers_for(&start);
        let mut record = String::new();
        for (k, v) in &headers {
            record.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        for f in chess5d_notation::start::headers_for(&start).1 {
            record.push_str(&f);
            record.push('\n');
        }
        record.push('\n');
        let added = record.lines().count();
        record.push_str(t);
        let loaded = chess5d_notation::load(&record)
            .map_err(|e| format!("cannot import: {}", shift_lines(&e.to_string(), added)))?;
        self.game = loaded.game;
        self.headers.clear();
        Ok(())
    }

    /// Plays one move of the action under way.
    pub fn play_move(&mut self, text: &str) -> Result<(), String> {
        let pos = self.game.position();
        let m = read_one_move(pos, text).map_err(|e| {
            if !self.game.pending_moves().is_empty() && pos.mandatory_boards().is_empty() && pos.can_submit().is_ok() {
                format!("{e} (the action under way is complete: submit it first, or undo)")
            } else {
                e
            }
        })?;
        self.game
            .make_move(&m)
            .map_err(|e| format!("illegal move '{}': {e}", text.trim()))?;
        Ok(())
    }

    /// Takes back the last move of the action under way.
    pub fn undo(&mut self) -> Result<(), String> {
        self.game
            .undo_move()
            .map(|_| ())
            .ok_or_else(|| "nothing to undo: the action under way has no move".to_string())
    }

    /// Whether a move can be taken back.
    pub fn undoable(&self) -> bool {
        !self.game.pending_moves().is_empty()
    }

    /// Ends the action under way.
    pub fn submit(&mut self) -> Result<(), String> {
        if self.game.pending_moves().is_empty() && self.game.position().can_submit().is_err() {
            return Err(format!(
                "cannot submit: {}",
                self.game
                    .position()
                    .can_submit()
                    .err()
                    .map(|e| e.to_string())
                    .unwrap_or_default()
            ));
        }
        self.game.submit().map_err(|e| format!("cannot submit: {e}"))
    }

    /// Plays a whole action (its moves in any notation, or Move objects in JSON) and submits
    /// it; on an error nothing changes.
    pub fn action(&mut self, text: &str) -> Result<(), String> {
        let before = self.game.clone();
        let result = self.action_inner(text);
        if result.is_err() {
            self.game = before;
        }
        result
    }

    fn action_inner(&mut self, text: &str) -> Result<(), String> {
        let t = text.trim();
        if t.starts_with('{') || t.starts_with('[') && serde_json::from_str::<Value>(t).is_ok() {
            let moves = read_action_moves(t).map_err(|e| format!("cannot read the action: {e}"))?;
            for jm in moves {
                let m = jm
                    .resolve(self.game.position())
                    .map_err(|e| format!("illegal move in the action: {e}"))?;
                self.game
                    .make_move(&m)
                    .map_err(|e| format!("illegal move in the action: {e}"))?;
            }
        } else {
            let moves = split_action(t);
            if moves.is_empty() {
                return Err("the action has no move".into());
            }
            for m in moves {
                self.play_move(&m)?;
            }
        }
        self.submit()
    }

    /// Submits without a move (the library's `pass`): only where no board must be played.
    pub fn pass(&mut self) -> Result<(), String> {
        if !self.game.pending_moves().is_empty() {
            return Err("cannot pass: the action under way has moves (undo them first)".into());
        }
        self.submit()
    }

    /// The proven outcome for the side to move (`None` while an action is under way).
    fn outcome(&self) -> Result<Option<Outcome>, String> {
        if !self.game.pending_moves().is_empty() {
            return Ok(None);
        }
        match self.game.position().outcome(VERDICT_BUDGET) {
            Outcome::Unknown => Err("the search could not decide this position within its budget".into()),
            o => Ok(Some(o)),
        }
    }

    /// Whether the side to move is checkmated (proven).
    pub fn in_checkmate(&self) -> Result<bool, String> {
        // No check, no mate: the search is needed only in check.
        if !self.game.position().in_check() {
            return Ok(false);
        }
        Ok(matches!(self.outcome()?, Some(Outcome::Checkmate)))
    }

    /// Whether the side to move is stalemated (proven).
    pub fn in_stalemate(&self) -> Result<bool, String> {
        Ok(matches!(self.outcome()?, Some(Outcome::Stalemate)))
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.game.position().in_check()
    }

    /// The library's action number: the turn of the side to move's next action.
    pub fn action_number(&self) -> i32 {
        let start = self.game.start();
        let first = start.present_turn().max(1);
        let n = self.game.actions().len() as i32 + i32::from(start.to_move() == Color::Black);
        first + n / 2
    }

    /// `white` or `black`.
    pub fn player(&self) -> &'static str {
        self.game.to_move().name()
    }

    /// A hash of the full position (the MD5 of its 5DFEN boards).
    pub fn hash(&self) -> String {
        chess5d_notation::full_state_hash(self.game.position())
    }

    /// One move in the library's notation: 5DPGN as 5d-chess-js 1.2 writes it in `pos` (scripts
    /// match on these strings). Where it differs from our canonical 5DPGN: castling is the
    /// king's move (`Kg1`), a pawn's promotion names its square (`a7a8=Q`, `e7xd8=N`; Black's
    /// captures with the file again, `d2dxe1=Q`), Black's pawn captures that need telling apart
    /// repeat the file (`eexf4`), and `~` marks every jump that makes an active timeline.
    pub fn move_text(pos: &Position, m: &Move) -> String {
        let prefix = pos.timeline_count() > 1 || m.is_jump();
        let board = if prefix {
            board_label(pos, m.from.board)
        } else {
            String::new()
        };
        if matches!(m.kind, MoveKind::Castle { .. }) {
            return format!("{board}K{}", m.to.square);
        }
        if m.is_jump() {
            let mut text = relabel(pos, chess5d_notation::san::write(pos, m, true));
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
                let promotion = m
                    .promotion
                    .map(|r| format!("={}", library_letter(r)))
                    .unwrap_or_default();
                return format!("{board}Wx{}{promotion}", m.to.square);
            }
        }
        if m.piece.role() != Role::Pawn {
            return relabel(pos, chess5d_notation::san::write(pos, m, prefix));
        }
        let black = m.piece.color() == Color::Black;
        let file = (b'a' + m.from.square.x() as u8) as char;
        let capture = m.is_capture();
        let mut text = board;
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
            text.push_str(&library_letter(r));
            return text;
        }
        if capture {
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

    /// A list of moves in a format.
    fn moves_out(&self, pos: &Position, moves: &[Move], format: Format) -> String {
        match format {
            Format::Notation => moves
                .iter()
                .map(|m| Library::move_text(pos, m))
                .collect::<Vec<_>>()
                .join("\n"),
            _ => Value::Array(moves.iter().map(|m| move_object(pos, m)).collect()).to_string(),
        }
    }

    /// The pseudo-legal moves of the side to move: from the boards that must be played
    /// (`present_only`), else from the playable boards of active timelines (`active_only`) or
    /// from every playable board. With detection, none in checkmate or stalemate.
    pub fn moves(&self, format: Format, active_only: bool, present_only: bool, detect: bool) -> Result<String, String> {
        let pos = self.game.position();
        if detect && self.outcome()?.is_some_and(|o| !matches!(o, Outcome::Ongoing(_))) {
            return Ok(self.moves_out(pos, &[], format));
        }
        let moves = if present_only {
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
        Ok(self.moves_out(pos, &with_promotions(pos, moves), format))
    }

    /// Every legal action (our proven search), filtered: moves only on boards that must be
    /// played (`present_only`), only on active timelines (`active_only`), creating only active
    /// timelines (`new_active_only`).
    pub fn actions(
        &self,
        format: Format,
        active_only: bool,
        present_only: bool,
        new_active_only: bool,
    ) -> Result<String, String> {
        if !self.game.pending_moves().is_empty() {
            return Err("actions() lists whole actions: submit or undo the moves under way first".into());
        }
        let pos = self.game.position();
        let mandatory = pos.mandatory_boards();
        let mut it = if present_only {
            chess5d_rules::LegalActions::present_only(pos, VERDICT_BUDGET)
        } else {
            pos.legal_actions(VERDICT_BUDGET)
        };
        let mut list = Vec::new();
        for a in it.by_ref() {
            if list.len() >= MAX_ACTIONS {
                return Err(format!(
                    "more than {MAX_ACTIONS} actions: list them with presentOnly (the default), or count them with the chess5d command line"
                ));
            }
            let mut p = pos.clone();
            let mut keep = true;
            for m in &a {
                if present_only && !mandatory.contains(&m.from.board) || active_only && !p.is_active(m.from.board.l) {
                    keep = false;
                }
                p.play_unchecked(m);
            }
            if keep && new_active_only {
                keep = p.timelines().all(|l| pos.timeline_end(l).is_some() || p.is_active(l));
            }
            if keep {
                list.push(a);
            }
        }
        if it.exhausted() {
            return Err("the search could not list every action within its budget".into());
        }
        let player = pos.to_move().name();
        let number = self.action_number();
        Ok(match format {
            Format::Notation => list
                .iter()
                .map(|a| {
                    let mut p = pos.clone();
                    let mut texts = Vec::new();
                    for m in a {
                        texts.push(Library::move_text(&p, m));
                        p.play_unchecked(m);
                    }
                    texts.join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n"),
            _ => Value::Array(
                list.iter()
                    .map(|a| {
                        let mut p = pos.clone();
                        let mut moves = Vec::new();
                        for m in a {
                            moves.push(move_object(&p, m));
                            p.play_unchecked(m);
                        }
                        json!({"action": number, "player": player, "moves": moves})
                    })
                    .collect(),
            )
            .to_string(),
        })
    }

    /// The opponent's move that captures a royal piece if the side to move passed now (the
    /// check the rules find: one per position in check; none when not in check).
    pub fn checks(&self, format: Format) -> String {
        let pos = self.game.position();
        let checks: Vec<(Coord, Coord)> = pos.checking_move().into_iter().collect();
        match format {
            Format::Notation => checks
                .iter()
                .map(|(from, to)| format!("{}{}>{}{}", board_label(pos, from.board), from.square, board_label(pos, to.board), to.square))
                .collect::<Vec<_>>()
                .join("\n"),
            _ => Value::Array(
                checks
                    .iter()
                    .map(|(from, to)| {
                        json!({"start": coord_object(*from, pos.even()), "end": coord_object(*to, pos.even()),
                               "player": pos.to_move().other().name(), "promotion": null, "enPassant": null, "castling": null})
                    })
                    .collect(),
            )
            .to_string(),
        }
    }

    /// The actions played, as Action objects (JSON).
    pub fn action_history(&self) -> String {
        chess5d_notation::json::write_actions(&self.game)
    }

    /// The moves of the action under way, as Move objects (JSON).
    pub fn move_buffer(&self) -> String {
        let mut pos = self.game.position().clone();
        let pending = self.game.pending_moves();
        for _ in &pending {
            pos.undo_move();
        }
        let mut out = Vec::new();
        for m in &pending {
            out.push(move_object(&pos, m));
            pos.play_unchecked(m);
        }
        Value::Array(out).to_string()
    }

    /// A Board object of a position (JSON value).
    pub fn board_value(pos: &Position, action: i32) -> Value {
        let even = pos.even();
        let size = pos.size();
        let mandatory = pos.mandatory_boards();
        let timelines: Vec<Value> = pos
            .timelines()
            .map(|l| {
                let label = BoardRef::of_id(BoardId::new(l, 0), even).timeline;
                let number = if even { json!(label.to_string()) } else { json!(l) };
                let start = pos.timeline_start(l).unwrap_or(0);
                let end = pos.timeline_end(l).unwrap_or(start);
                let turns: Vec<Value> = (start..=end)
                    .filter_map(|t| {
                        let id = BoardId::new(l, t);
                        let board = pos.board(id)?;
                        let r = BoardRef::of_id(id, even);
                        let pieces: Vec<Value> = board
                            .pieces()
                            .map(|(sq, p)| {
                                json!({
                                    "position": coord_object(Coord { board: id, square: sq }, even),
                                    "piece": library_letter(p.role()),
                                    "player": p.color().name(),
                                    "hasMoved": tracks_moves(p.role()) && !p.unmoved(),
                                })
                            })
                            .collect();
                        Some(json!({"turn": r.turn, "player": id.color().name(), "width": size.width,
                                    "height": size.height, "pieces": pieces}))
                    })
                    .collect();
                let maker = if l > 0 || (even && l == 0) {
                    "white"
                } else if l < 0 {
                    "black"
                } else {
                    "white"
                };
                json!({
                    "timeline": number,
                    "player": maker,
                    "active": pos.is_active(l),
                    "present": mandatory.iter().any(|b| b.l == l),
                    "turns": turns,
                })
            })
            .collect();
        json!({
            "action": action,
            "player": pos.to_move().name(),
            "width": size.width,
            "height": size.height,
            "timelines": timelines,
        })
    }

    /// The Board object of the position now (JSON).
    pub fn board(&self) -> String {
        Library::board_value(self.game.position(), self.action_number()).to_string()
    }

    /// The Board objects of the start and after every action (and the action under way).
    pub fn board_history(&self) -> String {
        let mut pos = self.game.start().clone();
        let mut lib = Library {
            game: Game::new(pos.clone()),
            headers: Vec::new(),
        };
        let mut out = vec![Library::board_value(&pos, lib.action_number())];
        for a in self.game.actions() {
            for m in &a.moves {
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
            let _ = lib.game.play_action(&a.moves);
            out.push(Library::board_value(&pos, lib.action_number()));
        }
        if !self.game.pending_moves().is_empty() {
            out.push(Library::board_value(self.game.position(), self.action_number()));
        }
        Value::Array(out).to_string()
    }

    /// The record: 5DPGN with headers (`5dpgn`, `notation`, `notation_short`, the default), the
    /// Action objects (`json`, `object`), or the long form (`long`).
    pub fn export(&self, format: &str) -> Result<String, String> {
        match format {
            "" | "5dpgn" | "notation" | "notation_short" => {
                let mut headers = vec![("Mode".to_string(), "5D".to_string())];
                headers.extend(self.headers.iter().filter(|(k, _)| k != "Mode").cloned());
                Ok(chess5d_notation::pgn::write(&self.game, &headers, None))
            }
            "json" | "object" => Ok(self.action_history()),
            "long" => Ok(chess5d_notation::write_long(&self.game)),
            other => Err(format!(
                "unknown export format '{other}': use '5dpgn', 'notation', 'notation_short', 'json', 'object' or 'long'"
            )),
        }
    }

    /// 5DFEN: the start's boards (with `full`, every board of the position now), one per line.
    pub fn fen(&self, full: bool) -> String {
        let pos = if full { self.game.position() } else { self.game.start() };
        let mut out = String::new();
        for line in chess5d_notation::fen::write_boards(pos) {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// The position drawn as text (boards side by side, timelines as rows).
    pub fn print(&self) -> String {
        chess5d_notation::diagram(self.game.position())
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

/// A timeline's label as 5d-chess-js writes it: in even games the start timelines are `-0`
/// and `+0` and new ones `1`, `-1`... without `+` (our 5DPGN writes `+1`).
fn timeline_label(pos: &Position, l: i32) -> String {
    if pos.even() && l >= 1 {
        l.to_string()
    } else {
        pos.timeline_label(l)
    }
}

/// A board as 5d-chess-js names it: `(0T1)`, `(-0T2)`, `(1T3)`.
fn board_label(pos: &Position, b: BoardId) -> String {
    format!("({}T{})", timeline_label(pos, b.l), b.turn())
}

/// Our 5DPGN text of a move with the boards relabelled as 5d-chess-js labels them.
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

/// Every move of a list, a promoting one once for each piece the game allows (as 5d-chess-js
/// lists them).
fn with_promotions(pos: &Position, moves: Vec<Move>) -> Vec<Move> {
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        if m.promotion.is_some() {
            for &r in pos.promotions() {
                out.push(Move {
                    promotion: Some(r),
                    ..m
                });
            }
        } else {
            out.push(m);
        }
    }
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
}
