//! Layer: domain: no HTTP (its routes are in `review_api`).
//!
//! Computer reviews of games (`chess5d_engine::review`, as `chess5d review` makes them): a
//! review is a budgeted job on a thread of its own (never on the async runtime): each position
//! searched within the limit `review-nodes` (and the review's depth and time per position); a
//! client runs at most `reviews-per-client` at once (a newer one ends its own oldest), the
//! server at most `reviews` (then a new one is refused with 429). A review ends early, keeping
//! the actions reviewed so far, when it is cancelled (`DELETE`), replaced by a newer review of
//! the same game, its game is deleted, the server stops, or nobody has asked for its progress
//! for `review-idle-secs` (its page went away: the page polls `GET .../review` meanwhile).
//!
//! The result is kept with the game in the database (its last review, once it has ended: done,
//! or cancelled with the actions reviewed so far) and in memory (the `reviews-kept` last
//! reviews; the oldest ended one leaves first), and answered by `GET /api/games/:id/review`, so
//! a page reloaded, or the game opened after a restart, shows it again.

use crate::error::ServerError;
use crate::limits::ClientKey;
use crate::limits::Permit;
use crate::sync::lock;
use chess5d_engine::review::{Canceller, Reviewer};
use chess5d_play::review::ReviewRun;
use chess5d_rules::Game;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Every review of the server: one per game (the latest).
#[derive(Debug, Default)]
pub struct Reviews {
    jobs: Arc<Mutex<BTreeMap<i64, Arc<Job>>>>,
    next: AtomicU64,
}

/// One game's review.
#[derive(Debug)]
pub(crate) struct Job {
    /// Its number (newer ones have larger numbers).
    serial: u64,
    /// Who asked for it, as the quotas count clients.
    client: ClientKey,
    canceller: Canceller,
    /// Why it was cancelled, once it was.
    why: Mutex<Option<String>>,
    /// When its progress was last asked for.
    seen: Mutex<Instant>,
    run: Mutex<ReviewRun>,
    /// Its answer once it has ended, written once (what it keeps in memory then: its bytes,
    /// not a tree of values).
    text: Mutex<Option<Arc<str>>>,
    /// Its place in the quota of reviews, given back when it ends.
    permit: Mutex<Option<Permit>>,
}

impl Job {
    /// Stops it (the search under way ends at once), saying why.
    pub(crate) fn cancel(&self, why: &str) {
        lock(&self.why).get_or_insert_with(|| why.to_string());
        self.canceller.cancel();
    }

    fn running(&self) -> bool {
        lock(&self.run).running()
    }

    /// Cancels it and waits (2 s at most) until its place in the quota is given back: its
    /// search under way stops at once, and the client may start another review right after.
    fn stop(&self, why: &str) {
        self.cancel(why);
        for _ in 0..200 {
            if lock(&self.permit).is_none() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// What a review needs to start: the game's actions, its result, the budget.
pub(crate) struct Start {
    pub game_id: i64,
    pub game: Game,
    pub result: Option<String>,
    pub client: ClientKey,
    pub nodes: u64,
    pub budget: crate::limits::EngineBudget,
    pub idle: Duration,
    /// The quota of reviews and `review-turn-secs`: the oldest running review gives its
    /// place up after this long while clients wait for one.
    pub turn: (crate::limits::Quota, Duration),
    pub kept: usize,
    /// The bytes of the ended reviews kept in memory at most (`reviews-kept-mb`).
    pub kept_bytes: usize,
    /// Keeps the ended review's state (its answer) with the game; whether it was kept (a
    /// review that ended unfinished does not replace a finished one).
    pub save: Box<dyn FnOnce(&Value) -> bool + Send>,
}

impl Reviews {
    /// The review of game `id`, if it has one: [`ReviewRun::json`] as text (and its page is
    /// there).
    pub(crate) fn view(&self, id: i64) -> Option<Arc<str>> {
        let job = lock(&self.jobs).get(&id).cloned()?;
        *lock(&job.seen) = Instant::now();
        if let Some(t) = lock(&job.text).clone() {
            return Some(t);
        }
        let v = lock(&job.run).json(id).to_string();
        Some(v.into())
    }

    /// The memory the ended reviews kept take (their answers' bytes).
    pub(crate) fn kept_bytes(&self) -> usize {
        lock(&self.jobs)
            .values()
            .filter_map(|j| lock(&j.text).as_ref().map(|t| t.len()))
            .sum()
    }

    /// Keeps the ended reviews within `kept` reviews and `bytes` bytes: the oldest ended ones
    /// leave memory first (their games' reviews are read from the database then).
    fn keep_within(jobs: &mut BTreeMap<i64, Arc<Job>>, kept: usize, bytes: usize) {
        let size = |j: &Job| lock(&j.text).as_ref().map_or(0, |t| t.len());
        let mut total: usize = jobs.values().map(|j| size(j)).sum();
        while jobs.len() > kept.max(1) || total > bytes {
            let oldest = jobs
                .iter()
                .filter(|(_, j)| !j.running())
                .min_by_key(|(_, j)| j.serial)
                .map(|(&id, _)| id);
            match oldest.and_then(|id| jobs.remove(&id)) {
                Some(j) => total = total.saturating_sub(size(&j)),
                None => break,
            }
        }
    }

    /// Cancels the review of game `id` if it runs (`why`: said in its `reason`); whether one
    /// ran.
    pub(crate) fn cancel(&self, id: i64, why: &str) -> bool {
        let job = lock(&self.jobs).get(&id).cloned();
        match job {
            Some(j) if j.running() => {
                j.cancel(why);
                true
            }
            _ => false,
        }
    }

    /// Cancels the review of game `id` under way for `client`, who started it (another client's
    /// is refused); whether one ran.
    pub(crate) fn cancel_for(&self, id: i64, client: ClientKey) -> Result<bool, ServerError> {
        let job = lock(&self.jobs).get(&id).cloned();
        match job {
            Some(j) if j.running() && j.client != client => Err(ServerError::Forbidden(format!(
                "the review of game {id} under way was started by another client; only it may stop it"
            ))),
            Some(j) if j.running() => {
                j.cancel("cancelled");
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The state of the review of game `id` under way by another client than `client`, if one
    /// is (a second client does not restart it).
    pub(crate) fn running_by_other(&self, id: i64, client: ClientKey) -> Option<Value> {
        let job = lock(&self.jobs).get(&id).cloned()?;
        (job.running() && job.client != client).then(|| lock(&job.run).json(id))
    }

    /// Forgets the review of game `id` (the game is deleted), stopping it if it runs: its place
    /// in the quota is back when this returns.
    pub(crate) fn forget(&self, id: i64) {
        let job = lock(&self.jobs).remove(&id);
        if let Some(j) = job {
            j.stop("the game was deleted");
        }
    }

    /// Cancels every review (the server is stopping).
    pub fn shutdown(&self) {
        for j in lock(&self.jobs).values() {
            j.cancel("the server stopped");
        }
    }

    /// Reviews running now.
    pub(crate) fn running(&self) -> usize {
        lock(&self.jobs).values().filter(|j| j.running()).count()
    }

    /// Starts a review, holding `permit` (its place in the quota) until it ends; a review of the
    /// same game under way is replaced. Answers its first state.
    pub(crate) fn start(&self, s: Start, permit: Permit) -> Result<Value, ServerError> {
        let options = chess5d_play::review::options(s.nodes, s.budget.hash_mb, s.budget.threads);
        let mut reviewer = Reviewer::new(options);
        let job = Arc::new(Job {
            serial: self.next.fetch_add(1, Ordering::SeqCst),
            client: s.client,
            canceller: reviewer.canceller(),
            why: Mutex::new(None),
            seen: Mutex::new(Instant::now()),
            run: Mutex::new(ReviewRun::start(s.game.actions().len(), s.nodes)),
            text: Mutex::new(None),
            permit: Mutex::new(Some(permit)),
        });
        {
            let mut jobs = lock(&self.jobs);
            if let Some(old) = jobs.insert(s.game_id, job.clone()) {
                old.cancel("replaced by a newer review");
            }
            // Keep at most `reviews-kept` and `reviews-kept-mb`: the oldest ended reviews
            // leave first.
            Reviews::keep_within(&mut jobs, s.kept, s.kept_bytes);
        }
        let first = lock(&job.run).json(s.game_id);
        let worker = job.clone();
        let jobs_of = Arc::clone(&self.jobs);
        let (game, result, idle, save, game_id) = (s.game, s.result, s.idle, s.save, s.game_id);
        let (kept_count, kept_bytes) = (s.kept, s.kept_bytes);
        let (quota, turn) = s.turn;
        let started = Instant::now();
        let mut writer = chess5d_play::review::ActionWriter::new(&game);
        // Costly work a client asked for: below the players' requests.
        crate::sync::spawn_background(&format!("review-{}", s.game_id), move || {
            let review = reviewer.review_game(&game, result, &mut |p| {
                lock(&worker.run).progress(p.searched, p.positions, p.action.map(|a| writer.json(a)));
                if lock(&worker.seen).elapsed() > idle {
                    worker.cancel(&format!(
                        "nobody asked for its progress for {} s (limit 'review-idle-secs')",
                        idle.as_secs()
                    ));
                }
                // Its turn is over while others wait, and it is the oldest running: it
                // gives its place up (the others run on).
                if started.elapsed() > turn && quota.has_waiting() && Reviews::oldest_running(&jobs_of, worker.serial) {
                    worker.cancel(&format!(
                        "gave its place to a client waiting for one after {} s (limit 'review-turn-secs'); \
                             start it again to go on",
                        turn.as_secs()
                    ));
                }
            });
            let why = lock(&worker.why).clone();
            let mut ended = lock(&worker.run).clone();
            ended.finish(review.json(), why);
            // Kept before its place in the quota is given back (a client cannot start
            // reviews faster than they are written), which is before it is shown ended.
            let answer = ended.json(game_id);
            let kept = save(&answer);
            let text: Arc<str> = answer.to_string().into();
            drop(answer);
            lock(&worker.permit).take();
            if !kept && !ended.running() && ended.status != chess5d_play::review::ReviewStatus::Done {
                // A finished review is stored with the game: the unfinished one leaves
                // memory, and the game's review is the stored one again.
                let mut jobs = lock(&jobs_of);
                if jobs.get(&game_id).is_some_and(|j| j.serial == worker.serial) {
                    jobs.remove(&game_id);
                }
            }
            // In memory from now on: the answer's bytes, and its status alone.
            *lock(&worker.text) = Some(text);
            let mut status = ReviewRun::start(0, ended.nodes);
            status.status = ended.status;
            *lock(&worker.run) = status;
            drop(ended);
            Reviews::keep_within(&mut lock(&jobs_of), kept_count, kept_bytes);
        })
        .map_err(|e| ServerError::Internal(format!("cannot start the review: {e}")))?;
        Ok(first)
    }

    /// Whether the review `serial` is the oldest one running (one cancelled but still
    /// stopping counts: its place is about to go to the client waiting).
    fn oldest_running(jobs: &Mutex<BTreeMap<i64, Arc<Job>>>, serial: u64) -> bool {
        lock(jobs).values().filter(|j| j.running()).map(|j| j.serial).min() == Some(serial)
    }

    /// Makes room for a new review of `client`: cancels its oldest running review (a newer one
    /// replaces it). Whether there was one.
    pub(crate) fn cancel_oldest_of(&self, client: ClientKey) -> bool {
        let oldest = lock(&self.jobs)
            .values()
            .filter(|j| j.client == client && j.running())
            .min_by_key(|j| j.serial)
            .cloned();
        match oldest {
            Some(j) => {
                j.stop("replaced by a newer review of the same client");
                true
            }
            None => false,
        }
    }
}
