//! SQLite storage: one row per game, rewritten after every action; puzzle results.

use crate::ServerError;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::Mutex;

/// A stored game, as a row.
#[derive(Clone, Debug, Default)]
pub struct GameRow {
    pub id: i64,
    pub created: String,
    pub updated: String,
    pub variant: String,
    /// The start position as 5DFEN headers (see `chess5d_notation::write_5dfen`).
    pub start: String,
    /// Extra headers as JSON `[[name, value], ...]`.
    pub headers: String,
    /// Players as JSON.
    pub white: String,
    pub black: String,
    /// The submitted actions in long form, one per line.
    pub actions: String,
    pub n_actions: i64,
    pub result: Option<String>,
    pub termination: Option<String>,
    /// Clock as JSON, if the game has one.
    pub clock: Option<String>,
    /// Puzzle run as JSON, if the game is a puzzle.
    pub puzzle: Option<String>,
}

/// The database, one connection behind a mutex (every statement is short).
#[derive(Debug)]
pub struct Db {
    conn: Mutex<Option<Connection>>,
}

const SCHEMA: &str = "
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    variant TEXT NOT NULL,
    start TEXT NOT NULL,
    headers TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    actions TEXT NOT NULL DEFAULT '',
    n_actions INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    termination TEXT,
    clock TEXT,
    puzzle TEXT
);
CREATE TABLE IF NOT EXISTS puzzle_status (
    puzzle TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    updated TEXT NOT NULL
);
";

const COLUMNS: &str =
    "id, created, updated, variant, start, headers, white, black, actions, n_actions, result, termination, clock, puzzle";

fn row_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        created: r.get(1)?,
        updated: r.get(2)?,
        variant: r.get(3)?,
        start: r.get(4)?,
        headers: r.get(5)?,
        white: r.get(6)?,
        black: r.get(7)?,
        actions: r.get(8)?,
        n_actions: r.get(9)?,
        result: r.get(10)?,
        termination: r.get(11)?,
        clock: r.get(12)?,
        puzzle: r.get(13)?,
    })
}

impl Db {
    /// Opens (or creates) the database file.
    pub fn open(path: &Path) -> Result<Db, ServerError> {
        let conn = Connection::open(path)
            .map_err(|e| ServerError::Internal(format!("cannot open database {}: {e}", path.display())))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Db {
            conn: Mutex::new(Some(conn)),
        })
    }

    pub(crate) fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, ServerError> {
        let guard = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let conn = guard
            .as_ref()
            .ok_or_else(|| ServerError::Internal("the database is closed (server stopping)".into()))?;
        Ok(f(conn)?)
    }

    /// Closes the connection (later calls fail with an internal error).
    pub fn close(&self) {
        let mut guard = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(conn) = guard.take() {
            let _ = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
            let _ = conn.close();
        }
    }

    /// Inserts a new game and returns its id.
    pub fn insert(&self, g: &GameRow) -> Result<i64, ServerError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO games (created, updated, variant, start, headers, white, black, actions, n_actions, result, termination, clock, puzzle)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                params![
                    g.created, g.updated, g.variant, g.start, g.headers, g.white, g.black, g.actions, g.n_actions,
                    g.result, g.termination, g.clock, g.puzzle
                ],
            )?;
            Ok(c.last_insert_rowid())
        })
    }

    /// Rewrites the changing fields of a game.
    pub fn update(&self, g: &GameRow) -> Result<(), ServerError> {
        self.with(|c| {
            c.execute(
                "UPDATE games SET updated = ?2, headers = ?3, actions = ?4, n_actions = ?5, result = ?6,
                 termination = ?7, clock = ?8, puzzle = ?9 WHERE id = ?1",
                params![
                    g.id,
                    g.updated,
                    g.headers,
                    g.actions,
                    g.n_actions,
                    g.result,
                    g.termination,
                    g.clock,
                    g.puzzle
                ],
            )?;
            Ok(())
        })
    }

    /// One game.
    pub fn get(&self, id: i64) -> Result<Option<GameRow>, ServerError> {
        self.with(|c| {
            c.query_row(&format!("SELECT {COLUMNS} FROM games WHERE id = ?1"), [id], row_of)
                .optional()
        })
    }

    /// Every game, newest first.
    pub fn list(&self) -> Result<Vec<GameRow>, ServerError> {
        self.with(|c| {
            let mut st = c.prepare(&format!("SELECT {COLUMNS} FROM games ORDER BY id DESC LIMIT 1000"))?;
            let rows = st.query_map([], row_of)?;
            rows.collect()
        })
    }

    /// Deletes a game; whether it existed.
    pub fn delete(&self, id: i64) -> Result<bool, ServerError> {
        self.with(|c| Ok(c.execute("DELETE FROM games WHERE id = ?1", [id])? > 0))
    }

    /// Records a puzzle's status (`solved` wins over `failed`).
    pub fn set_puzzle_status(&self, puzzle: &str, status: &str, now: &str) -> Result<(), ServerError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO puzzle_status (puzzle, status, updated) VALUES (?1, ?2, ?3)
                 ON CONFLICT(puzzle) DO UPDATE SET status = CASE WHEN puzzle_status.status = 'solved' THEN 'solved' ELSE excluded.status END,
                 updated = excluded.updated",
                params![puzzle, status, now],
            )?;
            Ok(())
        })
    }

    /// Every puzzle's status.
    pub fn puzzle_statuses(&self) -> Result<Vec<(String, String)>, ServerError> {
        self.with(|c| {
            let mut st = c.prepare("SELECT puzzle, status FROM puzzle_status")?;
            let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        })
    }
}

/// The current UTC time as `YYYY-MM-DD HH:MM:SS`.
pub fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
