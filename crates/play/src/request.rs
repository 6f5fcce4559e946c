//! The typed requests of the game service (API.md's bodies) and their validation, written once
//! for both doors: the server reads them from HTTP bodies, the static site from the page's calls.
//! Every body refuses unknown fields.

use crate::error::PlayError;
use crate::game::{Clock, Play, Player, PuzzleRun};
use crate::terms::{color_name, ANALYSIS_LINES, MAX_ANALYSIS_LINES};
use chess5d_engine::Bot;
use chess5d_notation::LoadedGame;
use chess5d_rules::{Color, Variant, VARIANTS};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::terms::MAX_NAME;
/// The longest move text accepted.
pub const MAX_MOVE: usize = 100;
/// An engine's time per action without a clock, in milliseconds.
pub const MOVETIME_MS: std::ops::RangeInclusive<u64> = 10..=60_000;
/// A clock's time per side at the start, in milliseconds.
pub const CLOCK_INITIAL_MS: std::ops::RangeInclusive<u64> = 1_000..=86_400_000;
/// A clock's largest increment, in milliseconds.
pub const MAX_INCREMENT_MS: u64 = 3_600_000;
/// An engine's time per action when the request names none.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// Reads a request body (JSON; empty means `{}`). Every body is an object: an array (which
/// serde would read field by field) is refused.
pub fn parse<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, PlayError> {
    let body = if body.trim().is_empty() { "{}" } else { body };
    if !body.trim_start().starts_with('{') {
        return Err(PlayError::body("the body must be a JSON object {...}"));
    }
    serde_json::from_str(body).map_err(PlayError::body)
}

/// Whether a character may not appear in a name or a variant: control characters (NUL, CR,
/// LF...) and the bidirectional controls that reorder what follows them.
pub fn is_forbidden_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A side as written in requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl Side {
    /// The rules' colour.
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// A clock in a request.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClockReq {
    /// Time per side at the start (not with `days`).
    #[serde(default)]
    pub initial_ms: u64,
    /// Added after each action.
    #[serde(default)]
    pub increment_ms: u64,
    /// Correspondence: days per action, one of [`CORRESPONDENCE_DAYS`] (instead of a time and
    /// an increment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
}

/// The days per action a correspondence clock may have.
pub const CORRESPONDENCE_DAYS: [u32; 6] = [1, 2, 3, 5, 7, 14];

impl ClockReq {
    /// The request of an existing clock (a rematch's).
    pub fn of(c: &Clock) -> ClockReq {
        match c.days {
            Some(d) => ClockReq {
                initial_ms: 0,
                increment_ms: 0,
                days: Some(d),
            },
            None => ClockReq {
                initial_ms: c.initial_ms,
                increment_ms: c.increment_ms,
                days: None,
            },
        }
    }

    /// The clock, if its times are within bounds.
    pub fn check(&self) -> Result<Clock, PlayError> {
        if let Some(d) = self.days {
            if !CORRESPONDENCE_DAYS.contains(&d) || self.initial_ms != 0 || self.increment_ms != 0 {
                return Err(PlayError::BadField {
                    field: "clock",
                    expected: format!(
                        "days per action one of {CORRESPONDENCE_DAYS:?}, without initial_ms or increment_ms"
                    ),
                    got: format!(
                        "days {d}, initial_ms {}, increment_ms {}",
                        self.initial_ms, self.increment_ms
                    ),
                });
            }
            return Ok(Clock::per_action_days(d));
        }
        if !CLOCK_INITIAL_MS.contains(&self.initial_ms) || self.increment_ms > MAX_INCREMENT_MS {
            return Err(PlayError::BadField {
                field: "clock",
                expected: format!(
                    "initial_ms from {} to {}, increment_ms at most {MAX_INCREMENT_MS}",
                    CLOCK_INITIAL_MS.start(),
                    CLOCK_INITIAL_MS.end()
                ),
                got: format!("initial_ms {}, increment_ms {}", self.initial_ms, self.increment_ms),
            });
        }
        Ok(Clock::new(self.initial_ms, self.increment_ms))
    }
}

/// The body of `POST /api/games`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateReq {
    /// The variant (Standard if neither it nor `import` is given).
    #[serde(default)]
    pub variant: Option<String>,
    /// A 5DPGN/5DFEN text to start from.
    #[serde(default)]
    pub import: Option<String>,
    /// White's player (a person by default).
    #[serde(default)]
    pub white: Option<Player>,
    /// Black's player (a person by default).
    #[serde(default)]
    pub black: Option<Player>,
    /// The clock, if any.
    #[serde(default)]
    pub clock: Option<ClockReq>,
    /// The side the creator plays (the server's: the other human side gets an invite).
    #[serde(default)]
    pub seat: Option<Side>,
}

/// A new game, checked, with the side its creator asked to play.
#[derive(Debug)]
pub struct NewGame {
    /// The game.
    pub play: Play,
    /// The creator's side (every human side if `None`).
    pub seat: Option<Color>,
}

impl CreateReq {
    /// Checks the request against the configured `engines` (the first is the default) and makes
    /// the game, made at `created`.
    pub fn check(self, engines: &[String], created: String) -> Result<NewGame, PlayError> {
        let players = [check_player(engines, self.white)?, check_player(engines, self.black)?];
        let clock = self.clock.as_ref().map(ClockReq::check).transpose()?;
        let loaded = match (self.import, self.variant) {
            (Some(_), Some(_)) => {
                return Err(PlayError::EitherOr {
                    a: "variant",
                    b: "import",
                    both: true,
                    hint: "",
                })
            }
            (Some(text), None) => import(&text)?,
            (None, v) => LoadedGame::new(chess5d_notation::Format::Pgn, variant(v)?.position()),
        };
        let seat = self.seat.map(Side::color);
        if let Some(c) = seat {
            if players[c.index()].is_engine() {
                return Err(PlayError::SeatIsEngine { color: c });
            }
        }
        let result = loaded.result.clone().filter(|r| r != "*");
        // How the record says it ended (`resignation`...), if it says it in a short plain text.
        let termination = loaded
            .header("Termination")
            .filter(|t| !t.is_empty() && t.chars().count() <= 40 && !t.chars().any(is_forbidden_char))
            .map(str::to_string);
        // The tree read (the main line and its variations): the game keeps its variations.
        let tree = loaded.tree().clone();
        let mut play = Play::new(loaded, players, clock, None, created);
        play.keep_variations(tree);
        if let Some(r) = result {
            play.finish(&r, termination.as_deref().unwrap_or("imported result"));
        }
        Ok(NewGame { play, seat })
    }
}

/// A text to import, read (an empty one is refused).
pub fn import(text: &str) -> Result<LoadedGame, PlayError> {
    if text.trim().is_empty() {
        return Err(PlayError::EmptyImport);
    }
    chess5d_notation::load(text).map_err(|e| PlayError::CannotImport { reason: e.to_string() })
}

/// The variant of this name (Standard if `None`).
pub fn variant(name: Option<String>) -> Result<&'static Variant, PlayError> {
    let name = name.unwrap_or_else(|| "Standard".into());
    if name.chars().any(is_forbidden_char) {
        return Err(PlayError::BadField {
            field: "variant",
            expected: "a variant name without control characters".into(),
            got: format!("{name:?}"),
        });
    }
    Variant::by_name(&name).ok_or_else(|| PlayError::UnknownVariant {
        name,
        known: VARIANTS.iter().map(|v| v.name.to_string()).collect(),
    })
}

/// A player name: at most [`MAX_NAME`] characters; blank is no name.
pub fn check_name(name: Option<String>) -> Result<Option<String>, PlayError> {
    if name.as_ref().is_some_and(|n| n.chars().count() > MAX_NAME) {
        return Err(PlayError::NameTooLong);
    }
    if let Some(n) = name.as_ref().filter(|n| n.chars().any(is_forbidden_char)) {
        return Err(PlayError::BadField {
            field: "name",
            expected: "a name without control characters (newlines, NUL...) or bidirectional controls".into(),
            got: format!("{n:?}"),
        });
    }
    Ok(name.filter(|n| !n.trim().is_empty()))
}

/// The configured engine of this name (the first if `None`).
pub fn find_engine<'a>(engines: &'a [String], name: Option<&str>) -> Result<&'a String, PlayError> {
    match name {
        None => engines.first().ok_or(PlayError::NoEngine),
        Some(n) => engines
            .iter()
            .find(|e| *e == n)
            .ok_or_else(|| PlayError::UnknownEngine {
                name: n.to_string(),
                known: engines.to_vec(),
            }),
    }
}

/// A player of a request, checked (a person if `None`); an engine player gets its engine, bot
/// and time written out.
pub fn check_player(engines: &[String], p: Option<Player>) -> Result<Player, PlayError> {
    match p.unwrap_or(Player::Human { name: None }) {
        Player::Human { name } => Ok(Player::Human {
            name: check_name(name)?,
        }),
        Player::Engine {
            engine,
            bot,
            movetime_ms,
        } => {
            let engine = find_engine(engines, engine.as_deref())?.clone();
            if let Some(b) = bot.as_deref().filter(|b| Bot::from_name(b).is_none()) {
                return Err(PlayError::UnknownBot { name: b.to_string() });
            }
            if let Some(ms) = movetime_ms.filter(|ms| !MOVETIME_MS.contains(ms)) {
                return Err(PlayError::BadField {
                    field: "movetime_ms",
                    expected: format!("between {} and {}", MOVETIME_MS.start(), MOVETIME_MS.end()),
                    got: ms.to_string(),
                });
            }
            Ok(Player::Engine {
                engine: Some(engine),
                bot: Some(bot.unwrap_or_else(|| "alphabeta".into()).to_ascii_lowercase()),
                movetime_ms: Some(movetime_ms.unwrap_or(DEFAULT_MOVETIME_MS)),
            })
        }
    }
}

/// The body of `POST /api/games/:id/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveReq {
    /// The move in long form.
    #[serde(rename = "move")]
    pub mv: String,
}

/// The body of `resign` and `abort`: the side acted for (the requester's own by default).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideReq {
    /// The side (`white` or `black`).
    #[serde(default)]
    pub color: Option<String>,
}

/// The side named by a request's `color`, if any.
fn side_named(color: Option<&str>) -> Result<Option<Color>, PlayError> {
    match color {
        None => Ok(None),
        Some("white") => Ok(Some(Color::White)),
        Some("black") => Ok(Some(Color::Black)),
        Some(c) => Err(PlayError::BadField {
            field: "color",
            expected: "'white' or 'black'".into(),
            got: format!("'{c}'"),
        }),
    }
}

/// What a draw request does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    /// Offer a draw (or accept the other side's offer).
    Offer,
    /// Accept the other side's offer.
    Accept,
    /// Decline (or withdraw) the offer.
    Decline,
}

/// The body of `POST /api/games/:id/draw`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawReq {
    /// What to do.
    pub action: DrawAction,
    /// The side acted for (the requester's own by default).
    #[serde(default)]
    pub color: Option<String>,
}

/// An empty body.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// A request that changes a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a move of the action being built.
    Move(String),
    /// Take back the last move of the action being built.
    Undo,
    /// Submit the action.
    Submit,
    /// Resign for a side.
    Resign(Option<Color>),
    /// Abort for a side (until it has played).
    Abort(Option<Color>),
    /// Offer, accept or decline a draw for a side.
    Draw(DrawAction, Option<Color>),
}

impl Action {
    /// The action a request of this name (`move`, `undo`, `submit`, `resign`, `abort`, `draw`)
    /// with this JSON body asks for; `None` for another name.
    pub fn read(what: &str, body: &str) -> Option<Result<Action, PlayError>> {
        let side = |b: &str| parse::<SideReq>(b).and_then(|r| side_named(r.color.as_deref()));
        Some(match what {
            "move" => parse::<MoveReq>(body).and_then(|r| {
                if r.mv.len() > MAX_MOVE {
                    return Err(PlayError::BadField {
                        field: "move",
                        expected: format!("at most {MAX_MOVE} characters"),
                        got: format!("{} characters", r.mv.len()),
                    });
                }
                Ok(Action::Move(r.mv))
            }),
            "undo" => parse::<Empty>(body).map(|_| Action::Undo),
            "submit" => parse::<Empty>(body).map(|_| Action::Submit),
            "resign" => side(body).map(Action::Resign),
            "abort" => side(body).map(Action::Abort),
            "draw" => parse::<DrawReq>(body).and_then(|r| Ok(Action::Draw(r.action, side_named(r.color.as_deref())?))),
            _ => return None,
        })
    }

    /// The action a request of this name asks of an analysis board, which has moves and no
    /// players: `move`, `undo` or `submit` (as [`Action::read`]); `None` for another name.
    pub fn read_on_board(what: &str, body: &str) -> Option<Result<Action, PlayError>> {
        match what {
            "move" | "undo" | "submit" => Action::read(what, body),
            _ => None,
        }
    }

    /// What the requester must hold.
    pub fn need(&self) -> crate::seats::Need {
        use crate::seats::Need;
        match self {
            Action::Move(_) | Action::Undo | Action::Submit => Need::ToMove,
            Action::Resign(c) | Action::Abort(c) | Action::Draw(_, c) => Need::Side(*c),
        }
    }
}

/// The body of `POST /api/analysis`: a game (at an action count) or a text.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisReq {
    /// A game's id.
    #[serde(default)]
    pub game: Option<i64>,
    /// With `game`: its first `at` actions (all by default).
    #[serde(default)]
    pub at: Option<usize>,
    /// A 5DPGN/5DFEN text.
    #[serde(default)]
    pub import: Option<String>,
}

/// Where an analysis board (or a puzzle) starts.
#[derive(Debug)]
pub enum Source {
    /// A game after its first `at` actions (all if `None`).
    Game(i64, Option<usize>),
    /// A text, read.
    Import(Box<LoadedGame>),
}

impl AnalysisReq {
    /// The board's start, checked.
    pub fn source(self) -> Result<Source, PlayError> {
        source(
            self.game,
            self.at,
            self.import,
            "give 'game' (an id) or 'import' (a text)",
        )
    }
}

fn source(
    game: Option<i64>,
    at: Option<usize>,
    import: Option<String>,
    hint: &'static str,
) -> Result<Source, PlayError> {
    match (game, import) {
        (Some(_), Some(_)) => Err(PlayError::EitherOr {
            a: "game",
            b: "import",
            both: true,
            hint,
        }),
        (None, None) => Err(PlayError::EitherOr {
            a: "game",
            b: "import",
            both: false,
            hint,
        }),
        (None, Some(_)) if at.is_some() => Err(PlayError::GoesWith {
            field: "at",
            with: "game",
        }),
        (None, Some(text)) => Ok(Source::Import(Box::new(
            chess5d_notation::load(&text).map_err(|e| PlayError::CannotImport { reason: e.to_string() })?,
        ))),
        (Some(id), None) => Ok(Source::Game(id, at)),
    }
}

/// The body of `POST /api/analysis/:id/start` (optional): how many best lines to report.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartReq {
    /// 1 to [`MAX_ANALYSIS_LINES`] ([`ANALYSIS_LINES`] if not given).
    #[serde(default)]
    pub multipv: Option<Value>,
}

impl StartReq {
    /// The number of lines asked for, checked.
    pub fn multipv(&self) -> Result<usize, PlayError> {
        analysis_multipv(self.multipv.as_ref())
    }
}

/// The body of `POST /api/user-puzzles`: a position and its goal.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleReq {
    /// A 5DFEN/5DPGN text (a record with a `Goal` header is posed before its solution).
    #[serde(default)]
    pub import: Option<String>,
    /// A game's id.
    #[serde(default)]
    pub game: Option<i64>,
    /// With `game`: its first `at` actions (all by default).
    #[serde(default)]
    pub at: Option<usize>,
    /// Mate in how many actions (else the record's `Puzzle` header).
    #[serde(default)]
    pub mate_in: Option<usize>,
    /// The puzzle's name (else the record's `Event` header).
    #[serde(default)]
    pub name: Option<String>,
}

impl PuzzleReq {
    /// Where the puzzle's position comes from, checked (with its goal's bounds).
    pub fn source(&mut self) -> Result<Source, PlayError> {
        if let Some(n) = self.mate_in {
            crate::proof::check_goal(n)?;
        }
        let source = source(
            self.game,
            self.at,
            self.import.take(),
            "give the position: 'import' (5DFEN/5DPGN text) or 'game' (an id, with 'at')",
        );
        match source {
            Err(PlayError::EitherOr { both: true, .. }) => Err(PlayError::EitherOr {
                a: "import",
                b: "game",
                both: true,
                hint: "",
            }),
            other => other,
        }
    }
}

/// A puzzle game: `loaded` posed for its side to move, the defence played by `engine`.
pub fn puzzle_game(loaded: LoadedGame, id: &str, name: &str, engine: Player, created: String) -> Play {
    let loaded = crate::proof::posed(loaded);
    let solver = loaded.game().to_move();
    let run = PuzzleRun {
        id: id.to_string(),
        name: name.to_string(),
        setup_actions: loaded.game().actions().len(),
        mate_in: crate::proof::mate_in_of(&loaded),
        solver: color_name(solver).to_string(),
        status: "playing".into(),
        goal: None,
        better: None,
    };
    let human = Player::Human { name: None };
    let players = if solver == Color::White {
        [human, engine]
    } else {
        [engine, human]
    };
    let mut play = Play::new(loaded, players, None, Some(run), created);
    play.headers.push(("Event".into(), format!("Puzzle: {name}")));
    play.after_change(true);
    play
}

/// The number of lines asked of an analysis (`multipv` of a request): 1 to
/// [`MAX_ANALYSIS_LINES`], [`ANALYSIS_LINES`] when not given; anything else is refused with a
/// message that says what is accepted.
pub fn analysis_multipv(asked: Option<&Value>) -> Result<usize, PlayError> {
    let Some(v) = asked.filter(|v| !v.is_null()) else {
        return Ok(ANALYSIS_LINES);
    };
    match v.as_u64() {
        Some(n) if (1..=MAX_ANALYSIS_LINES as u64).contains(&n) => Ok(n as usize),
        _ => Err(PlayError::BadField {
            field: "multipv",
            expected: format!("a whole number from 1 to {MAX_ANALYSIS_LINES}"),
            got: v.to_string(),
        }),
    }
}

/// The query string of a request (`?at=3`, `?l=0&t=1&square=e2`), read once for both doors:
/// the server hands it the raw query, the static site the part of the path after `?`.
#[derive(Clone, Debug, Default)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

/// The board and square of a moves request (`GET .../moves?l=0&t=1&square=e2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareQuery {
    /// The timeline.
    pub l: i32,
    /// The turn's board index (as the view's boards number it).
    pub t: i32,
    /// The square, as the page names it (`e2`).
    pub square: String,
}

impl Query {
    /// Reads a query string (without its `?`; percent and `+` escapes decoded).
    pub fn parse(text: &str) -> Query {
        Query {
            pairs: form_urlencoded::parse(text.as_bytes()).into_owned().collect(),
        }
    }

    /// A query of these pairs (a typed call's parameters).
    pub fn of(pairs: impl IntoIterator<Item = (String, String)>) -> Query {
        Query {
            pairs: pairs.into_iter().collect(),
        }
    }

    /// The query string (without its `?`; escaped), empty for none.
    pub fn text(&self) -> String {
        form_urlencoded::Serializer::new(String::new())
            .extend_pairs(self.pairs.iter())
            .finish()
    }

    /// The first value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// `token`: an analysis board's token where no header can carry it (a browser's WebSocket,
    /// a download link).
    pub fn token(&self) -> Option<&str> {
        self.get("token")
    }

    /// `at`: the action count a game is shown at (review), `None` when not given (live).
    pub fn at(&self) -> Result<Option<usize>, PlayError> {
        self.get("at")
            .map(|a| {
                a.parse().map_err(|_| PlayError::BadQuery {
                    param: "at",
                    expected: "an action count".into(),
                    got: Some(a.to_string()),
                })
            })
            .transpose()
    }

    /// `at` or `variation`: the position a game is shown at (`at`: after its first `at`
    /// actions; `variation`: after that variation move), live when neither is given.
    pub fn shown(&self) -> Result<crate::view::Shown, PlayError> {
        let Some(v) = self.get("variation") else {
            return Ok(self.at()?.into());
        };
        if self.get("at").is_some() {
            return Err(PlayError::EitherOr {
                a: "at",
                b: "variation",
                both: true,
                hint: "",
            });
        }
        v.parse()
            .map(crate::view::Shown::Variation)
            .map_err(|_| PlayError::BadQuery {
                param: "variation",
                expected: "a variation move's number".into(),
                got: Some(v.to_string()),
            })
    }

    /// `from`: the first action of a review's per-action data asked for (the page asks for
    /// those it has not got yet), `None` when not given (all of them).
    pub fn from_action(&self) -> Result<Option<usize>, PlayError> {
        self.get("from")
            .map(|a| {
                a.parse().map_err(|_| PlayError::BadQuery {
                    param: "from",
                    expected: "an action index (0, 1, 2...)".into(),
                    got: Some(a.to_string()),
                })
            })
            .transpose()
    }

    /// `offset` and `limit`: the page of a list asked for, as (offset, count); `limit` at most
    /// `page_size`, which is the count when not given.
    pub fn page(&self, page_size: usize) -> Result<(usize, usize), PlayError> {
        let num = |param: &'static str, min: usize, max: usize| {
            self.get(param)
                .map(|v| match v.parse::<usize>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(n),
                    _ => Err(PlayError::BadQuery {
                        param,
                        expected: format!("a whole number from {min} to {max}"),
                        got: Some(v.to_string()),
                    }),
                })
                .transpose()
        };
        let offset = num("offset", 0, u32::MAX as usize)?.unwrap_or(0);
        let count = num("limit", 1, page_size.max(1))?.unwrap_or(page_size.max(1));
        Ok((offset, count))
    }

    /// [`Query::square`], or `None` when none of `l`, `t` and `square` is given (every move
    /// of the action is asked for).
    pub fn square_or_all(&self) -> Result<Option<SquareQuery>, PlayError> {
        if ["l", "t", "square"].iter().all(|p| self.get(p).is_none()) {
            return Ok(None);
        }
        self.square().map(Some)
    }

    /// `l`, `t` and `square`: the piece whose moves are asked for.
    pub fn square(&self) -> Result<SquareQuery, PlayError> {
        let need = |param: &'static str| {
            self.get(param).ok_or_else(|| PlayError::BadQuery {
                param,
                expected: "given".into(),
                got: None,
            })
        };
        let int = |param: &'static str| {
            let v = need(param)?;
            v.parse().map_err(|_| PlayError::BadQuery {
                param,
                expected: "an integer".into(),
                got: Some(v.to_string()),
            })
        };
        Ok(SquareQuery {
            l: int("l")?,
            t: int("t")?,
            square: need("square")?.to_string(),
        })
    }
}
