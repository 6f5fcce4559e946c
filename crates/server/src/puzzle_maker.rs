//! Layer: HTTP: routes over the domain's puzzle proof (`chess5d_play::proof`) and the database.
//!
//! Puzzles made by players: any position (an imported 5DFEN/5DPGN, a game's position after a
//! number of actions, or the page's position editor) saved with its goal, "mate in N for the side
//! to move". The goal is proven before the puzzle is saved ([`mating_line`]: every legal action
//! of both sides is tried), otherwise the save is refused with the reason. The solution found is
//! stored with it. A saved puzzle is a 5DPGN record: headers (`Puzzle "mate-in-N"`, `Goal`,
//! `Event` with its name), the position as 5DFEN boards, the solution as a variation; it is
//! exported as such and can be imported again (the goal is proven again then).
//!
//! Stored in the table `user_puzzles` (created here); ids are `user-<n>`.

use crate::error::ServerError;
use crate::extract::JsonBody;
use crate::puzzles::Puzzle;
use crate::session::color_name;
use crate::state::{blocking, AppState};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chess5d_notation::LoadedGame;
use chess5d_rules::Position;
use rusqlite::{params, OptionalExtension};
use serde::Deserialize;
use serde_json::{json, Value};

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS user_puzzles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    mate_in INTEGER NOT NULL,
    to_move TEXT NOT NULL,
    text TEXT NOT NULL
)";

/// A saved puzzle made by a player.
#[derive(Clone, Debug)]
pub struct UserPuzzle {
    /// `user-<n>`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Actions of the solver to mate.
    pub mate_in: usize,
    /// `white` or `black`.
    pub to_move: String,
    /// The 5DPGN record.
    pub text: String,
}

fn number(id: &str) -> Option<i64> {
    id.strip_prefix("user-")?.parse().ok()
}

/// Every saved puzzle, oldest first.
pub fn list(st: &AppState) -> Result<Vec<UserPuzzle>, ServerError> {
    st.db().with(|c| {
        c.execute(SCHEMA, [])?;
        let mut q = c.prepare("SELECT id, name, mate_in, to_move, text FROM user_puzzles ORDER BY id")?;
        let rows = q.query_map([], |r| {
            Ok(UserPuzzle {
                id: format!("user-{}", r.get::<_, i64>(0)?),
                name: r.get(1)?,
                mate_in: r.get::<_, i64>(2)? as usize,
                to_move: r.get(3)?,
                text: r.get(4)?,
            })
        })?;
        rows.collect()
    })
}

/// One saved puzzle by id (`user-<n>`).
pub fn find(st: &AppState, id: &str) -> Result<Option<UserPuzzle>, ServerError> {
    let Some(n) = number(id) else { return Ok(None) };
    st.db().with(|c| {
        c.execute(SCHEMA, [])?;
        c.query_row(
            "SELECT name, mate_in, to_move, text FROM user_puzzles WHERE id = ?1",
            [n],
            |r| {
                Ok(UserPuzzle {
                    id: id.to_string(),
                    name: r.get(0)?,
                    mate_in: r.get::<_, i64>(1)? as usize,
                    to_move: r.get(2)?,
                    text: r.get(3)?,
                })
            },
        )
        .optional()
    })
}

/// The routes of the puzzle maker (merged into the server's router).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/user-puzzles", post(create))
        .route("/api/puzzles/:id/pgn", get(export))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    #[serde(default)]
    import: Option<String>,
    #[serde(default)]
    game: Option<i64>,
    #[serde(default)]
    at: Option<usize>,
    #[serde(default)]
    mate_in: Option<usize>,
    #[serde(default)]
    name: Option<String>,
}

/// The budget of each list of legal actions in a proof.
const BUDGET: u64 = 200_000;

/// Proves "mate in `n` for the side to move" in `pos` and writes the puzzle's record.
pub fn prove(pos: &Position, n: usize, name: &str) -> Result<String, ServerError> {
    Ok(chess5d_play::proof::prove(pos, n, name, BUDGET)?)
}

async fn create(State(st): State<AppState>, JsonBody(req): JsonBody<CreateReq>) -> Result<Response, ServerError> {
    let st2 = st.clone();
    let v = blocking(move || {
        let (pos, header_goal, header_name) = match (req.import, req.game) {
            (Some(_), Some(_)) => {
                return Err(ServerError::BadRequest(
                    "give either 'import' or 'game', not both".into(),
                ))
            }
            (None, None) => {
                return Err(ServerError::BadRequest(
                    "give the position: 'import' (5DFEN/5DPGN text) or 'game' (an id, with 'at')".into(),
                ))
            }
            (Some(text), None) => {
                let loaded: LoadedGame = chess5d_notation::load(&text)
                    .map(Puzzle::posed)
                    .map_err(|e| ServerError::BadRequest(format!("cannot import: {e}")))?;
                let goal = loaded.header("Puzzle").map(|_| Puzzle::mate_in_of(&loaded));
                let name = loaded.header("Event").map(str::to_string);
                (loaded.game.position().clone(), goal, name)
            }
            (None, Some(id)) => {
                let (loaded, _) = crate::analysis_api::game_until(&st2, id, req.at)?;
                (loaded.game.position().clone(), None, None)
            }
        };
        if pos.action_moves().next().is_some() {
            return Err(ServerError::BadRequest(
                "the position has moves of an unfinished action; a puzzle starts between actions".into(),
            ));
        }
        let n = req.mate_in.or(header_goal).ok_or_else(|| {
            ServerError::BadRequest("give the goal: 'mate_in' (or a [Puzzle \"mate-in-N\"] header)".into())
        })?;
        let name = req
            .name
            .or(header_name)
            .map(|n| n.trim().chars().take(60).collect::<String>())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("My puzzle (mate in {n})"));
        let text = prove(&pos, n, &name)?;
        let to_move = color_name(pos.to_move());
        let id = st2.db().with(|c| {
            c.execute(SCHEMA, [])?;
            c.execute(
                "INSERT INTO user_puzzles (name, created, mate_in, to_move, text) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![name, crate::db::now(), n as i64, to_move, text],
            )?;
            Ok(c.last_insert_rowid())
        })?;
        Ok(json!({ "id": format!("user-{id}"), "name": name, "mate_in": n, "to_move": to_move, "pgn": text }))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

async fn export(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ServerError> {
    let text = blocking(move || {
        if let Some(p) = Puzzle::by_id(&id) {
            return Ok(p.text.to_string());
        }
        find(&st, &id)?
            .map(|p| p.text)
            .ok_or_else(|| ServerError::NotFound(format!("no puzzle '{id}'")))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// The list entries of the saved puzzles (for `GET /api/puzzles`), with their statuses.
pub fn list_json(list: Vec<UserPuzzle>, status: impl Fn(&str) -> String) -> Vec<Value> {
    list.into_iter()
        .map(|p| {
            json!({ "id": p.id, "name": p.name, "mate_in": p.mate_in, "to_move": p.to_move,
                    "status": status(&p.id), "made": true })
        })
        .collect()
}
