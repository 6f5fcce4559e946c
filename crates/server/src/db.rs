//! Layer: storage (the bottom): the SQLite file, its schema steps and the writer of game updates; it knows no HTTP and no game rules.
//!
//! SQLite storage: one row per game, rewritten after every action; puzzle results.

use crate::error::ServerError;
use chess5d_play::{Player, Record};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::{mpsc, Mutex};
use std::thread::JoinHandle;

/// One seat of a game, as stored: who may act for which sides (see `seats`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The token's hash.
    pub hash: String,
    /// May act for White / Black.
    pub sides: [bool; 2],
    /// The game's creator: may delete it and act for its engine sides.
    pub owner: bool,
    /// An invite not yet claimed: the first browser to open its link takes the seat (which gets
    /// a token of its own), and the link seats nobody after that.
    pub invite: bool,
    /// For a seat taken through an invite: the hash of the invite's token, so that the link,
    /// opened again, can be told "already used" rather than "not valid".
    pub used_invite: Option<String>,
}

/// A stored game, as a row: the game service's [`Record`] itself, each field declared there
/// once. Its structured fields (headers, players, clock, puzzle) are JSON text in their columns:
/// [`Json::of`] writes them, [`row_of`] reads them back.
pub type GameRow = Record;

/// The JSON text of a record's structured columns.
struct Json {
    headers: String,
    white: String,
    black: String,
    clock: Option<String>,
    puzzle: Option<String>,
}

impl Json {
    fn of(g: &Record) -> Json {
        Json {
            headers: serde_json::to_string(&g.headers).unwrap_or_else(|_| "[]".into()),
            white: serde_json::to_string(&g.white).unwrap_or_default(),
            black: serde_json::to_string(&g.black).unwrap_or_default(),
            clock: g.clock.as_ref().and_then(|c| serde_json::to_string(c).ok()),
            puzzle: g.puzzle.as_ref().and_then(|p| serde_json::to_string(p).ok()),
        }
    }
}

/// A fingerprint of what a row settles: every field but the moves of the action being built
/// (`pending`), the time of the change and the clock (whose side to move's time is written as it
/// runs down, at every move). The writer syncs a change of it to disk.
fn settled_key(g: &Record) -> u64 {
    let j = Json::of(g);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (
        &j.headers,
        &j.white,
        &j.black,
        &g.actions,
        g.n_actions,
        &g.result,
        &g.termination,
        &j.puzzle,
        &g.draw_offer,
    )
        .hash(&mut h);
    h.finish()
}

/// The database, one connection behind a mutex (every statement is short).
#[derive(Debug)]
pub struct Db {
    conn: Mutex<Option<Connection>>,
    /// Group commit of game updates (none for an in-memory database, which one connection owns).
    writer: Option<Writer>,
}

/// The writer of game updates: a thread with a connection of its own takes every update waiting
/// (one request's, or the hundreds of a busy evening's), writes them in one transaction (one
/// fsync for all), then acknowledges each. An update is acknowledged only once it is written:
/// on disk (synced) when it settles anything (a submitted action, a result, a draw offer...),
/// handed to the OS when it only changes the action being built, which must survive a crash of
/// the server but not of the machine; updates of one game are written in the order queued.
#[derive(Debug)]
struct Writer {
    tx: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

struct Job {
    work: Option<Work>,
    done: mpsc::SyncSender<Result<(), String>>,
}

/// What a job writes.
enum Work {
    /// A game's changing fields (the most frequent write by far).
    Update(Box<GameRow>),
    /// Any other write (a new game with its seats, a seat claimed, a challenge...), in a
    /// savepoint of its own so that its failure leaves the rest of the batch.
    Run(Write),
}

/// A write run on the writer's connection.
type Write = Box<dyn FnOnce(&Connection) -> rusqlite::Result<()> + Send>;

/// The most updates written in one transaction.
const MAX_BATCH: usize = 1024;

const UPDATE_GAME: &str = "UPDATE games SET updated = ?2, headers = ?3, actions = ?4, n_actions = ?5, result = ?6,
     termination = ?7, clock = ?8, puzzle = ?9, pending = ?10, draw_offer = ?11, white = ?12, black = ?13 WHERE id = ?1";

fn update_row(st: &mut rusqlite::CachedStatement<'_>, g: &GameRow) -> rusqlite::Result<usize> {
    let j = Json::of(g);
    st.execute(params![
        g.id,
        g.updated,
        j.headers,
        g.actions,
        g.n_actions as i64,
        g.result,
        g.termination,
        j.clock,
        j.puzzle,
        g.pending,
        g.draw_offer,
        j.white,
        j.black
    ])
}

impl Writer {
    fn start(conn: Connection) -> std::io::Result<Writer> {
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("chess5d-db-writer".into())
            .spawn(move || {
                // What each game's last written row settled (all but the action being built).
                let mut settled: HashMap<i64, u64> = HashMap::new();
                let mut synced = true;
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    while batch.len() < MAX_BATCH {
                        match rx.try_recv() {
                            Ok(job) => batch.push(job),
                            Err(_) => break,
                        }
                    }
                    // A batch that only changes actions being built (moves, take-backs) is
                    // written without an fsync: it survives the server's crash, as the OS has
                    // it; the next batch that settles anything (a submitted action, a result, a
                    // new seat...) syncs the whole log, these moves with it.
                    let keys: Vec<Option<(i64, u64)>> = batch
                        .iter()
                        .map(|j| match &j.work {
                            Some(Work::Update(row)) => Some((row.id, settled_key(row))),
                            _ => None,
                        })
                        .collect();
                    let sync = keys.iter().any(|k| match k {
                        Some((id, key)) => settled.get(id) != Some(key),
                        None => true,
                    });
                    match Writer::commit(&conn, &mut batch, sync, &mut synced) {
                        Ok(failed) => {
                            if settled.len() > 100_000 {
                                // Forgotten games are synced again on their next write.
                                settled.clear();
                            }
                            settled.extend(keys.into_iter().flatten());
                            for (job, failed) in batch.into_iter().zip(failed) {
                                let _ = job.done.send(failed.map_or(Ok(()), Err));
                            }
                        }
                        Err(e) => {
                            let e = format!("cannot store the game: {e}");
                            for job in batch {
                                let _ = job.done.send(Err(e.clone()));
                            }
                        }
                    }
                }
                let _ = conn.close();
            })?;
        Ok(Writer {
            tx: Mutex::new(Some(tx)),
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Writes a batch in one transaction, synced to disk (`PRAGMA synchronous = FULL`) when
    /// `sync`, else handed to the OS only (`NORMAL`, which in WAL mode does not fsync a commit);
    /// `synced` is the connection's setting, changed only when it must be.
    /// Gives, per job, the error of a write that failed alone (its savepoint rolled back).
    fn commit(
        conn: &Connection,
        batch: &mut [Job],
        sync: bool,
        synced: &mut bool,
    ) -> rusqlite::Result<Vec<Option<String>>> {
        if sync != *synced {
            conn.execute_batch(if sync {
                "PRAGMA synchronous = FULL;"
            } else {
                "PRAGMA synchronous = NORMAL;"
            })?;
            *synced = sync;
        }
        let tx = conn.unchecked_transaction()?;
        let mut failed = Vec::with_capacity(batch.len());
        for job in batch.iter_mut() {
            failed.push(match job.work.take() {
                Some(Work::Update(row)) => {
                    update_row(&mut tx.prepare_cached(UPDATE_GAME)?, &row)?;
                    None
                }
                Some(Work::Run(f)) => {
                    tx.execute_batch("SAVEPOINT job")?;
                    match f(&tx) {
                        Ok(()) => {
                            tx.execute_batch("RELEASE job")?;
                            None
                        }
                        Err(e) => {
                            tx.execute_batch("ROLLBACK TO job; RELEASE job")?;
                            Some(format!("database error: {e}"))
                        }
                    }
                }
                None => None,
            });
        }
        tx.commit()?;
        Ok(failed)
    }

    fn queue(&self, work: Work) -> Result<Stored, ServerError> {
        let (done, wait) = mpsc::sync_channel(1);
        let guard = self.tx.lock().unwrap_or_else(|e| e.into_inner());
        let tx = guard
            .as_ref()
            .ok_or_else(|| ServerError::Internal("the database is closed (server stopping)".into()))?;
        tx.send(Job { work: Some(work), done })
            .map_err(|_| ServerError::Internal("the database writer has stopped".into()))?;
        Ok(Stored(Some(wait)))
    }

    /// Writes what is queued, then ends the thread.
    fn stop(&self) {
        drop(self.tx.lock().unwrap_or_else(|e| e.into_inner()).take());
        if let Some(t) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = t.join();
        }
    }
}

/// An update queued for the writer: [`Stored::wait`] returns once it is on disk.
#[derive(Debug)]
#[must_use = "an update is acknowledged only once it is stored: wait for it"]
pub struct Stored(Option<mpsc::Receiver<Result<(), String>>>);

impl Stored {
    /// Waits until the update is on disk (or failed).
    pub fn wait(self) -> Result<(), ServerError> {
        match self.0 {
            None => Ok(()),
            Some(rx) => rx
                .recv()
                .map_err(|_| ServerError::Internal("the database writer has stopped".into()))?
                .map_err(ServerError::Internal),
        }
    }
}

/// The schema, as numbered steps: a database at `PRAGMA user_version = n` has had the first `n`
/// applied. Step 1 is the schema of the first release (a database from then has version 0 and
/// these tables, hence `IF NOT EXISTS`); never change a step, add one.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS games (
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
    );",
    "ALTER TABLE games ADD COLUMN pending TEXT NOT NULL DEFAULT '';
    ALTER TABLE games ADD COLUMN draw_offer TEXT;
    CREATE TABLE seats (
        token_hash TEXT PRIMARY KEY,
        game INTEGER NOT NULL,
        white INTEGER NOT NULL,
        black INTEGER NOT NULL,
        owner INTEGER NOT NULL
    );
    CREATE INDEX seats_game ON seats (game);
    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created TEXT NOT NULL,
        variant TEXT NOT NULL,
        clock TEXT,
        color TEXT NOT NULL,
        name TEXT,
        token_hash TEXT NOT NULL,
        game INTEGER
    );",
    // Invites are claimed once (a seat from before this step counts as claimed).
    "ALTER TABLE seats ADD COLUMN invite INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN used_invite TEXT;",
    // Shared lists that cannot be flooded: who made each challenge and puzzle (the client's key,
    // for the caps per client); puzzle progress per visitor (the server-wide progress of before
    // is kept for the first visitor to come, `legacy`), and the visitor of each puzzle game.
    "ALTER TABLE challenges ADD COLUMN client TEXT;
    CREATE TABLE IF NOT EXISTS user_puzzles (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        created TEXT NOT NULL,
        mate_in INTEGER NOT NULL,
        to_move TEXT NOT NULL,
        text TEXT NOT NULL
    );
    ALTER TABLE user_puzzles ADD COLUMN client TEXT;
    CREATE INDEX user_puzzles_client ON user_puzzles (client);
    CREATE TABLE puzzle_progress (
        visitor TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        status TEXT NOT NULL,
        updated TEXT NOT NULL,
        PRIMARY KEY (visitor, puzzle)
    );
    INSERT INTO puzzle_progress (visitor, puzzle, status, updated)
        SELECT 'legacy', puzzle, status, updated FROM puzzle_status;
    DROP TABLE puzzle_status;
    CREATE TABLE puzzle_games (game INTEGER PRIMARY KEY, visitor TEXT NOT NULL);",
    // The variations of an imported game, kept with it.
    "ALTER TABLE games ADD COLUMN variations TEXT NOT NULL DEFAULT '';",
    // The computer review of a game (its last one, ended), kept with it.
    "CREATE TABLE reviews (game INTEGER PRIMARY KEY, review TEXT NOT NULL, saved TEXT NOT NULL);",
    // Accounts (issue 47): names unique without regard to case (`name_key`), passwords as
    // argon2id PHC strings, sessions by the SHA-256 of their cookie; the accounts seated in a
    // game and whether it is rated; ratings per category and each game's change (applied once:
    // the primary key of `rating_changes` is the game and the account).
    "CREATE TABLE accounts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password TEXT NOT NULL,
        created TEXT NOT NULL,
        deleted INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE account_sessions (
        token_hash TEXT PRIMARY KEY,
        account INTEGER NOT NULL,
        created TEXT NOT NULL,
        agent TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX account_sessions_account ON account_sessions (account);
    CREATE TABLE game_accounts (
        game INTEGER PRIMARY KEY,
        white INTEGER,
        black INTEGER,
        rated INTEGER NOT NULL DEFAULT 0,
        category TEXT
    );
    CREATE INDEX game_accounts_white ON game_accounts (white);
    CREATE INDEX game_accounts_black ON game_accounts (black);
    CREATE TABLE ratings (
        account INTEGER NOT NULL,
        category TEXT NOT NULL,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (account, category)
    );
    CREATE TABLE rating_changes (
        game INTEGER NOT NULL,
        account INTEGER NOT NULL,
        category TEXT NOT NULL,
        before REAL NOT NULL,
        after REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (game, account)
    );
    CREATE INDEX rating_changes_account ON rating_changes (account, at);",
    // Rematches (issue 47): each side's offer after a game, and the rematch game once made;
    // challenges made by an account, rated or casual, open to anyone or to one account.
    "CREATE TABLE rematches (
        game INTEGER PRIMARY KEY,
        white INTEGER NOT NULL DEFAULT 0,
        black INTEGER NOT NULL DEFAULT 0,
        next INTEGER
    );
    ALTER TABLE challenges ADD COLUMN account INTEGER;
    ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE challenges ADD COLUMN to_account INTEGER;
    ALTER TABLE challenges ADD COLUMN category TEXT;",
];

/// An open challenge of the lobby, as a row.
#[derive(Clone, Debug, Default)]
pub struct ChallengeRow {
    pub id: i64,
    pub created: String,
    pub variant: String,
    /// Clock as JSON `{initial_ms, increment_ms}`, if any.
    pub clock: Option<String>,
    /// `white`, `black` or `random`: the challenger's colour.
    pub color: String,
    pub name: Option<String>,
    pub token_hash: String,
    /// The game once accepted.
    pub game: Option<i64>,
    /// The challenger's account, if logged in.
    pub account: Option<i64>,
    /// Rated (the challenger and the acceptor need accounts, and there is a clock).
    pub rated: bool,
    /// Open only to this account (else to anyone).
    pub to_account: Option<i64>,
    /// The rating category of the game it makes.
    pub category: Option<String>,
    /// Read only: the challenger's account name, the named opponent's, and the challenger's
    /// rating and deviation in the category (none if they have not played in it).
    pub account_name: Option<String>,
    pub to_name: Option<String>,
    pub rating: Option<(f64, f64)>,
}

/// The columns `challenge_of` reads (`ch` the challenge, `a` its account, `t` the named
/// opponent's, `r` the challenger's rating).
const CHALLENGE_COLUMNS: &str = "ch.id, ch.created, ch.variant, ch.clock, ch.color, ch.name, ch.token_hash, ch.game, \
     ch.account, ch.rated, ch.to_account, ch.category, a.name, t.name, r.rating, r.rd \
     FROM challenges ch LEFT JOIN accounts a ON a.id = ch.account LEFT JOIN accounts t ON t.id = ch.to_account \
     LEFT JOIN ratings r ON r.account = ch.account AND r.category = ch.category";

fn challenge_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<ChallengeRow> {
    let rating: Option<f64> = r.get(14)?;
    let rd: Option<f64> = r.get(15)?;
    Ok(ChallengeRow {
        id: r.get(0)?,
        created: r.get(1)?,
        variant: r.get(2)?,
        clock: r.get(3)?,
        color: r.get(4)?,
        name: r.get(5)?,
        token_hash: r.get(6)?,
        game: r.get(7)?,
        account: r.get(8)?,
        rated: r.get(9)?,
        to_account: r.get(10)?,
        category: r.get(11)?,
        account_name: r.get(12)?,
        to_name: r.get(13)?,
        rating: rating.zip(rd),
    })
}

/// Which open challenges a lobby page shows: those open to anyone or to `viewer` (or made by
/// it), with the challenger's rating within `min` and `max` (a challenger without an account
/// has no rating and is left out by either; one who has not played the category counts 1500).
#[derive(Clone, Copy, Debug, Default)]
pub struct LobbyFilter {
    pub viewer: Option<i64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

const COLUMNS: &str = "id, created, updated, variant, start, headers, white, black, actions, n_actions, result, \
     termination, clock, puzzle, pending, draw_offer, variations";

/// The record of a row: bad headers, clock or puzzle JSON read as none, a bad player is an
/// error naming its column.
fn row_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    read_row(r, false)
}

/// The record of a row of a game list: as [`row_of`], but a player that cannot be read is
/// listed as `?` (one bad row does not hide the others).
fn listed_row_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    read_row(r, true)
}

fn read_row(r: &rusqlite::Row<'_>, listed: bool) -> rusqlite::Result<GameRow> {
    let player = |i: usize| -> rusqlite::Result<_> {
        match serde_json::from_str(&r.get::<_, String>(i)?) {
            Ok(p) => Ok(p),
            Err(_) if listed => Ok(Player::Human { name: Some("?".into()) }),
            Err(e) => Err(rusqlite::Error::FromSqlConversionFailure(
                i,
                rusqlite::types::Type::Text,
                format!("player: {e}").into(),
            )),
        }
    };
    let json = |i: usize| -> rusqlite::Result<Option<String>> { r.get(i) };
    Ok(Record {
        id: r.get(0)?,
        created: r.get(1)?,
        updated: r.get(2)?,
        variant: r.get(3)?,
        start: r.get(4)?,
        headers: json(5)?.and_then(|h| serde_json::from_str(&h).ok()).unwrap_or_default(),
        white: player(6)?,
        black: player(7)?,
        actions: r.get(8)?,
        n_actions: r.get::<_, i64>(9)?.max(0) as usize,
        result: r.get(10)?,
        termination: r.get(11)?,
        clock: json(12)?.and_then(|c| serde_json::from_str(&c).ok()),
        puzzle: json(13)?.and_then(|p| serde_json::from_str(&p).ok()),
        pending: r.get(14)?,
        draw_offer: r.get(15)?,
        variations: r.get(16)?,
    })
}

/// The seat whose columns (`token_hash, white, black, owner, invite, used_invite`) start at
/// column `at` of a row.
fn seat_of(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<Seat> {
    Ok(Seat {
        hash: r.get(at)?,
        sides: [r.get(at + 1)?, r.get(at + 2)?],
        owner: r.get(at + 3)?,
        invite: r.get(at + 4)?,
        used_invite: r.get(at + 5)?,
    })
}

/// Stores one seat of game `game`.
fn insert_seat(c: &Connection, game: i64, s: &Seat) -> rusqlite::Result<usize> {
    c.execute(
        "INSERT INTO seats (token_hash, game, white, black, owner, invite, used_invite) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![s.hash, game, s.sides[0], s.sides[1], s.owner, s.invite, s.used_invite],
    )
}

impl Db {
    /// Opens (or creates) the database file.
    pub fn open(path: &Path) -> Result<Db, ServerError> {
        let mut conn = Connection::open(path)
            .map_err(|e| ServerError::Internal(format!("cannot open database {}: {e}", path.display())))?;
        let named = |e: rusqlite::Error| ServerError::Internal(format!("cannot use database {}: {e}", path.display()));
        conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(named)?;
        // WAL with full sync: a commit is on disk before the request that made it is answered.
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
            .map_err(named)?;
        migrate(&mut conn)
            .map_err(|e| ServerError::Internal(format!("cannot upgrade database {}: {e}", path.display())))?;
        let writer = if path.as_os_str() == ":memory:" {
            None
        } else {
            let w = Connection::open(path).map_err(named)?;
            w.busy_timeout(std::time::Duration::from_secs(5)).map_err(named)?;
            w.execute_batch("PRAGMA synchronous = FULL;").map_err(named)?;
            Some(
                Writer::start(w)
                    .map_err(|e| ServerError::Internal(format!("cannot start the database writer: {e}")))?,
            )
        };
        Ok(Db {
            conn: Mutex::new(Some(conn)),
            writer,
        })
    }

    pub(crate) fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, ServerError> {
        let guard = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let conn = guard
            .as_ref()
            .ok_or_else(|| ServerError::Internal("the database is closed (server stopping)".into()))?;
        Ok(f(conn)?)
    }

    /// Runs a write on the writer's thread, in the transaction of its next batch (sharing its
    /// fsync), so that writes never wait for each other's disk syncs one by one; returns once
    /// it is on disk. (Without a writer, for an in-memory database, on the one connection.)
    pub(crate) fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, ServerError> {
        let Some(w) = &self.writer else {
            return self.with(f);
        };
        let (tx, rx) = mpsc::sync_channel(1);
        w.queue(Work::Run(Box::new(move |c| {
            let _ = tx.send(f(c)?);
            Ok(())
        })))?
        .wait()?;
        rx.recv()
            .map_err(|_| ServerError::Internal("the database writer dropped a write".into()))
    }

    /// Closes the connection (later calls fail with an internal error), after the writer has
    /// stored every update queued.
    pub fn close(&self) {
        if let Some(w) = &self.writer {
            w.stop();
        }
        let mut guard = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(conn) = guard.take() {
            let _ = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
            let _ = conn.close();
        }
    }

    /// Queues a rewrite of the changing fields of a game for the writer (group commit); the
    /// answer's [`Stored::wait`] returns once it is on disk.
    ///
    /// A row with a result is written with the rating change of its game, in one savepoint of
    /// the same transaction (see `rated`): both or neither reach the disk.
    pub fn queue_update(&self, g: GameRow) -> Result<Stored, ServerError> {
        let ending = g.result.as_deref().is_some_and(|r| r != "*");
        match &self.writer {
            Some(w) if ending => w.queue(Work::Run(Box::new(move |c| {
                update_row(&mut c.prepare_cached(UPDATE_GAME)?, &g)?;
                crate::rated::on_end(c, &g)
            }))),
            Some(w) => w.queue(Work::Update(Box::new(g))),
            None => {
                self.with(|c| {
                    let tx = c.unchecked_transaction()?;
                    update_row(&mut tx.prepare_cached(UPDATE_GAME)?, &g)?;
                    if ending {
                        crate::rated::on_end(&tx, &g)?;
                    }
                    tx.commit()
                })?;
                Ok(Stored(None))
            }
        }
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
            let rows = st.query_map([], listed_row_of)?;
            rows.collect()
        })
    }

    /// Keeps `review` (the answer of `GET /api/games/:id/review` for an ended review) with game
    /// `game`, replacing its last one unless that one is finished (status `done`) and this one
    /// is not; nothing if the game is gone (deleted meanwhile). Whether it was kept.
    pub fn save_review(&self, game: i64, review: &serde_json::Value) -> Result<bool, ServerError> {
        let text = review.to_string();
        let finished = review["status"] == "done";
        self.write(move |c| {
            // A finished review is replaced only by a finished one: a review cancelled (by
            // whoever started it) leaves the stored one as it was.
            let n = c.execute(
                "INSERT OR REPLACE INTO reviews (game, review, saved)
                 SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1)
                 AND (?4 OR NOT EXISTS (SELECT 1 FROM reviews WHERE game = ?1
                                        AND json_extract(review, '$.status') = 'done'))",
                params![game, text, now(), finished],
            )?;
            Ok(n > 0)
        })
    }

    /// The review kept with game `game`, if it has one, as its JSON text.
    pub fn review(&self, game: i64) -> Result<Option<String>, ServerError> {
        self.with(|c| {
            c.query_row("SELECT review FROM reviews WHERE game = ?1", [game], |r| r.get(0))
                .optional()
        })
    }

    /// Deletes a game, its seats and its review; whether it existed.
    pub fn delete(&self, id: i64) -> Result<bool, ServerError> {
        self.write(move |c| {
            c.execute("DELETE FROM reviews WHERE game = ?1", [id])?;
            c.execute("DELETE FROM seats WHERE game = ?1", [id])?;
            c.execute("DELETE FROM puzzle_games WHERE game = ?1", [id])?;
            Ok(c.execute("DELETE FROM games WHERE id = ?1", [id])? > 0)
        })
    }

    /// Inserts a new game with its seats (one transaction); returns its id.
    /// A puzzle game's visitor (the hash of its id) is stored with it, for its progress.
    pub fn insert_with_seats(&self, g: &GameRow, seats: &[Seat], visitor: Option<&str>) -> Result<i64, ServerError> {
        let (g, seats, visitor) = (g.clone(), seats.to_vec(), visitor.map(str::to_string));
        let j = Json::of(&g);
        self.write(move |c| {
            c.execute(
                "INSERT INTO games (created, updated, variant, start, headers, white, black, actions, n_actions, result, termination, clock, puzzle, variations)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                params![
                    g.created, g.updated, g.variant, g.start, j.headers, j.white, j.black, g.actions, g.n_actions as i64,
                    g.result, g.termination, j.clock, j.puzzle, g.variations
                ],
            )?;
            let id = c.last_insert_rowid();
            for s in &seats {
                insert_seat(c, id, s)?;
            }
            if let Some(v) = &visitor {
                c.execute("INSERT INTO puzzle_games (game, visitor) VALUES (?1, ?2)", params![id, v])?;
            }
            Ok(id)
        })
    }

    /// The visitor (the hash of its id) who started a puzzle game, if any.
    pub fn puzzle_visitor(&self, game: i64) -> Result<Option<String>, ServerError> {
        self.with(|c| {
            c.query_row("SELECT visitor FROM puzzle_games WHERE game = ?1", [game], |r| r.get(0))
                .optional()
        })
    }

    /// The seats of a game.
    pub fn seats(&self, game: i64) -> Result<Vec<Seat>, ServerError> {
        self.with(|c| {
            let mut st =
                c.prepare("SELECT token_hash, white, black, owner, invite, used_invite FROM seats WHERE game = ?1")?;
            let rows = st.query_map([game], |r| seat_of(r, 0))?;
            rows.collect()
        })
    }

    /// Replaces a game's seats (one transaction): an invite claimed or issued again.
    pub fn set_seats(&self, game: i64, seats: &[Seat]) -> Result<(), ServerError> {
        let seats = seats.to_vec();
        self.write(move |c| {
            c.execute("DELETE FROM seats WHERE game = ?1", [game])?;
            for s in &seats {
                insert_seat(c, game, s)?;
            }
            Ok(())
        })
    }

    /// The games (rows) where these token hashes hold a seat, with the seat; newest first.
    pub fn games_of(&self, hashes: &[String]) -> Result<Vec<(GameRow, Seat)>, ServerError> {
        self.with(|c| {
            let mut out = Vec::new();
            let cols: Vec<String> = COLUMNS.split(',').map(|c| format!("g.{}", c.trim())).collect();
            let mut st = c.prepare(&format!(
                "SELECT {}, s.token_hash, s.white, s.black, s.owner, s.invite, s.used_invite \
                 FROM seats s JOIN games g ON g.id = s.game WHERE s.token_hash = ?1",
                cols.join(", ")
            ))?;
            for h in hashes {
                let rows = st.query_map([h], |r| Ok((listed_row_of(r)?, seat_of(r, 17)?)))?;
                for row in rows {
                    out.push(row?);
                }
            }
            out.sort_by_key(|(g, _)| -g.id);
            Ok(out)
        })
    }

    /// Adds a challenge of `client` to the lobby unless that client has `cap` open challenges
    /// made since `since` already (then `None`); expired challenges (made before `since`, never
    /// accepted) are removed first. Returns its id.
    pub fn insert_challenge(
        &self,
        ch: &ChallengeRow,
        client: &str,
        since: &str,
        cap: u64,
    ) -> Result<Option<i64>, ServerError> {
        let (ch, client, since) = (ch.clone(), client.to_string(), since.to_string());
        self.write(move |c| {
            c.execute(
                "DELETE FROM challenges WHERE game IS NULL AND created < ?1",
                [&since],
            )?;
            let open: i64 = c.query_row(
                "SELECT COUNT(*) FROM challenges WHERE game IS NULL AND client = ?1",
                [&client],
                |r| r.get(0),
            )?;
            if open as u64 >= cap {
                return Ok(None);
            }
            c.execute(
                "INSERT INTO challenges (created, variant, clock, color, name, token_hash, client, account, rated, to_account, category)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    ch.created,
                    ch.variant,
                    ch.clock,
                    ch.color,
                    ch.name,
                    ch.token_hash,
                    client,
                    ch.account,
                    ch.rated,
                    ch.to_account,
                    ch.category
                ],
            )?;
            Ok(Some(c.last_insert_rowid()))
        })
    }

    /// One challenge.
    pub fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>, ServerError> {
        self.with(|c| {
            c.query_row(
                &format!("SELECT {CHALLENGE_COLUMNS} WHERE ch.id = ?1"),
                [id],
                challenge_of,
            )
            .optional()
        })
    }

    /// A page of the open challenges (not accepted, made since `since`), oldest first: at most
    /// `count` from `offset`, and how many there are in all.
    pub fn open_challenges(
        &self,
        since: &str,
        filter: LobbyFilter,
        offset: usize,
        count: usize,
    ) -> Result<(Vec<ChallengeRow>, usize), ServerError> {
        const WHERE: &str = "WHERE ch.game IS NULL AND ch.created >= ?1 \
             AND (ch.to_account IS NULL OR ch.to_account = ?2 OR ch.account = ?2) \
             AND (?3 IS NULL OR (ch.account IS NOT NULL AND COALESCE(r.rating, 1500) >= ?3)) \
             AND (?4 IS NULL OR (ch.account IS NOT NULL AND COALESCE(r.rating, 1500) <= ?4))";
        self.with(|c| {
            let args = params![since, filter.viewer, filter.min, filter.max];
            let total: i64 = c.query_row(
                &format!(
                    "SELECT COUNT(*) FROM challenges ch LEFT JOIN ratings r \
                     ON r.account = ch.account AND r.category = ch.category {WHERE}"
                ),
                args,
                |r| r.get(0),
            )?;
            let mut st = c.prepare(&format!(
                "SELECT {CHALLENGE_COLUMNS} {WHERE} ORDER BY ch.id LIMIT ?5 OFFSET ?6"
            ))?;
            let rows = st.query_map(
                params![
                    since,
                    filter.viewer,
                    filter.min,
                    filter.max,
                    count as i64,
                    offset as i64
                ],
                challenge_of,
            )?;
            Ok((rows.collect::<rusqlite::Result<Vec<_>>>()?, total as usize))
        })
    }

    /// Marks a challenge accepted by `game`, if it is still open; whether it was.
    pub fn close_challenge(&self, id: i64, game: i64) -> Result<bool, ServerError> {
        self.write(move |c| {
            Ok(c.execute(
                "UPDATE challenges SET game = ?2 WHERE id = ?1 AND game IS NULL",
                params![id, game],
            )? > 0)
        })
    }

    /// Removes a challenge; whether it existed.
    pub fn delete_challenge(&self, id: i64) -> Result<bool, ServerError> {
        self.write(move |c| Ok(c.execute("DELETE FROM challenges WHERE id = ?1", [id])? > 0))
    }

    /// Records a visitor's status of a puzzle (`solved` wins over `failed`).
    pub fn set_puzzle_status(&self, visitor: &str, puzzle: &str, status: &str, now: &str) -> Result<(), ServerError> {
        let (visitor, puzzle, status, now) = (
            visitor.to_string(),
            puzzle.to_string(),
            status.to_string(),
            now.to_string(),
        );
        self.write(move |c| {
            c.execute(
                "INSERT INTO puzzle_progress (visitor, puzzle, status, updated) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(visitor, puzzle) DO UPDATE SET status = CASE WHEN puzzle_progress.status = 'solved' THEN 'solved' ELSE excluded.status END,
                 updated = excluded.updated",
                params![visitor, puzzle, status, now],
            )?;
            Ok(())
        })
    }

    /// A visitor's status of every puzzle it tried.
    pub fn puzzle_statuses(&self, visitor: &str) -> Result<Vec<(String, String)>, ServerError> {
        self.with(|c| {
            let mut st = c.prepare_cached("SELECT puzzle, status FROM puzzle_progress WHERE visitor = ?1")?;
            let rows = st.query_map([visitor], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        })
    }

    /// Gives the progress of before visitors (server-wide, `legacy`) to `visitor`, a new one, if
    /// nobody took it yet.
    pub fn claim_legacy_progress(&self, visitor: &str) -> Result<(), ServerError> {
        let any: bool = self.with(|c| {
            c.query_row(
                "SELECT EXISTS (SELECT 1 FROM puzzle_progress WHERE visitor = 'legacy')",
                [],
                |r| r.get(0),
            )
        })?;
        if any {
            let visitor = visitor.to_string();
            self.write(move |c| {
                c.execute(
                    "UPDATE puzzle_progress SET visitor = ?1 WHERE visitor = 'legacy'",
                    [visitor],
                )?;
                Ok(())
            })?;
        }
        Ok(())
    }
}

/// Brings the schema up to the last of [`MIGRATIONS`], one transaction per step.
fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let version = usize::try_from(version).unwrap_or(0);
    if version > MIGRATIONS.len() {
        return Err(rusqlite::Error::ToSqlConversionFailure(
            format!(
                "schema version {version} is newer than this server's ({})",
                MIGRATIONS.len()
            )
            .into(),
        ));
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version) {
        let tx = conn.transaction()?;
        tx.execute_batch(step)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    // A database that had tables (a games table, from step 1) and an older schema: say so.
    if version > 0 && version < MIGRATIONS.len() {
        eprintln!(
            "database upgraded in place from schema {version} to {}",
            MIGRATIONS.len()
        );
    }
    Ok(())
}

/// The current UTC time as `YYYY-MM-DD HH:MM:SS`.
pub fn now() -> String {
    ago(0)
}

/// The UTC time `secs` seconds ago as `YYYY-MM-DD HH:MM:SS` (such times sort as text).
pub fn ago(secs: u64) -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
        .saturating_sub(i64::try_from(secs).unwrap_or(i64::MAX));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A record with every field set (the players, headers and clock through their JSON).
    fn record() -> Record {
        serde_json::from_value(serde_json::json!({
            "id": 3, "created": "2026-11-29 09:00:00", "updated": "2026-11-29 09:01:00",
            "variant": "Standard", "start": "[Board \"Standard\"]\n", "headers": [["Event", "x"]],
            "white": {"type": "human", "name": "Ann"}, "black": {"type": "engine", "bot": "greedy"},
            "actions": "(0T1)e2(0T1)e4\n", "n_actions": 1, "result": null, "termination": null,
            "clock": {"initial_ms": 60000, "increment_ms": 1000, "remaining_ms": [59000, 60000]},
            "puzzle": null, "pending": "(0T1)e7(0T1)e5\n", "draw_offer": "white", "variations": "",
        }))
        .expect("a record")
    }

    /// The writer syncs a row to disk when what it settles changed: a move of the action being
    /// built (or the clock running down) alone does not; an action, a result or an offer does.
    #[test]
    fn what_a_row_settles() {
        let row = record();
        let key = settled_key(&row);
        let same = |f: fn(&mut GameRow)| {
            let mut r = row.clone();
            f(&mut r);
            settled_key(&r) == key
        };
        assert!(same(|r| r.pending = "(0T1)e7(0T1)e6\n".into()));
        assert!(same(|r| r.updated = "2026-11-25 21:00:00".into()));
        assert!(same(|r| {
            if let Some(c) = &mut r.clock {
                c.remaining_ms[0] -= 1000;
            }
        }));
        assert!(!same(|r| {
            r.actions.push_str("(0T1)e7(0T1)e5\n");
            r.n_actions = 2;
        }));
        assert!(!same(|r| r.result = Some("1-0".into())));
        assert!(!same(|r| r.draw_offer = None));
        assert!(!same(|r| r.headers = vec![("Event".into(), "y".into())]));
    }

    /// A record stored and read back is the same record, every field (the players, headers,
    /// clock and puzzle through their JSON columns); a bad player in a row is an error naming
    /// it (listed as `?` in the game list), bad headers read as none.
    #[test]
    fn a_row_is_its_record() {
        let dir = std::env::temp_dir().join(format!("chess5d-db-row-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let db = Db::open(&dir.join("g.db")).expect("open");
        let mut record = record();
        record.id = db.insert_with_seats(&record, &[], None).expect("insert");
        db.queue_update(record.clone()).expect("update").wait().expect("stored");
        let json = |r: &Record| serde_json::to_value(r).expect("json");
        let back = db.get(record.id).expect("get").expect("stored");
        assert_eq!(json(&back), json(&record));
        let id = record.id;
        db.write(move |c| c.execute("UPDATE games SET headers = '[', white = '{' WHERE id = ?1", [id]))
            .expect("spoil");
        let bad = db.get(id);
        assert!(bad.is_err_and(|e| e.to_string().contains("player: ")));
        // The game list still shows it, unnamed.
        let listed = db.list().expect("list");
        let summary = chess5d_play::listing::Summary::of(&listed[0]);
        assert_eq!((summary.id, summary.white.as_str()), (id, "?"));
        assert_eq!(summary.black, record.black.display());
        db.write(move |c| c.execute("UPDATE games SET white = black WHERE id = ?1", [id]))
            .expect("mend");
        assert!(db.get(id).expect("get").expect("stored").headers.is_empty());
        db.close();
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Writes run on the writer's thread in a savepoint each: one that fails is rolled back
    /// alone and says why; the others of its batch are written.
    #[test]
    fn a_failing_write_leaves_the_others() {
        let dir = std::env::temp_dir().join(format!("chess5d-db-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let db = Db::open(&dir.join("g.db")).expect("open");
        let id = db.insert_with_seats(&record(), &[], None).expect("insert");
        let bad = db.write(|c| c.execute("INSERT INTO no_such_table VALUES (1)", []));
        assert!(bad.is_err_and(|e| e.to_string().contains("no_such_table")));
        let again = db
            .insert_with_seats(&record(), &[], None)
            .expect("insert after a failure");
        assert_eq!(again, id + 1);
        assert!(db.get(id).expect("get").is_some());
        db.close();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
