//! The typed requests both doors answer ([`Call`]): the server's handlers answer them after
//! axum's routing, the static site's `crates/local` takes them from the page as JSON
//! (`{"call": "create_game", "body": {...}}`) with no URL router of its own. [`Call::http`] is
//! the one place in Rust that says which URL of API.md a call is (the contract's HTTP client
//! uses it, as the page's `backend/remote.js` does the same on the page).
//!
//! Ids, query parameters and bodies stay as the client sent them: the service reads them (and
//! refuses them, with the same kinds and codes) as it reads the server's paths, queries and
//! bodies.

use crate::error::PlayError;
use crate::request::Query;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// An id as a page sends it: a number or a text (kept as text: the service reads it, and a bad
/// one is refused as the server refuses it in a path).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Id(pub String);

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        // Read as a URL's text would be (a bad one, e.g. `true`, is refused as a bad id).
        Param::deserialize(d).map(|p| Id(p.0))
    }
}

impl std::fmt::Display for Id {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Query parameters as the page sends them (each read by [`Query`] as the text it would be in
/// a URL).
pub type Params = std::collections::BTreeMap<String, Param>;

/// A query parameter as a page sends it: a text, a number or a truth value, kept as the text it
/// would be in a URL (`{l: 0}` and `?l=0` are one query).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Param(pub String);

impl<'de> Deserialize<'de> for Param {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Param, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(serde_json::Number),
            Truth(bool),
            Text(String),
        }
        Ok(Param(match Raw::deserialize(d)? {
            Raw::Number(n) => n.to_string(),
            Raw::Truth(b) => b.to_string(),
            Raw::Text(t) => t,
        }))
    }
}

/// A request both doors answer: one variant a endpoint of API.md that the static site has too
/// (the server's other endpoints, seats, accounts, the lobby, are the server's alone).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "call", rename_all = "snake_case", deny_unknown_fields)]
pub enum Call {
    /// `GET /api/info`: the engines, bots and variants.
    Info {},
    /// `GET /api/games`: the games' summaries, newest first.
    Games {},
    /// `POST /api/games`: a new game (`request::CreateReq`).
    CreateGame {
        /// The body.
        #[serde(default)]
        body: Value,
    },
    /// `GET /api/games/:id` (`at` or `variation`: a position of it).
    Game {
        /// The game.
        id: Id,
        /// `at`, `variation`.
        #[serde(default)]
        query: Params,
    },
    /// `DELETE /api/games/:id`.
    DeleteGame {
        /// The game.
        id: Id,
    },
    /// `GET /api/games/:id/moves?l&t&square`: a piece's moves.
    GameMoves {
        /// The game.
        id: Id,
        /// `l`, `t`, `square`.
        #[serde(default)]
        query: Params,
    },
    /// `GET /api/games/:id/pgn`: its 5DPGN (a text).
    GamePgn {
        /// The game.
        id: Id,
    },
    /// `POST /api/games/:id/:action`: `move`, `undo`, `submit`, `resign`, `abort`, `draw`.
    Act {
        /// The game.
        id: Id,
        /// The action's name.
        action: String,
        /// Its body.
        #[serde(default)]
        body: Value,
    },
    /// `POST /api/games/:id/retry-engine`.
    RetryEngine {
        /// The game.
        id: Id,
    },
    /// `GET /api/games/:id/review` (`from`: the first action's data asked for).
    Review {
        /// The game.
        id: Id,
        /// `from`.
        #[serde(default)]
        query: Params,
    },
    /// `POST /api/games/:id/review`: starts the computer review.
    StartReview {
        /// The game.
        id: Id,
        /// The body (empty).
        #[serde(default)]
        body: Value,
    },
    /// `DELETE /api/games/:id/review`: stops it.
    CancelReview {
        /// The game.
        id: Id,
    },
    /// `GET /api/games/:id/mistakes`.
    Mistakes {
        /// The game.
        id: Id,
    },
    /// `POST /api/games/:id/mistakes/:n`: a puzzle game of mistake `n`.
    StartMistake {
        /// The game.
        id: Id,
        /// The mistake's index.
        n: Id,
        /// The body (empty).
        #[serde(default)]
        body: Value,
    },
    /// `POST /api/my-games`: the games of these seat tokens (none in the static site).
    MyGames {
        /// The body (`{tokens}`).
        #[serde(default)]
        body: Value,
    },
    /// `GET /api/challenges`: the lobby (empty in the static site).
    Challenges {
        /// `offset`, `limit`, `min_rating`, `max_rating`.
        #[serde(default)]
        query: Params,
    },
    /// `GET /api/lessons`: the course.
    Lessons {},
    /// `POST /api/lessons/:id/:n`: a game of lesson `id`'s exercise `n`.
    StartExercise {
        /// The lesson.
        id: Id,
        /// The exercise.
        n: Id,
        /// The body (empty).
        #[serde(default)]
        body: Value,
    },
    /// `GET /api/puzzles` (`offset`, `limit`: a page of it).
    Puzzles {
        /// `offset`, `limit`.
        #[serde(default)]
        query: Params,
    },
    /// `GET /api/puzzles/:id/pgn`: a puzzle's record (a text).
    PuzzlePgn {
        /// The puzzle.
        id: Id,
    },
    /// `POST /api/puzzles/:id`: a game solving puzzle `id`.
    StartPuzzle {
        /// The puzzle.
        id: Id,
        /// The body (empty).
        #[serde(default)]
        body: Value,
    },
    /// `POST /api/user-puzzles`: the puzzle maker (`request::PuzzleReq`).
    MakePuzzle {
        /// The body.
        #[serde(default)]
        body: Value,
    },
    /// `POST /api/analysis`: a new analysis board (`request::AnalysisReq`).
    CreateAnalysis {
        /// The body.
        #[serde(default)]
        body: Value,
    },
    /// `GET /api/analysis/:id` (`at`: a position of it).
    Analysis {
        /// The board.
        id: Id,
        /// `at`.
        #[serde(default)]
        query: Params,
    },
    /// `DELETE /api/analysis/:id`.
    DeleteAnalysis {
        /// The board.
        id: Id,
    },
    /// `GET /api/analysis/:id/moves?l&t&square`.
    AnalysisMoves {
        /// The board.
        id: Id,
        /// `l`, `t`, `square`.
        #[serde(default)]
        query: Params,
    },
    /// `GET /api/analysis/:id/pgn`: the game with the board's line as a variation (a text).
    AnalysisPgn {
        /// The board.
        id: Id,
    },
    /// `POST /api/analysis/:id/start`: its engine starts (`request::StartReq`).
    StartAnalysis {
        /// The board.
        id: Id,
        /// The body.
        #[serde(default)]
        body: Value,
    },
    /// `POST /api/analysis/:id/stop`.
    StopAnalysis {
        /// The board.
        id: Id,
    },
    /// `POST /api/analysis/:id/:action`: `move`, `undo`, `submit`, `takeback`.
    AnalysisAct {
        /// The board.
        id: Id,
        /// The action's name.
        action: String,
        /// Its body.
        #[serde(default)]
        body: Value,
    },
}

/// Every call's name, as `{"call": ...}` names it (the contract calls each; a test checks the
/// list against the enum).
pub const NAMES: [&str; 30] = [
    "info",
    "games",
    "create_game",
    "game",
    "delete_game",
    "game_moves",
    "game_pgn",
    "act",
    "retry_engine",
    "review",
    "start_review",
    "cancel_review",
    "mistakes",
    "start_mistake",
    "my_games",
    "challenges",
    "lessons",
    "start_exercise",
    "puzzles",
    "puzzle_pgn",
    "start_puzzle",
    "make_puzzle",
    "create_analysis",
    "analysis",
    "delete_analysis",
    "analysis_moves",
    "analysis_pgn",
    "start_analysis",
    "stop_analysis",
    "analysis_act",
];

/// An HTTP request: method, path with its query, and body (JSON text, empty for none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Http {
    /// `GET`, `POST` or `DELETE`.
    pub method: &'static str,
    /// The path and query (`/api/games/1?at=2`).
    pub path: String,
    /// The body's JSON text, empty for none.
    pub body: String,
}

impl Call {
    /// Reads a call from the page's JSON. An unknown call or a bad field is refused as a bad
    /// body.
    pub fn read(text: &str) -> Result<Call, PlayError> {
        serde_json::from_str(text).map_err(PlayError::body)
    }

    /// Its name (`{"call": ...}`).
    pub fn name(&self) -> &'static str {
        match serde_json::to_value(self)
            .ok()
            .and_then(|v| v["call"].as_str().map(str::to_string))
        {
            Some(n) => NAMES.iter().find(|x| **x == n).copied().unwrap_or("?"),
            None => "?",
        }
    }

    /// Its query parameters read as the server reads a query string.
    pub fn query(&self) -> Query {
        match self {
            Call::Game { query, .. }
            | Call::GameMoves { query, .. }
            | Call::Review { query, .. }
            | Call::Challenges { query }
            | Call::Puzzles { query }
            | Call::Analysis { query, .. }
            | Call::AnalysisMoves { query, .. } => Query::of(query.iter().map(|(k, v)| (k.clone(), v.0.clone()))),
            _ => Query::default(),
        }
    }

    /// Its body as JSON text (empty for none, as an HTTP request without a body).
    pub fn body(&self) -> String {
        match self {
            Call::CreateGame { body }
            | Call::Act { body, .. }
            | Call::StartReview { body, .. }
            | Call::StartMistake { body, .. }
            | Call::MyGames { body }
            | Call::StartExercise { body, .. }
            | Call::StartPuzzle { body, .. }
            | Call::MakePuzzle { body }
            | Call::CreateAnalysis { body }
            | Call::StartAnalysis { body, .. }
            | Call::AnalysisAct { body, .. } => match body {
                Value::Null => String::new(),
                b => b.to_string(),
            },
            _ => String::new(),
        }
    }

    /// The server's URL of this call (API.md): the mapping of a client over HTTP.
    pub fn http(&self) -> Http {
        let g = |id: &Id, rest: &str| format!("/api/games/{}{rest}", esc(&id.0));
        let a = |id: &Id, rest: &str| format!("/api/analysis/{}{rest}", esc(&id.0));
        let (method, path) = match self {
            Call::Info {} => ("GET", "/api/info".to_string()),
            Call::Games {} => ("GET", "/api/games".into()),
            Call::CreateGame { .. } => ("POST", "/api/games".into()),
            Call::Game { id, .. } => ("GET", g(id, "")),
            Call::DeleteGame { id } => ("DELETE", g(id, "")),
            Call::GameMoves { id, .. } => ("GET", g(id, "/moves")),
            Call::GamePgn { id } => ("GET", g(id, "/pgn")),
            Call::Act { id, action, .. } => ("POST", g(id, &format!("/{}", esc(action)))),
            Call::RetryEngine { id } => ("POST", g(id, "/retry-engine")),
            Call::Review { id, .. } => ("GET", g(id, "/review")),
            Call::StartReview { id, .. } => ("POST", g(id, "/review")),
            Call::CancelReview { id } => ("DELETE", g(id, "/review")),
            Call::Mistakes { id } => ("GET", g(id, "/mistakes")),
            Call::StartMistake { id, n, .. } => ("POST", g(id, &format!("/mistakes/{}", esc(&n.0)))),
            Call::MyGames { .. } => ("POST", "/api/my-games".into()),
            Call::Challenges { .. } => ("GET", "/api/challenges".into()),
            Call::Lessons {} => ("GET", "/api/lessons".into()),
            Call::StartExercise { id, n, .. } => ("POST", format!("/api/lessons/{}/{}", esc(&id.0), esc(&n.0))),
            Call::Puzzles { .. } => ("GET", "/api/puzzles".into()),
            Call::PuzzlePgn { id } => ("GET", format!("/api/puzzles/{}/pgn", esc(&id.0))),
            Call::StartPuzzle { id, .. } => ("POST", format!("/api/puzzles/{}", esc(&id.0))),
            Call::MakePuzzle { .. } => ("POST", "/api/user-puzzles".into()),
            Call::CreateAnalysis { .. } => ("POST", "/api/analysis".into()),
            Call::Analysis { id, .. } => ("GET", a(id, "")),
            Call::DeleteAnalysis { id } => ("DELETE", a(id, "")),
            Call::AnalysisMoves { id, .. } => ("GET", a(id, "/moves")),
            Call::AnalysisPgn { id } => ("GET", a(id, "/pgn")),
            Call::StartAnalysis { id, .. } => ("POST", a(id, "/start")),
            Call::StopAnalysis { id } => ("POST", a(id, "/stop")),
            Call::AnalysisAct { id, action, .. } => ("POST", a(id, &format!("/{}", esc(action)))),
        };
        let query = self.query().text();
        let path = if query.is_empty() {
            path
        } else {
            format!("{path}?{query}")
        };
        Http {
            method,
            path,
            body: self.body(),
        }
    }

    /// The refusal of a call the service has no answer for (an unknown action's name), naming
    /// its URL as the server's refusal does.
    pub fn none(&self) -> PlayError {
        let h = self.http();
        PlayError::NoRequest {
            method: h.method.to_string(),
            path: h.path.split('?').next().unwrap_or_default().to_string(),
        }
    }
}

/// A path segment escaped (`/`, `?`, `#`, `%` and spaces, so an id cannot reach another URL).
fn esc(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes())
        .collect::<String>()
        .replace('+', "%20")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`NAMES`] is every call's name, each read back as its call.
    #[test]
    fn names_are_every_call() {
        for n in NAMES {
            // Each call with the fields it takes (of id, n, action), and no others.
            let read = (0..8).find_map(|mask: u8| {
                let mut v = serde_json::json!({ "call": n });
                for (i, (k, x)) in [
                    ("id", serde_json::json!(1)),
                    ("n", serde_json::json!(1)),
                    ("action", serde_json::json!("move")),
                ]
                .into_iter()
                .enumerate()
                {
                    if mask & (1 << i) != 0 {
                        v[k] = x;
                    }
                }
                serde_json::from_value::<Call>(v).ok()
            });
            assert_eq!(read.map(|c| c.name()), Some(n));
        }
        assert!(Call::read(r#"{"call": "fly"}"#).is_err());
        assert!(Call::read(r#"{"call": "info", "extra": 1}"#).is_err());
    }

    /// The page sends a query's numbers as numbers (`{l: 0, t: 1}`): read as the URL's texts.
    #[test]
    fn a_query_of_numbers_reads_as_its_texts() {
        let texts = Call::read(r#"{"call": "game_moves", "id": 3, "query": {"l": "0", "t": "1", "square": "e2"}}"#);
        let numbers = Call::read(r#"{"call": "game_moves", "id": 3, "query": {"l": 0, "t": 1, "square": "e2"}}"#);
        assert_eq!(numbers.unwrap(), texts.unwrap());
        let q = Call::read(r#"{"call": "puzzles", "query": {"limit": 5, "solved": true}}"#)
            .unwrap()
            .query();
        assert_eq!((q.get("limit"), q.get("solved")), (Some("5"), Some("true")));
        assert!(Call::read(r#"{"call": "puzzles", "query": {"limit": [5]}}"#).is_err());
    }

    #[test]
    fn http_names_the_url() {
        let c =
            Call::read(r#"{"call": "game_moves", "id": 3, "query": {"l": "0", "t": "1", "square": "e2"}}"#).unwrap();
        assert_eq!(c.http().path, "/api/games/3/moves?l=0&square=e2&t=1");
        let c = Call::read(r#"{"call": "act", "id": "1/../x", "action": "move", "body": {"move": "e4"}}"#).unwrap();
        assert_eq!(c.http().path, "/api/games/1%2F..%2Fx/move");
        assert_eq!(c.http().body, r#"{"move":"e4"}"#);
    }
}
