//! Layer: domain: the server's state (games in memory, the database, the analysis boards); no HTTP.
//!
//! The games in memory: each game's session, engines and watchers, loaded from and stored to
//! the database.

use crate::config::Config;
use crate::db::{self, Db};
use crate::engine::Runner;
use crate::error::ServerError;
use crate::seats::{Need, SeatToken};
use crate::session::Session;
pub use crate::sync::{blocking, lock};
use bytes::Bytes;
use chess5d_play::request::Action;
use chess5d_play::Effects;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// A view written for a version and presence of a game (JSON text: shared, not copied, by the
/// answer of the change and every watcher).
pub type Written = ((u64, u64), Bytes);

/// One game's live state.
#[derive(Debug)]
pub struct Slot {
    pub session: Mutex<Session>,
    pub engines: Mutex<[Option<Runner>; 2]>,
    pub tx: broadcast::Sender<()>,
    /// When a request last asked for the game (see [`AppState::unload_idle`]).
    pub touched: Mutex<std::time::Instant>,
    /// The game's places in the quotas (its engine players), given back when it leaves, or
    /// while its engines wait for their turn (see `AppState::take_engine_place`).
    pub held: Mutex<Vec<crate::limits::Permit>>,
    /// The client whose engine places the game holds (its maker), once it held one: its
    /// engines take their places again as this client when they were given up.
    pub owner: Mutex<Option<crate::limits::ClientKey>>,
    /// The game's memory as last estimated ([`chess5d_play::Play::memory_bytes`]: when it
    /// came into memory, then by the ticker's [`AppState::measure_games`]).
    pub bytes: std::sync::atomic::AtomicUsize,
    /// The watchers' views of the game as last written, one per kind of viewer (spectators,
    /// each seat), with the version and presence each shows: written once per change and
    /// shared by every socket of that viewer.
    pub views: Mutex<Vec<(chess5d_play::seats::Viewer, Written)>>,
}

impl Slot {
    fn new(session: Session) -> Slot {
        Slot {
            engines: Mutex::new([None, None]),
            tx: broadcast::channel(16).0,
            touched: Mutex::new(std::time::Instant::now()),
            held: Mutex::new(Vec::new()),
            owner: Mutex::new(None),
            views: Mutex::new(Vec::new()),
            bytes: std::sync::atomic::AtomicUsize::new(session.memory_bytes()),
            session: Mutex::new(session),
        }
    }

    /// The live view for a watcher (`s` is this slot's session, locked): written once per
    /// change for each kind of viewer (spectators, a seat: a seat's tries are its own) and
    /// shared by the sockets of that viewer (several pages of one player, a crowd watching).
    pub fn view_for_watcher(&self, s: &Session, viewer: chess5d_play::seats::Viewer) -> Bytes {
        let key = (s.version_for(viewer), s.presence);
        if let Some((_, (k, text))) = lock(&self.views).iter().find(|(v, _)| *v == viewer) {
            if *k == key {
                return text.clone();
            }
        }
        self.write_view(s, viewer)
    }

    /// The live view for `viewer` written now (`s` is this slot's session, locked), kept as
    /// the view of its version for the watchers of that viewer: a change's answer is written
    /// once and its watchers share its bytes.
    pub fn write_view(&self, s: &Session, viewer: chess5d_play::seats::Viewer) -> Bytes {
        let text = Bytes::from(s.view_text(viewer, chess5d_play::Shown::Live));
        let key = (s.version_for(viewer), s.presence);
        let mut cached = lock(&self.views);
        cached.retain(|(v, _)| *v != viewer);
        cached.push((viewer, (key, text.clone())));
        text
    }

    /// The game's memory as last estimated.
    fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
}

#[derive(Debug)]
pub struct Inner {
    pub config: Config,
    pub db: Db,
    pub sessions: Mutex<HashMap<i64, Arc<Slot>>>,
    /// Held while a challenge is accepted (one acceptance per challenge).
    pub lobby: Mutex<()>,
    pub stopping: AtomicBool,
    pub stop_tx: broadcast::Sender<()>,
    /// The analysis boards (scratch positions with their engines).
    pub analyses: crate::analysis::Analyses,
    /// The ids of games deleted while the server runs (ids are never reused): a request that
    /// read the game before its DELETE cannot bring it back into memory.
    pub deleted: Mutex<std::collections::HashSet<i64>>,
    /// What clients hold at once (proofs running...).
    pub quotas: crate::limits::Quotas,
    /// What clients may spend per unit of time (puzzle proofs, bytes of states read).
    pub buckets: crate::limits::Buckets,
    /// The computer reviews of games (running and ended).
    pub reviews: crate::review::Reviews,
    /// Accounts: the hashing gate, login throttles, the sessions' cache (issue 47).
    pub accounts: crate::accounts::Accounts,
    /// The quick-pairing pool.
    pub pairing: crate::pairing::Pool,
}

/// The server's shared state: configuration, database and the games in memory.
#[derive(Clone, Debug)]
pub struct AppState {
    pub(crate) inner: Arc<Inner>,
}

impl AppState {
    /// Opens the database and prepares the state.
    pub fn open(config: Config) -> Result<AppState, ServerError> {
        let db = Db::open(&config.db)?;
        let (stop_tx, _) = broadcast::channel(1);
        Ok(AppState {
            inner: Arc::new(Inner {
                config,
                db,
                sessions: Mutex::new(HashMap::new()),
                lobby: Mutex::new(()),
                stopping: AtomicBool::new(false),
                stop_tx,
                analyses: Default::default(),
                deleted: Default::default(),
                quotas: Default::default(),
                buckets: Default::default(),
                reviews: Default::default(),
                accounts: Default::default(),
                pairing: Default::default(),
            }),
        })
    }

    /// Tells engines and WebSockets to stop (called when a stop signal arrives).
    pub fn begin_stop(&self) {
        self.inner.stopping.store(true, Ordering::SeqCst);
        let _ = self.inner.stop_tx.send(());
    }

    /// Stops engines, closes WebSockets and the database.
    pub fn shutdown(&self) {
        self.begin_stop();
        let slots: Vec<Arc<Slot>> = lock(&self.inner.sessions).drain().map(|(_, s)| s).collect();
        for slot in slots {
            if let Ok(mut e) = slot.engines.try_lock() {
                for r in e.iter_mut() {
                    if let Some(Runner::Process(p)) = r.take() {
                        p.quit(Duration::from_millis(300));
                    }
                }
            }
        }
        self.inner.analyses.shutdown();
        self.inner.reviews.shutdown();
        self.inner.db.close();
    }

    // For the analysis and puzzle-maker modules.

    pub(crate) fn analyses(&self) -> &crate::analysis::Analyses {
        &self.inner.analyses
    }

    pub(crate) fn reviews(&self) -> &crate::review::Reviews {
        &self.inner.reviews
    }

    /// The memory the ended reviews kept in memory take (their answers' bytes).
    pub fn reviews_kept_bytes(&self) -> usize {
        self.inner.reviews.kept_bytes()
    }

    /// Computer reviews running now.
    pub fn reviews_running(&self) -> usize {
        self.inner.reviews.running()
    }

    pub(crate) fn quotas(&self) -> &crate::limits::Quotas {
        &self.inner.quotas
    }

    pub(crate) fn limits(&self) -> &crate::limits::Limits {
        &self.inner.config.limits
    }

    /// Puzzle proofs running now (finished or cancelled ones are not counted).
    pub fn proofs_running(&self) -> u64 {
        self.inner.quotas.proofs.held()
    }

    /// Analysis boards held now.
    pub fn analysis_boards(&self) -> u64 {
        self.inner.quotas.analysis_boards.held()
    }

    /// WebSockets open now (games' and analysis boards').
    pub fn sockets_open(&self) -> u64 {
        self.inner.quotas.sockets.held()
    }

    /// Engine players of games made by clients, in memory now.
    pub fn engine_players(&self) -> u64 {
        self.inner.quotas.engines.held()
    }

    pub(crate) fn engines(&self) -> &[crate::config::EngineConfig] {
        &self.inner.config.engines
    }

    pub(crate) fn db(&self) -> &Db {
        &self.inner.db
    }

    pub(crate) fn stop_signal(&self) -> broadcast::Receiver<()> {
        self.inner.stop_tx.subscribe()
    }

    /// The number of games held in memory.
    pub fn games_in_memory(&self) -> usize {
        lock(&self.inner.sessions).len()
    }

    /// The memory the games held take, by their last estimates (see `games-memory-mb`).
    pub fn games_memory_bytes(&self) -> usize {
        lock(&self.inner.sessions).values().map(|s| s.bytes()).sum()
    }

    /// Estimates again the memory of each game held that no request has in hand (games grow
    /// as they are played, and as their views are written); outside the map's lock.
    pub fn measure_games(&self) {
        let slots: Vec<Arc<Slot>> = lock(&self.inner.sessions).values().cloned().collect();
        for slot in slots {
            if let Ok(s) = slot.session.try_lock() {
                slot.bytes.store(s.memory_bytes(), Ordering::Relaxed);
            }
        }
    }

    /// Lets games leave memory that no request has asked for during `idle`: those that nobody
    /// watches, whose engine is not at work and whose clock is not running (a running clock
    /// must be flagged by the ticker). The database holds them whole (the action being built
    /// included), and the next request loads them again. Returns how many left.
    ///
    /// A game leaves only while the map alone holds it: a request that has it in hand keeps it,
    /// so no two copies of one game can ever be changed at once.
    pub fn unload_idle(&self, idle: std::time::Duration) -> usize {
        let now = std::time::Instant::now();
        let leaving = {
            let mut map = lock(&self.inner.sessions);
            let ids: Vec<i64> = map
                .iter()
                .filter(|(_, slot)| now.saturating_duration_since(*lock(&slot.touched)) >= idle)
                .map(|(&id, _)| id)
                .collect();
            take_unloadable(&mut map, &ids, |_| true)
        };
        let n = leaving.len();
        quit_engines(leaving);
        n
    }

    /// Keeps the games in memory within the limits `games-in-memory` and `games-memory-mb`:
    /// past either, the least recently used of those that may leave (as
    /// [`AppState::unload_idle`] says) leave memory until both hold again (or nothing more
    /// may leave). Returns how many left.
    pub fn unload_over_limit(&self) -> usize {
        let limits = &self.inner.config.limits;
        let cap = usize::try_from(limits.games_in_memory).unwrap_or(usize::MAX);
        let cap_bytes = usize::try_from(limits.games_memory_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
        let leaving = {
            let mut map = lock(&self.inner.sessions);
            // (Called at every load: under the limits, a sum of stored estimates and no more.)
            let bytes: usize = map.values().map(|slot| slot.bytes()).sum();
            if map.len() <= cap && bytes <= cap_bytes {
                return 0;
            }
            let mut by_age: Vec<(std::time::Instant, i64)> =
                map.iter().map(|(&id, slot)| (*lock(&slot.touched), id)).collect();
            by_age.sort_unstable();
            let ids: Vec<i64> = by_age.into_iter().map(|(_, id)| id).collect();
            let (mut games, mut bytes) = (map.len(), bytes);
            take_unloadable(&mut map, &ids, |slot| {
                let enough = games <= cap && bytes <= cap_bytes;
                if !enough {
                    games -= 1;
                    bytes = bytes.saturating_sub(slot.bytes.load(Ordering::Relaxed));
                }
                !enough
            })
        };
        let n = leaving.len();
        quit_engines(leaving);
        n
    }

    pub(crate) fn stopping(&self) -> bool {
        self.inner.stopping.load(Ordering::SeqCst)
    }

    /// The game's slot, loading it from the database if needed.
    pub(crate) fn slot(&self, id: i64) -> Result<Arc<Slot>, ServerError> {
        if let Some(s) = lock(&self.inner.sessions).get(&id) {
            *lock(&s.touched) = std::time::Instant::now();
            return Ok(s.clone());
        }
        let row = self
            .inner
            .db
            .get(id)?
            .ok_or_else(|| ServerError::from(chess5d_play::PlayError::NoGame { id: id.to_string() }))?;
        let mut session = Session::from_row(&row)?;
        session.seats = self.inner.db.seats(id)?;
        if session.puzzle.is_some() {
            session.visitor = self.inner.db.puzzle_visitor(id)?;
        }
        let mut map = lock(&self.inner.sessions);
        // Deleted since it was read: gone (the DELETE marks it under this same lock).
        if lock(&self.inner.deleted).contains(&id) {
            return Err(ServerError::from(chess5d_play::PlayError::NoGame {
                id: id.to_string(),
            }));
        }
        let slot = map.entry(id).or_insert_with(|| Arc::new(Slot::new(session))).clone();
        drop(map);
        self.kick_engine(&slot);
        self.unload_over_limit();
        Ok(slot)
    }

    pub(crate) fn insert(&self, mut session: Session) -> Result<Arc<Slot>, ServerError> {
        let id = self
            .inner
            .db
            .insert_with_seats(&session.row(), &session.seats, session.visitor.as_deref())?;
        session.id = id;
        let slot = Arc::new(Slot::new(session));
        lock(&self.inner.sessions).insert(id, slot.clone());
        self.kick_engine(&slot);
        self.unload_over_limit();
        Ok(slot)
    }

    pub(crate) fn persist(&self, s: &Session) -> Result<(), ServerError> {
        self.queue_persist(s)?.wait()
    }

    /// Queues the game's row for the database writer; the answer's `wait` returns once it is
    /// on disk. Queued under the game's lock (so one game's rows are written in order), waited
    /// for after it (so readers and other requests of the game do not wait for the disk).
    pub(crate) fn queue_persist(&self, s: &Session) -> Result<db::Stored, ServerError> {
        let stored = self.inner.db.queue_update(s.row())?;
        if let (Some(p), Some(visitor)) = (&s.puzzle, &s.visitor) {
            if p.status != "playing" {
                self.inner.db.set_puzzle_status(visitor, &p.id, &p.status, &db::now())?;
            }
        }
        Ok(stored)
    }

    /// Deletes a game (only its creator may); watchers are told.
    pub(crate) fn delete_game(&self, id: i64, token: &SeatToken) -> Result<(), ServerError> {
        let slot = self.slot(id)?;
        {
            // Deleted on disk first, under the game's lock (no change of it meanwhile): a
            // refused delete (a full disk) leaves the game as it was, in memory and on disk.
            let mut s = lock(&slot.session);
            s.authorize(s.rights(token.get(), self.inner.config.public), Need::Owner)?;
            if s.deleted {
                return Err(ServerError::from(chess5d_play::PlayError::NoGame {
                    id: id.to_string(),
                }));
            }
            let existed = self.inner.db.delete(id)?;
            s.deleted = true;
            if !existed {
                return Err(ServerError::from(chess5d_play::PlayError::NoGame {
                    id: id.to_string(),
                }));
            }
        }
        {
            let mut map = lock(&self.inner.sessions);
            lock(&self.inner.deleted).insert(id);
            map.remove(&id);
        }
        let _ = slot.tx.send(());
        end_engines(&slot);
        self.inner.reviews.forget(id);
        Ok(())
    }

    /// Acts on game `id` for the holder of `token` (the game service checks the seat and
    /// applies the request), then carries out the effects; gives the requester's view.
    pub(crate) fn act(&self, id: i64, token: &SeatToken, action: Action) -> Result<Bytes, ServerError> {
        let public = self.inner.config.public;
        self.mutate(id, token, |s| {
            let rights = s.rights(token.get(), public);
            let game = s.id;
            Ok(s.play.act(rights, game, action)?)
        })
    }

    /// Applies a change to a game and carries out its effects: stores it, tells the watchers,
    /// starts the engine's search; gives the game's view for the holder of `token` as JSON text.
    pub(crate) fn mutate(
        &self,
        id: i64,
        token: &SeatToken,
        f: impl FnOnce(&mut Session) -> Result<Effects, ServerError>,
    ) -> Result<Bytes, ServerError> {
        let slot = self.slot(id)?;
        let (view, effects) = {
            let mut s = lock(&slot.session);
            if s.deleted {
                // Taken in hand before a DELETE that has answered since: gone.
                return Err(ServerError::from(chess5d_play::PlayError::NoGame {
                    id: id.to_string(),
                }));
            }
            let before = s.play.checkpoint();
            let effects = f(&mut s)?;
            // Answered (and shown to watchers) only once on disk, many games sharing one fsync;
            // waited for under the game's lock, so that a write that fails is undone in memory
            // before anyone sees it: a failed write changes nothing.
            if effects.store {
                if let Err(e) = self.queue_persist(&s).and_then(|stored| stored.wait()) {
                    s.play.rewind(before);
                    return Err(e);
                }
            }
            if effects.store && s.is_over() && s.players.iter().any(chess5d_play::Player::is_engine) {
                end_engines(&slot);
            }
            let viewer = s.viewer(token.get(), self.inner.config.public);
            // Kept for the watchers when there are any (an unwatched game holds no view).
            let view = if slot.tx.receiver_count() > 0 {
                slot.write_view(&s, viewer)
            } else {
                Bytes::from(s.view_text(viewer, chess5d_play::Shown::Live))
            };
            (view, effects)
        };
        if effects.notify {
            let _ = slot.tx.send(());
        }
        if let Some(t) = effects.think {
            self.run_engine(&slot, t);
        }
        Ok(view)
    }
}

/// Takes out of `map` the games `ids` (in that order) that may leave memory (held by the map
/// alone, unwatched, no engine at work or to move, no clock running) while `more` says another
/// one must (it is asked with each game that may, before it leaves).
fn take_unloadable(
    map: &mut HashMap<i64, Arc<Slot>>,
    ids: &[i64],
    mut more: impl FnMut(&Slot) -> bool,
) -> Vec<Arc<Slot>> {
    let mut leaving = Vec::new();
    for id in ids {
        let Some(slot) = map.get(id) else { continue };
        let unloadable = Arc::strong_count(slot) == 1
            && slot.tx.receiver_count() == 0
            && slot.session.try_lock().is_ok_and(|s| {
                let clock_running = !s.is_over() && s.clock.as_ref().is_some_and(|c| c.turn_started.is_some());
                !(s.engine_busy || clock_running || s.engine_to_move() && s.engine_error.is_none())
            });
        if unloadable {
            if !more(slot) {
                break;
            }
            leaving.extend(map.remove(id));
        }
    }
    leaving
}

/// Tells the engine processes of games that left memory to quit (outside the map's lock, and
/// off the request's thread: a process may take its time to go).
fn quit_engines(leaving: Vec<Arc<Slot>>) {
    let processes: Vec<_> = leaving
        .iter()
        .filter_map(|slot| slot.engines.try_lock().ok())
        .flat_map(|mut e| {
            e.iter_mut()
                .filter_map(|r| match r.take() {
                    Some(Runner::Process(p)) => Some(p),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
        .collect();
    if !processes.is_empty() {
        std::thread::spawn(move || {
            for p in processes {
                p.quit(Duration::from_millis(300));
            }
        });
    }
}

impl AppState {
    /// An engine place for `client` (limits `engines-per-client` and `engines`). Refused, the
    /// place of another client's game gives way if one may (see [`AppState::engine_give_way`]),
    /// and it is asked for again.
    pub(crate) fn take_engine_place(
        &self,
        client: crate::limits::ClientKey,
    ) -> Result<crate::limits::Permit, ServerError> {
        let l = &self.inner.config.limits;
        let q = &self.inner.quotas.engines;
        match q.take(client, l.engines_per_client, l.engines, "engines") {
            Ok(p) => Ok(p),
            Err(e) if self.engine_give_way(client) => q
                .take(client, l.engines_per_client, l.engines, "engines")
                .map_err(|_| e),
            Err(e) => Err(e),
        }
    }

    /// Turns for engine places: a game whose engines are not at work and that nobody has
    /// asked for (and no engine moved in) during `engine-turn-secs`, of a client that holds
    /// more places than `client` (a client holding none takes from anyone), gives its places
    /// back: its engine processes end, the game stays as it is, and its engines take a place
    /// again (as its maker) when their turn comes. The game of the client holding the most,
    /// then the one idle longest, goes first. Whether a place came free.
    fn engine_give_way(&self, client: crate::limits::ClientKey) -> bool {
        let l = &self.inner.config.limits;
        let q = &self.inner.quotas.engines;
        let turn = Duration::from_secs(l.engine_turn_secs);
        let mine = q.held_by(client);
        let slots: Vec<Arc<Slot>> = lock(&self.inner.sessions).values().cloned().collect();
        let mut best: Option<((u64, Duration), Arc<Slot>)> = None;
        for slot in slots {
            let Some(owner) = lock(&slot.held).first().map(crate::limits::Permit::client) else {
                continue;
            };
            let theirs = q.held_by(owner);
            let idle = lock(&slot.touched).elapsed();
            if owner == client || idle < turn || !crate::limits::may_give_way(mine, theirs) {
                continue;
            }
            if best.as_ref().is_none_or(|(k, _)| *k < (theirs, idle)) {
                best = Some(((theirs, idle), slot));
            }
        }
        best.is_some_and(|(_, slot)| park_engines(&slot))
    }
}

/// Gives the engine places of a game whose engines are not at work back to the pool and ends
/// their processes (the game keeps everything else). Whether it held any.
fn park_engines(slot: &Arc<Slot>) -> bool {
    let s = lock(&slot.session);
    if s.engine_busy || s.is_over() {
        return false;
    }
    // An engine at work holds this lock: leave its game alone.
    let Ok(mut engines) = slot.engines.try_lock() else {
        return false;
    };
    let held = std::mem::take(&mut *lock(&slot.held));
    let runners: Vec<Runner> = engines.iter_mut().filter_map(Option::take).collect();
    drop(engines);
    drop(s);
    let gave = !held.is_empty();
    drop(held);
    std::thread::spawn(move || {
        for r in runners {
            if let Runner::Process(p) = r {
                p.quit(Duration::from_millis(300));
            }
        }
    });
    gave
}

/// A game deleted or over needs its engines no more: its places in the quotas of engines are
/// given back at once, and its engine processes told to quit (after the search under way,
/// which holds them).
pub(crate) fn end_engines(slot: &Arc<Slot>) {
    let held = std::mem::take(&mut *lock(&slot.held));
    drop(held);
    let engines = Arc::clone(slot);
    std::thread::spawn(move || {
        for r in lock(&engines.engines).iter_mut() {
            if let Some(Runner::Process(p)) = r.take() {
                p.quit(Duration::from_millis(300));
            }
        }
    });
}

pub fn parse_id(s: &str) -> Result<i64, ServerError> {
    s.parse::<i64>()
        .ok()
        .filter(|&i| i > 0)
        .ok_or_else(|| ServerError::from(chess5d_play::PlayError::NoGame { id: format!("'{s}'") }))
}
