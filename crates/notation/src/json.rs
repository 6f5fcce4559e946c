//! The 5d-chess-js JSON of seed 000 ("Schemas"): its `export('json')` is a list of Action
//! objects `{action, player, moves: [Move]}`, a Move is `{start, end, player, promotion,
//! enPassant, castling}` and a Position `{timeline, turn, player, coordinate, rank, file}`.
//!
//! [`write_actions`] writes exactly that list. [`write_game`] wraps it in an object that also
//! gives the start position (`board`, `size`, `promotions`, `fen` for a custom start, `headers`),
//! so that any game round-trips. Both are read by [`read`]. Timelines are integers; in games with
//! `-0`/`+0` they are written as label strings (`"-0"`, `"+0"`, `"1"`, `"-1"`); integers,
//! strings and the `±0.5` of the 5dchess-tools converter are all read.

use crate::coords::{BoardRef, Timeline};
use crate::error::{Error, ParseError, Reason, Span};
use crate::fen::FenBoard;
use crate::replay::{self, Written};
use crate::scan::Scanner;
use crate::{start, Format, LoadedGame};
use chess5d_rules::{BoardId, Color, Coord, Game, Move, MoveKind, Position, Role, Square};
use serde_json::{json, Map, Value};
use std::str::FromStr;

fn position(c: Coord, even: bool) -> Value {
    let b = BoardRef::of_id(c.board, even);
    let timeline = if even {
        Value::String(b.timeline.to_string())
    } else {
        json!(c.board.l)
    };
    json!({
        "timeline": timeline,
        "turn": b.turn,
        "player": c.board.color().name(),
        "coordinate": c.square.to_string(),
        "rank": c.square.y() + 1,
        "file": c.square.x() + 1,
    })
}

fn move_value(pos: &Position, m: &Move) -> Value {
    let even = pos.even();
    let en_passant = match m.kind {
        MoveKind::EnPassant => pos.board(m.from.board).and_then(|b| b.en_passant()).map(|(_, pawn)| {
            position(
                Coord {
                    board: m.from.board,
                    square: pawn,
                },
                even,
            )
        }),
        _ => None,
    };
    let castling = match m.kind {
        MoveKind::Castle { rook_from, rook_to } => Some(json!({
            "start": position(Coord { board: m.from.board, square: rook_from }, even),
            "end": position(Coord { board: m.from.board, square: rook_to }, even),
        })),
        _ => None,
    };
    json!({
        "start": position(m.from, even),
        "end": position(m.to, even),
        "player": m.piece.color().name(),
        "promotion": m.promotion.map(|r| r.letter().to_string()),
        "enPassant": en_passant,
        "castling": castling,
    })
}

fn actions_value(game: &Game) -> Value {
    let mut pos = game.start().clone();
    let mut out = Vec::new();
    for (i, a) in game.actions().iter().enumerate() {
        let player = pos.to_move().name();
        let mut moves = Vec::new();
        for m in &a.moves {
            moves.push(move_value(&pos, m));
            pos.play_unchecked(m);
        }
        if game.is_pass(i) {
            pos.pass_unchecked();
        } else {
            pos.submit_unchecked();
        }
        out.push(json!({ "action": i + 1, "player": player, "moves": moves }));
    }
    Value::Array(out)
}

/// The actions as the 5d-chess-js `export('json')` list.
pub fn write_actions(game: &Game) -> String {
    actions_value(game).to_string()
}

/// The game as a JSON object: start position, headers and the action list.
pub fn write_game(loaded: &LoadedGame) -> String {
    let (start_headers, fens) = start::headers_for(loaded.game().start());
    let mut obj = Map::new();
    for (k, v) in &start_headers {
        obj.insert(k.to_ascii_lowercase(), Value::String(v.clone()));
    }
    if !fens.is_empty() {
        obj.insert("fen".into(), json!(fens));
    }
    let headers: Vec<Value> = loaded
        .headers
        .iter()
        .filter(|(k, _)| !start::is_start_header(k))
        .map(|(k, v)| json!([k, v]))
        .collect();
    obj.insert("headers".into(), Value::Array(headers));
    obj.insert("actions".into(), actions_value(loaded.game()));
    Value::Object(obj).to_string()
}

fn structure(what: impl Into<String>, found: &Value) -> Error {
    let mut f = found.to_string();
    if f.len() > 40 {
        f = f.chars().take(40).collect::<String>() + "...";
    }
    Error::Parse(ParseError::new(Span::new(1, 1), what, f))
}

/// A Position object of the library, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonCoord {
    /// The board.
    pub board: BoardRef,
    /// The board's colour, if given.
    pub player: Option<Color>,
    /// The square.
    pub square: Square,
}

fn color_of(v: &Value) -> Option<Color> {
    match v.as_str()? {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

fn timeline_of(v: &Value) -> Option<Timeline> {
    if let Some(s) = v.as_str() {
        let mut sc = Scanner::new(s.trim());
        let t = Timeline::parse(&mut sc).ok()?;
        return sc.at_end().then_some(t);
    }
    if let Some(i) = v.as_i64() {
        let n = u32::try_from(i.unsigned_abs()).ok()?;
        return Some(Timeline {
            sign: (i < 0).then_some('-'),
            number: n,
        });
    }
    let f = v.as_f64()?;
    if f == 0.5 || f == -0.5 {
        return Some(Timeline {
            sign: Some(if f < 0.0 { '-' } else { '+' }),
            number: 0,
        });
    }
    None
}

impl JsonCoord {
    fn from_value(v: &Value) -> Result<JsonCoord, Error> {
        let timeline = v
            .get("timeline")
            .and_then(timeline_of)
            .ok_or_else(|| structure("a Position with an integer 'timeline'", v))?;
        let turn = v
            .get("turn")
            .and_then(Value::as_u64)
            .and_then(|t| u32::try_from(t).ok())
            .ok_or_else(|| structure("a Position with an integer 'turn'", v))?;
        let square = match v.get("coordinate").and_then(Value::as_str).and_then(Square::parse) {
            Some(sq) => sq,
            None => {
                let file = v.get("file").and_then(Value::as_i64).unwrap_or(0);
                let rank = v.get("rank").and_then(Value::as_i64).unwrap_or(0);
                let ok = (1..=8).contains(&file) && (1..=8).contains(&rank);
                if !ok {
                    return Err(structure("a Position with a 'coordinate' like \"e2\"", v));
                }
                Square::new(file as u8 - 1, rank as u8 - 1)
            }
        };
        Ok(JsonCoord {
            board: BoardRef { timeline, turn },
            player: v.get("player").and_then(color_of),
            square,
        })
    }

    fn coord(&self, even: bool, to_move: Color) -> Coord {
        let id: BoardId = self.board.id(even, self.player.unwrap_or(to_move));
        Coord {
            board: id,
            square: self.square,
        }
    }
}

/// A Move object, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonMove {
    /// Where the piece starts.
    pub start: JsonCoord,
    /// Where it lands.
    pub end: JsonCoord,
    /// The promotion letter.
    pub promotion: Option<Role>,
}

impl JsonMove {
    fn from_value(v: &Value) -> Result<JsonMove, Error> {
        let start = JsonCoord::from_value(v.get("start").ok_or_else(|| structure("a Move with 'start'", v))?)?;
        let end = JsonCoord::from_value(v.get("end").ok_or_else(|| structure("a Move with 'end'", v))?)?;
        let promotion = match v.get("promotion") {
            None | Some(Value::Null) => None,
            Some(p) => {
                let letter = p.as_str().ok_or_else(|| structure("a promotion letter", p))?;
                Some(match letter {
                    // 5d-chess-js writes the princess `P`.
                    "P" | "S" => Role::Princess,
                    _ => {
                        let mut chars = letter.chars();
                        match (chars.next().and_then(Role::from_letter), chars.next()) {
                            (Some(r), None) => r,
                            _ => return Err(structure("a promotion letter", p)),
                        }
                    }
                })
            }
        };
        Ok(JsonMove { start, end, promotion })
    }

    /// The move of the position it stands for.
    pub fn resolve(&self, pos: &Position) -> Result<Move, Reason> {
        let even = pos.even();
        let c = pos.to_move();
        pos.find_move(self.start.coord(even, c), self.end.coord(even, c), self.promotion)
            .map_err(Reason::Illegal)
    }
}

/// Reads one Move object (as the library's `move()` takes it, in JSON).
pub fn read_move(text: &str) -> Result<JsonMove, Error> {
    JsonMove::from_value(&parse_value(text)?)
}

/// Reads the moves of one action: an Action object (`{"moves": [...]}`) or a list of Move
/// objects (as the library's `action()` takes them, in JSON).
pub fn read_action_moves(text: &str) -> Result<Vec<JsonMove>, Error> {
    let v = parse_value(text)?;
    let list = match &v {
        Value::Object(o) => o.get("moves").ok_or_else(|| structure("an Action with 'moves'", &v))?,
        other => other,
    };
    list.as_array()
        .ok_or_else(|| structure("a list of Move objects", list))?
        .iter()
        .map(JsonMove::from_value)
        .collect()
}

/// A Move object of the library for `m`, played from `pos`.
pub fn move_object(pos: &Position, m: &Move) -> Value {
    move_value(pos, m)
}

/// A Position object of the library for a square of the position.
pub fn coord_object(c: Coord, even: bool) -> Value {
    position(c, even)
}

/// Reads the action list (of the library or of [`write_game`]) and plays it from `start`. An
/// Action object whose moves leave boards to play (none at all, or fewer than the boards that
/// must move) is a pass, as the library's `pass()` records it: its `export('json')` of a game
/// with a pass reads back (a pass that would leave a royal piece capturable is refused).
pub fn read_actions(text: &str, start: Position) -> Result<LoadedGame, Error> {
    let v = parse_value(text)?;
    let actions = match &v {
        Value::Object(o) => o.get("actions").cloned().unwrap_or(Value::Array(Vec::new())),
        other => other.clone(),
    };
    play(&actions, start, Vec::new(), true)
}

fn parse_value(text: &str) -> Result<Value, Error> {
    serde_json::from_str(text).map_err(|e| {
        Error::Parse(ParseError::new(
            Span::new(e.line().max(1), e.column().max(1)),
            "valid JSON",
            e.to_string(),
        ))
    })
}

/// Reads JSON: the library's action list (standard start), or a [`write_game`] object.
pub fn read(text: &str) -> Result<LoadedGame, Error> {
    let v = parse_value(text)?;
    match &v {
        Value::Array(_) => play(&v, Position::standard(), Vec::new(), false),
        Value::Object(o) => {
            let mut headers: Vec<(String, String)> = Vec::new();
            for key in ["board", "size", "promotions"] {
                if let Some(val) = o.get(key) {
                    let s = val
                        .as_str()
                        .ok_or_else(|| structure(format!("a string for '{key}'"), val))?;
                    let mut name = key.to_string();
                    name[..1].make_ascii_uppercase();
                    headers.push((name, s.to_string()));
                }
            }
            let mut boards = Vec::new();
            if let Some(f) = o.get("fen") {
                let list = f
                    .as_array()
                    .ok_or_else(|| structure("a list of 5DFEN strings for 'fen'", f))?;
                for item in list {
                    let s = item.as_str().ok_or_else(|| structure("a 5DFEN string", item))?;
                    boards.push(FenBoard::from_str(s)?);
                }
            }
            let start = start::position(&headers, &boards)?;
            let mut user = Vec::new();
            if let Some(h) = o.get("headers") {
                let list = h
                    .as_array()
                    .ok_or_else(|| structure("a list of [name, value] pairs", h))?;
                for pair in list {
                    match (pair.get(0).and_then(Value::as_str), pair.get(1).and_then(Value::as_str)) {
                        (Some(k), Some(v)) => user.push((k.to_string(), v.to_string())),
                        _ => return Err(structure("a [name, value] pair", pair)),
                    }
                }
            }
            let actions = o.get("actions").cloned().unwrap_or(Value::Array(Vec::new()));
            play(&actions, start, user, false)
        }
        other => Err(structure("a list of actions or a game object", other)),
    }
}

/// Plays the Action objects from `start`; with `passes`, an action that cannot be submitted
/// for boards left to play is a pass.
fn play(actions: &Value, start: Position, headers: Vec<(String, String)>, passes: bool) -> Result<LoadedGame, Error> {
    let list = actions
        .as_array()
        .ok_or_else(|| structure("a list of Action objects", actions))?;
    let mut game = Game::new(start.clone());
    let mut warnings = Vec::new();
    for (i, a) in list.iter().enumerate() {
        let moves = a
            .get("moves")
            .and_then(Value::as_array)
            .ok_or_else(|| structure("an Action with a 'moves' list", a))?;
        let parsed: Vec<(JsonMove, String)> = moves
            .iter()
            .map(|m| JsonMove::from_value(m).map(|jm| (jm, m.to_string())))
            .collect::<Result<_, _>>()?;
        let written: Vec<Written<'_, JsonMove>> = parsed
            .iter()
            .map(|(m, text)| Written {
                item: m,
                text,
                span: Span::new(1, 1),
            })
            .collect();
        let color = a.get("player").and_then(color_of);
        let played = replay::play_action(&mut game, i + 1, color, &written, &mut warnings, |m, pos| {
            m.resolve(pos).map(|m| (m, None))
        });
        match played {
            Err(e) if passes && matches!(e.reason, Reason::Submit(_)) => game.pass().map_err(|_| Error::Resolve(e))?,
            other => other?,
        }
    }
    let tree = crate::GameTree::from_game(&game);
    Ok(LoadedGame::read(Format::Json, headers, tree, Some(game), Vec::new()))
}
