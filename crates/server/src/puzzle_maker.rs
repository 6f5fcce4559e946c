//! Layer: HTTP: routes over the domain's puzzle proof (`chess5d_play::proof`) and the database.
//!
//! Puzzles made by players: any position (an imported 5DFEN/5DPGN, a game's position after a
//! number of actions, or the page's position editor) saved with its goal, "mate in N for the side
//! to move". The goal is proven before the puzzle is saved (`chess5d_play::proof`: every legal action
//! of both sides is tried), otherwise the save is refused with the reason. The solution found is
//! stored with it. A saved puzzle is a 5DPGN record: headers (`Puzzle "mate-in-N"`, `Goal`,
//! `Event` with its name), the position as 5DFEN boards, the solution as a variation; it is
//! exported as such and can be imported again (the goal is proven again then).
//!
//! Stored in the table `user_puzzles` (created here); ids are `user-<n>`.

use crate::error::ServerError;
use crate::extract::{Client, JsonBody};
use crate::limits::Cancel;
use crate::puzzles::Puzzle;
use crate::state::{blocking, AppState};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chess5d_play::proof;
use chess5d_play::request::{PuzzleReq, Source};
use rusqlite::{params, OptionalExtension};
use serde_json::{json, Value};

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

/// A page of the saved puzzles, oldest first (`count` from `offset`), and how many there are.
pub fn page(st: &AppState, offset: usize, count: usize) -> Result<(Vec<UserPuzzle>, usize), ServerError> {
    st.db().with(|c| {
        let total: i64 = c.query_row("SELECT COUNT(*) FROM user_puzzles", [], |r| r.get(0))?;
        let mut q = c.prepare_cached(
            "SELECT id, name, mate_in, to_move, text FROM user_puzzles ORDER BY id LIMIT ?1 OFFSET ?2",
        )?;
        let rows = q.query_map(params![count as i64, offset as i64], |r| {
            Ok(UserPuzzle {
                id: format!("user-{}", r.get::<_, i64>(0)?),
                name: r.get(1)?,
                mate_in: r.get::<_, i64>(2)? as usize,
                to_move: r.get(3)?,
                text: r.get(4)?,
            })
        })?;
        Ok((rows.collect::<rusqlite::Result<Vec<_>>>()?, total as usize))
    })
}

/// How many puzzles `client` has made.
fn made_by(st: &AppState, client: &str) -> Result<u64, ServerError> {
    st.db()
        .with(|c| {
            c.query_row("SELECT COUNT(*) FROM user_puzzles WHERE client = ?1", [client], |r| {
                r.get::<_, i64>(0)
            })
        })
        .map(|n| n as u64)
}

/// One saved puzzle by id (`user-<n>`).
pub fn find(st: &AppState, id: &str) -> Result<Option<UserPuzzle>, ServerError> {
    let Some(n) = number(id) else { return Ok(None) };
    st.db().with(|c| {
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

/// The routes of the puzzle maker (merged into the server's router) but `POST
/// /api/user-puzzles` ([`create`]), which the router puts under the rate limit of creations.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/puzzles/{id}/pgn", get(export))
}

/// Makes a puzzle: a budgeted job. The proof runs within the `proof-budget` limit, one at a
/// time per client (`proofs-per-client`, `proofs` in all), at most `puzzles-per-hour` per
/// client, and stops when the request times out or its client goes away (the request's future
/// holds the [`Cancel`]); a stopped or spent proof is refused as unknown and nothing is saved.
/// A client keeps at most `puzzles-per-client` puzzles.
pub(crate) async fn create(
    State(st): State<AppState>,
    Client(client): Client,
    JsonBody(req): JsonBody<PuzzleReq>,
) -> Result<Response, ServerError> {
    let limits = st.limits().clone();
    crate::limits::check_import_text(req.import.as_deref(), &limits)?;
    let key = client.to_string();
    let cap = limits.puzzles_per_client;
    let full = move || {
        ServerError::Limited(format!(
            "{} has made {cap} puzzles, the most one client may keep (limit 'puzzles-per-client')",
            client.yours()
        ))
    };
    let (st2, key2) = (st.clone(), key.clone());
    if blocking(move || made_by(&st2, &key2)).await? >= cap {
        return Err(full());
    }
    limits.spend_proof(&st.inner.buckets, client)?;
    let permit = st
        .quotas()
        .proofs
        .take_waiting(
            client,
            limits.proofs_per_client,
            limits.proofs,
            "proofs",
            crate::limits::SHORT_WAIT,
        )
        .await?;
    let cancel = Cancel::default();
    let flag = cancel.flag();
    let st2 = st.clone();
    // The proof runs at a lower priority: its client's cores are those others leave idle.
    let v = crate::sync::background("proof", move || {
        let _permit = permit;
        let work = proof::Work::new(proof::BUDGET, limits.proof_budget, Some(&flag));
        let mut req = req;
        let made = match req.source()? {
            Source::Import(loaded) => {
                crate::limits::check_import_actions(loaded.game().actions().len(), &limits)?;
                proof::make_from_record(*loaded, false, req.mate_in, req.name, &work)?
            }
            Source::Game(id, at) => {
                let (loaded, _) = crate::analysis_api::game_until(&st2, id, at)?;
                proof::make_from_record(loaded, true, req.mate_in, req.name, &work)?
            }
        };
        if work.cancelled() {
            // The answer is gone (a 408 or a closed connection): nothing is saved.
            return Err(ServerError::from(chess5d_play::PlayError::ProofUnfinished {
                n: made.mate_in,
                positions: work.positions(),
                cancelled: true,
            }));
        }
        let proof::Made {
            name,
            mate_in: n,
            to_move,
            pgn: text,
        } = made;
        // One proof at a time per client: the count cannot have grown since it was read.
        if made_by(&st2, &key)? >= cap {
            return Err(full());
        }
        let id = st2.db().with(|c| {
            c.execute(
                "INSERT INTO user_puzzles (name, created, mate_in, to_move, text, client) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![name, crate::db::now(), n as i64, to_move, text, key],
            )?;
            Ok(c.last_insert_rowid())
        })?;
        Ok(json!({ "id": format!("user-{id}"), "name": name, "mate_in": n, "to_move": to_move, "pgn": text }))
    })
    .await?;
    drop(cancel);
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
            let status = status(&p.id);
            chess5d_play::listing::PuzzleEntry::made(p.id, p.name, p.mate_in, p.to_move, status).json()
        })
        .collect()
}
